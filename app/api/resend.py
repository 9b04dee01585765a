"""Whether and how a client sends a request again: the OpenAPI extension ``x-resend`` on every
operation of the document, and ``x-retry`` on the document, from which the clients' operation
tables and default retries are generated (clients/python/generate.py,
clients/typescript/scripts/generate.mjs).

* ``always``: sending the request twice does what sending it once does: a client sends it again
  after any connection error, and after a 503 whose ``Retry-After`` it is willing to wait;
* ``unsent``: each send may make something anew (a game, a spectator's token) or be answered
  otherwise the second time (a deletion): sent again only when the connection failed before the
  request left.

Where the route already says it, the rule follows (``declare_resending``): a ``GET`` is a read
(RFC 9110's safe method), and an operation that takes an ``Idempotency-Key`` applies a request
sent again under its key once. Any other route declares its rule (``openapi_extra=resend(…)``),
and a document with an operation that has none is refused: a client could not tell.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

RESEND = "x-resend"
RETRY = "x-retry"
IDEMPOTENCY_KEY = "idempotency-key"

# How a client sends a request again where its rule allows, unless told otherwise: at most
# ``attempts`` sends in all; after a connection error, ``backoff_seconds`` later (doubling at
# each send); after an answer of one of ``statuses`` (the service's 503s say ``Retry-After``)
# when its ``Retry-After`` is at most ``max_retry_after_seconds``, that long later.
RETRY_POLICY = {
    "attempts": 3,
    "backoff_seconds": 0.1,
    "max_retry_after_seconds": 5,
    "statuses": [503],
}


class Resend(StrEnum):
    ALWAYS = "always"
    UNSENT = "unsent"


def resend(rule: Resend, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A route's ``openapi_extra``: ``extra`` (its parameters, its body, …) and its rule."""
    return {**(extra or {}), RESEND: rule.value}


def _said(method: str, operation: Mapping[str, Any]) -> Resend | None:
    """The rule the route's method or parameters already say, if they do."""
    keyed = any(
        parameter.get("in") == "header" and parameter.get("name", "").lower() == IDEMPOTENCY_KEY
        for parameter in operation.get("parameters", ())
    )
    return Resend.ALWAYS if method == "get" or keyed else None


def declare_resending(document: dict[str, Any]) -> None:
    """Write ``x-resend`` on every operation of an OpenAPI document (the route's own, else the
    one its method or parameters say; ValueError for an operation that says nothing), and the
    retry policy, ``x-retry``, on the document."""
    document[RETRY] = RETRY_POLICY
    silent = []
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            rule = operation.get(RESEND) or _said(method, operation)
            if rule is None:
                silent.append(f"{method.upper()} {path}")
            else:
                operation[RESEND] = Resend(rule).value
    if silent:
        raise ValueError(f"operations that do not say whether to send them again: {silent}")
