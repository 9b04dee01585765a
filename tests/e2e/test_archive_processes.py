"""Games that last across processes (contract part 3, "Games that last"), with real servers: two
service processes on one Redis and one PostgreSQL archive each finished game once and read back
each other's; a process killed (SIGKILL) right after it acknowledged the endings loses none of
them, on Redis + PostgreSQL and on memory + SQLite; and after every process restarts, every
game is listed and its signature verifies.
"""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from app.records.signing import verify
from tests.conftest import empty_store, fresh_database
from tests.servers import Served, adjudicator_command, wait_for

WIN = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]


def finish(url: str, other: str | None = None) -> str:
    """A tic-tac-toe game won by player 1, its moves sent to ``url`` and ``other`` in turn (two
    processes sharing one store): its id."""
    game = httpx.post(f"{url}/v1/games", json={"game": "tictactoe", "n": 3}).json()
    for seq, (row, col) in enumerate(WIN):
        token = game["tokens"]["1" if seq % 2 == 0 else "2"]
        target = other if other and seq % 2 else url
        moved = httpx.post(
            f"{target}/v1/games/{game['id']}/moves", json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {token}"},
        )  # fmt: skip
        assert moved.status_code == 201, moved.text
    return str(game["id"])


def listed(url: str) -> list[str]:
    """Every id the archive lists, page by page."""
    ids: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 1000, **({"cursor": cursor} if cursor else {})}
        page = httpx.get(f"{url}/v1/archive/games", params=params).json()
        ids += [game["id"] for game in page["games"]]
        cursor = page["next"]
        if cursor is None:
            return ids


def rows(archive_url: str) -> int:
    """The games the PostgreSQL archive holds, counted in the database itself."""

    async def count() -> int:
        connection = await asyncpg.connect(archive_url, timeout=10)
        try:
            return int(await connection.fetchval("SELECT count(*) FROM games"))
        finally:
            await connection.close()

    return asyncio.run(count())


def all_verified(url: str, ids: list[str]) -> None:
    keys = httpx.get(f"{url}/v1/keys").json()["keys"]
    for game_id in ids:
        record = httpx.get(f"{url}/v1/archive/games/{game_id}")
        assert record.status_code == 200, record.text
        assert verify(record.json(), keys, "record").typ == "record"


@pytest.fixture
def redis_and_postgres(request: pytest.FixtureRequest, postgres_url: str) -> dict[str, str]:
    return {
        "ADJUDICATOR_STORE_URL": empty_store(request, "redis"),
        "ADJUDICATOR_ARCHIVE_URL": fresh_database(postgres_url),
        "ADJUDICATOR_ARCHIVE_POLL_SECONDS": "0.2",
    }


def test_two_processes_on_one_redis_archive_each_game_once(
    redis_and_postgres: dict[str, str], tmp_path: Path
) -> None:
    env = redis_and_postgres
    with (
        adjudicator_command(env, tmp_path / "a.log") as first,
        adjudicator_command(env, tmp_path / "b.log") as second,
    ):
        ended = [finish(first.url, second.url) for _ in range(6)]
        ended += [finish(second.url, first.url) for _ in range(6)]
        wait_for(lambda: sorted(listed(first.url)) == sorted(ended), "every game archived")
        assert sorted(listed(second.url)) == sorted(ended)
        all_verified(second.url, ended)  # signed by either process: both keys are kept
    assert rows(env["ADJUDICATOR_ARCHIVE_URL"]) == len(ended)
    with adjudicator_command(env, tmp_path / "c.log") as again:  # every process restarted
        assert sorted(listed(again.url)) == sorted(ended)
        all_verified(again.url, ended)


def killed(served: Served) -> None:
    os.kill(served.pid, signal.SIGKILL)


@pytest.mark.parametrize("stores", ["redis+postgresql", "memory+sqlite"])
def test_a_process_killed_after_acknowledged_endings_loses_none(
    stores: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    if stores == "memory+sqlite":
        env = {
            "ADJUDICATOR_STORE_URL": "memory://",
            "ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}",
        }
    else:
        env = request.getfixturevalue("redis_and_postgres")
    with adjudicator_command(env, tmp_path / "killed.log") as served:
        ended = [finish(served.url) for _ in range(10)]
        killed(served)  # at once: no shutdown, no last archiving
    with adjudicator_command(env, tmp_path / "after.log") as after:
        wait_for(lambda: sorted(listed(after.url)) == sorted(ended), "every ended game archived")
        all_verified(after.url, ended)


def test_a_rated_tournament_across_two_processes_on_redis_and_postgres(
    redis_and_postgres: dict[str, str], tmp_path: Path
) -> None:
    """Players made on one process play a rated round robin paired on the other, each move sent
    to either: every result reaches its board once, both processes show the same finished,
    signed tournament, and each player is rated once a game; racing pairings on both processes
    pair one round."""
    env = redis_and_postgres
    with (
        adjudicator_command(env, tmp_path / "a.log") as first,
        adjudicator_command(env, tmp_path / "b.log") as second,
    ):
        made = [httpx.post(f"{first.url}/v1/players", json={"name": f"P{n}"}).json()
                for n in range(5)]  # fmt: skip
        organiser, entrants = made[0], made[1:]
        keys = {p["id"]: p["key"] for p in entrants}
        org = {"Authorization": f"Bearer {organiser['key']}"}
        body = {"name": "Two", "system": "round_robin", "game": {"n": 3}, "rated": True,
                "players": [p["id"] for p in entrants]}  # fmt: skip
        tournament = httpx.post(f"{second.url}/v1/tournaments", json=body, headers=org).json()
        path = f"/v1/tournaments/{tournament['id']}"
        games = 0
        url = f"{path}/rounds"
        for _ in range(3):  # four players: three rounds
            with ThreadPoolExecutor(4) as pool:  # at once, two requests to each process
                answers = list(
                    pool.map(
                        lambda base: httpx.post(f"{base}{url}", headers=org, timeout=30),
                        (first.url, second.url, first.url, second.url),
                    )
                )
            assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
            shown = next(a for a in answers if a.status_code == 201).json()["rounds"][-1]
            for pairing in shown["pairings"]:
                seats = {1: keys[pairing["players"]["1"]], 2: keys[pairing["players"]["2"]]}
                for seq, (row, col) in enumerate(WIN):
                    target = (first.url, second.url)[seq % 2]
                    moved = httpx.post(
                        f"{target}/v1/games/{pairing['game']}/moves",
                        json={"row": row, "col": col},
                        headers={"Authorization": f"Bearer {seats[1 + seq % 2]}"},
                    )  # fmt: skip
                    assert moved.status_code == 201, moved.text
                games += 1
            wait_for(
                lambda: all(p["result"] == "1-0" for p in httpx.get(f"{first.url}{path}").json()
                            ["rounds"][-1]["pairings"]),
                "the round's results on its boards",
            )  # fmt: skip
        final = [httpx.get(f"{base}{path}").json() for base in (first.url, second.url)]
        assert final[0]["status"] == "finished"
        assert final[0]["standings"] == final[1]["standings"]
        keys_published = httpx.get(f"{second.url}/v1/keys").json()["keys"]
        assert verify(final[0], keys_published, "tournament").typ == "tournament"
        pool = "tictactoe/3x3/k3/correspondence"
        rated = [
            httpx.get(f"{first.url}/v1/players/{p['id']}").json()["ratings"][pool]["games"]
            for p in entrants
        ]
        assert sum(rated) == 2 * games
