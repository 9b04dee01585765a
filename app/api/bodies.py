"""JSON in and out at the edge, with as little work per request as possible.

FastAPI's own body handling decodes JSON with ``json.loads``, solves the body as a dependency,
validates the Python objects, then validates and serialises the return value again. For endpoints
whose work costs microseconds that is most of the request. Here a body is validated by
pydantic-core straight from the raw bytes (one pass, in Rust, with its own JSON depth limit), and
an answer is rendered once from plain data with ``pydantic_core.to_json``.

The OpenAPI document still describes every body: ``JsonBody.openapi`` is passed as the route's
``openapi_extra``, and ``build_openapi`` adds the registered models to the components.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError, to_json
from starlette.responses import Response

from app.settings import Settings

ModelT = TypeVar("ModelT", bound=BaseModel)
# A UTF-8 byte-order mark before a body: RFC 8259 §8.1 lets a parser ignore it, and some
# Windows tools write one.
UTF8_BOM = b"\xef\xbb\xbf"
# The error type a tagged union's discriminator raises for a tag it does not know.
UNKNOWN_TAG = "unknown_tag"


def _integral(value: Any) -> Any:
    """JSON Schema counts 3.0 as an integer; so does the service. ``true`` and "3" stay refused."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


INTEGRAL = BeforeValidator(_integral)
# An integer as JSON Schema means it: 3 and 3.0, not true, not "3", not 3.5. A constrained one
# puts its constraints before the validator, ``Annotated[int, Field(strict=True, ge=0), INTEGRAL]``:
# added around ``JsonInt`` (or to ``JsonInt | None``), Pydantic still enforces them but writes
# them into the JSON Schema as raw ``ge``/``le``, which no client or fuzzer understands.
JsonInt = Annotated[int, Field(strict=True), INTEGRAL]


class Body(BaseModel):
    """Base of every request body: a field the schema does not know is refused (422 naming it),
    so that a client's typo is an error, not a silently different request."""

    model_config = ConfigDict(extra="forbid")


# Every model used as a JsonBody, so that build_openapi can put its schema in the components.
BODY_MODELS: list[type[BaseModel]] = []


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
        optional: bool = False,
    ) -> None:
        """``tag``: for a root model over a union told apart by this field (the creation body,
        by ``game``). Its members' errors start with the tag's value, which is not where the
        field is in the body; an unknown tag is an error of the field itself. ``optional``: an
        empty body stands for ``{}``."""
        self.model = model
        self._adapter = TypeAdapter(model)
        self._tag = tag
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
        if model not in BODY_MODELS:
            BODY_MODELS.append(model)

    def _untagged(self, error: Any) -> Any:
        """An error of a member of the tagged union, located where it is in the body."""
        if error["type"] == UNKNOWN_TAG:
            return {**error, "loc": (self._tag,)}
        return {**error, "loc": error["loc"][1:] if error["loc"] else ()}

    async def parse(self, request: Request) -> ModelT:
        """The validated body, or a RequestValidationError naming every bad field.

        Validators see ``{"settings": <Settings>}`` as their validation context.
        """
        content_type = request.headers.get("content-type")
        body = await request.body()
        if self._optional and not body.removeprefix(UTF8_BOM):
            # No body, whatever its declared type (``curl -X POST -d ''`` says form data).
            return self._adapter.validate_json(b"{}", context=request.app.state.validation_context)
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
        return self.validate(body, request.app.state.validation_context)

    def validate(self, body: bytes, context: dict[str, Any]) -> ModelT:
        """The model of a raw body, or a RequestValidationError naming every bad field (its
        ``loc`` starting with ``"body"``): how a route parses, and how ``adjudicator check``
        answers the same question offline. A leading byte-order mark is ignored."""
        body = body.removeprefix(UTF8_BOM)
        try:
            return self._adapter.validate_json(body, context=context)
        except ValidationError as error:
            errors = error.errors(include_url=False)
            if self._tag is not None:
                errors = [self._untagged(e) for e in errors]
            raise RequestValidationError(
                [{**e, "loc": ("body", *e["loc"])} for e in errors]
            ) from None


def batch_limit(items: Any, info: ValidationInfo) -> Any:
    """Before-validator for a batch's item list: refuse more than ``max_batch`` items at once,
    before any item is validated."""
    settings = info.context["settings"] if info.context else Settings()
    limit = settings.max_batch
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
