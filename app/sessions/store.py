"""The GameStore port: where live games are kept, whatever the engine.

The unit of work is "apply this move to game X if it is legal, and return the result" — the
store authenticates the token, checks the rules and applies the move as one atomic step. Routers
never read a game, mutate it and write it back, so a store on another engine (Redis, with a
server-side script or a compare-and-set) offers the same guarantee: no accepted move lost or
applied twice. Implementations: ``app.stores.memory`` (embedded, the default) and
``app.stores.redis``; the app picks one from the settings (``app.main.store_from``).
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol

from app.sessions import tokens
from app.sessions.clock import TimeControl
from app.sessions.exchange import (
    ActionRequest,
    ActionResult,
    GameState,
    JoinResult,
    LegalMovesPage,
    MoveRequest,
    MoveResult,
    RematchAnswer,
)
from app.sessions.kind import GameKind, Move, Played, Player, Position
from app.sessions.lobby import Filter
from app.sessions.session import NO_TERMS, Session, Terms


class Changes(NamedTuple):
    """What a push stream reads at a time: the moves after a version, the game's state, and
    the store's time of the read (to wait for a running clock's deadline by the store's time)."""

    moves: list[Move]
    state: GameState
    at_ms: int
    # The takeback after the version read that left the fewest moves, as the state right after
    # it (``session.state_at_takeback``): the moves read are those after it. None: no takeback.
    taken_back: GameState | None = None
    # The gifts of time after the version read, as the states right after them
    # (``session.state_at_gift``), in order: those before the last move read (all, when it is
    # the game's last) whose moves still stand (a gift made after a move a takeback took back
    # is history, as that move is). None: the game was stored before gifts were logged (only
    # the last one's version is known: ``GameState.last_given``).
    gifts: tuple[GameState, ...] | None = ()

    def due_in(self) -> float | None:
        """Seconds until the game ends by itself unless a player acts (the running clock's flag
        falls, a first move's deadline passes: ``GameState.deadline_ms``), by the store's time;
        None if nothing is due."""
        deadline = self.state.deadline_ms
        if deadline is None:
            return None
        return max(0.0, (deadline - self.at_ms) / 1000)


class Seat(NamedTuple):
    """Whose token a request carries: its player, in a game of this kind (named), whose board
    has this size (rows, columns; it never changes), by which a move's square is read."""

    player: Player
    kind: str
    size: tuple[int, int]


class History(NamedTuple):
    """A game from its start: its kind's name, its creation parameters (as the kind's
    ``GameKind.new`` takes them) and its move records in order — what a record of it holds."""

    kind: str
    params: Mapping[str, object]
    moves: list[Move]


class BoardShape(NamedTuple):
    """What never changes of a game's board: its kind (named) and its size (rows, columns:
    ``kind.board_size``), by which its cells are named."""

    kind: str
    size: tuple[int, int]


class Client(str):
    """A client as every per-client share and limit counts it: this string is its key (an
    address; for IPv6, its network of ``Settings.client_ipv6_prefix``: ``app.api.clients``),
    what every table is keyed by; ``network`` is the network it is counted with too (an IPv4
    /24, an IPv6 /48), whose clients together hold ``Settings.network_factor`` clients' worth
    of each share — or None: it has none apart from itself (not an address, or the network's
    prefix is the client's own). A plain string is a client without a network.

    A string, so that code that only needs the key (a table, a log line, the store's owner
    field) takes a client as it always took an address."""

    network: str | None

    def __new__(cls, key: str, network: str | None = None) -> Client:
        client = super().__new__(cls, key)
        client.network = network
        return client


def network_of(client: str) -> str | None:
    """The network ``client`` is counted with too (a ``Client``'s), if any."""
    return client.network if isinstance(client, Client) else None


def holder_of(client: str) -> str:
    """Who holds the games ``client`` creates nobody has moved in yet, when a full store makes
    room among them: its network, or the client itself if it has none."""
    return network_of(client) or client


# What a client's share of the store is counted in, as a refusal says it.
# The store's bounds by default: the moves it holds in all its games
# (ADJUDICATOR_MAX_TOTAL_MOVES), the live games one client may have created
# (ADJUDICATOR_CLIENT_OPEN_GAMES).
DEFAULT_MAX_TOTAL_MOVES = 1_000_000
DEFAULT_CLIENT_OPEN_GAMES = 5

CLIENT_GAMES = "live games created by one client"
CLIENT_MOVES = "stored moves of the games one client created"
NETWORK_GAMES = "live games created by the clients of one network"
NETWORK_MOVES = "stored moves of the games the clients of one network created"
# What the pool of games nobody has moved in is counted in.
UNSTARTED_GAMES = "games nobody has moved in yet"


def client_part(bound: int, share: float) -> int:
    """A client's part of a store-wide bound: ``share`` of it, and at least one."""
    return max(1, math.floor(bound * share))


def network_part(bound: int, share: float, factor: float) -> int:
    """A network's part of a store-wide bound: ``factor`` clients' parts (``client_part``),
    at most the bound."""
    return min(bound, max(client_part(bound, share), math.floor(bound * share * factor)))


def network_bound(per_client: int, factor: float) -> int:
    """What the clients of one network hold together of a per-client bound: ``factor`` times
    it (at least it)."""
    return max(per_client, math.floor(per_client * factor))


# What a client's share of open games is counted in, as a refusal says it.
CLIENT_OPEN_GAMES = "open games created by one client"
NETWORK_OPEN_GAMES = "open games created by the clients of one network"


@dataclass(frozen=True, slots=True)
class CreatedGame:
    state: GameState
    # Players 1 and 2, shown once (the store keeps hashes only); None for an open game's free
    # seat, whose token is made when someone joins.
    tokens: tuple[str | None, str | None]


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to make (``GameStore.create``): what it is — its kind (one of the store's
    ``kinds``), its validated parameters, a time ``control`` for clocks, its ``opening`` moves
    (checked legal by the creation body; played first, as its first move records, untimed) and
    its ``terms`` (a private game, its first-move deadline, the actions it leaves out) — and
    who holds it: the client ``owner`` (whose share it is charged to), an ``open_seat`` left
    free for anyone to join (the game is then listed in the lobby unless it is private), or the
    players' token hashes ``seated`` (a rematch's: its answer then shows no token), or the
    tokens ``given`` to seats (a player's seat token, ``tokens.seat_token``, for the game
    ``id`` given: the others made as ever), and the ``players`` (ids) holding seats; and what
    the seats are called (``names``).

    What a game was made of is again a NewGame, without its holders (``recipe_of``): a rematch
    is made from it, its holders replaced."""

    kind: str
    params: Mapping[str, object]
    control: TimeControl | None = None
    opening: tuple[Played, ...] = ()
    terms: Terms = NO_TERMS
    owner: str = ""
    open_seat: Player | None = None
    seated: tuple[str, str] | None = None
    names: tuple[str | None, str | None] = (None, None)  # what seats 1 and 2 are called
    id: str | None = None  # the new game's id (None: made by the store)
    given: tuple[str | None, str | None] = (None, None)  # seats' tokens given (None: made)
    players: tuple[str | None, str | None] = (None, None)  # the players (ids) holding seats

    def rematch(self, owner: str, seated: tuple[str, str]) -> NewGame:
        """The rematch of the game this made, held by ``owner``: the same game with the seats
        swapped (the players' token hashes ``seated`` as the rematch seats them, and each
        player's name going along to the other seat). A rematch is the players' own: held by
        their tokens, by no player's key, and not rated."""
        swapped = (self.names[1], self.names[0])
        terms = replace(self.terms, pool=None, tournament=None)
        return replace(self, owner=owner, seated=seated, names=swapped, terms=terms)


class OpenGames(NamedTuple):
    """A page of the lobby: open games' states, oldest first, and the cursor to the next page
    (None: no more when it was read)."""

    games: list[GameState]
    next_cursor: int | None


class GameStore(Protocol):
    """Where live games are kept. Every method is atomic with respect to the others.

    Every method that reads or changes a game first lets a flag fall that is due by the store's
    time (so a game shows the end on time whether or not anybody was looking).

    **A game lives as long as its clock.** A game whose clock runs, or whose first move's
    deadline is pending, is never removed before that instant: idle expiry (``idle_seconds``;
    ``unstarted_seconds`` before the first move) counts only while no clock runs, and a game
    ended by its deadline lives its idle time from then. Nobody needs to look: the store ends a game
    whose deadline came within about a second of it by itself (memory: one timer for the
    earliest deadline; Redis: deadlines every store process sweeps), as a request touching it
    would (the same ending, counted in ``endings``, announced to its streams).

    **The archive's outbox** (a store built with ``archive=True``; without it, nothing below
    applies and a finished game expires as it always did). Every game that ends — by a move
    (won, drawn, the move limit), a resignation, an agreed draw, a flag fall, an abort or a
    first move's deadline — is put in the store's outbox by the same atomic step that ends it,
    and from then on waits in the store, never expired nor evicted, until ``archived`` says it
    is in the archive. A waiting game still counts as a live game (of the store's
    ``max_games``, and of its owner's share) until then, so the outbox is bounded by the games
    the store already bounds. If the archive stays down, finished games keep their places:
    once the store is full, creations are refused (``CapacityExhausted``: 503
    ``capacity_exhausted`` with a Retry-After) until the archive takes them, while play in
    the live games goes on. (A player's ``delete`` still removes a game, waiting or not: it
    leaves the outbox too.)
    """

    # The games this process ended, by reason (for ``adjudicator_games_ended_total``).
    endings: Counter[str]

    # Set whenever a game of this store ended in this process (a request, or the store's own
    # timer or sweep: a flag fall, a first move's deadline), once it is in the outbox (an
    # archiving store only). An archiver waits on it, then ``clear()``s it BEFORE it reads
    # ``unarchived`` (so that an ending after the read sets it again). A hint: a game another
    # process ended, or one left by a process that died, is only found by reading
    # ``unarchived`` — an archiver reads it every few seconds too.
    ended: asyncio.Event

    async def unarchived(self, limit: int) -> list[str]:
        """The ids of ended games waiting to be archived (``archive=True``; else none), oldest
        end first, at most ``limit`` (≥ 1). Reading takes nothing: a game stays listed until
        ``archived`` (an archiver may die between the two; archivers are idempotent by id).
        Shared by every process of a networked store: a game another process ended is listed
        once that process answered the request that ended it, or swept it (one that died
        before telling where it is: within a minute, ``app.stores.redis.life``). Raises
        StoreUnavailable."""
        ...

    async def archived(self, game_ids: Sequence[str]) -> None:
        """These games are in the archive now: they leave the outbox, and from now on expire
        as finished games do (``idle_seconds`` from now). Idempotent: ids not waiting (never
        ended, archived already, unknown, gone) are ignored. Raises StoreUnavailable (then
        some may have been taken out: call again)."""
        ...

    async def create(self, game: NewGame) -> CreatedGame:
        """A new ``game``, with clocks if it has a time control, listed in the lobby if it has
        an open seat and is not private. When the store holds its most games, or games nobody
        has moved in hold their most places, the oldest such game of the holder of the most
        (``holder_of``) gives its place if that holds more than the owner's holder: gone, as if
        expired. Raises CapacityExhausted when none does, or the owner (or its network:
        ``Client``) holds its share (of games, of moves, or of open games).

        **Made once by its id.** A game whose ``id`` is given and is in the store already
        (however many creations of it race, from any process) is left as it is, neither made
        again nor counted again: the answer is its state and the ``given`` tokens. So a game
        drawn before it is made (an offer's, ``app.api.matches``) is made again safely after a
        process died not knowing whether it was."""
        ...

    async def join(
        self, game_id: str, idempotency_key: str | None, requester: str, name: str | None = None,
        player: str | None = None, token: str | None = None,
    ) -> JoinResult:  # fmt: skip
        """Take the open seat of the game (``Session.join``), called ``name`` if given (else as
        the creator called it), by the ``player`` (an id) with its seat ``token`` if given (a
        player holds one seat of a game at most: SeatTaken): one join wins however many race,
        and a retry under the winner's ``idempotency_key`` from the same ``requester`` (the
        client, as limits count it) gets its seat and token again; the game leaves the lobby.
        Raises GameNotFound or SeatTaken."""
        ...

    async def rematch(self, game_id: str, token: str, owner: str) -> RematchAnswer:
        """A rematch offer of the player whose ``token`` this is, after the end
        (``Session.rematch_step``): the first offer stands; once both players offered, the
        rematch is made once (however the offers race: the same recipe, the seats swapped,
        held by ``owner``, the client that made it), and each player's call answers its own
        seat and token in it. Raises GameNotFound, Unauthorized, ActionNotAllowed, GameNotOver,
        or CapacityExhausted (the rematch could not be made: nothing changed)."""
        ...

    async def open_games(self, where: Filter, after: int, limit: int) -> OpenGames:
        """Open games of the lobby index ``where`` created after the cursor ``after`` (0: from
        the oldest), at most ``limit``, oldest first."""
        ...

    async def state(self, game_id: str) -> GameState:
        """Raises GameNotFound."""

    async def readers(self, game_id: str) -> frozenset[str]:
        """The hashes of the tokens that may read the game if it is private: its players' and
        its spectators' (what the archive keeps of who may read it). Raises GameNotFound."""
        ...

    async def viewer(self, game_id: str, token: str | None) -> None:
        """Whether the game may be read with ``token`` (None: none sent): a public game by
        anyone, a private one with a player's or a spectator's token only. Raises GameNotFound,
        or Unauthorized. (Visibility and tokens never change but for new ones: a store may
        answer from what it knows of the game.)"""

    async def spectate(self, game_id: str, token: str) -> str:
        """A new spectator token of the game, asked with a player's ``token``; the store keeps
        its hash, which reads the game and never acts (SpectatorToken). Raises GameNotFound,
        Unauthorized, or TooManySpectators once the game has issued ``game_spectators``."""

    async def seat(self, game_id: str, token: str) -> Seat:
        """The player whose token this is, the game's kind and its board's size (so that a
        request is authenticated before its body is read, and the body read as the kind's, its
        square names as the board's); raises GameNotFound or Unauthorized. ``play`` and ``act``
        authenticate again, atomically: a store may answer this from what never changes of a
        game (its tokens, its kind, its size)."""

    async def board_shape(self, game_id: str) -> BoardShape:
        """The game's kind and its board's size, which never change: what the names of its
        cells depend on. Raises GameNotFound."""

    async def play(self, game_id: str, token: str, request: MoveRequest) -> MoveResult:
        """Authenticate ``token``, check the move for its player, apply it — or change nothing.

        As ``Session.play`` says: with an ``idempotency_key``, a request already answered for
        this game and player gets the first answer again (``replayed``), or
        IdempotencyKeyReused if its move differs; with ``expected_version``, the move applies
        only at that version (else PreconditionFailed). Raises GameNotFound, Unauthorized,
        WrongPlayer (``player`` given and not the token's), or the kind's rule errors.
        """

    async def act(self, game_id: str, token: str, request: ActionRequest) -> ActionResult:
        """A resignation or a draw offer, authenticated, conditioned and remembered as a move
        is (``play``); raises GameOver after the end."""

    async def moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        """Moves with ``seq > since`` (at most ``limit``), and the game's version."""

    async def changes(self, game_id: str, since: int, limit: int) -> Changes:
        """For push streams: the moves made after version ``since`` (at most ``limit`` ≥ 1),
        the game's state, and the changes that were no moves a stream sends in their place
        among the moves (``Changes``), read together. Readers asking the same at once may
        share one read."""

    async def move(self, game_id: str, seq: int) -> Move:
        """Raises GameNotFound or MoveNotFound."""

    async def legal_moves(self, game_id: str, after: int, limit: int) -> LegalMovesPage:
        """The legal moves of the player to move whose cells come after the cell index
        ``after`` (-1: from the first), at most ``limit``, with the game's version they were
        read at; raises GameNotFound. A page costs what it lists and the occupied cells it
        skips, never the board's n² cells."""

    async def rows(self, game_id: str) -> list[str]:
        """The board as strings (the caller bounds its size)."""

    async def history(self, game_id: str) -> History:
        """The game's kind, its creation parameters and every move record, in order (a game
        has at most ``max_moves_per_game`` of them); raises GameNotFound."""

    async def delete(self, game_id: str, token: str) -> None:
        """Either player's token; raises GameNotFound or Unauthorized."""

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        """Return once the game is past ``version`` (or gone), or after ``timeout`` seconds
        (a stream passes the time to a running clock's deadline, then reads again).

        A hint for push streams, not a guarantee: callers read the store again afterwards.
        Neither this nor ``changes`` may take what moves need (a networked store reads for
        streams on connections of their own).
        """

    async def ready(self) -> bool:
        """True while the store can serve requests."""

    async def live_games(self) -> int:
        """How many games the store holds now."""

    async def close(self) -> None:
        """Release connections (at shutdown)."""


def seats(
    open_seat: Player | None,
    seated: tuple[str, str] | None = None,
    given: tuple[str | None, str | None] = (None, None),
) -> tuple[tuple[str | None, str | None], tuple[str, str]]:
    """A new game's tokens and their hashes: a token for each seat (``given``, else made), but
    none for an open game's free seat, whose hash is empty (no token's hash is: nobody holds
    that seat until a join gives it one); none at all for a game whose seats' hashes are given
    (``seated``)."""
    if seated is not None:
        return (None, None), seated
    made = [token or tokens.new_token() for token in given]
    secrets: list[str | None] = list(made)
    hashes = [tokens.token_hash(token) for token in made]
    if open_seat is not None:
        secrets[open_seat - 1], hashes[open_seat - 1] = None, ""
    return (secrets[0], secrets[1]), (hashes[0], hashes[1])


def recipe_of(session: Session, control: TimeControl | None) -> NewGame:
    """What ``session``'s game was made of (no holders): its opening is its untimed first
    moves."""
    opening = tuple(session.move(seq).played for seq in range(1, session.untimed + 1))
    first = None if session.first_move_ms is None else session.first_move_ms // 1000
    terms = Terms(first, session.disabled, session.private)
    return NewGame(session.kind.name, session.params, control, opening, terms, names=session.names)


def opened(kind: GameKind, params: Mapping[str, object], opening: Sequence[Played]) -> Position:
    """A new position of ``kind`` with its opening's moves played, each by the player to move
    (an opening is legal: its creation body checked it)."""
    position = kind.new(params)
    for played in opening:
        player = position.next_player
        assert player is not None, "an opening ends before the game does"
        position.play(played, player)
    return position
