"""Games that last (API part 3): a game lives as long as its clock, a deadline falls with
nobody watching, and an archiving store keeps every ended game in its outbox, once, until it
is archived — on the memory store, one Redis and a Redis Cluster.

Time: the memory store's clocks are injected (``FakeClock``) where a test waits for nothing;
where a test waits for a deadline nobody watches, time is real (short clocks: a second)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable

import pytest
import redis

from app.kinds import REGISTRY
from app.sessions.clock import TimeControl
from app.sessions.errors import CapacityExhausted, GameNotFound, GameOver
from app.sessions.exchange import ActionRequest, MoveRequest
from app.sessions.kind import Placement
from app.sessions.session import Terms
from app.sessions.store import GameStore, NewGame
from app.stores.memory import MemoryGameStore
from app.stores.redis.keys import DUE_SLOTS, OUTBOX_SLOTS, game_keys
from app.stores.redis.store import RedisGameStore
from tests.conftest import empty_store
from tests.fakes import FakeClock

pytestmark = pytest.mark.anyio

STORES = ["memory", "redis", "redis-generic", "cluster"]


def move(row: int, col: int) -> MoveRequest:
    return MoveRequest(Placement(row, col))


def build(
    request: pytest.FixtureRequest,
    name: str | None = None,
    *,
    archive: bool = True,
    idle_seconds: float = 60,
    clock: Callable[[], float] | None = None,
    **limits: int,
) -> GameStore:
    """The store ``name``d (by default the test's parameter); the memory store's two clocks
    are ``clock`` (real time if None)."""
    name = name or request.param
    if name == "memory":
        clocks = {} if clock is None else {"clock": clock, "wall_clock": clock}
        return MemoryGameStore(
            REGISTRY, max_games=limits.pop("max_games", 50), idle_seconds=idle_seconds,
            archive=archive, **clocks, **limits,
        )  # fmt: skip
    server, _, engine = name.partition("-")
    url = empty_store(request, server)
    return remember_raw(
        RedisGameStore(
            REGISTRY, url, max_games=limits.pop("max_games", 50), idle_seconds=idle_seconds,
            timeout_seconds=10, fast_paths=engine != "generic", archive=archive, **limits,
        ),
        url,
    )  # fmt: skip


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest) -> AsyncIterator[GameStore]:
    built = build(request)
    yield built
    await built.close()


RAW: dict[int, redis.Redis | redis.RedisCluster] = {}


def raw_of(store: GameStore) -> redis.Redis | redis.RedisCluster:
    """A plain client of the Redis store ``store`` keeps its games in (read directly: no
    script of the store runs, so no read settles anything)."""
    return RAW[id(store)]


def remember_raw(store: GameStore, url: str) -> GameStore:
    if url.startswith("redis+cluster://"):
        host, _, port = url.removeprefix("redis+cluster://").split(",")[0].rpartition(":")
        RAW[id(store)] = redis.RedisCluster(host=host, port=int(port), decode_responses=True)
    else:
        RAW[id(store)] = redis.Redis.from_url(url, decode_responses=True)
    return store


async def until(check: Callable[[], object], seconds: float = 5.0) -> None:
    """Wait (polling nothing of the store's games: ``check`` reads the outbox or raw keys)
    until ``check()`` is true."""
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "not in time"
        await asyncio.sleep(0.05)


async def started(store: GameStore, control: TimeControl | None = None) -> tuple[str, str, str]:
    """A 3 × 3 tic-tac-toe game in which both players moved (so a clock runs, player 1's)."""
    created = await store.create(NewGame("tictactoe", {"n": 3}, control))
    game_id, (x, o) = created.state.id, created.tokens
    assert x is not None
    assert o is not None
    await store.play(game_id, x, move(0, 0))
    await store.play(game_id, o, move(1, 1))
    return game_id, x, o


# --- a game lives as long as its clock --------------------------------------------------------


async def test_memory_a_clocked_game_idle_past_its_idle_time_plays_and_ends_on_time() -> None:
    clock = FakeClock(1_000_000.0)
    store = MemoryGameStore(
        REGISTRY, max_games=5, idle_seconds=60, clock=clock, wall_clock=clock, archive=False
    )
    game_id, x, _ = await started(store, TimeControl(600, 0))
    plain, _, _ = await started(store)  # no clock: idle expiry as ever
    clock.now += 300  # five idle times: player 1 thinks
    with pytest.raises(GameNotFound):
        await store.state(plain)
    assert (await store.state(game_id)).status == "in_progress"
    await store.play(game_id, x, move(0, 1))  # 300 s spent of 600
    clock.now += 599  # player 2 thinks for ten idle times, a second short of the flag
    assert (await store.state(game_id)).status == "in_progress"
    clock.now += 1
    state = await store.state(game_id)
    assert (state.status, state.winner, state.reason) == ("won", 1, "timeout")
    clock.now += 59  # a finished game lives idle_seconds from its end
    await store.state(game_id)
    clock.now += 2
    with pytest.raises(GameNotFound):
        await store.state(game_id)
    await store.close()


@pytest.mark.parametrize("store_kind", ["redis", "cluster"])
async def test_redis_a_clocked_game_idle_past_its_idle_time_plays_and_ends_on_time(
    request: pytest.FixtureRequest, store_kind: str
) -> None:
    store = build(request, store_kind, archive=False, idle_seconds=1)
    raw = raw_of(store)
    game_id, x, _ = await started(store, TimeControl(4, 0))
    plain, _, _ = await started(store)
    meta = game_keys(game_id).meta
    assert raw.pttl(meta) > 4_000  # the running clock's 4 s, and a second after it
    await asyncio.sleep(1.6)  # past the idle time
    assert raw.exists(game_keys(plain).meta) == 0
    assert (await store.state(game_id)).status == "in_progress"
    await store.play(game_id, x, move(0, 1))
    assert raw.pttl(meta) > 4_000  # player 2's full clock
    await asyncio.sleep(1.6)
    assert (await store.state(game_id)).status == "in_progress"
    await until(lambda: raw.hget(meta, "status") == "won", 6)  # nobody reads: the sweep
    assert raw.hmget(meta, "winner", "reason") == ["1", "timeout"]
    assert store.endings["timeout"] == 1
    await until(lambda: raw.exists(meta) == 0, 4)  # then idle from its end
    await store.close()


async def test_a_flag_falls_with_nobody_watching(store: GameStore) -> None:
    """No request touches the game after its last move: it ends within about a second of its
    deadline all the same, and waits in the outbox (read without reading the game)."""
    game_id, x, _ = await started(store, TimeControl(1, 0))
    assert await store.unarchived(10) == []
    ended = asyncio.create_task(store.ended.wait())
    found: list[str] = []
    end = time.monotonic() + 4  # the deadline, and a few seconds of a busy machine
    while not found:
        assert time.monotonic() < end, "the flag did not fall"
        await asyncio.sleep(0.05)
        found = await store.unarchived(10)  # the outbox only: no game is read
    assert found == [game_id]
    await asyncio.wait_for(ended, 1)
    if isinstance(store, RedisGameStore):
        assert raw_of(store).hmget(game_keys(game_id).meta, "status", "reason") == [
            "won", "timeout",
        ]  # fmt: skip
    state = await store.state(game_id)
    assert (state.status, state.winner, state.reason) == ("won", 2, "timeout")
    with pytest.raises(GameOver):
        await store.play(game_id, x, move(0, 1))
    assert store.endings["timeout"] == 1
    assert await store.unarchived(10) == [game_id]


async def test_a_first_move_deadline_passes_with_nobody_watching(store: GameStore) -> None:
    created = await store.create(NewGame("tictactoe", {"n": 3}, terms=Terms(1)))
    game_id = created.state.id
    end = time.monotonic() + 5
    while await store.unarchived(10) != [game_id]:
        assert time.monotonic() < end, "the deadline did not pass"
        await asyncio.sleep(0.05)
    if isinstance(store, RedisGameStore):
        assert raw_of(store).hmget(game_keys(game_id).meta, "status", "reason") == [
            "aborted", "no_first_move",
        ]  # fmt: skip
    state = await store.state(game_id)
    assert (state.status, state.reason) == ("aborted", "no_first_move")


# --- the outbox -------------------------------------------------------------------------------


async def ended_by(store: GameStore, how: str) -> str:
    """A game ended in the way ``how`` names; its id."""
    if how == "no_first_move":
        created = await store.create(NewGame("tictactoe", {"n": 3}, terms=Terms(1)))
        await asyncio.sleep(1.1)
        return created.state.id
    if how == "abort":
        created = await store.create(NewGame("tictactoe", {"n": 3}))
        x = created.tokens[0]
        assert x is not None
        await store.act(created.state.id, x, ActionRequest("abort"))
        return created.state.id
    if how == "timeout":
        game_id, _, _ = await started(store, TimeControl(1, 0))
        await asyncio.sleep(1.1)
        return game_id
    if how == "move_limit":
        created = await store.create(NewGame("tictactoe", {"n": 3}))
        game_id, (x, o) = created.state.id, created.tokens
        assert x is not None
        assert o is not None
        for token, cell in ((x, (0, 0)), (o, (1, 1)), (x, (2, 2))):
            await store.play(game_id, token, move(*cell))
        return game_id
    game_id, x, o = await started(store)
    if how == "line":
        for token, cell in ((x, (0, 1)), (o, (2, 2)), (x, (0, 2))):
            await store.play(game_id, token, move(*cell))
    elif how == "board_full":
        for token, cell in ((x, (0, 2)), (o, (0, 1)), (x, (2, 1)), (o, (2, 0)), (x, (1, 0)),
                            (o, (1, 2)), (x, (2, 2))):  # fmt: skip
            await store.play(game_id, token, move(*cell))
    elif how == "resignation":
        await store.act(game_id, o, ActionRequest("resign"))
    elif how == "agreement":
        await store.act(game_id, x, ActionRequest("offer"))
        await store.act(game_id, o, ActionRequest("offer"))
    return game_id


REASONS = {
    "line": "line", "board_full": "board_full", "resignation": "resignation",
    "agreement": "agreement", "abort": "aborted", "timeout": "timeout",
    "no_first_move": "no_first_move",
}  # fmt: skip


@pytest.fixture(params=STORES)
async def store_of_three_moves(request: pytest.FixtureRequest) -> AsyncIterator[GameStore]:
    built = build(request, max_moves=3)
    yield built
    await built.close()


async def test_the_move_limit_waits_in_the_outbox(store_of_three_moves: GameStore) -> None:
    done = await ended_by(store_of_three_moves, "move_limit")
    assert (await store_of_three_moves.state(done)).reason == "move_limit"
    assert await store_of_three_moves.unarchived(10) == [done]


async def test_every_ending_waits_in_the_outbox_once(store: GameStore) -> None:
    ids = {}
    for how in REASONS:
        store.ended.clear()
        ids[how] = await ended_by(store, how)
        state = await store.state(ids[how])  # read, and read again: nothing twice
        assert state.reason == REASONS[how], how
        await store.state(ids[how])
        assert store.ended.is_set(), how
    waiting = await store.unarchived(100)
    assert sorted(waiting) == sorted(ids.values())
    assert len(waiting) == len(set(waiting))
    assert waiting[0] == ids["line"]  # oldest end first
    assert await store.unarchived(3) == waiting[:3]


async def test_an_archived_game_leaves_the_outbox_and_expires_as_a_finished_game() -> None:
    clock = FakeClock(1_000_000.0)
    store = MemoryGameStore(
        REGISTRY, max_games=3, idle_seconds=60, clock=clock, wall_clock=clock, archive=True
    )
    done = await ended_by(store, "resignation")
    clock.now += 3_600  # an archive down for an hour: the game waits
    assert (await store.state(done)).reason == "resignation"
    assert await store.unarchived(10) == [done]
    await store.archived(["nope", done, done])  # idempotent; unknown ids ignored
    await store.archived([done])
    assert await store.unarchived(10) == []
    clock.now += 59
    await store.state(done)
    clock.now += 2
    with pytest.raises(GameNotFound):
        await store.state(done)
    await store.close()


@pytest.fixture(params=["memory", "redis", "cluster"])
async def store_of_two_quick_games(request: pytest.FixtureRequest) -> AsyncIterator[GameStore]:
    """Each store, with two places and games that expire a second after their last move."""
    built = build(request, max_games=2, idle_seconds=1)
    yield built
    await built.close()


async def test_a_full_store_of_waiting_games_refuses_creation_until_archived(
    store_of_two_quick_games: GameStore,
) -> None:
    """Waiting games keep their places, however long the archive is down (one nobody moved
    in never gives its place either): a creation is refused until they are archived, then
    they expire as finished games do."""
    store = store_of_two_quick_games
    first = await ended_by(store, "abort")
    second = await ended_by(store, "resignation")
    await asyncio.sleep(1.5)  # past their idle time
    with pytest.raises(CapacityExhausted):
        await store.create(NewGame("tictactoe", {"n": 3}))
    assert (await store.state(first)).reason == "aborted"
    assert await store.live_games() == 2
    await store.archived([first, second])
    assert await store.unarchived(10) == []
    await asyncio.sleep(1.5)
    await store.create(NewGame("tictactoe", {"n": 3}))
    with pytest.raises(GameNotFound):
        await store.state(second)


async def test_a_deleted_game_leaves_the_outbox(store: GameStore) -> None:
    game_id, x, o = await started(store)
    await store.act(game_id, o, ActionRequest("resign"))
    kept = await ended_by(store, "agreement")
    assert await store.unarchived(10) == [game_id, kept]
    await store.delete(game_id, x)
    assert await store.unarchived(10) == [kept]
    await store.archived([game_id])  # gone: ignored


@pytest.mark.parametrize("store_kind", ["redis", "cluster"])
async def test_redis_waiting_games_persist_and_archived_ones_expire(
    request: pytest.FixtureRequest, store_kind: str
) -> None:
    store = build(request, store_kind, idle_seconds=30)
    raw = raw_of(store)
    done = await ended_by(store, "resignation")
    keys = [key for key in game_keys(done) if raw.exists(key)]
    assert len(keys) >= 2
    assert all(raw.pttl(key) == -1 for key in keys)  # waits, whatever its idle time
    assert await store.live_games() == 1
    await store.archived([done])
    assert await store.unarchived(10) == []
    assert all(25_000 < raw.pttl(key) <= 30_000 for key in keys)
    await store.archived([done])  # again: nothing changes
    await store.close()


@pytest.mark.parametrize("store_kind", ["redis", "cluster"])
async def test_two_processes_on_one_redis_share_one_outbox(
    request: pytest.FixtureRequest, store_kind: str
) -> None:
    url = empty_store(request, store_kind)
    first, second = (
        RedisGameStore(
            REGISTRY, url, max_games=50, idle_seconds=60, timeout_seconds=10, archive=True
        )
        for _ in range(2)
    )
    games = [await ended_by(first, "line"), await ended_by(second, "resignation")]
    games.append(await ended_by(first, "agreement"))
    assert await first.unarchived(10) == games
    assert await second.unarchived(10) == games
    await second.archived(games[:2])
    assert await first.unarchived(10) == games[2:]
    await first.archived(games[1:])
    assert await second.unarchived(10) == []
    await first.close()
    await second.close()


async def test_without_archive_nothing_waits() -> None:
    clock = FakeClock(1_000_000.0)
    store = MemoryGameStore(REGISTRY, max_games=3, idle_seconds=60, clock=clock, wall_clock=clock)
    done = await ended_by(store, "resignation")
    assert await store.unarchived(10) == []
    assert not store.ended.is_set()
    clock.now += 61
    with pytest.raises(GameNotFound):
        await store.state(done)
    await store.close()


@pytest.mark.parametrize("store_kind", ["redis", "cluster"])
async def test_redis_without_archive_nothing_waits(
    request: pytest.FixtureRequest, store_kind: str
) -> None:
    store = build(request, store_kind, archive=False, idle_seconds=30)
    raw = raw_of(store)
    done = await ended_by(store, "resignation")
    assert await store.unarchived(10) == []
    assert not store.ended.is_set()
    assert 25_000 < raw.pttl(game_keys(done).meta) <= 30_000
    assert raw.hget(game_keys(done).meta, "ob") is None
    await store.close()


@pytest.mark.parametrize("store_kind", ["redis", "cluster"])
async def test_redis_hints_a_dead_process_lost_are_found_by_the_full_pass(
    request: pytest.FixtureRequest, store_kind: str
) -> None:
    """The hints of which slots hold deadlines and endings are written after the script, by
    the process that ran it: one that died in between leaves entries no hint points to. Every
    process's pass over every slot finds them."""
    dying = build(request, store_kind)
    assert isinstance(dying, RedisGameStore)
    raw = raw_of(dying)
    done = await ended_by(dying, "resignation")
    clocked, _, _ = await started(dying, TimeControl(1, 0))
    dying.life._due_hints.clear()  # as if it died before writing its hints
    dying.life._outbox_hints.clear()
    await dying.life.close()
    raw.delete(DUE_SLOTS, OUTBOX_SLOTS)
    await asyncio.sleep(1.2)  # the flag is due
    survivor = RedisGameStore(
        REGISTRY, empty_url(store_kind, request), max_games=50, idle_seconds=60,
        timeout_seconds=10, archive=True,
    )  # fmt: skip
    survivor.life._closed = True  # its sweep runs only as this test says
    assert await survivor.unarchived(10) == []  # no hint: not found yet
    assert raw.hget(game_keys(clocked).meta, "status") == "in_progress"
    survivor.life.per_tick = survivor.life.slots  # the whole pass in one tick
    await survivor.life.sweep()  # hints found
    await survivor.life.sweep()  # the due game ended
    assert raw.hmget(game_keys(clocked).meta, "status", "reason") == ["won", "timeout"]
    assert await survivor.unarchived(10) == [done, clocked]
    await survivor.close()
    await dying.close()


def empty_url(store_kind: str, request: pytest.FixtureRequest) -> str:
    """The URL of the server ``store_kind`` names, not emptied."""
    return str(
        request.getfixturevalue("redis_url" if store_kind == "redis" else "redis_cluster_url")
    )


async def test_a_page_of_the_outbox_is_its_oldest_endings(store: GameStore) -> None:
    """However many slots the endings are kept in (a cluster's are many), a page of ``k`` is
    the ``k`` oldest: the first ``k`` of the whole outbox."""
    ended = [await ended_by(store, "resignation") for _ in range(12)]
    everything = await store.unarchived(100)
    assert sorted(everything) == sorted(ended)
    for k in (1, 2, 5, 11, 12, 13):
        assert await store.unarchived(k) == everything[:k]
    await store.archived(everything[:5])
    assert await store.unarchived(3) == everything[5:8]
