"""HEAD on every GET route: the GET's status and headers, and no body (RFC 9110 §9.3.2).

The routes are declared for GET only (so the OpenAPI document lists one operation each); this
ASGI app (the front layer's for HEAD requests, app/front.py) serves HEAD as a GET whose body is
never sent. The answer is complete as soon as its headers are: a stream (``…/events``) is not
waited for, and what the endpoint still sends afterwards is dropped.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class _Answered(Exception):
    """The HEAD answer is complete: what the endpoint sends now goes nowhere."""


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        answered = False

        async def head_send(message: Message) -> None:
            nonlocal answered
            if answered:
                raise _Answered
            if message["type"] == "http.response.start":
                await send(message)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                answered = True

        get = {**scope, "method": "GET"}
        try:
            await self.app(get, receive, head_send)
        except* _Answered:  # also from inside a streaming response's task group
            pass
        finally:
            if "route" in get:  # the route that answered, for the request's metrics
                scope["route"] = get["route"]
