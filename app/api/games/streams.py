"""How many event streams this process holds open, in all, per game and per client address, and
the bound on each, shared fairly.

Each open stream holds a connection, a task and a wait on its game's changes; a client could open
them without end. ``StreamSlots.take`` admits a stream or refuses it (503 ``too_many_streams`` with
``Retry-After``). At a client's own bound, it is refused. At the process's bound, or at a game's,
a newcomer takes the place of the oldest stream of the client that holds the most of those
places, if that client holds at least two more than the newcomer's would then: no client keeps
more than its fair share of a full process, or of a watched game, from another (ten addresses
of a hundred streams each hold the process's thousand places only until an eleventh comes). The
stream that gives its place ends with an ``error`` event; a client that reconnects is refused
while it holds its share.

A slot is given back when the stream's events end, however they end, and at the latest when its
response is gone (``held_until_gone``), even if it never started.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator

from app.sessions.errors import TooManyStreams

RETRY_AFTER_SECONDS = 5  # streams end and reconnect often: a short wait is worth a retry


class Slot:
    """One admitted stream's place; giving it back twice gives it back once. ``evicted`` is set
    when it must give its place to another client's stream."""

    def __init__(self, slots: StreamSlots, game_id: str, client: str) -> None:
        self._slots, self.game_id, self.client, self._held = slots, game_id, client, True
        self.evicted = asyncio.Event()

    def give_back(self) -> None:
        if self._held:
            self._held = False
            self._slots.given_back(self)

    def held_until_gone(self, holder: object) -> None:
        weakref.finalize(holder, self.give_back)

    async def during(self, events: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        """``events``, giving the slot back when they end."""
        try:
            async for event in events:
                yield event
        finally:
            self.give_back()


Slots = OrderedDict[Slot, None]  # oldest first


class StreamSlots:
    def __init__(self, per_process: int, per_game: int, per_client: int) -> None:
        self.per_process = per_process
        self.per_game = per_game
        self.per_client = per_client
        self.open = 0
        self._by_client: dict[str, Slots] = {}
        self._by_game: dict[str, Slots] = {}

    def take(self, game_id: str, client: str) -> Slot:
        """A slot for a stream of ``game_id`` opened by the client address ``client``, or
        TooManyStreams; another client's stream may give its place (see the module's docs)."""
        mine = self._by_client.get(client, Slots())
        if len(mine) >= self.per_client:
            raise TooManyStreams("this client address", self.per_client, RETRY_AFTER_SECONDS)
        of_game = self._by_game.get(game_id, Slots())
        if len(of_game) >= self.per_game:
            self._make_room(of_game, client, "this game", self.per_game)
        if self.open >= self.per_process:
            everyone = [slot for slots in self._by_client.values() for slot in slots]
            self._make_room(Slots.fromkeys(everyone), client, "this process", self.per_process)
        slot = Slot(self, game_id, client)
        self.open += 1
        self._by_client.setdefault(client, Slots())[slot] = None
        self._by_game.setdefault(game_id, Slots())[slot] = None
        return slot

    def _make_room(self, places: Slots, newcomer: str, where: str, limit: int) -> None:
        """Evict the oldest of ``places`` held by the client holding the most of them, if it
        holds at least two more than ``newcomer``; else refuse."""
        held: dict[str, list[Slot]] = {}
        for slot in places:
            held.setdefault(slot.client, []).append(slot)
        biggest = max(held, key=lambda client: len(held[client]))
        if len(held[biggest]) < len(held.get(newcomer, ())) + 2:
            raise TooManyStreams(where, limit, RETRY_AFTER_SECONDS)
        evicted = held[biggest][0]
        evicted.evicted.set()
        evicted.give_back()  # its place is the newcomer's now; the stream ends at its next step

    def given_back(self, slot: Slot) -> None:
        self.open -= 1
        for index, key in ((self._by_client, slot.client), (self._by_game, slot.game_id)):
            slots = index[key]
            del slots[slot]
            if not slots:
                del index[key]
