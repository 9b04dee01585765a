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

Metering every request costs nanoseconds, not microseconds: ``admit`` of a client that is not in
debt is a lookup in the table of those in debt (``_debtors``: each bucket that went below zero,
with when it is back), and ``spend`` of a small cost adds it to what the client owes
(``_owed``), charged to its buckets once it reaches ``SETTLED_SHARE`` of a burst, or as soon as
anything else reads them. A client can so pass its share by at most that much before it is
refused (a hundredth of a burst: 20 ms of the default 2 s).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.exceptions import HTTPException

from app.sessions.store import network_of
from app.settings import DEFAULT_TRACKED_CLIENTS

# What a client may owe uncharged (``spend``), as a share of its burst.
SETTLED_SHARE = 0.01


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
        # The buckets below zero (clients' and networks'): when each is back at zero.
        self._debtors: dict[str, float] = {}
        # What clients owe and is not yet charged to their buckets (``spend``), and up to how
        # much they may.
        self._owed: dict[str, float] = {}
        self._settled_at = self.burst * SETTLED_SHARE
        self.enabled = self.rate > 0  # read a request or more: an attribute, not a property

    def _bucket(self, key: str, scale: float, now: float) -> float:
        """The tokens of ``key``'s bucket at ``now`` (refilled since it was last seen; taken
        out of the table until ``_keep``); ``scale``: its size and rate, in a client's."""
        burst = self.burst * scale
        tokens, then = self._buckets.pop(key, (burst, now))
        return min(burst, tokens + (now - then) * self.rate * scale)

    def _read(self, client: str) -> tuple[float, str | None, float, float]:
        """The tokens of ``client``'s bucket, its network (or None), the network's tokens
        (infinite for none) and now — what it owes charged (``spend``)."""
        now = self.clock()
        owed = self._owed.pop(client, 0.0) if self._owed else 0.0
        mine = max(-self.burst, self._bucket(client, 1.0, now) - owed)
        network = network_of(client)
        if network is None:
            return mine, None, math.inf, now
        ours = self._bucket(network, self.network_factor, now) - owed
        return mine, network, max(-self.burst * self.network_factor, ours), now

    def _keep(self, client: str, mine: float, network: str | None, ours: float, now: float) -> None:
        """Put the buckets back (the most recently seen last) with these tokens, and note
        those below zero, with when they are back (``_debtors``)."""
        self._buckets[client] = (mine, now)
        self._note(client, mine, now, self.rate)
        if network is not None:
            self._buckets[network] = (ours, now)
            self._note(network, ours, now, self.rate * self.network_factor)
        while len(self._buckets) > self.max_clients:
            dropped, _ = self._buckets.popitem(last=False)
            self._debtors.pop(dropped, None)

    def _note(self, key: str, tokens: float, now: float, rate: float) -> None:
        if tokens < 0:
            self._debtors[key] = now - tokens / rate
        elif self._debtors:
            self._debtors.pop(key, None)

    def _in_debt(self, client: str) -> bool:
        """Whether ``client`` or its network may be in debt (a bucket of theirs went below zero
        and may not be back yet): only then is ``admit`` more than a lookup."""
        debtors = self._debtors
        if client in debtors:
            return True
        network = network_of(client)
        return network is not None and network in debtors

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
        if not self.enabled or (least <= 0 and not (self._debtors and self._in_debt(client))):
            return  # not in debt, as far as what it was charged says: nothing to read
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
        burst deep), which the next ``admit`` refuses until it is paid back. A cost is owed
        (``_owed``) until the client owes ``SETTLED_SHARE`` of a burst: then it is charged."""
        if not self.enabled:
            return
        owed = self._owed
        owing = owed.get(client, 0.0) + cost
        if owing < self._settled_at:
            if client not in owed and len(owed) >= self.max_clients:
                self._settle()  # the table of what is owed is bounded as the buckets are
            owed[client] = owing
            return
        mine, network, ours, now = self._read(client)  # what it owed, with ``cost``, charged
        deepest = -self.burst * self.network_factor
        self._keep(client, max(-self.burst, mine - cost), network, max(deepest, ours - cost), now)

    def _settle(self) -> None:
        """Charge every client what it owes."""
        for client in list(self._owed):
            mine, network, ours, now = self._read(client)
            self._keep(client, mine, network, ours, now)
