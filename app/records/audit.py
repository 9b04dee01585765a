"""The audit of a whole game: a record's moves replayed through the kind's own ``Position``.

Every move goes through ``Position.play``, the code every move of a live session goes through,
played by the player to move, in the order written: the same rules, once. A record says what
was played, not who played it (transcripts, GGF and WTHOR files name colours at most, and a
colour follows from the moves before), so the player is always the one to move, and the only
refusals an audit meets are those of the rules: a cell outside the board, an occupied one, a
stone that brackets nothing, a move after the end (``game_over``, as a session says it first).

Passes. A kind whose moves include a pass (``Pass``) plays it like any move. A kind whose passes
are nobody's move (Othello: a player without a legal move is skipped, and the move that skipped
it says so, ``Face.inferred_pass``) never needs one written: transcripts and records leave them
out, and the replay infers them. Where a record does write one (GGF writes ``PA``), it is
checked: it stands for the skip the move before it made, once, and anywhere else it is
``PassRefused``.

Time is linear in the moves: each is one ``play``, which costs the kind's move (O(1) for
tic-tac-toe, a bitboard walk for Reversi) and nothing that grows with the record. The replay is
``Steps``, a move a step (``replaying``), so that the HTTP edge runs a long record a slice at a
time between other requests (``app.api.work.in_slices``); ``replay`` runs it through at once.

A kind's position may also replay a record's cells many at a time (``CellReplay``, offered by
the position's ``cell_replay``): the same rules and the same refusals, without a ``Move`` made
a move — its move records are made when they are read (an answer that shows them), and may
render themselves and write their own canonical JSON (``MoveRecords``: what the hash chain
hashes). A record of plain cells (no pass written, no player named), from a new game, is
replayed so, a step every ``CELLS_STEP`` cells: Reversi's, where a ``Move`` and its records
cost three times the move.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Literal, Protocol

from app.contract.games import Kind
from app.records.steps import Steps, completed
from app.rules.errors import RuleError
from app.sessions.errors import GameOver, PassRefused
from app.sessions.kind import Move, Pass, Placement, Played, Player, Position, immutable
from app.sessions.store import opened

Verdict = Literal["finished", "unfinished", "illegal"]


@immutable
class Submitted:
    """One move of a record: what it plays (a cell, ``Pass``), how it was written there
    (``"f5"``, ``[4, 5]``, ``"pass"``), for the answer to quote a refused one as submitted, and
    the player it was written for where the record names one (GGF's ``B[f5]``): a move
    written for the player not to move is refused as a session refuses it (``not_your_turn``)."""

    played: Played
    given: object
    player: Player | None = None  # the player the record wrote it for, where it names one


@dataclass(frozen=True, slots=True)
class Refused:
    """The first move the rules refused: its 1-based index in what was submitted, as it was
    written, and the refusal a session's move would get."""

    ply: int
    given: object
    error: RuleError


@dataclass(frozen=True, slots=True)
class Audit:
    """A replayed record: the position after the moves it accepted (``position``), their move
    records (``moves``, as a session records them), how many of the submitted moves were
    accepted (``plies``: written passes count, inferred ones do not), the first refused
    move (``refused``), if any, and the creation parameters the record could have said but did
    not, with the values the replay took for them (``assumed``: a PSQ record whose tournament
    names no rule is replayed as freestyle)."""

    kind: Kind
    params: Mapping[str, object]
    position: Position
    moves: Sequence[Move]
    plies: int
    refused: Refused | None
    assumed: Mapping[str, object] = field(default_factory=dict)

    @property
    def verdict(self) -> Verdict:
        if self.refused is not None:
            return "illegal"
        return "unfinished" if self.position.next_player is not None else "finished"


def replay(
    kind: Kind,
    params: Mapping[str, object],
    moves: Iterable[Submitted],
    opening: Sequence[Played] = (),
) -> Audit:
    """The audit of ``moves`` played in order from a new game of ``kind`` made from ``params``
    (validated creation parameters, as a session's store takes them) and its ``opening`` (moves
    its creation body checked: the first move records, as a session's), stopping at the first
    move the rules refuse."""
    return completed(replaying(kind, params, moves, opening))


def replaying(
    kind: Kind,
    params: Mapping[str, object],
    moves: Iterable[Submitted],
    opening: Sequence[Played] = (),
) -> Steps[Audit]:
    """``replay``, a move a step (a record of plain cells that the position replays at once: a
    step every ``CELLS_STEP`` cells)."""
    position = opened(kind, params, opening)
    cell_replay = getattr(position, "cell_replay", None)
    if cell_replay is not None and not position.move_count:
        moves = moves if isinstance(moves, list) else list(moves)
        cells = list(map(_PLAYED, moves))
        if set(map(type, cells)) <= {Placement} and not any(map(_PLAYER, moves)):
            return (yield from _cells_replayed(kind, params, cell_replay(), moves, cells))
    return (yield from played_one_by_one(kind, params, position, moves))


def played_one_by_one(
    kind: Kind, params: Mapping[str, object], position: Position, moves: Iterable[Submitted]
) -> Steps[Audit]:
    """``replaying`` from ``position`` (new, its opening played), a ``play`` a move: the way
    every record can be replayed, and the one a ``CellReplay`` must agree with."""
    inferred = kind.face.inferred_pass
    accepted: list[Move] = position.moves(0, position.move_count)
    skipped = False  # the last move skipped a player, whose pass a record may write
    plies = 0
    for ply, move in enumerate(moves, 1):
        try:
            if inferred is not None and isinstance(move.played, Pass):
                _written_pass(position, skipped)
                skipped = False
            else:
                player = position.next_player
                if player is None:  # a session refuses a move after the end before the move
                    raise GameOver(position.status, position.winner, position.reason)
                played = position.play(move.played, player if move.player is None else move.player)
                accepted.append(played)
                skipped = inferred is not None and bool((played.facts or {}).get(inferred))
        except RuleError as error:
            return Audit(
                kind, params, position, tuple(accepted), plies, Refused(ply, move.given, error)
            )
        plies = ply
        yield
    return Audit(kind, params, position, tuple(accepted), plies, None)


def _written_pass(position: Position, skipped: bool) -> None:
    """A pass a record writes, in a kind whose passes are inferred: the skip the last move made
    (once), or a refusal."""
    if skipped:
        return
    player = position.next_player
    if player is None:
        raise GameOver(position.status, position.winner, position.reason)
    raise PassRefused(player)


class MoveRecords(Protocol):
    """Move records that write themselves (a kind's ``CellReplay``'s): each, in order, as
    ``move_json(move, names)`` renders it (``shown``) and as the bytes
    ``canonical_json(move_json(move, names))`` are (``canonical``: what the hash chain hashes);
    None where they cannot (these names): then each record is rendered and written."""

    def shown(self, names: Any) -> list[dict[str, Any]] | None: ...

    def canonical(self, names: Any) -> Iterator[bytes] | None: ...


class CellReplay(Protocol):
    """A position's replay of a record's cells, many at a time (its ``cell_replay()``): each
    cell played by the player to move, by the rules ``play`` plays it by."""

    def play(self, cells: Sequence[Placement]) -> tuple[int, RuleError] | None:
        """Play ``cells`` in order; at the first the rules refuse, stop: its index in ``cells``
        and the error ``play`` would raise (``GameOver`` for a cell after the end)."""
        ...

    def position(self) -> Position:
        """The position after the cells played."""
        ...

    def moves(self) -> Sequence[Move]:
        """The records of the cells played, made when read (and ``MoveRecords`` if the kind
        writes them)."""
        ...


CELLS_STEP = 64  # cells replayed between two steps of ``_cells_replayed`` (~1.5 µs each)


def _cells_replayed(
    kind: Kind, params: Mapping[str, object], replay: CellReplay, moves: list[Submitted],
    cells: list[Placement],
) -> Steps[Audit]:  # fmt: skip
    """``replaying`` of ``moves`` (plain ``cells``: none a pass, none naming its player) by
    the position's ``CellReplay``, ``CELLS_STEP`` cells a step."""
    for start in range(0, len(cells), CELLS_STEP):
        refused = replay.play(cells[start : start + CELLS_STEP])
        if refused is not None:
            index, error = refused
            ply = start + index + 1
            stop = Refused(ply, moves[ply - 1].given, error)
            return Audit(kind, params, replay.position(), replay.moves(), ply - 1, stop)
        yield
    return Audit(kind, params, replay.position(), replay.moves(), len(cells), None)


_PLAYED, _PLAYER = attrgetter("played"), attrgetter("player")  # of a Submitted, in C
