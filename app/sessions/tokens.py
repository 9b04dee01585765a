"""Player tokens: random bearer secrets, of which the store keeps only a hash.

Tokens carry 256 bits of randomness, so a fast hash (SHA-256) is enough — no password
stretching is needed — and comparisons use ``hmac.compare_digest`` to leak no timing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token_digest: str, stored_digest: str) -> bool:
    return hmac.compare_digest(token_digest, stored_digest)


def new_game_id() -> str:
    return secrets.token_urlsafe(12)
