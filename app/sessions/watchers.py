"""Waiters for a game's next change, shared by the stores: one event per watched game.

A push stream waits here between reads of the store; whoever learns of a change (the memory
store when it applies a move, the Redis store's pub/sub listener when any process did) calls
``notify`` and every waiter of that game wakes up and reads the store again.
"""

from __future__ import annotations

import asyncio
from contextlib import suppress


class Watchers:
    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}  # game id -> set at its next change

    def notify(self, game_id: str) -> None:
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    async def wait(self, game_id: str, timeout: float) -> None:
        """Until the game's next ``notify``, or ``timeout`` seconds."""
        event = self._events.setdefault(game_id, asyncio.Event())
        with suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
