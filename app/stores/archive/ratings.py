"""A rated game's update of its players' ratings, in the transaction that archives it.

The update is written once, as the statements it runs (``rating_steps``: a generator that
yields each statement and is sent its result), and run by the archive on either database's
connection, synchronous or not (``drive``, ``drive_async``).

Both players' rows in the pool are made if missing (a player's first rated game there: a new
player's values), then read and locked (PostgreSQL: ``FOR UPDATE``, in the players' order, so
that two games of one player wait for each other and never deadlock; SQLite writes one
transaction at a time), updated as Glicko-2 says of the game (``app.league.glicko2``), and the
change numbered (``rating_changes``) after the locks: two updates of one player are numbered in
the order they were made, and replaying the rated games in that order makes the ratings again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from app.league.glicko2 import Rating, after_game
from app.stores.archive.tables import rating_changes, ratings

Step = tuple[Any, ...]  # a statement and its parameters, as a connection's ``execute`` takes them
Steps = Generator[Step, Any, bool]
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Rated:
    """A rated game's result, as its ratings see it: its pool, its players (seats 1 and 2) and
    seat 1's score (1 a win, 0.5 a draw, 0 a loss)."""

    pool: str
    players: tuple[str, str]
    score: float


def rating_steps(
    game_id: str, rated: Rated, at_ms: int, postgres: bool
) -> Generator[Step, Any, None]:
    """The statements that update ``rated``'s players' ratings (see the module)."""
    insert = (postgresql if postgres else sqlite).insert
    new = Rating.NEW
    made = [
        {"pool": rated.pool, "player": player, "rating": new.rating, "rd": new.rd,
         "volatility": new.volatility, "games": 0, "updated_at": at_ms}
        for player in sorted(rated.players)
    ]  # fmt: skip
    # Both rows at once (each made if missing), then read and locked, then both updated at
    # once: four round trips in all on PostgreSQL.
    yield (insert(ratings).on_conflict_do_nothing(index_elements=["pool", "player"]), made)
    query = (
        select(ratings.c.player, ratings.c.rating, ratings.c.rd, ratings.c.volatility)
        .where(ratings.c.pool == rated.pool, ratings.c.player.in_(rated.players))
        .order_by(ratings.c.player)
    )
    if postgres:
        query = query.with_for_update()
    found = yield (query,)
    before = {row.player: Rating(row.rating, row.rd, row.volatility) for row in found}
    first, second = rated.players
    after = dict(
        zip(rated.players, after_game(before[first], before[second], rated.score), strict=True)
    )
    updated = [
        {"b_pool": rated.pool, "b_player": player, "b_rating": now.rating, "b_rd": now.rd,
         "b_volatility": now.volatility, "b_at": at_ms}
        for player, now in after.items()
    ]  # fmt: skip
    yield (
        ratings.update()
        .where(ratings.c.pool == bindparam("b_pool"), ratings.c.player == bindparam("b_player"))
        .values(rating=bindparam("b_rating"), rd=bindparam("b_rd"),
                volatility=bindparam("b_volatility"), games=ratings.c.games + 1,
                updated_at=bindparam("b_at")),
        updated,
    )  # fmt: skip
    changes = [
        {"game_id": game_id, "pool": rated.pool, "player": player, "rating": now.rating,
         "rd": now.rd, "volatility": now.volatility}
        for player, now in after.items()
    ]  # fmt: skip
    yield (rating_changes.insert(), changes)


def drive(steps: Generator[Step, Any, R], execute: Callable[..., Any]) -> R:
    """Run ``steps`` with a synchronous connection's ``execute``: what they return."""
    result = None
    while True:
        try:
            step = steps.send(result)
        except StopIteration as done:
            returned: R = done.value
            return returned
        result = execute(*step)


async def drive_async(steps: Generator[Step, Any, R], execute: Callable[..., Awaitable[Any]]) -> R:
    """Run ``steps`` with an asynchronous connection's ``execute``: what they return."""
    result = None
    while True:
        try:
            step = steps.send(result)
        except StopIteration as done:
            returned: R = done.value
            return returned
        result = await execute(*step)
