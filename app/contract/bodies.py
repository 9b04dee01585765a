"""A JSON body parsed from its bytes into its model, free of HTTP: how a route parses its body
(``app.api.bodies.JsonBody``) and how the command line parses the same bodies offline.

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
is refused before any validation: a megabyte of members costs a millisecond. A body with no more
members than a valid body of its shape can hold is validated strictly at once, however many that
is (a batch of a thousand queries): its errors are at most about as many as its members and items,
and a valid batch is read in one pass.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Sequence
from itertools import islice
from types import UnionType
from typing import (
    Annotated,
    Any,
    Generic,
    Literal,
    NotRequired,
    Required,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from annotated_types import MaxLen
from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError, SchemaValidator
from typing_extensions import is_typeddict

from app.contract.fields import UNKNOWN_TAG

DEFAULT_MAX_BATCH = 1000  # the most items of one batch request (the setting ``max_batch``)
ModelT = TypeVar("ModelT", bound=BaseModel)
# A UTF-8 byte-order mark before a body: RFC 8259 §8.1 lets a parser ignore it, and some
# Windows tools write one.
UTF8_BOM = b"\xef\xbb\xbf"
# Bodies of more bytes than this are parsed with the garbage collector held off (``_validated``).
COLLECTED_BYTES = 4096
# Bodies with at most this many members (colons, in fact) are validated strictly at once: their
# errors are at most about this many, plus a few per batch item.
STRICT_MEMBERS = 1024
# Names of members no request takes, quoted in the refusal of a body that has too many of them.
NAMED_SURPLUS = 5
# Members read looking for those names: a body of one unknown name repeated a million times is
# not searched to its end.
EXAMINED_SURPLUS = 64


class BodyInvalid(Exception):
    """A body (or a value read from one) that is not what its request takes: every error, each a
    pydantic-style dict (``loc``, ``type``, ``msg``; ``loc`` starting with where it is, ``"body"``
    for a body's member), as ``errors()`` lists them. The contract's and the records' own refusal,
    free of HTTP: the edge answers it 422 ``validation_error`` (``app.api.problems``), as it
    answers the framework's ``RequestValidationError``, and the command line prints the same
    problem."""

    def __init__(self, errors: Sequence[Any]) -> None:
        super().__init__(errors)
        self._errors = errors

    def errors(self) -> Sequence[Any]:
        """Every error, as the 422 ``validation_error``'s ``errors`` names them."""
        return self._errors


class BodyParser(Generic[ModelT]):
    """A body of type ``model``, parsed from bytes: its errors located where they are in it."""

    def __init__(
        self,
        model: type[ModelT],
        *,
        tag: str | None = None,
        tagged: bool = False,
        optional: bool = False,
    ) -> None:
        """``tag``: for a root model over a union told apart by this field (the creation body,
        by ``game``). Its members' errors start with the tag's value, which is not where the
        field is in the body; an unknown tag is an error of the field itself. ``tagged``: for a
        root model over a union told apart by tags that are no field (a move's shapes, by the
        members a body has): its members' errors are located without the tag, and an unknown
        tag (a body that is no object) is an error of the body. ``optional``: an empty body
        stands for ``{}`` (where a request says it has none)."""
        self.model = model
        self._adapter = TypeAdapter(model)
        # By max_batch: the validator whose batches (``batch_limit``) are limited by their lists
        # themselves (``batch_limited``), and where those lists are (None: the model has none).
        self._limited: dict[int, tuple[SchemaValidator, frozenset[Loc]] | None] = {}
        self._unknown_member = unknown_member(field_names(model))
        self._most: dict[int, int | None] = {}  # by max_batch: most_members
        self._tag = tag
        self._tagged = tagged or tag is not None
        self._optional = optional

    def _untagged(self, error: Any) -> Any:
        """An error of a member of the tagged union, located where it is in the body."""
        if error["type"] == UNKNOWN_TAG:
            return {**error, "loc": () if self._tag is None else (self._tag,)}
        return {**error, "loc": error["loc"][1:] if error["loc"] else ()}

    def validate(self, body: bytes, context: dict[str, Any]) -> ModelT:
        """The model of a raw body, or a BodyInvalid naming every bad field (its
        ``loc`` starting with ``"body"``): how a route parses, and how ``adjudicator check``
        answers the same question offline. A leading byte-order mark is ignored. A body of
        many members is validated in two passes (see the module's docs)."""
        body = body.removeprefix(UTF8_BOM)
        members = body.count(b":")  # at least one a member, and more if strings hold colons
        if members <= STRICT_MEMBERS:
            return self._validated(body, context)
        most = self._most_members(context)
        if most is not None and members <= most:  # no more than a valid body holds: one pass
            return self._validated(body, context)
        if most is not None and members > most + STRICT_MEMBERS:
            unknown = unknown_names(body, self._unknown_member)
            raise BodyInvalid([surplus_error(members - most, unknown, most)])
        try:
            parsed = self._validated(body, context, extra="ignore")
        except BodyInvalid as refused:  # and the members no model takes, if any
            unknown = unknown_names(body, self._unknown_member)
            surplus = [surplus_error(None, unknown)] if unknown else []
            raise BodyInvalid([*refused.errors(), *surplus]) from None
        surplus_count = members - members_taken(parsed)
        if surplus_count == 0:
            return parsed
        if surplus_count <= STRICT_MEMBERS:
            return self._validated(body, context)
        unknown = unknown_names(body, self._unknown_member)
        raise BodyInvalid([surplus_error(surplus_count, unknown)])

    def validate_value(self, value: Any, context: dict[str, Any]) -> ModelT:
        """The model of a value already read from JSON (an item of a batch whose items are
        validated one by one), or a BodyInvalid as ``validate``'s."""
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
        settings = context.get("settings")
        max_batch = DEFAULT_MAX_BATCH if settings is None else settings.max_batch
        if max_batch not in self._limited:
            self._limited[max_batch] = batch_limited(self.model, max_batch)
        limited = self._limited[max_batch]
        # A small body makes too few objects for a collection to start: left as it is.
        collecting = len(body) > COLLECTED_BYTES and gc.isenabled()
        if collecting:
            gc.disable()
        try:
            if limited is None:
                return self._adapter.validate_json(body, context=context, extra=extra)
            parsed: ModelT = limited[0].validate_json(body, context=context, extra=extra)
            return parsed
        except ValidationError as error:
            raise self._refused(error, limited and limited[1]) from None
        finally:
            if collecting:
                gc.enable()

    def _refused(
        self, error: ValidationError, batches: frozenset[Loc] | None = None
    ) -> BodyInvalid:
        """The body's errors, each located where it is in the body (and a batch's list that
        has too many items refused as ``batch_limit`` refuses it)."""
        errors = error.errors(include_url=False, include_input=False)
        if batches:
            errors = [batch_error(e) if e["loc"] in batches else e for e in errors]
        if self._tagged:
            errors = [self._untagged(e) for e in errors]
        return BodyInvalid([{**e, "loc": ("body", *e["loc"])} for e in errors])


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
        if cls in seen or not isinstance(cls, type):
            continue
        if is_typeddict(cls):  # a batch's query: its keys as bodies spell them
            seen.add(cls)
            for name, annotation in typeddict_fields(cls).items():
                names.add(name)
                pending.extend(_models_in(annotation))
            continue
        if not issubclass(cls, BaseModel):
            continue
        seen.add(cls)
        for name, info in cls.model_fields.items():
            names.add(info.alias or name)  # as bodies spell it: PassIn's `pass`
            pending.extend(_models_in(info.annotation))
    return frozenset(names)


def typeddict_fields(kind: Any) -> dict[str, Any]:
    """A TypedDict's keys and their annotations (their markers kept)."""
    return get_type_hints(kind, include_extras=True)


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
    """The most colons a valid value of type ``kind`` holds in its JSON: each object member is
    followed by one, and a text holds at most as many as its most characters (a seat's name may
    hold some; most texts a body takes, square names and such, hold none but are counted alike)
    — or None when nothing bounds them (text of no most length, a list of objects without a
    batch limit). Numbers and literals hold none, nor a type marked so (a marker whose
    ``members`` is 0: a board)."""
    metadata = _expanded(metadata)
    if any(getattr(marker, "members", None) == 0 for marker in metadata):
        return 0
    origin = get_origin(kind)
    if origin is Annotated:
        base, *markers = get_args(kind)
        return most_members(base, max_batch, [*metadata, *markers])
    if origin in (Required, NotRequired):  # a TypedDict's key, whether it may be left out
        return most_members(get_args(kind)[0], max_batch, metadata)
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
    fields: list[tuple[Any, Sequence[Any]]] | None
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        fields = [(field.annotation, field.metadata) for field in kind.model_fields.values()]
    elif is_typeddict(kind):
        fields = [(annotation, []) for annotation in typeddict_fields(kind).values()]
    else:
        fields = None
    if fields is not None:
        total = 0
        for annotation, field_markers in fields:
            inner = most_members(annotation, max_batch, field_markers)
            if inner is None:
                return None
            total += 1 + inner
        return total
    if kind is str:
        return _max_length(metadata)  # as many colons as characters, if they are bounded
    return None  # a type this does not know: no bound


def _expanded(metadata: Sequence[Any]) -> list[Any]:
    """The markers of a type, a ``Field``'s constraints among them (its own markers)."""
    return [inner for marker in metadata for inner in (marker, *getattr(marker, "metadata", ()))]


def _max_length(metadata: Sequence[Any]) -> int | None:
    """The most items a list's constraints allow (``Field(max_length=…)``), if they say."""
    lengths = [marker.max_length for marker in metadata if isinstance(marker, MaxLen)]
    return min(lengths) if lengths else None


# Where a value is in a body: its members' names and its items' indexes.
Loc = tuple[str | int, ...]
BATCH_TOO_LONG = "a batch has at most {max} items, this one has {length}"


def batch_limited(
    model: type[BaseModel], max_batch: int
) -> tuple[SchemaValidator, frozenset[Loc]] | None:
    """A validator of ``model`` whose batches are limited to ``max_batch`` items by their lists
    themselves (the list's ``max_length``: pydantic-core stops at the first item too many), and
    where they are; None for a model that has no batch. ``batch_limit``, a Python function,
    is handed the batch as Python objects: reading a thousand queries from JSON that way costs
    a copy of them all before they are validated (a third of the time of a valid batch)."""
    found: set[Loc] = set()

    def limited(schema: Any, loc: Loc) -> Any:
        if isinstance(schema, list):
            return [limited(item, loc) for item in schema]
        if not isinstance(schema, dict):
            return schema
        if (
            schema.get("type") == "function-before"
            and schema["function"]["function"] is batch_limit
        ):
            found.add(loc)
            inner = limited(schema["schema"], loc)
            return {**inner, "max_length": min(inner.get("max_length", max_batch), max_batch)}
        if schema.get("type") in ("model-fields", "typed-dict"):
            fields = {
                name: limited(field, (*loc, name)) for name, field in schema["fields"].items()
            }
            rest = {key: limited(value, loc) for key, value in schema.items() if key != "fields"}
            return {**rest, "fields": fields}
        return {key: limited(value, loc) for key, value in schema.items()}

    schema = limited(model.__pydantic_core_schema__, ())
    if not found:
        return None
    # Not the prebuilt validator of the model (pydantic-core reuses its class's own by default).
    return SchemaValidator(schema, _use_prebuilt=False), frozenset(found)


def batch_error(error: Any) -> Any:
    """A batch's list's error as ``batch_limit`` words it, if it is one of too many items."""
    context = error.get("ctx") or {}
    if error["type"] != "too_long" or context.get("field_type") != "List":
        return error
    limit, length = context["max_length"], context["actual_length"]
    return {**error, "msg": BATCH_TOO_LONG.format(max=limit, length=length)}


def batch_limit(items: Any, info: ValidationInfo) -> Any:
    """Before-validator for a batch's item list: refuse more than ``max_batch`` items at once,
    before any item is validated."""
    limit = info.context["settings"].max_batch if info.context else DEFAULT_MAX_BATCH
    if isinstance(items, list) and len(items) > limit:
        raise PydanticCustomError("too_long", BATCH_TOO_LONG, {"max": limit, "length": len(items)})
    return items
