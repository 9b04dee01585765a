"""Receipts as text, for a store that keeps them outside this process (the Redis store).

A receipt is the first answer to a request sent with an ``Idempotency-Key``: the accepted
move's number and the game's version right after it (``<fingerprint>|ok|<seq>|<version>``;
``<fingerprint>|ok|<seq>`` when written before takebacks: the move now at that number), the
state an action left (``<fingerprint>|state|<JSON>``, written by ``act.lua`` or ``commit.lua``
as the store's state fields), or the refusal, kept as its class's name, code, message and
attributes (``<fingerprint>|refused|<JSON>``) and raised again as the same exception class (by
name: two classes may share a code, as `illegal_move` in and out of a session). Only JSON goes
in and out: nothing read back from a store is ever evaluated.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from app.rules.errors import DomainError
from app.sessions.session import ANY_VERSION, Answered, GameState, Receipt


def errors_by_name() -> dict[str, type[DomainError]]:
    """Every concrete domain error class, by its class name."""
    found: dict[str, type[DomainError]] = {}
    pending: list[type[DomainError]] = [DomainError]
    while pending:
        cls = pending.pop()
        if "code" in vars(cls):
            found[cls.__name__] = cls
        pending.extend(cls.__subclasses__())
    return found


def refusal_from(name: str, message: str, attributes: dict[str, object]) -> DomainError:
    """The refusal ``receipt_text`` kept, as an instance of its own class."""
    return errors_by_name()[name].restored((message,), attributes)


def _name_of_code(code: str) -> str:
    return next(name for name, cls in errors_by_name().items() if cls.code == code)


def receipt_text(receipt: Receipt) -> str:
    outcome = receipt.outcome
    if isinstance(outcome, DomainError):
        kept = {
            "error": type(outcome).__name__, "code": outcome.code, "message": str(outcome),
            "attributes": vars(outcome),
        }  # fmt: skip
        return f"{receipt.fingerprint}|refused|{json.dumps(kept)}"
    assert isinstance(outcome, Answered), "a join's receipt is never kept as text"
    return f"{receipt.fingerprint}|ok|{outcome.seq}|{outcome.version}"


def receipt_from(text: str, state_from: Callable[[list[Any]], GameState]) -> Receipt:
    """The receipt ``receipt_text`` (or ``act.lua``) wrote, an action's state read by
    ``state_from``; ValueError for any other text."""
    fingerprint, marker, rest = text.split("|", 2)
    if marker == "ok":
        seq, _, version = rest.partition("|")
        return Receipt(fingerprint, Answered(int(seq), int(version) if version else ANY_VERSION))
    if marker == "state":
        return Receipt(fingerprint, state_from(json.loads(rest)))
    if marker == "refused":
        kept = json.loads(rest)
        name = kept.get("error") or _name_of_code(kept["code"])  # receipts kept before names
        refusal = refusal_from(name, kept["message"], kept["attributes"])
        return Receipt(fingerprint, refusal)
    raise ValueError(f"not a receipt: {text!r}")
