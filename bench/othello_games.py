"""Whole Othello games through live sessions: create, every move in square notation, the record.

    python -m bench.othello_games [--rounds 5] [--games 40] [--redis]

Real tournament games (the 1988 WTHOR file of ``tests/data``) are played end to end through the
ASGI app, in process (no sockets: the app's own work): ``POST /v1/games``, one ``POST …/moves``
a move (``{"square": "f5"}``, the player to move's token), then ``GET …/record``. Beside it, in
the same rounds, the same games without the record, so the record's own cost shows as a ratio.
Each round plays ``--games`` games on each flow, the order alternating between rounds; the
table gives games/s and µs a move (medians over rounds), and the median of the paired ratios.
``--redis`` runs both on a redis-server started on a free loopback port (needs the binary).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from app.main import create_app
from app.records.wthor import WthorGame, read_wthor
from app.settings import Settings
from bench.inprocess import Call, caller
from tests.servers import redis_server

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "WTH_1988.wtb"


def games(count: int) -> list[WthorGame]:
    _, read = read_wthor(DATA.read_bytes(), 10_000)
    return [game for game, _ in zip(read, range(count), strict=False)]


async def play(call: Call, game: WthorGame, record: bool) -> None:
    created = json.loads((await call("POST", "/v1/games", b'{"game": "reversi"}'))["body"])
    path, tokens, player = f"/v1/games/{created['id']}/moves", created["tokens"], 1
    for square in game.moves:
        bearer = ((b"authorization", f"Bearer {tokens[str(player)]}".encode()),)
        answer = await call("POST", path, json.dumps({"square": square}).encode(), bearer)
        assert answer["status"] == 201, answer
        player = json.loads(answer["body"])["state"]["next_player"] or player
    if record:
        answer = await call("GET", f"/v1/games/{created['id']}/record")
        assert answer["status"] == 200, answer


async def timed(call: Call, played: list[WthorGame], record: bool) -> float:
    started = time.perf_counter()
    for game in played:
        await play(call, game, record)
    return time.perf_counter() - started


async def measure(settings: Settings, rounds: int, count: int) -> dict[str, list[float]]:
    app = create_app(settings)
    call = caller(app)
    played = games(count)
    moves = sum(len(game.moves) for game in played)
    seconds: dict[str, list[float]] = {"with record": [], "moves only": []}
    async with app.router.lifespan_context(app):
        for index in range(rounds):
            order = [True, False] if index % 2 == 0 else [False, True]
            for record in order:
                spent = await timed(call, played, record)
                seconds["with record" if record else "moves only"].append(spent)
    print(f"{count} games, {moves} moves a round, {rounds} rounds, store {settings.store_url}")
    for name, spent in seconds.items():
        median = statistics.median(spent)
        print(f"  {name:12} {count / median:8.1f} games/s  {median / moves * 1e6:8.1f} µs a move")
    ratios = [a / b for a, b in zip(seconds["with record"], seconds["moves only"], strict=True)]
    print(f"  with record ÷ moves only: {statistics.median(ratios):.3f} (median of paired ratios)")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--redis", action="store_true", help="on a redis-server started here")
    args = parser.parse_args()
    with ExitStack() as stack:
        limits: dict[str, Any] = {  # one client makes every request: no per-client limit
            "create_rate_per_minute": 0, "client_cpu_ms_per_minute": 0, "client_share": 1,
            "history_moves_per_minute": 0, "max_total_moves": 10_000_000,
        }  # fmt: skip
        if args.redis:
            directory = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            limits["store_url"] = stack.enter_context(redis_server(directory))
        asyncio.run(measure(Settings(**limits), args.rounds, args.games))


if __name__ == "__main__":
    main()
