"""Receipts: the first answer to a request sent with an ``Idempotency-Key``, where a game keeps
it (``receipt_key``), what it keeps (``Receipt``), and the same as text, for a store that keeps
them outside this process (the Redis store).

As text, a receipt is the accepted move's number and the game's version right after it
(``<fingerprint>|ok|<seq>|<version>``; ``<fingerprint>|ok|<seq>`` when written before takebacks:
the move now at that number), the state an action left (``<fingerprint>|state|<JSON>``, written
by ``act.lua`` or ``commit.lua`` as the store's state fields), or the refusal, kept as its
class's name, code, message and attributes (``<fingerprint>|refused|<JSON>``) and raised again
as the same exception class (by name: two classes may share a code, as `illegal_move` in and out
of a session). Only JSON goes in and out: nothing read back from a store is ever evaluated.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from app.rules.errors import DomainError
from app.sessions.exchange import GameState
from app.sessions.kind import Player


def receipt_key(player: Player | Literal["join"], idempotency_key: str) -> str:
    """Where a game keeps the answer to a player's request under an ``Idempotency-Key``: the
    player and a 16-byte digest of the key (a key may be 255 characters, and a game keeps
    thousands of them)."""
    digest = hashlib.blake2b(idempotency_key.encode(), digest_size=16).digest()
    return f"{player}:{base64.b85encode(digest).decode()}"


def join_receipt_key(idempotency_key: str, requester: str) -> str:
    """Where a game keeps a join's answer: under its ``Idempotency-Key`` as the client that sent
    it (``requester``, as the edge's ``client_of`` names it) used it. A join needs no token, so
    the key alone would hand the seat's token to whoever sends it again: bound to its
    requester, the same key from another client is another join (``seat_taken`` once the seat
    is taken), however guessable the key. A key is visible ASCII, so the newline between the
    two cannot be part of it."""
    return receipt_key(JOIN, f"{requester}\n{idempotency_key}")


# A join's receipt key begins with this, where a player's request's begins with its seat.
JOIN: Literal["join"] = "join"

# The version of an answered move a receipt written before takebacks does not say: the move now
# at its number.
ANY_VERSION = -1


class Answered(NamedTuple):
    """The move a request was answered with: its number, and the game's version right after
    it, which tells it from a move of the same number made after a takeback took it back."""

    seq: int
    version: int


@dataclass(frozen=True, slots=True)
class Receipt:
    """The first answer to a request under an Idempotency-Key: the move, the state an action
    left, or the refusal."""

    fingerprint: str
    # The accepted move, an action's state, a refusal, or a join's seat and sealed token.
    outcome: Answered | GameState | DomainError | tuple[Player, str]


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
