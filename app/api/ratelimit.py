"""A per-client token bucket, for game creation (the one request that costs the store memory).

Each client address may create ``rate_per_minute`` games a minute, with bursts of ``burst``;
beyond that it gets 429 ``rate_limited`` with ``Retry-After``. The buckets live in this process
(with several processes, each applies the limit on its own) and at most ``max_clients`` of them
are kept, the least recently seen dropped first, so the table itself cannot be grown without
bound.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.exceptions import HTTPException


class RateLimiter:
    def __init__(
        self,
        rate_per_minute: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 100_000,
    ) -> None:
        self.rate = rate_per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def take(self, client: str) -> None:
        """Spend one token of ``client``'s bucket, or raise 429 with the wait in Retry-After."""
        if self.rate <= 0:
            return  # limit disabled
        now = self.clock()
        tokens, then = self._buckets.pop(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            wait = math.ceil((1 - tokens) / self.rate)
            raise HTTPException(
                429,
                f"too many games created from this address; retry in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        self._buckets[client] = (tokens - 1, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
