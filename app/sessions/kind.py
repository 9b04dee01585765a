"""What a game kind is: the seam between the generic session and the rules of one game.

A session (``session.py``) does what every game shares: players and their tokens, versions,
idempotency receipts and refusals. Everything particular to one game is behind two small
protocols, implemented by one module per kind in ``kinds/``:

* a ``Position`` is one game's board: it checks a move by its rules (raising the ``RuleError``
  that refuses it, and changing nothing) or applies it, says whose turn it is and how the game
  stands, lists the moves the player to move may make (``legal_moves``, a page at a time),
  describes itself (``facts``) and its board (``rows``), and keeps its move records;
* a ``GameKind`` makes positions — new from the kind's parameters, or back from the text a
  store kept — and encodes parameters and move records as text for stores, and says what a
  store may do faster for it (``fast_path``). What clients see of a kind (its ``Face``) is
  declared beside it, in ``app/kinds/``, above this core, which never reads it
  (``app.contract.games.Kind``). ``app/kinds/__init__.py``'s ``KINDS`` is the one list.

A move is a value the kind defines (``Played``): a cell (``Placement``), a ``Pass``, or a value
of the kind's own (a choice). The session, the stores, receipts, idempotency and events treat it
as opaque: its fields in the move record (``record``) and its text (``text``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Generic, Literal, Protocol, TypeVar

from typing_extensions import dataclass_transform

Player = Literal[1, 2]
Status = Literal["in_progress", "won", "draw", "aborted"]  # aborted: no result, nobody lost
Winner = Literal[0, 1, 2]  # 0: nobody (yet), or a draw
# Why a game ended: by the kind's rules (``line``, ``board_full``, ``no_moves``; ``foul``, a
# forbidden move that loses by a rule, and ``passes``, two passes in a row; ``dead_position``, no
# line can still be completed, in a game created with ``early_draw``), or by the session's:
# ``move_limit`` (the configured most moves per game, a draw), ``timeout`` (a flag fell),
# ``resignation``, ``agreement`` (a draw offered by both players), ``aborted`` (by a player,
# before both had moved: status ``aborted``) and ``no_first_move`` (a player's first move not
# made within the game's ``first_move_seconds``: aborted too).
Reason = Literal[
    "line",
    "board_full",
    "no_moves",
    "foul",
    "passes",
    "dead_position",
    "move_limit",
    "timeout",
    "resignation",
    "agreement",
    "aborted",
    "no_first_move",
]

# The reasons a game ends aborted (status ``aborted``, winner 0): it has no result.
ABORTED: tuple[Reason, ...] = ("aborted", "no_first_move")


_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def immutable(cls: type[_T]) -> type[_T]:
    """A frozen dataclass to the type checker, which refuses any assignment to a field; at run
    time a dataclass with slots, compared and hashed on its fields as a frozen one is. What a
    frozen dataclass adds is the guard, and its price: its ``__init__`` sets every field through
    ``object.__setattr__``, some 1,300 machine instructions a field on CPython 3.11, so making a
    7-field ``Move`` cost more than deciding the move it records."""
    return dataclass(slots=True, unsafe_hash=True)(cls)


def other(player: Player) -> Player:
    return 2 if player == 1 else 1


class Played(Protocol):
    """What a move plays, as the kind defines it: a cell, a pass, a choice."""

    def record(self) -> Mapping[str, object]:
        """Its fields in the move record, e.g. ``{"row": 1, "col": 2}``."""
        ...

    def text(self) -> str:
        """Its text: one move's value for receipts and stores, e.g. ``"1:2"``."""
        ...


@immutable
class Placement:
    """A move that puts a mark or a stone on a cell."""

    row: int
    col: int

    @staticmethod
    def of(played: Played) -> Placement:
        """The cell a move plays, for a kind (or a fast path) whose moves are cells: the edge
        gives it no other move body, so anything else is a bug."""
        if not isinstance(played, Placement):
            raise TypeError(f"a move on a cell was expected, not {played!r}")
        return played

    def record(self) -> Mapping[str, object]:
        return {"row": self.row, "col": self.col}

    def text(self) -> str:
        return f"{self.row}:{self.col}"


@immutable
class Pass:
    """A move that places nothing: the mover gives the turn away."""

    def record(self) -> Mapping[str, object]:
        return {"pass": True}

    def text(self) -> str:
        return "pass"


class Choice(Played, Protocol):
    """A move that is neither a cell nor a pass: a choice an opening rule asks of a player
    (swap2's colour, or two more stones). A client posts its ``body`` on the game's choice route
    (``Face.choices``), and a record writes it so (``{"color": "W"}``)."""

    def body(self) -> Mapping[str, object]:
        """The choice as a client posts it and a record writes it."""
        ...


@dataclass(frozen=True, slots=True)
class ClockReading:
    """Both players' clocks right after a move of a clocked game: the instant it was accepted
    (milliseconds since the epoch, the store's time), the time left to each player, and whose
    clock then runs (None before each player has moved once, and after the end)."""

    at_ms: int
    remaining_ms: tuple[int, int]  # players 1 and 2
    running: Player | None
    spent_ms: int = 0  # the time the mover's clock ran for the move (0: an untimed move)


@immutable
class Move:
    """An accepted move, as clients see it: its number (1 for the first), what it played (a
    cell, a pass, …) and its player, and the kind's own fields of the record (``facts``: a
    move's ``flips`` and ``passed``, where a move flips stones).

    ``state_facts`` are the kind's facts of the game's state right after the move, where the
    kind cannot tell them from the state now (a score); the answer to the move is
    rebuilt from them (``GameKind.after``). Clients never see them as such, nor the session's
    own facts of that moment: the game's ``version`` right after the move (None: its ``seq``,
    as long as no change but moves came before it), the instant it was accepted (``at_ms``:
    milliseconds since the epoch, the store's time; None for an opening's posted stones and a
    move stored before moves kept it) and the clocks (``clock``, if it has them).
    """

    seq: int
    played: Played
    player: Player
    facts: Mapping[str, object] | None = None
    state_facts: Mapping[str, object] | None = None
    version: int | None = None
    clock: ClockReading | None = None
    at_ms: int | None = None

    def stamped(self, version: int | None, clock: ClockReading | None, at_ms: int | None) -> Move:
        """This move with the session's facts of it: ``dataclasses.replace``'s answer at a fifth
        of its cost (it is paid for every move of a history read)."""
        return Move(
            self.seq, self.played, self.player, self.facts, self.state_facts, version, clock, at_ms
        )

    @property
    def changed(self) -> int:
        """The game's version right after this move."""
        return self.seq if self.version is None else self.version


@dataclass(frozen=True, slots=True)
class LegalMove:
    """A move the player to move may make now: what it would play, and the kind's own fields of
    it (``facts``: the stones it would flip, say), rendered as the kind's legal-move item
    (``Face.legal_move``)."""

    played: Played
    facts: Mapping[str, object] | None = None


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """A page of the legal moves of the player to move, in row-major order of their cells.

    ``count`` is how many there are in all; ``moves`` those of this page; ``next_after`` the
    cell index (``row * width + col``) after which the next page starts — its last move's —
    or None when no legal move follows this page.
    """

    count: int
    moves: tuple[LegalMove, ...]
    next_after: int | None


NO_LEGAL_MOVES = LegalMoves(0, (), None)


def cell_page(cells: Iterator[int], width: int, limit: int) -> tuple[list[Placement], int | None]:
    """The first ``limit`` of ``cells`` (cell indices ``row * width + col``, ascending) as
    placements, and the cursor of the next page: the last one's index if ``cells`` has one
    more, else None. Takes at most ``limit + 1`` of them: a lazy ``cells`` is never walked to
    its end."""
    taken = list(islice(cells, limit))
    more = next(cells, None) is not None
    page = [Placement(*divmod(index, width)) for index in taken]
    return page, taken[-1] if taken and more else None


def free_cells(total: int, occupied: Container[int], start: int) -> Iterator[int]:
    """The indices from ``start`` on (of ``total``) that are not ``occupied``, ascending: each
    one taken costs it and the occupied cells just before it, never the board."""
    index = max(start, 0)
    while index < total:
        if index not in occupied:
            yield index
        index += 1


class Position(Protocol):
    """One game's board, of one kind."""

    @property
    def status(self) -> Status: ...

    @property
    def winner(self) -> Winner: ...

    @property
    def reason(self) -> Reason | None:
        """Why the game ended by the kind's rules; None while it goes on."""
        ...

    @property
    def next_player(self) -> Player | None:
        """Who moves now; None once the game is over."""
        ...

    @property
    def move_count(self) -> int: ...

    def play(self, played: Played, player: Player) -> Move:
        """Apply ``player``'s move if the rules allow it, else raise the RuleError that
        refuses it and change nothing. ``played`` is one of the values the kind's move bodies
        make (``Face.moves``)."""
        ...

    def move(self, seq: int) -> Move:
        """Move number ``seq`` (the caller checks 1 ≤ seq ≤ move_count)."""
        ...

    def legal_moves(self, after: int, limit: int) -> LegalMoves:
        """The legal moves of the player to move whose cells come after the cell index
        ``after`` (-1: from the first cell), at most ``limit`` (≥ 1) of them; none once the
        game is over. A page costs what it lists (and, where a kind must, what it skips), never
        the whole board: a board may have 10¹² cells."""
        ...

    def moves(self, since: int, limit: int) -> list[Move]:
        """The moves with ``seq > since``, in order, at most ``limit``."""
        ...

    def undo(self, taken: Sequence[Move], before: Move | None) -> None:
        """Take back ``taken``, the game's last moves in order (a takeback, while the game goes
        on; each one ``GameKind.takes_back``): the position is again as it was right after
        ``before``, the move before them (None: the first of them was the game's first move),
        which it answers as its last move. Costs what the moves changed (a stone and its lines,
        the stones a move flipped), never the board or the history."""
        ...

    def facts(self) -> Mapping[str, object]:
        """The kind's own fields of the game's state (e.g. ``{"n": 3}``)."""
        ...

    def rows(self) -> list[str]:
        """The board as strings, one a row (the caller bounds the size)."""
        ...

    def encode(self) -> str:
        """The position as text, from which ``GameKind.decode`` rebuilds it. A store keeps
        the move records in a list of their own, so the text need not hold them: the position
        rebuilt must answer ``move`` for its last move (a state's ``last_move``) and those
        played after it, and may refuse older ones (``LookupError``). A text whose size does
        not grow with the moves makes a move cost the same at every move."""
        ...


@dataclass(frozen=True)
class FastPath:
    """Games of a kind that a store may play with an engine of its own rather than the generic
    session (a Redis script that decides a move in O(1), in one round trip). ``engine`` names
    it: ``"lines"``, cells taken one at a time on an n × n board and k in a row wins (an
    ``early`` game keeps the windows a line can still be made in, a ``rule`` says which runs
    win); ``applies`` says which games, by their creation parameters; ``params`` are the
    engine's parameters of one (``n``, ``k``, ``rule``, ``early``). The kind declares it once;
    the store reads it, and names no kind. A kind made from another (a subclass) inherits its
    fast path: one whose rules differ declares its own, or None."""

    engine: str
    applies: Callable[[Mapping[str, object]], bool]
    params: Callable[[Mapping[str, object]], Mapping[str, object]]


def early_draw_param(params: Mapping[str, object]) -> dict[str, object]:
    """The line engine's ``early`` parameter (``FastPath.params``): set for a game created with
    ``early_draw``, whose engine keeps the windows a line can still be made in."""
    return {"early": 1} if params.get("early_draw") is True else {}


def board_size(kind: GameKind, facts: Mapping[str, object]) -> tuple[int, int]:
    """The board's rows and columns, from a game's facts (``GameKind.dimensions``): what its
    cells' square names depend on, with the kind's direction (``Face.row_one``)."""
    dimensions = kind.dimensions
    rows, cols = facts[dimensions[0]], facts[dimensions[-1]]
    if not isinstance(rows, int) or not isinstance(cols, int):
        raise TypeError(f"{kind.name}'s dimensions {kind.dimensions} must be integer facts")
    return rows, cols


class GameKind(Protocol):
    """One kind of game: how its positions are made, and how a store keeps them as text."""

    @property
    def name(self) -> str:
        """The kind's name in the API and in stores (a creation body's ``game``)."""
        ...

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules a game of this kind may be created under (a creation's ``rule``): the
        lobby lists open games by them. None for a kind without rules: ``()``."""
        ...

    @property
    def dimensions(self) -> tuple[str, ...]:
        """The names of the facts that give the board's size: its rows', then its columns'
        (``("height", "width")``), or one name for a square board (``("n",)``)."""
        ...

    @property
    def fast_path(self) -> FastPath | None:
        """The games of this kind a store may play with an engine of its own (``FastPath``);
        None: every game takes the generic session."""
        ...

    def new(self, params: Mapping[str, object]) -> Position:
        """A new game from its (validated, JSON-compatible) parameters, e.g. ``{"n": 3}``."""
        ...

    def decode(self, params: Mapping[str, object], text: str) -> Position:
        """The position ``Position.encode`` wrote."""
        ...

    def encode_move(self, move: Move) -> str:
        """A move record as a store keeps it in the game's move list."""
        ...

    def decode_move(self, seq: int, text: str) -> Move:
        """Move number ``seq`` back from ``encode_move``'s text."""
        ...

    def takes_back(self, move: Move) -> bool:
        """Whether a takeback may take ``move`` back: every move of play may, none of an opening
        rule's (swap2's stones and choices: its colours stay as they were chosen)."""
        ...

    def clocks_wait(self, params: Mapping[str, object]) -> bool:
        """Whether a clocked game of these parameters keeps both clocks stopped until each
        player has moved once (the contract's clocks: the creator waits for the invited player)
        or runs them from the first move (False: swap2, whose clocks run from the first stone,
        each while its player must act)."""
        ...

    def after(
        self, move: Move, facts_now: Mapping[str, object]
    ) -> tuple[Player, Mapping[str, object]]:
        """Who was to move right after ``move``, when more moves followed it, and the kind's
        facts at that moment, given its facts now (to answer that move again, or replay it
        on an event stream)."""
        ...

    def ended(
        self, facts: Mapping[str, object], status: Status, winner: Winner, reason: Reason | None
    ) -> Mapping[str, object]:
        """The kind's facts of a state (``Position.facts``) with those the game's outcome
        decides, whoever decided it — the rules, a clock, a resignation, an agreement (a
        federation's ``final_score``, say). Every state a client sees goes through it."""
        ...


class Alternating:
    """What a kind whose players simply alternate says of its games, as most kinds do: every
    move of play may be taken back, clocks wait for each player's first move, the player after
    a move is the other, and a result is its winner (no facts an outcome decides). A kind that
    differs says so itself (passes, a final score counted, an opening's choices)."""

    def takes_back(self, move: Move) -> bool:
        return True

    def clocks_wait(self, params: Mapping[str, object]) -> bool:
        return True

    def after(
        self, move: Move, facts_now: Mapping[str, object]
    ) -> tuple[Player, Mapping[str, object]]:
        return other(move.player), facts_now  # and the board's size is fixed

    def ended(
        self, facts: Mapping[str, object], status: Status, winner: Winner, reason: Reason | None
    ) -> Mapping[str, object]:
        return facts


K_co = TypeVar("K_co", bound=GameKind, covariant=True)


class Kinds(Generic[K_co]):
    """Game kinds by name, in the order they were given (the first is the default of a
    creation body that names none)."""

    def __init__(self, kinds: Iterable[K_co]) -> None:
        self._by_name: dict[str, K_co] = {}
        for kind in kinds:
            if self._by_name.setdefault(kind.name, kind) is not kind:
                raise ValueError(f"two kinds are named {kind.name!r}")
        if not self._by_name:
            raise ValueError("a service serves at least one kind")

    def find(self, name: str) -> K_co:
        """The kind called ``name``; KeyError for a kind this service does not know."""
        return self._by_name[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def __iter__(self) -> Iterator[K_co]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)


# The kinds as the core and the stores read them: by name, each a ``GameKind``.
KindRegistry = Kinds[GameKind]
