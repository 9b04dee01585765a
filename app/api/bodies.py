"""JSON in and out at the edge, with as little work per request as possible.

FastAPI's own body handling decodes JSON with ``json.loads``, solves the body as a dependency,
validates the Python objects, then validates and serialises the return value again. For endpoints
whose work costs microseconds that is most of the request. Here a body is validated by
pydantic-core straight from the raw bytes (one pass, in Rust, with its own JSON depth limit), and
an answer is rendered once from plain data with ``pydantic_core.to_json``.

The OpenAPI document still describes every body: ``JsonBody.openapi`` is passed as the route's
``openapi_extra``, and ``build_openapi`` adds the registered models to the components.

A body is parsed from its bytes by ``app.contract.bodies.BodyParser`` (which also says how a
hostile body is refused cheaply); ``JsonBody`` adds the request: its content type, the client's
share of CPU time, a batch read an item at a time.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, TypeVar, cast

from fastapi import Request
from pydantic import BaseModel
from pydantic_core import from_json, to_json
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from app.api.work import Meter, in_slices, meter_of
from app.contract.bodies import UTF8_BOM, BodyInvalid, BodyParser, ModelT
from app.records.steps import Steps

R = TypeVar("R")

# A body of at most this many bytes is parsed without waiting for its client's turn
# (``Meter.turn``): it costs about a slice of work (``work.SLICE_SECONDS``) or less, and most
# bodies, a move's, are tens of bytes: they are not made to wait a round of the event loop.
SMALL_BODY_BYTES = 16 * 1024

# Every model used as a JsonBody of a route every app serves, so that build_openapi can put its
# schema in the components (an app's game bodies, derived from its kinds, are listed per app).
BODY_MODELS: list[type[BaseModel]] = []


# OpenAPI examples by name: {"summary": …, "value": …}
Examples = dict[str, dict[str, Any]]


def answer_examples(examples: Examples) -> dict[str, Any]:
    """The part of a JSON answer's OpenAPI description that gives its examples. An answer
    without any is shown by Swagger UI as one made up from its schema, field by field, that
    contradicts itself (``"legal": true`` with ``"reason": "occupied"``)."""
    return {"content": {"application/json": {"examples": examples}}}


@lru_cache(maxsize=64)  # clients send a few content types, request after request
def _is_json(content_type: str) -> bool:
    media = content_type.partition(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


class JsonBody(BodyParser[ModelT]):
    """A request body of type ``model``, parsed from bytes and documented in OpenAPI."""

    def __init__(
        self,
        model: type[ModelT],
        examples: dict[str, Any],
        *,
        tag: str | None = None,
        tagged: bool = False,
        optional: bool = False,
        components: list[type[BaseModel]] = BODY_MODELS,
    ) -> None:
        """A ``BodyParser`` (``tag``, ``tagged``, ``optional``) whose model the OpenAPI document
        shows with its ``examples``; ``components``: where the model is listed for the OpenAPI
        components (``BODY_MODELS``, or an app's own list)."""
        super().__init__(model, tag=tag, tagged=tagged, optional=optional)
        self.examples = examples
        self.openapi: dict[str, Any] = {
            "requestBody": {
                "required": not optional,
                "content": {
                    "application/json": {
                        "schema": {"$ref": f"#/components/schemas/{model.__name__}"},
                        "examples": examples,
                    }
                },
            }
        }
        if model not in components:
            components.append(model)

    def answers(self, respond: Callable[[ModelT], object]) -> dict[str, Any]:
        """A success answer's OpenAPI description whose examples are ``respond``'s answers to
        this body's examples, by the same names: each a real answer."""
        answers = {
            name: {
                "summary": example["summary"],
                "value": from_json(to_json(respond(self.validate(to_json(example["value"]), {})))),
            }
            for name, example in self.examples.items()
        }
        return answer_examples(answers)

    async def parse(
        self,
        request: Request,
        meter: Meter | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> ModelT:
        """The validated body, or a BodyInvalid naming every bad field (answered 422).

        Validators see ``{"settings": <Settings>}`` as their validation context, and what the
        route adds (``context``: a game move's board's square names). The parsing is charged to
        the client's share of CPU time (``meter``, or the request's own), a body of more than
        ``SMALL_BODY_BYTES`` in the client's turn (``Meter.turn``); a client that has used its
        share is refused 429 before its body is read, and again, unparsed, when its turn comes.
        """
        return await self.answer(request, _parsed_body, meter, context)

    async def answer(
        self,
        request: Request,
        respond: Callable[[ModelT], R],
        meter: Meter | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> R:
        """``respond`` of the parsed body (``parse``), in the same stretch of work: one
        measure of the client's time for both, as a stateless question's answer is written."""
        meter = meter or meter_of(request)
        body = await read_body(request)
        if len(body) <= SMALL_BODY_BYTES:
            return self._answered_now(request, body, meter, context, respond)
        async with meter.turn():
            return self._answered_now(request, body, meter, context, respond)

    def _answered_now(
        self,
        request: Request,
        body: bytes,
        meter: Meter,
        context: Mapping[str, Any] | None,
        respond: Callable[[ModelT], R],
    ) -> R:
        meter.admit()  # again: the client's other requests may have used its share meanwhile
        known: dict[str, Any] = request.app.state.validation_context
        if context:
            known = {**known, **context}
        with meter:
            if self._optional and not body.removeprefix(UTF8_BOM):
                # No body, whatever its declared type (``curl -X POST -d ''`` says form data).
                return respond(self._adapter.validate_json(b"{}", context=known))
            return respond(self._parsed(content_type_of(request), body, known))

    def _parsed(self, content_type: str | None, body: bytes, context: dict[str, Any]) -> ModelT:
        if content_type is not None and not _is_json(content_type):
            raise BodyInvalid(
                [
                    {
                        "loc": ("body",),
                        "type": "content_type",
                        "msg": f"the body must be JSON (application/json), not {content_type!r}",
                    }
                ]
            )
        return self.validate(body, context)

    async def parse_items(self, request: Request, meter: Meter, member: str) -> list[bytes]:
        """The items of a batch body ``{member: [item, …]}`` (its only field), each as its JSON
        text, to be validated one by one: the body split an item a step (``batch_items``), in
        slices charged to ``meter``, so that a megabyte of items is never one stretch of the
        event loop; a body that is not plainly of that shape (anything wrong with it, too) is
        parsed whole by ``parse``, for its exact errors."""
        body = await read_body(request)
        content_type = content_type_of(request)
        if content_type is None or _is_json(content_type):
            limit = request.app.state.settings.max_batch
            items = await in_slices(batch_items(body, member, limit), meter)
            if items is not None:
                return items
        return cast(list[bytes], getattr(await self.parse(request, meter), member))


# A batch body as ``batch_items`` reads it: its opening ``{"<member>": [`` (JSON's whitespace
# around each token: RFC 8259 §2), the whitespace between items, and its closing ``]}``.
_SPACE = "[ \t\n\r]*"
_OPENINGS: dict[str, re.Pattern[str]] = {}
_WHITESPACE = re.compile(_SPACE)
_CLOSING = re.compile(rf"\]{_SPACE}\}}{_SPACE}\Z")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # Python's json reads NaN and Infinity; JSON does not


_SCAN = json.JSONDecoder(parse_constant=_refuse_constant).scan_once  # type: ignore[attr-defined]


def batch_items(body: bytes, member: str, limit: int) -> Steps[list[bytes] | None]:
    """The JSON text of each item of ``{"<member>": [item, …]}``, in order, read an item a step
    with the collector held off (each item's objects are dropped as soon as it is read); None
    for any other body: not UTF-8, not JSON, another member, an empty list or one of more than
    ``limit`` items. None costs a full parse (``JsonBody.parse``) that says exactly what is
    wrong. The items are validated later each on its own: one that Python's reader takes and
    pydantic's does not (a lone escaped surrogate, ``"\\ud800"``; nesting deeper than pydantic
    reads) is that item's problem, not the batch's."""
    try:
        text = body.removeprefix(UTF8_BOM).decode()
    except UnicodeDecodeError:
        return None
    opening = _OPENINGS.get(member)
    if opening is None:
        opening = _OPENINGS[member] = re.compile(
            rf'{_SPACE}\{{{_SPACE}"{re.escape(member)}"{_SPACE}:{_SPACE}\['
        )
    found = opening.match(text)
    if found is None:
        return None
    ends, items = found.end(), []
    while True:
        starts = _WHITESPACE.match(text, ends).end()  # type: ignore[union-attr]
        collecting = gc.isenabled()
        gc.disable()
        try:
            _, ends = _SCAN(text, starts)
        except (StopIteration, ValueError, RecursionError):  # not JSON (as pydantic reads it)
            return None
        finally:
            if collecting:
                gc.enable()
        items.append(text[starts:ends].encode())
        if len(items) > limit:
            return None
        at = _WHITESPACE.match(text, ends).end()  # type: ignore[union-attr]
        if not text.startswith(",", at):
            return items if _CLOSING.match(text, at) else None
        ends = at + 1
        yield


def content_type_of(request: Request) -> str | None:
    """The request's ``Content-Type``, as ``request.headers.get`` reads it (the first), without
    making the request's ``Headers``."""
    for name, value in request.scope["headers"]:
        if name == b"content-type":
            return str(value.decode("latin-1"))
    return None


def _parsed_body(body: ModelT) -> ModelT:
    return body


async def read_body(request: Request) -> bytes:
    """The request's body, as ``await request.body()`` reads it (and kept for it): here in one
    loop, where Starlette's goes through two async generators (a few µs a request)."""
    body: bytes | None = getattr(request, "_body", None)
    if body is not None:
        return body
    if request._stream_consumed:
        raise RuntimeError("Stream consumed")
    receive, chunks = request.receive, []
    while True:
        message = await receive()
        if message["type"] == "http.request":
            chunk = message.get("body", b"")
            if chunk:
                chunks.append(chunk)
            if not message.get("more_body", False):
                break
        elif message["type"] == "http.disconnect":
            request._is_disconnected = True
            raise ClientDisconnect
    request._stream_consumed = True
    body = request._body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    return body


class JsonAnswer(Response):
    """A JSON answer of bytes already rendered: its two headers written at once (Starlette's
    ``Response`` looks for them among the headers it is given, and encodes the media type)."""

    media_type = "application/json"

    def __init__(
        self, body: bytes, status_code: int = 200, headers: Mapping[str, str] | None = None
    ) -> None:
        if headers or not 200 <= status_code < 300 or status_code == 204:
            super().__init__(body, status_code, headers)
            return
        self.status_code, self.background, self.body = status_code, None, body
        self.raw_headers = [
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"application/json"),
        ]


def json_response(
    data: Any, status_code: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """Render plain data (dicts, lists, tuples, str, int, None) as a JSON response."""
    return JsonAnswer(to_json(data), status_code, headers)
