"""Ed25519 signatures on records and audit answers, and the keys that verify them.

A signature is ``{"alg": "Ed25519", "kid": str, "typ": str, "value": base64url}`` over the
canonical JSON (``canonical.canonical_json``) of the whole signed document, its ``signature``
member holding everything but ``value`` (``signing_input``). So what the signature says of
itself is signed too: ``typ`` says what the document is (``RECORD``, a game's record; ``AUDIT``,
an audit's answer), and one key signs both without a record ever verifying as an audit answer,
or an answer anybody can have signed for any moves passing for a game played on the service.
Keys are published as JWKs (RFC 8037: ``{"kty": "OKP", "crv": "Ed25519", "x": …}``); a key's
``kid`` is its RFC 7638 thumbprint (base64url of the SHA-256 of the canonical JWK members
``crv``, ``kty``, ``x``), so the same key has the same id in every process that loads it.

The service signs with one key, read from a PEM file (``ADJUDICATOR_SIGNING_KEY_FILE``: an
Ed25519 private key, PKCS #8), or made at start when none is given (ephemeral: said in the log;
processes sharing a store must then be given one file). Older keys whose signatures still
verify are published beside it (``ADJUDICATOR_SIGNING_PREVIOUS_KEY_FILES``: PEM public or
private keys). Verifying needs only the published JWKs (``verify``), offline too.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from app.records.canonical import canonical_json, canonical_object

ALG = "Ed25519"
SIGNATURE = "signature"  # the signed document's member that holds its signature
VALUE = "value"  # the signature's member that holds the signature itself: the one not signed
SIGNATURE_BYTES = 64

# What a signed document is (its signature's ``typ``), and how verify names it.
RECORD = "record"  # a game's record: GET /v1/games/{id}/record
AUDIT = "audit"  # an audit's answer: POST /v1/records/audit, audit-batch, adjudicator audit
TOURNAMENT = "tournament"  # a finished tournament: GET /v1/tournaments/{id}
TYPES = {RECORD: "a game record", AUDIT: "an audit answer", TOURNAMENT: "a tournament's result"}


class KeyFileError(ValueError):
    """A key file that cannot be used: what is wrong, in one line."""


class NotVerified(ValueError):
    """A document whose signature does not verify: why, in one line."""


class Verified(NamedTuple):
    """A document whose signature verifies: the key that made it, and what the document is."""

    kid: str
    typ: str


def signing_input(
    document: Mapping[str, Any], header: Mapping[str, Any],
    written: Mapping[str, bytes] | None = None,
) -> bytes:  # fmt: skip
    """What a signature signs: the canonical JSON of ``document`` with its ``signature`` member
    holding ``header``, the signature's members but ``value`` (members named in ``written``
    given already written). A ``ValueError`` for what is not JSON that canonical JSON writes."""
    unsigned = {k: v for k, v in document.items() if k != SIGNATURE}
    members = {**unsigned, SIGNATURE: dict(header)}
    return canonical_object(members, written) if written else canonical_json(members)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def jwk_of(public: Ed25519PublicKey) -> dict[str, str]:
    """The public key as a JWK (RFC 8037), with its thumbprint as ``kid`` (RFC 7638)."""
    members = {"crv": "Ed25519", "kty": "OKP", "x": b64url(_raw(public))}
    return {**members, "kid": b64url(hashlib.sha256(canonical_json(members)).digest())}


@dataclass(frozen=True)
class SigningKey:
    """The key the service signs with."""

    private: Ed25519PrivateKey
    ephemeral: bool = False

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate(), ephemeral=True)

    @classmethod
    def from_seed(cls, seed: bytes) -> SigningKey:
        """The key of a 32-byte seed (RFC 8032's private key): for examples and tests."""
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @functools.cached_property
    def jwk(self) -> dict[str, str]:
        return jwk_of(self.private.public_key())

    @property
    def kid(self) -> str:
        return self.jwk["kid"]

    def sign(
        self, document: Mapping[str, Any], typ: str, written: Mapping[str, bytes] | None = None
    ) -> dict[str, str]:
        """The signature of ``document`` (its ``signature`` member, if any, replaced), saying
        that it is a ``typ`` (one of ``TYPES``). Members named in ``written`` are given already
        written as canonical JSON (a long record's moves, written a move at a time as its chain
        was: ``canonical.canonical_object``)."""
        assert typ in TYPES, f"a signed document is one of {', '.join(TYPES)}"
        header = {"alg": ALG, "kid": self.kid, "typ": typ}
        data = signing_input(document, header, written)
        return {**header, VALUE: b64url(self.private.sign(data))}

    def signed(
        self, document: Mapping[str, Any], typ: str, written: Mapping[str, bytes] | None = None
    ) -> dict[str, Any]:
        """``document`` with its ``signature``, saying that it is a ``typ`` (``written``: as
        ``sign`` takes it)."""
        return {**document, SIGNATURE: self.sign(document, typ, written)}


def _pem(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise KeyFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    if len(data) > 64 * 1024:
        raise KeyFileError(f"{path}: not a PEM key file (larger than 64 KiB)")
    return data


def load_private_key(path: Path) -> SigningKey:
    """The Ed25519 private key of a PEM file (PKCS #8, unencrypted)."""
    data = _pem(path)
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as error:
        raise KeyFileError(f"{path}: not an unencrypted PEM private key ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path}: not an Ed25519 key ({type(key).__name__})")
    return SigningKey(key)


def load_public_key(path: Path) -> Ed25519PublicKey:
    """The Ed25519 public key of a PEM file: a public key, or a private key's public half."""
    data = _pem(path)
    try:
        key: object = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        key = load_private_key(path).private.public_key()
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path}: not an Ed25519 key ({type(key).__name__})")
    return key


@dataclass(frozen=True)
class KeyRing:
    """The key the service signs with, and the older ones still published."""

    current: SigningKey
    previous: tuple[Ed25519PublicKey, ...] = ()

    @classmethod
    def load(cls, current: Path | None, previous: Sequence[Path] = ()) -> KeyRing:
        key = SigningKey.generate() if current is None else load_private_key(current)
        return cls(key, tuple(load_public_key(path) for path in previous))

    def jwks(self) -> dict[str, list[dict[str, str]]]:
        """The published keys (``GET /v1/keys``): the current one first."""
        keys = [self.current.jwk, *(jwk_of(public) for public in self.previous)]
        unique = {key["kid"]: key for key in keys}
        return {"keys": list(unique.values())}


def verify(
    document: Mapping[str, Any], keys: Sequence[Mapping[str, Any]], typ: str | None = None
) -> Verified:
    """The published key whose signature ``document`` carries, and what the signature says the
    document is — which must be ``typ`` if one is asked for; else ``NotVerified`` saying why."""
    signature = document.get(SIGNATURE)
    if not isinstance(signature, Mapping):
        raise NotVerified("the document carries no signature")
    alg, kid, said, value = (signature.get(name) for name in ("alg", "kid", "typ", VALUE))
    if alg != ALG:
        raise NotVerified(f"signature algorithm {alg!r} is not {ALG}")
    if not isinstance(said, str) or said not in TYPES:
        known = " or ".join(repr(name) for name in TYPES)
        if said is None:
            raise NotVerified(f"the signature does not say what the document is (typ {known})")
        raise NotVerified(f"the signature's typ {said!r} is not {known}")
    if typ is not None and said != typ:
        raise NotVerified(f"the document is {TYPES[said]}, not {TYPES[typ]}")
    matching = [key for key in keys if key.get("kid") == kid]
    if not matching:
        raise NotVerified(f"no published key has the signature's kid {kid!r}")
    key = matching[0]
    if key.get("kty") != "OKP" or key.get("crv") != "Ed25519" or not isinstance(key.get("x"), str):
        raise NotVerified(f"key {kid!r} is not an Ed25519 JWK")
    if not isinstance(value, str):
        raise NotVerified("the signature's value is not a string")
    wrong = "the key or the signature is not base64url of the right length"
    try:
        public = Ed25519PublicKey.from_public_bytes(unb64url(key["x"]))
        raw = unb64url(value)
    except (ValueError, binascii.Error):
        raise NotVerified(wrong) from None
    if len(raw) != SIGNATURE_BYTES:
        raise NotVerified(wrong)
    header = {name: part for name, part in signature.items() if name != VALUE}
    try:
        public.verify(raw, signing_input(document, header))
    except InvalidSignature:
        raise NotVerified(
            f"the signature does not match the document (key {kid!r}): it was changed"
        ) from None
    except ValueError as error:
        raise NotVerified(f"the document is not JSON that can be signed: {error}") from None
    return Verified(str(kid), said)
