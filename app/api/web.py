"""The play page at ``/``, its static assets under ``/web`` (no build step, no CDN), and the list
of kinds the page offers (``/web/kinds.json``), which mirrors the service's kind registry."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from app.api.games.schemas import CreateTicTacToeIn
from app.sessions.kinds import KINDS

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
INDEX = (WEB_DIR / "index.html").read_text(encoding="utf-8")

# The page loads only its own modules and stylesheet and talks only to this service.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

# What the play page needs to know of each kind, by the kind's name: what it calls the kind, the
# marks its board answer writes (each player's, and an empty cell's) and what it calls each
# player. Everything else particular to a kind is in the kind's page module.
PAGE_FACTS: dict[str, dict[str, object]] = {
    "tictactoe": {
        "title": "Tic-tac-toe",
        "marks": {"1": "X", "2": "O"},
        "empty": ".",
        "names": {"1": "X", "2": "O"},
    },
    "reversi": {
        "title": "Reversi",
        "marks": {"1": "B", "2": "W"},
        "empty": ".",
        "names": {"1": "Black", "2": "White"},
    },
}

# The kind a creation body that names none makes; the page offers it first.
UNNAMED_GAME = cast(str, CreateTicTacToeIn.model_fields["game"].default)

router = APIRouter(include_in_schema=False)


def page_kinds() -> list[dict[str, object]]:
    """Every kind of the registry, in its order, as the page loads it: its name (``game``), its
    page facts, its page module, and whether a creation body without ``game`` makes it
    (``default``). KeyError for a registered kind that has no page facts."""
    return [
        {
            "game": name,
            **PAGE_FACTS[name],
            "module": f"/web/kinds/{name}.js",
            "default": name == UNNAMED_GAME,
        }
        for name in KINDS
    ]


@router.get("/")
async def play_page() -> HTMLResponse:
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
    return HTMLResponse(INDEX, headers=headers)


@router.get("/web/kinds.json")
async def play_page_kinds() -> JSONResponse:
    # Revalidated as the page itself is: it changes when the service learns a kind.
    return JSONResponse(page_kinds(), headers={"Cache-Control": "no-cache"})


def mount_web(app: FastAPI) -> None:
    app.include_router(router)  # before the mount, so that /web/kinds.json is this router's
    app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
