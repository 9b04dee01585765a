"""Liveness and readiness probes for orchestrators and load balancers."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel

from app.api.docs import problem_responses
from app.api.routing import DirectRoute
from app.sessions.errors import StoreUnavailable

router = APIRouter(tags=["Operations"], route_class=DirectRoute)


class Health(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    status: Literal["ready"]


HEALTHY = b'{"status":"ok"}'
READY = b'{"status":"ready"}'


@router.get(
    "/healthz",
    summary="Liveness",
    description="200 while the process runs.",
    response_model=Health,
)
async def healthz(request: Request) -> Response:
    return Response(HEALTHY, media_type="application/json")


@router.get(
    "/readyz",
    summary="Readiness",
    description="200 when the service can answer requests, including its game store; "
    "503 `store_unavailable` while the store does not answer.",
    response_model=Readiness,
    responses=problem_responses(503, s503="`store_unavailable`."),
)
async def readyz(request: Request) -> Response:
    if not await request.app.state.store.ready():
        raise StoreUnavailable()
    return Response(READY, media_type="application/json")


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    description="Requests by route and status, latency histogram, moves adjudicated, refusals "
    "by problem code, live games. Per process.",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
)
async def metrics(request: Request) -> Response:
    registry = request.app.state.metrics
    registry.live_games.set(await request.app.state.store.live_games())
    return Response(generate_latest(registry.registry), media_type=CONTENT_TYPE_LATEST)
