"""The CPU time the service spends on one client's requests: measured, charged, and shared out.

Parsing a body, answering a stateless question, auditing a record, writing a game's record,
listing a game's legal moves: work a client chooses the size of (a board of 10,000 cells, a
batch of a thousand, a record of ten thousand moves, a hostile megabyte). ``WorkBudget`` gives
each client (``clients.client_of``) a share of this process's time for that work —
``client_cpu_ms_per_minute``, with bursts of ``client_cpu_burst_ms`` — measured while the work
runs, and charged as it is done (``RateLimiter.spend``: small charges a few at once). The work is
a stretch of the event loop's thread that awaits nothing, so it is measured by the performance
counter: the loop's CPU time for it, and any time the system lent its core to another process
meanwhile (the loop served nobody else either). The thread's own CPU clock is a system call that
costs a microsecond a reading, more than the rest of the metering of a request. A client that has
used its share is refused 429 ``rate_limited`` before its next body is read, until the share has
refilled; work whose cost is known before it starts (a record's moves, reckoned at
``record_move_cpu_us`` each: ``Meter.afford``) is refused before it starts if the client has not
that much left.

Long work is done in slices (``in_slices``: work written as ``Steps``, one step a move or an
item; ``answered_in_slices``: a batch) of at most ``SLICE_SECONDS``, the event loop serving other
requests between them, so one request never holds the loop for long. A route that awaits the
store between pieces of work is charged for its own steps only (``metered``, ``charged``): the
time other requests take while it waits is theirs.

And a client's requests take turns (``Meter.turn``): a body is parsed, and a slice done, in the
client's turn, one at a time and one a round of the event loop, first come first served. A
client that sends 64 batches at once does not have 64 bodies parsed, or 64 slices answered, in
one go while everyone else waits: its work is spread out, others' runs in between, and a
request whose turn comes once the client has used its share is refused (429) unparsed.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterable
from types import TracebackType
from typing import Any, Generic, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from app.api.clients import client_of
from app.api.ratelimit import RateLimiter
from app.records.steps import Steps
from app.settings import DEFAULT_RECORD_MOVE_CPU_US, DEFAULT_TRACKED_CLIENTS

T = TypeVar("T")
R = TypeVar("R")

# Longest stretch of a batch answered without letting other requests run.
SLICE_SECONDS = 0.001


class Meter:
    """Charges a client the CPU time spent inside ``with`` blocks (one or several, one inside
    another: the outermost measures); ``async with meter.turn()`` waits for the client's turn."""

    __slots__ = ("_budget", "_client", "_depth", "_started")

    def __init__(self, budget: WorkBudget, client: str) -> None:
        self._budget, self._client, self._started, self._depth = budget, client, 0.0, 0

    def admit(self) -> None:
        """429 now if the client has used its share (by work done since this meter was made:
        what its other requests did while this one waited for its body)."""
        self._budget.limiter.admit(self._client)

    def afford(self, moves: int) -> None:
        """429 now unless the client has left what ``moves`` moves of a record are reckoned to
        cost (``record_move_cpu_us`` each; at most its burst: a record that costs more is
        started with a full share, and stopped between two slices once that is spent)."""
        budget = self._budget
        least = min(moves * budget.move_seconds, budget.limiter.burst)
        budget.limiter.admit(self._client, least)

    async def in_thread(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker thread (work that would hold the event loop for
        seconds), the thread's CPU time charged to the client as the loop's is."""
        clock = self._budget.thread_clock
        spent = 0.0

        def measured() -> T:
            nonlocal spent
            started = clock()
            try:
                return work(*args)
            finally:
                spent = clock() - started

        try:
            return await asyncio.to_thread(measured)
        finally:
            self._budget.limiter.spend(self._client, spent)

    def turn(self) -> Turn:
        """The client's turn, to take with ``async with`` around a stretch of its work."""
        return Turn(self._budget.turns, self._client)

    def __enter__(self) -> Meter:
        if not self._depth:
            self._started = self._budget.cpu_clock()
        self._depth += 1
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._depth -= 1
        if not self._depth:
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
        cpu_clock: Callable[[], float] = time.perf_counter,
        max_clients: int = DEFAULT_TRACKED_CLIENTS,
        record_move_us: float = DEFAULT_RECORD_MOVE_CPU_US,
        network_factor: float = 1.0,
    ) -> None:
        self.move_seconds = record_move_us / 1e6  # what a record's move is reckoned to cost
        self.limiter = RateLimiter(
            ms_per_minute / 1000, burst_ms / 1000, max_clients=max_clients,
            what="requests' work (CPU time)", network_factor=network_factor,
        )  # fmt: skip
        # A budget that is off (0 ms a minute) charges nothing: it reads no clock.
        self.cpu_clock = cpu_clock if self.limiter.enabled else _no_time
        # A worker thread's work (``Meter.in_thread``): that thread's own CPU time, which its
        # waits for the interpreter's lock do not count.
        self.thread_clock = time.thread_time if self.limiter.enabled else _no_time
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


async def in_slices(steps: Steps[R], meter: Meter) -> R:
    """What ``steps`` returns, its steps run a slice of at most ``SLICE_SECONDS`` at a time, the
    event loop serving other requests between slices; the time spent is charged to ``meter``,
    and the client is refused 429 between two slices once it has used its share (by this
    request or by others of its own answered meanwhile: many requests at once cannot pass it by
    more than a slice each)."""
    first = True
    while True:
        async with meter.turn():  # each slice in the client's turn (``Meter.turn``)
            if not first:
                meter.admit()
            first = False
            with meter:
                ends = time.perf_counter() + SLICE_SECONDS
                try:
                    while True:
                        next(steps)
                        if time.perf_counter() >= ends:
                            break
                except StopIteration as done:
                    result: R = done.value
                    return result
        await asyncio.sleep(0)  # the client's other requests, ready now, queue for a turn first


async def answered_in_slices(items: Iterable[T], answer: Callable[[T], R], meter: Meter) -> list[R]:
    """``answer`` of each item, in order, in slices (``in_slices``: an item a step)."""

    def answering() -> Steps[list[R]]:
        results: list[R] = []
        for item in items:
            results.append(answer(item))
            yield
        return results

    return await in_slices(answering(), meter)


class _Metered(Generic[R]):
    """``work`` awaited with each of its own steps (from one suspension to the next) measured
    by ``meter``: what runs while it waits (other requests) is not its."""

    __slots__ = ("_meter", "_work")

    def __init__(self, work: Coroutine[Any, Any, R], meter: Meter) -> None:
        self._work, self._meter = work, meter

    def __await__(self) -> Generator[Any, Any, R]:
        work, meter = self._work, self._meter
        sent: Any = None
        thrown: BaseException | None = None
        while True:
            with meter:
                try:
                    awaited = work.send(sent) if thrown is None else work.throw(thrown)
                except StopIteration as done:
                    result: R = done.value
                    return result
            try:
                sent, thrown = (yield awaited), None
            except GeneratorExit:
                work.close()
                raise
            except BaseException as error:  # a cancellation: the work's to handle
                sent, thrown = None, error


def metered(work: Coroutine[Any, Any, R], meter: Meter) -> Awaitable[R]:
    """``work``, its CPU time charged to ``meter``: its own steps only, not the time other
    requests take while it awaits the store."""
    return _Metered(work, meter)


def charged(
    endpoint: Callable[[Request, Meter], Coroutine[Any, Any, Response]],
) -> Callable[[Request], Coroutine[Any, Any, Response]]:
    """A route's endpoint whose CPU time, all of it, is charged to its client (``metered``):
    429 before anything is read if the client has used its share. ``endpoint`` is given the
    meter, for work it does in slices (``in_slices``) or refuses by its reckoned cost
    (``Meter.afford``)."""

    async def charged_endpoint(request: Request) -> Response:
        meter = meter_of(request)
        return await metered(endpoint(request, meter), meter)

    charged_endpoint.__name__ = endpoint.__name__  # the operation's id derives from it
    charged_endpoint.__qualname__ = endpoint.__qualname__
    charged_endpoint.__doc__ = endpoint.__doc__
    return charged_endpoint
