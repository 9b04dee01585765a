"""OpenAPI links: how an answer's values feed the next request, so that clients, docs and
stateful fuzzers (schemathesis) can follow a game from its creation through its moves.

Operations are named by their endpoint functions (``routing.operation_id``); a test fails on a
link to an operation the spec does not have.
"""

from __future__ import annotations

from typing import Any

from app.api.routing import operation_id


def _link(
    endpoint: str, description: str, parameters: dict[str, str], body: Any = None
) -> dict[str, Any]:
    link: dict[str, Any] = {
        "operationId": operation_id(endpoint),
        "description": description,
        "parameters": parameters,
    }
    if body is not None:
        link["requestBody"] = body
    return link


OPENING = {"row": 0, "col": 0}
GAME_OF_CREATED = {"path.game_id": "$response.body#/id"}
GAME_OF_MOVE = {"path.game_id": "$request.path.game_id"}
CREATED_GAME_LINKS = {
    "GetGame": _link("get_game", "Poll the new game.", GAME_OF_CREATED),
    "GetGameIfChanged": _link(
        "get_game",
        "Poll with the ETag: 304 until a move is made.",
        {**GAME_OF_CREATED, "header.If-None-Match": "$response.header.ETag"},
    ),
    "MoveAsPlayer1": _link(
        "make_move",
        "Player 1 (X) moves first, with token 1: the corner is open on every board.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
        OPENING,
    ),
    "MoveAsPlayer1IfUnchanged": _link(
        "make_move",
        "Player 1's move, applied only while the game is still at this ETag.",
        {
            **GAME_OF_CREATED,
            "header.Authorization": "Bearer {$response.body#/tokens/1}",
            "header.If-Match": "$response.header.ETag",
        },
        OPENING,
    ),
    "MoveAsPlayer2": _link(
        "make_move",
        "Player 2 (O), with token 2: 409 `not_your_turn` before player 1 has moved.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/2}"},
    ),
    "ChooseAsPlayer2": _link(
        "make_choice",
        "Player 2's choice of a swap2 opening (gomoku), after player 1's three stones: before "
        "them (and in a gomoku game without swap2) 409 `not_your_turn`, in a game of a kind "
        "without choices 409 `wrong_step`.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/2}"},
        {"color": "W"},
    ),
    "Join": _link(
        "join_game",
        "Take the free seat of a game created open (`open`): its token; of a game created "
        "whole, 409 `seat_taken`.",
        GAME_OF_CREATED,
    ),
    "ListOpenGames": _link(
        "list_games",
        "The lobby, of the new game's kind: an open game is listed until its seat is taken.",
        {"query.open": "true", "query.game": "$response.body#/game"},
    ),
    "ListMoves": _link("list_moves", "The moves so far.", GAME_OF_CREATED),
    "LegalMoves": _link(
        "list_legal_moves", "What player 1 may play first: every legal move.", GAME_OF_CREATED
    ),
    "GetBoard": _link("get_board", "The board as text.", GAME_OF_CREATED),
    "Events": _link("game_events", "Follow the game's moves as they happen.", GAME_OF_CREATED),
    "GetRecord": _link("get_record", "The game's record so far.", GAME_OF_CREATED),
    "OfferDraw": _link(
        "offer_draw",
        "Player 1 offers a draw: it stands until the next accepted move.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
    ),
    "Resign": _link(
        "resign",
        "Player 2 resigns: player 1 wins.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/2}"},
    ),
    "Abort": _link(
        "abort_game",
        "Player 1 aborts the game before the players' second move: it ends with no result.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
    ),
    "OfferTakeback": _link(
        "offer_takeback",
        "Player 1 offers to take back its last move (before it has made one: 409 "
        "`nothing_to_take_back`); player 2 accepts by offering too.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
    ),
    "GiveTime": _link(
        "give_time",
        "Player 1 gives player 2 time (a game without a clock: 409 `action_not_allowed`).",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
        {"seconds": 15},
    ),
    "Rematch": _link(
        "rematch",
        "Player 1 asks for a rematch (while the game goes on: 409 `game_not_over`).",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
    ),
    "AddSpectator": _link(
        "add_spectator",
        "Player 1 makes a read-only spectator token (the only way to read a private game but "
        "the players').",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/1}"},
    ),
    "DeleteGame": _link(
        "delete_game",
        "Either player's token deletes the game.",
        {**GAME_OF_CREATED, "header.Authorization": "Bearer {$response.body#/tokens/2}"},
    ),
}
MOVE_LINKS = {
    "GetMove": _link(
        "get_move",
        "The move just made (its `Location`).",
        {**GAME_OF_MOVE, "path.seq": "$response.body#/move/seq"},
    ),
    "GetGameIfChanged": _link(
        "get_game",
        "Poll with the new ETag: 304 until the next move.",
        {**GAME_OF_MOVE, "header.If-None-Match": "$response.header.ETag"},
    ),
    "MovesSince": _link(
        "list_moves",
        "The moves after this one (none until the next move).",
        {**GAME_OF_MOVE, "query.since": "$response.body#/move/seq"},
    ),
    "GetRecord": _link("get_record", "The game's record, this move included.", GAME_OF_MOVE),
    "EventsSince": _link(
        "game_events",
        "Follow the moves after this one.",
        # Embedded in a string: a header's value is text, the version a JSON integer.
        {**GAME_OF_MOVE, "header.Last-Event-ID": "{$response.body#/state/version}"},
    ),
}
