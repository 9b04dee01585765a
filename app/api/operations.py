"""Liveness and readiness probes for orchestrators and load balancers."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

router = APIRouter(tags=["Operations"])


class Health(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    status: Literal["ready"]


@router.get("/healthz", summary="Liveness", description="200 while the process runs.")
async def healthz() -> Health:
    return Health(status="ok")


@router.get(
    "/readyz",
    summary="Readiness",
    description="200 when the service can answer requests, including its game store.",
)
async def readyz() -> Readiness:
    return Readiness(status="ready")
