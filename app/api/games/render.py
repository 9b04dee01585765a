"""Session values -> the answers of the game routes (the shapes ``schemas.GameShapes`` documents).

The common fields are type-checked here against ``GameCommon`` and ``ClockOut``; a kind's own
fields (its state's facts, a move's record) are checked by its module."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

from app.contract.games import ClockOut, GameCommon
from app.sessions.clock import ClockState
from app.sessions.kind import GameKind, LegalMove, Move
from app.sessions.session import GameState, LegalMovesPage, MoveResult

Json = dict[str, Any]


class _State(GameCommon):
    """The common fields of a state, and its last move's record (checked by its kind)."""

    last_move: Json | None


def move_json(move: Move) -> Json:
    """The move record: its number, what it played (a cell's ``row`` and ``col``, …) and its
    player, then the kind's own fields (a Reversi move's ``flips`` and ``passed``)."""
    record = {"seq": move.seq, **move.played.record(), "player": move.player}
    if move.facts:
        record.update(move.facts)
    return record


def state_json(state: GameState) -> Json:
    """The common fields, checked here, joined with the kind's facts, checked by its module
    (``Position.facts``); each kind's state shape is exactly that join (``schemas.py``)."""
    last = state.last_move
    common: _State = {
        "id": state.id,
        "status": state.status,
        "winner": state.winner,
        "reason": state.reason,
        "next_player": state.next_player,
        "version": state.version,
        "move_count": state.move_count,
        "last_move": move_json(last) if last else None,
        "draw_offer": state.draw_offer,
    }
    if state.clock is not None:
        common["clock"] = clock_json(state.clock)
    # The id and the kind first, the kind's facts right after them.
    return {"id": state.id, "game": state.kind, **state.facts, **common}


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def instant(ms: int) -> str:
    """An instant as RFC 3339 UTC with milliseconds: ``2026-11-24T10:00:00.250Z``."""
    return (_EPOCH + timedelta(milliseconds=ms)).isoformat(timespec="milliseconds")[:-6] + "Z"


def clock_json(clock: ClockState) -> ClockOut:
    deadline = clock.deadline_ms
    return {
        "initial_seconds": clock.control.initial_seconds,
        "increment_seconds": clock.control.increment_seconds,
        "remaining_ms": {"1": clock.remaining_ms[0], "2": clock.remaining_ms[1]},
        "running": clock.running,
        "deadline": None if deadline is None else instant(deadline),
    }


def board_dimensions(state: GameState, kind: GameKind) -> dict[str, int]:
    """The facts that give the board's size (``{"n": 3}``), as the board answer shows them."""
    return {name: cast(int, state.facts[name]) for name in kind.dimensions}


def board_json(dimensions: dict[str, int], rows: list[str]) -> Json:
    return {**dimensions, "rows": rows}


def move_result_json(result: MoveResult) -> Json:
    return {
        "winner": result.winner,
        "move": move_json(result.move),
        "state": state_json(result.state),
    }


def legal_move_json(move: LegalMove) -> Json:
    """A legal move: what it would play (a cell's ``row`` and ``col``), then the kind's own
    fields of it (the stones a Reversi move would flip)."""
    item = dict(move.played.record())
    if move.facts:
        item.update(move.facts)
    return item


def legal_moves_json(page: LegalMovesPage) -> Json:
    legal = page.legal
    return {
        "id": page.id,
        "game": page.kind,
        "version": page.version,
        "player": page.player,
        "count": legal.count,
        "moves": [legal_move_json(move) for move in legal.moves],
        "next_after": legal.next_after,
    }
