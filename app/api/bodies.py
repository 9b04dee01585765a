"""JSON in and out at the edge, with as little work per request as possible.

FastAPI's own body handling decodes JSON with ``json.loads``, solves the body as a dependency,
validates the Python objects, then validates and serialises the return value again. For endpoints
whose work costs microseconds that is most of the request. Here a body is validated by
pydantic-core straight from the raw bytes (one pass, in Rust, with its own JSON depth limit), and
an answer is rendered once from plain data with ``pydantic_core.to_json``.

The OpenAPI document still describes every body: ``JsonBody.openapi`` is passed as the route's
``openapi_extra``, and ``build_openapi`` adds the registered models to the components.

A hostile body costs little to refuse. Pydantic makes one error per member a model does not take,
and a 1 MiB body can hold a hundred thousand members: validating them strictly would cost a
tenth of a second, and turning the errors into an answer ten times that. So a body with more
members than ``STRICT_MEMBERS`` (each member is followed by a colon: ``bytes.count`` bounds them
in C) is first validated ignoring members no model takes, which pydantic-core skips without
building them; only if the members it did take leave at most ``STRICT_MEMBERS`` unaccounted for
is it validated strictly again, for exact errors. Beyond that the body is refused with one error
that counts the surplus. Every strict validation therefore makes at most a few thousand errors.
And a body with more members than any valid body of its shape can hold (``most_members``: no
text a body takes holds a colon, so its colons are its members) by more than ``STRICT_MEMBERS``
is refused before any validation: a megabyte of members costs a millisecond.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Callable, Mapping, Sequence
from itertools import islice
from types import UnionType
from typing import Annotated, Any, Generic, Literal, TypeVar, Union, cast, get_args, get_origin

from annotated_types import MaxLen
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import (
    BaseModel,
    RootModel,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError, from_json, to_json
from starlette.responses import Response

from app.api.work import Meter, in_slices, meter_of
from app.contract.fields import UNKNOWN_TAG
from app.records.steps import Steps
from app.settings import DEFAULT_MAX_BATCH

ModelT = TypeVar("ModelT", bound=BaseModel)
# A UTF-8 byte-order mark before a body: RFC 8259 §8.1 lets a parser ignore it, and some
# Windows tools write one.
UTF8_BOM = b"\xef\xbb\xbf"
# A body of at most this many bytes is parsed without waiting for its client's turn
# (``Meter.turn``): it costs about a slice of work (``work.SLICE_SECONDS``) or less, and most
# bodies, a move's, are tens of bytes: they are not made to wait a round of the event loop.
SMALL_BODY_BYTES = 16 * 1024
# Bodies with at most this many members (colons, in fact) are validated strictly at once: their
# errors are at most about this many, plus a few per batch item.
STRICT_MEMBERS = 1024
# Names of members no request takes, quoted in the refusal of a body that has too many of them.
NAMED_SURPLUS = 5
# Members read looking for those names: a body of one unknown name repeated a million times is
# not searched to its end.
EXAMINED_SURPLUS = 64


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


def _is_json(content_type: str) -> bool:
    media = content_type.partition(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


class JsonBody(Generic[ModelT]):
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
        """``tag``: for a root model over a union told apart by this field (the creation body,
        by ``game``). Its members' errors start with the tag's value, which is not where the
        field is in the body; an unknown tag is an error of the field itself. ``tagged``: for a
        root model over a union told apart by tags that are no field (a move's shapes, by the
        members a body has): its members' errors are located without the tag, and an unknown
        tag (a body that is no object) is an error of the body. ``optional``: an empty body
        stands for ``{}``. ``components``: where the model is listed for the OpenAPI components
        (``BODY_MODELS``, or an app's own list)."""
        self.model = model
        self.examples = examples
        self._adapter = TypeAdapter(model)
        self._unknown_member = unknown_member(field_names(model))
        self._most: dict[int, int | None] = {}  # by max_batch: most_members
        self._tag = tag
        self._tagged = tagged or tag is not None
        self._optional = optional
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

    def _untagged(self, error: Any) -> Any:
        """An error of a member of the tagged union, located where it is in the body."""
        if error["type"] == UNKNOWN_TAG:
            return {**error, "loc": () if self._tag is None else (self._tag,)}
        return {**error, "loc": error["loc"][1:] if error["loc"] else ()}

    async def parse(
        self,
        request: Request,
        meter: Meter | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> ModelT:
        """The validated body, or a RequestValidationError naming every bad field.

        Validators see ``{"settings": <Settings>}`` as their validation context, and what the
        route adds (``context``: a game move's board's square names). The parsing is charged to
        the client's share of CPU time (``meter``, or the request's own), a body of more than
        ``SMALL_BODY_BYTES`` in the client's turn (``Meter.turn``); a client that has used its
        share is refused 429 before its body is read, and again, unparsed, when its turn comes.
        """
        meter = meter or meter_of(request)
        body = await request.body()
        if len(body) <= SMALL_BODY_BYTES:
            return self._parsed_now(request, body, meter, context)
        async with meter.turn():
            return self._parsed_now(request, body, meter, context)

    def _parsed_now(
        self, request: Request, body: bytes, meter: Meter, context: Mapping[str, Any] | None
    ) -> ModelT:
        meter.admit()  # again: the client's other requests may have used its share meanwhile
        known: dict[str, Any] = request.app.state.validation_context
        if context:
            known = {**known, **context}
        if self._optional and not body.removeprefix(UTF8_BOM):
            # No body, whatever its declared type (``curl -X POST -d ''`` says form data).
            return self._adapter.validate_json(b"{}", context=known)
        with meter:
            return self._parsed(request.headers.get("content-type"), body, known)

    def _parsed(self, content_type: str | None, body: bytes, context: dict[str, Any]) -> ModelT:
        if content_type is not None and not _is_json(content_type):
            raise RequestValidationError(
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
        body = await request.body()
        content_type = request.headers.get("content-type")
        if content_type is None or _is_json(content_type):
            limit = request.app.state.settings.max_batch
            items = await in_slices(batch_items(body, member, limit), meter)
            if items is not None:
                return items
        return cast(list[bytes], getattr(await self.parse(request, meter), member))

    def validate(self, body: bytes, context: dict[str, Any]) -> ModelT:
        """The model of a raw body, or a RequestValidationError naming every bad field (its
        ``loc`` starting with ``"body"``): how a route parses, and how ``adjudicator check``
        answers the same question offline. A leading byte-order mark is ignored. A body of
        many members is validated in two passes (see the module's docs)."""
        body = body.removeprefix(UTF8_BOM)
        members = body.count(b":")  # at least one a member, and more if strings hold colons
        if members <= STRICT_MEMBERS:
            return self._validated(body, context)
        most = self._most_members(context)
        if most is not None and members > most + STRICT_MEMBERS:
            unknown = unknown_names(body, self._unknown_member)
            raise RequestValidationError([surplus_error(members - most, unknown, most)])
        try:
            parsed = self._validated(body, context, extra="ignore")
        except RequestValidationError as refused:  # and the members no model takes, if any
            unknown = unknown_names(body, self._unknown_member)
            surplus = [surplus_error(None, unknown)] if unknown else []
            raise RequestValidationError([*refused.errors(), *surplus]) from None
        surplus_count = members - members_taken(parsed)
        if surplus_count == 0:
            return parsed
        if surplus_count <= STRICT_MEMBERS:
            return self._validated(body, context)
        unknown = unknown_names(body, self._unknown_member)
        raise RequestValidationError([surplus_error(surplus_count, unknown)])

    def validate_value(self, value: Any, context: dict[str, Any]) -> ModelT:
        """The model of a value already read from JSON (an item of a batch whose items are
        validated one by one), or a RequestValidationError as ``validate``'s."""
        try:
            return self._adapter.validate_python(value, context=context)
        except ValidationError as error:
            raise self._refused(error) from None

    def _most_members(self, context: dict[str, Any]) -> int | None:
        settings = context.get("settings")
        max_batch = DEFAULT_MAX_BATCH if settings is None else settings.max_batch
        if max_batch not in self._most:
            self._most[max_batch] = most_members(self.model, max_batch)
        return self._most[max_batch]

    def _validated(self, body: bytes, context: dict[str, Any], extra: Any = None) -> ModelT:
        # The collector is held off while a body becomes objects: a megabyte of JSON makes
        # hundreds of thousands of containers, each allocation counting towards a collection
        # that walks the growing, cycle-free result again (80 ms to parse a 1 MiB audit batch
        # with it, 11 without). It runs after, as soon as its threshold says.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._adapter.validate_json(body, context=context, extra=extra)
        except ValidationError as error:
            raise self._refused(error) from None
        finally:
            if collecting:
                gc.enable()

    def _refused(self, error: ValidationError) -> RequestValidationError:
        """The body's errors, each located where it is in the body."""
        errors = error.errors(include_url=False, include_input=False)
        if self._tagged:
            errors = [self._untagged(e) for e in errors]
        return RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in errors])


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


def members_taken(value: Any) -> int:
    """The object members a validated body held that its models took (a field each, and each
    member of a JSON object a model took as it is: the items of a batch validated one by one
    later), and the colons inside the texts and names they took (which ``bytes.count`` counted
    too)."""
    if isinstance(value, RootModel):
        return members_taken(value.root)
    if isinstance(value, BaseModel):
        return sum(1 + members_taken(getattr(value, name)) for name in value.model_fields_set)
    if isinstance(value, dict):  # a JSON object a model takes as it is
        return sum(1 + key.count(":") + members_taken(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return sum(members_taken(item) for item in value)
    if isinstance(value, str):
        return value.count(":")
    if isinstance(value, bytes):  # a batch's raw item, kept as the JSON text it was read as
        return value.count(b":")
    return 0


def field_names(model: Any) -> frozenset[str]:
    """Every field name of a model and of the models inside it (for naming a surplus)."""
    names: set[str] = set()
    pending, seen = [model], set()
    while pending:
        cls = pending.pop()
        if not isinstance(cls, type) or not issubclass(cls, BaseModel) or cls in seen:
            continue
        seen.add(cls)
        for name, info in cls.model_fields.items():
            names.add(info.alias or name)  # as bodies spell it: PassIn's `pass`
            pending.extend(_models_in(info.annotation))
    return frozenset(names)


def _models_in(annotation: Any) -> list[Any]:
    found = [annotation]
    for arg in getattr(annotation, "__args__", ()):
        found.extend(_models_in(arg))
    metadata = getattr(annotation, "__metadata__", None)
    if metadata is not None:
        found.extend(_models_in(annotation.__origin__))
    return found


def unknown_member(known: frozenset[str]) -> re.Pattern[bytes]:
    """A JSON object member whose name is none of ``known`` (the name is group 1), found by the
    regular-expression engine in C however many known members come first."""
    names = b"|".join(re.escape(name.encode()) for name in sorted(known))
    return re.compile(rb'"(?!(?:' + names + rb')"\s*:)((?:[^"\\]|\\.){0,64})"\s*:')


def unknown_names(body: bytes, unknown_member: re.Pattern[bytes]) -> list[str]:
    """The first few names of members no model takes by that name, among the first
    ``EXAMINED_SURPLUS`` such members."""
    names: list[str] = []
    for match in islice(unknown_member.finditer(body), EXAMINED_SURPLUS):
        name = match.group(1).decode("utf-8", "replace")
        if name not in names:
            names.append(name)
            if len(names) == NAMED_SURPLUS:
                break
    return names


def surplus_error(count: int | None, unknown: list[str], most: int | None = None) -> dict[str, Any]:
    """The one error for the members of a body no model took: ``count`` of them (if known; at
    least that many, beyond the ``most`` a body can hold, if that is given), some ``unknown`` by
    name (the others are repeated, or misplaced)."""
    named = f", such as {', '.join(map(repr, unknown))}" if unknown else ""
    if most is not None:
        what = f"at least {count:,} members more than this request can take (at most {most:,})"
    else:
        what = f"{'' if count is None else f'{count:,} '}members this request does not take"
    return {
        "loc": ("body",),
        "type": "extra_forbidden",
        "msg": f"the body has {what}: unknown, repeated or misplaced{named}",
    }


def most_members(kind: Any, max_batch: int, metadata: Sequence[Any] = ()) -> int | None:
    """The most object members a valid value of type ``kind`` holds — each followed by a colon
    in its JSON, and no text a body takes holds one — or None when nothing bounds them (free
    text, a list of objects without a batch limit). Numbers and literals hold none, nor a type
    marked so (a marker whose ``members`` is 0: a board)."""
    if any(getattr(marker, "members", None) == 0 for marker in metadata):
        return 0
    origin = get_origin(kind)
    if origin is Annotated:
        base, *markers = get_args(kind)
        return most_members(base, max_batch, [*metadata, *markers])
    if origin in (Union, UnionType):
        counts = [most_members(member, max_batch) for member in get_args(kind)]
        return None if None in counts else max(count for count in counts if count is not None)
    if origin is Literal or kind in (int, float, bool, type(None)):
        return 0
    if origin in (list, tuple):
        item = most_members(get_args(kind)[0], max_batch)
        if item == 0:
            return 0
        batch = any(getattr(marker, "func", None) is batch_limit for marker in metadata)
        longest = max_batch if batch else _max_length(metadata)
        return None if item is None or longest is None else longest * item
    if isinstance(kind, type) and issubclass(kind, RootModel):
        root = kind.model_fields["root"]
        return most_members(root.annotation, max_batch, root.metadata)
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        total = 0
        for field in kind.model_fields.values():
            inner = most_members(field.annotation, max_batch, field.metadata)
            if inner is None:
                return None
            total += 1 + inner
        return total
    return None  # text, or a type this does not know: no bound


def _max_length(metadata: Sequence[Any]) -> int | None:
    """The most items a list's constraints allow (``Field(max_length=…)``), if they say."""
    lengths = [marker.max_length for marker in metadata if isinstance(marker, MaxLen)]
    return min(lengths) if lengths else None


def batch_limit(items: Any, info: ValidationInfo) -> Any:
    """Before-validator for a batch's item list: refuse more than ``max_batch`` items at once,
    before any item is validated."""
    limit = info.context["settings"].max_batch if info.context else DEFAULT_MAX_BATCH
    if isinstance(items, list) and len(items) > limit:
        raise PydanticCustomError(
            "too_long",
            "a batch has at most {max} items, this one has {length}",
            {"max": limit, "length": len(items)},
        )
    return items


def json_response(
    data: Any, status_code: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """Render plain data (dicts, lists, tuples, str, int, None) as a JSON response."""
    return Response(to_json(data), status_code, headers, media_type="application/json")
