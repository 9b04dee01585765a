"""Session values -> the response shapes of ``schemas.py``, type-checked against them."""

from __future__ import annotations

from typing import cast

from app.api.games.schemas import GameOut, MoveOut, MoveResultOut
from app.sessions.kind import Move
from app.sessions.kinds.tictactoe import TicTacToeFacts
from app.sessions.session import GameState, MoveResult


def move_json(move: Move) -> MoveOut:
    return {"seq": move.seq, "row": move.row, "col": move.col, "player": move.player}


def state_json(state: GameState) -> GameOut:
    last = state.last_move
    facts = cast(TicTacToeFacts, state.facts)  # the one kind so far
    return {
        "id": state.id,
        "n": facts["n"],
        "status": state.status,
        "winner": state.winner,
        "next_player": state.next_player,
        "version": state.version,
        "move_count": state.move_count,
        "last_move": move_json(last) if last else None,
    }


def move_result_json(result: MoveResult) -> MoveResultOut:
    return {
        "winner": result.winner,
        "move": move_json(result.move),
        "state": state_json(result.state),
    }
