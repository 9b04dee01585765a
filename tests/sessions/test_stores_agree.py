"""The policy written in Python (the session, behind the memory store) and in Lua (the Redis
store's tic-tac-toe fast path; its generic engine decides in Python and commits in Lua) agree:
the same random request sequences — moves legal and not, replays under an ``Idempotency-Key``
(the same body and another), ``If-Match``, a claimed ``player``, resignations, draw offers —
get the same answers, the same receipts and leave the same states, on one Redis and a cluster.

Clocks are left out: the Redis scripts read the store's own time (``TIME``), which a test does
not set; tests/sessions/test_clock.py and tests/e2e/test_clocks.py check them on each store.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.errors import DomainError
from app.sessions.kind import Placement
from app.sessions.memory_store import MemoryGameStore
from app.sessions.redis_store import RedisGameStore
from app.sessions.session import ActionRequest, GameState, MoveRequest
from app.sessions.store import GameStore
from tests.conftest import empty_store

REDIS_PATHS = ["redis", "redis-generic", "cluster", "cluster-generic"]

Step = tuple[Any, ...]
steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("move"),
            st.sampled_from([1, 2]),  # whose token
            st.integers(-1, 3),  # row (−1 and 3: outside the 3 × 3 board)
            st.integers(0, 2),  # col
            st.sampled_from([None, "a", "b"]),  # Idempotency-Key
            st.sampled_from([None, 0, 1, 2, 3, 4]),  # If-Match: a version
            st.sampled_from([None, 1, 2]),  # the player the body claims
        ),
        st.tuples(
            st.sampled_from(["resign", "offer"]),
            st.sampled_from([1, 2]),
            st.sampled_from([None, "a", "c"]),
            st.sampled_from([None, 0, 2, 5]),
        ),
    ),
    min_size=1,
    max_size=14,
)


def _state(state: GameState) -> tuple[Any, ...]:
    return (replace(state, id=""),)


def _error(error: DomainError) -> tuple[Any, ...]:
    return (type(error).__name__, str(error), error.details(), error.replayed)


async def play(store: GameStore, sequence: list[Step]) -> list[tuple[Any, ...]]:
    """What a store answered to each step of the sequence, and the game's state after it."""
    created = await store.create("tictactoe", {"n": 3, "k": 3})
    game_id, tokens = created.state.id, created.tokens
    seen: list[tuple[Any, ...]] = [_state(created.state)]
    for step in sequence:
        answer: tuple[Any, ...]
        try:
            if step[0] == "move":
                _, who, row, col, key, version, claimed = step
                request = MoveRequest(Placement(row, col), claimed, version, key)
                result = await store.play(game_id, tokens[who - 1], request)
                answer = ("moved", result.winner, result.move,
                          _state(result.state), result.replayed)  # fmt: skip
            else:
                action, who, key, version = step
                asked = ActionRequest(action, None, version, key)
                acted = await store.act(game_id, tokens[who - 1], asked)
                answer = ("acted", _state(acted.state), acted.replayed)
        except DomainError as error:
            answer = _error(error)
        moves, version_now = await store.moves(game_id, 0, 100)
        seen.append((answer, _state(await store.state(game_id)), moves, version_now))
    return seen


@pytest.fixture(params=REDIS_PATHS)
def redis_store(request: pytest.FixtureRequest) -> tuple[pytest.FixtureRequest, str]:
    """The Redis path to compare with the memory store: one Redis or a cluster, each with the
    fast path or the generic engine."""
    return request, str(request.param)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sequence=steps)
def test_python_and_lua_answer_the_same_requests_the_same(
    redis_store: tuple[pytest.FixtureRequest, str], sequence: list[Step]
) -> None:
    request, path = redis_store
    server, _, engine = path.partition("-")

    async def both() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        memory = MemoryGameStore(max_games=10, idle_seconds=60)
        redis = RedisGameStore(
            empty_store(request, server), max_games=10, idle_seconds=60, timeout_seconds=2,
            fast_paths=engine != "generic",
        )  # fmt: skip
        try:
            return await play(memory, sequence), await play(redis, sequence)
        finally:
            await redis.close()

    in_python, in_lua = asyncio.run(both())
    for step, (python_saw, lua_saw) in enumerate(zip(in_python, in_lua, strict=True)):
        assert lua_saw == python_saw, (step, sequence[:step])
