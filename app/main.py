"""Builds the ASGI application: ``create_app(settings)``, and ``app`` for ``app.main:app``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from app import __doc__ as summary
from app.api import operations, reversi, tictactoe
from app.api.docs import build_openapi, mount_docs
from app.body_limit import BodyLimitMiddleware
from app.problems import install_problem_handlers
from app.settings import Settings

DESCRIPTION = """\
Referees board-game moves so that frontends and other programs need not implement the rules.

* **Reversi/Othello** (stateless): legality, flips, all legal moves, the board after a move.
* **Tic-tac-toe position check** (stateless): can an n × n position with k in a row occur in a
  legal game, and whose turn is it?

Every error is `application/problem+json` with a stable `code` to branch on.
"""

TAGS = [
    {
        "name": "Reversi",
        "description": "Stateless Reversi/Othello adjudication, boards 1×1 to 32×32.",
    },
    {"name": "Tic-tac-toe", "description": "Stateless n × n tic-tac-toe position check."},
    {"name": "Operations", "description": "Health, readiness and error-type descriptions."},
]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    app = FastAPI(
        title="Move adjudication API",
        version="1.0.0",
        summary=summary,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    install_problem_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.include_router(reversi.router)
    app.include_router(tictactoe.router)
    app.include_router(operations.router)
    mount_docs(app)

    def openapi() -> dict[str, Any]:
        return build_openapi(app)

    app.openapi = openapi  # type: ignore[method-assign]
    return app


app = create_app()
