"""How many event streams this process holds open, in all and per game, and the bound on both.

Each open stream holds a connection, a task and a wait on its game's changes; a client could open
them without end. ``StreamSlots.take`` admits a stream or refuses it (503 ``too_many_streams``
with ``Retry-After``). The slot is given back when the stream's events end, however they end,
and at the latest when its response is gone (``held_until_gone``), even if it never started.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import AsyncIterator

from app.sessions.errors import TooManyStreams

RETRY_AFTER_SECONDS = 5  # streams end and reconnect often: a short wait is worth a retry


class Slot:
    """One admitted stream's place; giving it back twice gives it back once."""

    def __init__(self, slots: StreamSlots, game_id: str) -> None:
        self._slots, self._game_id, self._held = slots, game_id, True

    def give_back(self) -> None:
        if self._held:
            self._held = False
            self._slots.given_back(self._game_id)

    def held_until_gone(self, holder: object) -> None:
        weakref.finalize(holder, self.give_back)

    async def during(self, events: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        """``events``, giving the slot back when they end."""
        try:
            async for event in events:
                yield event
        finally:
            self.give_back()


class StreamSlots:
    def __init__(self, per_process: int, per_game: int) -> None:
        self.per_process = per_process
        self.per_game = per_game
        self.open = 0
        self._by_game: Counter[str] = Counter()

    def take(self, game_id: str) -> Slot:
        """A slot for a stream of ``game_id``, or TooManyStreams."""
        if self.open >= self.per_process:
            raise TooManyStreams("this process", self.per_process, RETRY_AFTER_SECONDS)
        if self._by_game[game_id] >= self.per_game:
            raise TooManyStreams("this game", self.per_game, RETRY_AFTER_SECONDS)
        self.open += 1
        self._by_game[game_id] += 1
        return Slot(self, game_id)

    def given_back(self, game_id: str) -> None:
        self.open -= 1
        self._by_game[game_id] -= 1
        if not self._by_game[game_id]:
            del self._by_game[game_id]
