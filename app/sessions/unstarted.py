"""The games nobody has moved in yet, by who holds them, for the memory store's pool of them.

When the pool is full, a new game takes the place of the oldest such game of the holder (a
client's network, or the client: ``store.holder_of``) that holds the most of them — of those,
the one that has held that many the longest — if that holds more than the newcomer's holder does
(``Unstarted.victim``). A crowd holding the pool gives way to anyone holding less, so a newcomer
holding none is never refused while the pool holds a game nobody moved in; nobody gives way to
a holder that would then hold more than it is left with; and a crowd of more holders than
places turns the pool over oldest first, so that a game whose first move comes before the pool
has turned over is never lost. The holder of the most is kept in O(1) as counts change by one.
"""

from __future__ import annotations

from collections import OrderedDict


class Unstarted:
    """Game ids by holder, oldest first, and each count's holders (to find the most)."""

    def __init__(self) -> None:
        self._games: dict[str, OrderedDict[str, None]] = {}
        self._holding: dict[int, dict[str, None]] = {}  # count -> holders of that many
        self._most = 0

    def held_by(self, holder: str) -> int:
        games = self._games.get(holder)
        return 0 if games is None else len(games)

    def add(self, holder: str, game_id: str) -> None:
        games = self._games.setdefault(holder, OrderedDict())
        games[game_id] = None
        self._recount(holder, len(games) - 1, len(games))

    def remove(self, holder: str, game_id: str) -> None:
        """The game leaves the pool (moved in, or gone); nothing if it was not in it."""
        games = self._games.get(holder)
        if games is None or game_id not in games:
            return
        del games[game_id]
        self._recount(holder, len(games) + 1, len(games))
        if not games:
            del self._games[holder]

    def victim(self, newcomer: str) -> str | None:
        """The game that gives its place to a new game of the holder ``newcomer``: the oldest
        of the holder of the most (of those, the first to hold that many), if that holds more
        than ``newcomer``; else None."""
        if self._most <= self.held_by(newcomer):
            return None
        holder = next(iter(self._holding[self._most]))
        return next(iter(self._games[holder]))

    def _recount(self, holder: str, was: int, now: int) -> None:
        if was:
            holders = self._holding[was]
            del holders[holder]
            if not holders:
                del self._holding[was]
        if now:
            self._holding.setdefault(now, {})[holder] = None
        # Counts change by one: the most rises to ``now``, or falls by one at most.
        self._most = max(self._most, now)
        if self._most and self._most not in self._holding:
            self._most -= 1
