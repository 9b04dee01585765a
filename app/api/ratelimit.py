"""Per-client token buckets.

Each client (``app.api.clients.client_of``: an address, an IPv6 address's /64 network) may
spend ``rate_per_minute`` tokens a minute, with bursts of ``burst``. ``take`` spends a cost all
at once or refuses (creating a game costs one token); ``admit`` and ``spend`` serve costs known
only afterwards (the CPU time a request took, ``app.api.work``): a client in debt is refused
before its work starts, and its work is charged when done, which may put it in debt. A refusal
is 429 ``rate_limited`` with ``Retry-After``. The buckets live in this process (with several
processes, each applies the limit on its own) and at most ``max_clients`` of them are kept, the
least recently seen dropped first, so the table itself cannot be grown without bound.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.exceptions import HTTPException

from app.settings import DEFAULT_TRACKED_CLIENTS


class RateLimiter:
    def __init__(
        self,
        rate_per_minute: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = DEFAULT_TRACKED_CLIENTS,
        what: str = "games created",
    ) -> None:
        self.rate = rate_per_minute / 60.0
        self.burst = float(burst)
        self.what = what
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def _tokens(self, client: str) -> tuple[float, float]:
        """The client's tokens now (refilled since it was last seen), and now."""
        now = self.clock()
        tokens, then = self._buckets.pop(client, (self.burst, now))
        return min(self.burst, tokens + (now - then) * self.rate), now

    def _keep(self, client: str, tokens: float, now: float) -> None:
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)

    def _refuse(self, client: str, tokens: float, now: float, needed: float) -> HTTPException:
        self._keep(client, tokens, now)
        wait = max(1, math.ceil((needed - tokens) / self.rate))
        return HTTPException(
            429,
            f"too many {self.what} from this address; retry in {wait} s",
            headers={"Retry-After": str(wait)},
        )

    def take(self, client: str, cost: float = 1) -> None:
        """Spend ``cost`` tokens of ``client``'s bucket, or raise 429 with the wait in
        Retry-After (and spend nothing)."""
        if not self.enabled:
            return
        tokens, now = self._tokens(client)
        if tokens < cost:
            raise self._refuse(client, tokens, now, cost)
        self._keep(client, tokens - cost, now)

    def admit(self, client: str, least: float = 0) -> None:
        """Raise 429 unless ``client`` has at least ``least`` tokens (a cost it may yet spend;
        by default: it is not in debt); spend nothing."""
        if not self.enabled:
            return
        tokens, now = self._tokens(client)
        if tokens < least:
            raise self._refuse(client, tokens, now, least)
        self._keep(client, tokens, now)

    def take_up_to(self, client: str, most: int, refuse: bool) -> int:
        """Spend as many whole tokens as ``client`` has, up to ``most``, and answer how many;
        none left: 429 if ``refuse``, else 0."""
        if not self.enabled:
            return most
        tokens, now = self._tokens(client)
        granted = max(0, min(most, math.floor(tokens)))
        if not granted and refuse:
            raise self._refuse(client, tokens, now, 1)
        self._keep(client, tokens - granted, now)
        return granted

    def refund(self, client: str, cost: float) -> None:
        """Give back ``cost`` tokens taken for what turned out free (up to a full bucket)."""
        if not self.enabled:
            return
        tokens, now = self._tokens(client)
        self._keep(client, min(self.burst, tokens + cost), now)

    def spend(self, client: str, cost: float) -> None:
        """Spend ``cost`` tokens, whatever is left: the bucket may go into debt (at most a
        burst deep), which the next ``admit`` refuses until it is paid back."""
        if not self.enabled:
            return
        tokens, now = self._tokens(client)
        self._keep(client, max(-self.burst, tokens - cost), now)
