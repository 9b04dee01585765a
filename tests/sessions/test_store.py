"""The GameStore contract, run against both stores; then what is particular to each."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis

from app.sessions import tokens
from app.sessions.errors import (
    CapacityExhausted,
    CellOccupied,
    GameNotFound,
    GameOver,
    IdempotencyKeyReused,
    MoveNotFound,
    NotYourTurn,
    OutOfBounds,
    PreconditionFailed,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.redis_store import RedisGameStore, game_keys
from app.sessions.store import GameStore, MemoryGameStore


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(store_url: str, clock: FakeClock) -> AsyncIterator[GameStore]:
    built: GameStore
    if store_url.startswith("redis"):
        built = RedisGameStore(
            store_url, max_games=3, idle_seconds=60, timeout_seconds=2, clock=clock
        )
    else:
        built = MemoryGameStore(max_games=3, idle_seconds=60, clock=clock)
    yield built
    await built.close()


pytestmark = pytest.mark.anyio


async def test_token_decides_the_player(store: GameStore) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
    assert created.tokens[0] != created.tokens[1]
    assert (await store.play(game_id, first, 0, 0, None)).move.player == 1
    assert (await store.play(game_id, second, 1, 1, 2)).move.player == 2
    with pytest.raises(WrongPlayer):
        await store.play(game_id, first, 2, 2, 2)
    with pytest.raises(Unauthorized):
        await store.play(game_id, "not-a-token", 2, 2, None)
    other = await store.create(3)
    with pytest.raises(Unauthorized):
        await store.play(game_id, other.tokens[0], 2, 2, None)
    assert (await store.state(game_id)).version == 2


async def test_classic_game_and_every_refusal(store: GameStore) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
    script = [(0, 0, first), (0, 2, second), (2, 2, first), (1, 1, second), (2, 0, first),
              (1, 0, second), (2, 1, first)]  # fmt: skip
    winners = [(await store.play(game_id, t, r, c, None)).winner for r, c, t in script]
    assert winners == [0, 0, 0, 0, 0, 0, 1]
    state = await store.state(game_id)
    assert (state.status, state.winner, state.next_player, state.version) == ("won", 1, None, 7)
    assert state.last_move is not None
    assert (state.last_move.seq, state.last_move.row, state.last_move.col) == (7, 2, 1)
    assert await store.rows(game_id) == ["X.O", "OO.", "XXX"]
    with pytest.raises(GameOver):
        await store.play(game_id, second, 0, 1, None)
    with pytest.raises(OutOfBounds):
        await store.play(game_id, second, 3, 0, None)

    fresh = await store.create(2)
    await store.play(fresh.state.id, fresh.tokens[0], 0, 0, None)
    with pytest.raises(NotYourTurn):
        await store.play(fresh.state.id, fresh.tokens[0], 1, 1, None)
    with pytest.raises(CellOccupied):
        await store.play(fresh.state.id, fresh.tokens[1], 0, 0, None)
    assert (await store.state(fresh.state.id)).version == 1  # refusals changed nothing


async def test_draw(store: GameStore) -> None:
    created = await store.create(3)
    cells = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
    for i, (r, c) in enumerate(cells):
        result = await store.play(created.state.id, created.tokens[i % 2], r, c, None)
    assert (result.state.status, result.winner, result.state.next_player) == ("draw", 0, None)


async def test_huge_board_moves(store: GameStore) -> None:
    created = await store.create(1_000_000)
    await store.play(created.state.id, created.tokens[0], 999_999, 0, None)
    result = await store.play(created.state.id, created.tokens[1], 0, 999_999, None)
    assert (result.winner, result.state.version, result.state.next_player) == (0, 2, 1)
    with pytest.raises(OutOfBounds):
        await store.play(created.state.id, created.tokens[0], 1_000_000, 0, None)


async def test_capacity_refuses_with_time_until_a_slot_frees(
    store: GameStore, clock: FakeClock
) -> None:
    for _ in range(3):
        await store.create(3)
        clock.now += 10
    with pytest.raises(CapacityExhausted) as full:
        await store.create(3)
    assert full.value.retry_after == 30  # the oldest was touched 30 s ago of its 60
    clock.now += 30
    await store.create(3)  # the oldest expired, making room


async def test_moves_since_and_single_move(store: GameStore) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
    for i, (r, c) in enumerate([(0, 0), (1, 1), (2, 2), (0, 1)]):
        await store.play(game_id, (first, second)[i % 2], r, c, None)
    moves, version = await store.moves(game_id, since=1, limit=2)
    assert [(m.seq, m.row, m.col, m.player) for m in moves] == [(2, 1, 1, 2), (3, 2, 2, 1)]
    assert version == 4
    assert (await store.moves(game_id, since=4, limit=10))[0] == []
    assert (await store.move(game_id, 4)).row == 0
    for seq in (0, 5, -1):
        with pytest.raises(MoveNotFound):
            await store.move(game_id, seq)
    with pytest.raises(GameNotFound):
        await store.moves("nope", 0, 10)


async def test_delete_needs_a_player_token(store: GameStore) -> None:
    created = await store.create(3)
    with pytest.raises(Unauthorized):
        await store.delete(created.state.id, "nope")
    await store.delete(created.state.id, created.tokens[1])
    with pytest.raises(GameNotFound):
        await store.state(created.state.id)
    with pytest.raises(GameNotFound):
        await store.delete(created.state.id, created.tokens[1])


async def test_store_is_ready(store: GameStore) -> None:
    assert await store.ready()


async def test_idempotent_retry_gets_the_first_answer_and_applies_nothing(
    store: GameStore,
) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
    accepted = await store.play(game_id, first, 1, 1, None, idempotency_key="a")
    # The same key from the other player is another request, not a replay.
    answered = await store.play(game_id, second, 0, 0, None, idempotency_key="a")
    assert (answered.replayed, answered.move.seq) == (False, 2)
    again = await store.play(game_id, first, 1, 1, None, idempotency_key="a")
    assert again.replayed
    assert (again.move, again.state, again.winner) == (accepted.move, accepted.state, 0)
    assert (await store.state(game_id)).version == 2  # nothing applied twice
    with pytest.raises(IdempotencyKeyReused):
        await store.play(game_id, first, 2, 2, None, idempotency_key="a")


async def test_idempotent_retry_of_a_refusal_is_refused_the_same_way(store: GameStore) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
    with pytest.raises(NotYourTurn) as refused:
        await store.play(game_id, second, 0, 0, None, idempotency_key="b")
    await store.play(game_id, first, 1, 1, None)  # now it would be player 2's turn...
    with pytest.raises(NotYourTurn) as again:  # ...but the retry gets the first answer
        await store.play(game_id, second, 0, 0, None, idempotency_key="b")
    assert str(again.value) == str(refused.value)
    assert (await store.state(game_id)).version == 1


async def test_replay_of_the_winning_move_reports_the_win(store: GameStore) -> None:
    created = await store.create(1)
    first = await store.play(created.state.id, created.tokens[0], 0, 0, None, idempotency_key="w")
    again = await store.play(created.state.id, created.tokens[0], 0, 0, None, idempotency_key="w")
    assert (again.winner, again.state) == (1, first.state)


async def test_if_match_applies_only_at_that_version(store: GameStore) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
    await store.play(game_id, first, 0, 0, None, expected_version=0)
    with pytest.raises(PreconditionFailed) as stale:
        await store.play(game_id, second, 1, 1, None, expected_version=0)
    assert stale.value.version == 1
    assert (await store.state(game_id)).version == 1
    await store.play(game_id, second, 1, 1, None, expected_version=1)


# --- in-memory store ----------------------------------------------------------------------------


async def test_memory_store_keeps_only_token_hashes(clock: FakeClock) -> None:
    store = MemoryGameStore(max_games=3, idle_seconds=60, clock=clock)
    created = await store.create(3)
    game = store._games[created.state.id].game
    assert created.tokens[0] not in game.token_hashes
    assert game.token_hashes == tuple(tokens.token_hash(t) for t in created.tokens)


async def test_memory_idle_games_expire_and_moves_keep_them_alive(clock: FakeClock) -> None:
    store = MemoryGameStore(max_games=3, idle_seconds=60, clock=clock)
    idle = await store.create(3)
    active = await store.create(3)
    clock.now += 50
    await store.play(active.state.id, active.tokens[0], 0, 0, None)
    await store.state(idle.state.id)  # reading does not extend a game's life
    clock.now += 15
    with pytest.raises(GameNotFound):
        await store.state(idle.state.id)
    assert (await store.state(active.state.id)).version == 1
    assert len(store) == 1


# --- Redis store --------------------------------------------------------------------------------


@pytest.fixture
def redis_store_url(redis_url: str) -> str:
    redis.Redis.from_url(redis_url).flushdb()
    return redis_url


async def test_redis_keeps_only_token_hashes_under_one_hash_tag(redis_store_url: str) -> None:
    store = RedisGameStore(redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2)
    created = await store.create(3)
    await store.play(created.state.id, created.tokens[0], 1, 1, None, idempotency_key="k")
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    keys = set(raw.keys(f"{{game:{created.state.id}}}:*"))
    assert keys == set(game_keys(created.state.id))
    meta = raw.hgetall(game_keys(created.state.id)[0])
    assert (meta["h1"], meta["h2"]) == tuple(tokens.token_hash(t) for t in created.tokens)
    dump = repr([raw.dump(key) for key in raw.keys("*")])
    assert created.tokens[0] not in dump
    assert created.tokens[1] not in dump
    await store.close()


async def test_redis_game_keys_expire_when_idle_and_moves_refresh_them(
    redis_store_url: str,
) -> None:
    store = RedisGameStore(redis_store_url, max_games=10, idle_seconds=30, timeout_seconds=2)
    raw = redis.Redis.from_url(redis_store_url)
    created = await store.create(3)
    meta = game_keys(created.state.id)[0]
    assert 25_000 < raw.pttl(meta) <= 30_000
    raw.pexpire(meta, 5_000)  # as if 25 s had passed
    await store.play(created.state.id, created.tokens[0], 0, 0, None, idempotency_key="k")
    for key in game_keys(created.state.id):  # receipts too: keys expire with the game
        assert 25_000 < raw.pttl(key) <= 30_000
    await store.close()


async def test_redis_reloads_its_scripts_after_a_flush(redis_store_url: str) -> None:
    store = RedisGameStore(redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2)
    created = await store.create(3)
    redis.Redis.from_url(redis_store_url).script_flush()  # as after a restart: NOSCRIPT
    assert (await store.play(created.state.id, created.tokens[0], 0, 0, None)).state.version == 1
    assert (await store.state(created.state.id)).version == 1
    await store.close()
