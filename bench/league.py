"""The league's figures: a rated result's rating update with its archive write, and a standings
read of a large event.

    python -m bench.league [--games 2000] [--players 500] [--reads 200] [--postgres]

* ``rated``: ``Archive.put`` of finished games, side by side in one run: unrated games (the
  archive write alone) and rated games between random players of a hundred (the write with both
  players' Glicko-2 update in its transaction), their turns alternating; medians and p99 and
  the difference of the medians, on SQLite and, with ``--postgres``, on a PostgreSQL server
  started here.
* ``standings``: a Swiss of ``--players`` players and nine rounds (rows written straight into
  the tables, the pairings made by random pairs), then ``GET /v1/tournaments/{id}`` — the
  document, its standings recomputed from every result with their tie-breaks — through the ASGI
  app as the command serves it, ``--reads`` times: p50, p99 of reads of a document unchanged
  since the last (kept: one small query), of one after a result of the last round (written
  into the tables, as the archive writes it, before every tenth read: its finished rounds are
  not read again) and of a process's first read (nothing kept), for an event whose last round
  is being played and for a finished one (signed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from app.cli.serve import served_app
from app.settings import Settings
from app.stores.archive.archive import Archive, ArchivedRecord, Finished, Rated
from app.stores.archive.migrate import upgrade
from app.stores.archive.tables import (
    entrants,
    pairings,
    players,
    tournament_rounds,
    tournaments,
)

POOL = "tictactoe/3x3/k3/correspondence"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def finished(index: int, rated: Rated | None) -> Finished:
    game_id = f"bench{index:09d}"
    record = json.dumps({"id": game_id, "moves": ["a1", "b2", "a2", "b1", "a3"]}).encode()
    return Finished(
        id=game_id, game="tictactoe", rule=None, status="won", winner=1, reason="line",
        move_count=5, created_ms=1_700_000_000_000, ended_ms=1_700_000_000_000 + index,
        private=False, summary={"id": game_id, "game": "tictactoe"},
        records=[ArchivedRecord("json", "application/json", record)], rated=rated,
        players={} if rated is None else {1: rated.players[0], 2: rated.players[1]},
    )  # fmt: skip


async def rated(url: str, label: str, games: int) -> None:
    archive = Archive(url)
    await upgrade(archive)
    rng = random.Random(2026)
    ids = [f"player{index:04d}" for index in range(100)]
    async with archive.engine.begin() as connection:
        await connection.execute(
            players.insert(),
            [{"id": player, "name": player, "key_hash": "0" * 64, "owner": "bench",
              "created_at": 0} for player in ids],
        )  # fmt: skip
    times: dict[str, list[float]] = {"unrated": [], "rated": []}
    try:
        for index in range(games):
            for kind in ("unrated", "rated") if index % 2 else ("rated", "unrated"):
                first, second = rng.sample(ids, 2)
                result = Rated(POOL, (first, second), rng.choice([1.0, 0.5, 0.0]))
                game = finished(2 * index + (kind == "rated"), result if kind == "rated" else None)
                started = time.perf_counter()
                await archive.put(game, 1_700_000_000_000)
                times[kind].append((time.perf_counter() - started) * 1000)
    finally:
        await archive.close()
    print(f"{label}: archive write of a finished game, {games} each (ms)")
    print("| game | p50 | p99 |")
    print("|---|---:|---:|")
    for kind, taken in times.items():
        print(f"| {kind} | {statistics.median(taken):.3f} | {percentile(taken, 0.99):.3f} |")
    added = statistics.median(times["rated"]) - statistics.median(times["unrated"])
    print(f"the rating update adds {added:.3f} ms to the median write")


async def standings(directory: Path, count: int, reads: int, finished: bool) -> None:
    url = f"sqlite:///{directory / f'standings-{finished}.sqlite3'}"
    archive = Archive(url)
    await upgrade(archive)
    rng = random.Random(500)
    tid = "benchswiss"
    ids = [f"p{index:05d}" for index in range(count + 1)]
    rounds = 9
    async with archive.engine.begin() as connection:
        await connection.execute(
            players.insert(),
            [{"id": player, "name": player, "key_hash": "0" * 64, "owner": "bench",
              "created_at": 0} for player in ids],
        )  # fmt: skip
        event = {
            "id": tid, "name": "Bench", "organiser": ids[-1], "system": "swiss",
            "rounds": rounds, "game": json.dumps({"n": 3}), "openings": "[]", "rated": False,
            "status": "finished" if finished else "running", "changes": 0, "created_at": 0,
            "ended_at": 1 if finished else None,
        }  # fmt: skip
        await connection.execute(tournaments.insert().values(event))
        await connection.execute(
            entrants.insert(),
            [{"tournament": tid, "number": n, "player": ids[n - 1], "withdrawn": None}
             for n in range(1, count + 1)],
        )  # fmt: skip
        rows: list[dict[str, Any]] = []
        for number in range(1, rounds + 1):
            order = list(range(1, count + 1))
            rng.shuffle(order)
            for board, at in enumerate(range(0, count - 1, 2), 1):
                rows.append(
                    {"tournament": tid, "round": number, "board": board, "seat1": order[at],
                     "seat2": order[at + 1], "game_id": f"g{number}-{board}",
                     "result": None if number == rounds and not finished
                               else rng.choice(["1-0", "0-1", "½-½"]), "discs1": None,
                     "discs2": None}
                )  # fmt: skip
        await connection.execute(pairings.insert(), rows)
        await connection.execute(
            tournament_rounds.insert(),
            [{"tournament": tid, "number": n, "claimed_at": 0, "paired_at": 1}
             for n in range(1, rounds + 1)],
        )  # fmt: skip
    await archive.close()
    # As the command serves it: its startup heap frozen (``served_app``).
    app = served_app(Settings(archive_url=url, client_cpu_ms_per_minute=0, client_share=1))
    taken: dict[str, list[float]] = {"unchanged": [], "changed": [], "cold": []}
    given = sqlite3.connect(directory / f"standings-{finished}.sqlite3")
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for index in range(reads):
                read = "unchanged"
                if index % 10 == 0 and not finished:  # a result given: the document changed
                    read = "changed"
                    with given:
                        given.execute(
                            "UPDATE pairings SET result = ? WHERE tournament = ? AND round = ? "
                            "AND board = ?", (rng.choice(["1-0", "0-1"]), tid, rounds,
                                              index // 10 + 1),
                        )  # fmt: skip
                        given.execute("UPDATE tournaments SET changes = changes + 1")
                elif index % 10 == 5 or (index % 10 == 0 and finished):
                    read = "cold"  # nothing kept: a process's first read of the event
                    for kept in ("tournament_documents", "tournaments_read"):  # (older: one)
                        if hasattr(app.state, kept):
                            getattr(app.state, kept).clear()
                started = time.perf_counter()
                answer = await client.get(f"/v1/tournaments/{tid}")
                taken[read].append((time.perf_counter() - started) * 1000)
                assert answer.status_code == 200, answer.text
    given.close()
    state = "finished (signed)" if finished else "running, its last round being played"
    print(f"standings read: GET /v1/tournaments/{{id}} of a {count}-player Swiss, {rounds} "
          f"rounds, {state}")  # fmt: skip
    for read, spent in taken.items():
        if spent:
            print(f"{read}: p50 {statistics.median(spent):.1f} ms, p99 "
                  f"{percentile(spent, 0.99):.1f} ms ({len(spent)} reads)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--only", default="", choices=["", "rated", "standings"])
    parser.add_argument("--postgres", action="store_true")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        if arguments.only in ("", "rated"):
            sqlite = f"sqlite:///{directory / 'rated.sqlite3'}"
            asyncio.run(rated(sqlite, "SQLite", arguments.games))
            if arguments.postgres:
                from tests.servers import postgres_server

                with postgres_server() as url:
                    asyncio.run(rated(url, "PostgreSQL", arguments.games))
        if arguments.only in ("", "standings"):
            for finished in (False, True):
                asyncio.run(standings(directory, arguments.players, arguments.reads, finished))


if __name__ == "__main__":
    main()
