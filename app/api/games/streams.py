"""How many event streams this process holds open, in all, per game and per client address, and
the bound on each, shared fairly.

Each open stream holds a connection, a task and a wait on its game's changes; a client could open
them without end. ``StreamSlots.take`` admits a stream or refuses it (503 ``too_many_streams`` with
``Retry-After``). At a client's own bound, it is refused, and at its network's (the clients of an
IPv4 /24, an IPv6 /48 together: ``network_factor`` times a client's). At the process's bound, or at
a game's, a newcomer takes the place of the oldest stream of the client that holds the most of
those places, if that client holds at least two more than the newcomer's would then: no client
keeps more than its fair share of a full process, or of a watched game, from another (ten addresses
of a hundred streams each hold the process's thousand places only until an eleventh comes). The
stream that gives its place ends with an ``error`` event; a client that reconnects is refused while
it holds its share. A client makes room at most ``EVICTIONS_BURST`` times in a row and once every
``RETRY_AFTER_SECONDS`` after that (one stream opened and closed again and again cannot end
everyone else's), and ``check`` lets a route refuse before it reads the game and evict only after:
a stream of an unknown game (404) ends no one's.

A slot is given back when the stream's events end, however they end, and at the latest when its
response is gone (``held_until_gone``), even if it never started.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable

from starlette.exceptions import HTTPException

from app.api.ratelimit import RateLimiter
from app.sessions.errors import TooManyStreams
from app.sessions.store import network_bound, network_of
from app.settings import DEFAULT_TRACKED_CLIENTS

RETRY_AFTER_SECONDS = 5  # streams end and reconnect often: a short wait is worth a retry
EVICTIONS_BURST = 2  # places a client may take from others in a row, then one per retry wait


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
    def __init__(
        self,
        per_process: int,
        per_game: int,
        per_client: int,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = DEFAULT_TRACKED_CLIENTS,
        network_factor: float = 1.0,
    ) -> None:
        self.per_process = per_process
        self.per_game = per_game
        self.per_client = per_client
        self.per_network = network_bound(per_client, network_factor)
        self.open = 0
        self._by_client: dict[str, Slots] = {}
        self._by_network: dict[str, int] = {}  # the streams of each network's clients
        self._by_game: dict[str, Slots] = {}
        self._evictions = RateLimiter(
            60 / RETRY_AFTER_SECONDS, EVICTIONS_BURST, clock, max_clients, "streams ended",
            network_factor,
        )  # fmt: skip

    def check(self, game_id: str, client: str) -> None:
        """Raise TooManyStreams if ``take`` would refuse now; take and end nothing."""
        self._room_for(game_id, client)

    def take(self, game_id: str, client: str) -> Slot:
        """A slot for a stream of ``game_id`` opened by the client address ``client``, or
        TooManyStreams; another client's stream may give its place (see the module's docs)."""
        evicted = self._room_for(game_id, client)
        if evicted:
            self._evictions.spend(client, 1)
        for stream in evicted:
            stream.evicted.set()
            stream.give_back()  # its place is the newcomer's now; it ends at its next step
        slot = Slot(self, game_id, client)
        self.open += 1
        self._by_client.setdefault(client, Slots())[slot] = None
        network = network_of(client)
        if network is not None:
            self._by_network[network] = self._by_network.get(network, 0) + 1
        self._by_game.setdefault(game_id, Slots())[slot] = None
        return slot

    def _room_for(self, game_id: str, client: str) -> list[Slot]:
        """The streams that must give their place for ``client``'s new stream of ``game_id``
        (none, one, or one for the game and one for the process), or TooManyStreams, also when
        the client has made room too often of late."""
        mine = self._by_client.get(client, Slots())
        if len(mine) >= self.per_client:
            raise TooManyStreams("this client address", self.per_client, RETRY_AFTER_SECONDS)
        network = network_of(client)
        if network is not None and self._by_network.get(network, 0) >= self.per_network:
            raise TooManyStreams("this client's network", self.per_network, RETRY_AFTER_SECONDS)
        evicted: list[Slot] = []
        where, limit = "this game", self.per_game
        of_game = self._by_game.get(game_id, Slots())
        if len(of_game) >= limit:
            evicted.append(self._oldest_of_most(of_game, client, where, limit))
        if self.open - len(evicted) >= self.per_process:
            where, limit = "this process", self.per_process
            everyone = Slots.fromkeys(
                slot for slots in self._by_client.values() for slot in slots
                if slot not in evicted
            )  # fmt: skip
            evicted.append(self._oldest_of_most(everyone, client, where, limit))
        if evicted:
            try:
                self._evictions.admit(client, least=1)
            except HTTPException:
                raise TooManyStreams(where, limit, RETRY_AFTER_SECONDS) from None
        return evicted

    def _oldest_of_most(self, places: Slots, newcomer: str, where: str, limit: int) -> Slot:
        """The oldest of ``places`` held by the client holding the most of them, if it holds at
        least two more than ``newcomer`` would; else TooManyStreams."""
        held: dict[str, list[Slot]] = {}
        for slot in places:
            held.setdefault(slot.client, []).append(slot)
        biggest = max(held, key=lambda client: len(held[client]))
        if len(held[biggest]) < len(held.get(newcomer, ())) + 2:
            raise TooManyStreams(where, limit, RETRY_AFTER_SECONDS)
        return held[biggest][0]

    def given_back(self, slot: Slot) -> None:
        self.open -= 1
        network = network_of(slot.client)
        if network is not None:
            left = self._by_network[network] - 1
            if left:
                self._by_network[network] = left
            else:
                del self._by_network[network]
        for index, key in ((self._by_client, slot.client), (self._by_game, slot.game_id)):
            slots = index[key]
            del slots[slot]
            if not slots:
                del index[key]
