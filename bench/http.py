"""HTTP throughput and latency of every endpoint, next to two ceilings, in one run.

    python -m bench.http [--duration 3] [--rounds 3] [--connections 8] [--only TEXT]

Three uvicorn processes are pinned to core 0 (``taskset``): the service, a raw ASGI app and a
bare FastAPI app (``bench/ceilings.py``); the load generator ``wrk`` (Debian package) runs
pinned to core 1 (with ``--generator python``, or without wrk: the bounded asyncio generator
of ``bench/loadgen.py``). Every scenario runs ``--duration`` seconds, in ``--rounds`` rounds that
cycle through all scenarios; the bare FastAPI GET ceiling runs again right before every
scenario, so each ratio compares two runs seconds apart on a shared, noisy machine. The table
reports medians of requests/s, p50 and p99 latency, and of those paired ratios.

Each wrk thread holds one connection (``-t C -c C``), so a thread plays its own game in order:
the move scenario sends only legal moves (games with n = 1,000,000 never end in a run).
All traffic stays on 127.0.0.1; every process is stopped at the end.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from app.api.reversi import CLASSIC_BOARD
from app.rules.reversi import OPENING
from bench.loadgen import Request, load

SERVERS = {
    "raw": "bench.ceilings:raw_app",
    "fastapi": "bench.ceilings:fastapi_app",
    "service": "app.main:app",
}

STATIC_LUA = """
wrk.method = "{method}"
wrk.headers["Content-Type"] = "application/json"
{headers}
local f = io.open("{body_path}", "rb")
if f then wrk.body = f:read("*a"); f:close() end
"""

MOVES_LUA = """
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
end
function init(args)
  local spec = args[index]
  id, t1, t2 = spec:match("([^,]+),([^,]+),([^,]+)")
  -- wrk calls request() once on the first thread to verify the script, without sending it
  i = (index == 1) and -1 or 0
end
function request()
  local row, col = math.floor(i / 1000), i % 1000
  local token = (i % 2 == 0) and t1 or t2
  i = i + 1
  return wrk.format("POST", "/v1/games/" .. id .. "/moves",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token},
    string.format('{"row":%d,"col":%d}', row, col))
end
"""


@dataclass
class Scenario:
    name: str
    server: str
    path: str
    method: str = "GET"
    body: object = None
    headers: dict[str, str] = field(default_factory=dict)
    items: int = 1  # questions answered per request (batch endpoints)
    moves: bool = False
    results: list[tuple[float, float, float]] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def pinned(core: int, command: list[str]) -> list[str]:
    if shutil.which("taskset") and (os.cpu_count() or 1) >= 2:
        return ["taskset", "-c", str(core), *command]
    return command


@contextmanager
def servers() -> Iterator[dict[str, str]]:
    processes, urls = [], {}
    try:
        for name, target in SERVERS.items():
            port = free_port()
            command = [
                sys.executable,
                "-m",
                "uvicorn",
                target,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--no-access-log",
            ]
            # The bench creates many games from one address: no per-client creation limit.
            env = {**os.environ, "ADJUDICATOR_CREATE_RATE_PER_MINUTE": "0"}
            processes.append(subprocess.Popen(pinned(0, command), env=env))
            urls[name] = f"http://127.0.0.1:{port}"
        for url in urls.values():
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(url + "/", timeout=1)
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{url} did not start") from None
                    time.sleep(0.05)
        yield urls
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)


def new_game(url: str, n: int = 1_000_000) -> dict[str, object]:
    game: dict[str, object] = httpx.post(f"{url}/v1/games", json={"n": n}).json()
    return game


def scenarios(service: str) -> list[Scenario]:
    board_100 = ["X" + "." * 99] + ["." * 100] * 99
    game = new_game(service)
    tokens = game["tokens"]
    assert isinstance(tokens, dict)
    httpx.post(
        f"{service}/v1/games/{game['id']}/moves",
        json={"row": 0, "col": 0},
        headers={"Authorization": f"Bearer {tokens['1']}"},
    )
    etag = httpx.get(f"{service}/v1/games/{game['id']}").headers["etag"]
    opening = list(OPENING)
    queries = [{"row": i // 8 % 8, "col": i % 8, "color": "BW"[i % 2]} for i in range(1000)]
    boards = [{"board": ["XOX", "O O", "XOX"]}, {"board": ["XXX", "OO.", "..."]}] * 500
    return [
        Scenario("ceiling: raw ASGI", "raw", "/"),
        Scenario("ceiling: bare FastAPI GET", "fastapi", "/ping"),
        Scenario(
            "reference: plain FastAPI POST, Pydantic 8×8 body",
            "fastapi",
            "/board",
            "POST",
            {"board": opening, "row": 2, "col": 3, "color": "B"},
        ),
        Scenario("GET /healthz", "service", "/healthz"),
        Scenario(
            "POST reversi/check-move (8×8 strings)",
            "service",
            "/v1/reversi/check-move",
            "POST",
            {"board": opening, "row": 2, "col": 3, "color": "B"},
        ),
        Scenario(
            "POST reversi/check-move (8×8 cell lists)",
            "service",
            "/v1/reversi/check-move",
            "POST",
            {"board": CLASSIC_BOARD, "row": 4, "col": 3, "color": "B"},
        ),
        Scenario(
            "POST reversi/legal-moves (8×8)",
            "service",
            "/v1/reversi/legal-moves",
            "POST",
            {"board": opening, "color": "B"},
        ),
        Scenario(
            "POST reversi/apply-move (8×8)",
            "service",
            "/v1/reversi/apply-move",
            "POST",
            {"board": opening, "row": 2, "col": 3, "color": "B"},
        ),
        Scenario(
            "POST tictactoe/validate (3×3)",
            "service",
            "/v1/tictactoe/validate",
            "POST",
            {"board": ["XOX", "O O", "XOX"]},
        ),
        Scenario(
            "POST tictactoe/validate (100×100, k=5)",
            "service",
            "/v1/tictactoe/validate",
            "POST",
            {"board": board_100, "k": 5},
        ),
        Scenario(
            "POST reversi/check-moves (1,000 queries)",
            "service",
            "/v1/reversi/check-moves",
            "POST",
            {"board": opening, "queries": queries},
            items=len(queries),
        ),
        Scenario(
            "POST tictactoe/validate-batch (1,000 × 3×3)",
            "service",
            "/v1/tictactoe/validate-batch",
            "POST",
            {"items": boards},
            items=len(boards),
        ),
        Scenario("GET game (200)", "service", f"/v1/games/{game['id']}"),
        Scenario(
            "GET game (If-None-Match → 304)",
            "service",
            f"/v1/games/{game['id']}",
            headers={"If-None-Match": etag},
        ),
        Scenario("GET game moves?since=0", "service", f"/v1/games/{game['id']}/moves"),
        Scenario("POST games/{id}/moves", "service", "/v1/games/{id}/moves", "POST", moves=True),
    ]


LATENCY = re.compile(r"^\s*(50|99)%\s+([\d.]+)(us|ms|s)\s*$", re.M)
UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


def run_wrk(
    url: str, scenario: Scenario, connections: int, duration: float, workdir: Path
) -> tuple[float, float, float]:
    script = workdir / "script.lua"
    extra: list[str] = []
    if scenario.moves:
        script.write_text(MOVES_LUA)
        games = [new_game(url) for _ in range(connections)]
        extra = ["--", *(f"{g['id']},{g['tokens']['1']},{g['tokens']['2']}" for g in games)]  # type: ignore[index]
    else:
        body_path = workdir / "body.json"
        body_path.write_bytes(b"" if scenario.body is None else json.dumps(scenario.body).encode())
        headers = "\n".join(
            f'wrk.headers["{k}"] = {json.dumps(v)}' for k, v in scenario.headers.items()
        )
        script.write_text(
            STATIC_LUA.format(method=scenario.method, headers=headers, body_path=body_path)
        )
    command = [
        "wrk",
        f"-t{connections}",
        f"-c{connections}",
        f"-d{duration:g}s",
        "--latency",
        "-s",
        str(script),
        url + scenario.path,
        *extra,
    ]
    output = subprocess.run(pinned(1, command), capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in output or "Socket errors" in output:
        raise RuntimeError(f"{scenario.name}: errors during the run\n{output}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    latency = {p: float(v) * UNITS[u] for p, v, u in LATENCY.findall(output)}
    return rps, latency["50"], latency["99"]


def run_python(
    url: str, scenario: Scenario, connections: int, duration: float, workdir: Path
) -> tuple[float, float, float]:
    """The same measurement with bench/loadgen.py (for machines without wrk)."""
    host, port = url.removeprefix("http://").split(":")
    headers = {"Content-Type": "application/json", **scenario.headers}
    body = b"" if scenario.body is None else json.dumps(scenario.body).encode()

    def requests_for(index: int) -> Iterator[Request]:
        if not scenario.moves:
            while True:
                yield scenario.method, scenario.path, headers, body
        game = new_game(url)
        tokens = game["tokens"]
        assert isinstance(tokens, dict)
        for i in itertools.count():
            move = json.dumps({"row": i // 1000, "col": i % 1000}).encode()
            auth = {**headers, "Authorization": f"Bearer {tokens['1' if i % 2 == 0 else '2']}"}
            yield "POST", f"/v1/games/{game['id']}/moves", auth, move

    result = load(host, int(port), requests_for, connections, duration)
    if result.errors:
        raise RuntimeError(f"{scenario.name}: {result.errors} error answers during the run")
    return result.requests_per_second, result.p50_ms, result.p99_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--only", default="", help="run scenarios whose name contains this")
    parser.add_argument(
        "--generator",
        choices=["wrk", "python"],
        default="wrk" if shutil.which("wrk") else "python",
        help="load generator (default: wrk when installed, else bench/loadgen.py)",
    )
    args = parser.parse_args()
    run = run_wrk
    if args.generator == "python":
        run = run_python
        if (os.cpu_count() or 1) >= 2:
            os.sched_setaffinity(0, {1})  # the generator on core 1, servers on core 0
    with servers() as urls, tempfile.TemporaryDirectory() as tmp:
        chosen = [
            s for s in scenarios(urls["service"]) if s.server != "service" or args.only in s.name
        ]
        ceiling = next(s for s in chosen if s.name.startswith("ceiling: bare"))
        for _ in range(args.rounds):
            for scenario in chosen:
                if scenario is not ceiling:
                    # The ceiling runs right before each scenario: the pair sees the same
                    # machine, and the ratio of the pair is what the table reports.
                    ceiling.results.append(
                        run(urls["fastapi"], ceiling, args.connections, args.duration, Path(tmp))
                    )
                    result = run(
                        urls[scenario.server], scenario, args.connections, args.duration, Path(tmp)
                    )
                    scenario.results.append(result)
                    scenario.ratios.append(result[0] / ceiling.results[-1][0])
    print(
        f"{args.generator}, {args.connections} connections, {args.duration:g} s per run, "
        f"{args.rounds} rounds; "
        "medians. ratio: req/s ÷ the bare FastAPI GET run just before it (median of pairs)\n"
    )
    print("| scenario | req/s | items/s | p50 ms | p99 ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for s in chosen:
        rps = statistics.median(r[0] for r in s.results)
        p50 = statistics.median(r[1] for r in s.results)
        p99 = statistics.median(r[2] for r in s.results)
        ratio = f"{statistics.median(s.ratios):.2f}" if s.ratios else "1.00"
        if s.items > 1:
            ratio = "—"  # batches answer many questions per request: compare items/s
        print(f"| {s.name} | {rps:,.0f} | {rps * s.items:,.0f} | {p50:.2f} | {p99:.2f} | {ratio} |")


if __name__ == "__main__":
    main()
