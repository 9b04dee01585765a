"""The CPU time the service spends on one client's requests: measured, charged, and shared out.

Parsing a body and answering a stateless question are the work a client chooses the size of: a
board of 10,000 cells, a batch of a thousand, a hostile megabyte. ``WorkBudget`` gives each
client (``clients.client_of``) a share of this process's time for that work —
``client_cpu_ms_per_minute``, with bursts of ``client_cpu_burst_ms`` — measured as the CPU time
of the event loop's thread while the work runs, and charged when it is done. A client that has
used its share is refused 429 ``rate_limited`` before its next body is read, until the share has
refilled.

A long batch is answered in slices (``answered_in_slices``) of at most ``SLICE_SECONDS``, the
event loop serving other requests between them, so one request never holds the loop for long.
And a client's requests take turns (``Meter.turn``): a body is parsed, and a slice answered, in
the client's turn, one at a time and one a round of the event loop, first come first served. A
client that sends 64 batches at once does not have 64 bodies parsed, or 64 slices answered, in
one go while everyone else waits: its work is spread out, others' runs in between, and a
request whose turn comes once the client has used its share is refused (429) unparsed.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import TypeVar

from starlette.requests import Request

from app.api.clients import client_of
from app.api.ratelimit import RateLimiter
from app.settings import DEFAULT_TRACKED_CLIENTS

T = TypeVar("T")
R = TypeVar("R")

# Longest stretch of a batch answered without letting other requests run.
SLICE_SECONDS = 0.001


class Meter:
    """Charges a client the CPU time spent inside ``with`` blocks (one or several); ``async
    with meter.turn()`` waits for the client's turn."""

    __slots__ = ("_budget", "_client", "_started")

    def __init__(self, budget: WorkBudget, client: str) -> None:
        self._budget, self._client, self._started = budget, client, 0.0

    def admit(self) -> None:
        """429 now if the client has used its share (by work done since this meter was made:
        what its other requests did while this one waited for its body)."""
        self._budget.limiter.admit(self._client)

    def turn(self) -> Turn:
        """The client's turn, to take with ``async with`` around a stretch of its work."""
        return Turn(self._budget.turns, self._client)

    def __enter__(self) -> Meter:
        self._started = self._budget.cpu_clock()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        spent = self._budget.cpu_clock() - self._started
        self._budget.limiter.spend(self._client, spent)


def _no_time() -> float:
    return 0.0


# Per client whose turn is taken: its requests waiting for the turn, in order.
Waiting = dict[str, deque[asyncio.Future[None]]]


class Turns:
    """Whose turn it is, per client: at most one stretch of a client's work at a time, its
    requests served first come first served, and a turn handed on only at the event loop's next
    round, so that other clients' requests run between two stretches of one client's work."""

    def __init__(self) -> None:
        self._waiting: Waiting = {}
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop they wait in

    async def take(self, client: str) -> Waiting:
        """Wait for ``client``'s turn; answers where to give it back (``give_back``)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (an app served again): no turn is taken in it
            self._waiting, self._loop = {}, loop
        turns = self._waiting
        waiting = turns.get(client)
        if waiting is None:
            turns[client] = deque()
            return turns
        given: asyncio.Future[None] = loop.create_future()
        waiting.append(given)
        try:
            await given
        except asyncio.CancelledError:
            if given.done() and not given.cancelled():
                self.give_back(turns, client)  # given, then cancelled: handed on
            elif given in waiting:
                waiting.remove(given)
            raise
        return turns

    @classmethod
    def give_back(cls, turns: Waiting, client: str) -> None:
        """Hand the turn on, at the loop's next round (work already waiting runs first)."""
        asyncio.get_running_loop().call_soon(cls._hand_on, turns, client)

    @staticmethod
    def _hand_on(turns: Waiting, client: str) -> None:
        waiting = turns[client]
        while waiting:
            given = waiting.popleft()
            if not given.done():  # not cancelled meanwhile
                given.set_result(None)
                return
        del turns[client]


class Turn:
    """``async with``: one of a client's turns (``Turns``)."""

    __slots__ = ("_client", "_taken", "_turns")

    def __init__(self, turns: Turns, client: str) -> None:
        self._turns, self._client = turns, client
        self._taken: Waiting = {}

    async def __aenter__(self) -> None:
        self._taken = await self._turns.take(self._client)

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._turns.give_back(self._taken, self._client)


class WorkBudget:
    """Each client's share of the CPU time spent on work it chose the size of."""

    def __init__(
        self,
        ms_per_minute: float,
        burst_ms: float,
        cpu_clock: Callable[[], float] = time.thread_time,
        max_clients: int = DEFAULT_TRACKED_CLIENTS,
    ) -> None:
        self.limiter = RateLimiter(
            ms_per_minute / 1000, burst_ms / 1000, max_clients=max_clients,
            what="requests' work (CPU time)",
        )  # fmt: skip
        # A budget that is off (0 ms a minute) charges nothing: it reads no clock.
        self.cpu_clock = cpu_clock if self.limiter.enabled else _no_time
        self.turns = Turns()

    def meter(self, request: Request) -> Meter:
        """A meter of the request's work; 429 now if its client has used its share."""
        client = client_of(request)
        self.limiter.admit(client)
        return Meter(self, client)


def meter_of(request: Request) -> Meter:
    """The meter of a request's work, from the app's budget (429 if its client is in debt)."""
    budget: WorkBudget = request.app.state.work_budget
    return budget.meter(request)


async def answered_in_slices(items: Iterable[T], answer: Callable[[T], R], meter: Meter) -> list[R]:
    """``answer`` of each item, in order, in slices of ``SLICE_SECONDS``, each in the client's
    turn (``Meter.turn``: the event loop serves other requests between two); the time spent is
    charged to ``meter``, and the client is refused 429 between two slices once it has used its
    share (by this request or by others of its own answered meanwhile: many batches at once
    cannot pass it by more than a slice each)."""
    results: list[R] = []
    pending = iter(items)
    first = True
    while True:
        async with meter.turn():
            if not first:
                meter.admit()
            first = False
            with meter:
                ends = time.perf_counter() + SLICE_SECONDS
                for item in pending:
                    results.append(answer(item))
                    if time.perf_counter() >= ends:
                        break
                else:
                    return results
        await asyncio.sleep(0)  # the client's other requests, ready now, queue for a turn first
