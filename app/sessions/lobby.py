"""The lobby: open public games, oldest first, listed a page at a time by what a client looks for.

A game created open (``"open": true``) is listed from its creation until its free seat is taken
or it goes (deleted, expired); a game its opening ended is never listed. A listing may ask for
every open game, a kind's (``game``), or a kind's under one rule (``game`` and ``rule``, where
the kind has rules): each of these is an index of its own (``filters``), so a page costs what it
lists, never a scan of games that do not match. Pages follow the order of creation: each open
game gets the next number of the lobby (``Lobby.add``), and a page's cursor is the number of the
last game it holds.

``Lobby`` is the memory store's index; the Redis store keeps the same indexes as sorted sets
(``app.stores.redis.keys.lobby_index``, ``lua/lobby_*.lua``). Both read a listed game's state before
showing it, and drop from the index a game that is no longer open (taken, over or gone), so the
index may lag a change by one read but a page never shows a game that cannot be joined.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from typing import NamedTuple

DEFAULT_PAGE = 20  # open games a listing shows unless it asks for another number
MAX_PAGE = 100  # open games a listing shows at most (API.md: `limit` ≤ 100)
# Index entries a listing reads past at most, per game it shows (entries of games that stopped
# being open and were not yet dropped): a page costs O(limit) reads, whatever the index holds.
STALE_READS = 4

Filter = tuple[str, ...]  # (), (kind,) or (kind, rule)


def filters(kind: str, params: Mapping[str, object]) -> list[Filter]:
    """The indexes an open game of ``kind`` with these creation parameters is listed in."""
    found: list[Filter] = [(), (kind,)]
    rule = params.get("rule")
    if isinstance(rule, str):
        found.append((kind, rule))
    return found


def wanted(game: str | None, rule: str | None) -> Filter:
    """The index a listing asks for (``rule`` only with ``game``: checked by the edge)."""
    if game is None:
        return ()
    return (game,) if rule is None else (game, rule)


class OpenGamesPage(NamedTuple):
    """A page of the lobby: the games' ids in the order of creation, and the cursor after the
    last of them (None: nothing was left after it when it was read)."""

    ids: list[str]
    next_cursor: int | None


class Lobby:
    """The memory store's lobby indexes: for each filter, the open games' numbers in order, and
    each number's game. A game leaves them when it stops being open (``remove``); the numbers of
    removed games are dropped from every list once they outnumber the listed games (amortised
    O(1) a removal: the indexes hold at most about twice the games listed)."""

    def __init__(self) -> None:
        self._next = 0
        self._numbers: dict[Filter, list[int]] = {}
        self._games: dict[int, str] = {}  # a listed game's number -> its id
        self._listed: dict[str, int] = {}  # a listed game's id -> its number
        self._removed = 0  # numbers of removed games still in the indexes (at most each once)

    def __len__(self) -> int:
        return len(self._listed)

    def add(self, game_id: str, where: list[Filter]) -> None:
        self._next += 1
        self._games[self._next] = game_id
        self._listed[game_id] = self._next
        for key in where:
            self._numbers.setdefault(key, []).append(self._next)

    def remove(self, game_id: str) -> None:
        number = self._listed.pop(game_id, None)
        if number is None:
            return
        del self._games[number]
        self._removed += 1
        if self._removed > len(self._games) + 64:  # mostly removed: every index compacted
            for key, numbers in list(self._numbers.items()):
                kept = [n for n in numbers if n in self._games]
                if kept:
                    self._numbers[key] = kept
                else:
                    del self._numbers[key]
            self._removed = 0

    def page(self, key: Filter, after: int, limit: int) -> tuple[list[tuple[int, str]], bool]:
        """Up to ``limit`` listed games of the filter after the number ``after``, as (number,
        id), in order; and whether more may follow."""
        numbers = self._numbers.get(key, [])
        found: list[tuple[int, str]] = []
        at = bisect_right(numbers, after)
        while at < len(numbers) and len(found) < limit:
            game_id = self._games.get(numbers[at])
            if game_id is not None:
                found.append((numbers[at], game_id))
            at += 1
        return found, at < len(numbers)
