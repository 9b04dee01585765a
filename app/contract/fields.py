"""The fields request bodies are made of, as the service reads them and clients send them."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

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
    so that a client's typo is an error, not a silently different request. Errors never echo
    the input (a hostile body is not sent back)."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)
