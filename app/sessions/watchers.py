"""Waiters for a game's next change, shared by the stores: one event per watched game.

A push stream waits here between reads of the store; whoever learns of a change (the memory
store when it applies a move, the Redis store's pub/sub listener when any process did) calls
``notify`` and every waiter of that game wakes up and reads the store again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from contextlib import suppress
from typing import Any, TypeVar, cast

T = TypeVar("T")


# Games whose count of changes a process remembers (for ``SharedReads`` keys); the least
# recently changed are forgotten first.
MAX_COUNTED_GAMES = 100_000


class Watchers:
    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}  # game id -> set at its next change
        self._changes: OrderedDict[str, int] = OrderedDict()  # game id -> changes heard of

    def notify(self, game_id: str) -> None:
        self._changes[game_id] = self._changes.pop(game_id, 0) + 1
        if len(self._changes) > MAX_COUNTED_GAMES:
            self._changes.popitem(last=False)
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    def notify_all(self) -> None:
        """Wake every waiter (changes may have been missed: each reads its game again)."""
        for game_id in list(self._events):
            self.notify(game_id)

    def changes(self, game_id: str) -> int:
        """How many changes of the game this process has heard of: part of the key of a shared
        read, so that a reader woken by a change never joins a read sent before it."""
        return self._changes.get(game_id, 0)

    def watch(self, game_id: str) -> asyncio.Event:
        """The event set at the game's next change; take it before reading the game, so that a
        change between the read and the wait is not missed."""
        return self._events.setdefault(game_id, asyncio.Event())

    async def wait(self, game_id: str, timeout: float) -> None:
        """Until the game's next ``notify``, or ``timeout`` seconds."""
        await until(self.watch(game_id), timeout)


async def until(event: asyncio.Event, timeout: float) -> None:
    with suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)


class SharedReads:
    """Identical reads in flight at once share one: when a move wakes a thousand streams of a
    game, the store is read once, not a thousand times. Holds only the reads in flight."""

    def __init__(self) -> None:
        self._flights: dict[Hashable, asyncio.Future[object]] = {}

    async def read(self, key: Hashable, fetch: Callable[[], Awaitable[T]]) -> T:
        flight = self._flights.get(key)
        if flight is None:
            task: asyncio.Future[T] = asyncio.ensure_future(fetch())
            task.add_done_callback(lambda done: self._landed(key, done))
            self._flights[key] = flight = cast("asyncio.Future[object]", task)
        # Shielded: a reader that goes away does not cancel the read the others wait for.
        return cast(T, await asyncio.shield(flight))

    def _landed(self, key: Hashable, flight: asyncio.Future[Any]) -> None:
        self._flights.pop(key, None)
        if not flight.cancelled():
            flight.exception()  # retrieved: a failure nobody waited for is not logged as lost
