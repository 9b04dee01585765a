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
from typing import NamedTuple

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

    def _tokens(self, key: str, scale: float) -> tuple[float, float]:
        """The bucket's tokens now (refilled since it was last seen), and now; ``scale``: its
        size and rate, in a client's."""
        now = self.clock()
        burst = self.burst * scale
        tokens, then = self._buckets.pop(key, (burst, now))
        return min(burst, tokens + (now - then) * self.rate * scale), now

    def _keep(self, key: str, tokens: float, now: float) -> None:
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)

    def _read(self, client: str) -> list[Bucket]:
        """The buckets ``client`` spends from, read now: its own, and its network's."""
        tokens, now = self._tokens(client, 1.0)
        buckets = [Bucket(client, tokens, now, 1.0)]
        network = network_of(client)
        if network is not None:
            tokens, now = self._tokens(network, self.network_factor)
            buckets.append(Bucket(network, tokens, now, self.network_factor))
        return buckets

    def _refuse(self, buckets: list[Bucket], needed: float) -> HTTPException:
        """429 for the buckets that have less than ``needed`` (each kept as it was), with the
        longest wait among them."""
        for bucket in buckets:
            self._keep(bucket.key, bucket.tokens, bucket.now)
        short = [bucket for bucket in buckets if bucket.tokens < needed]
        wait = max(max(1, math.ceil((needed - b.tokens) / (self.rate * b.scale))) for b in short)
        whose = "this address" if buckets[0].tokens < needed else "this network"
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
        buckets = self._read(client)
        if any(bucket.tokens < cost for bucket in buckets):
            raise self._refuse(buckets, cost)
        for bucket in buckets:
            self._keep(bucket.key, bucket.tokens - cost, bucket.now)

    def admit(self, client: str, least: float = 0) -> None:
        """Raise 429 unless ``client`` (and its network) has at least ``least`` tokens (a cost
        it may yet spend; by default: it is not in debt); spend nothing."""
        if not self.enabled:
            return
        buckets = self._read(client)
        if any(bucket.tokens < least for bucket in buckets):
            raise self._refuse(buckets, least)
        for bucket in buckets:
            self._keep(bucket.key, bucket.tokens, bucket.now)

    def take_up_to(self, client: str, most: int, refuse: bool) -> int:
        """Spend as many whole tokens as ``client`` (and its network) has, up to ``most``, and
        answer how many; none left: 429 if ``refuse``, else 0."""
        if not self.enabled:
            return most
        buckets = self._read(client)
        granted = max(0, min(most, *(math.floor(bucket.tokens) for bucket in buckets)))
        if not granted and refuse:
            raise self._refuse(buckets, 1)
        for bucket in buckets:
            self._keep(bucket.key, bucket.tokens - granted, bucket.now)
        return granted

    def refund(self, client: str, cost: float) -> None:
        """Give back ``cost`` tokens taken for what turned out free (up to a full bucket)."""
        if not self.enabled:
            return
        for bucket in self._read(client):
            self._keep(bucket.key, min(self.burst * bucket.scale, bucket.tokens + cost), bucket.now)

    def spend(self, client: str, cost: float) -> None:
        """Spend ``cost`` tokens, whatever is left: the bucket may go into debt (at most a
        burst deep), which the next ``admit`` refuses until it is paid back."""
        if not self.enabled:
            return
        for bucket in self._read(client):
            floor = -self.burst * bucket.scale
            self._keep(bucket.key, max(floor, bucket.tokens - cost), bucket.now)


class Bucket(NamedTuple):
    """A bucket as read: whose (a client's or a network's key), its tokens, when, and its size
    and rate in a client's (1, or the network factor)."""

    key: str
    tokens: float
    now: float
    scale: float
