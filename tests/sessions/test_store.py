"""The in-memory store: tokens kept as hashes, capacity, idle expiry on an injected clock."""

from __future__ import annotations

import pytest

from app.sessions import tokens
from app.sessions.errors import (
    CapacityExhausted,
    GameNotFound,
    MoveNotFound,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.store import MemoryGameStore


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(clock: FakeClock) -> MemoryGameStore:
    return MemoryGameStore(max_games=3, idle_seconds=60, clock=clock)


@pytest.mark.anyio
async def test_store_keeps_only_token_hashes(store: MemoryGameStore) -> None:
    created = await store.create(3)
    game = store._games[created.state.id].game
    assert created.tokens[0] not in game.token_hashes
    assert game.token_hashes == tuple(tokens.token_hash(t) for t in created.tokens)
    assert created.tokens[0] != created.tokens[1]


@pytest.mark.anyio
async def test_token_decides_the_player(store: MemoryGameStore) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
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


@pytest.mark.anyio
async def test_capacity_refuses_with_time_until_a_slot_frees(
    store: MemoryGameStore, clock: FakeClock
) -> None:
    for _ in range(3):
        await store.create(3)
        clock.now += 10
    with pytest.raises(CapacityExhausted) as full:
        await store.create(3)
    assert full.value.retry_after == 30  # the oldest was touched 30 s ago of its 60
    clock.now += 30
    await store.create(3)  # the oldest expired, making room


@pytest.mark.anyio
async def test_idle_games_expire_and_moves_keep_them_alive(
    store: MemoryGameStore, clock: FakeClock
) -> None:
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


@pytest.mark.anyio
async def test_moves_since_and_single_move(store: MemoryGameStore) -> None:
    created = await store.create(3)
    game_id, (first, second) = created.state.id, created.tokens
    for i, (r, c) in enumerate([(0, 0), (1, 1), (2, 2), (0, 1)]):
        await store.play(game_id, (first, second)[i % 2], r, c, None)
    moves, version = await store.moves(game_id, since=1, limit=2)
    assert [m.seq for m in moves] == [2, 3]
    assert version == 4
    assert (await store.moves(game_id, since=4, limit=10))[0] == []
    assert (await store.move(game_id, 4)).row == 0
    for seq in (0, 5, -1):
        with pytest.raises(MoveNotFound):
            await store.move(game_id, seq)


@pytest.mark.anyio
async def test_delete_needs_a_player_token(store: MemoryGameStore) -> None:
    created = await store.create(3)
    with pytest.raises(Unauthorized):
        await store.delete(created.state.id, "nope")
    await store.delete(created.state.id, created.tokens[1])
    with pytest.raises(GameNotFound):
        await store.state(created.state.id)
