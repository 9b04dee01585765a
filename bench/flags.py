"""Ten thousand flags falling within one second, on both stores: what a polite client sees
meanwhile, and whether every flag was recorded at its instant.

    python -m bench.flags [--games 10000] [--stores memory,redis]

Starts the ``adjudicator`` command (the memory store; then a redis-server it starts and the
Redis store) and makes ``--games`` clocked tic-tac-toe games, each with its two untimed first
moves made (the clock of player 1 then runs): each game's initial time is chosen at its
creation, in whole seconds, so that every flag falls within the same second, a few seconds
after the last game is made. Nobody reads those games until then. A polite client (one
keep-alive connection, one request at a time: the state of a game of its own, then a move in
it) measures its latency during a quiet second before the flags, and during the second they
fall. Then every game is read: it must be lost on time, its state's ``at`` (the instant of its
last change) its deadline exactly.

Reports the polite client's p50 and p99 in each second, the p99 ratio (goal: at most 2), and
the flags recorded at their instant.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import datetime

import httpx

from bench.hostile import adjudicator, redis_url
from tests.servers import NO_CLIENT_LIMITS

MARGIN_SECONDS = 4  # between the last game made and the second the flags fall


def ms(instant: str) -> int:
    return round(datetime.fromisoformat(instant).timestamp() * 1000)


def made_games(client: httpx.Client, count: int, falls_at: float) -> Iterator[tuple[str, int]]:
    """``count`` games whose flags fall within the second before ``falls_at`` (epoch seconds):
    each game's id and deadline (ms)."""
    for _ in range(count):
        initial = math.floor(falls_at - time.time())
        game = client.post("/v1/games", json={"n": 3, "clock": {"initial_seconds": initial}})
        created = game.json()
        path = f"/v1/games/{created['id']}/moves"
        for player, cell in (("1", {"row": 0, "col": 0}), ("2", {"row": 1, "col": 1})):
            token = {"Authorization": f"Bearer {created['tokens'][player]}"}
            answer = client.post(path, json=cell, headers=token)
        yield created["id"], ms(answer.json()["state"]["clock"]["deadline"])


def polite(client: httpx.Client, start: float, end: float) -> list[float]:
    """A polite client's latencies (s) from ``start`` to ``end`` (epoch seconds): the state of
    a game of its own, then a move in it, one at a time."""
    while time.time() < start:
        time.sleep(0.001)
    latencies = []
    while time.time() < end:
        game = client.post("/v1/games", json={"n": 30, "k": 5}).json()
        path = f"/v1/games/{game['id']}"
        began = time.perf_counter()
        client.get(path)
        latencies.append(time.perf_counter() - began)
        token = {"Authorization": f"Bearer {game['tokens']['1']}"}
        began = time.perf_counter()
        client.post(f"{path}/moves", json={"row": 0, "col": 0}, headers=token)
        latencies.append(time.perf_counter() - began)
    return latencies


def p(latencies: list[float], q: float) -> float:
    return statistics.quantiles(latencies, n=100)[q - 1] if len(latencies) > 1 else latencies[0]


def run(url: str, games: int) -> dict[str, object]:
    with (
        httpx.Client(base_url=url, timeout=30) as client,
        httpx.Client(base_url=url, timeout=30) as other,
    ):
        estimate = games * 0.004 + MARGIN_SECONDS  # a generous guess of the making's length
        falls_at = math.ceil(time.time() + estimate)
        made = list(made_games(client, games, falls_at))
        deadlines = [deadline for _, deadline in made]
        first, last = min(deadlines) / 1000, max(deadlines) / 1000
        assert time.time() < first - 1.5, "the games took longer to make than guessed"
        quiet = polite(other, first - 1.5, first - 0.5)
        falling = polite(other, first, last)
        time.sleep(max(0.0, last - time.time()) + 0.2)
        at_instant = 0
        for game_id, deadline in made:
            state = client.get(f"/v1/games/{game_id}").json()
            at_instant += state["reason"] == "timeout" and ms(state["at"]) == deadline
    return {
        "spread_ms": max(deadlines) - min(deadlines),
        "quiet": quiet,
        "falling": falling,
        "at_instant": at_instant,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--stores", default="memory,redis")
    args = parser.parse_args()
    rows = []
    with ExitStack() as stack:
        for store in args.stores.split(","):
            env = dict(NO_CLIENT_LIMITS)
            env["ADJUDICATOR_MAX_GAMES"] = str(args.games * 2)
            if store == "redis":
                env["ADJUDICATOR_STORE_URL"] = stack.enter_context(redis_url())
            server = stack.enter_context(adjudicator(env))
            rows.append((store, run(server.url, args.games)))
    print(f"{args.games:,} clocked games whose flags fall within one second\n")
    print(
        "| store | flags' spread | polite p50 / p99, quiet | polite p50 / p99, flags falling "
        "| p99 ratio | flags at their instant |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for store, row in rows:
        quiet, falling = row["quiet"], row["falling"]
        assert isinstance(quiet, list)
        assert isinstance(falling, list)
        ratio = p(falling, 99) / p(quiet, 99)
        print(
            f"| {store} | {row['spread_ms']} ms | {p(quiet, 50) * 1e3:.2f} / "
            f"{p(quiet, 99) * 1e3:.2f} ms | {p(falling, 50) * 1e3:.2f} / "
            f"{p(falling, 99) * 1e3:.2f} ms | {ratio:.2f} | {row['at_instant']:,} of "
            f"{args.games:,} |"
        )


if __name__ == "__main__":
    main()
