"""Whether the Redis store takes writes: the readiness a service process reports.

A Redis that refuses writes (out of memory, read-only, paused) refuses or leaves unanswered a
write of the store's own (``keys.READY``), which changes nothing of a game; a Redis Cluster is
ready when every slot is served by a primary that says so, and every primary takes such a write.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.stores.redis.cluster import STORE_ERRORS, Client
from app.stores.redis.keys import READY, READY_MS, ready_key
from app.stores.redis.scripts import forget_connections

# The hash slots of a Redis Cluster.
CLUSTER_SLOTS = 16384


async def takes_writes(client: Client, now_ms: Callable[[], int]) -> bool:
    """The store takes writes: one write of its own (``READY``), which a Redis that refuses
    writes (out of memory, read-only, paused) refuses or leaves unanswered; after a
    connection failure, once more on a fresh connection (the write changes nothing of a
    game, so sending it again is safe). On a cluster: every slot is served by a primary
    that says so, and every primary takes such a write (the topology asked again after a
    failure)."""
    if isinstance(client, RedisCluster):
        return await _cluster_ready(client, now_ms)
    for _ in range(2):
        try:
            return bool(await client.set(READY, now_ms(), px=READY_MS))
        except RedisError as error:
            if not isinstance(error, (RedisConnectionError, RedisTimeoutError)):
                return False
            await forget_connections(error, client)
    return False


async def _cluster_ready(cluster: RedisCluster, now_ms: Callable[[], int]) -> bool:
    """Every slot has a primary, every primary answers that it serves (its cluster state
    is ``ok``: a node back from an outage is not, until the others know it again), and
    takes a write."""
    for _ in range(2):
        try:
            await cluster.initialize()
            primaries = cluster.get_primaries()
            ranges = await cluster.cluster_slots(target_nodes=primaries[0])
            served = sum(end - start + 1 for start, end in ranges)
            states = [
                await cluster.execute_command("CLUSTER INFO", target_nodes=primary)
                for primary in primaries
            ]
            if served != CLUSTER_SLOTS or any(s["cluster_state"] != "ok" for s in states):
                return False
            for start, end in ranges:  # a write in each primary's slots
                await cluster.set(ready_key(start, end), now_ms(), px=READY_MS)
            return True
        except STORE_ERRORS:
            with suppress(*STORE_ERRORS):
                await cluster.nodes_manager.initialize()  # ask where the slots are now
    return False
