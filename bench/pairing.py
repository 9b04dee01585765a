"""How long the next Swiss round takes to pair: round 5 of an event of 500 entrants by default,
through ``app.league.swiss.swiss_round`` (gacrux's Dutch system, the 2026 edition, from the
TRF-16 report: writing and reading included; round 1 is worked out without the engine), median
of a few runs. The baseline is the same command at an earlier commit (a worktree of it), run in
the same shell session, alternating with this one.

    python -m bench.pairing [--players 500] [--round 5] [--runs 3] [--profile]

The rounds before the one timed are paired the same way, with random results, a third each of
wins, losses and draws (seeded by the number of entrants). ``--profile`` then prints where one
more run of the round spends its time (cProfile, the heaviest functions by their own time and
by the time under them; the profiler slows the Python parts about 1.4 times).
The goal: at most 2 s.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from collections.abc import Sequence

from app.league.events import Entrant, Pairing
from app.league.swiss import swiss_round
from tests.league.reference import play


def history(entrants: Sequence[Entrant], rounds: int, total: int, seed: int) -> list[Pairing]:
    """``rounds`` rounds of a Dutch Swiss of ``total`` rounds, with random results."""
    rng = random.Random(seed)
    played: list[Pairing] = []
    for r in range(1, rounds + 1):
        played += play(swiss_round(entrants, played, r, total), rng)
    return played


def timed(entrants: Sequence[Entrant], played: Sequence[Pairing], r: int) -> float:
    started = time.perf_counter()
    swiss_round(entrants, played, r, r + 4)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--round", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    entrants = [Entrant(n, f"id{n}", f"Player {n}") for n in range(1, args.players + 1)]
    played = history(entrants, args.round - 1, args.round + 4, seed=args.players)
    runs = [timed(entrants, played, args.round) for _ in range(args.runs)]
    print(
        f"swiss_round: round {args.round} of {args.players} entrants, median "
        f"{statistics.median(runs):.2f} s over {args.runs} runs "
        f"({', '.join(f'{run:.2f}' for run in runs)})",
        flush=True,
    )
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(swiss_round, entrants, played, args.round, args.round + 4)
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(12)
        stats.sort_stats("cumulative").print_stats(12)


if __name__ == "__main__":
    main()
