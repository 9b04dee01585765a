"""The HTTP/1.1 connection the service runs on: uvicorn's httptools protocol, with bounds.

uvicorn's fastest parser (httptools, llhttp) takes a request head of any size, holds a silent or
trickling connection forever and accepts connections until the process runs out of file
descriptors. ``BoundedHttpToolsProtocol`` keeps that parser and adds, from ``Settings``:

* **the request head** — URL at most ``max_url_bytes`` (else 414), at most ``max_headers``
  header fields and ``max_header_bytes`` bytes in all (else 431), read within
  ``header_timeout_seconds`` of the connection opening or of the request's first byte (else 408
  if anything came, or a silent close); an HTTP/1.1 request has exactly one ``Host`` field with
  a host in it, any request at most one (else 400), and no transfer coding but ``chunked``
  (else 501);
* **the body** — read within ``body_timeout_seconds`` of the head (else 408); a chunked body's
  framing is held to a head's bound, ``max_header_bytes``: its chunks count five bytes each
  (the least a chunk's size line and ending take) and its trailer fields their size, and a
  line still on its way (a chunk extension or a trailer field that never ends) its bytes so
  far, so that tiny chunks and endless extensions or trailer fields cost no more than a head
  (else 413 for the chunks, 431 for the trailer); trailer fields count against ``max_headers``
  too, and are dropped, never added to the request's headers;
* **keep-alive** — an idle connection is closed after ``keep_alive_seconds``;
* **the answer** — a client that reads nothing of its answer for ``send_timeout_seconds`` (the
  server's send buffer full all that time) is cut off;
* **pipelining** — at most ``max_pipelined_requests`` requests waiting behind the one being
  answered (beyond: those are answered, the rest is not read, and the connection is closed);
* **connections** — at most ``max_connections`` open at once (and never more than the open-files
  limit allows). A new connection over the bound takes the place of the connection that has
  waited longest without a request being answered (idle, or still sending its head); when every
  connection is busy, the newcomer's request is answered 503 ``too_many_connections``.

Refusals are ``application/problem+json`` from the one problem table, with ``Connection:
close``. Whatever closes a connection after an answer — a refusal here, or an answer of the app's
that says ``Connection: close`` (one given before the request's body was read: a client over its
share, a body over the bound) — closes it the same way, cheaply (``_linger``): nothing more of
the request is read or parsed; the write side is shut after the answer; at most ``UNREAD_KEPT``
bytes more are read and dropped (the rest of a request already on its way, so that a small one
closes cleanly), then reading stops, and the connection is closed when the client closes it or
after ``linger_seconds``. A client that is still sending then gets a reset, after the answer
(the reset does not destroy an answer that has arrived: a client reads it once its send fails),
rather than the server reading whatever it sends.

The bounds come from the settings of whoever starts the server, handed down, never read here:
the ``adjudicator`` command serves ``protocol_for(settings)`` with the settings it parsed, and
plain uvicorn takes ``--http app.main:protocol`` (``BOUNDED_PROTOCOL``), bound to the settings
``app.main:app`` is built with.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import resource
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import httptools
from uvicorn.config import Config
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import (
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)
from uvicorn.server import ServerState

from app.body_limit import UNREAD_KEPT
from app.contract.problems import (
    HEADERS_TOO_LARGE,
    MALFORMED_HTTP,
    PAYLOAD_TOO_LARGE,
    PROBLEM_MEDIA_TYPE,
    REQUEST_TIMEOUT,
    TOO_MANY_CONNECTIONS,
    TRANSFER_CODING_NOT_IMPLEMENTED,
    URL_TOO_LONG,
    ProblemType,
    problem_body,
)
from app.observability import SAFE_DEFAULTS
from app.settings import Settings

logger = logging.getLogger("app.server")


# Plain uvicorn's `--http` value that selects the protocol below, bound to the environment's
# settings (as `app.main:app` is).
BOUNDED_PROTOCOL = "app.main:protocol"

# Open files the process keeps for itself beyond client connections: the listening socket,
# store connections, logs, imports.
RESERVED_FILES = 256
# A Host field's value: a host name or an IPv4 address (RFC 3986 reg-name), or an IP literal in
# brackets, and an optional port; empty is allowed (a target without an authority).
HOST_VALUE = re.compile(rb"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(:[0-9]*)?")
_ONE_HOST = "a request has one Host header field, naming a host (RFC 9112 §3.2)"
# The fields of a request's head checked as they are parsed (``on_header``).
_CHECKED_FIELDS = frozenset((b"host", b"transfer-encoding", b"expect"))


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The bounds one connection is held to (from ``Settings``)."""

    max_connections: int
    max_url_bytes: int
    max_header_bytes: int
    max_headers: int
    header_timeout: float
    body_timeout: float
    keep_alive: float
    send_timeout: float
    linger: float
    max_pipelined: int

    @classmethod
    def of(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            max_connections=open_files_for(settings),
            max_url_bytes=settings.max_url_bytes,
            max_header_bytes=settings.max_header_bytes,
            max_headers=settings.max_headers,
            header_timeout=settings.header_timeout_seconds,
            body_timeout=settings.body_timeout_seconds,
            keep_alive=settings.keep_alive_seconds,
            send_timeout=settings.send_timeout_seconds,
            linger=settings.linger_seconds,
            max_pipelined=settings.max_pipelined_requests,
        )


def open_files_for(settings: Settings) -> int:
    """Raise the soft open-files limit as far as ``max_connections`` needs (up to the hard
    limit); answers the connections to allow: ``max_connections``, or fewer if they do not fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = settings.max_connections + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):  # pragma: no cover - a platform that refuses
            pass
    if soft == resource.RLIM_INFINITY:
        return settings.max_connections
    fits = max(1, soft - RESERVED_FILES)
    if fits < settings.max_connections:
        logger.warning(
            "ADJUDICATOR_MAX_CONNECTIONS=%d does not fit the open-files limit %d: at most %d "
            "connections (raise `ulimit -n`)", settings.max_connections, soft, fits,
        )  # fmt: skip
    return min(fits, settings.max_connections)


# Per server: connections no request of which is being answered, longest-waiting first.
_WAITING: weakref.WeakKeyDictionary[ServerState, OrderedDict[BoundedHttpToolsProtocol, None]]
_WAITING = weakref.WeakKeyDictionary()


class _Refused(Exception):
    """Raised in a parser callback to stop parsing and answer ``problem``."""

    def __init__(self, problem: ProblemType, detail: str) -> None:
        super().__init__(detail)
        self.problem = problem
        self.detail = detail


class _PipelineFull(Exception):
    """Raised in a parser callback: answer the requests queued so far, then close."""


def problem_bytes(
    problem: ProblemType,
    detail: str,
    default_headers: list[tuple[bytes, bytes]],
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> bytes:
    """A whole ``Connection: close`` problem answer, for refusals made before the app runs."""
    body = json.dumps(problem_body(problem, detail)).encode()
    headers = [
        *default_headers,
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SAFE_DEFAULTS,
        *extra,
    ]
    lines = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return STATUS_LINE[problem.status] + lines + b"\r\n" + body


# What BoundedHttpToolsProtocol relies on of uvicorn beyond the asyncio.Protocol interface, none
# of it uvicorn's documented API:
# * the methods it overrides, which uvicorn (and httptools: the ``on_*`` callbacks) call with the
#   signature of uvicorn's own. ``_start_asgi_task`` is uvicorn 0.45's: before it, the request
#   being answered is unknown here, and a pipelined one is not told that its client is gone;
# * what it reads or sets of uvicorn's objects (``INHERITED_ATTRIBUTES``);
# * from uvicorn 0.53, the answer of a request whose ``keep_alive`` is turned off (``_drain``,
#   and uvicorn's ``shutdown``) says ``Connection: close``;
# * a request's cycle writes its answer to, and closes, the transport it holds as ``transport``
#   (``write``, ``close`` and ``is_closing`` of it, nothing else), and closes it before it calls
#   ``on_response_complete`` (how an answer that closes the connection lingers, ``_Answers``);
# * it writes an answer's head in one write once it has marked the answer started (and set
#   its ``expected_content_length``), then its body's (how ``_Answers`` sends both in one);
# and of httptools' parser: an exception a callback raises is the ``__context__`` of the error
# ``feed_data`` raises (how a refusal gets out of the parser, in ``data_received``), and a chunked
# body's trailer fields come to ``on_header`` after the last ``on_chunk_header`` (how they are
# told from the head's). pyproject.toml pins uvicorn and httptools to the releases where all of
# it holds; tests/test_server_hooks.py fails, naming what an upgrade broke.
OVERRIDDEN_HOOKS = (
    "__init__", "connection_made", "connection_lost", "data_received", "pause_writing",
    "resume_writing", "shutdown", "_start_asgi_task", "on_url", "on_header", "on_body",
    "on_headers_complete", "on_message_complete", "on_response_complete",
)  # fmt: skip
INHERITED_ATTRIBUTES: dict[type, tuple[str, ...]] = {
    HttpToolsProtocol: (
        "cycle", "pipeline", "connections", "server_state", "loop", "parser", "transport",
        "flow", "client", "url", "headers", "timeout_keep_alive", "_unset_keepalive_if_required",
    ),
    RequestResponseCycle: (
        "disconnected", "message_event", "response_started", "response_complete", "more_body",
        "keep_alive", "transport", "chunked_encoding", "expected_content_length",
    ),
    # and a weak reference to it keys ``_WAITING``
    ServerState: ("default_headers", "total_requests"),
    FlowControl: ("pause_reading",),
}  # fmt: skip


# The most body bytes joined to an answer's head in one write (``_Answers``): past it, the head
# and the body are written apart rather than copied into one.
JOINED_BODY_BYTES = 64 * 1024


class _Answers:
    """The transport a request's cycle writes its answer to: the connection's, except that

    * an answer's head is written with the first bytes of its body, in one write: uvicorn
      writes them apart, and each write is a system call and a packet of its own (measured
      with wrk: a few µs of a ~80 µs answer). Only the head of an answer whose body has a
      length (``Content-Length``, not ``HEAD``) is held, and only till its cycle's next write —
      the body's, which follows it at once (an app that sent the head sends its bytes; uvicorn
      refuses to complete the answer without them) — or until it is closed or completes; a
      streamed answer's head (chunked: server-sent events) and a ``100 Continue`` (written
      before any answer starts) go at once. A connection closed by a refusal while a head is
      held (``_refuse``: bytes that break a pipelined request, between the head's write and
      the body's) loses the head with the body: the answer was cut off either way;
    * closing it after an answer lingers (``BoundedHttpToolsProtocol._linger``) rather than
      closing at once."""

    __slots__ = ("_head", "_held_for", "_protocol")

    def __init__(self, protocol: BoundedHttpToolsProtocol) -> None:
        self._protocol = protocol
        self._head: bytes | None = None
        self._held_for: RequestResponseCycle | None = None  # the cycle whose head was held

    def write(self, data: bytes) -> None:
        head = self._head
        if head is not None:
            self._head = None
            if len(data) > JOINED_BODY_BYTES:  # a large body is not copied to join it
                self._protocol.transport.write(head)
                self._protocol.transport.write(data)
            else:
                self._protocol.transport.write(head + data)
            return
        cycle = self._protocol.current
        if (
            cycle is not None
            and cycle is not self._held_for
            and cycle.response_started
            and not cycle.chunked_encoding
            and cycle.expected_content_length > 0
            and not cycle.response_complete
        ):
            self._held_for = cycle  # its head: its first write since the answer started
            self._head = data
            return
        self._protocol.transport.write(data)

    def flush(self) -> None:
        """Write a head still held (its body has not come)."""
        head = self._head
        if head is not None:
            self._head = None
            self._protocol.transport.write(head)

    def is_closing(self) -> bool:
        return self._protocol.transport.is_closing() or self._protocol.lingering

    def close(self) -> None:
        self.flush()
        self._protocol.close_after_answer()


# The protocol's base, called by name in the hooks every request passes (on Python 3.11,
# ``super()`` makes an object a call).
_Base = HttpToolsProtocol


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol held to ``ConnectionLimits`` (see the module's docs)."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        limits: ConnectionLimits,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = limits
        self.timeout_keep_alive = self.limits.keep_alive  # type: ignore[assignment]
        self.waiting = _WAITING.setdefault(server_state, OrderedDict())
        self.reading_head = True  # between requests, the next byte starts a head
        self.head_bytes = 0  # bytes received since the head began (bounds a head in pieces)
        self.head_size = 0  # bytes of the header fields parsed so far
        self.head_room = self.limits.max_header_bytes  # for the fields: the bound less the URL
        self.header_count = 0
        self.max_headers = self.limits.max_headers
        self.host = b""  # the last Host value found good on this connection
        self.hosts = 0  # Host fields of the head
        self.framing = 0  # the body's chunked framing so far: 5 a chunk, a trailer field's size
        self.unfinished = 0  # bytes received since the parser last finished anything of a body
        self.finished = False  # the parser finished something of a body in this piece of data
        self.trailer = False  # the last chunk has come: fields now are the trailer's
        self.over_capacity = False
        self.draining = False  # pipelined past the bound: no more reading
        self.lingering = False  # answered and closing: nothing more is read as a request
        self.linger_bytes = 0  # bytes read and dropped since then
        self.head_timer: asyncio.TimerHandle | None = None
        self.body_timer: asyncio.TimerHandle | None = None
        self.send_timer: asyncio.TimerHandle | None = None
        self.current: RequestResponseCycle | None = None
        self.answers = _Answers(self)

    # Connections

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.waiting[self] = None
        self._arm_head_timer()  # a connection that never sends a byte is closed too
        if len(self.connections) > self.limits.max_connections:
            self._make_room()

    def _make_room(self) -> None:
        """Over the bound: close the longest-waiting connection, or mark this one to be refused
        (if there is still no room when its head has come)."""
        self.over_capacity = not self._evicted_another()

    def _evicted_another(self) -> bool:
        for other in self.waiting:
            if other is not self:
                other.evict()
                return True
        return False

    def _still_over_capacity(self) -> bool:
        """At its head, a connection marked over the bound is refused only if there is still
        no room: connections may have closed, or become idle, since it came."""
        if len(self.connections) <= self.limits.max_connections or self._evicted_another():
            self.over_capacity = False
        return self.over_capacity

    def evict(self) -> None:
        """Closed at once to make room: with a 503 when a head had begun (no lingering: the
        place is needed now)."""
        if self.head_bytes and not self.lingering:
            self._refuse(TOO_MANY_CONNECTIONS, TOO_MANY_CONNECTIONS.detail)
        self.waiting.pop(self, None)
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.waiting.pop(self, None)
        self._cancel_timers()
        if self.send_timer is not None:
            self.send_timer.cancel()
        # uvicorn tells only the newest request that the client is gone; the one being answered
        # may be an older, pipelined one, which would then write to a closed transport.
        for cycle in self._owed():
            cycle.disconnected = True
            cycle.message_event.set()
        super().connection_lost(exc)

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        self.current = cycle  # the request being answered (pipelined ones wait behind it)
        _Base._start_asgi_task(self, cycle, app)

    def _owed(self) -> list[RequestResponseCycle]:
        """Every request of this connection not yet answered: the one being answered, and
        those queued behind it."""
        cycles = [self.current, self.cycle, *(cycle for cycle, _ in self.pipeline)]
        owed: list[RequestResponseCycle] = []
        for cycle in cycles:
            if cycle is not None and not cycle.response_complete and cycle not in owed:
                owed.append(cycle)
        return owed

    # Writing: a client that does not read its answer is cut off.

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.send_timer is None:
            timeout = self.limits.send_timeout
            self.send_timer = self.loop.call_later(timeout, self._send_too_slow)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.send_timer is not None:
            self.send_timer.cancel()
            self.send_timer = None

    def _send_too_slow(self) -> None:
        self.send_timer = None
        for cycle in self._owed():  # before the transport is gone: nothing more is written
            cycle.disconnected = True
            cycle.message_event.set()
        logger.debug(
            "%s read nothing of its answer for %g s: cut", self.client, self.limits.send_timeout
        )
        self.transport.abort()  # its unread answer is dropped with it

    def shutdown(self) -> None:
        """At a graceful shutdown: stop waiting for heads; a connection lingering after its
        answer is closed now; a request being read or answered may finish."""
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        if self.lingering:
            self.transport.close()
        super().shutdown()

    # Reading

    def data_received(self, data: bytes) -> None:
        if self.lingering:
            self._dropped(len(data))
            return
        if self.draining:
            return  # past the pipelining bound: what comes is not read as requests
        self._unset_keepalive_if_required()
        if self.reading_head:
            self.head_bytes += len(data)
        self.finished = False
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            # No protocol to switch to (no WebSockets here): the request is answered as HTTP.
            logger.debug("ignored an Upgrade request from %s", self.client)
        except httptools.HttpParserError as error:
            refused = error.__context__
            if isinstance(refused, _PipelineFull):
                self._drain()
                return
            if not isinstance(refused, _Refused):
                refused = _Refused(MALFORMED_HTTP, MALFORMED_HTTP.detail)
            # Bytes that break a request's body are answered as that request.
            answering = None if self.reading_head else self.cycle
            self._refuse(refused.problem, refused.detail, answering=answering)
            return
        # Timers only for what did not come in one piece: a head or a body still on its way.
        if self.reading_head:
            if self.head_bytes > self.limits.max_header_bytes:  # a head still on its way
                self._refuse(HEADERS_TOO_LARGE, self._head_too_large())
            elif self.head_bytes and self.head_timer is None:
                self._arm_head_timer()
            return
        # A body: what of its framing is not yet a chunk or a field is a line on its way.
        self.unfinished = 0 if self.finished else self.unfinished + len(data)
        if self.framing + self.unfinished > self.limits.max_header_bytes:
            refused = self._framing_too_large()
            self._refuse(refused.problem, refused.detail, answering=self.cycle)
        elif (
            self.cycle is not None
            and self.cycle.more_body
            and self.body_timer is None
            and not self.pipeline  # a queued request's body waits for the server, not the client
        ):
            self.body_timer = self.loop.call_later(self.limits.body_timeout, self._body_too_slow)

    def on_url(self, url: bytes) -> None:
        _Base.on_url(self, url)
        if len(self.url) > self.limits.max_url_bytes:
            detail = f"the URL is longer than {self.limits.max_url_bytes} bytes"
            raise _Refused(URL_TOO_LONG, detail)
        self.head_room = self.limits.max_header_bytes - len(self.url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_count += 1
        if self.header_count > self.max_headers:
            detail = f"the request has more than {self.max_headers} header fields"
            raise _Refused(HEADERS_TOO_LARGE, detail)
        if self.trailer:  # counted as framing, never added to the request's headers
            self._framed(len(name) + len(value) + 4)
            return
        # A head that came in one piece is measured here: URL, names, values and separators.
        self.head_size += len(name) + len(value) + 4
        if self.head_size > self.head_room:
            raise _Refused(HEADERS_TOO_LARGE, self._head_too_large())
        field = name.lower()
        if field in _CHECKED_FIELDS:
            self._check(field, value)
        # uvicorn's own ``on_header``, its name lowered once for both (a few µs a request).
        self.headers.append((field, value))

    def _check(self, field: bytes, value: bytes) -> None:
        """A field of the head that is checked here (``_CHECKED_FIELDS``)."""
        if field == b"host":
            self.hosts += 1
            if self.hosts > 1:
                raise _Refused(MALFORMED_HTTP, _ONE_HOST)
            if value != self.host:  # a connection's requests name the same host, checked once
                if not HOST_VALUE.fullmatch(value):
                    raise _Refused(MALFORMED_HTTP, _ONE_HOST)
                self.host = value
        elif field == b"transfer-encoding":
            if value.strip().lower() != b"chunked" or any(n == field for n, _ in self.headers):
                detail = f"the only transfer coding taken is chunked, not {value[:64]!r}"
                raise _Refused(TRANSFER_CODING_NOT_IMPLEMENTED, detail)
        elif value.lower() == b"100-continue":  # Expect
            self.expect_100_continue = True

    def on_body(self, body: bytes) -> None:
        self.trailer = False
        self.finished = True
        _Base.on_body(self, body)

    def on_chunk_header(self) -> None:
        # After the size line of a chunk: its data comes next, or, after the last (empty) one,
        # the trailer section (``on_body`` says it was data).
        self._framed(5)
        self.trailer = True

    def on_chunk_complete(self) -> None:
        self.trailer = False
        self.finished = True

    def _framed(self, size: int) -> None:
        """The parser finished ``size`` bytes of the body's framing (a chunk, a trailer field)."""
        self.finished = True
        self.framing += size
        if self.framing > self.limits.max_header_bytes:
            raise self._framing_too_large()

    def _framing_too_large(self) -> _Refused:
        limit = self.limits.max_header_bytes
        if self.trailer:
            return _Refused(HEADERS_TOO_LARGE, f"the trailer section is larger than {limit} bytes")
        detail = (
            f"the body's chunk framing (chunk sizes, extensions) is larger than {limit} bytes: "
            "send fewer, larger chunks"
        )
        return _Refused(PAYLOAD_TOO_LARGE, detail)

    def _head_too_large(self) -> str:
        return f"the request head is larger than {self.limits.max_header_bytes} bytes"

    def on_headers_complete(self) -> None:
        self._cancel_timers()
        self.reading_head = False
        hosts = self.hosts
        self.head_bytes = self.head_size = self.header_count = self.hosts = 0
        self.framing = self.unfinished = 0
        self.finished = True
        self.waiting.pop(self, None)
        if not hosts and self.parser.get_http_version() == "1.1":
            raise _Refused(MALFORMED_HTTP, "an HTTP/1.1 request needs a Host header field")
        if self.over_capacity and self._still_over_capacity():
            raise _Refused(TOO_MANY_CONNECTIONS, TOO_MANY_CONNECTIONS.detail)
        if len(self.pipeline) >= self.limits.max_pipelined:
            raise _PipelineFull()
        _Base.on_headers_complete(self)
        self.cycle.transport = self.answers  # type: ignore[assignment]  # see _Answers

    def on_message_complete(self) -> None:
        if self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None
        self.reading_head = True
        self.framing = self.unfinished = self.header_count = 0
        self.trailer, self.finished = False, True
        _Base.on_message_complete(self)

    def on_response_complete(self) -> None:
        self.answers.flush()
        if self.lingering:  # answered with the connection closing: nothing more is answered
            self.server_state.total_requests += 1
            return
        _Base.on_response_complete(self)
        idle = not self.pipeline and self.reading_head and not self.draining
        if idle and not self.transport.is_closing():
            self.waiting[self] = None

    # Timers and refusals

    def _arm_head_timer(self) -> None:
        self.head_timer = self.loop.call_later(self.limits.header_timeout, self._head_too_slow)

    def _cancel_timers(self) -> None:
        for timer in (self.head_timer, self.body_timer):
            if timer is not None:
                timer.cancel()
        self.head_timer = self.body_timer = None

    def _head_too_slow(self) -> None:
        self.head_timer = None
        if not self.head_bytes:
            self.transport.close()  # never said anything: nobody to answer
            return
        timeout = self.limits.header_timeout
        self._refuse(REQUEST_TIMEOUT, f"the request head did not arrive within {timeout:g} s")

    def _body_too_slow(self) -> None:
        self.body_timer = None
        timeout = self.limits.body_timeout
        detail = f"the request body did not arrive within {timeout:g} s"
        self._refuse(REQUEST_TIMEOUT, detail, answering=self.cycle)

    def _drain(self) -> None:
        """Read nothing more; close after answering the requests queued (the last of them is
        answered with ``Connection: close``)."""
        self.draining = True
        self._cancel_timers()
        self.waiting.pop(self, None)
        self.pipeline[0][0].keep_alive = False  # the newest queued request
        self.flow.pause_reading()
        logger.debug("%s pipelined past the bound: closing after the queued answers", self.client)

    def _refuse(
        self, problem: ProblemType, detail: str, *, answering: RequestResponseCycle | None = None
    ) -> None:
        """Answer ``problem`` and close (see ``_linger``): nothing more is read as a request.

        The answer is the one owed to ``answering`` (a request whose body is late), or to a
        head that never became a request; it is written only if no other answer is owed on the
        connection (one being sent, or queued): then the connection is just closed, as writing
        would put it into the middle, or in place, of another request's answer.
        """
        self._cancel_timers()
        self.waiting.pop(self, None)
        if self.transport.is_closing() or self.lingering:
            return
        owed = self._owed()
        for cycle in owed:
            cycle.disconnected = True  # its answer, if any, goes nowhere
            cycle.message_event.set()
        if any(c is not answering or c.response_started for c in owed):
            self.transport.close()
            logger.debug("closed a connection from %s: %s", self.client, detail)
            return
        retry_after = ((b"retry-after", b"1"),) if problem.status == 503 else ()
        default_headers = self.server_state.default_headers
        self.transport.write(problem_bytes(problem, detail, default_headers, retry_after))
        self._linger()
        logger.debug("refused a connection from %s: %s (%s)", self.client, problem.code, detail)

    def close_after_answer(self) -> None:
        """uvicorn closes the connection after an answer that says ``Connection: close`` (one
        given before the request's body was read, or at shutdown) or that its app broke off:
        the client may still be sending, so the connection lingers (queued requests are not
        answered, as they would not be on a closed connection)."""
        if self.transport.is_closing() or self.lingering:
            return
        for cycle in self._owed():
            cycle.disconnected = True
            cycle.message_event.set()
        self._linger()

    def _linger(self) -> None:
        """Close after an answer to a client that may still be sending, at little cost: shut
        the write side (the answer, then the end of the stream), read and drop at most
        ``UNREAD_KEPT`` bytes more (``_dropped``), then read nothing; close when the client
        closes, or after ``linger`` seconds. Closed at once with unread bytes, the connection
        would be reset while the answer may still be on its way; drained until the client
        stops, a client that never stops would have the server read all it sends. After the
        linger, a client still sending gets a reset once it has had the answer for that long."""
        self.lingering = True
        self._cancel_timers()
        self.waiting[self] = None
        self.waiting.move_to_end(self, last=False)  # the first to make room for a newcomer
        if not self.transport.can_write_eof():  # pragma: no cover - TLS
            self.transport.close()
            return
        self.transport.write_eof()
        self.transport.resume_reading()
        self.head_timer = self.loop.call_later(self.limits.linger, self.transport.close)

    def _dropped(self, size: int) -> None:
        """``size`` bytes came while lingering: dropped, and past ``UNREAD_KEPT`` in all, no
        more is read (the client's sends stall until the connection is closed)."""
        self.linger_bytes += size
        if self.linger_bytes > UNREAD_KEPT:
            self.transport.pause_reading()


def protocol_for(settings: Settings) -> functools.partial[BoundedHttpToolsProtocol]:
    """uvicorn's ``http`` protocol for ``settings``: ``BoundedHttpToolsProtocol`` with their
    limits, worked out once here rather than at each connection (this raises the open-files
    limit, which worker processes inherit). A partial rather than a subclass made here, so that
    it pickles into the worker processes of ``--workers``: the class by its name, the limits by
    value."""
    return functools.partial(BoundedHttpToolsProtocol, limits=ConnectionLimits.of(settings))
