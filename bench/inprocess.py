"""Per-request cost of the service's own code, against an older revision, in one interpreter.

    python -m bench.inprocess --baseline REV [--rounds 15] [--requests 300] [--store URL]

The ASGI app is driven directly (no server, no sockets), so the figure is the app's own work,
a few µs resolve. Both versions are loaded in this process: REV's ``app`` package is exported
with ``git archive`` into a temporary directory under the name ``app_baseline`` (its imports
rewritten to that name). Each round runs every request ``--requests`` times on each version,
back to back, the order alternating between rounds; the table gives medians over rounds and the
median of the paired ratios. ``--store redis://…`` runs both against a Redis of yours.
The Reversi move plays random legal 8 × 8 games chosen beforehand (``bench.kinds``), in games
created before the rounds, so a round times moves only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from app.rules.reversi import OPENING
from bench.kinds import reversi_games
from tests.servers import NO_CLIENT_LIMITS

Call = Callable[..., Awaitable[dict[str, Any]]]
IMPORTS = re.compile(r"\b(from|import) app\b")


def export(revision: str, into: Path) -> None:
    """REV's ``app`` package as ``app_baseline`` under ``into``."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "archive", revision, "app"], cwd=root, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "app").rename(into / "app_baseline")
    for path in (into / "app_baseline").rglob("*.py"):
        text = IMPORTS.sub(r"\1 app_baseline", path.read_text())
        # Package data read by name (the Redis store's scripts): the baseline's own.
        path.write_text(text.replace('files("app.', 'files("app_baseline.'))


def caller(app: Any) -> Call:
    async def call(
        method: str, path: str, body: bytes = b"", headers: tuple[tuple[bytes, bytes], ...] = ()
    ) -> dict[str, Any]:
        sent = [(b"host", b"bench"), *headers]
        if all(name != b"content-type" for name, _ in headers):  # JSON unless told
            sent.append((b"content-type", b"application/json"))
        if body:
            sent.append((b"content-length", str(len(body)).encode()))
        route, _, query = path.partition("?")
        scope = {
            "type": "http", "http_version": "1.1", "method": method, "path": route,
            "raw_path": route.encode(), "query_string": query.encode(), "headers": sent,
            "scheme": "http", "server": ("bench", 80), "client": ("127.0.0.1", 1),
            "root_path": "", "app": app,
        }  # fmt: skip
        delivered = False

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        answer: dict[str, Any] = {"body": b""}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        await app(scope, receive, send)
        return answer

    return call


Planned = tuple[str, bytes, tuple[bytes, bytes]]  # a move's path, body and Authorization


async def reversi_moves(call: Call, count: int) -> list[Planned]:
    """At least ``count`` legal Reversi moves, in order, in games created now."""
    moves: list[Planned] = []
    for script in reversi_games(count // 50 + 1, seed=5):
        created = json.loads((await call("POST", "/v1/games", b'{"game": "reversi"}'))["body"])
        path = f"/v1/games/{created['id']}/moves"
        for player, row, col in script:
            auth = (b"authorization", f"Bearer {created['tokens'][str(player)]}".encode())
            moves.append((path, json.dumps({"row": row, "col": col}).encode(), auth))
        if len(moves) >= count:
            break
    return moves


async def requests_of(app: Any, moves: int) -> dict[str, Callable[[], Awaitable[object]]]:
    """The requests measured, each bound to a game of its own app (``moves``: how many Reversi
    moves the rounds make)."""
    call = caller(app)
    created = json.loads((await call("POST", "/v1/games", b'{"n": 1000000}'))["body"])
    game, token = created["id"], created["tokens"]["1"]
    await call(
        "POST", f"/v1/games/{game}/moves", b'{"row":0,"col":0}',
        ((b"authorization", f"Bearer {token}".encode()),),
    )  # fmt: skip
    etag = f'"{game}.1"'.encode()
    check = json.dumps({"board": list(OPENING), "row": 2, "col": 3, "color": "B"}).encode()
    legal = json.dumps({"board": list(OPENING), "color": "B"}).encode()
    moving: dict[str, Any] = {"game": None, "next": 0}

    async def move() -> None:
        # A new game well before the store's move limit (10,000 a game by default: the game
        # is drawn there, and more than 33 rounds of 300 moves reached it).
        if moving["game"] is None or moving["next"] >= 9_000:
            fresh = json.loads((await call("POST", "/v1/games", b'{"n": 1000000}'))["body"])
            tokens = [f"Bearer {fresh['tokens'][p]}".encode() for p in ("1", "2")]
            moving.update(game=(fresh["id"], tokens), next=0)
        game_id, tokens = moving["game"]
        i = moving["next"]
        moving["next"] += 1
        body = json.dumps({"row": i // 1000, "col": i % 1000}).encode()
        answer = await call(
            "POST", f"/v1/games/{game_id}/moves", body, ((b"authorization", tokens[i % 2]),)
        )
        assert answer["status"] == 201, answer

    planned = iter(await reversi_moves(call, moves))

    async def reversi_move() -> None:
        path, body, auth = next(planned)
        answer = await call("POST", path, body, (auth,))
        assert answer["status"] == 201, answer

    return {
        "GET /healthz": lambda: call("GET", "/healthz"),
        "POST check-move 8×8": lambda: call("POST", "/v1/reversi/check-move", check),
        "POST legal-moves 8×8": lambda: call("POST", "/v1/reversi/legal-moves", legal),
        "POST apply-move 8×8": lambda: call("POST", "/v1/reversi/apply-move", check),
        "POST validate 3×3": lambda: call(
            "POST", "/v1/tictactoe/validate", b'{"board": ["XOX", "O O", "XOX"]}'
        ),
        "GET game (200)": lambda: call("GET", f"/v1/games/{game}"),
        "GET game (304)": lambda: call(
            "GET", f"/v1/games/{game}", headers=((b"if-none-match", etag),)
        ),
        "GET moves?since=0": lambda: call("GET", f"/v1/games/{game}/moves"),
        "POST moves": move,
        "POST moves (Reversi 8×8)": reversi_move,
    }


async def measure(apps: dict[str, ModuleType], rounds: int, requests: int) -> None:
    old, new = apps["baseline"].app, apps["service"].app
    async with old.router.lifespan_context(old), new.router.lifespan_context(new):
        moves = rounds * requests
        sides = {
            "baseline": await requests_of(old, moves),
            "service": await requests_of(new, moves),
        }
        times: dict[str, dict[str, list[float]]] = {side: {} for side in sides}
        ratios: dict[str, list[float]] = {}
        for round_ in range(rounds):
            order = ["baseline", "service"] if round_ % 2 == 0 else ["service", "baseline"]
            for name in sides["service"]:
                got = {}
                for side in order:
                    request = sides[side][name]
                    started = time.perf_counter()
                    for _ in range(requests):
                        await request()
                    got[side] = (time.perf_counter() - started) / requests * 1e6
                    times[side].setdefault(name, []).append(got[side])
                ratios.setdefault(name, []).append(got["service"] / got["baseline"])
    print(f"median of {rounds} paired rounds, {requests} requests each\n")
    print("| request | baseline µs | service µs | service ÷ baseline |")
    print("|---|---:|---:|---:|")
    for name, paired in ratios.items():
        before = statistics.median(times["baseline"][name])
        after = statistics.median(times["service"][name])
        print(f"| {name} | {before:.1f} | {after:.1f} | {statistics.median(paired):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="a git revision")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--store", default="memory://")
    args = parser.parse_args()
    os.environ.update(NO_CLIENT_LIMITS)
    os.environ["ADJUDICATOR_STORE_URL"] = args.store
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        export(args.baseline, Path(tmp))
        sys.path.insert(0, tmp)
        import app_baseline.main as baseline  # type: ignore[import-not-found]

        import app.main as service

        asyncio.run(measure({"baseline": baseline, "service": service}, args.rounds, args.requests))


if __name__ == "__main__":
    main()
