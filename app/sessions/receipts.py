"""Receipts as text, for a store that keeps them outside this process (the Redis store).

A receipt is the first answer to a request sent with an ``Idempotency-Key``: the accepted
move's number (``<fingerprint>|ok|<seq>``), or the refusal, kept as its code, message and
attributes (``<fingerprint>|refused|<JSON>``) and raised again as the same exception class. Only
JSON goes in and out: nothing read back from a store is ever evaluated.
"""

from __future__ import annotations

import json

from app.rules.errors import DomainError
from app.sessions.session import Receipt


def errors_by_code() -> dict[str, type[DomainError]]:
    """Every concrete domain error class, by its code."""
    found: dict[str, type[DomainError]] = {}
    pending: list[type[DomainError]] = [DomainError]
    while pending:
        cls = pending.pop()
        if "code" in vars(cls):
            found[cls.code] = cls
        pending.extend(cls.__subclasses__())
    return found


def refusal_from(code: str, message: str, attributes: dict[str, object]) -> DomainError:
    """The refusal ``receipt_text`` kept, as an instance of its own class."""
    return errors_by_code()[code].restored((message,), attributes)


def receipt_text(receipt: Receipt) -> str:
    outcome = receipt.outcome
    if isinstance(outcome, DomainError):
        kept = {"code": outcome.code, "message": str(outcome), "attributes": vars(outcome)}
        return f"{receipt.fingerprint}|refused|{json.dumps(kept)}"
    return f"{receipt.fingerprint}|ok|{outcome}"


def receipt_from(text: str) -> Receipt:
    """The receipt ``receipt_text`` wrote; ValueError for any other text."""
    fingerprint, marker, rest = text.split("|", 2)
    if marker == "ok":
        return Receipt(fingerprint, int(rest))
    if marker == "refused":
        kept = json.loads(rest)
        return Receipt(fingerprint, refusal_from(kept["code"], kept["message"], kept["attributes"]))
    raise ValueError(f"not a receipt: {text!r}")
