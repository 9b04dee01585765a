"""A tournament read again by the process that read it (``Tournaments.find`` with its recent
reads) is the tournament a first read finds, after every change a tournament has — a round
claimed, given up, claimed again, paired, each result, a withdrawal — on SQLite and on a real
PostgreSQL server; and what it does not read again is only what cannot change: the boards of
the first rounds paired whose every result is in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.league.events import Pairing
from app.stores.archive.archive import Archive
from app.stores.archive.boards import BoardResult, result_steps
from app.stores.archive.migrate import upgrade
from app.stores.archive.players import Players
from app.stores.archive.ratings import drive_async
from app.stores.archive.tables import pairings, tournaments
from app.stores.archive.tournaments import Board, Event, Recent, Tournament, Tournaments

pytestmark = pytest.mark.anyio

PLAYERS = ["ann", "bo", "cy", "di", "ed"]  # five: a bye each round


@pytest.fixture
async def archive(archive_url: str) -> AsyncIterator[Archive]:
    archive = Archive(archive_url)
    await upgrade(archive)
    for player in PLAYERS:
        assert await Players(archive).add(player, player.title(), "h", "client", 0, 10)
    yield archive
    await archive.close()


def an_event(rounds: int) -> Event:
    return Event("t1", "Club", "ann", "swiss", rounds, {"game": "tictactoe"}, [], False,
                 "registering", 0, 0, None)  # fmt: skip


def boards_of(number: int) -> list[Board]:
    """Round ``number``: 1 v 2, 3 v 4 (shifted by the round), and a bye."""
    seats = [(number + offset) % 5 + 1 for offset in range(5)]
    return [
        Board(Pairing(number, 1, seats[0], seats[1]), f"g{number}-1"),
        Board(Pairing(number, 2, seats[2], seats[3]), f"g{number}-2"),
        Board(Pairing(number, 3, seats[4], None, "bye"), None),
    ]


async def result(archive: Archive, game_id: str, given: str) -> None:
    steps = result_steps(game_id, "t1", BoardResult(given), 1, not archive.sqlite)  # type: ignore[arg-type]

    async def write(connection: AsyncConnection) -> None:
        await drive_async(steps, connection.execute)

    await archive.run(write, write=True)


async def round_one_settled(archive: Archive, claims: tuple[int, ...] = (10,)) -> Tournaments:
    """A two-round event whose round 1 is paired and has every result, read once by the
    process whose tournaments are returned (round 1 settled: kept). ``claims``: when round 1
    was claimed, each claim after the first replacing the one before as stale; the last one
    pairs it."""
    again = Tournaments(archive, Recent(4))
    assert await again.make(an_event(2), PLAYERS, 10)
    assert await again.claim("t1", 1, boards_of(1), claims[0])
    for stale, at in pairwise(claims):
        assert await again.claim("t1", 1, boards_of(1), at, stale=stale)
    assert await again.paired("t1", 1, claims[-1], claims[-1] + 10, 2)
    for game_id in ("g1-1", "g1-2"):
        await result(archive, game_id, "1-0")
    read = await again.find("t1")
    assert read is not None
    assert read.settled == (1, 3)
    return again


async def executed(archive: Archive, statement: Any) -> None:
    """``statement`` run in a transaction of its own."""

    async def write(connection: AsyncConnection) -> None:
        await connection.execute(statement)

    await archive.run(write, write=True)


async def test_a_tournament_read_again_is_what_a_first_read_finds(archive: Archive) -> None:
    recent: Recent[str, Tournament] = Recent(4)
    again = Tournaments(archive, recent)

    async def same() -> Tournament:
        first = await Tournaments(archive).find("t1")  # nothing read before: every row
        read = await again.find("t1")
        assert read is not None
        assert read == first
        return read

    assert await again.make(an_event(3), PLAYERS, 10)
    assert (await same()).settled == (0, 0)
    # Round 1 claimed, given up (its games could not all be made), claimed again, paired.
    assert await again.claim("t1", 1, boards_of(1), 10)
    await same()
    await again.unclaim("t1", 1, 10)
    assert (await same()).boards == []
    assert await again.claim("t1", 1, boards_of(1), 20)
    assert await again.paired("t1", 1, 20, 30, 3)
    assert (await same()).settled == (0, 0)  # two games go on
    await result(archive, "g1-1", "1-0")
    assert (await same()).settled == (0, 0)
    await result(archive, "g1-2", "½-½")
    assert (await same()).settled == (1, 3)
    assert await again.withdraw("t1", "di")
    # Round 2: claimed (its boards read, not shown), paired, its results one by one.
    assert await again.claim("t1", 2, boards_of(2), 40)
    assert (await same()).settled == (1, 3)
    assert await again.paired("t1", 2, 40, 50, 3)
    await result(archive, "g2-2", "0-1")
    assert (await same()).settled == (1, 3)
    await result(archive, "g2-1", "1-0")
    found = await same()
    assert found.settled == (2, 6)
    assert [board.pairing.result for board in found.boards] == [
        "1-0", "½-½", "bye", "1-0", "0-1", "bye"]  # fmt: skip


async def test_settled_rounds_are_not_read_again(archive: Archive) -> None:
    again = await round_one_settled(archive)

    # What no route can do: a result changed.
    await executed(
        archive, update(pairings).where(pairings.c.game_id == "g1-1").values(result="0-1")
    )
    kept = await again.find("t1")
    fresh = await Tournaments(archive).find("t1")
    assert kept is not None
    assert fresh is not None
    assert kept.boards[0].pairing.result == "1-0"
    assert fresh.boards[0].pairing.result == "0-1"


async def test_a_claim_gone_stale_changes_nothing_of_the_round_claimed_again(
    archive: Archive,
) -> None:
    """A request whose claim went stale (its games made for too long) and was replaced can
    neither give up nor pair the round the newer claim paired: its boards stay the newer's."""
    again = await round_one_settled(archive, claims=(10, 70_000))  # the newer claim pairs
    before = await again.find("t1")
    assert before is not None
    assert not await again.paired("t1", 1, 10, 70_002, 2)  # the stale claim's, late
    await again.unclaim("t1", 1, 10)
    fresh = await Tournaments(archive).find("t1")
    assert fresh == await again.find("t1")
    assert fresh is not None
    assert fresh.boards == before.boards
    assert fresh.event.changes == before.event.changes  # nothing told twice


async def test_a_tournament_made_again_under_its_id_is_read_whole(archive: Archive) -> None:
    """What a process read of a tournament is not taken for another one under the same id (a
    database restored or replaced under a running service)."""
    again = await round_one_settled(archive)

    await executed(archive, tournaments.delete())
    remade = replace(an_event(2), created_ms=5)
    assert await Tournaments(archive).make(remade, PLAYERS, 10)
    found = await again.find("t1")
    assert found is not None
    assert found.boards == []
    assert found == await Tournaments(archive).find("t1")
