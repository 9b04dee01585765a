"""The names of a game's cells, kept by game id for the routes that show its moves without its
state (its moves, one move, its legal moves) and for those that show its state."""

from __future__ import annotations

from fastapi import Request

from app.api.games.access import shapes_of, store_of
from app.contract.render import Names, names_of, state_names
from app.sessions.exchange import GameState

# The names of the cells of the games read lately, by game id. A game's board never changes,
# nor do its names: the reads that show a game's moves without its state (its moves, one
# move, its legal moves) need not ask the store for its board's shape again, nor a poll of
# its state the kinds. Game ids are random and never reused, and a game that is gone is
# answered GameNotFound by the read that comes before its names. Bounded: the oldest go first.
_NAMES_BY_GAME: dict[str, Names | None] = {}
NAMES_BY_GAME_KEPT = 4096


def _remember(game_id: str, names: Names | None) -> Names | None:
    known = _NAMES_BY_GAME
    if len(known) >= NAMES_BY_GAME_KEPT:
        del known[next(iter(known))]
    known[game_id] = names
    return names


async def names_in(request: Request, game_id: str) -> Names | None:
    """The names of a game's cells (None where its board has none), for the answers that show
    its moves without its state: its board's shape is asked of the store the first time only
    (the Redis store keeps it too, with what it knows of the game)."""
    if game_id in _NAMES_BY_GAME:
        return _NAMES_BY_GAME[game_id]
    shape = await store_of(request).board_shape(game_id)
    return _remember(game_id, names_of(shapes_of(request).kinds.find(shape.kind), shape.size))


def names_of_state(request: Request, state: GameState) -> Names | None:
    """The names of the cells of the game ``state`` is of (``state_names``, kept by game id)."""
    if state.id in _NAMES_BY_GAME:
        return _NAMES_BY_GAME[state.id]
    return _remember(state.id, state_names(shapes_of(request).kinds, state))
