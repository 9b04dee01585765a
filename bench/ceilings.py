"""The two ceilings the service is measured against, served by the same uvicorn as the service.

* ``raw_app``: a bare ASGI callable answering a fixed JSON body — what uvicorn alone can do.
* ``fastapi_app``: a bare FastAPI app with one ``GET /ping`` returning a small dict — what the
  framework costs before any work of ours — and, for reference, ``POST /board``: the plain
  FastAPI way of taking an 8 × 8 board body (Pydantic model parameter), with no game logic.
"""

from __future__ import annotations

from fastapi import FastAPI
from pydantic import BaseModel
from starlette.types import Receive, Scope, Send

BODY = b'{"status":"ok"}'
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]


async def raw_app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] != "http":  # lifespan: accept startup and shutdown
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": BODY})


fastapi_app = FastAPI()


@fastapi_app.get("/ping")
async def ping() -> dict[str, str]:
    return {"status": "ok"}


class BoardQuery(BaseModel):
    board: list[str]
    row: int
    col: int
    color: str


@fastapi_app.post("/board")
async def board(query: BoardQuery) -> dict[str, bool]:
    """Plain FastAPI with a Pydantic board body: parses and answers, no game logic."""
    return {"legal": len(query.board) > query.row}
