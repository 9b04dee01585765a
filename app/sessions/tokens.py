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


def seal(token: str, idempotency_key: str) -> str:
    """A token kept for the retries of the request that made it (a join under an
    ``Idempotency-Key``): XORed with a pad only that key derives, as hex. At rest it tells
    nothing to whoever reads the store without the key; a retry with the key opens it."""
    return _xor(token.encode(), idempotency_key).hex()


def unseal(sealed: str, idempotency_key: str) -> str:
    """The token ``seal`` sealed under this key."""
    return _xor(bytes.fromhex(sealed), idempotency_key).decode()


def _xor(data: bytes, idempotency_key: str) -> bytes:
    # A token is 43 bytes (``new_token``): one BLAKE2b digest (at most 64) is its pad.
    pad = hashlib.blake2b(idempotency_key.encode(), digest_size=len(data), person=b"join-seal")
    return bytes(a ^ b for a, b in zip(data, pad.digest(), strict=True))
