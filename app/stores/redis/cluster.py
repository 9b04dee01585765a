"""What the Redis store needs on a Redis Cluster (``redis+cluster://host:port[,host:port…]``).

* ``connect``: redis-py's cluster client for the seed nodes, or the single-node client, with the
  same promises: a command is never sent twice (a lost reply must not apply a move twice: no
  retry on connection errors, timeouts or CLUSTERDOWN, which redis-py's cluster client makes by
  default; a MOVED, ASK or TRYAGAIN answer is followed, since the node that answered it did not
  run the command), and a request waits for a free connection up to the timeout rather than
  failing when all are busy. ``may_have_run`` says of a failed command whether it may have run
  all the same.
* ``ShardedListener``: a process's subscriptions to the channels of the games it has listeners
  for, with ``SSUBSCRIBE`` on the node that holds each game (sharded pub/sub, Redis ≥ 7): a move
  is announced to that node's subscribers only, never broadcast to every node. A game's channel
  is subscribed while the process has listeners for it and released a while after the last.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import (
    BusyLoadingError,
    ClusterError,
    MaxConnectionsError,
    RedisClusterException,
    RedisError,
    ResponseError,
)
from redis.exceptions import ConnectionError as RedisConnectionError

from app.stores.redis.keys import channel, game_of

logger = logging.getLogger("app.sessions.redis")

CLUSTER_SCHEME = "redis+cluster"
# A game's channel stays subscribed this long after its last listener left (a stream waits
# again right after each read: it would otherwise subscribe and release on every change).
LINGER_SECONDS = 5.0

Client = redis.Redis | RedisCluster
# What a store command may raise: redis-py's errors, and its cluster client's own (a slot that
# no node is known to serve is not a RedisError); both are the store's outage for that game.
STORE_ERRORS = (RedisError, RedisClusterException, OSError)
# What redis-py's asyncio clients raise when a connection is closed under a command (while a
# node is lost, the cluster client disconnects the node's connections that other commands are
# using): "'NoneType' object has no attribute 'writelines'", "unable to perform operation on
# <TCPTransport closed=True>". The cluster client's commands raise them as ConnectionError
# (``BoundedCluster``); a subscription's reader treats them as a lost connection.
CLOSED_UNDER = (AttributeError, RuntimeError)
# The marks of a failure before a command was sent: no connection could be made, or none was
# free (the pools' own errors, and ``BoundedCluster``'s).
NOT_SENT = ("connecting to", "No connection available", "no free connection")
# Failures that say a command did not run: the server refused it (an error reply: out of memory,
# read-only, CLUSTERDOWN, TRYAGAIN; LOADING, a node still reading its data after a restart, which
# redis-py raises as a ConnectionError; "TTL exhausted", the cluster client's after redirections
# only, MOVED, ASK or TRYAGAIN, none of which ran it), or it was never sent (no free connection;
# the cluster client's own errors, raised before it sends: no node known to serve the slot).
NOT_RUN = (
    ResponseError, BusyLoadingError, ClusterError, MaxConnectionsError, RedisClusterException,
)  # fmt: skip


def may_have_run(error: BaseException) -> bool:
    """Whether a command that failed with ``error`` may have run on the server all the same (its
    answer lost: a timeout, a connection lost after sending — a node killed, or cut — and
    anything not known to have stopped it): not when the server refused it, nor when it was
    never sent."""
    if isinstance(error, NOT_RUN):
        return False
    return not any(mark in str(error) for mark in NOT_SENT)


def is_cluster(url: str) -> bool:
    return urlsplit(url).scheme == CLUSTER_SCHEME


def seed_nodes(url: str) -> list[tuple[str, int]]:
    """The ``host:port`` pairs of a ``redis+cluster://`` URL."""
    seeds = []
    for seed in urlsplit(url).netloc.split(","):
        host, _, port = seed.rpartition(":")
        seeds.append((host, int(port)))
    return seeds


class BoundedCluster(RedisCluster):
    """The cluster client with at most ``connections`` commands in flight: its per-node pools
    fail at once when they are full, where the single-node pool waits; here a command waits for
    a permit (up to ``wait`` seconds), so that no node gets more than ``connections``."""

    def __init__(self, *, connections: int, wait: float, **options: Any) -> None:
        super().__init__(max_connections=connections, **options)
        self._permits = asyncio.Semaphore(connections)
        self._wait = wait

    async def aclose(self) -> None:
        """redis-py calls this itself when a node answers CLUSTERDOWN (a primary back from an
        outage, a failover under way), and it would then cut every connection to every node,
        failing the commands of other games in flight. Here that only makes the next command
        ask the cluster where the slots are (which lets commands in flight finish); the store
        closes the client with ``close``."""
        self._initialize = True

    async def close(self) -> None:
        await super().aclose()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            async with asyncio.timeout(self._wait):
                await self._permits.acquire()
        except TimeoutError:
            raise RedisError("no free connection to the store within the timeout") from None
        try:
            return await super().execute_command(*args, **kwargs)
        except CLOSED_UNDER as error:
            detail = f"the connection was closed under the command: {error}"
            raise RedisConnectionError(detail) from error
        finally:
            self._permits.release()


def connect(url: str, connections: int, timeout: float) -> Client:
    """A client for ``url`` with at most ``connections`` connections (per node on a cluster)."""
    sockets: dict[str, Any] = {
        "decode_responses": True,
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "retry": Retry(NoBackoff(), 0),  # never re-send: a lost reply must not move twice
    }
    if is_cluster(url):
        return BoundedCluster(
            connections=connections,
            wait=timeout,
            startup_nodes=[ClusterNode(host, port) for host, port in seed_nodes(url)],
            # The games of a node that is down answer 503; every other game is served.
            require_full_coverage=False,
            **sockets,
        )
    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=connections, timeout=timeout, **sockets
    )
    return redis.Redis.from_pool(pool)


class _Feed:
    """One node's subscriptions, on a connection of their own, and the task reading them."""

    def __init__(self, node: ClusterNode, timeout: float) -> None:
        self.node = node
        self.client = redis.Redis(
            host=node.host, port=int(node.port), decode_responses=True,
            socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0),
        )  # fmt: skip
        self.pubsub = self.client.pubsub()
        self.confirmed: dict[str, asyncio.Event] = {}  # channel -> set once SSUBSCRIBE answered
        self.reader: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with suppress(asyncio.CancelledError):
                await self.reader
        await close_pubsub(self.pubsub)
        with suppress(*STORE_ERRORS):
            await self.client.aclose()


# How long closing a subscription may take before its connection is let go.
PUBSUB_CLOSE_SECONDS = 1.0


async def close_pubsub(pubsub: Any) -> None:
    """Close a subscription, within ``PUBSUB_CLOSE_SECONDS``: redis-py's ``aclose`` waits for
    its connection's writer to close, which a connection the server killed may never do
    (redis-py issue 3941, open), and the listener that closes it would then wait forever with
    it (a suite run hung so, after its test killed the subscription's connection)."""
    with suppress(*STORE_ERRORS, TimeoutError):
        await asyncio.wait_for(pubsub.aclose(), PUBSUB_CLOSE_SECONDS)


class ShardedListener:
    """Subscriptions of one process to the channels of its watched games on a Redis Cluster.

    ``hold(game_id)`` returns once the game's channel is subscribed on the node that holds the
    game (or after ``timeout`` seconds: the caller's wait then falls back to its own timeout, so
    a stream is late, never wrong). Every message wakes the game's waiters (``notify``). A node
    whose connection fails wakes the waiters of all its games (they read the store again, and
    answer its outage) and is subscribed again at their next wait.
    """

    def __init__(self, cluster: RedisCluster, notify: Callable[[str], None], timeout: float):
        self.cluster = cluster
        self.notify = notify
        self.timeout = timeout
        self._feeds: dict[str, _Feed] = {}  # node name -> its feed
        self._placed: dict[str, str] = {}  # channel -> node name of its feed
        self._listeners: dict[str, int] = {}  # game id -> listeners waiting now
        self._left: dict[str, float] = {}  # game id -> when its last listener left
        self._janitor: asyncio.Task[None] | None = None
        self._subscribing = asyncio.Lock()

    async def hold(self, game_id: str) -> None:
        """A listener of the game begins waiting: its channel is subscribed before this returns."""
        self._listeners[game_id] = self._listeners.get(game_id, 0) + 1
        self._left.pop(game_id, None)
        if self._janitor is None or self._janitor.done():
            self._janitor = asyncio.create_task(self._release_idle())
        name = channel(game_id)
        try:
            async with self._subscribing:  # one at a time: a connection's commands in order
                feed = self._feeds.get(self._placed.get(name, ""))
                if feed is None:
                    feed = await self._subscribe(name)
            async with asyncio.timeout(self.timeout):
                await feed.confirmed[name].wait()
        except (*STORE_ERRORS, TimeoutError, KeyError) as error:
            logger.warning("could not subscribe to %s: %s", name, error)

    def release(self, game_id: str) -> None:
        """A listener of the game stops waiting."""
        left = self._listeners.get(game_id, 0) - 1
        if left > 0:
            self._listeners[game_id] = left
            return
        self._listeners.pop(game_id, None)
        self._left[game_id] = time.monotonic()

    async def _subscribe(self, name: str) -> _Feed:
        await self.cluster.initialize()  # where the slots are (once, or after a failure)
        node = self.cluster.get_node_from_key(name)
        if node is None:
            raise RedisError(f"no node serves {name}")
        feed = self._feeds.get(node.name)
        if feed is None:
            feed = self._feeds[node.name] = _Feed(node, self.timeout)
        feed.confirmed[name] = asyncio.Event()
        self._placed[name] = node.name
        try:
            await feed.pubsub.ssubscribe(name)
        except BaseException:  # the node is down: nothing placed, the next wait tries again
            self._placed.pop(name, None)
            feed.confirmed.pop(name, None)
            if feed.reader is None:
                self._feeds.pop(node.name, None)
                await feed.close()
            raise
        if feed.reader is None:  # one reader per connection, started once it has a subscription
            feed.reader = asyncio.create_task(self._read(feed))
        return feed

    async def _read(self, feed: _Feed) -> None:
        try:
            while True:
                message = await feed.pubsub.get_message(timeout=5)
                if not message:
                    continue
                name = message["channel"]
                if message["type"] == "ssubscribe" and name in feed.confirmed:
                    feed.confirmed[name].set()
                elif message["type"] == "smessage":
                    self.notify(game_of(name))
        except (*STORE_ERRORS, *CLOSED_UNDER) as error:
            logger.warning("move notifications from %s interrupted: %s", feed.node.name, error)
            self._drop(feed)
            await feed.close()
            with suppress(*STORE_ERRORS):
                await self.cluster.nodes_manager.initialize()  # where the games are now

    def _drop(self, feed: _Feed) -> None:
        """Forget a failed node's feed; wake its games' waiters (they read the store again)."""
        self._feeds.pop(feed.node.name, None)
        feed.reader = None  # the task that calls this: it closes the feed itself
        for name in feed.confirmed:
            self._placed.pop(name, None)
            self.notify(game_of(name))

    async def _release_idle(self) -> None:
        while self._placed or self._listeners or self._left:
            await asyncio.sleep(LINGER_SECONDS / 2)
            now = time.monotonic()
            for game_id, since in list(self._left.items()):
                if now - since < LINGER_SECONDS:
                    continue
                del self._left[game_id]
                name = channel(game_id)
                feed = self._feeds.get(self._placed.pop(name, ""))
                if feed is None:
                    continue
                async with self._subscribing:
                    feed.confirmed.pop(name, None)
                    with suppress(*STORE_ERRORS):
                        await feed.pubsub.sunsubscribe(name)
                    if not feed.confirmed:
                        self._feeds.pop(feed.node.name, None)
                        await feed.close()

    async def close(self) -> None:
        if self._janitor is not None:
            self._janitor.cancel()
            with suppress(asyncio.CancelledError):
                await self._janitor
        for feed in list(self._feeds.values()):
            await feed.close()
        self._feeds.clear()
        self._placed.clear()
