"""Players and their ratings, in the archive's database (``tables.players``, ``tables.ratings``).

A player is made once, by a client that holds fewer than its most (counted in the same
transaction, the client's players taking turns on PostgreSQL by an advisory lock); its key is
kept as a hash. A pool's ratings are listed highest first, a page a walk down one index from a
cursor (the last row's rating and id).
"""

from __future__ import annotations

import base64
import binascii
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, func, or_, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from app.stores.archive.archive import Archive
from app.stores.archive.tables import players, ratings


@dataclass(frozen=True, slots=True)
class PoolRating:
    """A player's rating in a pool: Glicko-2's values, and the rated games played there."""

    rating: float
    rd: float
    volatility: float
    games: int


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created_ms: int
    key_hash: str
    ratings: Mapping[str, PoolRating]


@dataclass(frozen=True, slots=True)
class Ranked:
    """A row of a pool's listing."""

    id: str
    name: str
    rating: PoolRating


@dataclass(frozen=True, slots=True)
class RatingCursor:
    """Where a page of a pool's listing ends: its last row's rating and player id (listed by
    rating, then id, both highest first)."""

    rating: float
    id: str

    def encode(self) -> str:
        raw = struct.pack(">d", self.rating) + self.id.encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> RatingCursor:
        """The cursor ``encode`` wrote; ValueError for anything else."""
        if not 0 < len(text) <= 200:
            raise ValueError("not a cursor of this listing")
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            (rating,) = struct.unpack(">d", raw[:8])
            player = raw[8:].decode("ascii")
        except (binascii.Error, struct.error, UnicodeDecodeError, ValueError):
            raise ValueError("not a cursor of this listing") from None
        if not player or not player.isprintable() or rating != rating:  # NaN
            raise ValueError("not a cursor of this listing")
        return cls(rating, player)


class Players:
    """The players kept in ``archive``'s database."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive

    async def add(
        self, player_id: str, name: str, key_hash: str, owner: str, created_ms: int, most: int
    ) -> bool:
        """Make a player for the client ``owner`` unless it holds ``most`` already (False)."""

        async def write(connection: AsyncConnection) -> bool:
            if not self.archive.sqlite:  # a client's players made one at a time
                await connection.execute(
                    text("SELECT pg_advisory_xact_lock(hashtext(:owner))"), {"owner": owner}
                )
            held = await connection.execute(
                select(func.count()).select_from(players).where(players.c.owner == owner)
            )
            if held.scalar_one() >= most:
                return False
            row = {
                "id": player_id, "name": name, "key_hash": key_hash, "owner": owner,
                "created_at": created_ms,
            }  # fmt: skip
            await connection.execute(players.insert().values(row))
            return True

        return await self.archive.run(write, write=True)

    async def find(self, player_id: str) -> Player | None:
        """The player ``player_id`` with its ratings, or None."""

        async def read(connection: AsyncConnection) -> Player | None:
            found = (
                await connection.execute(select(players).where(players.c.id == player_id))
            ).first()
            if found is None:
                return None
            rows = await connection.execute(
                select(ratings).where(ratings.c.player == player_id).order_by(ratings.c.pool)
            )
            kept = {
                row.pool: PoolRating(row.rating, row.rd, row.volatility, row.games) for row in rows
            }
            return Player(found.id, found.name, found.created_at, found.key_hash, kept)

        return await self.archive.run(read, write=False)

    async def many(self, ids: Sequence[str]) -> dict[str, Player]:
        """The players ``ids`` (without their ratings), by id."""

        async def read(connection: AsyncConnection) -> dict[str, Player]:
            rows = await connection.execute(select(players).where(players.c.id.in_(ids)))
            return {
                row.id: Player(row.id, row.name, row.created_at, row.key_hash, {}) for row in rows
            }

        return await self.archive.run(read, write=False)

    async def ranked(
        self, pool: str, after: RatingCursor | None, limit: int
    ) -> tuple[list[Ranked], RatingCursor | None]:
        """A page of ``pool``'s players by rating, highest first, after ``after``; the cursor
        to the next page (None: no more)."""

        async def read(connection: AsyncConnection) -> tuple[list[Ranked], RatingCursor | None]:
            query = (
                select(ratings, players.c.name)
                .join(players, players.c.id == ratings.c.player)
                .where(ratings.c.pool == pool)
                .order_by(ratings.c.rating.desc(), ratings.c.player.desc())
                .limit(limit + 1)
            )
            if after is not None:
                query = query.where(
                    or_(
                        ratings.c.rating < after.rating,
                        and_(ratings.c.rating == after.rating, ratings.c.player < after.id),
                    )
                )
            rows = (await connection.execute(query)).all()
            page = [
                Ranked(row.player, row.name,
                       PoolRating(row.rating, row.rd, row.volatility, row.games))
                for row in rows[:limit]
            ]  # fmt: skip
            more = len(rows) > limit
            last = page[-1] if more else None
            return page, None if last is None else RatingCursor(last.rating.rating, last.id)

        return await self.archive.run(read, write=False)
