"""The play page at ``/``, its static assets under ``/web`` (no build step, no CDN), the list of
kinds the page offers (``/web/kinds.json``), which mirrors the service's kind registry, and the
site's icon, which browsers ask for at ``/favicon.ico`` whatever a page links."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from app.api.games.schemas import GameShapes
from app.records.formats import FORMATS

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
INDEX = (WEB_DIR / "index.html").read_text(encoding="utf-8")
ICON = WEB_DIR / "favicon.svg"  # the page links it; /favicon.ico answers it too

# The page loads only its own modules and stylesheet and talks only to this service.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

router = APIRouter(include_in_schema=False)


def page_kinds(shapes: GameShapes) -> list[dict[str, object]]:
    """Every kind the app serves, in its order, as the page loads it: its name (``game``) and
    title, its page facts (``Face.page``), its page module, whether a creation body without
    ``game`` makes it (``default``), the row its square names number 1 (``row_one``: the page
    finds a refused move's square by it) and the community formats its records are read and
    written in (``formats``: the page offers them for download and for checking), each with
    the creation parameters an audit may give beside a record in it (``given``: those the
    format cannot carry, which the game checker asks for)."""
    return [
        {
            "game": kind.name,
            "title": kind.face.title,
            "module": f"/web/kinds/{kind.name}.js",
            **kind.face.page,
            "default": kind.name == shapes.default,
            "row_one": kind.face.row_one,
            "formats": list(kind.face.formats),
            "given": {name: sorted(FORMATS[name].given) for name in kind.face.formats},
        }
        for kind in shapes.kinds
    ]


@router.get("/")
async def play_page() -> HTMLResponse:
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
    return HTMLResponse(INDEX, headers=headers)


@router.get("/web/kinds.json")
async def play_page_kinds(request: Request) -> JSONResponse:
    # Revalidated as the page itself is: it changes when the service learns a kind.
    kinds = page_kinds(request.app.state.games)
    return JSONResponse(kinds, headers={"Cache-Control": "no-cache"})


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    # An SVG under the name browsers ask for: they read an icon by its type, not its name.
    return FileResponse(ICON, media_type="image/svg+xml")


def mount_web(app: FastAPI) -> None:
    app.include_router(router)  # before the mount, so that /web/kinds.json is this router's
    app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
