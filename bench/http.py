"""HTTP throughput and latency of every endpoint, next to two ceilings, in one run.

    python -m bench.http [--duration 3] [--rounds 3] [--connections 8] [--only TEXT ...]
                         [--baseline REV] [--metered]

Three uvicorn processes are pinned to core 0 (``taskset``): the service, a raw ASGI app and a
bare FastAPI app (``bench/ceilings.py``); the load generator ``wrk`` (Debian package) runs
pinned to core 1 (with ``--generator python``, or without wrk: the bounded asyncio generator
of ``bench/loadgen.py``). Every scenario runs ``--duration`` seconds, in ``--rounds`` rounds that
cycle through all scenarios; the bare FastAPI GET ceiling runs again right before every
scenario, so each ratio compares two runs seconds apart on a shared, noisy machine. The table
reports medians of requests/s, p50 and p99 latency, and of those paired ratios.

``--baseline REV`` (a branch, ``main~3``, a sha) measures a change against the code before it in
the same run: ``git archive REV`` is unpacked into a temporary directory and a fourth uvicorn
process, also on core 0, serves that directory's ``app.main:app`` (each over the HTTP protocol
of its own ``app/server.py``, where it has one: the service as the ``adjudicator`` command serves
it). Every service scenario then
also runs against it, the two back to back (who goes first alternates between rounds), and the
table adds the baseline's req/s and ``vs baseline``: the median over rounds of service ÷
baseline req/s of those adjacent runs. Each server gets its own games; the baseline runs on this
environment's installed packages, and ``BOOTSTRAP`` checks it imports its own ``app``.

Each wrk thread holds one connection (``-t C -c C``), so a thread plays its own game in order:
the move scenario sends only legal moves (games with n = 1,000,000 never end in a run).
All traffic stays on 127.0.0.1; every process is stopped at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import random
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

from app.kinds.reversi.questions import CLASSIC_BOARD
from app.rules import reversi
from app.rules.reversi import OPENING
from bench.loadgen import Request, load
from tests.servers import NO_CLIENT_LIMITS

ROOT = Path(__file__).resolve().parents[1]  # the checkout this bench belongs to

SERVERS = {
    "raw": "bench.ceilings:raw_app",
    "fastapi": "bench.ceilings:fastapi_app",
    "service": "app.main:app",
}

# The service and the baseline run uvicorn through this bootstrap: ``python -c BOOTSTRAP ROOT
# <uvicorn arguments>``. The current checkout is pip-installed in editable mode, whose finder
# (``__editable___adjudicator_*_finder``) maps ``app`` to the current checkout wherever Python
# runs. It is appended to ``sys.meta_path``, after the ordinary path finder, so a directory
# early on ``sys.path`` wins (``python -I`` would drop PYTHONPATH and let the finder win). The
# bootstrap puts ROOT first on ``sys.path`` (cwd and PYTHONPATH are ROOT too), imports
# ``app.main``, and refuses to serve unless every ``app`` module it loaded comes from ROOT:
# the check runs in the very process that serves, so the baseline cannot silently be the
# current code. uvicorn then finds ``app.main`` already imported.
BOOTSTRAP = """
import sys
from pathlib import Path
root = Path(sys.argv.pop(1)).resolve()
sys.path.insert(0, str(root))
import app.main
for name, module in sorted(sys.modules.items()):
    file = getattr(module, "__file__", None)
    if (name == "app" or name.startswith("app.")) and file:
        if not Path(file).resolve().is_relative_to(root):
            sys.exit(f"bench: {name} was imported from {file}, not from {root}")
import uvicorn
uvicorn.main()
"""

STATIC_LUA = """
wrk.method = "{method}"
wrk.headers["Content-Type"] = "application/json"
{headers}
local f = io.open("{body_path}", "rb")
if f then wrk.body = f:read("*a"); f:close() end
"""

# Reversi moves: each thread plays its list of (game, token, row, col), legal moves of random
# games chosen beforehand with the rules engine (games in order, each to its end).
# Each wrk thread learns its number (1, 2, …), to take its own game or plan.
THREAD_INDEX_LUA = """
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
end
"""
REVERSI_LUA = (
    THREAD_INDEX_LUA
    + """
function init(args)
  dofile(args[1])
  plan = PLANS[index]
  i = (index == 1) and 0 or 1  -- wrk calls request() once on thread 1 to check the script
end
function request()
  local step = plan[i]
  if i == 0 then step = plan[1] end
  i = i + 1
  return wrk.format("POST", "/v1/games/" .. step[1] .. "/moves",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. step[2]},
    string.format('{"row":%d,"col":%d}', step[3], step[4]))
end
"""
)

MOVES_LUA = (
    THREAD_INDEX_LUA
    + """
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
)


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
    reversi: bool = False  # Reversi session moves, from games played beforehand (see REVERSI_LUA)
    results: list[tuple[float, float, float]] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    twin: Scenario | None = None  # the same scenario against the baseline (--baseline)
    vs_baseline: list[float] = field(default_factory=list)


# The first game of the WTHOR database's 1988 file (tests/data/WTH_1988.wtb), a transcript.
GAME_1988 = (
    "f5f6e6f4g6d6e3f3g4g5d3e2c5f7h5e7c6d7c3h3h4g3d2h6c8c4c2f2e1f1e8f8d8b5a5b6b3a4b4c7a3b8h7"
    "d1h2c1b2b1a1a2g1g7h8g8a8a6b7a7g2"
)


def renju_position(stones: int, seed: int = 15) -> list[str]:
    """A 15 × 15 position of ``stones`` stones, alternately black and white, on random points
    of the centre 11 × 11 (where games are played), h8 left empty."""
    rng = random.Random(seed)
    points = [(r, c) for r in range(2, 13) for c in range(2, 13) if (r, c) != (7, 7)]
    grid = [["."] * 15 for _ in range(15)]
    for index, (row, col) in enumerate(rng.sample(points, stones)):
        grid[row][col] = "BW"[index % 2]
    return ["".join(line) for line in grid]


RENJU_40 = renju_position(40)


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
def exported(rev: str) -> Iterator[tuple[Path, str]]:
    """The tree of ``rev`` unpacked into a temporary directory (nothing is left in the repo)."""
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        archive = subprocess.Popen(
            ["git", "-C", str(ROOT), "archive", "--format=tar", sha], stdout=subprocess.PIPE
        )
        subprocess.run(["tar", "-x", "-C", tmp], stdin=archive.stdout, check=True)
        assert archive.stdout is not None
        archive.stdout.close()
        if archive.wait() != 0:
            raise RuntimeError(f"git archive {sha} failed")
        yield Path(tmp), sha


def bounded_protocol_of(root: Path) -> str | None:
    """Plain uvicorn's ``--http`` value for the bounded protocol of the code in ``root``, as its
    ``app/server.py`` names it (``BOUNDED_PROTOCOL``; the first trees with the protocol had no
    name for it), or None for code from before the protocol."""
    server = root / "app" / "server.py"
    if not server.exists():
        return None
    named = re.search(r'^BOUNDED_PROTOCOL = "([^"]+)"', server.read_text(), re.MULTILINE)
    return named[1] if named else "app.server:BoundedHttpToolsProtocol"


# ``--metered``: each client's share of the work metered as shipped, but too large for the bench's
# one address to use up (``NO_CLIENT_LIMITS`` turns the metering off).
METERED = {
    "ADJUDICATOR_CLIENT_CPU_MS_PER_MINUTE": "1000000000",
    "ADJUDICATOR_CLIENT_CPU_BURST_MS": "1000000000",
}


@contextmanager
def servers(baseline: Path | None = None, metered: bool = False) -> Iterator[dict[str, str]]:
    processes: dict[str, subprocess.Popen[bytes]] = {}
    urls: dict[str, str] = {}
    # The service archives finished games as shipped (into SQLite), but not into the checkout.
    scratch = Path(tempfile.mkdtemp(prefix="bench-http-"))
    targets = {name: (target, ROOT) for name, target in SERVERS.items()}
    if baseline is not None:
        targets["baseline"] = ("app.main:app", baseline)
    try:
        for name, (target, root) in targets.items():
            port = free_port()
            # The bench sends everything from one address: no per-client limits.
            env = {
                **os.environ, **NO_CLIENT_LIMITS, **(METERED if metered else {}),
                "ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{scratch / f'{name}.sqlite3'}",
            }  # fmt: skip
            cwd = None
            launch = [sys.executable, "-m", "uvicorn"]
            if name in ("service", "baseline"):
                # Each imports ITS app package from its root: see BOOTSTRAP.
                launch = [sys.executable, "-c", BOOTSTRAP, str(root)]
                env["PYTHONPATH"] = cwd = str(root)
            command = [
                *launch,
                target,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--no-access-log",
            ]
            protocol = bounded_protocol_of(root)
            if protocol and name in ("service", "baseline"):
                command += ["--http", protocol]  # as it is served
            processes[name] = subprocess.Popen(pinned(0, command), env=env, cwd=cwd)
            urls[name] = f"http://127.0.0.1:{port}"
        for name, url in urls.items():
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(url + "/", timeout=1)
                    break
                except httpx.TransportError:
                    if processes[name].poll() is not None:
                        raise RuntimeError(f"{name} ({url}) exited at startup") from None
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{name} ({url}) did not start") from None
                    time.sleep(0.05)
        yield urls
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            process.wait(timeout=10)
        shutil.rmtree(scratch, ignore_errors=True)


def new_game(url: str, n: int = 1_000_000) -> dict[str, object]:
    game: dict[str, object] = httpx.post(f"{url}/v1/games", json={"n": n}).json()
    return game


def reversi_plan(url: str, moves: int, seed: int) -> list[tuple[str, str, int, int]]:
    """Games created at ``url``, each with the legal moves of a random game to its end, until
    there are ``moves`` moves: (game id, the mover's token, row, col)."""
    plan: list[tuple[str, str, int, int]] = []
    rng = random.Random(seed)
    while len(plan) < moves:
        game = httpx.post(f"{url}/v1/games", json={"game": "reversi"}).json()
        board = reversi.Board.from_rows(list(OPENING))
        color: reversi.Color | None = reversi.BLACK
        while color is not None:
            move = rng.choice(reversi.legal_moves(board, color))
            token = game["tokens"]["1" if color == reversi.BLACK else "2"]
            plan.append((game["id"], token, move.row, move.col))
            outcome = reversi.apply_move(board, move.row, move.col, color)
            board, color = outcome.board, outcome.next
    return plan


def serves_reversi_sessions(url: str) -> bool:
    return httpx.post(f"{url}/v1/games", json={"game": "reversi"}).status_code == 201


def answers(url: str, scenario: Scenario) -> bool:
    """Whether the app at ``url`` answers a POST scenario's body with success (older code may
    not take a body a newer one does: such a scenario has no baseline twin)."""
    if scenario.method != "POST" or scenario.body is None or scenario.moves or scenario.reversi:
        return True
    return httpx.post(f"{url}{scenario.path}", json=scenario.body).is_success


def scenarios(urls: dict[str, str]) -> list[Scenario]:
    """The ceilings, then the service's scenarios, each with its baseline twin if any."""
    service = service_scenarios("service", urls["service"])
    if "baseline" in urls:
        reversi_too = serves_reversi_sessions(urls["baseline"])  # older code may not
        for scenario, twin in zip(
            service, service_scenarios("baseline", urls["baseline"]), strict=True
        ):
            if (reversi_too or not scenario.reversi) and answers(urls["baseline"], twin):
                scenario.twin = twin
    opening = list(OPENING)
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
        *service,
    ]


def service_scenarios(server: str, service: str) -> list[Scenario]:
    """The service's scenarios against ``server`` at URL ``service``, with a game made there."""
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
        Scenario("GET /healthz", server, "/healthz"),
        Scenario(
            "POST reversi/check-move (8×8 strings)",
            server,
            "/v1/reversi/check-move",
            "POST",
            {"board": opening, "row": 2, "col": 3, "color": "B"},
        ),
        Scenario(
            "POST reversi/check-move (8×8 cell lists)",
            server,
            "/v1/reversi/check-move",
            "POST",
            {"board": CLASSIC_BOARD, "row": 4, "col": 3, "color": "B"},
        ),
        Scenario(
            "POST reversi/legal-moves (8×8)",
            server,
            "/v1/reversi/legal-moves",
            "POST",
            {"board": opening, "color": "B"},
        ),
        Scenario(
            "POST reversi/apply-move (8×8)",
            server,
            "/v1/reversi/apply-move",
            "POST",
            {"board": opening, "row": 2, "col": 3, "color": "B"},
        ),
        Scenario(
            "POST reversi/apply-move (a real game: 59 moves)",
            server,
            "/v1/reversi/apply-move",
            "POST",
            {"moves": GAME_1988},
        ),
        Scenario(
            "POST gomoku/check-move (15×15 renju, 40 stones)",
            server,
            "/v1/gomoku/check-move",
            "POST",
            {"board": RENJU_40, "square": "h8", "color": "B", "rule": "renju"},
        ),
        Scenario(
            "POST gomoku/check-move (15×15 freestyle, 40 stones)",
            server,
            "/v1/gomoku/check-move",
            "POST",
            {"board": RENJU_40, "square": "h8", "color": "B", "rule": "freestyle"},
        ),
        Scenario(
            "POST gomoku/forbidden-points (15×15, 40 stones)",
            server,
            "/v1/gomoku/forbidden-points",
            "POST",
            {"board": RENJU_40},
        ),
        Scenario(
            "POST tictactoe/validate (3×3)",
            server,
            "/v1/tictactoe/validate",
            "POST",
            {"board": ["XOX", "O O", "XOX"]},
        ),
        Scenario(
            "POST tictactoe/validate (100×100, k=5)",
            server,
            "/v1/tictactoe/validate",
            "POST",
            {"board": board_100, "k": 5},
        ),
        Scenario(
            "POST reversi/check-moves (1,000 queries)",
            server,
            "/v1/reversi/check-moves",
            "POST",
            {"board": opening, "queries": queries},
            items=len(queries),
        ),
        Scenario(
            "POST tictactoe/validate-batch (1,000 × 3×3)",
            server,
            "/v1/tictactoe/validate-batch",
            "POST",
            {"items": boards},
            items=len(boards),
        ),
        Scenario("GET game (200)", server, f"/v1/games/{game['id']}"),
        Scenario(
            "GET game (If-None-Match → 304)",
            server,
            f"/v1/games/{game['id']}",
            headers={"If-None-Match": etag},
        ),
        Scenario("GET game moves?since=0", server, f"/v1/games/{game['id']}/moves"),
        Scenario("POST games/{id}/moves", server, "/v1/games/{id}/moves", "POST", moves=True),
        Scenario(
            "POST games/{id}/moves (Reversi 8×8)",
            server,
            "/v1/games/{id}/moves",
            "POST",
            reversi=True,
        ),
    ]


LATENCY = re.compile(r"^\s*(50|99)%\s+([\d.]+)(us|ms|s)\s*$", re.M)
UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


def run_wrk(
    url: str, scenario: Scenario, connections: int, duration: float, workdir: Path
) -> tuple[float, float, float]:
    script = workdir / "script.lua"
    extra: list[str] = []
    if scenario.reversi:
        script.write_text(REVERSI_LUA)
        plans_path = workdir / "plans.lua"
        # Enough moves for every connection for the whole run at well over the rate seen.
        moves_each = int(duration * 2000)
        plans = [reversi_plan(url, moves_each, seed=i) for i in range(connections)]
        plans_path.write_text(
            "PLANS = {\n"
            + ",\n".join(
                "{" + ",".join(f'{{"{g}","{t}",{r},{c}}}' for g, t, r, c in plan) + "}"
                for plan in plans
            )
            + "}\n"
        )
        extra = ["--", str(plans_path)]
    elif scenario.moves:
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
    # As for wrk, the Reversi games are made and their moves chosen before the clock starts
    # (made inside the generator, they took most of the run's seconds from the moves).
    plans = (
        [reversi_plan(url, int(duration * 2000), i) for i in range(connections)]
        if scenario.reversi
        else []
    )

    def requests_for(index: int) -> Iterator[Request]:
        if scenario.reversi:
            for game_id, token, row, col in plans[index]:
                move = json.dumps({"row": row, "col": col}).encode()
                auth = {**headers, "Authorization": f"Bearer {token}"}
                yield "POST", f"/v1/games/{game_id}/moves", auth, move
            return
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
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="run scenarios whose name contains this (again: or that)",
    )
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also serve the app of this git revision and compare each service scenario to it",
    )
    parser.add_argument(
        "--metered",
        action="store_true",
        help="meter each client's work as shipped (a share too large to use up), not off",
    )
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
    with contextlib.ExitStack() as stack:
        baseline, sha = (
            stack.enter_context(exported(args.baseline)) if args.baseline else (None, "")
        )
        urls = stack.enter_context(servers(baseline, args.metered))
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        chosen = [
            s
            for s in scenarios(urls)
            if s.server != "service" or not args.only or any(o in s.name for o in args.only)
        ]
        ceiling = next(s for s in chosen if s.name.startswith("ceiling: bare"))
        for round_ in range(args.rounds):
            for index, scenario in enumerate(chosen):
                if scenario is ceiling:
                    continue
                # The ceiling runs right before each scenario (and its baseline twin): they
                # see the same machine, and the ratio of the pair is what the table reports.
                ceiling.results.append(
                    run(urls["fastapi"], ceiling, args.connections, args.duration, workdir)
                )
                # Service and baseline back to back; who goes first alternates between rounds
                # (and between neighbouring scenarios), so drift does not favour either.
                twin = scenario.twin
                order = [scenario] if twin is None else [twin, scenario]
                if (round_ + index) % 2:
                    order.reverse()
                for s in order:
                    s.results.append(
                        run(urls[s.server], s, args.connections, args.duration, workdir)
                    )
                scenario.ratios.append(scenario.results[-1][0] / ceiling.results[-1][0])
                if twin is not None:
                    scenario.vs_baseline.append(scenario.results[-1][0] / twin.results[-1][0])
    print(
        f"{args.generator}, {args.connections} connections, {args.duration:g} s per run, "
        f"{args.rounds} rounds{', metered' if args.metered else ''}; "
        "medians. ratio: req/s ÷ the bare FastAPI GET run just before it (median of pairs)"
        + (
            f"; vs baseline: req/s ÷ the baseline's adjacent run (median of pairs), baseline "
            f"{args.baseline} = {sha[:12]}"
            if args.baseline
            else ""
        )
        + "\n"
    )
    columns = "| scenario | req/s | items/s | p50 ms | p99 ms | ratio |"
    if args.baseline:
        columns += " baseline req/s | vs baseline |"
    print(columns)
    print("|---|" + "---:|" * (columns.count("|") - 2))
    for s in chosen:
        rps = statistics.median(r[0] for r in s.results)
        p50 = statistics.median(r[1] for r in s.results)
        p99 = statistics.median(r[2] for r in s.results)
        ratio = f"{statistics.median(s.ratios):.2f}" if s.ratios else "1.00"
        if s.items > 1:
            ratio = "—"  # batches answer many questions per request: compare items/s
        row = f"| {s.name} | {rps:,.0f} | {rps * s.items:,.0f} | {p50:.2f} | {p99:.2f} | {ratio} |"
        if args.baseline:
            if s.twin is None:
                row += " — | — |"
            else:
                base = statistics.median(r[0] for r in s.twin.results)
                row += f" {base:,.0f} | {statistics.median(s.vs_baseline):.2f} |"
        print(row)


if __name__ == "__main__":
    main()
