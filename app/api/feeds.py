"""Event streams read from the archive's database: a tournament's, a player's.

Their events are rows numbered one by one (``id``: the number, a reconnect's ``Last-Event-ID``
resumes after it), written by whichever process made the change. A stream reads the rows after
the last it sent, a page at a time; when none are new it waits ``EVENTS_POLL_SECONDS`` (a
keep-alive comment after ``event_keep_alive_seconds`` without an event, as a game's stream) — or
less: a change this process made wakes it at once (``Watchers``,
as a game's streams are woken), so only another process's change waits for the next read. It
holds its place among the process's streams (``StreamSlots``, as a game's stream does) until it
ends, and ends when the server stops (the client reconnects with ``Last-Event-ID``).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import Request, Response
from fastapi.sse import format_sse_event
from starlette.responses import StreamingResponse

from app.api.games.events import STOPPING
from app.api.games.streams import Slot
from app.contract.events import RECONNECT_MS
from app.sessions.watchers import Watchers, until

# How often a stream reads its events when nothing in this process told it of one, and how many
# at a time.
EVENTS_POLL_SECONDS = 0.5
EVENTS_PAGE = 100
# The largest number an event can have: its row's ``seq`` is an INTEGER (``tables``). A resume
# point past it (a Last-Event-ID may be up to 2**53 - 1, as a game's) reads from it: PostgreSQL
# refused the larger number as a query's argument, and the stream broke with a traceback.
LAST_EVENT_NUMBER = 2**31 - 1

Page = list[tuple[int, str, str]]  # (number, event, data)


def feed(
    request: Request,
    slot: Slot,
    read: Callable[[int, int], Awaitable[Page]],
    after: int,
    *,
    last: str | None = None,
    watchers: Watchers | None = None,
    watched: str = "",
) -> Response:
    """The stream of the events ``read(after, limit)`` pages, from after ``after``, ending after
    an event named ``last``; ``watchers`` wake it at a ``notify`` of ``watched``."""

    keep_alive: float = request.app.state.settings.event_keep_alive_seconds

    async def events() -> AsyncIterator[bytes]:
        seen = min(after, LAST_EVENT_NUMBER)
        stopping = request.app.state.stopping
        yield format_sse_event(retry=RECONNECT_MS)
        spoke = time.monotonic()
        while not await request.is_disconnected():
            if stopping.is_set():
                yield format_sse_event(comment=STOPPING)
                return
            changed = watchers.watch(watched) if watchers is not None else None
            page = await read(seen, EVENTS_PAGE)
            for seq, name, data in page:
                seen, spoke = seq, time.monotonic()
                yield f"id: {seq}\nevent: {name}\ndata: {data}\n\n".encode()
                if name == last:
                    return
            if not page:
                if time.monotonic() - spoke >= keep_alive:
                    yield format_sse_event(comment="keep-alive")
                    spoke = time.monotonic()
                if changed is None:
                    changed = stopping
                await until(changed, EVENTS_POLL_SECONDS)

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    response = StreamingResponse(
        slot.during(events()), media_type="text/event-stream", headers=headers
    )
    slot.held_until_gone(response)
    return response
