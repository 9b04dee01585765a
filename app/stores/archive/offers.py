"""Seeks, challenges and players' events in the archive's database (``tables.seeks``,
``tables.challenges``, ``tables.player_events``): where players and their ratings are, so that
every process that shares the players shares them, whatever its live store.

**A seek is matched atomically.** ``seek`` writes the new seek and looks for one that fits it in
one transaction, which holds the seeks of its terms alone: on SQLite the transaction's first
statement is the write (SQLite writes one transaction at a time, and a transaction that begins
with a write reads after the lock is taken); on PostgreSQL an advisory lock of the terms comes
first. So of two seeks that fit, however many processes post them, the second one's transaction
finds the first and takes both: one game. The seeks of a pair are gone, and their game pending
(``pending_games``: its id and seats drawn, all that makes it again), in that one transaction;
the caller makes the game in the live store by its id, then ``finish`` tells its players and
ends it in one more, or, if it cannot be made, ``undo`` puts the waiting seek back. A taken
challenge is pending alike. A pending game whose process died is found by ``stale``, taken by
one process (``claim``: its ``claimed_at`` compared and set) and made again (the live store
makes a game once by its id): told once, whoever finishes it (``finish`` compares it too).

**A seek lives ``seek_ms``** from its making: older, it is never matched, listed nor counted
toward its player's most, and ``expire`` deletes it and tells its player.

**A player's events** are numbered per player (``write_told``, in the transaction that makes
the change they tell: a challenge made or declined, a pending game finished, a seek expired,
a round paired); on PostgreSQL each player's numbering takes turns by an advisory lock, taken
in the order of the players' ids (a transaction telling several never waits in a circle). The
last ``kept`` of a player's events are kept.

Taking a pending game needs no lock of its own: ``claim`` and ``finish`` each change one row
only if its ``claimed_at`` is still the one read — SQLite runs them one at a time (each is its
transaction's first statement, a write), and PostgreSQL reads the row again once a racing
writer's transaction ends — so of racing processes exactly one claim holds, and one finish.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from sqlalchemy import String, and_, delete, func, literal, or_, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from app.league.glicko2 import NEW_RATING
from app.stores.archive.archive import Archive
from app.stores.archive.tables import (
    challenges,
    pending_games,
    player_events,
    players,
    ratings,
    seeks,
)

# The seeks of equal terms that fit a new seek read at most, oldest first (the first one not
# taken meanwhile by an expiry is matched: a bound on the work of one post).
MATCH_SCAN = 200


class Full(Exception):
    """The player holds its most seeks (or challenges): nothing was written."""


@dataclass(frozen=True, slots=True)
class Seek:
    """A seek as kept: whose (id and name), its game's creation body, rated flag, terms (their
    hash) and pool, the ratings it accepts (None: any), when it was made, and its player's
    rating in the pool (as read with it)."""

    id: str
    player: str
    game: Mapping[str, Any]
    rated: bool
    terms: str
    kind: str
    pool: str
    bounds: tuple[float, float] | None
    created_ms: int
    name: str = ""
    rating: float = NEW_RATING


@dataclass(frozen=True, slots=True)
class Drawn:
    """What a game an offer makes is drawn with before it is made: its id, the seat of the
    player who takes the offer (``one``), the client making it, and when."""

    game: str
    seat: int
    owner: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class PendingGame:
    """A game two offers make, kept until it is made and told (``pending_games``): its id,
    ``via`` what (``seek``, ``challenge``), the seat of ``one`` (the player who took the offer;
    ``other`` has the other), each player's offer (a challenge's id twice), its creation body,
    rated flag, creating client, the offer put back if it cannot be made (``restore``: a seek's
    or a challenge's row), and when it was drawn and last claimed."""

    id: str
    via: str
    seat: int
    one: str
    one_offer: str
    other: str
    other_offer: str
    game: Mapping[str, Any]
    rated: bool
    owner: str
    restore: Mapping[str, Any]
    created_ms: int
    claimed_ms: int


@dataclass(frozen=True, slots=True)
class Matched:
    """A new seek fit ``other``: both are gone; their game is ``pending``, the caller's to
    make."""

    other: Seek
    rating: float  # the new seek's player's rating in the pool
    pending: PendingGame


@dataclass(frozen=True, slots=True)
class Challenge:
    id: str
    challenger: str
    challenger_name: str
    challenged: str
    challenged_name: str
    game: Mapping[str, Any]
    rated: bool
    created_ms: int


@dataclass(frozen=True, slots=True)
class Told:
    """An event of a player's stream: its name and its data (JSON)."""

    player: str
    event: str
    data: Mapping[str, Any]


SeekCursor = tuple[int, str]  # the last listed seek's (created_at, id)


def fits(mine: Seek, my_rating: float, theirs: Seek, their_rating: float) -> bool:
    """Whether each player's rating is within the other's range."""
    return _within(mine.bounds, their_rating) and _within(theirs.bounds, my_rating)


def _within(bounds: tuple[float, float] | None, rating: float) -> bool:
    return bounds is None or bounds[0] <= rating <= bounds[1]


class Offers:
    """The seeks, challenges and players' events kept in ``archive``'s database."""

    def __init__(self, archive: Archive, kept: int, seek_ms: int) -> None:
        self.archive = archive
        self.kept = kept
        self.seek_ms = seek_ms  # a seek's life

    def expires_ms(self, seek: Seek) -> int:
        """When ``seek`` expires: from then on it is never matched, listed nor counted."""
        return seek.created_ms + self.seek_ms

    def _live(self, now_ms: int) -> Any:
        """The seeks not expired at ``now_ms``."""
        return seeks.c.created_at > now_ms - self.seek_ms

    async def _lock(self, connection: AsyncConnection, *names: str) -> None:
        await _lock(connection, self.archive, *names)

    # --- seeks -----------------------------------------------------------------------------------

    async def seek(self, new: Seek, most: int, drawn: Drawn) -> Matched | None:
        """Post ``new``: matched with the oldest live seek of its terms by another player that
        fits it (both gone, their game ``drawn`` pending), or kept (None). Full if its player
        holds ``most`` live seeks already. ``new.created_ms`` is now."""
        live = self._live(new.created_ms)

        async def write(connection: AsyncConnection) -> Matched | None:
            await self._lock(connection, f"seeks:{new.terms}", f"seeker:{new.player}")
            await connection.execute(seeks.insert().values(_seek_row(new)))  # the write first
            held = await connection.execute(
                select(func.count()).select_from(seeks).where(seeks.c.player == new.player, live)
            )
            if held.scalar_one() > most:
                raise Full()
            mine = (await _ratings(connection, new.pool, {new.player})).get(new.player, NEW_RATING)
            # Only the seeks that fit are read (each player's rating in the other's range, in
            # the query): the oldest MATCH_SCAN of the terms read whatever their ranges let
            # seeks that fit no one — a few players' narrow ranges — hide every seek behind
            # them, and no seek of those terms was matched again till they expired.
            theirs = func.coalesce(ratings.c.rating, NEW_RATING)
            query = (
                select(seeks, theirs.label("their_rating"))
                .outerjoin(
                    ratings, and_(ratings.c.player == seeks.c.player, ratings.c.pool == new.pool)
                )
                .where(
                    seeks.c.terms == new.terms, live, seeks.c.player != new.player,
                    or_(seeks.c.lo.is_(None), and_(seeks.c.lo <= mine, seeks.c.hi >= mine)),
                )
                .order_by(seeks.c.created_at, seeks.c.id)
                .limit(MATCH_SCAN)
            )  # fmt: skip
            if new.bounds is not None:
                query = query.where(theirs.between(new.bounds[0], new.bounds[1]))
            waiting = (await connection.execute(query)).all()
            for row in waiting:
                other, their = _seek_of(row), float(row.their_rating)
                if not fits(new, mine, other, their):  # as the query said
                    continue
                taken = await connection.execute(delete(seeks).where(seeks.c.id == other.id))
                if not taken.rowcount:  # expired and swept meanwhile (``expire``)
                    continue
                await connection.execute(delete(seeks).where(seeks.c.id == new.id))
                pending = PendingGame(
                    drawn.game, "seek", drawn.seat, new.player, new.id, other.player, other.id,
                    new.game, new.rated, drawn.owner, _seek_row(other), drawn.at_ms,
                    drawn.at_ms,
                )  # fmt: skip
                await connection.execute(pending_games.insert().values(_pending_row(pending)))
                return Matched(_rated(other, their), mine, pending)
            return None

        return await self.archive.run(write, write=True)

    async def expire(self, now_ms: int, limit: int, told: Callable[[Seek], Told]) -> list[Told]:
        """Delete up to ``limit`` seeks expired at ``now_ms``, oldest first, telling each one's
        player ``told(seek)`` in the same transaction (each told once, however many processes
        sweep: the delete is the transaction's first statement, and tells what it deleted)."""
        oldest = select(seeks.c.id).where(seeks.c.created_at <= now_ms - self.seek_ms)
        expired = oldest.order_by(seeks.c.created_at, seeks.c.id).limit(limit).scalar_subquery()

        async def any_expired(connection: AsyncConnection) -> bool:
            return (await connection.execute(oldest.limit(1))).first() is not None

        async def write(connection: AsyncConnection) -> list[Told]:
            gone = await connection.execute(
                delete(seeks).where(seeks.c.id.in_(expired)).returning(*seeks.c)
            )
            events = [told(_seek_of(row)) for row in gone.all()]
            await self._tell(connection, events)
            return events

        # A read first: the periodic work takes no write lock while nothing expired.
        if not await self.archive.run(any_expired, write=False):
            return []
        return await self.archive.run(write, write=True)

    async def find_seek(self, seek_id: str) -> Seek | None:
        async def read(connection: AsyncConnection) -> Seek | None:
            row = (await connection.execute(_seek_rows().where(seeks.c.id == seek_id))).first()
            return None if row is None else _seek_of(row)

        return await self.archive.run(read, write=False)

    async def withdraw(
        self, seek_id: str, player: str, now_ms: int
    ) -> Literal["gone", "not_yours", "done"]:
        """Withdraw the seek ``seek_id`` of ``player``: done, gone (no such live seek: never
        made, matched, withdrawn, expired at ``now_ms``) or not_yours (another player's)."""
        live = self._live(now_ms)

        async def write(connection: AsyncConnection) -> Literal["gone", "not_yours", "done"]:
            done = await connection.execute(
                delete(seeks).where(seeks.c.id == seek_id, seeks.c.player == player, live)
            )
            if done.rowcount:
                return "done"
            held = await connection.execute(
                select(seeks.c.player).where(seeks.c.id == seek_id, live)
            )
            return "gone" if held.first() is None else "not_yours"

        return await self.archive.run(write, write=True)

    async def listed(
        self, kind: str | None, after: SeekCursor | None, limit: int, now_ms: int
    ) -> tuple[list[Seek], SeekCursor | None]:
        """Open seeks (live at ``now_ms``) oldest first (of ``kind``'s games, if given), after
        ``after``, at most ``limit``, each with its player's name and rating in its pool; the
        next cursor."""

        async def read(connection: AsyncConnection) -> tuple[list[Seek], SeekCursor | None]:
            query = (
                select(seeks, players.c.name, ratings.c.rating)
                .join(players, players.c.id == seeks.c.player)
                .outerjoin(
                    ratings,
                    and_(ratings.c.player == seeks.c.player, ratings.c.pool == seeks.c.pool),
                )
                .where(self._live(now_ms))
                .order_by(seeks.c.created_at, seeks.c.id)
                .limit(limit + 1)
            )
            if kind is not None:
                query = query.where(seeks.c.kind == kind)
            if after is not None:
                query = query.where(
                    or_(
                        seeks.c.created_at > after[0],
                        and_(seeks.c.created_at == after[0], seeks.c.id > after[1]),
                    )
                )
            rows = (await connection.execute(query)).all()
            page = [
                _rated(_seek_of(row, row.name), row.rating)
                if row.rating is not None
                else _seek_of(row, row.name)
                for row in rows[:limit]
            ]
            more = len(rows) > limit
            return page, (page[-1].created_ms, page[-1].id) if more and page else None

        return await self.archive.run(read, write=False)

    # --- challenges ------------------------------------------------------------------------------

    async def challenge(self, new: Challenge, most: int, told: Told) -> None:
        """Keep ``new`` and tell its challenged player (``told``); Full if the challenger holds
        ``most`` open challenges(the challenged is a player:
        the caller found it)."""

        async def write(connection: AsyncConnection) -> None:
            await self._lock(connection, f"challenger:{new.challenger}")
            # The write first.
            await connection.execute(challenges.insert().values(_challenge_row(new)))
            held = await connection.execute(
                select(func.count())
                .select_from(challenges)
                .where(challenges.c.challenger == new.challenger)
            )
            if held.scalar_one() > most:
                raise Full()
            await self._tell(connection, [told])

        await self.archive.run(write, write=True)

    async def find_challenge(self, challenge_id: str) -> Challenge | None:
        async def read(connection: AsyncConnection) -> Challenge | None:
            row = (
                await connection.execute(_challenge_rows().where(challenges.c.id == challenge_id))
            ).first()
            return None if row is None else _challenge_of(row)

        return await self.archive.run(read, write=False)

    async def take(
        self, challenge: Challenge, told: Sequence[Told] = (), drawn: Drawn | None = None
    ) -> PendingGame | bool:
        """Take ``challenge`` away (declined or withdrawn), telling ``told`` with it; or, with
        ``drawn``, accepted: its game pending (answered). False if it is gone already (a racing
        request took it)."""

        async def write(connection: AsyncConnection) -> PendingGame | bool:
            done = await connection.execute(
                delete(challenges).where(challenges.c.id == challenge.id)
            )
            if not done.rowcount:
                return False
            await self._tell(connection, told)
            if drawn is None:
                return True
            pending = PendingGame(
                drawn.game, "challenge", drawn.seat, challenge.challenged, challenge.id,
                challenge.challenger, challenge.id, challenge.game, challenge.rated, drawn.owner,
                _challenge_row(challenge), drawn.at_ms, drawn.at_ms,
            )  # fmt: skip
            await connection.execute(pending_games.insert().values(_pending_row(pending)))
            return pending

        return await self.archive.run(write, write=True)

    # --- pending games ---------------------------------------------------------------------------

    async def finish(self, pending: PendingGame, told: Sequence[Told]) -> bool:
        """``pending``'s game is made: it is no longer pending, and its players are told
        ``told``, in one transaction; False (nothing done) if another process claimed it since
        (that one finishes it) or finished it."""

        async def write(connection: AsyncConnection) -> bool:
            if not await _unpend(connection, pending):
                return False
            await self._tell(connection, told)
            return True

        return await self.archive.run(write, write=True)

    async def undo(self, pending: PendingGame) -> bool:
        """``pending``'s game cannot be made: it is no longer pending, and the offer it took
        waits again (the waiting seek, the challenge); False (nothing done) if another process
        claimed it since, or finished it."""

        async def write(connection: AsyncConnection) -> bool:
            if not await _unpend(connection, pending):
                return False
            table = seeks if pending.via == "seek" else challenges
            await connection.execute(table.insert().values(dict(pending.restore)))
            return True

        return await self.archive.run(write, write=True)

    async def stale(self, before_ms: int, limit: int) -> list[PendingGame]:
        """Pending games last claimed before ``before_ms`` (their process died, or is slow),
        oldest claim first, at most ``limit``."""

        async def read(connection: AsyncConnection) -> list[PendingGame]:
            rows = await connection.execute(
                select(pending_games)
                .where(pending_games.c.claimed_at < before_ms)
                .order_by(pending_games.c.claimed_at, pending_games.c.id)
                .limit(limit)
            )
            return [_pending_of(row) for row in rows]

        return await self.archive.run(read, write=False)

    async def claim(self, pending: PendingGame, at_ms: int) -> PendingGame | None:
        """Take ``pending`` to make, if it is still as read (claimed when it says): claimed now
        (answered), or None (another process took it, or finished it)."""

        async def write(connection: AsyncConnection) -> bool:
            done = await connection.execute(
                pending_games.update()
                .where(
                    pending_games.c.id == pending.id,
                    pending_games.c.claimed_at == pending.claimed_ms,
                )
                .values(claimed_at=at_ms)
            )
            return bool(done.rowcount)

        if at_ms == pending.claimed_ms or not await self.archive.run(write, write=True):
            return None
        return replace(pending, claimed_ms=at_ms)

    async def challenges_of(
        self, player: str, limit: int
    ) -> tuple[list[Challenge], list[Challenge]]:
        """The open challenges ``player`` received and made, oldest first, at most ``limit``
        of each."""

        async def read(connection: AsyncConnection) -> tuple[list[Challenge], list[Challenge]]:
            lists = []
            for column in (challenges.c.challenged, challenges.c.challenger):
                rows = await connection.execute(
                    _challenge_rows()
                    .where(column == player)
                    .order_by(challenges.c.created_at, challenges.c.id)
                    .limit(limit)
                )
                lists.append([_challenge_of(row) for row in rows])
            return lists[0], lists[1]

        return await self.archive.run(read, write=False)

    # --- players' events -------------------------------------------------------------------------

    async def _tell(self, connection: AsyncConnection, told: Sequence[Told]) -> None:
        await write_told(connection, self.archive, self.kept, told)

    async def events(self, player: str, after: int, limit: int) -> list[tuple[int, str, str]]:
        """The player's stream events after ``after``: (seq, event, data)."""

        async def read(connection: AsyncConnection) -> list[tuple[int, str, str]]:
            rows = await connection.execute(
                select(player_events.c.seq, player_events.c.event, player_events.c.data)
                .where(player_events.c.player == player, player_events.c.seq > after)
                .order_by(player_events.c.seq)
                .limit(limit)
            )
            return [(row.seq, row.event, row.data) for row in rows]

        return await self.archive.run(read, write=False)


async def write_told(
    connection: AsyncConnection, archive: Archive, kept: int, told: Sequence[Told]
) -> None:
    """Number and write ``told`` (in the caller's transaction); a player's oldest events
    past the ``kept`` last go."""
    told_players = sorted({event.player for event in told})
    await _lock(connection, archive, *(f"events:{player}" for player in told_players))
    for event in told:
        last = select(func.coalesce(func.max(player_events.c.seq), 0)).where(
            player_events.c.player == event.player
        )
        await connection.execute(
            player_events.insert().from_select(
                ["player", "seq", "event", "data"],
                select(
                    literal(event.player, String),
                    func.coalesce(func.max(player_events.c.seq), 0) + 1,
                    literal(event.event, String),
                    literal(json.dumps(event.data), String),
                ).where(player_events.c.player == event.player),
            )
        )
        await connection.execute(
            delete(player_events).where(
                player_events.c.player == event.player,
                player_events.c.seq <= last.scalar_subquery() - kept,
            )
        )


async def _unpend(connection: AsyncConnection, pending: PendingGame) -> bool:
    """Delete ``pending``'s row if it is still as claimed: whether it was."""
    done = await connection.execute(
        delete(pending_games).where(
            pending_games.c.id == pending.id, pending_games.c.claimed_at == pending.claimed_ms
        )
    )
    return bool(done.rowcount)


def _pending_row(pending: PendingGame) -> dict[str, Any]:
    return {
        "id": pending.id, "via": pending.via, "seat": pending.seat, "one": pending.one,
        "one_offer": pending.one_offer, "other": pending.other,
        "other_offer": pending.other_offer, "game": json.dumps(pending.game, sort_keys=True),
        "rated": pending.rated, "owner": pending.owner,
        "restore": json.dumps(pending.restore, sort_keys=True),
        "created_at": pending.created_ms, "claimed_at": pending.claimed_ms,
    }  # fmt: skip


def _pending_of(row: Any) -> PendingGame:
    return PendingGame(
        row.id, row.via, int(row.seat), row.one, row.one_offer, row.other, row.other_offer,
        json.loads(row.game), bool(row.rated), row.owner, json.loads(row.restore),
        int(row.created_at), int(row.claimed_at),
    )  # fmt: skip


def _challenge_row(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.id, "challenger": challenge.challenger,
        "challenged": challenge.challenged, "game": json.dumps(challenge.game, sort_keys=True),
        "rated": challenge.rated, "created_at": challenge.created_ms,
    }  # fmt: skip


async def _lock(connection: AsyncConnection, archive: Archive, *names: str) -> None:
    """On PostgreSQL, advisory locks of ``names`` till the transaction ends, in order."""
    if not archive.sqlite:
        for name in names:
            await connection.execute(
                text("SELECT pg_advisory_xact_lock(hashtext(:name))"), {"name": name}
            )


def _seek_row(seek: Seek) -> dict[str, Any]:
    lo, hi = seek.bounds if seek.bounds is not None else (None, None)
    return {
        "id": seek.id, "player": seek.player, "terms": seek.terms, "kind": seek.kind,
        "game": json.dumps(seek.game, sort_keys=True), "rated": seek.rated, "pool": seek.pool,
        "lo": lo, "hi": hi, "created_at": seek.created_ms,
    }  # fmt: skip


def _seek_rows() -> Any:
    return select(seeks)


def _seek_of(row: Any, name: str = "") -> Seek:
    bounds = None if row.lo is None else (float(row.lo), float(row.hi))
    return Seek(
        row.id, row.player, json.loads(row.game), bool(row.rated), row.terms, row.kind, row.pool,
        bounds, int(row.created_at), name,
    )  # fmt: skip


def _rated(seek: Seek, rating: float) -> Seek:
    return Seek(
        seek.id, seek.player, seek.game, seek.rated, seek.terms, seek.kind, seek.pool,
        seek.bounds, seek.created_ms, seek.name, float(rating),
    )  # fmt: skip


async def _ratings(connection: AsyncConnection, pool: str, ids: set[str]) -> dict[str, float]:
    rows = await connection.execute(
        select(ratings.c.player, ratings.c.rating).where(
            ratings.c.pool == pool, ratings.c.player.in_(sorted(ids))
        )
    )
    return {row.player: float(row.rating) for row in rows}


def _challenge_rows() -> Any:
    challenger, challenged = players.alias("challenger_of"), players.alias("challenged_of")
    return (
        select(challenges, challenger.c.name.label("from_name"), challenged.c.name.label("to_name"))
        .join(challenger, challenger.c.id == challenges.c.challenger)
        .join(challenged, challenged.c.id == challenges.c.challenged)
    )


def _challenge_of(row: Any) -> Challenge:
    return Challenge(
        row.id, row.challenger, row.from_name, row.challenged, row.to_name,
        json.loads(row.game), bool(row.rated), int(row.created_at),
    )  # fmt: skip
