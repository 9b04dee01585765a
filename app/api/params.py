"""Header, path and query parameters read by hand: each declared once, for the docs and the parser.

The hot endpoints take only the request (``DirectRoute``) and read their parameters themselves:
FastAPI's parameter solving would cost several µs a request. A ``Param`` is the one declaration
of such a parameter: ``openapi`` is its entry in the route's ``parameters``, and ``read`` parses
the request's value by the same rules, answering a 422 ``validation_error`` that names the
parameter (``loc: ["query", "since"]``) when it is malformed. The two cannot drift apart.

Numbers are ASCII digits only: ``str.isdigit`` alone also accepts ``²`` or ``٣``, which
``int()`` refuses or reads as another number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError

from app.sessions.errors import Unauthorized

T = TypeVar("T")
Where = Literal["path", "query", "header"]

# The largest number a client may name (a move, a version): JavaScript's largest safe integer,
# so every client reads it exactly, and far inside every store's 64-bit integers.
MAX_NUMBER = 2**53 - 1


class Malformed(ValueError):
    """A parameter's value breaks its declaration; ``kind`` becomes the error's ``type``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Param(Generic[T]):
    """One parameter: where it is, its JSON Schema, its parser and its default."""

    name: str
    where: Where
    schema: dict[str, Any]
    description: str
    parse: Callable[[str], T]
    default: T
    required: bool = False
    empty_is_absent: bool = False  # an empty value means "not sent" (e.g. Last-Event-ID)
    openapi: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        schema = dict(self.schema)
        required = self.required or self.where == "path"
        if self.default is not None and not required:
            schema["default"] = self.default
        entry = {
            "name": self.name,
            "in": self.where,
            "required": required,
            "description": self.description,
            "schema": schema,
        }
        object.__setattr__(self, "openapi", entry)

    def raw(self, request: Request) -> str | None:
        if self.where == "path":
            value: str | None = request.path_params.get(self.name)
        elif self.where == "query":
            value = request.query_params.get(self.name)
        else:
            value = request.headers.get(self.name)
        if value == "" and self.empty_is_absent:
            return None
        return value

    def read(self, request: Request) -> T:
        """The parameter's value, its default when absent, or a 422 naming it. A query
        parameter sent more than once is refused too: which of its values counts would be a
        guess (frameworks differ: the first, the last, a list)."""
        try:
            if self.where == "query" and len(request.query_params.getlist(self.name)) > 1:
                raise Malformed("repeated", "must be given at most once")
            value = self.raw(request)
            if value is None and self.required and self.where == "query":
                raise Malformed("missing", "is required")
            return self.default if value is None else self.parse(value)
        except Malformed as error:
            raise RequestValidationError(
                [{"loc": (self.where, self.name), "msg": str(error), "type": error.kind}]
            ) from None


def integer(minimum: int, maximum: int = MAX_NUMBER) -> tuple[dict[str, Any], Callable[[str], int]]:
    """The schema and parser of a bounded integer written in ASCII digits (no sign, no space)."""
    digits = len(str(maximum))

    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or len(text) > digits:
            raise Malformed("int_parsing", f"must be an integer from {minimum} to {maximum}")
        value = int(text)
        if not minimum <= value <= maximum:
            raise Malformed("int_range", f"must be an integer from {minimum} to {maximum}")
        return value

    return {"type": "integer", "minimum": minimum, "maximum": maximum}, parse


def matching(
    pattern: str, kind: str, message: str, max_length: int
) -> tuple[dict[str, Any], Callable[[str], str]]:
    """The schema and parser of a string that ``pattern`` matches whole."""
    compiled = re.compile(pattern)

    def parse(value: str) -> str:
        if len(value) > max_length or not compiled.fullmatch(value):
            raise Malformed(kind, message)
        return value

    schema = {"type": "string", "pattern": f"^{pattern}$", "maxLength": max_length}
    return schema, parse


def anything(value: str) -> str:
    """A parameter every value of which has a meaning (e.g. an ETag list compared as text)."""
    return value


# Security schemes of the bearer tokens declared below, for the OpenAPI document's components.
SECURITY_SCHEMES: dict[str, dict[str, Any]] = {}


@dataclass(frozen=True)
class BearerToken:
    """``Authorization: Bearer <token>``, declared as an OpenAPI security scheme (so that the
    docs' Authorize button works) and read without a dependency per request."""

    scheme: str
    description: str
    optional: bool = False  # a request may come without it (OpenAPI: ``{}`` among the choices)
    openapi: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        SECURITY_SCHEMES[self.scheme] = {
            "type": "http",
            "scheme": "bearer",
            "description": self.description,
        }
        choices: list[dict[str, list[str]]] = [{self.scheme: []}]
        object.__setattr__(
            self, "openapi", {"security": [{}, *choices] if self.optional else choices}
        )

    def read(self, request: Request) -> str:
        """The token, or Unauthorized (401 with ``WWW-Authenticate: Bearer``)."""
        token = self.read_if_sent(request)
        if token is None:
            raise Unauthorized()
        return token

    def read_if_sent(self, request: Request) -> str | None:
        """The token, or None without an ``Authorization`` header; Unauthorized for a header
        that is not a bearer token."""
        header = request.headers.get("authorization")
        if header is None:
            return None
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized()
        return token


_, _request_id = matching(
    "[!-~]{1,128}", "request_id", "must be 1 to 128 visible ASCII characters", 128
)
REQUEST_ID = Param[str | None](
    # Every value is accepted (one that is not an id is replaced), so the schema is any string;
    # it is read by the observability middleware on every request, and documented in the README
    # rather than on each operation.
    "X-Request-ID", "header", {"type": "string"},
    "Your id for this request (1–128 visible ASCII characters), echoed in the answer's "
    "`X-Request-ID` and in the service's log lines; any other value is replaced by a "
    "generated id, never refused.",
    _request_id, None,
)  # fmt: skip


def request_id_or_none(value: str | None) -> str | None:
    """A client's X-Request-ID if it is one by ``REQUEST_ID``'s declaration, else None."""
    if value is None:
        return None
    try:
        return REQUEST_ID.parse(value)
    except Malformed:
        return None
