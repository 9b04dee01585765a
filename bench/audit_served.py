"""Audits of real games through a served process, over loopback sockets, against a baseline.

    python -m bench.audit_served [--baseline REV] [--rounds 5]

``bench.audit``'s three audit-batch measures (the WTHOR 1988 file as ``.wtb``, its first 1,000
games as JSON transcripts, full and summary), sent to the service as it is served (uvicorn and
the bounded protocol, ``bench.http``'s bootstrap: each version its own process and its own
``app`` package) by one client on this machine, a piece (a tenth of the games, one request) on
each version back to back, who goes first alternating. Each answer is read whole; every
JSON result must be a legal game with one ply a square of its transcript, and every ``.wtb``
answer a line a game.

Two figures a measure: games/s of wall time (the client's reading included: it shares the
machine's cores), and games a second of the server's own CPU time (``/proc``: its user and
system time), which other work on the machine does not change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx

from bench.audit import _TRANSCRIPTS, FULL_BODIES, SLICES, SUMMARY_BODIES, WTHOR_BODIES
from bench.http import BOOTSTRAP, ROOT, bounded_protocol_of, exported, free_port
from tests.servers import NO_CLIENT_LIMITS

MEASURES = {
    "served: WTHOR 1988, audit-batch": (WTHOR_BODIES, "application/octet-stream"),
    "served: 1,000 transcripts as JSON, full answer": (FULL_BODIES, "application/json"),
    "served: 1,000 transcripts as JSON, summary": (SUMMARY_BODIES, "application/json"),
}


@contextmanager
def served(root: Path) -> Iterator[tuple[str, int]]:
    """The code of ``root`` served on a free loopback port: its URL and its process id."""
    port = free_port()
    env = {
        **os.environ, **NO_CLIENT_LIMITS, "ADJUDICATOR_ARCHIVE_URL": "none",
        "ADJUDICATOR_STORE_URL": "memory://", "PYTHONPATH": str(root),
    }  # fmt: skip
    command = [
        sys.executable, "-c", BOOTSTRAP, str(root), "app.main:app", "--host", "127.0.0.1",
        "--port", str(port), "--log-level", "warning", "--no-access-log",
    ]  # fmt: skip
    protocol = bounded_protocol_of(root)
    if protocol:
        command += ["--http", protocol]
    process = subprocess.Popen(command, env=env, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{root} did not start")
            time.sleep(0.05)
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(timeout=15)


def cpu_seconds(pid: int) -> float:
    """A process's user and system time so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def audited(client: httpx.Client, url: str, body: bytes, media: str, first: int) -> int:
    """One piece sent and read whole, checked; the games it audited."""
    answer = client.post(f"{url}/v1/records/audit-batch", content=body,
                         headers={"content-type": media})  # fmt: skip
    assert answer.status_code == 200, answer.text[:300]
    if media != "application/json":
        return len(answer.content.splitlines())
    results = json.loads(answer.content)["results"]
    for offset, result in enumerate(results):
        assert result["illegal"] is None, result
        assert result["plies"] == len(_TRANSCRIPTS[first + offset]) // 2
    return len(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", help="a git revision to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with ExitStack() as stack:
        roots = {"service": ROOT}
        if args.baseline:
            roots["baseline"] = stack.enter_context(exported(args.baseline))[0]
        servers = {name: stack.enter_context(served(root)) for name, root in roots.items()}
        client = stack.enter_context(httpx.Client(timeout=120))
        wall: dict[str, dict[str, list[float]]] = {n: {m: [] for m in MEASURES} for n in roots}
        cpu: dict[str, dict[str, list[float]]] = {n: {m: [] for m in MEASURES} for n in roots}
        for round_ in range(args.rounds + 1):  # the first warms both up, and is not counted
            for measure, (bodies, media) in MEASURES.items():
                spent = {name: [0.0, 0.0, 0] for name in roots}
                for piece in range(SLICES):
                    names = list(roots) if (round_ + piece) % 2 == 0 else list(roots)[::-1]
                    for name in names:
                        url, pid = servers[name]
                        first = piece * len(_TRANSCRIPTS) // SLICES
                        used, started = cpu_seconds(pid), time.perf_counter()
                        games = audited(client, url, bodies[piece], media, first)
                        spent[name][0] += time.perf_counter() - started
                        spent[name][1] += cpu_seconds(pid) - used
                        spent[name][2] += games
                if round_:
                    for name, (seconds, server, games) in spent.items():
                        wall[name][measure].append(games / seconds)
                        cpu[name][measure].append(games / max(server, 1e-9))
            print(f"round {round_}/{args.rounds} done", file=sys.stderr, flush=True)
    report(wall, cpu, args.rounds, args.baseline)


def report(
    wall: dict[str, dict[str, list[float]]], cpu: dict[str, dict[str, list[float]]],
    rounds: int, baseline: str | None,
) -> None:  # fmt: skip
    print(f"median of {rounds} rounds" + (f", baseline {baseline}" if baseline else "") + "\n")
    columns = "| measure | games/s (wall) | games a server CPU-second |"
    if baseline:
        columns += " baseline (wall) | baseline (CPU) | vs baseline (CPU) |"
    print(columns)
    print("|---" + "|---:" * (columns.count("|") - 2) + "|")
    for measure in MEASURES:
        runs, used = wall["service"][measure], cpu["service"][measure]
        row = f"| {measure} | {statistics.median(runs):,.0f} | {statistics.median(used):,.0f} |"
        if baseline:
            base, base_cpu = wall["baseline"][measure], cpu["baseline"][measure]
            ratio = statistics.median(s / b for s, b in zip(used, base_cpu, strict=True))
            row += (f" {statistics.median(base):,.0f} | {statistics.median(base_cpu):,.0f} |"
                    f" {ratio:.2f} × |")  # fmt: skip
        print(row)


if __name__ == "__main__":
    main()
