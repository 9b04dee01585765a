"""The archive's figures: what archiving adds to the move that ends a game, a listing's latency
over a large archive, and an export's rate and memory.

    python -m bench.archive [--games 1000000] [--endings 2000] [--only ending|listing|export]
                            [--postgres]

* ``ending``: the answer time of the move that ends a tic-tac-toe game, in-process through the
  ASGI app (no network, no load generator: what the service itself adds), on two apps side by
  side in one run, the memory store each, one without an archive and one archiving into a SQLite
  file; their turns alternate game by game. Medians, p99, and the difference of the medians.
* ``listing``: an archive seeded with ``--games`` finished games (rows written straight into
  the tables, in batches: as the archiver writes them, with made-up summaries), then pages of
  ``GET /v1/archive/games`` with each filter, through ``Archive.page``; p50 / p99 per filter,
  on SQLite and, with ``--postgres``, on a PostgreSQL server started here (its binaries needed).
* ``export``: every game of that archive exported as NDJSON, a batch at a time as the route
  reads it (``Archive.exported``): games per second, and the process's peak memory before and
  after (``ru_maxrss``): flat, whatever the archive's size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from app.main import create_app
from app.settings import Settings
from app.stores.archive.archive import Archive, Cursor, Where
from app.stores.archive.migrate import upgrade
from app.stores.archive.tables import games, records, seats

WIN = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # player 1 wins with the fifth move
KINDS = ["tictactoe", "reversi", "gomoku", "connect4"]
NAMES = [f"player{index}" for index in range(2000)]
BATCH = 5000  # rows a seeding insert writes
FILTERS: dict[str, Where] = {
    "none": Where(),
    "game": Where(game="reversi"),
    "status (rare)": Where(status="aborted"),
    "name": Where(name="player7"),
    "game + ended_before": Where(game="gomoku", ended_before=1_700_000_500_000),
    "reason + rule": Where(reason="timeout", rule="renju"),
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --- ending -------------------------------------------------------------------------------------


async def ending(endings: int, directory: Path) -> None:
    limits: dict[str, Any] = {
        "create_rate_per_minute": 0, "client_cpu_ms_per_minute": 0, "client_share": 1,
        "max_games": endings * 2 + 100,
    }  # fmt: skip
    apps = {
        "no archive": create_app(Settings(archive_url="none", **limits)),
        "SQLite archive": create_app(
            Settings(archive_url=f"sqlite:///{directory / 'ending.sqlite3'}", **limits)
        ),
    }
    times: dict[str, list[float]] = {name: [] for name in apps}
    async with ExitStackAsync(apps) as clients:
        for index in range(endings):
            order = list(clients.items())
            if index % 2:
                order.reverse()
            for name, client in order:
                times[name].append(await last_move(client))
    print(f"ending move, {endings} games each, in-process (ms)")
    print("| store | p50 | p99 |")
    print("|---|---:|---:|")
    for name, taken in times.items():
        print(
            f"| memory, {name} | {statistics.median(taken):.3f} | {percentile(taken, 0.99):.3f} |"
        )
    added = statistics.median(times["SQLite archive"]) - statistics.median(times["no archive"])
    print(f"archiving adds {added:.3f} ms to the median ending move")


class ExitStackAsync:
    """Both apps started (their lifespans: the archive migrated, the archiver running), each
    with an in-process client; stopped afterwards."""

    def __init__(self, apps: dict[str, Any]) -> None:
        self.apps = apps
        self.contexts: list[Any] = []

    async def __aenter__(self) -> dict[str, httpx.AsyncClient]:
        clients = {}
        for name, app in self.apps.items():
            lifespan = app.router.lifespan_context(app)
            await lifespan.__aenter__()
            self.contexts.append(lifespan)
            transport = httpx.ASGITransport(app=app)
            clients[name] = httpx.AsyncClient(transport=transport, base_url="http://bench")
        self.clients = clients
        return clients

    async def __aexit__(self, *exc: object) -> None:
        for client in self.clients.values():
            await client.aclose()
        for lifespan in self.contexts:
            await lifespan.__aexit__(None, None, None)


async def last_move(client: httpx.AsyncClient) -> float:
    """A game played to its last move: that move's answer time (ms)."""
    game = (await client.post("/v1/games", json={"game": "tictactoe", "n": 3})).json()
    taken = 0.0
    for seq, (row, col) in enumerate(WIN):
        token = game["tokens"]["1" if seq % 2 == 0 else "2"]
        started = time.perf_counter()
        answer = await client.post(
            f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {token}"},
        )  # fmt: skip
        taken = (time.perf_counter() - started) * 1000
        assert answer.status_code == 201, answer.text
    return taken


# --- listing and export -------------------------------------------------------------------------


def rows(count: int, seed: int = 48) -> Iterator[tuple[list[dict[str, Any]], ...]]:
    """Made-up finished games in batches: their games', seats' and records' rows."""
    chance = random.Random(seed)
    start = 1_700_000_000_000
    for first in range(0, count, BATCH):
        batch: tuple[list[dict[str, Any]], ...] = ([], [], [])
        for index in range(first, min(count, first + BATCH)):
            game_id = f"g{index:012d}"
            kind = chance.choice(KINDS)
            status = chance.choices(["won", "draw", "aborted"], [90, 9, 1])[0]
            ended = start + index * 1000 + chance.randrange(1000)
            names = (chance.choice(NAMES), chance.choice(NAMES))
            summary = {"id": game_id, "game": kind, "status": status, "names": names}
            batch[0].append({
                "id": game_id, "game": kind, "status": status, "winner": 1, "move_count": 40,
                "rule": "renju" if kind == "gomoku" and chance.random() < 0.3 else None,
                "reason": chance.choice(["line", "timeout", "resignation", "no_moves"]),
                "created_at": ended - 60_000, "ended_at": ended, "private": index % 50 == 0,
                "summary": json.dumps(summary), "readers": "[]", "archived_at": ended,
            })  # fmt: skip
            for seat, name in enumerate(names, 1):
                batch[1].append({"game_id": game_id, "seat": seat, "name": name, "player": None,
                                 "private": index % 50 == 0, "ended_at": ended})  # fmt: skip
            record = json.dumps({"game": kind, "moves": ["f5"] * 40, "state": summary}).encode()
            batch[2].append({"game_id": game_id, "format": "json", "body": record,
                             "media_type": "application/json", "refused": None})  # fmt: skip
        yield batch


async def seed(archive: Archive, count: int) -> float:
    await upgrade(archive)
    started = time.perf_counter()
    async with archive.engine.begin() as connection:
        if (await connection.execute(games.select().limit(1))).first() is not None:
            return 0.0  # seeded by an earlier run
    for batch in rows(count):
        async with archive.engine.begin() as connection:
            for table, values in zip((games, seats, records), batch, strict=True):
                await connection.execute(table.insert(), values)
    return time.perf_counter() - started


async def listing(archive: Archive, label: str, pages: int = 200) -> None:
    print(
        f"\n{label}: GET /v1/archive/games (Archive.page, limit 100), {pages} pages a filter (ms)"
    )
    print("| filter | p50 | p99 | first page's games |")
    print("|---|---:|---:|---:|")
    for name, where in FILTERS.items():
        times, after, listed = [], None, 0
        for index in range(pages):
            started = time.perf_counter()
            page = await archive.page(where, after, 100)
            times.append((time.perf_counter() - started) * 1000)
            if index == 0:
                listed = len(page.games)
            after = page.next if page.next else None  # walk on; from the top again at the end
        print(f"| {name} | {statistics.median(times):.2f} | {percentile(times, 0.99):.2f} | "
              f"{listed} |")  # fmt: skip


async def export(archive: Archive, label: str) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    below = await archive.newest()
    after: Cursor | None = None
    exported, size = 0, 0
    started = time.perf_counter()
    while True:
        bodies, after = await archive.exported(Where(), "json", after, below, 500)
        exported += len(bodies)
        size += sum(len(body) + 1 for body in bodies)
        if after is None:
            break
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\n{label}: export (NDJSON, 500 a batch): {exported:,} games, {size / 1e6:,.0f} MB in "
          f"{seconds:.1f} s = {exported / seconds:,.0f} games/s; peak memory {before / 1024:,.0f} "
          f"→ {peak / 1024:,.0f} MiB")  # fmt: skip


async def database(url: str, label: str, count: int, only: str) -> None:
    archive = Archive(url, timeout_seconds=60)
    try:
        took = await seed(archive, count)
        if took:
            print(f"\n{label}: seeded {count:,} games in {took:.0f} s")
        if only in ("", "listing"):
            await listing(archive, label)
        if only in ("", "export"):
            await export(archive, label)
    finally:
        await archive.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--endings", type=int, default=2000)
    parser.add_argument("--only", default="", choices=["", "ending", "listing", "export"])
    parser.add_argument("--postgres", action="store_true")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        if arguments.only in ("", "ending"):
            asyncio.run(ending(arguments.endings, directory))
        if arguments.only == "ending":
            return
        sqlite = f"sqlite:///{directory / 'listing.sqlite3'}"
        asyncio.run(database(sqlite, "SQLite", arguments.games, arguments.only))
        if arguments.postgres:
            from tests.servers import postgres_server

            with postgres_server() as url:
                asyncio.run(database(url, "PostgreSQL", arguments.games, arguments.only))


if __name__ == "__main__":
    main()
