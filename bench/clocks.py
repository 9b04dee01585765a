"""A clocked move of each mode against an unclocked one, through HTTP, on both stores, side by
side in one run.

    python -m bench.clocks [--rounds 7] [--moves 400]

Starts the ``adjudicator`` command twice on loopback ports — on the memory store, and on a
redis-server it starts — and plays, round after round, ``--moves`` moves of each game in turn
over one keep-alive connection per server: tic-tac-toe with n = 1,000,000 (Redis: the O(1)
script) and Reversi 8 × 8 (Redis: the generic engine), each without clocks and with clocks of
each mode (a week each, 1 s increment or delay: running from the third move on, never falling
in a run; delay with a stage after move 50). The moves are chosen beforehand
(``bench/kinds.py``), so the client does no rules work while timed; game creation is not
timed. The order of the four runs of a game turns between rounds.

Reports each game's median time a move and, per round, each clocked ÷ unclocked ratio of runs
made in the same round (median over rounds). The goal: at most 1.1 ×.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator
from contextlib import ExitStack

import httpx

from bench.hostile import adjudicator, redis_url
from bench.kinds import Script, line_free_cells, reversi_games, timed_moves
from tests.servers import NO_CLIENT_LIMITS

WEEK = {"initial_seconds": 604_800, "increment_seconds": 1}
# None: no clock.
CLOCKS: dict[str, dict[str, object] | None] = {
    "unclocked": None,
    "fischer": WEEK,
    "bronstein": {**WEEK, "mode": "bronstein"},
    "delay + a stage": {
        **WEEK,
        "mode": "delay",
        "stages": [{"after_moves": 50, "add_seconds": 60}],
    },
}
GAMES = {"tic-tac-toe n = 10⁶": {"n": 1_000_000}, "Reversi 8 × 8": {"game": "reversi"}}


def reversi_rounds(rounds: int, moves: int) -> Iterator[list[Script]]:
    games = reversi_games(rounds * (moves // 55 + 2), seed=17)
    for _ in range(rounds):
        chosen: list[Script] = []
        while sum(map(len, chosen)) < moves:
            chosen.append(next(games))
        yield chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--moves", type=int, default=400)
    args = parser.parse_args()
    per_game = 100
    scripts: dict[str, list[list[Script]]] = {
        "tic-tac-toe n = 10⁶": [
            [flat[i : i + per_game] for i in range(0, len(flat), per_game)]
            for flat in (line_free_cells(args.moves, seed=r) for r in range(args.rounds))
        ],
        "Reversi 8 × 8": list(reversi_rounds(args.rounds, args.moves)),
    }
    # (store, game, clock) -> the median time a move, per round
    times: dict[tuple[str, str, str], list[float]] = {}
    with ExitStack() as stack:
        redis = stack.enter_context(redis_url())
        clients = {
            store: stack.enter_context(
                httpx.Client(base_url=stack.enter_context(adjudicator(env)).url, timeout=10)
            )
            for store, env in (
                ("memory", NO_CLIENT_LIMITS),
                ("redis", {**NO_CLIENT_LIMITS, "ADJUDICATOR_STORE_URL": redis}),
            )
        }
        for r in range(args.rounds):
            for store, client in clients.items():
                for name, body in GAMES.items():
                    turn = r % len(CLOCKS)
                    order = [*CLOCKS][turn:] + [*CLOCKS][:turn]
                    for label in order:
                        clock = CLOCKS[label]
                        game = body if clock is None else {**body, "clock": clock}
                        moved = timed_moves(client, game, scripts[name][r])
                        times.setdefault((store, name, label), []).append(statistics.median(moved))
    print(f"A move through HTTP, median of {args.rounds} rounds of {args.moves} moves each\n")
    print("| store | game | clock | a move | ÷ unclocked |")
    print("|---|---|---|---:|---:|")
    for store in clients:
        for name in GAMES:
            plain = times[(store, name, "unclocked")]
            for label in CLOCKS:
                timed = times[(store, name, label)]
                ratio = statistics.median(t / p for t, p in zip(timed, plain, strict=True))
                print(
                    f"| {store} | {name} | {label} | {statistics.median(timed) * 1e3:.3f} ms | "
                    f"{ratio:.2f} × |"
                )


if __name__ == "__main__":
    main()
