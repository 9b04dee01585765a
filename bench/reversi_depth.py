"""A Reversi move on Redis at move 60 ÷ at move 2, this code and an older revision side by side.

    python -m bench.reversi_depth --baseline 044e937 [--games 200]

Reversi on Redis takes the generic engine: the game's position is a text in its meta hash
(``position``), written with every move and, when the process has no copy of the game as it
last wrote it, read and decoded before the move is decided. Its size decides whether a move
late in a game costs more than an early one. A redis-server is started here on a free loopback
port (``bench.hostile.redis_url``); both versions' ``RedisGameStore`` run in this process (REV's
``app`` exported as ``app_baseline`` by ``bench.inprocess.export``) against it, with no HTTP.

``--games`` random legal 8 × 8 games that fill the board (60 moves; chosen beforehand with the
rules engine, ``bench.kinds.reversi_games``) are played through each version's store, game by
game, the versions alternating which goes first. The time of each ``store.play`` call is taken
at moves 2, 59 and 60 (60 ends the game, so 59 shows the depth without the ending); the
``position`` field's length (``HSTRLEN``) is read after moves 2 and 60, outside the timing.
Two ways a move is decided, each its own pair of stores: on the copy the process kept of the
game (the default ``kept_games``: one round trip, the position only written), and with no copy
(``kept_games=0``: every move reads and decodes the position first, as when another process
made the previous move). The table gives medians over games; the goal for this code: at most
1.2 at 60 ÷ at 2. About 30 s with the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import redis.asyncio as redis

from bench.hostile import redis_url
from bench.inprocess import export
from bench.kinds import Script, reversi_games

TIMED = (2, 59, 60)  # the moves whose time is taken
SIZED = (2, 60)  # after which the position's length is read
MODES = {"kept copy (default)": 256, "no copy (kept_games=0)": 0}


def full_games(count: int, seed: int) -> list[Script]:
    """``count`` random 8 × 8 games that fill the board (60 moves)."""
    chosen: list[Script] = []
    for script in reversi_games(10 * count, seed):
        if len(script) == 60:
            chosen.append(script)
            if len(chosen) == count:
                return chosen
    raise RuntimeError(f"fewer than {count} full games among {10 * count}")


class Version:
    """One version's store and the classes its calls take."""

    def __init__(self, package: str, url: str, kept_games: int) -> None:
        def module(name: str) -> ModuleType:
            return __import__(f"{package}.{name}", fromlist=["_"])

        self.placement = module("sessions.kind").Placement
        try:  # its first field: the move
            self.move_request = module("sessions.exchange").MoveRequest
        except ModuleNotFoundError:  # before: among the session's values
            self.move_request = module("sessions.session").MoveRequest
        limits = {"max_games": 10**7, "idle_seconds": 3600, "timeout_seconds": 5,
                  "max_total_moves": 10**9, "kept_games": kept_games}  # fmt: skip
        try:  # the house in wings: the stores apart, given the kinds they keep
            self.game_keys = module("stores.redis.keys").game_keys
            store = module("stores.redis.store").RedisGameStore
            self.store: Any = store(module("kinds").REGISTRY, url, **limits)
        except ModuleNotFoundError:  # before: the stores among the sessions
            self.game_keys = module("sessions.redis_keys").game_keys
            self.store = module("sessions.redis_store").RedisGameStore(url, **limits)
        # A game to make: a NewGame value, or (before it) the kind and parameters themselves.
        self.new_game = getattr(module("sessions.store"), "NewGame", None)
        self.times: dict[int, list[float]] = {seq: [] for seq in TIMED}
        self.sizes: dict[int, list[int]] = {seq: [] for seq in SIZED}

    async def play(self, script: Script, raw: redis.Redis) -> None:
        """One game of ``script``, timing and sizing the chosen moves."""
        made = ("reversi", {"height": 8, "width": 8})
        if self.new_game is not None:
            created = await self.store.create(self.new_game(*made))
        else:
            created = await self.store.create(*made)
        game = created.state.id
        meta = self.game_keys(game).meta
        for seq, (player, row, col) in enumerate(script, start=1):
            request = self.move_request(self.placement(row, col))
            started = time.perf_counter()
            result = await self.store.play(game, created.tokens[player - 1], request)
            elapsed = time.perf_counter() - started
            assert result.move.seq == seq, (seq, result.move)
            if seq in self.times:
                self.times[seq].append(elapsed * 1e6)
            if seq in self.sizes:
                self.sizes[seq].append(await raw.hstrlen(meta, "position"))
        assert result.state.status != "in_progress", "a full board ends the game"


async def measure(url: str, scripts: list[Script]) -> dict[str, dict[str, Version]]:
    raw = redis.Redis.from_url(url)
    results: dict[str, dict[str, Version]] = {}
    for mode, kept in MODES.items():
        versions = {
            "baseline": Version("app_baseline", url, kept),
            "this code": Version("app", url, kept),
        }
        for i, script in enumerate(scripts):
            order = list(versions.values())
            for version in order if i % 2 == 0 else reversed(order):
                await version.play(script, raw)
        for version in versions.values():
            await version.store.close()
        results[mode] = versions
    await raw.aclose()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="a git revision")
    parser.add_argument("--games", type=int, default=200, help="games of 60 moves, a version")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    scripts = full_games(args.games, args.seed)
    with tempfile.TemporaryDirectory() as tmp, redis_url() as url:
        export(args.baseline, Path(tmp))
        sys.path.insert(0, tmp)
        results = asyncio.run(measure(url, scripts))
    print(
        f"{args.games} games of 60 moves a version and way, one redis-server on loopback, "
        f"baseline {args.baseline}; medians over games of one store.play call\n"
    )
    print(
        "| decided on | version | move 2 µs | move 59 µs | move 60 µs | 60 ÷ 2 | 59 ÷ 2 "
        "| position bytes at 2 | at 60 |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for mode, versions in results.items():
        for name, version in versions.items():
            at = {seq: statistics.median(times) for seq, times in version.times.items()}
            size = {seq: statistics.median(sizes) for seq, sizes in version.sizes.items()}
            print(
                f"| {mode} | {name} | {at[2]:,.0f} | {at[59]:,.0f} | {at[60]:,.0f} "
                f"| {at[60] / at[2]:.2f} | {at[59] / at[2]:.2f} "
                f"| {size[2]:,.0f} | {size[60]:,.0f} |"
            )


if __name__ == "__main__":
    main()
