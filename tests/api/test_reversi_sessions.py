"""Reversi sessions over HTTP (API.md, "Game kinds"), on the memory store and on Redis: creation
in its three forms, the state, move records and board of the kind, its refusals, and a whole
game played to its end against the reference rules, events included."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.problems import assert_problem, assert_validation_error
from tests.api.test_games_api import parse_events
from tests.api.test_hostile_params import live_games
from tests.conftest import app_settings, shared_settings
from tests.rules import reference
from tests.timeless import timeless

STANDARD = ["........", "........", "........", "...WB...", "...BW...", "........",
            "........", "........"]  # fmt: skip


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(
        create_app(app_settings(store_url=store_url)), raise_server_exceptions=False
    ) as c:
        yield c


@pytest.fixture(scope="module")
def refusing(module_store_url: str) -> Iterator[TestClient]:
    """One app per store for the refused creations below (hundreds of cases, each of which
    would otherwise build an app of its own)."""
    settings = shared_settings(store_url=module_store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as shared:
        yield shared


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json={"game": "reversi", **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def play(client: TestClient, game: dict[str, Any], player: int, row: int, col: int) -> Any:
    return client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}"},
    )  # fmt: skip


def test_the_standard_game_and_its_state(client: TestClient) -> None:
    game = create(client)
    assert {k: v for k, v in timeless(game).items() if k not in ("id", "tokens")} == {
        "game": "reversi", "height": 8, "width": 8, "score": {"1": 2, "2": 2},
        "status": "in_progress", "winner": 0, "reason": None, "next_player": 1, "version": 0,
        "move_count": 0, "last_move": None, "draw_offer": None, "takeback_offer": None,
        "final_score": None,
    }  # fmt: skip
    assert client.get(f"/v1/games/{game['id']}/board").json() == {
        "height": 8, "width": 8, "rows": STANDARD,
    }  # fmt: skip
    moved = play(client, game, 1, 2, 3)
    assert moved.status_code == 201, moved.text
    answer = moved.json()
    record = {
        "seq": 1, "row": 2, "col": 3, "square": "d3", "player": 1, "flips": [[3, 3]],
        "flip_squares": ["d4"], "passed": False,
    }  # fmt: skip
    assert timeless(answer["move"]) == record
    assert answer["state"]["score"] == {"1": 4, "2": 1}
    assert timeless(answer["state"]["last_move"]) == record
    assert timeless(client.get(f"/v1/games/{game['id']}/moves/1").json()) == record
    moves = timeless(client.get(f"/v1/games/{game['id']}/moves").json())
    assert moves == {"moves": [record], "version": 1}


def test_a_size_and_a_posted_position(client: TestClient) -> None:
    sized = create(client, height=6, width=10)
    assert (sized["height"], sized["width"]) == (6, 10)
    rows = client.get(f"/v1/games/{sized['id']}/board").json()["rows"]
    assert rows[2:4] == ["....WB....", "....BW...."]
    posted = create(client, board=["BW..", "....", "....", "...."], next="W")
    assert posted["next_player"] == 1  # White cannot move: Black starts
    first = play(client, posted, 1, 0, 2).json()
    assert first["move"]["flips"] == [[0, 1]]
    assert (first["state"]["status"], first["state"]["winner"]) == ("won", 1)
    assert first["state"]["reason"] == "no_moves"  # White wiped out


def test_refusals_change_nothing(client: TestClient) -> None:
    game = create(client)
    assert_problem(play(client, game, 1, 8, 0), 422, "out_of_bounds")
    assert_problem(play(client, game, 2, 2, 4), 409, "not_your_turn")
    assert_problem(play(client, game, 1, 3, 3), 409, "cell_occupied")
    refused = assert_problem(play(client, game, 1, 0, 0), 409, "illegal_move")
    assert refused["reason"] == "no_bracket"
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == 0


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"height": 7}, ("body", "height")),
        ({"width": 34}, ("body", "width")),
        ({"height": 2, "width": 2}, ("body", "height")),
        ({"board": STANDARD, "height": 8}, ("body",)),
        ({"next": "W"}, ("body",)),
        ({"board": ["BB", "BB"]}, ("body",)),  # nobody can move
        ({"board": ["BX", "WB"]}, ("body", "board", 0)),
        ({"n": 8}, ("body", "n")),
    ],
)
def test_bad_creations_are_422(refusing: TestClient, body: dict[str, Any], where: tuple) -> None:
    before = live_games(refusing)
    assert_validation_error(refusing.post("/v1/games", json={"game": "reversi", **body}), *where)
    assert live_games(refusing) == before


def random_game(client: TestClient, size: tuple[int, int], seed: int) -> int:
    """Play a random game to its end, every answer checked against the reference; answers
    how many passes it had."""
    rng = random.Random(seed)
    game = create(client, height=size[0], width=size[1])
    grid = client.get(f"/v1/games/{game['id']}/board").json()["rows"]
    color = {1: "B", 2: "W"}
    state = game
    passes = 0
    while state["status"] == "in_progress":
        player = state["next_player"]
        r, c = rng.choice(reference.reversi_moves(grid, color[player]))
        flips = reference.reversi_flips(grid, r, c, color[player])
        grid = reference.reversi_play(grid, r, c, color[player])
        answer = play(client, game, player, r, c).json()
        assert answer["move"]["flips"] == [list(f) for f in flips]
        state = answer["state"]
        opponent_moves = reference.reversi_moves(grid, color[3 - player])
        mover_moves = reference.reversi_moves(grid, color[player])
        passed = not opponent_moves and bool(mover_moves)
        assert answer["move"]["passed"] == passed
        expected_next = 3 - player if opponent_moves else player if mover_moves else None
        assert state["next_player"] == expected_next
        passes += passed
        black, white = (sum(row.count(m) for row in grid) for m in "BW")
        assert state["score"] == {"1": black, "2": white}
        assert client.get(f"/v1/games/{game['id']}/board").json()["rows"] == grid
    assert state["reason"] == "no_moves"
    assert reference.reversi_moves(grid, "B") == reference.reversi_moves(grid, "W") == []
    events = parse_events(client.get(f"/v1/games/{game['id']}/events").text)
    assert [e["event"] for e in events] == ["move"] * state["move_count"] + ["end"]
    assert json.loads(events[-1]["data"]) == client.get(f"/v1/games/{game['id']}").json()
    moves = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
    assert [json.loads(e["data"])["move"] for e in events[:-1]] == moves
    return passes


@pytest.mark.parametrize("size", [(8, 8), (6, 12)])
def test_a_random_game_to_its_end_matches_the_reference(
    client: TestClient, size: tuple[int, int]
) -> None:
    random_game(client, size, seed=sum(size))


def test_small_boards_have_passes_and_they_are_played_through(client: TestClient) -> None:
    # On 4 × 4 a player often has no move while the other has: the mover moves again.
    assert sum(random_game(client, (4, 4), seed) for seed in range(12)) > 0


GARBAGE = [
    "３",
    "\u0663",
    10**30,
    -(2**63),
    1.5,
    "8\x00",
    "\x1b[2J",
    None,
    [],
    {},
    True,
    "x" * 5000,
]
FIELDS = [
    ({"game": "tictactoe", "n": 15}, "k"),
    ({"game": "reversi"}, "height"),
    ({"game": "reversi"}, "width"),
    ({"game": "reversi", "board": STANDARD}, "next"),
    ({"game": "reversi"}, "board"),
    ({"n": 3}, "game"),
]
# null is the documented default of every optional field but `game`: not garbage there.
CASES = [
    (base, field, value)
    for base, field in FIELDS
    for value in GARBAGE
    if value is not None or field == "game"
]


@pytest.mark.parametrize(("base", "field", "value"), CASES, ids=repr)
def test_garbage_in_a_creation_field_is_a_422_and_creates_nothing(
    refusing: TestClient, base: dict[str, Any], field: str, value: object
) -> None:
    before = live_games(refusing)
    response = refusing.post("/v1/games", json={**base, field: value})
    assert_problem(response, 422, "validation_error")
    assert live_games(refusing) == before
