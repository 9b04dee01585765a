"""Refuse request bodies over the configured size while they are read, not after, and bodies the
service cannot read.

A declared ``Content-Length`` over the limit is answered at once without reading; a body sent
without one (chunked) is counted as it arrives and refused at the first byte over the limit, so
a client can never make the service buffer more than ``max_bytes``. An answer given before a
body was read (a refusal: a wrong token, a client over its share) closes the connection when
more than ``UNREAD_KEPT`` bytes of the body are left unread, rather than have the server read
and drop them to keep the connection: a client cannot make refused megabytes cost more than a
connection (closed as app/server.py closes a connection after a refusal: nothing more read
beyond ``UNREAD_KEPT``, a short linger, then closed). A request with a ``Content-Encoding`` (a
compressed body, which the service does not decompress: a small body could inflate past every
bound) is answered 415 with ``Accept-Encoding: identity`` (RFC 9110 §15.5.16), unread.
"""

from __future__ import annotations

import sys

from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.problems import problem_response, validation_problem
from app.contract.problems import PAYLOAD_TOO_LARGE, UNSUPPORTED_CONTENT_ENCODING


class PayloadTooLarge(HTTPException):
    """Raised from ``receive`` when the body grows past the limit.

    An ``HTTPException`` so that FastAPI's body reading re-raises it untouched and the app's
    problem handlers answer 413.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body exceeds the limit of {limit} bytes")


# Unread body bytes a connection is kept for after an answer (read and dropped by the server);
# with more left, or an unknown number (chunked), the answer closes the connection. Also the most
# a connection closing after its answer still reads and drops (app/server.py, ``_linger``).
UNREAD_KEPT = 64 * 1024


class BodyLimit:
    """The bound on request bodies (``max_bytes``), applied to each request by ``guard``."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        # A declared length written in this many digits or fewer, with no transfer coding and
        # no content coding, leaves nothing to watch (within the limit and ``UNREAD_KEPT``):
        # the front layer (app/front.py) does not ask ``guard`` about such a request.
        self.plain_digits = len(str(min(max_bytes, UNREAD_KEPT) + 1)) - 1

    def guard(
        self, app: ASGIApp, length: bytes | None, chunked: bytes | None, encoding: bytes | None
    ) -> ASGIApp:
        """What answers a request whose head has these fields (the first ``Content-Length``,
        ``Transfer-Encoding`` and ``Content-Encoding``, or None): ``app`` itself when there is
        nothing to watch — no body, or a ``Content-Length`` within the limit and within what an
        early answer may leave unread (the server frames the body by it); a refusal (415, 422,
        413); else ``app`` with its body counted as it is read (``_Counted``)."""
        declared = _content_length(length)
        # The body is all read when it is: none at all, or its last part received.
        read = declared in (None, 0) and chunked is None
        # An answer given before the body is read closes the connection if much is left unread.
        small = read or (declared is not None and 0 <= declared <= UNREAD_KEPT)
        closing = {} if small else {"Connection": "close"}
        if encoding is not None and encoding.strip().lower() not in (b"", b"identity"):
            detail = f"the body must not be encoded; got Content-Encoding {encoding[:64]!r}"
            headers = {"Accept-Encoding": "identity", **closing}
            return problem_response(UNSUPPORTED_CONTENT_ENCODING, detail, headers=headers)
        if declared == -1:
            # Servers refuse unreadable framing themselves; an app run by another ASGI server
            # must not act on it either (nor read a body of unknown length).
            malformed = {"loc": ("header", "Content-Length"), "type": "content_length",
                         "msg": "must be a number of bytes in ASCII digits"}  # fmt: skip
            return validation_problem([malformed], headers=closing)
        if declared is not None and declared > self.max_bytes:
            return self.refusal()
        if small and chunked is None:
            # Nothing to watch: the server frames the body by its Content-Length (at most
            # max_bytes, or none at all), and an early answer leaves at most UNREAD_KEPT unread.
            return app
        return _Counted(app, self, declared, read)

    def refusal(self) -> Response:
        detail = f"request body exceeds the limit of {self.max_bytes} bytes"
        return problem_response(PAYLOAD_TOO_LARGE, detail, headers={"Connection": "close"})


class _Counted:
    """``app`` with a body whose length is not known (chunked) or large: counted as it is read
    and refused at the first byte over the limit; an answer given before it is all read says
    ``Connection: close`` when more than ``UNREAD_KEPT`` bytes may be left unread."""

    __slots__ = ("app", "declared", "limit", "read")

    def __init__(self, app: ASGIApp, limit: BodyLimit, declared: int | None, read: bool) -> None:
        self.app, self.limit, self.declared, self.read = app, limit, declared, read

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        max_bytes, declared, read = self.limit.max_bytes, self.declared, self.read
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received, read
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_bytes:
                    raise PayloadTooLarge(max_bytes)
                read = read or not message.get("more_body", False)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                unread = None if declared is None else declared - received
                if not read and (unread is None or unread > UNREAD_KEPT):
                    message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except PayloadTooLarge:
            if started:
                raise
            await self.limit.refusal()(scope, receive, send)


def _content_length(value: bytes | None) -> int | None:
    """The declared length (the first ``Content-Length`` field's ``value``); None without one,
    -1 when it is not ASCII digits. Past 18 digits it is only "more than any limit" (and
    ``int`` refuses strings of thousands of digits)."""
    if value is None:
        return None
    value = bytes(value)
    if not value.isdigit():  # bytes.isdigit: ASCII digits only
        return -1
    return int(value) if len(value) <= 18 else sys.maxsize
