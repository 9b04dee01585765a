"""A reader's call as a value: what it read, or the RecordError it refused with (and any other
exception propagates, failing the test that asked)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from app.records.errors import RecordError

P = ParamSpec("P")
T = TypeVar("T")


def read_or_refusal(read: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | RecordError:
    """``read(*args, **kwargs)``, or the RecordError it raised."""
    try:
        return read(*args, **kwargs)
    except RecordError as error:
        return error
