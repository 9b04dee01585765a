"""Knowing that the server was told to stop, so that open event streams can end at once.

An event stream never ends by itself while its game goes on, and a server waits for open
responses before it exits: plain ``uvicorn app.main:app`` waited forever, and the ``adjudicator``
command cut streams mid-body at its grace deadline. While the app runs in a server's main thread,
``watching_for_stop`` chains a handler of its own before the server's SIGTERM and SIGINT
handlers: it sets ``stopping``, streams end with a last comment (clients reconnect elsewhere,
with ``Last-Event-ID``), and the server's handler runs as before.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGTERM, signal.SIGINT)


@contextmanager
def watching_for_stop(stopping: asyncio.Event) -> Iterator[None]:
    """Set ``stopping`` on SIGTERM or SIGINT while inside; a no-op off the main thread (tests
    driving the app in-process)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()
    previous = {sig: signal.getsignal(sig) for sig in SIGNALS}

    def handler(signum: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(stopping.set)
        chained = previous[signal.Signals(signum)]
        if callable(chained):
            chained(signum, frame)
        else:  # nobody else listened: what the signal would have done without us
            signal.signal(signum, chained)
            signal.raise_signal(signum)

    for sig in SIGNALS:
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, chained in previous.items():
            signal.signal(sig, chained)
