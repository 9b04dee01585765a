"""A rated game's update of its players' ratings, in the transaction that archives it.

The update is written once, as the statements it runs (``rating_steps``: a generator that
yields each statement and is sent its result), and run by the archive on either database's
connection, synchronous or not (``drive``, ``drive_async``).

Both players' rows in the pool are made if missing (a player's first rated game there: a new
player's values), read and locked in one statement (PostgreSQL locks a row an upsert touches;
in the players' order, so that two games of one player wait for each other and never deadlock;
SQLite writes one transaction at a time), updated as Glicko-2 says of the game
(``app.league.glicko2``), and the change numbered (``rating_changes``) after the locks: two
updates of one player are numbered in the order they were made, and replaying the rated games
in that order makes the ratings again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import bindparam
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


def _made(dialect: Any) -> Any:
    """Both players' rows in the pool, each made if missing (a new player's values), read and
    locked: on a conflict the row is "updated" to itself, which locks it (PostgreSQL) and
    returns it as it is. Rows are taken in the order given: the players' order."""
    new = Rating.NEW
    row = {"pool": bindparam("pool"), "rating": new.rating, "rd": new.rd,
           "volatility": new.volatility, "games": 0, "updated_at": bindparam("at")}  # fmt: skip
    return (
        dialect.insert(ratings)
        .values([row | {"player": bindparam("first")}, row | {"player": bindparam("second")}])
        .on_conflict_do_update(index_elements=["pool", "player"], set_={"games": ratings.c.games})
        .returning(ratings.c.player, ratings.c.rating, ratings.c.rd, ratings.c.volatility)
    )


MADE = {True: _made(postgresql), False: _made(sqlite)}  # by ``postgres``
UPDATED = (
    ratings.update()
    .where(ratings.c.pool == bindparam("b_pool"), ratings.c.player == bindparam("b_player"))
    .values(rating=bindparam("b_rating"), rd=bindparam("b_rd"),
            volatility=bindparam("b_volatility"), games=ratings.c.games + 1,
            updated_at=bindparam("b_at"))
)  # fmt: skip
CHANGED = rating_changes.insert()
# Every statement ``rating_steps`` yields, by ``postgres``.
TEMPLATES = {postgres: (made, UPDATED, CHANGED) for postgres, made in MADE.items()}


def rating_steps(
    game_id: str, rated: Rated, at_ms: int, postgres: bool
) -> Generator[Step, Any, None]:
    """The statements that update ``rated``'s players' ratings (see the module): three round
    trips on PostgreSQL, each statement built once (``TEMPLATES``)."""
    first, second = sorted(rated.players)
    found = yield (MADE[postgres], {"pool": rated.pool, "at": at_ms, "first": first,
                                    "second": second})  # fmt: skip
    before = {player: Rating(rating, rd, volatility) for player, rating, rd, volatility in found}
    seat1, seat2 = rated.players
    after = dict(
        zip(rated.players, after_game(before[seat1], before[seat2], rated.score), strict=True)
    )
    updated = [
        {"b_pool": rated.pool, "b_player": player, "b_rating": now.rating, "b_rd": now.rd,
         "b_volatility": now.volatility, "b_at": at_ms}
        for player, now in after.items()
    ]  # fmt: skip
    yield (UPDATED, updated)
    changes = [
        {"game_id": game_id, "pool": rated.pool, "player": player, "rating": now.rating,
         "rd": now.rd, "volatility": now.volatility}
        for player, now in after.items()
    ]  # fmt: skip
    yield (CHANGED, changes)


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
