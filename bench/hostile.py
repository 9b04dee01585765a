"""Hostile traffic against the ``adjudicator`` command, with a well-behaved client watching.

    python -m bench.hostile [--seconds 20] [--store memory|redis|cluster] [--only NAME]
                            [--slow 4000] [--streams 5000] [--baseline REV]

Each scenario starts a fresh service (the ``adjudicator`` command, default limits unless the
scenario says otherwise; with ``--store redis`` or ``cluster`` on a Redis or a three-primary
Redis Cluster started here) on a loopback port, measures it quiet, runs the attack, and reports:
the server's resident memory (before, and its peak), what the attack was answered (status codes,
closes), and the latency of a well-behaved client in another process — ``GET /healthz`` and a
move in a game of its own (created before the attack), one after another — as median and p99
while the attack goes on, next to the same client on the quiet server before, with every answer
it got that was not a success. The well-behaved client is 127.0.0.1; attackers come from other
loopback addresses (127.0.0.2, and for the many-address attacks 127.1.x.y), so that each is a
client of its own, as on a network. Scenarios:

* connections: ``header-flood`` (20 connections, 10 MiB of header fields each), ``long-url``
  (20 × a 100 MiB URL), ``slowloris`` (``--slow`` silent and as many trickling connections);
* framing, two connections each, over and over: ``trailer`` (an endless chunked trailer
  field), ``chunk-extension`` (an endless chunk extension), ``tiny-chunks`` (a 1 MiB body in
  one-byte chunks);
* refusals that must cost little: ``431-flood`` (four connections, over and over, each sending
  a head of endless header fields and going on sending after its 431: the server must stop
  reading, not drain what comes), ``batch-flood`` (64 connections from one address, each sending
  1 MiB batches — ``validate-batch`` of 101 boards of 100 × 100, k = 1, padded to the body
  limit — one after another: its share answers a few, the rest are refused, unparsed);
* costly requests, two connections: ``costly-batch`` (``validate-batch`` of 101 boards of
  100 × 100, rows alternating all-X / all-O, k = 1), ``unknown-keys`` (1 MiB of unknown keys on
  ``POST …/moves`` with a made-up token, and with a player's token of the attacker's own game),
  ``wrong-tokens`` (moves in the watcher's game with made-up tokens), ``move-history`` (four
  readers of ``GET …/moves?limit=10000`` of a 10,000-move game), ``early-draw`` (two games
  each of ``{"n": 1000000, "k": 500000, "early_draw": true}``: two moves, each taken back,
  over and over; every move and takeback must be accepted), ``costly-audit`` (the
  costliest audit bodies the bounds allow — 10,000-move records of ``early_draw`` games on a
  1,000,000 board, a 95-byte record of k = 500,000, batches of as many long records as a body
  holds — from one connection of one address and four of another), ``record-reread`` (eight
  addresses re-reading a 10,000-move public game's record in every format);
* the store's bounds: ``one-address-moves`` (one address plays its games as fast as it can;
  ``ADJUDICATOR_MAX_TOTAL_MOVES`` is 20,000 here so that its share, 2,000, is reached within the
  run), ``refusals`` (one address has refused moves remembered under 255-character keys in
  each game it may create), ``join-replay`` (ten open games joined under guessable keys,
  ``{id}-join``, by one address; another sends each join again under those keys and others,
  ``join``, ``1``, …: it must get no seat's token, every replay a 4xx), ``capacity-500``
  (500 addresses create games at their allowed burst until the store is full),
  ``capacity-crowd`` (two waves at the allowed burst: 400 addresses of four /24s and 100 IPv6
  /64s of one /48, then 500 addresses of 500 /24s; after each, the watcher creates a game and
  moves in it), ``streams-fair`` (10 addresses hold 100 streams each, the process's 1,000
  places; then the watcher opens a stream of its own game);
* ``streams`` (``--streams`` event streams on one game, limits raised to fit), ``replay`` (ten
  clients reading a 10,000-move game's whole event stream over and over), ``move-limit`` (one
  game played to its 10,000 moves);
* ``faults`` (``--store cluster`` only): while the watcher plays, one primary that does not hold
  its game is paused (``CLIENT PAUSE``), has every connection killed (``CLIENT KILL``) and is
  killed (SIGKILL) and restarted, and two more clients play through it, sending a move again
  with its ``Idempotency-Key`` after each 503; it notes what those 503s said
  (``may_have_been_applied``), and whether each move answered 503 that was applied all the same
  (its retry a replay) was told so.

``--baseline REV`` runs every scenario against the code of ``REV`` too (``git archive``, served
by its own ``adjudicator`` command on this environment's packages, as ``bench.http`` does), right
before the current code, so that each attack is reported before and after a change.

Goal (issues "Hold under hostile traffic", parts 2 and 3): under each attack the watcher's
``/healthz`` and moves at p99 ≤ 50 ms with no refusal, the server's memory at most 1 GiB, no
5xx. And (part 3) ``join-replay``: no replay from another address gets a seat's token.
``costly-audit`` and ``record-reread`` hold to the same goal: every piece of CPU work a request
causes is charged to its client and done in slices, and a finished game's record is written
once.
``capacity-crowd``: a client that plays creates its game — the watcher's every creation
answered 201, and the move it then makes too.

Loopback routes only ``::1`` of IPv6 (other addresses need configuring on the interface), so
``capacity-crowd``'s IPv6 customers come through a proxy the service trusts (127.0.0.9,
``ADJUDICATOR_FORWARDED_ALLOW_IPS``), which names each one's /64 in ``X-Forwarded-For``.

On a machine of two cores or more the service is pinned to core 0 and everything else — the
attackers, the well-behaved client, Redis — to core 1 (``taskset``, as ``bench.http`` does), so
that the figures are the service's, not those of attackers sharing its core.

Everything stays on loopback and every process is stopped at the end. Needs Linux (``/proc``,
and 127.0.0.0/8 routed to loopback), and for ``--store`` redis-server (and redis-cli).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import itertools
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
from typing import Any

import httpx

from bench.http import exported, free_port, pinned

QUIET_SECONDS = 3.0
# The well-behaved client's pause between a health check and move and the next (about 80 a
# second): a player, or a bot league's client, not a load generator — it stays within its own
# share of the store's moves in every scenario.
PACE = 0.01
WATCHER = "127.0.0.1"
ATTACKER = "127.0.0.2"
OTHER_ATTACKER = "127.0.0.4"
ONE_MIB = 1024 * 1024


@dataclass
class Server:
    url: str
    pid: int
    port: int
    store: str = "memory"

    def memory_kib(self) -> tuple[int, int]:
        """Resident memory now and at its peak (KiB)."""
        fields = dict(
            line.split(":", 1) for line in Path(f"/proc/{self.pid}/status").read_text().splitlines()
        )
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


# The ``adjudicator`` command of another tree (``--baseline``): its own ``app`` first on the path,
# checked, as ``bench.http``'s BOOTSTRAP does for uvicorn.
CLI_BOOTSTRAP = """
import sys
from pathlib import Path
root = Path(sys.argv.pop(1)).resolve()
sys.path.insert(0, str(root))
import app.cli
if not Path(app.cli.__file__).resolve().is_relative_to(root):
    sys.exit(f"bench: app.cli was imported from {app.cli.__file__}, not from {root}")
app.cli.main()
"""


@contextmanager
def adjudicator(
    env: dict[str, str], store_url: str | None = None, root: Path | None = None
) -> Iterator[Server]:
    """The ``adjudicator`` command (of the tree ``root``, if given) on a free loopback port."""
    port = free_port()
    script = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "app.cli"]
    if root is not None:
        command = [sys.executable, "-c", CLI_BOOTSTRAP, str(root)]
        env = {**env, "PYTHONPATH": str(root)}
    settings = {
        "ADJUDICATOR_HOST": "127.0.0.1", "ADJUDICATOR_PORT": str(port),
        "ADJUDICATOR_LOG_LEVEL": "warning",
    }  # fmt: skip
    if store_url:
        settings["ADJUDICATOR_STORE_URL"] = store_url
    process = subprocess.Popen(
        pinned(0, command),
        env={**os.environ, **settings, **env},
        cwd=root,
        stderr=subprocess.DEVNULL,
    )
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
        if store_url:  # a store shared with the scenario before: empty it
            flush(store_url)
        yield Server(url, process.pid, port, store_url or "memory")
    finally:
        process.terminate()
        process.wait(timeout=30)


def flush(store_url: str) -> None:
    import redis

    if store_url.startswith("redis+cluster://"):
        host, _, port = store_url.removeprefix("redis+cluster://").split(",")[0].rpartition(":")
        cluster = redis.RedisCluster(host=host, port=int(port))
        cluster.flushall(target_nodes=redis.RedisCluster.PRIMARIES)
        cluster.close()
    else:
        redis.Redis.from_url(store_url).flushall()


@contextmanager
def redis_url() -> Iterator[str]:
    """A Redis started here (tests/servers.py's), for the benchmarks that take one."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.servers import redis_server

    with tempfile.TemporaryDirectory() as directory, redis_server(Path(directory)) as url:
        yield url


@contextmanager
def store(kind: str) -> Iterator[tuple[str | None, Any]]:
    """The store's URL (None: memory) and, for a cluster, the cluster (tests/servers.py's)."""
    if kind == "memory":
        yield None, None
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.servers import redis_cluster, redis_server

    with tempfile.TemporaryDirectory() as directory:
        if kind == "redis":
            with redis_server(Path(directory)) as url:
                yield url, None
        else:
            with redis_cluster(Path(directory), persist=True) as cluster:
                yield cluster.url, cluster


# --- the well-behaved client, in a process of its own ------------------------------------


def new_game(url: str, source: str = WATCHER, n: int = 1_000_000) -> dict[str, Any]:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=url, transport=transport, timeout=10) as client:
        game: dict[str, Any] = client.post("/v1/games", json={"n": n}).json()
        return game


def _watch(
    url: str, seconds: float, game: dict[str, Any], first_turn: int,
    queue: multiprocessing.Queue[dict[str, object]],
) -> None:  # fmt: skip
    """Health checks and moves in ``game``, one after another at a polite pace (``PACE``), for
    ``seconds``: their latencies (ms), and every answer that was not a success."""
    latencies: dict[str, list[float]] = {"healthz": [], "move": []}
    failures: Counter[str] = Counter()
    tokens = {1: game["tokens"]["1"], 2: game["tokens"]["2"]}
    turn = first_turn
    transport = httpx.HTTPTransport(local_address=WATCHER)
    with httpx.Client(base_url=url, timeout=10, transport=transport) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(PACE)
            for name in ("healthz", "move"):
                started = time.perf_counter()
                try:
                    if name == "healthz":
                        answer = client.get("/healthz")
                    else:
                        answer = client.post(
                            f"/v1/games/{game['id']}/moves",
                            json={"row": turn // 1000, "col": turn % 1000},
                            headers={"Authorization": f"Bearer {tokens[1 + turn % 2]}",
                                     "Idempotency-Key": f"{game['id']}-{turn}"},
                        )  # fmt: skip
                        turn += answer.status_code == 201
                    if answer.status_code >= 300:
                        code = answer.json().get("code", "") if answer.content else ""
                        failures[f"{name} {answer.status_code} {code}".strip()] += 1
                        continue
                except httpx.HTTPError as error:
                    failures[f"{name} {type(error).__name__}"] += 1
                    continue
                latencies[name].append((time.perf_counter() - started) * 1000)
    queue.put({"latencies": latencies, "failures": dict(failures), "turn": turn})


class Watcher:
    """The well-behaved client: its own game, watched quietly, then during an attack."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.game = new_game(url)
        self.turn = 0

    def watch(self, seconds: float) -> Callable[[], dict[str, object]]:
        """Start watching; the returned call waits for and returns the report."""
        context = multiprocessing.get_context("spawn")
        queue: multiprocessing.Queue[dict[str, object]] = context.Queue()
        process = context.Process(
            target=_watch, args=(self.url, seconds, self.game, self.turn, queue)
        )
        process.start()

        def report() -> dict[str, object]:
            result = queue.get(timeout=seconds + 120)
            process.join()
            self.turn = int(str(result["turn"]))
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
    return "; ".join(parts) + (f"; refused: {failures}" if failures else "; no refusal")


# --- attacks ------------------------------------------------------------------------------


@dataclass
class Outcome:
    answers: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def record(self, answer: bytes | str) -> None:
        if isinstance(answer, bytes):
            answer = answer.split(b"\r\n", 1)[0].decode("latin-1") or "closed, no answer"
        self.answers[answer] += 1

    def status(self, response: httpx.Response) -> None:
        code = ""
        if response.headers.get("content-type", "").startswith("application/problem+json"):
            code = " " + str(response.json().get("code"))
        self.answers[f"{response.status_code}{code}"] += 1


async def connect(
    server: Server, outcome: Outcome, source: str = ATTACKER
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection to the server from ``source``, or None (counted) if refused."""
    try:
        return await asyncio.open_connection(
            "127.0.0.1", server.port, local_addr=(source, 0), limit=2**20
        )
    except OSError as error:
        outcome.answers[f"connect failed: {error.strerror}"] += 1
        return None


async def _read_answer(reader: asyncio.StreamReader) -> bytes:
    try:
        return await asyncio.wait_for(reader.read(4096), 30)
    except (ConnectionError, TimeoutError):
        return b""


async def flood(server: Server, outcome: Outcome, start: bytes, unit: bytes, total: int) -> None:
    """Send ``start``, then ``unit`` until ``total`` bytes or the server stops reading; the
    answer is read as it comes (a server that stops reading resets the connection once it
    closes it, and asyncio's reader drops what it holds at a reset)."""
    connection = await connect(server, outcome)
    if connection is None:
        return
    reader, writer = connection
    answer = asyncio.ensure_future(_read_answer(reader))
    sent = 0
    try:
        writer.write(start)
        while sent < total:
            writer.write(unit)
            await writer.drain()
            sent += len(unit)
    except ConnectionError:
        pass
    outcome.record(await answer)
    writer.close()


async def floods(
    server: Server, outcome: Outcome, start: bytes, unit: bytes, seconds: float
) -> None:
    """One connection after another, each flooding as ``flood`` does, for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await flood(server, outcome, start, unit, 64 * ONE_MIB)


async def flood_on(
    server: Server, outcome: Outcome, start: bytes, unit: bytes, seconds: float
) -> int:
    """One connection after another for ``seconds``, each sending ``start`` and then ``unit``
    for as long as the server takes it; answers the bytes it took in all."""
    deadline, sent = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        connection = await connect(server, outcome)
        if connection is None:
            break
        reader, writer = connection
        answer = asyncio.ensure_future(_read_answer(reader))
        try:
            writer.write(start)
            while time.monotonic() < deadline:
                writer.write(unit)
                await asyncio.wait_for(writer.drain(), max(0.01, deadline - time.monotonic()))
                sent += len(unit)
        except (ConnectionError, TimeoutError):
            pass
        outcome.record(await answer)
        writer.close()
    return sent


async def batches(server: Server, outcome: Outcome, seconds: float, path: str, body: bytes) -> None:
    """``body`` posted to ``path`` over one connection, one request after another (a new
    connection when the server closes one), for ``seconds``."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        connection = await connect(server, outcome)
        if connection is None:
            return
        reader, writer = connection
        try:
            while time.monotonic() < deadline:
                writer.write(head + body)
                answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
                outcome.record(answer)
                fields = answer.lower()
                length = int(fields.split(b"content-length: ")[1].split(b"\r\n")[0])
                await asyncio.wait_for(reader.readexactly(length), 60)
                if b"connection: close" in fields:
                    break
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            outcome.answers["closed, no answer"] += 1
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


def chunked_head(path: str, headers: str = "") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{headers}"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()


def http_client(server: Server, source: str = ATTACKER, timeout: float = 30) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    return httpx.AsyncClient(base_url=server.url, transport=transport, timeout=timeout)


Send = Callable[[httpx.AsyncClient], Awaitable[httpx.Response]]


async def repeat(
    server: Server, outcome: Outcome, seconds: float, send: Send, source: str = ATTACKER
) -> None:
    """``send`` over one keep-alive connection, again and again, for ``seconds``."""
    deadline = time.monotonic() + seconds
    async with http_client(server, source) as client:
        while time.monotonic() < deadline:
            try:
                outcome.status(await send(client))
            except httpx.HTTPError as error:
                outcome.answers[type(error).__name__] += 1
                await asyncio.sleep(0.01)
            else:
                await asyncio.sleep(0)


def costly_batch() -> bytes:
    board = [("X" if r % 2 == 0 else "O") * 100 for r in range(100)]
    body = json.dumps({"items": [{"board": board, "k": 1}] * 101}, separators=(",", ":"))
    assert len(body) < ONE_MIB  # what the body limit lets through
    return body.encode()


def costly_audits() -> list[bytes]:
    """The costliest audit bodies: records of ``max_record_moves`` (10,000) moves, spread so that
    no line ever forms, of early-draw games on a 1,000,000 board (gomoku, and tic-tac-toe with
    k = 1,000), where a move cost O(k) before issue 46; the 95-byte record of k = 500,000 (four
    moves, a second each then); and as many of the long records as one body holds, as a batch."""
    spread = [[2 * (i // 500), 2 * (i % 500)] for i in range(10_000)]
    long = [
        {"game": "gomoku", "size": 1_000_000, "early_draw": True, "moves": spread},
        {"n": 1_000_000, "k": 1000, "early_draw": True, "moves": spread},
    ]
    short = {"n": 1_000_000, "k": 500_000, "early_draw": True,
             "moves": [[0, 0], [0, 1], [1, 0], [1, 1]]}  # fmt: skip
    compact = functools.partial(json.dumps, separators=(",", ":"))
    records: list[dict[str, Any]] = []
    while len(compact({"records": [*records, long[len(records) % 2]]})) < ONE_MIB:
        records.append(long[len(records) % 2])
    return [compact(body).encode() for body in (*long, short, {"records": records})]


def members_flood() -> bytes:
    """Just under 1 MiB of members no request takes."""
    parts, size, i = [], 2, 0
    while size + 16 < ONE_MIB:
        parts.append(f'"k{i}": 0')
        size += len(parts[-1]) + 2
        i += 1
    return ("{" + ", ".join(parts) + "}").encode()


async def stream(server: Server, game: str, outcome: Outcome, seconds: float, source: str) -> None:
    connection = await connect(server, outcome, source)
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
                outcome.answers["stream ended"] += 1
                break
            if b"event: error" in chunk:
                outcome.answers["stream gave its place"] += 1
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
        connection = await connect(server, outcome)
        if connection is None:
            return
        reader, writer = connection
        writer.write(f"GET /v1/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        try:
            await asyncio.wait_for(_until_end(reader), 60)
            outcome.answers["whole history read"] += 1
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError):
            outcome.answers["stream cut"] += 1
        writer.close()


async def play_games(
    server: Server, outcome: Outcome, seconds: float, games: list[dict[str, Any]],
    source: str = ATTACKER, until: int | None = None,
) -> None:  # fmt: skip
    """Moves in ``games``, round-robin, as fast as one connection goes, for ``seconds`` (or
    ``until`` that many were answered, or the first refusal of capacity)."""
    deadline = time.monotonic() + seconds
    turns = Counter[str]()
    async with http_client(server, source) as client:
        while time.monotonic() < deadline and games:
            if until is not None and (
                turns.total() >= until or outcome.answers["503 capacity_exhausted"]
            ):
                return
            for game in games:
                turn = turns[game["id"]]
                token = game["tokens"][str(1 + turn % 2)]
                answer = await client.post(
                    f"/v1/games/{game['id']}/moves",
                    json={"row": turn // 1000, "col": turn % 1000},
                    headers={"Authorization": f"Bearer {token}"},
                )
                outcome.status(answer)
                turns[game["id"]] += answer.status_code == 201


EARLY_DRAW_GAME = {"n": 1_000_000, "k": 500_000, "early_draw": True}


async def early_draw_games(server: Server, outcome: Outcome, seconds: float) -> None:
    """In two games of ``EARLY_DRAW_GAME`` of its own, as fast as one connection goes for
    ``seconds``: X moves, O moves, O's move is taken back (O offers, X accepts), then X's (X
    offers, O accepts), each time on other cells near the centre."""
    deadline, turn = time.monotonic() + seconds, 0
    async with http_client(server) as client:
        games = []
        for _ in range(2):
            answer = await client.post("/v1/games", json=EARLY_DRAW_GAME)
            outcome.status(answer)
            if answer.status_code == 201:
                games.append(answer.json())
        while time.monotonic() < deadline and games:
            turn += 1
            for game in games:
                url = f"/v1/games/{game['id']}"
                auth = {p: {"Authorization": f"Bearer {game['tokens'][str(p)]}"} for p in (1, 2)}
                for player in (1, 2):
                    cell = {"row": 500_000 + turn % 97, "col": 500_000 + (2 * turn + player) % 991}
                    outcome.status(await client.post(f"{url}/moves", json=cell,
                                                     headers=auth[player]))  # fmt: skip
                for offerer in (2, 1):
                    for asker in (offerer, 3 - offerer):
                        outcome.status(await client.post(f"{url}/takeback-offer",
                                                         headers=auth[asker]))  # fmt: skip


async def keyed_moves(
    server: Server, outcome: Outcome, seconds: float, games: list[dict[str, Any]],
    said: Counter[str],
) -> None:  # fmt: skip
    """Moves in ``games``, round-robin, each under an Idempotency-Key and sent again under it
    after a 503 until answered, for ``seconds``; counted in ``said``: what each 503 said
    (``may_have_been_applied``), and the moves answered 503 that were applied all the same
    (their retry a replay) — whether one of their 503s said so."""
    deadline = time.monotonic() + seconds
    turns = Counter[str]()
    async with http_client(server) as client:
        while time.monotonic() < deadline:
            for game in games:
                turn = turns[game["id"]]
                headers = {"Authorization": f"Bearer {game['tokens'][str(1 + turn % 2)]}",
                           "Idempotency-Key": f"{game['id']}-{turn}"}  # fmt: skip
                told: list[object] = []  # what its 503s said
                status = 0
                while status in (0, 503) and time.monotonic() < deadline + 30:
                    if status:
                        await asyncio.sleep(0.05)
                    try:
                        answer = await client.post(
                            f"/v1/games/{game['id']}/moves",
                            json={"row": turn // 1000, "col": turn % 1000}, headers=headers,
                        )  # fmt: skip
                    except httpx.HTTPError as error:
                        outcome.answers[type(error).__name__] += 1
                        await asyncio.sleep(0.05)
                        continue
                    outcome.status(answer)
                    status = answer.status_code
                    if status == 503:
                        told.append(answer.json().get("may_have_been_applied"))
                        said[f"may_have_been_applied {told[-1]}"] += 1
                    elif status == 201 and told:
                        replayed = answer.headers.get("idempotent-replayed") == "true"
                        said[f"answered 503, then {'a replay' if replayed else 'applied'}"] += 1
                        if replayed:  # applied at a send answered 503: was it told so?
                            said[f"applied, answered 503, said so: {True in told}"] += 1
                turns[game["id"]] += status == 201


async def create_games(server: Server, count: int, source: str) -> list[dict[str, Any]]:
    games = []
    async with http_client(server, source) as client:
        for _ in range(count):
            answer = await client.post("/v1/games", json={"n": 1_000_000})
            if answer.status_code == 201:
                games.append(answer.json())
    return games


async def refused_moves(server: Server, outcome: Outcome, seconds: float) -> None:
    """Moves out of turn (player 2 first) under fresh 255-character keys, in the games one
    address may create, for ``seconds``: each refusal is remembered, up to the game's bound."""
    games = await create_games(server, 20, ATTACKER)
    deadline, i = time.monotonic() + seconds, 0
    async with http_client(server) as client:
        while time.monotonic() < deadline:
            for game in games:
                i += 1
                answer = await client.post(
                    f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0},
                    headers={"Authorization": f"Bearer {game['tokens']['2']}",
                             "Idempotency-Key": f"{i:012d}".ljust(255, "k")},
                )  # fmt: skip
                outcome.status(answer)


# Keys a client might join under that another could guess: its game's id and a word, or a word.
GUESSABLE_KEYS = ("{id}-join", "join", "1", "retry", "join-once", "my-join")


async def join_replays(server: Server, outcome: Outcome, seconds: float) -> None:
    """Ten open games, each created by one address and joined by another under a guessable key
    (``{id}-join``); then, for ``seconds``, the attacker sends each game's join again under that
    key and other guessable ones: how many seats' tokens its replays got (the goal: none)."""
    creator, joiner = "127.0.0.3", "127.0.0.5"
    seats: dict[str, str] = {}  # game id -> the joiner's token
    async with http_client(server, creator) as creating, http_client(server, joiner) as joining:
        for _ in range(10):  # one at a time: a client holds few open games at once
            game = (await creating.post("/v1/games", json={"n": 3, "open": True})).json()
            if "id" not in game:
                outcome.notes.append(f"an open game was refused: {game.get('code')}")
                continue
            key = GUESSABLE_KEYS[0].format(id=game["id"])
            joined = await joining.post(
                f"/v1/games/{game['id']}/join", headers={"Idempotency-Key": key}
            )
            if joined.status_code == 200:
                seats[game["id"]] = joined.json()["token"]
    stolen, deadline = 0, time.monotonic() + seconds
    async with http_client(server) as client:
        while time.monotonic() < deadline:
            for game_id, token in seats.items():
                for guess in GUESSABLE_KEYS:
                    answer = await client.post(
                        f"/v1/games/{game_id}/join",
                        headers={"Idempotency-Key": guess.format(id=game_id)},
                    )
                    outcome.status(answer)
                    stolen += answer.status_code == 200 and answer.json().get("token") == token
    outcome.notes.append(f"seats joined under guessable keys: {len(seats)}; seats' tokens the "
                         f"replays from another address got: {stolen} (goal: 0)")  # fmt: skip


def address(i: int) -> str:
    """The ``i``-th of the many attackers' loopback addresses."""
    return f"127.1.{i // 250}.{1 + i % 250}"


async def capacity(server: Server, outcome: Outcome, clients: int) -> None:
    """``clients`` addresses each create games at their allowed burst, all at once."""

    async def one(i: int) -> None:
        async with http_client(server, address(i)) as client:
            for _ in range(20):
                try:
                    outcome.status(await client.post("/v1/games", json={"n": 3}))
                except httpx.HTTPError as error:
                    outcome.answers[type(error).__name__] += 1

    await asyncio.gather(*(one(i) for i in range(clients)))


# capacity-crowd's proxy, which the service trusts: its IPv6 customers come through it.
CROWD_PROXY = "127.0.0.9"
Source = tuple[str, dict[str, str]]  # an address to connect from, and the headers it sends


def few_networks() -> list[Source]:
    """400 addresses of four /24s, and 100 /64s of one IPv6 /48 (through the proxy)."""
    ipv4 = [(f"127.2.{i // 100}.{1 + i % 100}", {}) for i in range(400)]
    ipv6 = [(CROWD_PROXY, {"X-Forwarded-For": f"2001:db8:1:{i:x}::1"}) for i in range(100)]
    return ipv4 + ipv6


def many_networks() -> list[Source]:
    """500 addresses of 500 /24s."""
    return [(f"127.{3 + i // 250}.{i % 250}.1", {}) for i in range(500)]


async def crowd(server: Server, outcome: Outcome, sources: list[Source]) -> None:
    """Each source creates games at its allowed burst (20), all at once."""

    async def one(source: str, headers: dict[str, str]) -> None:
        async with http_client(server, source) as client:
            for _ in range(20):
                try:
                    answer = await client.post("/v1/games", json={"n": 3}, headers=headers)
                    outcome.status(answer)
                except httpx.HTTPError as error:
                    outcome.answers[type(error).__name__] += 1

    await asyncio.gather(*(one(source, headers) for source, headers in sources))


async def plays(server: Server) -> str:
    """The watcher's address creates a game and moves in it: both answers."""
    async with http_client(server, WATCHER) as client:
        created = await client.post("/v1/games", json={"n": 3})
        if created.status_code != 201:
            return f"created: {created.status_code} {created.json().get('code')}"
        game = created.json()
        moved = await client.post(
            f"/v1/games/{game['id']}/moves", json={"row": 1, "col": 1},
            headers={"Authorization": f"Bearer {game['tokens']['1']}"},
        )  # fmt: skip
        return f"created: 201, moved: {moved.status_code}"


async def run_all(attacks: list[Awaitable[None]]) -> None:
    await asyncio.gather(*attacks)


Attack = Callable[[Outcome], list[Awaitable[None]]]


def scenario(
    name: str, server: Server, watcher: Watcher, attack: Attack, seconds: float,
    after: Callable[[Outcome], None] | None = None,
) -> None:  # fmt: skip
    quiet = watcher.watch(QUIET_SECONDS)()
    before, _ = server.memory_kib()
    report = watcher.watch(seconds)
    outcome = Outcome()
    asyncio.run(run_all(attack(outcome)))
    if after is not None:
        after(outcome)
    during = report()
    now, peak = server.memory_kib()
    print(f"\n## {name}")
    print(f"server memory: {before / 1024:.0f} MiB before, peak {peak / 1024:.0f} MiB, "
          f"{now / 1024:.0f} MiB after")  # fmt: skip
    print(f"answers: {dict(outcome.answers)}")
    for note in outcome.notes:
        print(note)
    print(f"well-behaved client, quiet:  {summary(quiet)}")
    print(f"well-behaved client, attack: {summary(during)}")


# --- the scenarios --------------------------------------------------------------------------


Run = Callable[[Server, Watcher, float], None]
SCENARIOS: dict[str, tuple[dict[str, str], Run]] = {}


def scenario_of(name: str, env: dict[str, str] | None = None) -> Callable[[Run], Run]:
    def register(run: Run) -> Run:
        SCENARIOS[name] = (env or {}, run)
        return run

    return register


@scenario_of("header-flood")
def _header_flood(server: Server, watcher: Watcher, seconds: float) -> None:
    unit = (b"X-Flood: " + b"f" * 1000 + b"\r\n") * 64
    scenario("header-flood (20 connections × 10 MiB of header fields)", server, watcher, lambda o: [
        flood(server, o, b"GET /healthz HTTP/1.1\r\n", unit, 10 * ONE_MIB) for _ in range(20)
    ], seconds)  # fmt: skip


@scenario_of("long-url")
def _long_url(server: Server, watcher: Watcher, seconds: float) -> None:
    scenario("long-url (20 connections × a 100 MiB URL)", server, watcher, lambda o: [
        flood(server, o, b"GET /", b"a" * 65536, 100 * ONE_MIB) for _ in range(20)
    ], seconds)  # fmt: skip


@scenario_of("trailer")
def _trailer(server: Server, watcher: Watcher, seconds: float) -> None:
    start = chunked_head("/v1/tictactoe/validate") + b'10\r\n{"board": ["X"]}\r\n0\r\nX-T: '
    scenario("trailer (2 connections, an endless trailer field, over and over)", server, watcher,
             lambda o: [floods(server, o, start, b"t" * 4096, seconds) for _ in range(2)],
             seconds)  # fmt: skip


@scenario_of("chunk-extension")
def _chunk_extension(server: Server, watcher: Watcher, seconds: float) -> None:
    start = chunked_head("/v1/tictactoe/validate") + b"10;ext="
    scenario("chunk-extension (2 connections, an endless chunk extension, over and over)",
             server, watcher,
             lambda o: [floods(server, o, start, b"e" * 4096, seconds) for _ in range(2)],
             seconds)  # fmt: skip


@scenario_of("tiny-chunks")
def _tiny_chunks(server: Server, watcher: Watcher, seconds: float) -> None:
    body = json.dumps({"board": ["X" * 100] * 100, "pad": " " * (ONE_MIB - 11000)}).encode()
    chunks = b"".join(b"1\r\n" + body[i : i + 1] + b"\r\n" for i in range(len(body)))
    scenario("tiny-chunks (2 connections, a 1 MiB body in one-byte chunks, over and over)",
             server, watcher, lambda o: [
                 floods(server, o, chunked_head("/v1/tictactoe/validate"), chunks, seconds)
                 for _ in range(2)
             ], seconds)  # fmt: skip


@scenario_of("431-flood")
def _431_flood(server: Server, watcher: Watcher, seconds: float) -> None:
    unit = (b"X-Flood: " + b"f" * 1000 + b"\r\n") * 64

    async def four(outcome: Outcome) -> None:
        start = b"GET /healthz HTTP/1.1\r\n"
        sent = await asyncio.gather(
            *(flood_on(server, outcome, start, unit, seconds) for _ in range(4))
        )
        # Drained, all of it is read; else what the kernel's socket buffers hold, unread.
        outcome.notes.append(f"sent into the connections: {sum(sent) / ONE_MIB:,.0f} MiB")

    scenario("431-flood (4 connections, over and over: endless header fields, sent on after the "
             "431)", server, watcher, lambda o: [four(o)], seconds)  # fmt: skip


@scenario_of("batch-flood")
def _batch_flood(server: Server, watcher: Watcher, seconds: float) -> None:
    body = costly_batch().ljust(ONE_MIB)  # the body limit's worth
    scenario("batch-flood (64 connections from one address: 1 MiB validate-batch of 101 boards "
             "of 100 × 100, one after another)", server, watcher, lambda o: [
                 batches(server, o, seconds, "/v1/tictactoe/validate-batch", body)
                 for _ in range(64)
             ], seconds)  # fmt: skip


@scenario_of("costly-batch")
def _costly_batch(server: Server, watcher: Watcher, seconds: float) -> None:
    body = costly_batch()

    async def send(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post(
            "/v1/tictactoe/validate-batch", content=body,
            headers={"content-type": "application/json"},
        )  # fmt: skip

    scenario("costly-batch (2 connections, validate-batch of 101 boards of 100 × 100, k = 1)",
             server, watcher, lambda o: [repeat(server, o, seconds, send) for _ in range(2)],
             seconds)  # fmt: skip


@scenario_of("unknown-keys")
def _unknown_keys(server: Server, watcher: Watcher, seconds: float) -> None:
    body, own = members_flood(), new_game(server.url, OTHER_ATTACKER, 3)
    json_header = {"content-type": "application/json"}

    async def made_up(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post(
            f"/v1/games/{watcher.game['id']}/moves", content=body,
            headers={**json_header, "Authorization": "Bearer made-up"},
        )  # fmt: skip

    async def with_token(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post(
            f"/v1/games/{own['id']}/moves", content=body,
            headers={**json_header, "Authorization": f"Bearer {own['tokens']['1']}"},
        )  # fmt: skip

    scenario("unknown-keys (1 MiB of unknown keys on POST …/moves: a made-up token from one "
             "address, a player's token of its own game from another)", server, watcher,
             lambda o: [repeat(server, o, seconds, made_up),
                        repeat(server, o, seconds, with_token, OTHER_ATTACKER)],
             seconds)  # fmt: skip


@scenario_of("wrong-tokens")
def _wrong_tokens(server: Server, watcher: Watcher, seconds: float) -> None:
    async def guess(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post(
            f"/v1/games/{watcher.game['id']}/moves", json={"row": 0, "col": 0},
            headers={"Authorization": f"Bearer {os.urandom(16).hex()}"},
        )  # fmt: skip

    scenario("wrong-tokens (2 connections guessing tokens of the watcher's game)", server,
             watcher, lambda o: [repeat(server, o, seconds, guess) for _ in range(2)],
             seconds)  # fmt: skip


@scenario_of("move-history")
def _move_history(server: Server, watcher: Watcher, seconds: float) -> None:
    game = move_limit(server, source="127.0.0.3", report=False)

    async def read(client: httpx.AsyncClient) -> httpx.Response:
        return await client.get(f"/v1/games/{game}/moves", params={"limit": 10_000})

    scenario("move-history (4 readers of GET …/moves?limit=10000 of a 10,000-move game)",
             server, watcher, lambda o: [repeat(server, o, seconds, read) for _ in range(4)],
             seconds)  # fmt: skip


@scenario_of("early-draw")
def _early_draw(server: Server, watcher: Watcher, seconds: float) -> None:
    scenario("early-draw (one address, two connections: moves and takebacks in early_draw games "
             "of k = 500,000 on 10⁶ × 10⁶; every one must be accepted)", server, watcher,
             lambda o: [early_draw_games(server, o, seconds) for _ in range(2)],
             seconds)  # fmt: skip


def audits(bodies: list[bytes]) -> Send:
    """Audits of ``bodies``, one after another, round and round (a batch's at audit-batch)."""
    turns = itertools.cycle(bodies)

    async def send(client: httpx.AsyncClient) -> httpx.Response:
        body = next(turns)
        path = "/v1/records/audit-batch" if body.startswith(b'{"records"') else "/v1/records/audit"
        return await client.post(path, content=body, headers={"content-type": "application/json"})

    return send


@scenario_of("costly-audit")
def _costly_audit(server: Server, watcher: Watcher, seconds: float) -> None:
    bodies = costly_audits()
    scenario("costly-audit (the costliest audit bodies: 10,000-move early-draw records on a "
             "1,000,000 board, a 95-byte one of k = 500,000, 1 MiB batches of long records; one "
             "connection of one address, four of another)", server, watcher,
             lambda o: [repeat(server, o, seconds, audits(bodies)),
                        *(repeat(server, o, seconds, audits(bodies), OTHER_ATTACKER)
                          for _ in range(4))],
             seconds)  # fmt: skip


def record_reads(game: str) -> Send:
    """Reads of ``game``'s record in every format, round and round (those its kind has no use
    for are 422 at once)."""
    formats = itertools.cycle(["json", "transcript", "ggf", "psq", "sgf"])

    async def send(client: httpx.AsyncClient) -> httpx.Response:
        return await client.get(f"/v1/games/{game}/record", params={"format": next(formats)})

    return send


@scenario_of("record-reread")
def _record_reread(server: Server, watcher: Watcher, seconds: float) -> None:
    game = move_limit(server, source="127.0.0.3", report=False)
    readers = [f"127.0.0.{10 + i}" for i in range(8)]
    scenario("record-reread (8 addresses re-reading a 10,000-move public game's record, every "
             "format)", server, watcher,
             lambda o: [repeat(server, o, seconds, record_reads(game), reader)
                        for reader in readers],
             seconds)  # fmt: skip


@scenario_of("one-address-moves", {"ADJUDICATOR_MAX_TOTAL_MOVES": "20000"})
def _one_address_moves(server: Server, watcher: Watcher, seconds: float) -> None:
    games = asyncio.run(create_games(server, 20, ATTACKER))
    filled = Outcome()  # first, as many moves as the store takes from it (at most its bound)
    asyncio.run(play_games(server, filled, 60, games, until=20_000))

    def polite_can_create(outcome: Outcome) -> None:
        outcome.notes.append(f"before: the attacker's moves were answered {dict(filled.answers)}")
        created = new_game(server.url)
        outcome.notes.append(f"the watcher creates a game after it: {'id' in created}")

    scenario("one-address-moves (one address plays 20 games as fast as it can, until the store "
             "takes no more of its moves, and on; MAX_TOTAL_MOVES 20,000, a client's share "
             "2,000)", server, watcher,
             lambda o: [play_games(server, o, seconds, games[i::2]) for i in range(2)], seconds,
             polite_can_create)  # fmt: skip


@scenario_of("refusals")
def _refusals(server: Server, watcher: Watcher, seconds: float) -> None:
    scenario("refusals (one address: refused moves under fresh 255-character keys in its 20 "
             "games)", server, watcher, lambda o: [refused_moves(server, o, seconds)],
             seconds)  # fmt: skip


@scenario_of("join-replay")
def _join_replay(server: Server, watcher: Watcher, seconds: float) -> None:
    scenario("join-replay (another address sends joins again under the joiners' guessable "
             "Idempotency-Keys)", server, watcher, lambda o: [join_replays(server, o, seconds)],
             seconds)  # fmt: skip


@scenario_of("capacity-500")
def _capacity(server: Server, watcher: Watcher, seconds: float) -> None:
    async def fill_then_hold(outcome: Outcome) -> None:
        started = time.monotonic()
        await capacity(server, outcome, 500)
        outcome.notes.append(f"500 addresses × 20 creations in {time.monotonic() - started:.1f} s")
        await asyncio.sleep(max(0.0, seconds - (time.monotonic() - started)))

    scenario("capacity-500 (500 addresses create games at their allowed burst)", server,
             watcher, lambda o: [fill_then_hold(o)], seconds)  # fmt: skip


@scenario_of("capacity-crowd", {"ADJUDICATOR_FORWARDED_ALLOW_IPS": CROWD_PROXY})
def _capacity_crowd(server: Server, watcher: Watcher, seconds: float) -> None:
    async def waves(outcome: Outcome) -> None:
        started = time.monotonic()
        for label, sources in (
            ("400 addresses of four /24s and 100 /64s of one /48", few_networks()),
            ("500 addresses of 500 /24s", many_networks()),
        ):
            wave = Outcome()
            began = time.monotonic()
            await crowd(server, wave, sources)
            outcome.answers.update(wave.answers)
            outcome.notes.append(
                f"{label}, 20 creations each in {time.monotonic() - began:.1f} s: "
                f"{dict(wave.answers)}; then the watcher's game: {await plays(server)}"
            )
        await asyncio.sleep(max(0.0, seconds - (time.monotonic() - started)))
        outcome.notes.append(f"at the end, the watcher's game: {await plays(server)}")

    scenario("capacity-crowd (crowds of addresses create games at their allowed burst; a "
             "client that plays creates its game)", server, watcher, lambda o: [waves(o)],
             seconds)  # fmt: skip


@scenario_of("streams-fair")
def _streams_fair(server: Server, watcher: Watcher, seconds: float) -> None:
    games = [new_game(server.url, "127.0.0.3", 3)["id"] for _ in range(10)]

    async def hold(outcome: Outcome) -> None:
        holders = [
            stream(server, games[i], outcome, seconds, f"127.0.0.{10 + i}")
            for i in range(10) for _ in range(100)
        ]  # fmt: skip
        tasks = [asyncio.ensure_future(h) for h in holders]
        await asyncio.sleep(min(5.0, seconds / 2))
        mine = Outcome()
        await stream(server, watcher.game["id"], mine, 1.0, WATCHER)
        outcome.notes.append(f"the watcher's own stream, opened then: {dict(mine.answers)}")
        await asyncio.gather(*tasks)

    scenario("streams-fair (10 addresses × 100 streams, then the watcher opens one)", server,
             watcher, lambda o: [hold(o)], seconds)  # fmt: skip


@scenario_of("slowloris")
def _slowloris(server: Server, watcher: Watcher, seconds: float) -> None:
    slow = ARGS.slow
    scenario(f"slowloris ({slow} silent and {slow} trickling connections)", server, watcher,
             lambda o: [trickle(server, o, seconds, silent=i % 2 == 0) for i in range(2 * slow)],
             seconds)  # fmt: skip


def _streams_env() -> dict[str, str]:
    many = str(ARGS.streams + 100)
    return {"ADJUDICATOR_MAX_STREAMS": many, "ADJUDICATOR_MAX_STREAMS_PER_GAME": many,
            "ADJUDICATOR_MAX_STREAMS_PER_CLIENT": many,
            "ADJUDICATOR_MAX_CONNECTIONS": str(ARGS.streams + 1000)}  # fmt: skip


@scenario_of("streams")
def _streams(server: Server, watcher: Watcher, seconds: float) -> None:
    game = new_game(server.url, "127.0.0.3", 3)["id"]
    scenario(f"streams ({ARGS.streams} streams on one game)", server, watcher, lambda o: [
        stream(server, game, o, seconds, ATTACKER) for _ in range(ARGS.streams)
    ], seconds)  # fmt: skip


@scenario_of("replay")
def _replay(server: Server, watcher: Watcher, seconds: float) -> None:
    game = move_limit(server, source="127.0.0.3", report=False)
    scenario("replay (10 clients reading a 10,000-move history)", server, watcher,
             lambda o: [replay(server, game, o, seconds) for _ in range(10)], seconds)  # fmt: skip


@scenario_of("move-limit")
def _move_limit(server: Server, watcher: Watcher, seconds: float) -> None:
    move_limit(server, source="127.0.0.3")


@scenario_of("faults")
def _faults(server: Server, watcher: Watcher, seconds: float) -> None:
    cluster = CLUSTER
    if cluster is None:
        print("\n## faults: needs --store cluster")
        return
    from app.stores.redis.keys import game_keys

    holder = cluster.primary_of(game_keys(watcher.game["id"]).meta)
    victim = next(node for node in cluster.nodes if node is not holder)

    def faults(outcome: Outcome) -> None:
        import redis

        third = max(1.0, seconds / 4)
        time.sleep(third)
        redis.Redis(port=victim.port).execute_command("CLIENT", "PAUSE", "800", "ALL")
        time.sleep(third)
        redis.Redis(port=victim.port).execute_command("CLIENT", "KILL", "TYPE", "normal")
        time.sleep(third)
        victim.stop()  # SIGKILL
        time.sleep(1.5)
        victim.start()
        outcome.notes.append("a primary paused, its connections killed, killed and restarted")

    async def through(outcome: Outcome) -> None:
        fault = asyncio.to_thread(faults, outcome)
        games = await create_games(server, 6, ATTACKER)
        said: Counter[str] = Counter()
        await asyncio.gather(
            fault, *(keyed_moves(server, outcome, seconds, games[i::2], said) for i in range(2))
        )
        outcome.notes.append(f"what the 503s of keyed moves said: {dict(said)}")

    scenario("faults (cluster: a primary without the watcher's game paused, cut and restarted "
             "while clients play)", server, watcher, lambda o: [through(o)], seconds)  # fmt: skip


def move_limit(server: Server, *, source: str = ATTACKER, report: bool = True) -> str:
    """Play a game to its move limit (and one more); answers the game's id."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=server.url, timeout=10, transport=transport) as client:
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


ARGS: argparse.Namespace
CLUSTER: Any = None


def main() -> None:
    global ARGS, CLUSTER
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--slow", type=int, default=4000)
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--store", choices=["memory", "redis", "cluster"], default="memory")
    parser.add_argument("--only", help="run the scenarios whose name contains this")
    parser.add_argument("--baseline", help="a git revision to run every scenario against too")
    ARGS = parser.parse_args()
    if (os.cpu_count() or 1) >= 2:  # the service on core 0, everything else on core 1
        os.sched_setaffinity(0, {1})
    print(f"# bench.hostile, {ARGS.store} store, {ARGS.seconds:g} s an attack")
    with (
        store(ARGS.store) if ARGS.store != "memory" else nullcontext((None, None)) as found,
        exported(ARGS.baseline) if ARGS.baseline else nullcontext(None) as baseline,
    ):
        url, CLUSTER = found
        trees = [(f"baseline {baseline[1][:7]}", baseline[0])] if baseline else []
        for name, (env, run) in SCENARIOS.items():
            if ARGS.only is not None and ARGS.only not in name:
                continue
            env = {**env, **(_streams_env() if name == "streams" else {})}
            for label, root in [*trees, ("this code", None)]:
                if trees:
                    print(f"\n### {label}")
                with adjudicator(env, url, root) as server:
                    watcher = Watcher(server.url)
                    run(server, watcher, ARGS.seconds)


if __name__ == "__main__":
    main()
