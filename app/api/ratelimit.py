"""Per-client token buckets: for game creation (the one request that costs the store memory)
and for batch work (the requests that cost the most CPU).

Each client address may spend ``rate_per_minute`` tokens a minute, with bursts of ``burst``: a
game created costs one, a batch one per item. Beyond that it gets 429 ``rate_limited`` with
``Retry-After``. The buckets live in this process (with several processes, each applies the
limit on its own) and at most ``max_clients`` of them are kept, the least recently seen dropped
first, so the table itself cannot be grown without bound.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request


class RateLimiter:
    def __init__(
        self,
        rate_per_minute: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 100_000,
        what: str = "games created",
    ) -> None:
        self.rate = rate_per_minute / 60.0
        self.burst = float(burst)
        self.what = what
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def take(self, client: str, cost: float = 1) -> None:
        """Spend ``cost`` tokens of ``client``'s bucket, or raise 429 with the wait in
        Retry-After (and spend nothing). A cost of 0 only checks that the bucket is not empty."""
        if self.rate <= 0:
            return  # limit disabled
        now = self.clock()
        tokens, then = self._buckets.pop(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        needed = max(cost, 1)
        if tokens < needed:
            self._buckets[client] = (tokens, now)
            wait = math.ceil((needed - tokens) / self.rate)
            raise HTTPException(
                429,
                f"too many {self.what} from this address; retry in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        self._buckets[client] = (tokens - cost, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)


def client_of(request: Request) -> str:
    """The address a limit is kept for."""
    return request.client.host if request.client else "unknown"
