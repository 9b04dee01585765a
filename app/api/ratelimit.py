"""Per-client token buckets.

Each client (``app.api.clients.client_of``: an address, an IPv6 address's /64 network) may
spend ``rate_per_minute`` tokens a minute, with bursts of ``burst``; the clients of one network
(the client's ``network``: an IPv4 /24, an IPv6 /48) ``network_factor`` times that together,
from a bucket of their own: a spend takes from both, and is refused if either is short.
``take`` spends a cost all at once or refuses (creating a game costs one token); ``admit`` and
``spend`` serve costs known only afterwards (the CPU time a request took, ``app.api.work``): a
client in debt is refused before its work starts, and its work is charged when done, which may
put it in debt. A refusal is 429 ``rate_limited`` with ``Retry-After``. The buckets live in
this process (with several processes, each applies the limit on its own) and at most
``max_clients`` of them are kept (clients' and networks' alike), the least recently seen
dropped first, so the table itself cannot be grown without bound.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.exceptions import HTTPException

from app.sessions.store import network_of
from app.settings import DEFAULT_TRACKED_CLIENTS


class RateLimiter:
    def __init__(
        self,
        rate_per_minute: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = DEFAULT_TRACKED_CLIENTS,
        what: str = "games created",
        network_factor: float = 1.0,
    ) -> None:
        self.rate = rate_per_minute / 60.0
        self.burst = float(burst)
        self.what = what
        self.clock = clock
        self.max_clients = max_clients
        # A client's network: a bucket of its own, ``network_factor`` times as big and as fast.
        self.network_factor = network_factor
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def _bucket(self, key: str, scale: float, now: float) -> float:
        """The tokens of ``key``'s bucket at ``now`` (refilled since it was last seen; taken
        out of the table until ``_keep``); ``scale``: its size and rate, in a client's."""
        burst = self.burst * scale
        tokens, then = self._buckets.pop(key, (burst, now))
        return min(burst, tokens + (now - then) * self.rate * scale)

    def _read(self, client: str) -> tuple[float, str | None, float, float]:
        """The tokens of ``client``'s bucket, its network (or None), the network's tokens
        (infinite for none) and now."""
        now = self.clock()
        mine = self._bucket(client, 1.0, now)
        network = network_of(client)
        if network is None:
            return mine, None, math.inf, now
        return mine, network, self._bucket(network, self.network_factor, now), now

    def _keep(self, client: str, mine: float, network: str | None, ours: float, now: float) -> None:
        """Put the buckets back (the most recently seen last) with these tokens."""
        self._buckets[client] = (mine, now)
        if network is not None:
            self._buckets[network] = (ours, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)

    def _refuse(
        self, client: str, mine: float, network: str | None, ours: float, now: float,
        needed: float,
    ) -> HTTPException:  # fmt: skip
        """429 (the buckets kept as they were), with the wait until both hold ``needed``."""
        self._keep(client, mine, network, ours, now)
        wait = max(1, math.ceil((needed - mine) / self.rate))
        whose = "this address"
        if ours < needed:
            theirs = math.ceil((needed - ours) / (self.rate * self.network_factor))
            wait, whose = max(wait, theirs), "this address" if mine < needed else "this network"
        return HTTPException(
            429,
            f"too many {self.what} from {whose}; retry in {wait} s",
            headers={"Retry-After": str(wait)},
        )

    def take(self, client: str, cost: float = 1) -> None:
        """Spend ``cost`` tokens of ``client``'s bucket (and of its network's), or raise 429
        with the wait in Retry-After (and spend nothing)."""
        if not self.enabled:
            return
        mine, network, ours, now = self._read(client)
        if mine < cost or ours < cost:
            raise self._refuse(client, mine, network, ours, now, cost)
        self._keep(client, mine - cost, network, ours - cost, now)

    def admit(self, client: str, least: float = 0) -> None:
        """Raise 429 unless ``client`` (and its network) has at least ``least`` tokens (a cost
        it may yet spend; by default: it is not in debt); spend nothing."""
        if not self.enabled:
            return
        mine, network, ours, now = self._read(client)
        if mine < least or ours < least:
            raise self._refuse(client, mine, network, ours, now, least)
        self._keep(client, mine, network, ours, now)

    def take_up_to(self, client: str, most: int, refuse: bool) -> int:
        """Spend as many whole tokens as ``client`` (and its network) has, up to ``most``, and
        answer how many; none left: 429 if ``refuse``, else 0."""
        if not self.enabled:
            return most
        mine, network, ours, now = self._read(client)
        granted = max(0, int(min(most, math.floor(mine), ours)))
        if not granted and refuse:
            raise self._refuse(client, mine, network, ours, now, 1)
        self._keep(client, mine - granted, network, ours - granted, now)
        return granted

    def refund(self, client: str, cost: float) -> None:
        """Give back ``cost`` tokens taken for what turned out free (up to a full bucket)."""
        if not self.enabled:
            return
        mine, network, ours, now = self._read(client)
        full = self.burst * self.network_factor
        self._keep(client, min(self.burst, mine + cost), network, min(full, ours + cost), now)

    def spend(self, client: str, cost: float) -> None:
        """Spend ``cost`` tokens, whatever is left: the bucket may go into debt (at most a
        burst deep), which the next ``admit`` refuses until it is paid back."""
        if not self.enabled:
            return
        mine, network, ours, now = self._read(client)
        deepest = -self.burst * self.network_factor
        self._keep(client, max(-self.burst, mine - cost), network, max(deepest, ours - cost), now)
