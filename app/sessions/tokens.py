"""Player tokens: random bearer secrets, of which the store keeps only a hash.

Tokens carry 256 bits of randomness, so a fast hash (SHA-256) is enough — no password
stretching is needed — and comparisons use ``hmac.compare_digest`` to leak no timing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token_digest: str, stored_digest: str) -> bool:
    return hmac.compare_digest(token_digest, stored_digest)


# --- players' keys ------------------------------------------------------------------------------
#
# A player's key is ``<player id>.<secret>`` (a game's token never holds a dot): the service keeps
# its hash, finds the player by the id it names, and acts for the player in a game through the
# seat's token for that game, derived from the key's hash (``seat_token``): the game keeps that
# token's hash as it keeps any seat's, so a key acts wherever its seat's token acts with nothing
# looked up on the way, a key that is not a player's derives a token no seat has, and the
# service seats a player it knows by its kept hash alone (a tournament's pairings, a seek's
# match) without the key.

KEY_MARK = "."
SEAT_TOKEN = b"adjudicator seat token "


def _named_id(letter: str) -> str:
    """An id a command line takes as an argument: never beginning with ``-`` (an option)."""
    made = secrets.token_urlsafe(12)
    return made if made[0] != "-" else letter + made[1:]


def new_game_id() -> str:
    return _named_id("G")


def new_player_id() -> str:
    return _named_id("P")


def new_tournament_id() -> str:
    return _named_id("T")


def new_seek_id() -> str:
    return _named_id("S")


def new_challenge_id() -> str:
    return _named_id("C")


def new_player_key(player_id: str) -> str:
    return f"{player_id}{KEY_MARK}{secrets.token_urlsafe(32)}"


def player_of_key(token: str) -> str | None:
    """The player id a bearer token names if it has a player key's shape, else None."""
    player, mark, secret = token.partition(KEY_MARK)
    return player if mark and player and secret else None


def seat_token_of(key_hash: str, game_id: str) -> str:
    """The seat token in the game ``game_id`` of the player whose key's hash is ``key_hash``:
    an HMAC of the game's id under that hash."""
    digest = hmac.new(key_hash.encode(), SEAT_TOKEN + game_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def seat_token(token: str, game_id: str) -> str:
    """The token a bearer ``token`` is in the game ``game_id``: a player key's seat token there
    (``seat_token_of``), any other token itself."""
    if player_of_key(token) is None:
        return token
    return seat_token_of(token_hash(token), game_id)


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
