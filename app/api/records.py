"""Game records: the keys that verify what the service signs."""

from __future__ import annotations

from fastapi import Request, Response
from pydantic import BaseModel, Field

from app.api.routing import api_router
from app.records.signing import KeyRing

router = api_router("/v1", ["Records"])

# The keys change only when the service restarts with another key file: a cache may keep them a
# while, and must look again before it refuses a signature of a key it does not know.
KEYS_CACHE = "public, max-age=300"


class Jwk(BaseModel):
    """An Ed25519 public key as a JWK (RFC 8037); `kid` is its RFC 7638 thumbprint."""

    kty: str = Field(description="`OKP`.", examples=["OKP"])
    crv: str = Field(description="`Ed25519`.", examples=["Ed25519"])
    x: str = Field(description="The public key, base64url (32 bytes).")
    kid: str = Field(description="The key's id: the signatures it made carry it.")


class Keys(BaseModel):
    """The keys that verify the service's signatures: the current one first."""

    keys: list[Jwk] = Field(description="The current key, then older ones still published.")


@router.get(
    "/keys",
    summary="The keys that verify signed records",
    description="Ed25519 public keys as JWKs (RFC 8037): the key the service signs finished "
    "games' records and audit answers with, then older keys whose signatures still verify. A "
    'signature is `{"alg": "Ed25519", "kid", "value"}` over the canonical JSON (RFC '
    "8785) of the signed document without its `signature`; verify it with the key of its "
    "`kid`.",
    response_model=Keys,
)
async def get_keys(request: Request) -> Response:
    keys: KeyRing = request.app.state.keys
    body = Keys.model_validate(keys.jwks()).model_dump_json()
    return Response(body, media_type="application/json", headers={"Cache-Control": KEYS_CACHE})
