"""How many event streams this process holds open, in all and per game, and the bound on both.

Each open stream holds a connection, a task and a subscription to its game's changes; a client
could open them without end. ``StreamSlots.take`` admits a stream or refuses it (503
``too_many_streams`` with ``Retry-After``); the slot is given back when the stream ends, however
it ends: when its response is done with (``weakref.finalize``), even if the stream never started.
"""

from __future__ import annotations

import weakref
from collections import Counter

from app.sessions.errors import TooManyStreams

RETRY_AFTER_SECONDS = 5  # streams end and reconnect often: a short wait is worth a retry


class StreamSlots:
    def __init__(self, per_process: int, per_game: int) -> None:
        self.per_process = per_process
        self.per_game = per_game
        self.open = 0
        self._by_game: Counter[str] = Counter()

    def take(self, game_id: str, holder: object) -> None:
        """A slot for a stream of ``game_id``, given back once ``holder`` is gone."""
        if self.open >= self.per_process:
            raise TooManyStreams("this process", self.per_process, RETRY_AFTER_SECONDS)
        if self._by_game[game_id] >= self.per_game:
            raise TooManyStreams("this game", self.per_game, RETRY_AFTER_SECONDS)
        self.open += 1
        self._by_game[game_id] += 1
        weakref.finalize(holder, self._give_back, game_id)

    def _give_back(self, game_id: str) -> None:
        self.open -= 1
        self._by_game[game_id] -= 1
        if not self._by_game[game_id]:
            del self._by_game[game_id]

    def streams_of(self, game_id: str) -> int:
        return self._by_game[game_id]
