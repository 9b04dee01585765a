"""Game sessions by store: memory, one Redis and a three-primary Redis Cluster, with 1 and 2
worker processes on each networked store, in one run.

    python -m bench.stores [--duration 3] [--rounds 3] [--connections 8]

Starts a redis-server and a Redis Cluster of three primaries (no persistence, no replicas) and
five service configurations on loopback ports — memory store with 1 worker, Redis with 1 and 2
workers, the cluster with 1 and 2 workers — and loads each with wrk in turn, round after round:
every thread plays its own game with legal moves (``POST …/moves``), then polls one game
(``GET /v1/games/{id}``). Reports medians and the ratio to the memory store.

On this 2-core machine one worker is pinned to core 0 and the Redis servers and wrk share core
1; two workers take both cores, competing with wrk and Redis. So the 2-worker figures show what
a second process costs and gains here, and the cluster's what its client costs (the three
primaries share one core), not how either would scale on a larger machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import redis

from bench.http import Scenario, free_port, new_game, run_wrk
from tests.servers import NO_CLIENT_LIMITS, Cluster, redis_cluster


def pin(cores: str, command: list[str]) -> list[str]:
    if shutil.which("taskset") and (os.cpu_count() or 1) >= 2:
        return ["taskset", "-c", cores, *command]
    return command


def wait_until(probe: str, what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(probe, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not start")


@contextmanager
def process(command: list[str], env: dict[str, str] | None = None) -> Iterator[None]:
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=15)


@contextmanager
def redis_server(directory: str) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        sys.exit("redis-server is required: apt-get install -y redis-server")
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", directory, "--loglevel", "warning"]  # fmt: skip
    with process(pin("1", command)):
        deadline = time.monotonic() + 15
        while (
            subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True, check=False
            ).stdout.strip()
            != b"PONG"
        ):
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"


def service(stack: ExitStack, store_url: str, workers: int) -> str:
    port = free_port()
    env = {
        **os.environ,
        "ADJUDICATOR_STORE_URL": store_url,
        **NO_CLIENT_LIMITS,
    }
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
               "--port", str(port), "--log-level", "warning", "--no-access-log",
               "--workers", str(workers)]  # fmt: skip
    stack.enter_context(process(pin("0" if workers == 1 else "0,1", command), env))
    url = f"http://127.0.0.1:{port}"
    wait_until(f"{url}/readyz", url)
    return url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is required: apt-get install -y wrk")
    results: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        store = stack.enter_context(redis_server(tmp))
        cluster = stack.enter_context(redis_cluster(Path(tmp, "cluster")))
        for node in cluster.nodes:  # on the core of the single Redis and wrk
            if node.process is not None and pin("1", []):
                pid = str(node.process.pid)
                subprocess.run(["taskset", "-a", "-c", "-p", "1", pid], stdout=subprocess.DEVNULL)
        configs = {
            "memory, 1 worker": service(stack, "memory://", 1),
            "Redis, 1 worker": service(stack, store, 1),
            "Redis, 2 workers": service(stack, store, 2),
            "Cluster ×3, 1 worker": service(stack, cluster.url, 1),
            "Cluster ×3, 2 workers": service(stack, cluster.url, 2),
        }
        polled = {name: new_game(url) for name, url in configs.items()}
        for _ in range(args.rounds):
            for name, url in configs.items():
                scenarios = [
                    Scenario("POST …/moves", "service", "/v1/games/{id}/moves", "POST", moves=True),
                    Scenario("GET game (poll)", "service", f"/v1/games/{polled[name]['id']}"),
                ]
                for scenario in scenarios:
                    result = run_wrk(url, scenario, args.connections, args.duration, Path(tmp))
                    results.setdefault((scenario.name, name), []).append(result)
        # What each store did per script call, on its own core: the part of a move that more
        # primaries divide among them.
        server_time = {
            "Redis": script_usec([store]),
            "Cluster ×3": script_usec(cluster_urls(cluster)),
        }
    print(f"{args.connections} connections, {args.duration} s per run, {args.rounds} rounds; "
          "medians; ratio to the memory store\n")  # fmt: skip
    print("| scenario | store | req/s | p50 ms | p99 ms | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for scenario_name in ("POST …/moves", "GET game (poll)"):
        base = statistics.median(r[0] for r in results[(scenario_name, "memory, 1 worker")])
        for config in configs:
            runs = results[(scenario_name, config)]
            rps = statistics.median(r[0] for r in runs)
            p50 = statistics.median(r[1] for r in runs)
            p99 = statistics.median(r[2] for r in runs)
            print(f"| {scenario_name} | {config} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | "
                  f"{rps / base:.2f} |")  # fmt: skip
    print()
    for name, usec in server_time.items():
        print(f"{name}: {usec:.1f} µs of server time per script call (INFO commandstats)")


def cluster_urls(cluster: Cluster) -> list[str]:
    return [f"redis://127.0.0.1:{node.port}/0" for node in cluster.nodes]


def script_usec(urls: list[str]) -> float:
    """Microseconds a Redis server spent per script call (EVALSHA), over the servers' calls."""
    calls = usec = 0
    for url in urls:
        stats = redis.Redis.from_url(url).info("commandstats")
        for name in ("cmdstat_evalsha", "cmdstat_eval"):
            calls += stats.get(name, {}).get("calls", 0)
            usec += stats.get(name, {}).get("usec", 0)
    return usec / max(calls, 1)


if __name__ == "__main__":
    main()
