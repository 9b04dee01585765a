"""What the Redis stores make of their clients' failures: every one is the store's outage (503,
never a 500), and a change says whether it may have been applied."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    ClusterError,
    MaxConnectionsError,
    ReadOnlyError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.kinds import REGISTRY
from app.sessions.exchange import MoveRequest
from app.sessions.kind import Placement
from app.sessions.store import NewGame
from app.stores.redis.cluster import BoundedCluster, connect, may_have_run
from app.stores.redis.store import RedisGameStore
from tests.servers import wait_for

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "closed",
    [
        AttributeError("'NoneType' object has no attribute 'writelines'"),
        RuntimeError(
            "unable to perform operation on <TCPTransport closed=True>; the handler is closed"
        ),
    ],
    ids=["writer-gone", "transport-closed"],
)
async def test_a_connection_closed_under_a_cluster_command_is_a_connection_error(
    monkeypatch: pytest.MonkeyPatch, closed: Exception
) -> None:
    # While a node is lost, the cluster client disconnects that node's connections, and the
    # commands other tasks were sending on them fail from inside redis-py.
    async def sending(self: RedisCluster, *args: Any, **kwargs: Any) -> Any:
        raise closed

    monkeypatch.setattr(RedisCluster, "execute_command", sending)
    cluster = BoundedCluster(connections=2, wait=1, startup_nodes=[ClusterNode("127.0.0.1", 6379)])
    with pytest.raises(RedisConnectionError, match="closed under the command") as raised:
        await cluster.execute_command("EVALSHA", "0", 0)
    assert raised.value.__cause__ is closed
    assert may_have_run(raised.value)  # it may have been sent before the connection closed
    assert cluster._permits._value == 2  # its permit is given back


@pytest.mark.parametrize(
    ("error", "ran"),
    [
        (ResponseError("OOM command not allowed when used memory > 'maxmemory'"), False),
        (ReadOnlyError("You can't write against a read only replica."), False),
        (
            RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
            False,
        ),
        (RedisConnectionError("No connection available."), False),
        (BusyLoadingError("Redis is loading the dataset in memory"), False),
        (ClusterDownError("CLUSTERDOWN The cluster is down"), False),
        (TryAgainError("TRYAGAIN Multiple keys request during rehashing of slot"), False),
        (MaxConnectionsError("Too many connections"), False),
        (SlotNotCoveredError("Slot 42 is not covered by the cluster"), False),
        (ClusterError("TTL exhausted."), False),
        (RedisConnectionError("Connection closed by server."), True),
        (RedisTimeoutError("Timeout reading from 127.0.0.1:6379"), True),
        (RedisConnectionError("Error while reading from 127.0.0.1:6379 : (104, 'reset')"), True),
    ],
    ids=[
        "refused-oom",
        "refused-read-only",
        "never-connected",
        "no-free-connection",
        "refused-loading",
        "refused-cluster-down",
        "refused-try-again",
        "no-free-cluster-connection",
        "no-node-for-the-slot",
        "only-redirected",
        "closed-after-sending",
        "answer-late",
        "reset-after-sending",
    ],
)
def test_what_may_have_run_on_the_server(error: Exception, ran: bool) -> None:
    assert may_have_run(error) is ran


async def test_a_lost_subscription_is_made_again_and_its_waiters_read_again(
    redis_url: str,
) -> None:
    raw = redis.Redis.from_url(redis_url)
    raw.flushdb()
    watcher, mover = (
        RedisGameStore(REGISTRY, redis_url, max_games=10, idle_seconds=60, timeout_seconds=2)
        for _ in range(2)
    )
    created = await mover.create(NewGame("tictactoe", {"n": 3}))
    game_id = created.state.id
    waiting = asyncio.create_task(watcher.wait_for_change(game_id, 0, 60))
    await asyncio.to_thread(wait_for, lambda: raw.pubsub_numpat() == 1, "the subscription")
    raw.client_kill_filter(_type="pubsub")  # the process's one subscription is cut …
    await mover.play(game_id, created.tokens[0], MoveRequest(Placement(1, 1)))  # … and missed
    # The subscription is made again at once, and the waiter wakes to read the game again,
    # long before its own minute is up.
    await asyncio.wait_for(waiting, 10)
    assert (await watcher.state(game_id)).version == 1
    for store in (watcher, mover):
        await store.close()


@pytest.mark.parametrize(
    "failure",
    [
        RedisConnectionError("Connection closed by server."),
        RedisTimeoutError("Timeout reading from the node"),
        ClusterDownError("CLUSTERDOWN The cluster is down"),
    ],
    ids=["connection-lost", "answer-late", "cluster-down"],
)
async def test_the_cluster_client_never_sends_a_failed_command_again(
    redis_cluster_url: str, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    # redis-py's cluster client retries a command after these by default (a move whose answer
    # was lost would then be applied twice); the store's client sends it once.
    client = connect(redis_cluster_url, 4, 1.0)
    assert isinstance(client, BoundedCluster)
    await client.initialize()
    sent: list[tuple[Any, ...]] = []

    async def failing(self: ClusterNode, *args: Any, **kwargs: Any) -> Any:
        sent.append(args)
        raise failure

    monkeypatch.setattr(ClusterNode, "execute_command", failing)
    with pytest.raises(type(failure)):
        await client.execute_command("SET", "a-key", "a value")
    monkeypatch.undo()
    assert sent == [("SET", "a-key", "a value")]
    await client.close()
