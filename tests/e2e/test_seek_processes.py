"""Seeks racing across processes (contract part 3, "Seeks, challenges and bots"), with real
servers: two service processes on one Redis sharing one archive — a PostgreSQL database, or one
SQLite file — take seeks of the same game from many players at once, each player's sent to
either process: two seeks that fit make one game, no player sits in two games, no two seeks that
fit are left waiting, and each game is told on both its players' streams, read from either
process. A process killed (SIGKILL) between the match and the game leaves the game to the other
process: made once, told once.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from app.stores.archive.archive import Archive
from app.stores.archive.offers import Offers
from app.stores.redis.keys import LIVE_GAMES
from tests.conftest import empty_store, fresh_database
from tests.servers import adjudicator_command, redis_server, wait_for

GAME = {"game": "tictactoe", "n": 3}
PLAYERS = 24
ROUNDS = 3


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def first_game_event(url: str, player: dict[str, Any], after: int) -> tuple[int, dict[str, Any]]:
    """The player's first ``game`` event after ``after``, read from ``url``: its id, its data."""
    headers = {**bearer(player["key"]), "Last-Event-ID": str(after)}
    with httpx.stream(
        "GET", f"{url}/v1/players/{player['id']}/events", headers=headers, timeout=30
    ) as stream:
        assert stream.status_code == 200
        block: dict[str, str] = {}
        for line in stream.iter_lines():
            if line:
                field, _, value = line.partition(": ")
                block[field] = value
            elif block.get("event") == "game":
                return int(block["id"]), json.loads(block["data"])
            else:
                block = {}
    raise AssertionError("the stream ended")


def post_seek(url: str, player: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(
        f"{url}/v1/seeks", json={"game": GAME}, headers=bearer(player["key"]), timeout=30
    )
    assert answer.status_code == 201, answer.text
    posted: dict[str, Any] = answer.json()
    return posted


@pytest.fixture(params=["postgresql", "sqlite"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    if request.param == "postgresql":
        archive = fresh_database(request.getfixturevalue("postgres_url"))
    else:
        archive = f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    return {
        "ADJUDICATOR_STORE_URL": empty_store(request, "redis"),
        "ADJUDICATOR_ARCHIVE_URL": archive,
        "ADJUDICATOR_MAX_SEEKS_PER_PLAYER": "2",
    }


def test_racing_seeks_on_two_processes_make_one_game_a_pair(
    shared: dict[str, str], tmp_path: Path
) -> None:
    with (
        adjudicator_command(shared, tmp_path / "a.log") as first,
        adjudicator_command(shared, tmp_path / "b.log") as second,
    ):
        urls = [first.url, second.url]
        made = [
            httpx.post(f"{urls[n % 2]}/v1/players", json={"name": f"P{n}"}).json()
            for n in range(PLAYERS)
        ]
        seen = {player["id"]: 0 for player in made}  # each player's last event read
        with ThreadPoolExecutor(PLAYERS) as pool:
            for round_number in range(ROUNDS):
                targets = [urls[(index + round_number) % 2] for index in range(PLAYERS)]
                answers = list(pool.map(post_seek, targets, made))
                games = {answer["game"] for answer in answers} - {None}
                seated: dict[str, str] = {}
                for game_id in games:
                    state = httpx.get(f"{first.url}/v1/games/{game_id}").json()
                    for seat, player in state["players"].items():
                        assert player not in seated, "a player seated in two games"
                        seated[player] = f"{game_id}/{seat}"
                left = httpx.get(f"{second.url}/v1/seeks").json()["seeks"]
                assert len(left) < 2, "two seeks that fit each other left waiting"
                assert len(seated) + len(left) == PLAYERS
                for index, player in enumerate(made):
                    if player["id"] not in seated:
                        continue
                    number, told = first_game_event(urls[index % 2], player, seen[player["id"]])
                    seen[player["id"]] = number
                    assert f"{told['game']}/{told['seat']}" == seated[player["id"]]
                for seek in left:  # the odd one out withdraws, for the next round
                    owner = next(p for p in made if p["id"] == seek["player"]["id"])
                    gone = httpx.delete(
                        f"{first.url}/v1/seeks/{seek['id']}", headers=bearer(owner["key"])
                    )
                    assert gone.status_code == 204


@pytest.fixture(params=["postgresql", "sqlite"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return fresh_database(request.getfixturevalue("postgres_url"))
    return f"sqlite:///{tmp_path / 'archive.sqlite3'}"


async def kept(url: str, players: list[str]) -> tuple[list[list[str]], int]:
    """Each player's events (their names), and the games still pending, read in the database."""
    archive = Archive(url)
    try:
        offers = Offers(archive, 100, 1)
        told = [[event for _, event, _ in await offers.events(p, 0, 100)] for p in players]
        return told, len(await offers.stale(2**62, 100))
    finally:
        await archive.close()


def test_a_process_killed_after_a_match_leaves_the_game_made_once_and_told_once(
    database: str, tmp_path: Path
) -> None:
    """Two processes on one Redis (of this test's own) share the database. Redis holds its
    writes (CLIENT PAUSE WRITE) while a seek posted to the first process fits a waiting one:
    the match commits, the game's making waits, and the process is killed there (SIGKILL). The
    other process's periodic work makes the game and tells both players: one game, told once
    to each, the seeks gone."""
    with redis_server(tmp_path) as store:
        shared = {
            "ADJUDICATOR_STORE_URL": store, "ADJUDICATOR_ARCHIVE_URL": database,
            "ADJUDICATOR_PENDING_GAME_SECONDS": "1", "ADJUDICATOR_ARCHIVE_POLL_SECONDS": "0.2",
        }  # fmt: skip
        pauser = redis.Redis.from_url(store)
        with (
            adjudicator_command(shared, tmp_path / "a.log") as dying,
            adjudicator_command(shared, tmp_path / "b.log") as living,
            ThreadPoolExecutor(1) as pool,
        ):
            ann, bo = (
                httpx.post(f"{living.url}/v1/players", json={"name": name}).json()
                for name in ("Ann", "Bo")
            )
            waiting = post_seek(living.url, ann)
            assert waiting["game"] is None
            pauser.execute_command("CLIENT", "PAUSE", "60000", "WRITE")
            try:
                posting = pool.submit(post_seek, dying.url, bo)
                wait_for(
                    lambda: httpx.get(f"{living.url}/v1/seeks").json()["seeks"] == [],
                    "the match",
                    30,
                )
                os.kill(dying.pid, signal.SIGKILL)
                with pytest.raises(httpx.TransportError):
                    posting.result()
            finally:
                pauser.execute_command("CLIENT", "UNPAUSE")
            _, ann_told = first_game_event(living.url, ann, 0)  # waits for the other process
            _, bo_told = first_game_event(living.url, bo, 0)
            assert ann_told["game"] == bo_told["game"]
            assert {ann_told["seat"], bo_told["seat"]} == {1, 2}
            assert (ann_told["seek"], bo_told["via"]) == (waiting["id"], "seek")
            state = httpx.get(f"{living.url}/v1/games/{ann_told['game']}").json()
            assert state["players"] == {str(ann_told["seat"]): ann["id"],
                                        str(bo_told["seat"]): bo["id"]}  # fmt: skip
            assert pauser.zcard(LIVE_GAMES) == 1  # one game in the store
            told, pending = asyncio.run(kept(database, [ann["id"], bo["id"]]))
            assert told == [["game"], ["game"]]
            assert pending == 0
            assert httpx.get(f"{living.url}/v1/seeks").json()["seeks"] == []
        pauser.close()
