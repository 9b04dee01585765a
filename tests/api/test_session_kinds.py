"""The session API, for every game kind, on both stores: one finished game of each kind
(classic tic-tac-toe, tic-tac-toe's five in a row, renju, Reversi) played through every session
feature — ETag / 304 polling, ``moves?since``, ``moves/{seq}``, events and their resumption,
``Idempotency-Key`` replays and refusals, ``If-Match``, racing clients, delete, capacity and
metrics.

The per-kind details (the board, the rules' refusals) are tested in their own modules; here a
kind is a creation body and a scripted game to its end."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.main import create_app
from tests.api.problems import assert_problem
from tests.api.test_games_api import parse_events
from tests.conftest import app_settings, shared_settings
from tests.rules import reference

Script = list[tuple[int, int, int]]  # (player, row, col) of each move, to the game's end


@dataclass(frozen=True)
class Kind:
    name: str
    body: dict[str, Any]
    script: Script
    facts: frozenset[str]  # the kind's own fields of the state


def reversi_script(size: int, seed: int) -> Script:
    """A random Reversi game on a size × size board to its end, chosen with the reference."""
    rng = random.Random(seed)
    grid = ["." * size for _ in range(size)]
    top = size // 2 - 1
    for row, stones in ((top, "WB"), (top + 1, "BW")):
        grid[row] = grid[row][:top] + stones + grid[row][top + 2 :]
    script: Script = []
    player = 1
    colors = {1: "B", 2: "W"}
    while True:
        if not reference.reversi_moves(grid, colors[player]):
            player = 3 - player
            if not reference.reversi_moves(grid, colors[player]):
                return script
        r, c = rng.choice(reference.reversi_moves(grid, colors[player]))
        grid = reference.reversi_play(grid, r, c, colors[player])
        script.append((player, r, c))
        player = 3 - player


KINDS = [
    Kind(
        "tictactoe", {"n": 3},
        [(1, 0, 0), (2, 1, 0), (1, 0, 1), (2, 1, 1), (1, 0, 2)], frozenset({"n", "k"}),
    ),
    Kind(
        "gomoku", {"game": "tictactoe", "n": 15, "k": 5},
        [(p, 7 if p == 1 else 0, 3 + i if p == 1 else 2 * i) for i in range(4) for p in (1, 2)]
        + [(1, 7, 7)],
        frozenset({"n", "k"}),
    ),
    Kind(
        "renju", {"game": "gomoku", "rule": "renju"},
        [(p, 7 if p == 1 else 0, 3 + i if p == 1 else 2 * i) for i in range(4) for p in (1, 2)]
        + [(1, 7, 7)],
        frozenset({"rule", "size", "foul", "colors", "opening"}),
    ),
    Kind(
        "reversi", {"game": "reversi", "height": 4, "width": 4}, reversi_script(4, seed=5),
        frozenset({"height", "width", "score", "final_score"}),
    ),
]  # fmt: skip
COMMON = {"id", "game", "status", "winner", "reason", "next_player", "version", "move_count",
          "last_move", "draw_offer", "takeback_offer", "at"}  # fmt: skip


@pytest.fixture(params=KINDS, ids=[kind.name for kind in KINDS])
def kind(request: pytest.FixtureRequest) -> Kind:
    chosen: Kind = request.param
    return chosen


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    """One app per store for the tests that read only the games they create; those that need
    settings of their own, or count games, build theirs."""
    settings = shared_settings(store_url=module_store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        yield c


def create(client: TestClient, kind: Kind) -> dict[str, Any]:
    response = client.post("/v1/games", json=kind.body)
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"/v1/games/{response.json()['id']}"
    game: dict[str, Any] = response.json()
    return game


def send(
    client: TestClient, game: dict[str, Any], player: int, row: int, col: int, **headers: str
) -> Any:
    return client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}", **headers},
    )  # fmt: skip


def test_a_whole_game_polled_listed_and_streamed(client: TestClient, kind: Kind) -> None:
    game = create(client, kind)
    assert set(game) == COMMON | kind.facts | {"tokens"}
    path = f"/v1/games/{game['id']}"
    tag = client.get(path).headers["etag"]
    answers = []
    for seq, (player, row, col) in enumerate(kind.script, start=1):
        assert client.get(path, headers={"If-None-Match": tag}).status_code == 304
        moved = send(client, game, player, row, col)
        assert moved.status_code == 201, moved.text
        assert moved.headers["location"] == f"{path}/moves/{seq}"
        answer = moved.json()
        answers.append(answer)
        assert (answer["move"]["seq"], answer["state"]["version"]) == (seq, seq)
        polled = client.get(path, headers={"If-None-Match": tag})
        assert (polled.status_code, polled.json()) == (200, answer["state"])
        tag = polled.headers["etag"]
        assert client.get(f"{path}/moves/{seq}").json() == answer["move"]
    final = answers[-1]["state"]
    assert final["status"] in ("won", "draw")
    assert final["next_player"] is None
    listed = client.get(f"{path}/moves", params={"since": 1}).json()
    assert listed == {"moves": [a["move"] for a in answers[1:]], "version": len(answers)}
    events = parse_events(client.get(f"{path}/events").text)
    assert [e["event"] for e in events] == ["move"] * len(answers) + ["end"]
    assert [json.loads(e["data"]) for e in events[:-1]] == answers
    assert json.loads(events[-1]["data"]) == final
    resumed = parse_events(client.get(f"{path}/events", headers={"Last-Event-ID": "2"}).text)
    assert [json.loads(e["data"]) for e in resumed[:-1]] == answers[2:]
    over = send(client, game, 1, *kind.script[0][1:])
    assert_problem(over, 409, "game_over")


def test_retries_replay_and_refusals_are_remembered(client: TestClient, kind: Kind) -> None:
    game = create(client, kind)
    (first, row, col), (second, row2, col2) = kind.script[:2]
    early = send(client, game, second, row2, col2, **{"Idempotency-Key": "early"})
    assert_problem(early, 409, "not_your_turn")
    original = send(client, game, first, row, col, **{"Idempotency-Key": "one"})
    assert original.status_code == 201
    retry = send(client, game, first, row, col, **{"Idempotency-Key": "one"})
    assert (retry.status_code, retry.json()) == (201, original.json())
    assert retry.headers["idempotent-replayed"] == "true"
    other = send(client, game, first, row2, col2, **{"Idempotency-Key": "one"})
    assert_problem(other, 422, "idempotency_key_reused")
    again = send(client, game, second, row2, col2, **{"Idempotency-Key": "early"})
    assert (again.status_code, again.json()) == (409, early.json())
    assert again.headers["idempotent-replayed"] == "true"
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == 1


def test_if_match_applies_only_at_that_version(client: TestClient, kind: Kind) -> None:
    game = create(client, kind)
    tag = client.get(f"/v1/games/{game['id']}").headers["etag"]
    (first, row, col), (second, row2, col2) = kind.script[:2]
    assert send(client, game, first, row, col, **{"If-Match": tag}).status_code == 201
    stale = send(client, game, second, row2, col2, **{"If-Match": tag})
    assert assert_problem(stale, 412, "precondition_failed")["version"] == 1
    current = client.get(f"/v1/games/{game['id']}").headers["etag"]
    assert send(client, game, second, row2, col2, **{"If-Match": current}).status_code == 201


@pytest.mark.anyio
async def test_racing_clients_get_one_acceptance(store_url: str, kind: Kind) -> None:
    app = create_app(app_settings(store_url=store_url))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as racer:
        game = (await racer.post("/v1/games", json=kind.body)).json()
        first, row, col = kind.script[0]
        headers = {"Authorization": f"Bearer {game['tokens'][str(first)]}"}
        path = f"/v1/games/{game['id']}/moves"
        answers = await asyncio.gather(
            *(racer.post(path, json={"row": row, "col": col}, headers=headers) for _ in range(8))
        )
        state = (await racer.get(f"/v1/games/{game['id']}")).json()
    assert [a.status_code for a in answers].count(201) == 1
    assert {a.json()["code"] for a in answers if a.status_code != 201} <= {
        "not_your_turn", "cell_occupied",
    }  # fmt: skip
    assert state["version"] == 1


def test_delete_capacity_and_metrics(store_url: str, kind: Kind) -> None:
    settings = app_settings(
        store_url=store_url, max_games=2, create_rate_per_minute=0, client_share=1,
        unstarted_games_share=1,  # both places for games nobody has moved in
    )  # fmt: skip
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        game = create(client, kind)
        create(client, kind)
        assert_problem(client.post("/v1/games", json=kind.body), 503, "capacity_exhausted")
        for player, row, col in kind.script:
            send(client, game, player, row, col)
        samples = {
            sample.name: sample.value
            for family in text_string_to_metric_families(client.get("/metrics").text)
            for sample in family.samples
        }
        assert samples["adjudicator_moves_adjudicated_total"] == len(kind.script)
        deleted = client.delete(
            f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens']['2']}"}
        )
        assert deleted.status_code == 204
        assert_problem(client.get(f"/v1/games/{game['id']}"), 404, "game_not_found")
        assert client.post("/v1/games", json=kind.body).status_code == 201  # its place is free
