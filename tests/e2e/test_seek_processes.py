"""Seeks racing across processes (contract part 3, "Seeks, challenges and bots"), with real
servers: two service processes on one Redis sharing one archive — a PostgreSQL database, or one
SQLite file — take seeks of the same game from many players at once, each player's sent to
either process: two seeks that fit make one game, no player sits in two games, no two seeks that
fit are left waiting, and each game is told on both its players' streams, read from either
process.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import empty_store, fresh_database
from tests.servers import adjudicator_command

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
