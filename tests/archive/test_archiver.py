"""The archiver between a live store and a real archive database: each finished game written
once however many archivers take it, the store told so, nothing written while the archive is
down and everything once it is back, the retention and the outbox's lag as it says.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from app.api.archiving import Archiver
from app.kinds import KINDS, REGISTRY
from app.records.signing import KeyRing, SigningKey
from app.sessions.errors import StoreUnavailable
from app.sessions.exchange import ActionRequest, MoveRequest
from app.sessions.kind import Kinds, Placement
from app.sessions.store import NewGame
from app.stores.archive.archive import Archive, Where
from app.stores.archive.migrate import upgrade
from app.stores.memory import MemoryGameStore
from tests.fakes import FakeClock
from tests.servers import free_port

pytestmark = pytest.mark.anyio
SERVED = Kinds(KINDS)
KEYS = KeyRing(SigningKey.from_seed(bytes(32)))


@pytest.fixture
async def archive(archive_url: str) -> AsyncIterator[Archive]:
    made = Archive(archive_url)
    await upgrade(made)
    yield made
    await made.close()


def store() -> MemoryGameStore:
    return MemoryGameStore(REGISTRY, max_games=100, idle_seconds=3600, archive=True)


async def won(live: MemoryGameStore) -> str:
    """A tic-tac-toe game player 1 wins: its id."""
    created = await live.create(NewGame("tictactoe", {"n": 3, "k": 3}))
    game_id = created.state.id
    for seq, (row, col) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]):
        token = created.tokens[seq % 2]
        assert token is not None
        await live.play(game_id, token, MoveRequest(Placement(row, col)))
    return game_id


async def test_archivers_racing_write_each_game_once_and_empty_the_outbox(
    archive: Archive,
) -> None:
    live = store()
    ended = [await won(live) for _ in range(6)]
    assert await live.unarchived(100) == ended
    archivers = [Archiver(live, archive, SERVED, KEYS, migrate=False) for _ in range(3)]
    for archiver in archivers:
        archiver.ready = True  # migrated by the fixture
    await asyncio.gather(*(archiver.drain() for archiver in archivers))
    assert sum(archiver.written for archiver in archivers) == len(ended)
    assert await live.unarchived(100) == []
    page = await archive.page(Where(), None, 100)
    assert sorted(str(game["id"]) for game in page.games) == sorted(ended)


async def test_a_game_ended_while_the_archive_is_down_waits_for_it(archive_url: str) -> None:
    live = store()
    down = Archive(f"postgresql://nobody@127.0.0.1:{free_port()}/none", timeout_seconds=1)
    archiver = Archiver(live, down, SERVED, KEYS)
    await archiver.open()
    assert not archiver.ready
    game_id = await won(live)
    state = await live.state(game_id)
    await archiver.settle(state)  # answered at once: the archive is known to be down
    assert archiver.failures == 0
    with pytest.raises(StoreUnavailable):
        await archiver.drain()
    assert await live.unarchived(10) == [game_id]
    await down.close()
    up = Archive(archive_url)
    try:
        archiver = Archiver(live, up, SERVED, KEYS)
        await archiver.open()
        assert await archiver.drain() == 1
        assert await live.unarchived(10) == []
        assert await up.exists(game_id)
    finally:
        await up.close()


async def test_every_ending_reaches_the_archive(archive: Archive) -> None:
    live = store()
    archiver = Archiver(live, archive, SERVED, KEYS)
    await archiver.open()
    endings = []
    for action in ("resign", "abort"):
        created = await live.create(NewGame("reversi", {}))
        token = created.tokens[0]
        assert token is not None
        await live.act(created.state.id, token, ActionRequest(action))  # type: ignore[arg-type]
        endings.append(created.state.id)
    await archiver.drain()
    for game_id in endings:
        assert await archive.exists(game_id)


async def test_retention_and_lag(archive: Archive) -> None:
    clock = FakeClock(time.time())  # the store ends games by the wall clock
    live = store()
    archiver = Archiver(live, archive, SERVED, KEYS, retention_days=1, clock=clock)
    await archiver.open()
    first = await won(live)
    assert (await archiver.lag())[0] == 1
    await archiver.drain()
    assert await archiver.lag() == (0, 0.0)
    await archiver.retain()  # the game ended "now" by the store's time: kept
    assert await archive.exists(first)
    clock.now += 2 * 86_400 + 3600  # two days on, an hour past the last check
    await archiver.retain()
    assert not await archive.exists(first)
    assert archiver.removed == 1


async def test_an_archive_that_goes_down_holds_up_no_more_endings() -> None:
    """The archive was up, and is down now: the first ending finds it so (and is answered
    within the settling time all the same); the next do not wait for it at all, and wait in the
    store for the loop."""
    live = store()
    down = Archive(f"postgresql://nobody@127.0.0.1:{free_port()}/none", timeout_seconds=0.5)
    archiver = Archiver(live, down, SERVED, KEYS)
    archiver.ready = True  # as if it had been opened
    try:
        first = await won(live)
        await archiver.settle(await live.state(first))
        for _ in range(50):  # its archiving, left to go on, fails
            if not archiver.ready:
                break
            await asyncio.sleep(0.1)
        assert not archiver.ready
        assert archiver.failures == 1
        later = [await won(live) for _ in range(3)]
        for game_id in later:
            await archiver.settle(await live.state(game_id))  # returns at once: no attempt
        assert archiver.failures == 1
        assert await live.unarchived(10) == [first, *later]
    finally:
        await down.close()


class Swallowing(MemoryGameStore):
    """A store whose client turns a cancellation into a connection error, as redis-py's may
    in the middle of a round trip."""

    async def unarchived(self, limit: int) -> list[str]:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise StoreUnavailable(may_have_applied=False) from None
        return []


async def test_a_stopping_archiver_stops_though_its_store_swallows_the_cancellation(
    archive: Archive,
) -> None:
    live = Swallowing(REGISTRY, max_games=10, idle_seconds=60, archive=True)
    archiver = Archiver(live, archive, SERVED, KEYS, poll_seconds=0.05)
    await archiver.open()
    archiver.start()
    await asyncio.sleep(0.2)  # the loop waits in the store's read
    started = time.monotonic()
    await asyncio.wait_for(archiver.stop(), 30)  # stop's drain meets the same store: bounded
    assert time.monotonic() - started < 10
    await asyncio.sleep(0.2)
    assert archiver._task is not None
    assert archiver._task.done()  # the loop saw it was stopping and ended
