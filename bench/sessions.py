"""Session moves: O(1) counters vs line and board scans; k in a row flat in n; server memory.

    python -m bench.sessions [--rounds 5] [--skip-memory]

Per-move time (median of interleaved rounds) of ``TicTacToe.play`` — bounds, turn, occupancy, then
the four counters — at n = 3, 1,000 and 1,000,000, next to two references that do the same
bookkeeping and then decide the win by scanning: the move's row, column and diagonals (O(n)), or
the whole board (O(n²); only where it finishes in reasonable time).

k in a row (k = 5, run lengths): per-move time at n = 15 and at n = 1,000,000, interleaved
rounds, and their ratio (flat: at most 1.3).

Memory: starts the real ``adjudicator`` server on a free loopback port, creates 400 games with
n = 1,000,000 (k = n, then k = 5) and plays 25 moves in each over HTTP, and reports the server's
resident memory (VmRSS) before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from app.kinds.tictactoe import TicTacToe
from app.sessions.kind import Placement
from bench.http import free_port
from tests.servers import NO_CLIENT_LIMITS

Moves = list[tuple[int, int]]


class ScanGame:
    """The reference: a dict board whose win check scans lines (O(n)) or the board (O(n²))."""

    def __init__(self, n: int, whole_board: bool) -> None:
        self.n, self.whole_board = n, whole_board
        self.cells: dict[tuple[int, int], int] = {}
        self.winner = 0

    def _line_won(self, cells: list[tuple[int, int]], player: int) -> bool:
        return all(self.cells.get(cell) == player for cell in cells)

    def play(self, placement: Placement, player: int) -> int:
        row, col = placement.row, placement.col
        if not (0 <= row < self.n and 0 <= col < self.n) or (row, col) in self.cells:
            raise ValueError("refused")
        self.cells[(row, col)] = player
        n = self.n
        if self.whole_board:
            lines = [[(r, c) for c in range(n)] for r in range(n)]
            lines += [[(r, c) for r in range(n)] for c in range(n)]
        else:
            lines = [[(row, c) for c in range(n)], [(r, col) for r in range(n)]]
        if self.whole_board or row == col:
            lines.append([(i, i) for i in range(n)])
        if self.whole_board or row + col == n - 1:
            lines.append([(i, n - 1 - i) for i in range(n)])
        if any(self._line_won(line, player) for line in lines):
            self.winner = player
        return self.winner


def scripts(n: int, games: int, moves: int, seed: int, k: int | None = None) -> list[Moves]:
    """Random distinct cells per game that win nothing (so every move of the script is legal
    and all sides agree)."""
    rng = random.Random(seed)
    result: list[Moves] = []
    while len(result) < games:
        cells: set[tuple[int, int]] = set()
        limit = min(moves, n * n)
        while len(cells) < limit:
            cells.add((rng.randrange(n), rng.randrange(n)))
        script = list(cells)
        game = TicTacToe(n, k)
        if all(
            game.play(Placement(r, c), 1 if i % 2 == 0 else 2) and game.status == "in_progress"
            for i, (r, c) in enumerate(script[:-1])
        ):
            result.append(script)
    return result


def per_move(make: Callable[[], object], games: list[Moves]) -> float:
    total = 0
    start = time.perf_counter()
    for script in games:
        game = make()
        for i, (r, c) in enumerate(script):
            game.play(Placement(r, c), 1 if i % 2 == 0 else 2)  # type: ignore[attr-defined]
        total += len(script)
    return (time.perf_counter() - start) / total


def timing(rounds: int) -> None:
    print(f"Per-move time, median of {rounds} interleaved rounds\n")
    print("| n | counters (O(1)) | line scan (O(n)) | board rescan (O(n²)) | scan / counters |")
    print("|---:|---:|---:|---:|---:|")
    for n, games, moves, scan_games in [
        (3, 2000, 4, 2000),
        (1000, 200, 25, 4),
        (10**6, 200, 25, 1),
    ]:
        corpus = scripts(n, games, moves, seed=n)
        scan_corpus = corpus[:scan_games] if n < 10**6 else [corpus[0][:3]]
        counters, line, board = [], [], []
        for _ in range(rounds):
            counters.append(per_move(lambda n=n: TicTacToe(n), corpus))
            line.append(per_move(lambda n=n: ScanGame(n, whole_board=False), scan_corpus))
            if n <= 1000:
                rescan_corpus = scan_corpus if n < 1000 else [corpus[0][:2]]
                board.append(per_move(lambda n=n: ScanGame(n, whole_board=True), rescan_corpus))
        c, ln = statistics.median(counters), statistics.median(line)
        b = f"{statistics.median(board) * 1e6:,.0f} µs" if board else "not run (~10¹² cells)"
        print(f"| {n:,} | {c * 1e6:,.2f} µs | {ln * 1e6:,.0f} µs | {b} | {ln / c:,.0f} × |")
    print()


def k_timing(rounds: int, k: int = 5) -> None:
    print(f"k in a row (k = {k}): per-move time, median of {rounds} interleaved rounds\n")
    sides = (15, 10**6)
    corpora = {n: scripts(n, 400, 25, seed=n, k=k) for n in sides}
    times: dict[int, list[float]] = {n: [] for n in sides}
    ratios = []
    for _ in range(rounds):
        for n in sides:
            times[n].append(per_move(lambda n=n: TicTacToe(n, k), corpora[n]))
        ratios.append(times[10**6][-1] / times[15][-1])
    print("| n | per move | vs n = 15 |")
    print("|---:|---:|---:|")
    for n in sides:
        ratio = statistics.median(ratios) if n == 10**6 else 1.0
        print(f"| {n:,} | {statistics.median(times[n]) * 1e6:,.2f} µs | {ratio:.2f} × |")
    print()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def memory(games: int = 400, moves: int = 25, n: int = 10**6, k: int | None = None) -> None:
    port = free_port()
    script = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "app.cli"]
    env = {**os.environ, "ADJUDICATOR_PORT": str(port), "ADJUDICATOR_LOG_LEVEL": "warning",
           **NO_CLIENT_LIMITS}  # fmt: skip
    server = subprocess.Popen(command, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=10) as client:
            for _ in range(200):
                try:
                    client.get("/healthz")
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            # Warm up code paths (and free the warm-up game) before the baseline reading.
            warm = client.post("/v1/games", json={"n": 3}).json()
            client.post(
                f"/v1/games/{warm['id']}/moves",
                json={"row": 0, "col": 0},
                headers={"Authorization": f"Bearer {warm['tokens']['1']}"},
            )
            client.delete(
                f"/v1/games/{warm['id']}",
                headers={"Authorization": f"Bearer {warm['tokens']['1']}"},
            )
            before = rss_kib(server.pid)
            body = {"n": n} if k is None else {"game": "tictactoe", "n": n, "k": k}
            for script in scripts(n, games, moves, seed=7, k=k):
                game = client.post("/v1/games", json=body).json()
                tokens = game["tokens"]
                for i, (r, c) in enumerate(script):
                    response = client.post(
                        f"/v1/games/{game['id']}/moves",
                        json={"row": r, "col": c},
                        headers={"Authorization": f"Bearer {tokens['1' if i % 2 == 0 else '2']}"},
                    )
                    assert response.status_code == 201, response.text
            after = rss_kib(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)
    delta = (after - before) / 1024
    print(f"Server memory, {games} games of n = {n:,}, k = {k or n:,} with {moves} moves each:")
    print(
        f"  RSS before {before / 1024:.1f} MiB, after {after / 1024:.1f} MiB: "
        f"+{delta:.1f} MiB for the games ({(after - before) * 1024 / games:,.0f} bytes per game)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    timing(args.rounds)
    k_timing(args.rounds)
    if not args.skip_memory:
        memory()
        memory(k=5)


if __name__ == "__main__":
    main()
