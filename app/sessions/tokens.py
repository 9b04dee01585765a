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


# What a sealed token is kept for: each derives its own pads from the same secret.
JOIN_SEAL = b"join-seal"  # a join's token, under its Idempotency-Key
REMATCH_SEAL = b"rematch-seal"  # a player's token in a rematch, under its token in the game


def seal(token: str, idempotency_key: str, purpose: bytes = JOIN_SEAL) -> str:
    """A token kept for whoever holds a secret (a join's retries: its ``Idempotency-Key``; a
    rematch's player: its token in the old game): XORed with a pad only that secret derives, as
    hex. At rest it tells nothing to whoever reads the store without the secret; a request with
    it opens it."""
    return _xor(token.encode(), idempotency_key, purpose).hex()


def unseal(sealed: str, idempotency_key: str, purpose: bytes = JOIN_SEAL) -> str:
    """The token ``seal`` sealed under this secret, for this purpose."""
    return _xor(bytes.fromhex(sealed), idempotency_key, purpose).decode()


def _xor(data: bytes, idempotency_key: str, purpose: bytes) -> bytes:
    # A token is 43 bytes (``new_token``): one BLAKE2b digest (at most 64) is its pad.
    pad = hashlib.blake2b(idempotency_key.encode(), digest_size=len(data), person=purpose)
    return bytes(a ^ b for a, b in zip(data, pad.digest(), strict=True))
