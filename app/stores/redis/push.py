"""The Redis store's push listener: wakes this process's waiters when a game they watch changes.

On one Redis, one subscription per process to every game's channel (``PSUBSCRIBE``); on a
cluster, ``ShardedListener``'s subscriptions on the nodes of the games watched. Reads that many
waiters would make at once (a game's version, its changes) are shared (``SharedReads``), on the
store's stream connections, so that no number of streams can take a connection a move needs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from contextlib import suppress
from typing import TypeVar

from redis.asyncio.cluster import RedisCluster

from app.sessions.watchers import SharedReads, Watchers, until
from app.stores.redis.cluster import (
    CLOSED_UNDER,
    STORE_ERRORS,
    Client,
    ShardedListener,
    close_pubsub,
)
from app.stores.redis.keys import CHANNELS, game_of

logger = logging.getLogger("app.sessions.redis")

T = TypeVar("T")


class PushListener:
    """``version_of`` reads a game's version (on the stream connections) for its waiters."""

    def __init__(
        self,
        client: Client,
        timeout_seconds: float,
        version_of: Callable[[str], Awaitable[int]],
    ) -> None:
        self.client = client
        self.version_of = version_of
        self._watchers = Watchers()
        self._shared = SharedReads()
        self._listener: asyncio.Task[None] | None = None
        self._sharded = (
            ShardedListener(client, self._watchers.notify, timeout_seconds)
            if isinstance(client, RedisCluster)
            else None
        )

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with suppress(asyncio.CancelledError):
                await self._listener
        if self._sharded is not None:
            await self._sharded.close()

    def heard(self, game_id: str) -> int:
        """How many changes of the game this process has heard of (a key for shared reads)."""
        return self._watchers.changes(game_id)

    async def shared(self, key: Hashable, fetch: Callable[[], Awaitable[T]]) -> T:
        """``fetch``'s answer, read once for every waiter that asks under the same key."""
        return await self._shared.read(key, fetch)

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        """Return once the game's version is past ``version``, or after ``timeout`` seconds."""
        if self._sharded is not None:
            await self._sharded.hold(game_id)  # subscribed before the read below
            try:
                await self._wait(game_id, version, timeout)
            finally:
                self._sharded.release(game_id)
            return
        if self._listener is None or self._listener.done():
            self._listener = asyncio.create_task(self._listen())
        await self._wait(game_id, version, timeout)

    async def _wait(self, game_id: str, version: int, timeout: float) -> None:
        changed = self._watchers.watch(game_id)  # before the read: no change falls between
        key = ("version", game_id, self.heard(game_id))
        read = self._shared.read(key, lambda: self.version_of(game_id))
        if await read > version:
            return
        await until(changed, timeout)

    async def _listen(self) -> None:
        """On one Redis: one subscription per process, to every game's channel; wakes local
        waiters.

        If it is lost (a killed connection, Redis restarting), it is made again at once (then
        every second while that fails), and every waiter then reads its game again, so that a
        change announced while nobody listened is not waited for: a push stream is late by the
        time the subscription takes to come back, never wrong.
        """
        pause = 0.1  # before subscribing again: at once, then a second while it keeps failing
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.psubscribe(CHANNELS)
                while True:
                    message = await pubsub.get_message(timeout=5)
                    kind = message and message.get("type")
                    if kind == "pmessage":
                        self._watchers.notify(game_of(message["channel"]))
                    elif kind == "psubscribe":  # subscribed (again): what was missed, read
                        self._watchers.notify_all()
                        pause = 0.1
            except (*STORE_ERRORS, *CLOSED_UNDER) as error:
                logger.warning("move notifications interrupted: %s", error)
                await asyncio.sleep(pause)
                pause = 1.0
            finally:
                await close_pubsub(pubsub)
