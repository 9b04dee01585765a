"""Squares in notation, at the HTTP edge, as the contract says them: every request that takes
``row`` and ``col`` also takes ``square`` instead; every move record, legal-move item and flip
list adds the names where the board has them (at most 26 columns). Othello counts rows from the
top, tic-tac-toe from the bottom. Sessions run on the memory store, one Redis and a Redis
Cluster (tic-tac-toe on the Redis fast path's script, Reversi on the generic engine)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.rules.reversi import OPENING
from app.settings import Settings
from tests.api.problems import assert_problem, assert_validation_error
from tests.api.test_games_api import parse_events
from tests.conftest import shared_settings
from tests.rules.reference import othello_square
from tests.timeless import timeless

# Ten legal moves from the standard start (Black, White, Black, …; no pass among them).
TRANSCRIPT = "f5d6c3d3c4f4f6f3e6e7"
FIRST_MOVES = ["d3", "c4", "f5", "e6"]  # the standard game's four legal first moves


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    """One app per store for the module: each test reads only the games it creates (an app
    per test took most of the module's time)."""
    settings = shared_settings(store_url=module_store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def stateless() -> Iterator[TestClient]:
    with TestClient(create_app(Settings()), raise_server_exceptions=False) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def move(client: TestClient, game: dict[str, Any], player: int, body: Any, **headers: str) -> Any:
    return client.post(
        f"/v1/games/{game['id']}/moves", json=body,
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}", **headers},
    )  # fmt: skip


def state(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/games/{game['id']}").json()
    return answer


def squares_of(transcript: str) -> list[str]:
    return re.findall(r"[a-z][0-9]+", transcript)


# --- Reversi: rows counted from the top --------------------------------------------------------


def test_the_standard_starts_legal_moves_are_d3_c4_f5_e6_stateless(stateless: TestClient) -> None:
    answer = stateless.post("/v1/reversi/legal-moves", json={"board": list(OPENING), "color": "B"})
    assert answer.status_code == 200, answer.text
    moves = answer.json()["moves"]
    assert sorted(m["square"] for m in moves) == sorted(FIRST_MOVES)
    assert {m["square"]: (m["row"], m["col"]) for m in moves} == {
        "d3": (2, 3), "c4": (3, 2), "f5": (4, 5), "e6": (5, 4),
    }  # fmt: skip


def test_the_standard_starts_legal_moves_are_d3_c4_f5_e6_live(client: TestClient) -> None:
    game = create(client, game="reversi")
    page = client.get(f"/v1/games/{game['id']}/legal-moves").json()
    assert sorted(m["square"] for m in page["moves"]) == sorted(FIRST_MOVES)
    for item in page["moves"]:  # each flip list with the names of its cells, in its order
        assert item["flip_squares"] == [othello_square(r, c) for r, c in item["flips"]]
        assert item["square"] == othello_square(item["row"], item["col"])


def test_a_live_game_played_by_squares_records_its_transcript(client: TestClient) -> None:
    game = create(client, game="reversi")
    answers = []
    for index, square in enumerate(squares_of(TRANSCRIPT)):
        player = state(client, game)["next_player"]
        assert player == 1 + index % 2  # no pass in this opening
        # Upper case for every other move: names are read in any case, written in lower case.
        moved = move(client, game, player, {"square": square.upper() if index % 2 else square})
        assert moved.status_code == 201, moved.text
        answers.append(moved.json())
    records = [answer["move"] for answer in answers]
    assert "".join(record["square"] for record in records) == TRANSCRIPT
    for record in records:
        assert record["square"] == othello_square(record["row"], record["col"])
        assert record["flip_squares"] == [othello_square(r, c) for r, c in record["flips"]]
    assert records[0]["flip_squares"] == ["e5"]  # f5 flips e5
    url = f"/v1/games/{game['id']}"
    assert client.get(f"{url}/moves").json() == {"moves": records, "version": 10}
    assert client.get(f"{url}/moves", params={"since": 8}).json()["moves"] == records[8:]
    assert client.get(f"{url}/moves/3").json() == records[2]
    assert state(client, game)["last_move"] == records[-1]
    # The same game by row and col gives the same records, square names included.
    again = create(client, game="reversi")
    for index, record in enumerate(records):
        cell = {"row": record["row"], "col": record["col"]}
        assert timeless(move(client, again, 1 + index % 2, cell).json()["move"]) == timeless(record)
    # The event stream sends the same records (and names the cells of the end's last move).
    resigned = client.post(
        f"{url}/resign", headers={"Authorization": f"Bearer {game['tokens']['1']}"}
    )
    assert resigned.status_code == 200
    events = parse_events(client.get(f"{url}/events").text)
    assert [json.loads(e["data"])["move"] for e in events if e["event"] == "move"] == records
    assert json.loads(events[-1]["data"])["last_move"] == records[-1]


def test_a_reversi_square_is_read_on_the_games_own_size(client: TestClient) -> None:
    game = create(client, game="reversi", height=10, width=4)  # rows 1 to 10, columns a to d
    legal = client.get(f"/v1/games/{game['id']}/legal-moves").json()["moves"]
    assert sorted(m["square"] for m in legal) == ["a5", "b4", "c7", "d6"]
    moved = move(client, game, 1, {"square": "c7"})
    assert moved.status_code == 201, moved.text
    assert (moved.json()["move"]["row"], moved.json()["move"]["col"]) == (6, 2)
    for outside in ("e5", "a11", "a0"):  # column e on four columns; row 11 of ten; row 0
        refused = move(client, game, 2, {"square": outside})
        assert_validation_error(refused, "body", "square")
    assert state(client, game)["version"] == 1


# --- tic-tac-toe: rows counted from the bottom -------------------------------------------------


def test_on_15_by_15_h8_is_the_centre_and_a1_the_bottom_left(client: TestClient) -> None:
    game = create(client, game="tictactoe", n=15, k=5)
    centre = move(client, game, 1, {"square": "h8"}).json()["move"]
    assert timeless(centre) == {"seq": 1, "row": 7, "col": 7, "square": "h8", "player": 1}
    corner = move(client, game, 2, {"square": "A1"}).json()["move"]
    assert timeless(corner) == {"seq": 2, "row": 14, "col": 0, "square": "a1", "player": 2}
    top_right = move(client, game, 1, {"row": 0, "col": 14}).json()["move"]
    assert top_right["square"] == "o15"
    assert_validation_error(move(client, game, 2, {"square": "p1"}), "body", "square")
    assert_validation_error(move(client, game, 2, {"square": "a16"}), "body", "square")
    # Legal moves name their cells: the top row, left to right, is row 15.
    first = client.get(f"/v1/games/{game['id']}/legal-moves", params={"limit": 3}).json()
    assert [m["square"] for m in first["moves"]] == ["a15", "b15", "c15"]


def test_a_game_won_by_squares_is_the_game_won_by_cells(client: TestClient) -> None:
    game = create(client, n=3)
    for player, square in zip([1, 2, 1, 2, 1], ["a1", "a2", "b1", "b2", "c1"], strict=True):
        answer = move(client, game, player, {"square": square})
        assert answer.status_code == 201, answer.text
    assert answer.json()["winner"] == 1
    assert client.get(f"/v1/games/{game['id']}/board").json()["rows"] == ["...", "OO.", "XXX"]


def test_a_board_wider_than_26_columns_has_no_names(client: TestClient) -> None:
    game = create(client, n=27)
    refused = move(client, game, 1, {"square": "a1"})
    body = assert_validation_error(refused, "body", "square")
    assert body["errors"][0]["type"] == "no_square_names"
    moved = move(client, game, 1, {"row": 26, "col": 26}).json()
    assert timeless(moved["move"]) == {
        "seq": 1,
        "row": 26,
        "col": 26,
        "player": 1,
    }  # no square field
    assert "square" not in moved["state"]["last_move"]
    page = client.get(f"/v1/games/{game['id']}/legal-moves", params={"limit": 2}).json()
    assert page["moves"] == [{"row": 0, "col": 0}, {"row": 0, "col": 1}]
    assert client.get(f"/v1/games/{game['id']}/moves/1").json() == moved["move"]
    named = create(client, n=26)
    corner = move(client, named, 1, {"square": "z26"}).json()["move"]
    assert (corner["row"], corner["col"], corner["square"]) == (0, 25, "z26")


# --- what is refused, on every store --------------------------------------------------------------

HOSTILE: list[Any] = [
    {"square": "b2", "row": 1, "col": 1},  # both
    {"square": "b2", "row": 1},
    {"square": "b2", "col": 1},
    {},  # neither
    {"square": None},
    {"square": "z99"},
    {"square": "a0"},
    {"square": "aa1"},
    {"square": "f"},
    {"square": "5f"},
    {"square": "b02"},
    {"square": " b2"},
    {"square": "b2\n"},
    {"square": ""},
    {"square": 22},
    {"square": 2.5},
    {"square": True},
    {"square": ["b", 2]},
    {"square": {"col": "b"}},
    {"square": "b" + "2" * 100_000},
    {"square": "ｂ２"},  # full-width
    {"square": "b٢"},  # an Arabic-Indic two
    {"square": "\u0000b2"},
    {"square": "b2", "bogus": 1},
]


@pytest.mark.parametrize("body", HOSTILE)
def test_a_bad_square_is_422_naming_it_and_changes_nothing(client: TestClient, body: Any) -> None:
    game = create(client, n=3)
    before = state(client, game)
    refused = move(client, game, 1, body)
    problem = assert_problem(refused, 422, "validation_error")
    locs = [error["loc"] for error in problem["errors"]]
    assert (["body", "bogus"] if "bogus" in body else ["body", "square"]) in locs, locs
    assert state(client, game) == before


@pytest.mark.parametrize("body", [{"row": 1}, {"col": 1}])
def test_half_a_cell_names_the_other_half(client: TestClient, body: dict[str, int]) -> None:
    game = create(client, n=3)
    missing = "col" if "row" in body else "row"
    assert_validation_error(move(client, game, 1, body), "body", missing)
    assert state(client, game)["version"] == 0


def test_a_square_outside_the_board_is_a_validation_error_not_out_of_bounds(
    client: TestClient,
) -> None:
    game = create(client, n=3)
    outside = assert_validation_error(move(client, game, 1, {"square": "d1"}), "body", "square")
    assert outside["errors"][0]["type"] == "outside_board"
    assert_problem(move(client, game, 1, {"row": 0, "col": 3}), 422, "out_of_bounds")  # as ever


def test_a_square_is_checked_before_the_turn_or_the_cell(client: TestClient) -> None:
    game = create(client, n=3)
    assert move(client, game, 1, {"square": "b2"}).status_code == 201
    # A good square is refused by the rules as its cell is; a bad one by the body's schema.
    assert_problem(move(client, game, 1, {"square": "a1"}), 409, "not_your_turn")
    assert_problem(move(client, game, 2, {"square": "b2"}), 409, "cell_occupied")
    assert_validation_error(move(client, game, 1, {"square": "q9"}), "body", "square")
    assert state(client, game)["version"] == 1


def test_a_retry_by_square_of_a_move_by_cell_is_the_same_move(client: TestClient) -> None:
    """Idempotency compares the parsed moves, as ever: ``{"square": "b2"}`` is the move
    ``{"row": 1, "col": 1}`` on 3 × 3, so a retry with the same key is answered again; another
    cell under the same key is a reused key."""
    game = create(client, n=3)
    first = move(client, game, 1, {"row": 1, "col": 1}, **{"Idempotency-Key": "k1"})
    assert first.status_code == 201
    retried = move(client, game, 1, {"square": "B2"}, **{"Idempotency-Key": "k1"})
    assert (retried.status_code, retried.json()) == (201, first.json())
    assert retried.headers["idempotent-replayed"] == "true"
    other = move(client, game, 1, {"square": "a1"}, **{"Idempotency-Key": "k1"})
    assert_problem(other, 422, "idempotency_key_reused")
    assert state(client, game)["version"] == 1


# --- stateless requests: the board is the posted one -------------------------------------------


def test_check_and_apply_move_by_square_are_by_cell(stateless: TestClient) -> None:
    board = list(OPENING)
    for square, cell in (("d3", (2, 3)), ("F5", (4, 5)), ("a1", (0, 0)), ("d4", (3, 3))):
        by_square = {"board": board, "square": square, "color": "B"}
        by_cell = {"board": board, "row": cell[0], "col": cell[1], "color": "B"}
        checked = stateless.post("/v1/reversi/check-move", json=by_square).json()
        assert checked == stateless.post("/v1/reversi/check-move", json=by_cell).json()
        assert checked["flip_squares"] == [othello_square(r, c) for r, c in checked["flips"]]
    applied = stateless.post(
        "/v1/reversi/apply-move", json={"board": board, "square": "e6", "color": "B"}
    ).json()
    assert (applied["flips"], applied["flip_squares"]) == ([[4, 4]], ["e5"])
    assert applied["board"][5] == "....B..."


def test_check_moves_takes_squares_and_names_each_bad_one_by_its_index(
    stateless: TestClient,
) -> None:
    queries: list[dict[str, Any]] = [{"square": s, "color": "B"} for s in FIRST_MOVES]
    queries.append({"row": 0, "col": 0, "color": "B"})  # squares and cells in one batch
    answer = stateless.post(
        "/v1/reversi/check-moves", json={"board": list(OPENING), "queries": queries}
    )
    assert answer.status_code == 200, answer.text
    assert [r["legal"] for r in answer.json()["results"]] == [True] * 4 + [False]
    bad = [
        {"square": "d3", "color": "B"},
        {"square": "i1", "color": "B"},  # column i of eight
        {"square": "a1", "row": 0, "color": "W"},  # both
        {"square": "a9", "color": "B"},  # row 9 of eight
    ]
    refused = stateless.post(
        "/v1/reversi/check-moves", json={"board": list(OPENING), "queries": bad}
    )
    body = assert_validation_error(refused, "body", "queries", 1, "square")
    errors = {tuple(e["loc"]): e["type"] for e in body["errors"]}
    assert errors == {
        ("body", "queries", 1, "square"): "outside_board",
        ("body", "queries", 2, "square"): "square_and_cell",
        ("body", "queries", 3, "square"): "outside_board",
    }
    for query in ({"color": "B"}, {"square": None, "color": "B"}, {"row": 2, "color": "B"}):
        half = stateless.post(
            "/v1/reversi/check-moves", json={"board": list(OPENING), "queries": [query]}
        )
        missing = "col" if "row" in query else "square"
        assert_validation_error(half, "body", "queries", 0, missing)


@pytest.mark.parametrize("path", ["/v1/reversi/check-move", "/v1/reversi/apply-move"])
@pytest.mark.parametrize("cell", HOSTILE[:-1])
def test_stateless_bad_squares_are_422_naming_them(
    stateless: TestClient, path: str, cell: Any
) -> None:
    body = {"board": list(OPENING), "color": "B", **cell}
    refused = stateless.post(path, json=body)
    problem = assert_problem(refused, 422, "validation_error")
    assert ["body", "square"] in [error["loc"] for error in problem["errors"]]


def test_a_posted_board_has_names_up_to_26_columns(stateless: TestClient) -> None:
    wide = ["." * 24 + "BW" + "."]  # 27 columns: no names
    legal = stateless.post("/v1/reversi/legal-moves", json={"board": wide, "color": "B"}).json()
    assert legal["moves"] == [{"row": 0, "col": 26, "flips": 1}]
    checked = stateless.post(
        "/v1/reversi/check-move", json={"board": wide, "row": 0, "col": 26, "color": "B"}
    ).json()
    assert checked == {"legal": True, "reason": None, "flips": [[0, 25]]}
    refused = stateless.post(
        "/v1/reversi/check-move", json={"board": wide, "square": "a1", "color": "B"}
    )
    assert_validation_error(refused, "body", "square")
    narrower = [wide[0][1:]]  # 26 columns: z is the last
    legal = stateless.post("/v1/reversi/legal-moves", json={"board": narrower, "color": "B"}).json()
    assert legal["moves"] == [{"row": 0, "col": 25, "square": "z1", "flips": 1}]
    tall = ["...."] * 10 + [".BW.", "...."]  # rows 1 to 12: a row number of two digits
    applied = stateless.post(
        "/v1/reversi/apply-move", json={"board": tall, "square": "D11", "color": "B"}
    ).json()
    assert (applied["flips"], applied["flip_squares"]) == ([[10, 2]], ["c11"])
