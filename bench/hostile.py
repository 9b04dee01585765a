"""Hostile traffic against the ``adjudicator`` command, with a well-behaved client watching.

    python -m bench.hostile [--seconds 20] [--slow 4000] [--streams 5000] [--only NAME]

Each scenario starts a fresh service (the ``adjudicator`` command, default limits unless the
scenario says otherwise) on a loopback port, measures it quiet, runs the attack, and reports:
the server's resident memory (before, and its peak), what the attack was answered (status codes,
closes), and the latency of a well-behaved client in another process — ``GET /healthz`` and a
move in a game of its own, one after another — as median and p99 while the attack goes on,
next to the same client on the quiet server before. Scenarios:

* ``header-flood`` — 20 connections, each sending 10 MiB of header fields as fast as it can;
* ``long-url`` — 20 connections, each a 100 MiB URL;
* ``slowloris`` — ``--slow`` connections trickling a head one byte every two seconds, and as
  many that say nothing, held for ``--seconds``;
* ``streams-memory`` / ``streams-redis`` — ``--streams`` event streams on one game (memory
  store; and Redis, started here), while the watcher moves in another game (stream limits,
  per client address included, raised to fit them);
* ``replay`` — a game of 10,000 moves whose whole history ten clients read over and over from
  its event stream (each stream sends every move and the end, the client reconnects);
* ``move-limit`` — one game played to ``ADJUDICATOR_MAX_MOVES_PER_GAME`` (10,000) moves on a
  board of side 1,000,000: the last accepted move ends it (``move_limit``), the next is refused.

Everything stays on 127.0.0.1 and every process is stopped at the end. Needs Linux (``/proc``)
and, for ``streams-redis``, ``redis-server``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.http import free_port

QUIET_SECONDS = 3.0


@dataclass
class Server:
    url: str
    pid: int
    port: int

    def memory_kib(self) -> tuple[int, int]:
        """Resident memory now and at its peak (KiB)."""
        fields = dict(
            line.split(":", 1) for line in Path(f"/proc/{self.pid}/status").read_text().splitlines()
        )
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


@contextmanager
def adjudicator(env: dict[str, str]) -> Iterator[Server]:
    port = free_port()
    script = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "app.cli"]
    settings = {
        "ADJUDICATOR_HOST": "127.0.0.1", "ADJUDICATOR_PORT": str(port),
        "ADJUDICATOR_LOG_LEVEL": "warning", "ADJUDICATOR_CREATE_RATE_PER_MINUTE": "0",
    }  # fmt: skip
    process = subprocess.Popen(command, env={**os.environ, **settings, **env})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield Server(url, process.pid, port)
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def redis_url() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("streams-redis needs redis-server (apt-get install -y redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory() as directory:
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", directory, "--loglevel", "warning", "--maxclients", "20000"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            time.sleep(0.5)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


# --- the well-behaved client, in a process of its own ------------------------------------


def _watch(url: str, seconds: float, queue: multiprocessing.Queue[dict[str, object]]) -> None:
    """Health checks and moves, one after another, for ``seconds``: their latencies (ms)."""
    latencies: dict[str, list[float]] = {"healthz": [], "move": []}
    failures: Counter[str] = Counter()
    with httpx.Client(base_url=url, timeout=10) as client:
        game = client.post("/v1/games", json={"n": 1_000_000}).json()
        token = game["tokens"]["1"]
        tokens = {1: game["tokens"]["1"], 2: game["tokens"]["2"]}
        deadline = time.monotonic() + seconds
        turn = 0
        while time.monotonic() < deadline:
            for name in ("healthz", "move"):
                started = time.perf_counter()
                try:
                    if name == "healthz":
                        answer = client.get("/healthz")
                    else:
                        token = tokens[1 + turn % 2]
                        answer = client.post(
                            f"/v1/games/{game['id']}/moves",
                            json={"row": turn // 1000, "col": turn % 1000},
                            headers={"Authorization": f"Bearer {token}"},
                        )
                        turn += answer.status_code == 201
                    if answer.status_code >= 300:
                        failures[f"{name} {answer.status_code}"] += 1
                        continue
                except httpx.HTTPError as error:
                    failures[f"{name} {type(error).__name__}"] += 1
                    continue
                latencies[name].append((time.perf_counter() - started) * 1000)
    queue.put({"latencies": latencies, "failures": dict(failures)})


def watch(url: str, seconds: float) -> Callable[[], dict[str, object]]:
    """Start the watcher; the returned call waits for and returns its report."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[dict[str, object]] = context.Queue()
    process = context.Process(target=_watch, args=(url, seconds, queue))
    process.start()

    def report() -> dict[str, object]:
        result = queue.get(timeout=seconds + 60)
        process.join()
        return result

    return report


def summary(report: dict[str, object]) -> str:
    latencies: dict[str, list[float]] = report["latencies"]  # type: ignore[assignment]
    parts = []
    for name, values in latencies.items():
        if values:
            p99 = statistics.quantiles(values, n=100)[98] if len(values) > 1 else values[0]
            parts.append(f"{name} p50 {statistics.median(values):.1f} ms p99 {p99:.1f} ms")
        else:
            parts.append(f"{name}: none answered")
    failures = report["failures"]
    return "; ".join(parts) + (f"; failed: {failures}" if failures else "")


# --- attacks ------------------------------------------------------------------------------


@dataclass
class Outcome:
    answers: Counter[str] = field(default_factory=Counter)
    most_sent: int = 0  # bytes one flooding connection got to send, at most

    def record(self, answer: bytes) -> None:
        self.answers[answer.split(b"\r\n", 1)[0].decode("latin-1") or "closed, no answer"] += 1


async def connect(
    server: Server, outcome: Outcome
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection to the server, or None (counted) if the server or this process refuses."""
    try:
        return await asyncio.open_connection("127.0.0.1", server.port)
    except OSError as error:
        outcome.answers[f"connect failed: {error.strerror}"] += 1
        return None


async def _read_answer(reader: asyncio.StreamReader) -> bytes:
    try:
        return await asyncio.wait_for(reader.read(4096), 30)
    except (ConnectionError, TimeoutError):
        return b""


async def flood(server: Server, outcome: Outcome, start: bytes, unit: bytes, total: int) -> None:
    connection = await connect(server, outcome)
    if connection is None:
        return
    reader, writer = connection
    sent = 0
    try:
        writer.write(start)
        while sent < total:
            writer.write(unit)
            await writer.drain()
            sent += len(unit)
    except ConnectionError:
        pass
    outcome.record(await _read_answer(reader))
    outcome.most_sent = max(outcome.most_sent, sent)
    writer.close()


async def trickle(server: Server, outcome: Outcome, seconds: float, silent: bool) -> None:
    connection = await connect(server, outcome)
    if connection is None:
        return
    reader, writer = connection
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 1000
    deadline = time.monotonic() + seconds
    answer = asyncio.ensure_future(reader.read(4096))  # whatever the server says, when it does
    try:
        for byte in head:
            if silent or time.monotonic() > deadline or answer.done():
                break
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.wait({answer}, timeout=2)
        remaining = max(0.1, deadline - time.monotonic())
        outcome.record(await asyncio.wait_for(answer, remaining))
    except TimeoutError:
        outcome.answers["still open at the end"] += 1
    except ConnectionError:
        outcome.answers["reset"] += 1
    writer.close()


async def stream(server: Server, game: str, outcome: Outcome, seconds: float) -> None:
    connection = await connect(server, outcome)
    if connection is None:
        return
    reader, writer = connection
    writer.write(f"GET /v1/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    try:
        outcome.record(await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30))
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            chunk = await asyncio.wait_for(
                reader.read(65536), max(0.1, deadline - time.monotonic())
            )
            if not chunk:
                outcome.answers["stream cut"] += 1
                break
    except TimeoutError:
        pass
    except (ConnectionError, asyncio.IncompleteReadError):
        outcome.answers["stream cut"] += 1
    writer.close()


async def _until_end(reader: asyncio.StreamReader) -> None:
    seen = b""
    while b"event: end" not in seen:
        chunk = await reader.read(65536)
        if not chunk:
            raise ConnectionError("stream cut")
        seen = seen[-16:] + chunk


async def replay(server: Server, game: str, outcome: Outcome, seconds: float) -> None:
    """Read the game's whole event stream, again and again, for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(f"GET /v1/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        try:
            await asyncio.wait_for(_until_end(reader), 60)
            outcome.answers["whole history read"] += 1
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError):
            outcome.answers["stream cut"] += 1
        writer.close()


async def run_all(attacks: list[Awaitable[None]]) -> None:
    await asyncio.gather(*attacks)


Attack = Callable[[Outcome], list[Awaitable[None]]]


def scenario(name: str, server: Server, attack: Attack, seconds: float) -> None:
    quiet = watch(server.url, QUIET_SECONDS)()
    before, _ = server.memory_kib()
    report = watch(server.url, seconds)
    outcome = Outcome()
    asyncio.run(run_all(attack(outcome)))
    during = report()
    now, peak = server.memory_kib()
    print(f"\n## {name}")
    print(f"server memory: {before / 1024:.0f} MiB before, peak {peak / 1024:.0f} MiB, "
          f"{now / 1024:.0f} MiB after")  # fmt: skip
    print(f"answers: {dict(outcome.answers)}")
    if outcome.most_sent:
        print(f"a flooding connection sent at most {outcome.most_sent / 1024:.0f} KiB")
    print(f"well-behaved client, quiet:  {summary(quiet)}")
    print(f"well-behaved client, attack: {summary(during)}")


def new_game(url: str, n: int = 3) -> str:
    return str(httpx.post(f"{url}/v1/games", json={"n": n}).json()["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--slow", type=int, default=4000)
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--only")
    args = parser.parse_args()
    seconds = args.seconds

    def wanted(name: str) -> bool:
        return args.only is None or args.only in name

    if wanted("header-flood"):
        with adjudicator({}) as server:
            unit = b"X-Flood: " + b"f" * 1000 + b"\r\n"
            scenario("header-flood", server, lambda outcome: [
                flood(server, outcome, b"GET /healthz HTTP/1.1\r\n", unit * 64, 10 * 2**20)
                for _ in range(20)
            ], seconds)  # fmt: skip
    if wanted("long-url"):
        with adjudicator({}) as server:
            scenario("long-url", server, lambda outcome: [
                flood(server, outcome, b"GET /", b"a" * 65536, 100 * 2**20) for _ in range(20)
            ], seconds)  # fmt: skip
    if wanted("slowloris"):
        with adjudicator({}) as server:
            scenario("slowloris", server, lambda outcome: [
                trickle(server, outcome, seconds, silent=i % 2 == 0) for i in range(2 * args.slow)
            ], seconds)  # fmt: skip
    for store in ("memory", "redis"):
        if not wanted(f"streams-{store}"):
            continue
        many = str(args.streams + 100)
        env = {"ADJUDICATOR_MAX_STREAMS": many, "ADJUDICATOR_MAX_STREAMS_PER_GAME": many,
               "ADJUDICATOR_MAX_STREAMS_PER_CLIENT": many,
               "ADJUDICATOR_MAX_CONNECTIONS": str(args.streams + 1000)}  # fmt: skip
        with nullcontext(None) if store == "memory" else redis_url() as url:
            if url:
                env["ADJUDICATOR_STORE_URL"] = url
            with adjudicator(env) as server:
                game = new_game(server.url)
                name = f"streams-{store} ({args.streams} streams on one game)"
                scenario(name, server, lambda outcome, game=game, server=server: [
                    stream(server, game, outcome, seconds) for _ in range(args.streams)
                ], seconds)  # fmt: skip
    if wanted("replay"):
        with adjudicator({}) as server:
            game = move_limit(server, report=False)
            scenario("replay (10 clients reading a 10,000-move history)", server,
                     lambda outcome: [replay(server, game, outcome, seconds) for _ in range(10)],
                     seconds)  # fmt: skip
    if wanted("move-limit"):
        with adjudicator({}) as server:
            move_limit(server)


def move_limit(server: Server, *, report: bool = True) -> str:
    """Play a game to its move limit (and one more); answers the game's id."""
    with httpx.Client(base_url=server.url, timeout=10) as client:
        game = client.post("/v1/games", json={"n": 1_000_000}).json()
        tokens = game["tokens"]
        statuses: Counter[int] = Counter()
        started = time.perf_counter()
        last: dict[str, object] = {}
        for turn in range(10_001):
            answer = client.post(
                f"/v1/games/{game['id']}/moves",
                json={"row": turn // 1000, "col": turn % 1000},
                headers={"Authorization": f"Bearer {tokens[str(1 + turn % 2)]}"},
            )
            statuses[answer.status_code] += 1
            last = answer.json()
        elapsed = time.perf_counter() - started
        state = client.get(f"/v1/games/{game['id']}").json()
    if not report:
        return str(game["id"])
    rss, peak = server.memory_kib()
    print("\n## move-limit (n = 1,000,000, default ADJUDICATOR_MAX_MOVES_PER_GAME)")
    print(
        f"answers: {dict(statuses)}; the last: {last.get('code')}; state: "
        f"{json.dumps({k: state.get(k) for k in ('status', 'winner', 'reason', 'move_count')})}"
    )
    print(f"{elapsed:.1f} s for 10,001 requests; server memory {rss / 1024:.0f} MiB "
          f"(peak {peak / 1024:.0f} MiB)")  # fmt: skip
    return str(game["id"])


if __name__ == "__main__":
    main()
