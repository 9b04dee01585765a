"""How many event streams this process holds open, in all, per game and per client address, and
the bound on each.

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

    def __init__(self, slots: StreamSlots, game_id: str, client: str) -> None:
        self._slots, self._game_id, self._client, self._held = slots, game_id, client, True

    def give_back(self) -> None:
        if self._held:
            self._held = False
            self._slots.given_back(self._game_id, self._client)

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
    def __init__(self, per_process: int, per_game: int, per_client: int) -> None:
        self.per_process = per_process
        self.per_game = per_game
        self.per_client = per_client
        self.open = 0
        self._by_game: Counter[str] = Counter()
        self._by_client: Counter[str] = Counter()

    def take(self, game_id: str, client: str) -> Slot:
        """A slot for a stream of ``game_id`` opened by the client address ``client``, or
        TooManyStreams."""
        if self.open >= self.per_process:
            raise TooManyStreams("this process", self.per_process, RETRY_AFTER_SECONDS)
        if self._by_game[game_id] >= self.per_game:
            raise TooManyStreams("this game", self.per_game, RETRY_AFTER_SECONDS)
        if self._by_client[client] >= self.per_client:
            raise TooManyStreams("this client address", self.per_client, RETRY_AFTER_SECONDS)
        self.open += 1
        self._by_game[game_id] += 1
        self._by_client[client] += 1
        return Slot(self, game_id, client)

    def given_back(self, game_id: str, client: str) -> None:
        self.open -= 1
        for counts, key in ((self._by_game, game_id), (self._by_client, client)):
            counts[key] -= 1
            if not counts[key]:
                del counts[key]
