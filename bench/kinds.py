"""A session move through HTTP, by game kind, side by side in one run.

    python -m bench.kinds [--rounds 5] [--moves 600] [--store memory|redis]

Starts the ``adjudicator`` command on a loopback port (the memory store, or a redis-server it
starts) and plays, round after round, ``--moves`` moves of each kind one after another over one
keep-alive connection: tic-tac-toe with n = 1,000,000 (k = n, the counters), k in a row with
n = 1,000,000 and k = 5 (run lengths), Reversi 8 × 8, and gomoku: freestyle on 15 × 15 and on
1,000,000 × 1,000,000 and renju on 15 × 15, the same games on each (random games near the
centre, no move of them forbidden to Black, each to its five; on the large board moved to its
centre). The Reversi and gomoku games are chosen beforehand with the rules engines, so the
client does no rules work while timed. Game creation is not timed. Reports each kind's median
time a move and, per round, its ratio to the tic-tac-toe move (median over rounds), then the
gomoku ratios the issue asks for: a renju move ÷ a freestyle move (goal ≤ 1.5), a freestyle move
at 10⁶ ÷ at 15 (flat: goal ≤ 1.3). The goal for Reversi: at most 1.5 × tic-tac-toe. And a move
of a game created with ``early_draw`` ÷ the same move without (k in a row at 10⁶, and gomoku
freestyle): the price of keeping its windows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import nullcontext

import httpx

from app.rules import gomoku, reversi
from bench.hostile import adjudicator, redis_url
from tests.servers import NO_CLIENT_LIMITS

Script = list[tuple[int, int, int]]  # (player, row, col) of each move
FREESTYLE = "gomoku freestyle 15 × 15"
FREESTYLE_FAR = "gomoku freestyle 10⁶ × 10⁶"
RENJU = "renju 15 × 15"
K_IN_A_ROW = "k in a row n = 10⁶, k = 5"
EARLY_K = "k in a row n = 10⁶, k = 5, early draw"
EARLY_FREESTYLE = "gomoku freestyle 15 × 15, early draw"


def reversi_games(count: int, seed: int) -> Iterator[Script]:
    """Random 8 × 8 games to their end, as scripts."""
    rng = random.Random(seed)
    for _ in range(count):
        board = reversi.Board.from_rows(list(reversi.OPENING))
        color: reversi.Color | None = reversi.BLACK
        script: Script = []
        while color is not None:
            move = rng.choice(reversi.legal_moves(board, color))
            script.append((1 if color == reversi.BLACK else 2, move.row, move.col))
            outcome = reversi.apply_move(board, move.row, move.col, color)
            board, color = outcome.board, outcome.next
        yield script


def gomoku_games(count: int, seed: int) -> Iterator[Script]:
    """Random renju games on 15 × 15 to a five (or 120 moves), moves drawn near the centre and
    none of them forbidden to Black: games every rule plays the same way (no Black overline)."""
    rng = random.Random(seed)
    for _ in range(count):
        board = gomoku.GomokuBoard(gomoku.RENJU_SIZE)
        script: Script = []
        player = 1
        while len(script) < 120:
            row, col = rng.randrange(3, 12), rng.randrange(3, 12)
            if board.at(row, col) is not None:
                continue
            color: gomoku.Color = "B" if player == 1 else "W"
            check = gomoku.check_move(board, gomoku.RENJU_SIZE, row, col, color, "renju")
            if not check.legal:
                continue
            board.cells[row, col] = color
            script.append((player, row, col))
            if check.wins:
                break
            player = 3 - player
        yield script


def line_free_cells(count: int, seed: int) -> Script:
    """Moves on a board of 1,000,000 that never put two stones of a player side by side."""
    rng = random.Random(seed)
    rows = rng.sample(range(0, 1_000_000, 3), count)
    return [(1 + i % 2, row, rng.randrange(0, 1_000_000, 3)) for i, row in enumerate(rows)]


def timed_moves(
    client: httpx.Client, body: dict[str, object], scripts: list[Script]
) -> list[float]:
    """Play each script in a new game of ``body``; the time of each move (s)."""
    times = []
    for script in scripts:
        game = client.post("/v1/games", json=body).json()
        path = f"/v1/games/{game['id']}/moves"
        headers = {p: {"Authorization": f"Bearer {game['tokens'][p]}"} for p in ("1", "2")}
        for player, row, col in script:
            started = time.perf_counter()
            answer = client.post(path, json={"row": row, "col": col}, headers=headers[str(player)])
            times.append(time.perf_counter() - started)
            assert answer.status_code == 201, answer.text
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--store", choices=("memory", "redis"), default="memory")
    args = parser.parse_args()
    games = list(reversi_games(args.rounds * (args.moves // 55 + 2), seed=11))
    kinds: dict[str, tuple[dict[str, object], list[list[Script]]]] = {}
    per_game = 100
    flat = [line_free_cells(args.moves, seed=r) for r in range(args.rounds)]
    kinds["tic-tac-toe n = 10⁶"] = (
        {"n": 1_000_000},
        [[f[i : i + per_game] for i in range(0, len(f), per_game)] for f in flat],
    )
    kinds[K_IN_A_ROW] = (
        {"game": "tictactoe", "n": 1_000_000, "k": 5},
        [[f[i : i + per_game] for i in range(0, len(f), per_game)] for f in flat],
    )
    kinds[EARLY_K] = ({**kinds[K_IN_A_ROW][0], "early_draw": True}, kinds[K_IN_A_ROW][1])
    rounds_of_reversi: list[list[Script]] = []
    remaining = iter(games)
    for _ in range(args.rounds):
        chosen: list[Script] = []
        while sum(map(len, chosen)) < args.moves:
            chosen.append(next(remaining))
        rounds_of_reversi.append(chosen)
    kinds["Reversi 8 × 8"] = ({"game": "reversi"}, rounds_of_reversi)
    five = iter(gomoku_games(args.rounds * (args.moves // 20 + 2), seed=13))
    rounds_of_gomoku: list[list[Script]] = []
    for _ in range(args.rounds):
        chosen = []
        while sum(map(len, chosen)) < args.moves:
            chosen.append(next(five))
        rounds_of_gomoku.append(chosen)
    middle = 500_000
    far = [
        [[(p, middle + r, middle + c) for p, r, c in g] for g in games]
        for games in rounds_of_gomoku
    ]
    kinds[FREESTYLE] = ({"game": "gomoku"}, rounds_of_gomoku)
    kinds[FREESTYLE_FAR] = ({"game": "gomoku", "size": 1_000_000}, far)
    kinds[RENJU] = ({"game": "gomoku", "rule": "renju"}, rounds_of_gomoku)
    kinds[EARLY_FREESTYLE] = ({"game": "gomoku", "early_draw": True}, rounds_of_gomoku)

    with redis_url() if args.store == "redis" else nullcontext(None) as url:
        env = {**NO_CLIENT_LIMITS, **({"ADJUDICATOR_STORE_URL": url} if url else {})}
        with adjudicator(env) as server, httpx.Client(base_url=server.url, timeout=10) as client:
            medians: dict[str, list[float]] = {name: [] for name in kinds}
            for r in range(args.rounds):
                names = list(kinds) if r % 2 == 0 else list(reversed(kinds))
                for name in names:
                    body, scripts = kinds[name]
                    medians[name].append(statistics.median(timed_moves(client, body, scripts[r])))
    baseline = medians["tic-tac-toe n = 10⁶"]
    print(f"A move through HTTP ({args.store} store), median of {args.rounds} rounds of "
          f"{args.moves} moves a kind\n")  # fmt: skip
    print("| kind | per move | vs tic-tac-toe |")
    print("|---|---:|---:|")
    for name, values in medians.items():
        ratio = statistics.median(v / b for v, b in zip(values, baseline, strict=True))
        print(f"| {name} | {statistics.median(values) * 1e3:.3f} ms | {ratio:.2f} × |")
    print()
    for name, over, goal in (
        (RENJU, FREESTYLE, "goal ≤ 1.5"), (FREESTYLE_FAR, FREESTYLE, "goal ≤ 1.3"),
        (EARLY_K, K_IN_A_ROW, "O(k): the windows around the stone"),
        (EARLY_FREESTYLE, FREESTYLE, "O(k): the windows around the stone"),
    ):  # fmt: skip
        pairs = zip(medians[name], medians[over], strict=True)
        ratio = statistics.median(a / b for a, b in pairs)
        print(f"{name} ÷ {over}: {ratio:.2f} × ({goal})")


if __name__ == "__main__":
    main()
