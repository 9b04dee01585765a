"""The example answers of the game routes, made by playing: each is an answer the service gives.

An answer without examples is shown by Swagger UI as one it makes up from the schema, field by
field, which contradicts itself (`"status": "in_progress"` with `"reason": "line"`). These are
the answers of a session of the kinds' own code, with a fixed id and fixed tokens:

* the creation answer to each creation example, by its name;
* one game, created by the first creation example, in which player 1 played the first move
  example: the move's answer, then the game's state, its moves, that move and its board; player
  2's draw offer in that game, and player 2's resignation in another such game.

If that game's kind does not take that move, there is no such game, and only the creation
answers have examples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic_core import from_json, to_json

from app.api.bodies import Examples
from app.api.games.schemas import GameShapes
from app.contract.bodies import BodyInvalid
from app.contract.fields import SQUARES
from app.contract.moves import played_by
from app.contract.render import (
    board_dimensions,
    board_json,
    move_json,
    move_result_json,
    state_json,
    state_names,
)
from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.clock import Clocks
from app.sessions.exchange import Action, ActionRequest, GameState, MoveRequest, MoveResult
from app.sessions.kind import board_size
from app.sessions.session import DEFAULT_MAX_MOVES, Session
from app.sessions.store import opened

GAME_ID = "mdT8FSRnQMzoiJ3U"
TOKENS = {
    "1": "PoVInCVToGtDwUg-NEaPFRZFD6uJmFTBVGu5ujesy8I",
    "2": "DELqivFwYhSPAws3CZlLGBfipadfVyVV6b7HYzfHklg",
}
_HASHES = (tokens.token_hash(TOKENS["1"]), tokens.token_hash(TOKENS["2"]))


def _json(value: object) -> Any:
    """A value as its JSON answer reads (tuples become lists)."""
    return from_json(to_json(value))


def _example(summary: str, value: object) -> dict[str, Any]:
    return {"summary": summary, "value": _json(value)}


@dataclass(frozen=True)
class AnswerExamples:
    """The examples of each game route's success answer, by name."""

    created: Examples
    move: Examples = field(default_factory=dict)
    state: Examples = field(default_factory=dict)
    moves: Examples = field(default_factory=dict)
    record: Examples = field(default_factory=dict)
    board: Examples = field(default_factory=dict)
    offered: Examples = field(default_factory=dict)
    resigned: Examples = field(default_factory=dict)
    aborted: Examples = field(default_factory=dict)
    takeback_offered: Examples = field(default_factory=dict)
    time_given: Examples = field(default_factory=dict)

    @classmethod
    def of(cls, shapes: GameShapes) -> AnswerExamples:
        creations = shapes.create.examples
        created = {
            name: _example(example["summary"], _created(shapes, example["value"]))
            for name, example in creations.items()
        }
        creation = next(iter(creations.values()))
        first = creation["value"]
        move_name, move = next(iter(shapes.move.body.examples.items()))
        played = _moved(shapes, first, move["value"])
        if played is None:
            return cls(created)
        result, game = played
        after = f"{creation['summary']}, after player 1's first move ({move['summary']})"
        names = state_names(shapes.kinds, result.state)
        record = move_json(game.move(1), names)
        kind = shapes.kinds.find(game.kind.name)
        board = board_json(board_dimensions(result.state, kind), game.position.rows())
        offered = game.act(ActionRequest("offer"), TOKENS["2"]).state
        resigned = _acted(shapes, first, move["value"], "resign")
        aborted = _acted(shapes, first, move["value"], "abort")
        offered_back = _acted(shapes, first, move["value"], "takeback", TOKENS["1"])
        clocked = {**first, "clock": GIVE_TIME_CLOCK}
        gave = _acted(shapes, clocked, move["value"], ActionRequest("give_time", seconds=15))
        return cls(
            created,
            move={move_name: _example(after, move_result_json(result, names))},
            state={"after_a_move": _example(after, state_json(result.state, names))},
            moves={
                "after_a_move": _example(
                    after, {"moves": [record], "version": result.state.version}
                )
            },
            record={"first": _example(after, record)},
            board={"after_a_move": _example(after, board)},
            offered={
                "offer": _example(f"{after}; player 2 offers a draw", state_json(offered, names))
            },
            resigned={
                "resign": _example(f"{after}; player 2 resigns", state_json(resigned, names))
            },
            aborted={"abort": _example(f"{after}; player 2 aborts", state_json(aborted, names))},
            takeback_offered={
                "offer": _example(
                    f"{after}; player 1 offers to take it back", state_json(offered_back, names)
                )
            },
            time_given={
                "give": _example(
                    f"{after}, with a clock ({GIVE_TIME_CLOCK['initial_seconds']} s); player 2 "
                    "gives player 1 15 s",
                    state_json(gave, names),
                )
            },
        )


def _new_game(shapes: GameShapes, body: object) -> Session:
    """A game as the creation ``body`` makes it, at the instant 0."""
    created = shapes.create_body(shapes.create.validate(to_json(body), {}))
    kind = shapes.kinds.find(created.kind)
    params = created.params()
    position = opened(kind, params, created.opening_moves())
    game = Session(
        GAME_ID, kind, params, _HASHES, position, DEFAULT_MAX_MOVES, version=position.move_count
    )
    control = created.control()
    if control is not None:
        game.clocks = Clocks.start(control, 0)
    return game


def _created(shapes: GameShapes, body: object) -> dict[str, Any]:
    """The answer to the creation ``body``."""
    state = _new_game(shapes, body).state()
    return {**state_json(state, state_names(shapes.kinds, state)), "tokens": TOKENS}


def _moved(shapes: GameShapes, body: object, move: object) -> tuple[MoveResult, Session] | None:
    """A new game of ``body`` and player 1's ``move`` in it: the move's answer and the game;
    None if the game's kind does not take that move."""
    game = _new_game(shapes, body)
    kind = shapes.kinds.find(game.kind.name)
    squares = kind.face.squares(*board_size(kind, game.state().facts))
    try:
        parsed = shapes.moves_of[game.kind.name].body.validate(to_json(move), {SQUARES: squares})
        played, player = played_by(parsed)
        result = game.play(MoveRequest(played, player=player), TOKENS["1"])
    except (BodyInvalid, DomainError):
        return None
    return result, game


# The clock of the example of time given.
GIVE_TIME_CLOCK = {"initial_seconds": 300, "increment_seconds": 2}


def _acted(
    shapes: GameShapes, body: object, move: object, action: Action | ActionRequest,
    token: str = TOKENS["2"],
) -> GameState:  # fmt: skip
    """The state after a player's ``action`` (player 2's unless ``token`` says) in a new game
    of ``body`` after ``move``."""
    played = _moved(shapes, body, move)
    assert played is not None  # the same move in the same new game as before
    request = action if isinstance(action, ActionRequest) else ActionRequest(action)
    return played[1].act(request, token).state
