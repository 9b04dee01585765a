"""Session values -> the answers of the game routes (the shapes ``app.api.games.schemas``'s
``GameShapes`` documents), and an audit's state, rendered from its position.

The common fields are type-checked here against ``GameCommon`` and ``ClockOut``; a kind's own
fields (its state's facts, a move's record) are checked by its module.

Square names are written here, at render time, from a cell's row and col, the board's size and
the kind's direction (``Names``): the stores keep cells as they always have, so a game stored
before names existed reads with them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from app.contract.games import ClockOut, GameCommon, Kind, MoveTimesOut
from app.contract.squares import Squares
from app.sessions.clock import ClockState
from app.sessions.errors import RULE_FLAGS
from app.sessions.exchange import GameState, LegalMovesPage, MoveResult
from app.sessions.kind import Kinds, LegalMove, Move, Placement, Played, Position, board_size

Json = dict[str, Any]


class _State(GameCommon):
    """The common fields of a state, and its last move's record (checked by its kind)."""

    last_move: Json | None


@dataclass(frozen=True, slots=True)
class Names:
    """How the answers of one game name its cells: a cell's ``square`` beside its ``row`` and
    ``col``, and beside each of the kind's lists of cells (``Face.cell_lists``: a Reversi
    move's ``flips``) the list of their names (``flip_squares``). One per kind and board size
    (``names_of``), made once."""

    squares: Squares
    cell_lists: Mapping[str, str]

    def cell(self, played: Played) -> Json:
        """What a move plays, as its record or legal-move item says it, with its square."""
        if isinstance(played, Placement):
            return {**played.record(), "square": self.squares.name(played.row, played.col)}
        return dict(played.record())

    def add_facts(self, into: Json, facts: Mapping[str, object]) -> None:
        """The kind's own fields of a move, added to ``into``, each list of cells followed by
        their names."""
        cell_lists = self.cell_lists
        if not cell_lists:
            into.update(facts)
            return
        names = self.squares.names
        value: Any  # a list of [row, col] cells where ``cell_lists`` names it
        for name, value in facts.items():
            into[name] = value
            named = cell_lists.get(name)
            if named is not None:
                into[named] = names(value)


# The names made so far, by kind and board size (rows, columns). A kind is known by its
# identity: the entry holds the kind, so no other object can take its id while it is there.
# Bounded: kinds are few, and so are the sizes that have names, but a client may make games of
# many sizes without them.
_NAMES: dict[tuple[int, tuple[int, int]], tuple[Kind, Names | None]] = {}
NAMES_KEPT = 256


def names_of(kind: Kind, size: tuple[int, int]) -> Names | None:
    """The names of the cells of a game of ``kind`` whose board has ``size`` (rows, columns);
    None where the board has none (wider than 26 columns). Made once per kind and size: every
    answer of a game asks for them."""
    key = (id(kind), size)
    made = _NAMES.get(key)
    if made is not None and made[0] is kind:
        return made[1]
    face = kind.face
    squares = face.squares(*size)
    names = None if squares is None else Names(squares, face.cell_lists)
    if len(_NAMES) >= NAMES_KEPT:
        _NAMES.clear()
    _NAMES[key] = (kind, names)
    return names


def state_names(kinds: Kinds[Kind], state: GameState) -> Names | None:
    """The names of the cells of the game ``state`` is of."""
    kind = kinds.find(state.kind)
    return names_of(kind, board_size(kind, state.facts))


# What a move record says of its time (``MoveTimesOut``): left out where the moves are
# replayed without time (a record's chain and state, as the audit makes them).
MOVE_TIMES = tuple(MoveTimesOut.__annotations__)


def untimed(record: Json) -> Json:
    """A move record without its times."""
    return {name: value for name, value in record.items() if name not in MOVE_TIMES}


def move_json(move: Move, names: Names | None) -> Json:
    """The move record: its number, what it played (a cell's ``row``, ``col`` and ``square``,
    …) and its player, then the kind's own fields (a Reversi move's ``flips`` and
    ``flip_squares``, and ``passed``)."""
    played = move.played
    record = {"seq": move.seq, **played.record()}
    if names is not None and isinstance(played, Placement):
        record["square"] = names.squares.name(played.row, played.col)
    record["player"] = move.player
    record = _with_facts(record, move.facts, names)
    if move.at_ms is not None:
        record["at"] = instant(move.at_ms)
    if move.clock is not None:
        record["spent_ms"] = move.clock.spent_ms
    return record


NO_NAMES = (None, None)


def players_json(players: tuple[str | None, str | None]) -> dict[str, str | None]:
    """The seats' players, by seat (``{"1": "Xq3p…", "2": None}``)."""
    return {str(seat): player for seat, player in enumerate(players, 1)}


def names_json(names: tuple[str | None, str | None]) -> dict[str, str]:
    """The seats' names, by seat, those that have one (``{"1": "Ann"}``)."""
    return {str(seat): name for seat, name in enumerate(names, 1) if name is not None}


def state_json(state: GameState, names: Names | None, last_json: Json | None = None) -> Json:
    """The common fields, checked here, joined with the kind's facts, checked by its module
    (``Position.facts``); each kind's state shape is exactly that join (``schemas.py``).
    ``last_json``: the last move's record, where the caller has rendered it already."""
    last = state.last_move
    common: _State = {
        "id": state.id,
        "status": state.status,
        "winner": state.winner,
        "reason": state.reason,
        "next_player": state.next_player,
        "version": state.version,
        "move_count": state.move_count,
        "last_move": last_json or (move_json(last, names) if last else None),
        "draw_offer": state.draw_offer,
        "takeback_offer": state.takeback_offer,
    }
    if state.clock is not None:
        common["clock"] = clock_json(state.clock)
    if state.lobby:
        common["open_seat"] = state.open_seat
    if state.first_move_due is not None:
        common["first_move_deadline"] = instant(state.first_move_due)
    if state.disabled:
        common["rules"] = {flag: flag not in state.disabled for flag in RULE_FLAGS}
    if state.private:
        common["visibility"] = "private"
    if state.names != NO_NAMES:
        common["names"] = names_json(state.names)
    if state.players != NO_NAMES:
        common["players"] = players_json(state.players)
    if state.pool is not None:
        common["rated"], common["pool"] = True, state.pool
    if state.tournament is not None:
        common["tournament"] = state.tournament
    if state.rematch_offer is not None:
        common["rematch_offer"] = state.rematch_offer
    if state.rematch is not None:
        common["rematch"] = state.rematch
    if state.last_takeback is not None:
        common["last_takeback"] = state.last_takeback
    if state.at_ms is not None:
        common["at"] = instant(state.at_ms)
    # The id and the kind first, the kind's facts right after them.
    return {"id": state.id, "game": state.kind, **state.facts, **common}


def position_json(kind: Kind, position: Position, last: Move | None, names: Names | None) -> Json:
    """A position as a game's state shows it (``state_json``), without what only a session has
    (an id, a version, a clock; no offer stands): an audit's state, its moves replayed without
    time. ``last``: the last move, whose record it shows."""
    facts = kind.ended(position.facts(), position.status, position.winner, position.reason)
    return {
        "game": kind.name,
        **facts,
        "status": position.status,
        "winner": position.winner,
        "reason": position.reason,
        "next_player": position.next_player,
        "move_count": position.move_count,
        "last_move": None if last is None else move_json(last, names),
        "draw_offer": None,
        "takeback_offer": None,
    }


@lru_cache(maxsize=1024)
def _second(seconds: int) -> str:
    """A whole second as RFC 3339 UTC without its zone: ``2026-11-24T10:00:00`` (the seconds
    a game's answers name are few and recent: kept, a bounded few)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))


def instant(ms: int) -> str:
    """An instant as RFC 3339 UTC with milliseconds: ``2026-11-24T10:00:00.250Z`` (every state
    and move record says one: a fifth of the datetime arithmetic's cost)."""
    seconds, millis = divmod(ms, 1000)
    return f"{_second(seconds)}.{millis:03d}Z"


def clock_json(clock: ClockState) -> ClockOut:
    deadline, control = clock.deadline_ms, clock.control
    return {
        "initial_seconds": control.initial_seconds,
        "increment_seconds": control.increment_seconds,
        "mode": control.mode,
        "stages": [
            {"after_moves": s.after_moves, "add_seconds": s.add_seconds} for s in control.stages
        ],
        "remaining_ms": {"1": clock.remaining_ms[0], "2": clock.remaining_ms[1]},
        "running": clock.running,
        "deadline": None if deadline is None else instant(deadline),
    }


def board_dimensions(state: GameState, kind: Kind) -> dict[str, int]:
    """The facts that give the board's size (``{"n": 3}``), as the board answer shows them."""
    return {name: cast(int, state.facts[name]) for name in kind.dimensions}


def board_json(dimensions: dict[str, int], rows: list[str]) -> Json:
    return {**dimensions, "rows": rows}


def move_result_json(result: MoveResult, names: Names | None) -> Json:
    move = move_json(result.move, names)
    # The state's last move is most often this very move (the stores answer so): its record
    # is rendered once, and written twice.
    last = move if result.state.last_move is result.move else None
    return {"winner": result.winner, "move": move, "state": state_json(result.state, names, last)}


def legal_move_json(move: LegalMove, names: Names | None) -> Json:
    """A legal move: what it would play (a cell's ``row``, ``col`` and ``square``), then the
    kind's own fields of it (the stones a Reversi move would flip, and their names)."""
    item = dict(move.played.record()) if names is None else names.cell(move.played)
    return _with_facts(item, move.facts, names)


def _with_facts(item: Json, facts: Mapping[str, object] | None, names: Names | None) -> Json:
    """``item`` with the kind's own fields of a move (its flips, and their names where the
    board has them)."""
    if facts:
        if names is None:
            item.update(facts)
        else:
            names.add_facts(item, facts)
    return item


def legal_moves_json(page: LegalMovesPage, names: Names | None) -> Json:
    legal = page.legal
    return {
        "id": page.id,
        "game": page.kind,
        "version": page.version,
        "player": page.player,
        "count": legal.count,
        "moves": [legal_move_json(move, names) for move in legal.moves],
        "next_after": legal.next_after,
    }
