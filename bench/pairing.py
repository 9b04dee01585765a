"""How long the next Swiss round takes to pair: round 5 of an event of 500 entrants by default,
through ``app.league.swiss.swiss_round`` (caissify-pairings' Dutch system), median of a few runs.

    python -m bench.pairing [--players 500] [--round 5] [--runs 3] [--engine caissify|py4swiss|both]

The rounds before the one timed are paired by py4swiss's Dutch engine (the tests' reference,
installed with the test extras: it makes a Dutch history in seconds where caissify takes
minutes), with random results, a third each of wins, losses and draws (seeded).
``--engine py4swiss`` (or ``both``) times py4swiss on the round timed instead (or too), from
the TRF-16 report, writing and parsing included.
The goal: at most 2 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from app.league.events import Entrant, Pairing
from app.league.swiss import swiss_round
from tests.league.reference import Pairer, play, py4swiss_round


def history(entrants: Sequence[Entrant], rounds: int, total: int, seed: int) -> list[Pairing]:
    """``rounds`` rounds of a Dutch Swiss of ``total`` rounds, with random results."""
    rng = random.Random(seed)
    played: list[Pairing] = []
    for r in range(1, rounds + 1):
        played += play(py4swiss_round(entrants, played, r, total), rng)
    return played


def timed(pair: Pairer, entrants: Sequence[Entrant], played: Sequence[Pairing], r: int) -> float:
    started = time.perf_counter()
    pair(entrants, played, r, r + 4)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--round", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--engine", choices=["caissify", "py4swiss", "both"], default="caissify")
    args = parser.parse_args()
    entrants = [Entrant(n, f"id{n}", f"Player {n}") for n in range(1, args.players + 1)]
    played = history(entrants, args.round - 1, args.round + 4, seed=args.players)
    engines: dict[str, Pairer] = {}
    if args.engine in ("caissify", "both"):
        engines["caissify-pairings"] = swiss_round
    if args.engine in ("py4swiss", "both"):
        engines["py4swiss (TRF in)"] = py4swiss_round
    for name, pair in engines.items():
        runs = [timed(pair, entrants, played, args.round) for _ in range(args.runs)]
        print(
            f"{name}: round {args.round} of {args.players} entrants, median "
            f"{statistics.median(runs):.2f} s over {args.runs} runs "
            f"({', '.join(f'{run:.2f}' for run in runs)})",
            flush=True,
        )


if __name__ == "__main__":
    main()
