"""Tournaments in the archive's database (``tables.tournaments`` and the tables beside it).

A tournament is made by its organiser with its entrants in the seeding order; more enter before
round 1, and any withdraws (not paired after the rounds paired so far). A round is paired in
two steps around the making of its games in the live store: ``claim`` writes its pairings with
their games' ids under the round's key (racing requests: one claims it, the others find it
taken), and ``paired`` marks it done and tells the stream; a round whose games could not all be
made is ``unclaimed`` (all or nothing), and one left claimed by a process that died is claimed
again after ``STALE_CLAIM_MS``.

A board's result comes with its game's archiving (``result_steps``, run in the transaction that
archives the game, as ratings are): the board takes it, the stream is told, and the last result
of the last round finishes the tournament. On PostgreSQL the tournament's row is locked first,
so that its events are numbered one at a time.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, and_, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.league.events import Entrant, Pairing, check_entrants, check_played
from app.sessions.errors import StoreUnavailable
from app.stores.archive.archive import Archive
from app.stores.archive.boards import REGISTERING, RUNNING, ended_if_done, told
from app.stores.archive.offers import Told, write_told
from app.stores.archive.ratings import drive_async
from app.stores.archive.tables import (
    entrants,
    pairings,
    players,
    tournament_events,
    tournament_rounds,
    tournaments,
)

K = TypeVar("K")
V = TypeVar("V")

# A round claimed this long ago and never paired was left by a process that died: claimed again.
STALE_CLAIM_MS = 60_000


@dataclass(frozen=True, slots=True)
class Event:
    """A tournament's own values (``tables.tournaments``)."""

    id: str
    name: str
    organiser: str
    system: str
    rounds: int
    game: Mapping[str, Any]
    openings: Sequence[Mapping[str, Any]]
    rated: bool
    status: str
    changes: int
    created_ms: int
    ended_ms: int | None


@dataclass(frozen=True, slots=True)
class Board:
    """A board of a round and its game's id (None: a bye)."""

    pairing: Pairing
    game_id: str | None


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as read (``Tournaments.find``): its entrants and every round's boards as
    ``check_entrants`` and ``check_played`` require them."""

    event: Event
    entrants: list[Entrant]
    boards: list[Board]  # by round, then board
    paired: int  # the rounds paired (their games made)
    claimed: dict[int, int] = field(default_factory=dict)  # rounds claimed, not paired: when
    # The first rounds paired whose every board has its result, and their boards' count: rows
    # that never change again (a result is given once; only a round not paired loses its rows).
    settled: tuple[int, int] = (0, 0)

    @property
    def played(self) -> list[Pairing]:
        return [board.pairing for board in self.boards if board.pairing.round <= self.paired]


def settled(
    boards: Sequence[Board], paired: int, start: tuple[int, int] = (0, 0)
) -> tuple[int, int]:
    """The first rounds of ``boards`` paired with every result given (``paired``: the rounds
    paired), and their boards' count, looking on from ``start`` (rounds known settled)."""
    rounds, count = start
    at = count
    while at < len(boards):
        number = boards[at].pairing.round
        if number > paired:
            break
        end = at
        while end < len(boards) and boards[end].pairing.round == number:
            if boards[end].pairing.result is None:
                return rounds, count
            end += 1
        rounds, count, at = number, end, end
    return rounds, count


class Recent(Generic[K, V]):
    """The ``most`` values last used, by key; the least recently used goes first."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._kept.get(key)
        if value is not None:
            self._kept.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)

    def drop(self, key: K) -> None:
        self._kept.pop(key, None)

    def clear(self) -> None:
        self._kept.clear()


class UnknownPlayers(ValueError):
    """Entrants that are no players."""

    def __init__(self, ids: Sequence[str]) -> None:
        super().__init__(", ".join(ids))
        self.ids = list(ids)


class Tournaments:
    """The tournaments kept in ``archive``'s database; ``recent``: the tournaments this process
    read last, whose settled rounds a read of one of them again does not read again (a
    500-player event's nine rounds are 2,250 boards; a result changes one of the last round's)."""

    def __init__(self, archive: Archive, recent: Recent[str, Tournament] | None = None) -> None:
        self.archive = archive
        self.recent: Recent[str, Tournament] = Recent(1) if recent is None else recent

    async def make(self, event: Event, entered: Sequence[str], most: int) -> bool:
        """Make ``event`` with the players ``entered`` (ids, in the seeding order), unless its
        organiser has made ``most`` already (False). UnknownPlayers for ids of no player."""

        async def write(connection: AsyncConnection) -> bool:
            made = await connection.execute(
                select(func.count())
                .select_from(tournaments)
                .where(tournaments.c.organiser == event.organiser)
            )
            if made.scalar_one() >= most:
                return False
            await _check_players(connection, entered)
            row = {
                "id": event.id, "name": event.name, "organiser": event.organiser,
                "system": event.system, "rounds": event.rounds, "game": json.dumps(event.game),
                "openings": json.dumps(list(event.openings)), "rated": event.rated,
                "status": REGISTERING, "changes": 0, "created_at": event.created_ms,
                "ended_at": None,
            }  # fmt: skip
            await connection.execute(tournaments.insert().values(row))
            if entered:
                await connection.execute(
                    entrants.insert(),
                    [
                        {
                            "tournament": event.id,
                            "number": number,
                            "player": player,
                            "withdrawn": None,
                        }
                        for number, player in enumerate(entered, 1)
                    ],
                )
            return True

        return await self.archive.run(write, write=True)

    async def find(self, tournament_id: str) -> Tournament | None:
        """The tournament, read from its database (its settled rounds' boards as last read by
        this process, if it was: they cannot have changed); None for no such tournament."""
        known = self.recent.get(tournament_id)
        start = (0, 0) if known is None else known.settled
        rows = await self.archive.read(
            lambda connection: _rows_of(connection, tournament_id, start[0])
        )
        if rows is None:
            self.recent.drop(tournament_id)
            return None
        found, entered, rounds, read_boards = rows
        paired = sum(1 for row in rounds if row.paired_at is not None)
        if known is not None and (found.created_at != known.event.created_ms or paired < start[0]):
            # Not the tournament this process read (its database restored or replaced): all
            # of it read again.
            self.recent.drop(tournament_id)
            return await self.find(tournament_id)
        event = Event(
            found.id, found.name, found.organiser, found.system, found.rounds,
            json.loads(found.game), json.loads(found.openings), found.rated, found.status,
            found.changes, found.created_at, found.ended_at,
        )  # fmt: skip
        claimed = {row.number: row.claimed_at for row in rounds if row.paired_at is None}
        entrants_ = [Entrant(number, player, name, gone) for number, player, gone, name in entered]
        fresh = [
            Board(
                Pairing(round_, board, seat1, seat2, result,
                        None if discs1 is None else (discs1, discs2)),
                game_id,
            )
            for round_, board, seat1, seat2, result, discs1, discs2, game_id in read_boards
        ]  # fmt: skip
        # As the league's rules have them (``Tournament``): the rounds read whole, each once.
        check_entrants(entrants_)
        check_played(entrants_, [board.pairing for board in fresh])
        boards = [] if known is None else known.boards[: start[1]]
        boards += fresh
        tournament = Tournament(
            event,
            entrants_,
            boards,
            paired,
            claimed,
            settled(boards, paired, start),
        )
        self.recent.put(tournament_id, tournament)
        return tournament

    async def version(self, tournament_id: str) -> int | None:
        """The tournament's count of changes (its events, its entrants' changes): what its
        document is as of; None for no such tournament."""

        def read(connection: Connection) -> int | None:
            found = connection.execute(
                select(tournaments.c.changes).where(tournaments.c.id == tournament_id)
            )
            changes = found.scalar_one_or_none()
            return None if changes is None else int(changes)

        return await self.archive.read(read)

    async def enter(self, tournament_id: str, player: str, most: int) -> str:
        """Enter ``player`` last in the seeding order before round 1: ``"entered"``, or why
        not: ``"started"`` (a round is paired), ``"entered_already"``, ``"full"`` (``most``
        entrants). UnknownPlayers for no such player."""

        async def write(connection: AsyncConnection) -> str:
            await self._lock(connection, tournament_id)
            if await _rounds_claimed(connection, tournament_id):
                return "started"
            await _check_players(connection, [player])
            numbers = (
                await connection.execute(
                    select(entrants.c.number, entrants.c.player).where(
                        entrants.c.tournament == tournament_id
                    )
                )
            ).all()
            if any(row.player == player for row in numbers):
                return "entered_already"
            if len(numbers) >= most:
                return "full"
            row = {"tournament": tournament_id, "number": len(numbers) + 1, "player": player}
            await connection.execute(entrants.insert().values(row))
            await _changed(connection, tournament_id)
            return "entered"

        try:
            return await self.archive.run(write, write=True)
        except StoreUnavailable as error:
            if isinstance(error.__cause__, IntegrityError):  # entered by a racing request
                return "entered_already"
            raise

    async def withdraw(self, tournament_id: str, player: str) -> bool:
        """Withdraw ``player`` after the rounds claimed so far: False if it is no entrant (or
        withdrew already)."""

        async def write(connection: AsyncConnection) -> bool:
            await self._lock(connection, tournament_id)
            after = await _rounds_claimed(connection, tournament_id)
            done = await connection.execute(
                update(entrants)
                .where(
                    entrants.c.tournament == tournament_id,
                    entrants.c.player == player,
                    entrants.c.withdrawn.is_(None),
                )
                .values(withdrawn=after)
            )
            if done.rowcount:
                await _changed(connection, tournament_id)
            return bool(done.rowcount)

        return await self.archive.run(write, write=True)

    async def claim(
        self, tournament_id: str, number: int, boards: Sequence[Board], at_ms: int,
        stale: int | None = None,
    ) -> bool:  # fmt: skip
        """Claim round ``number`` with its ``boards`` (their games' ids, made next): False if
        it is claimed already (by a racing request). ``stale``: the claim of a process that died
        (its ``claimed_at``), replaced."""

        async def write(connection: AsyncConnection) -> bool:
            key = and_(
                tournament_rounds.c.tournament == tournament_id,
                tournament_rounds.c.number == number,
            )
            if stale is not None:
                gone = await connection.execute(
                    tournament_rounds.delete().where(
                        key, tournament_rounds.c.claimed_at == stale,
                        tournament_rounds.c.paired_at.is_(None),
                    )
                )  # fmt: skip
                if gone.rowcount != 1:
                    return False
                await connection.execute(
                    pairings.delete().where(
                        pairings.c.tournament == tournament_id, pairings.c.round == number
                    )
                )
            row = {"tournament": tournament_id, "number": number, "claimed_at": at_ms}
            await connection.execute(tournament_rounds.insert().values(row))
            await connection.execute(
                pairings.insert(),
                [
                    {
                        "tournament": tournament_id,
                        "round": number,
                        "board": b.pairing.board,
                        "seat1": b.pairing.seat1,
                        "seat2": b.pairing.seat2,
                        "game_id": b.game_id,
                        "result": b.pairing.result,
                        "discs1": None,
                        "discs2": None,
                    }
                    for b in boards
                ],
            )
            return True

        try:
            return await self.archive.run(write, write=True)
        except StoreUnavailable as error:
            if isinstance(error.__cause__, IntegrityError):  # claimed by a racing request
                return False
            raise

    async def unclaim(self, tournament_id: str, number: int, claimed_ms: int) -> None:
        """Give up round ``number``'s claim made at ``claimed_ms`` (its games could not all be
        made) — unless it is no longer this claim: claimed again after it went stale, the
        round's boards are the new claim's (and, once paired, never change: ``find`` keeps
        them)."""

        async def write(connection: AsyncConnection) -> None:
            given_up = await connection.execute(
                tournament_rounds.delete().where(
                    tournament_rounds.c.tournament == tournament_id,
                    tournament_rounds.c.number == number,
                    tournament_rounds.c.claimed_at == claimed_ms,
                    tournament_rounds.c.paired_at.is_(None),
                )
            )
            if given_up.rowcount != 1:
                return
            await connection.execute(
                pairings.delete().where(
                    pairings.c.tournament == tournament_id, pairings.c.round == number
                )
            )

        await self.archive.run(write, write=True)

    async def paired(
        self, tournament_id: str, number: int, claimed_ms: int, at_ms: int, total: int,
        games: Sequence[Told] = (), kept: int = 1,
    ) -> bool:  # fmt: skip
        """Round ``number`` (of ``total``), claimed at ``claimed_ms``, has its games made: it
        is paired, and the stream says so, as the players' streams say ``games`` (their games
        began; ``kept``: the events a player's stream keeps). False, and nothing written, if
        the round is no longer this claim's (claimed again after it went stale)."""

        async def write(connection: AsyncConnection) -> bool:
            await self._lock(connection, tournament_id)
            done = await connection.execute(
                update(tournament_rounds)
                .where(
                    tournament_rounds.c.tournament == tournament_id,
                    tournament_rounds.c.number == number,
                    tournament_rounds.c.claimed_at == claimed_ms,
                    tournament_rounds.c.paired_at.is_(None),
                )
                .values(paired_at=at_ms)
            )
            if done.rowcount != 1:
                return False
            await connection.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id)
                .values(status=RUNNING, rounds=total)
            )
            await drive_async(told(tournament_id, "round", {"round": number}), connection.execute)
            await drive_async(ended_if_done(tournament_id, at_ms), connection.execute)
            await write_told(connection, self.archive, kept, games)
            return True

        return await self.archive.run(write, write=True)

    async def events(
        self, tournament_id: str, after: int, limit: int
    ) -> list[tuple[int, str, str]]:
        """The tournament's stream events after ``after``: (seq, event, data)."""

        async def read(connection: AsyncConnection) -> list[tuple[int, str, str]]:
            rows = await connection.execute(
                select(tournament_events)
                .where(
                    tournament_events.c.tournament == tournament_id,
                    tournament_events.c.seq > after,
                )
                .order_by(tournament_events.c.seq)
                .limit(limit)
            )
            return [(row.seq, row.event, row.data) for row in rows]

        return await self.archive.run(read, write=False)

    async def _lock(self, connection: AsyncConnection, tournament_id: str) -> None:
        """On PostgreSQL, the tournament's row locked till the transaction ends: its changes
        one at a time (SQLite writes one transaction at a time)."""
        if not self.archive.sqlite:
            await connection.execute(
                select(tournaments.c.id).where(tournaments.c.id == tournament_id).with_for_update()
            )


def _rows_of(connection: Connection, tournament_id: str, after: int) -> tuple[Any, ...] | None:
    """A tournament's rows, as ``find`` builds it: its own, its entrants' (with their names),
    its rounds', its boards' of the rounds after ``after`` (every row at once: row by row, a
    500-player event's took three times as long). None for no such tournament."""
    found = connection.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
    if found is None:
        return None
    entered = connection.execute(
        select(entrants.c.number, entrants.c.player, entrants.c.withdrawn, players.c.name)
        .join(players, players.c.id == entrants.c.player)
        .where(entrants.c.tournament == tournament_id)
        .order_by(entrants.c.number)
    ).all()
    rounds = connection.execute(
        select(tournament_rounds).where(tournament_rounds.c.tournament == tournament_id)
    ).all()
    boards = connection.execute(
        select(pairings.c.round, pairings.c.board, pairings.c.seat1, pairings.c.seat2,
               pairings.c.result, pairings.c.discs1, pairings.c.discs2, pairings.c.game_id)
        .where(pairings.c.tournament == tournament_id, pairings.c.round > after)
        .order_by(pairings.c.round, pairings.c.board)
    ).all()  # fmt: skip
    return found, entered, rounds, boards


async def _changed(connection: AsyncConnection, tournament_id: str) -> None:
    """A change the stream does not tell (an entrant's): the document's version moves on."""
    await connection.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(changes=tournaments.c.changes + 1)
    )


async def _check_players(connection: AsyncConnection, ids: Sequence[str]) -> None:
    if not ids:
        return
    found = {
        row.id
        for row in await connection.execute(select(players.c.id).where(players.c.id.in_(ids)))
    }
    missing = [player for player in ids if player not in found]
    if missing:
        raise UnknownPlayers(missing)


async def _rounds_claimed(connection: AsyncConnection, tournament_id: str) -> int:
    counted = await connection.execute(
        select(func.count())
        .select_from(tournament_rounds)
        .where(tournament_rounds.c.tournament == tournament_id)
    )
    return int(counted.scalar_one())
