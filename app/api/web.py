"""The play page at ``/`` and its static assets under ``/web`` (no build step, no CDN)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
INDEX = (WEB_DIR / "index.html").read_text(encoding="utf-8")

# The page loads only its own script and stylesheet and talks only to this service.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

router = APIRouter(include_in_schema=False)


@router.get("/")
async def play_page() -> HTMLResponse:
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
    return HTMLResponse(INDEX, headers=headers)


def mount_web(app: FastAPI) -> None:
    app.include_router(router)
    app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
