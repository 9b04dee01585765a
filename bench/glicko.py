"""Glicko-2's cost per rated game: ``after_game`` (both players' new ratings) in microseconds.

    python -m bench.glicko [--games 20000] [--rounds 5]

Replays ``--games`` seeded games among 50 players (new players at first, then settled ratings:
step 5's Illinois iterations vary with how surprising a game is) and reports the median, over
``--rounds`` rounds, of the mean time per call.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from app.league.glicko2 import Rating, after_game


def league(games: int, seed: int) -> list[tuple[int, int, float]]:
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        i, j = rng.sample(range(50), 2)
        played.append((i, j, rng.choice((0.0, 0.5, 1.0))))
    return played


def one_round(games: list[tuple[int, int, float]]) -> float:
    players = [Rating.NEW] * 50
    start = time.perf_counter()
    for i, j, score in games:
        players[i], players[j] = after_game(players[i], players[j], score)
    return (time.perf_counter() - start) / len(games) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    games = league(args.games, seed=1)
    times = [one_round(games) for _ in range(args.rounds)]
    print(f"after_game: median {statistics.median(times):.2f} µs a game ({args.games} games, "
          f"{args.rounds} rounds; fastest {min(times):.2f}, slowest {max(times):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
