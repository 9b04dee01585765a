"""Load without loss: many clients play many games at once, resending and duplicating moves.

    python -m bench.load [--clients 32] [--games 10] [--store memory|redis] [--seed 1]

Starts a real service (and, for ``--store redis``, a redis-server) on loopback. Each client plays
its games move by move with both players' tokens; every move carries an ``Idempotency-Key``.
With some probability a move is sent again after its answer (as after a lost response) or twice
at once (a duplicate send); every copy must get the same answer. Afterwards each game's move
list must equal exactly the moves its client saw accepted: nothing lost, nothing doubled.
Prints throughput (answers per second) and p50 / p99 latency. Bounded by the number of games.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

import httpx

from bench.http import free_port
from bench.stores import redis_server
from tests.servers import NO_CLIENT_LIMITS


@dataclass
class Report:
    answers: int = 0
    moves_accepted: int = 0
    resent: int = 0
    duplicated: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


async def _timed(report: Report, call: object) -> httpx.Response:
    start = time.perf_counter()
    response: httpx.Response = await call  # type: ignore[misc]
    report.latencies.append(time.perf_counter() - start)
    report.answers += 1
    return response


async def _play(http: httpx.AsyncClient, rng: random.Random, name: str, report: Report) -> None:
    n = rng.choice([3, 3, 4, 5])
    created = await _timed(report, http.post("/v1/games", json={"n": n}))
    if created.status_code != 201:
        report.problems.append(f"{name}: create answered {created.status_code}")
        return
    game, tokens = created.json()["id"], created.json()["tokens"]
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    accepted: list[dict[str, int]] = []
    for i, (row, col) in enumerate(cells):
        headers = {
            "Authorization": f"Bearer {tokens['1' if i % 2 == 0 else '2']}",
            "Idempotency-Key": f"{name}-{i}",
        }

        def send(headers: dict[str, str] = headers, row: int = row, col: int = col) -> object:
            return http.post(f"/v1/games/{game}/moves", json={"row": row, "col": col},
                             headers=headers)  # fmt: skip

        draw = rng.random()
        if draw < 0.15:  # two copies in flight at once
            answers = await asyncio.gather(_timed(report, send()), _timed(report, send()))
            report.duplicated += 1
        else:
            answers = [await _timed(report, send())]
            if draw < 0.35:  # the answer was "lost": send it again
                answers.append(await _timed(report, send()))
                report.resent += 1
        bodies = {(a.status_code, a.text) for a in answers}
        if len(bodies) != 1:
            report.problems.append(f"{name} move {i}: copies answered differently: {bodies}")
        first = answers[0]
        if first.status_code != 201:
            report.problems.append(f"{name} move {i}: {first.status_code} {first.text[:120]}")
            return
        body = first.json()
        accepted.append(body["move"])
        report.moves_accepted += 1
        if body["state"]["status"] != "in_progress":
            break
    stored = await _timed(report, http.get(f"/v1/games/{game}/moves"))
    if stored.json()["moves"] != accepted:
        report.problems.append(f"{name}: stored moves differ from the accepted ones")
    report.games += 1


async def run_load(base_url: str, clients: int, games: int, seed: int) -> Report:
    """Every client plays ``games`` games in turn; all clients at once."""
    report = Report()
    limits = httpx.Limits(max_connections=clients * 2)
    async with httpx.AsyncClient(base_url=base_url, timeout=30, limits=limits) as http:

        async def client(index: int) -> None:
            rng = random.Random(seed * 1000 + index)
            for game in range(games):
                await _play(http, rng, f"c{index}g{game}", report)

        await asyncio.gather(*(client(i) for i in range(clients)))
    return report


@contextmanager
def service(store_url: str) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "ADJUDICATOR_STORE_URL": store_url, **NO_CLIENT_LIMITS}  # fmt: skip
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
               "--port", str(port), "--log-level", "warning", "--no-access-log"]  # fmt: skip
    process = subprocess.Popen(command, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--store", choices=["memory", "redis"], default="memory")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        store = stack.enter_context(redis_server(tmp)) if args.store == "redis" else "memory://"
        url = stack.enter_context(service(store))
        started = time.perf_counter()
        report = asyncio.run(run_load(url, args.clients, args.games, args.seed))
        elapsed = time.perf_counter() - started
    latencies = sorted(report.latencies)
    print(f"{args.store} store, {args.clients} clients × {args.games} games: {report.games} games, "
          f"{report.moves_accepted} moves, {report.resent} resent, {report.duplicated} sent "
          f"twice at once")  # fmt: skip
    print(f"{report.answers / elapsed:,.0f} answers/s; p50 "
          f"{statistics.median(latencies) * 1e3:.2f} ms, p99 "
          f"{latencies[int(len(latencies) * 0.99)] * 1e3:.2f} ms")  # fmt: skip
    print("nothing lost, nothing doubled" if not report.problems else "\n".join(report.problems))
    if report.problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
