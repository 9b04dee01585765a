"""Connect Four over HTTP (API.md part 3, "Connect Four") against the slow reference
(tests/rules/connect4_reference.py), on the memory store, one Redis and a Redis Cluster: random
games of both sizes and several k played move by move (every answer, refusal and ending compared
with the reference's), their board, moves, record and transcript, the record and the transcript
audited back to the same game, takebacks; the stateless questions on posted boards; hostile
bodies refused 422, never a 5xx."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.problems import assert_problem, assert_validation_error
from tests.conftest import shared_settings
from tests.rules.connect4_reference import Game, judge, square
from tests.timeless import timeless

SHAPES = [(7, 6, 4), (4, 4, 3), (9, 7, 5), (12, 5, 4), (20, 20, 6), (5, 9, 4)]
MARKS = {"X": 1, "O": 2}


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    settings = shared_settings(store_url=module_store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as shared:
        yield shared


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/v1/games", json={"game": "connect4", **body})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def drop(client: TestClient, game: dict[str, Any], player: int, body: dict[str, Any]) -> Any:
    auth = {"Authorization": f"Bearer {game['tokens'][str(player)]}"}
    return client.post(f"/v1/games/{game['id']}/moves", json=body, headers=auth)


def expected_state(ref: Game) -> dict[str, Any]:
    """What a state says of how the game stands, by the reference."""
    winner = ref.winner()
    full = all(cell != "." for row in ref.grid for cell in row)
    if winner is not None:
        return {"status": "won", "winner": MARKS[winner], "reason": "line", "next_player": None}
    if full:
        return {"status": "draw", "winner": 0, "reason": "board_full", "next_player": None}
    return {
        "status": "in_progress",
        "winner": 0,
        "reason": None,
        "next_player": len(ref.history) % 2 + 1,
    }


def standing(state: dict[str, Any]) -> dict[str, Any]:
    return {name: state[name] for name in ("status", "winner", "reason", "next_player")}


def test_a_new_game_is_seven_by_six_four_in_a_row_x_first(client: TestClient) -> None:
    game = create(client)
    assert (game["width"], game["height"], game["k"]) == (7, 6, 4)
    assert standing(game) == {
        "status": "in_progress",
        "winner": 0,
        "reason": None,
        "next_player": 1,
    }
    board = client.get(f"/v1/games/{game['id']}/board").json()
    assert board == {"height": 6, "width": 7, "rows": ["......."] * 6}


@pytest.mark.parametrize(("width", "height", "k"), SHAPES)
def test_random_games_are_refereed_as_the_reference_referees_them(
    client: TestClient, width: int, height: int, k: int
) -> None:
    rng = random.Random(f"{width}x{height}x{k}")
    game = create(client, width=width, height=height, k=k)
    ref = Game(width, height, k)
    while True:
        player = len(ref.history) % 2 + 1
        column = rng.randrange(width)
        if rng.random() < 0.05:  # the other player's token: not its turn (while the game is on)
            answer = drop(client, game, 3 - player, {"column": column})
            if not ref.over():
                assert_problem(answer, 409, "not_your_turn")
                continue
        letter = "abcdefghijklmnopqrst"[column]
        body: dict[str, Any] = rng.choice(
            [{"column": column}, {"square": letter}, {"square": letter.upper()}]
        )
        answer = drop(client, game, player, body)
        refusal = ref.refusal(column)
        if refusal is not None:
            assert_problem(answer, 409, refusal)
            if refusal == "game_over":
                break
            continue
        row = ref.drop(column)
        assert answer.status_code == 201, answer.text
        moved = answer.json()
        seq = len(ref.history)
        assert timeless(moved["move"]) == {
            "seq": seq, "column": column, "row": row, "col": column,
            "square": square(row, column, height), "player": player,
        }  # fmt: skip
        assert standing(moved["state"]) == expected_state(ref)
        assert moved["winner"] == expected_state(ref)["winner"]
        assert moved["state"]["version"] == seq
    assert ref.over()
    final = client.get(f"/v1/games/{game['id']}").json()
    assert standing(final) == expected_state(ref)
    assert client.get(f"/v1/games/{game['id']}/board").json()["rows"] == ref.rows()
    moves = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
    assert [m["column"] for m in moves] == ref.history

    record = client.get(f"/v1/games/{game['id']}/record").json()
    assert record["moves"] == ref.history
    assert (record["width"], record["height"], record["k"]) == (width, height, k)
    assert record["signature"] is not None  # the game is over
    transcript = client.get(f"/v1/games/{game['id']}/record", params={"format": "transcript"})
    assert transcript.headers["content-type"].startswith("text/plain")
    alphabet = "123456789" if width <= 9 else "abcdefghijklmnopqrst"
    assert transcript.text == "".join(alphabet[c] for c in ref.history)

    asked = {name: record[name] for name in ("game", "width", "height", "k")}
    for given in ({"moves": record["moves"]}, {"transcript": transcript.text}):
        audit = client.post("/v1/records/audit", json={**asked, **given})
        assert audit.status_code == 200, audit.text
        audited = audit.json()
        assert audited["verdict"] == "finished"
        assert audited["plies"] == len(ref.history)
        assert audited["chain"] == record["chain"]
        assert standing(audited["state"]) == expected_state(ref)
        assert [timeless(m) for m in audited["moves"]] == [timeless(m) for m in moves]


def test_a_column_off_the_board_is_422_and_changes_nothing(client: TestClient) -> None:
    game = create(client, width=5, height=4)
    for body, loc in (
        ({"column": 5}, "column"), ({"column": -1}, "column"), ({"square": "f"}, "square"),
        ({"square": "5"}, "square"), ({"column": 1, "square": "b"}, "square"),
        ({"column": "1"}, "column"), ({"column": 1.5}, "column"), ({}, "column"),
        ({"row": 0, "col": 0}, "row"),
    ):  # fmt: skip
        answer = drop(client, game, 1, body)
        assert_validation_error(answer, "body", loc)
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == 0


def test_a_full_column_is_refused_409_column_full(client: TestClient) -> None:
    game = create(client, width=4, height=4, k=4)
    for seq in range(4):
        assert drop(client, game, seq % 2 + 1, {"column": 0}).status_code == 201
    full = drop(client, game, 1, {"square": "a"})
    body = assert_problem(full, 409, "column_full")
    assert body["column"] == 0
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == 4
    legal = client.get(f"/v1/games/{game['id']}/legal-moves").json()
    assert [m["column"] for m in legal["moves"]] == [1, 2, 3]
    assert legal["moves"][0] == {"column": 1, "row": 3, "col": 1, "square": "b1"}


def test_a_takeback_lifts_the_discs_and_play_goes_on(client: TestClient) -> None:
    game = create(client)
    for seq, column in enumerate([3, 3, 4, 4, 5, 5]):
        assert drop(client, game, seq % 2 + 1, {"column": column}).status_code == 201
    auth = {"Authorization": f"Bearer {game['tokens']['2']}"}
    other = {"Authorization": f"Bearer {game['tokens']['1']}"}
    assert client.post(f"/v1/games/{game['id']}/takeback-offer", headers=auth).status_code == 200
    taken = client.post(f"/v1/games/{game['id']}/takeback-offer", headers=other)
    assert taken.status_code == 200, taken.text
    assert (taken.json()["move_count"], taken.json()["next_player"]) == (5, 2)
    ref = Game(7, 6, 4)
    for column in [3, 3, 4, 4, 5]:
        ref.drop(column)
    assert client.get(f"/v1/games/{game['id']}/board").json()["rows"] == ref.rows()
    # O blocks this time, where it had not: the same seq again.
    blocked = drop(client, game, 2, {"column": 6})
    assert blocked.status_code == 201
    assert timeless(blocked.json()["move"])["seq"] == 6


def test_a_resignation_and_a_clocked_game_end_as_every_kind_ends(client: TestClient) -> None:
    game = create(client, clock={"initial_seconds": 60, "increment_seconds": 1})
    assert drop(client, game, 1, {"column": 3}).status_code == 201
    auth = {"Authorization": f"Bearer {game['tokens']['2']}"}
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=auth).json()
    assert standing(resigned) == {
        "status": "won", "winner": 1, "reason": "resignation", "next_player": None,
    }  # fmt: skip
    assert_problem(drop(client, game, 2, {"column": 3}), 409, "game_over")


# --- the stateless questions --------------------------------------------------------------------


def positions(rng: random.Random, count: int) -> Iterator[tuple[list[str], int]]:
    """Boards of random games stopped anywhere (and some broken after), with their k."""
    for _ in range(count):
        width, height = rng.randint(4, 9), rng.randint(4, 8)
        k = rng.randint(3, min(5, max(width, height)))
        ref = Game(width, height, k)
        for _ in range(rng.randrange(width * height + 1)):
            if ref.over():
                break
            ref.drop(rng.choice(ref.legal_columns()))
        rows = ref.rows()
        if rng.random() < 0.25:  # broken: a cell changed anywhere (a float, a count, a line)
            r, c = rng.randrange(height), rng.randrange(width)
            rows[r] = rows[r][:c] + rng.choice("XO.") + rows[r][c + 1 :]
        yield rows, k


def test_legal_moves_and_check_move_answer_as_the_reference_judges(client: TestClient) -> None:
    rng = random.Random("stateless")
    for rows, k in positions(rng, 60):
        judged = judge(rows, k)
        legal = client.post("/v1/connect4/legal-moves", json={"board": rows, "k": k})
        if judged.refused is not None:
            assert_validation_error(legal, "body", "k" if judged.refused == "k_range" else "board")
            if judged.message is not None:
                assert judged.message in legal.text
            continue
        assert legal.status_code == 200, legal.text
        player = None if judged.mark is None else MARKS[judged.mark]
        assert legal.json() == {"player": player, "columns": list(judged.columns)}
        ref = Game(len(rows[0]), len(rows), k)
        ref.grid = [list(row) for row in rows]
        ref.history = [0] * sum(row.count("X") + row.count("O") for row in rows)
        for column in range(len(rows[0])):
            checked = client.post(
                "/v1/connect4/check-move", json={"board": rows, "k": k, "column": column}
            )
            assert checked.status_code == 200, checked.text
            reason = "game_over" if judged.over else ref.refusal(column)
            row = None if reason else ref.landing_row(column)
            assert checked.json() == {
                "legal": reason is None, "reason": reason, "row": row,
                "square": None if row is None else square(row, column, len(rows)),
                "wins": reason is None and ref.wins_if_dropped(column),
            }  # fmt: skip


def test_a_floating_disc_is_named(client: TestClient) -> None:
    rows = [".......", ".......", ".......", "..X....", ".......", "...O..."]
    answer = client.post("/v1/connect4/legal-moves", json={"board": rows})
    body = assert_validation_error(answer, "body", "board")
    assert "floating disc at c3" in body["errors"][0]["msg"]


@pytest.mark.parametrize(
    "body",
    [
        {"board": ["......."] * 6, "column": 7},
        {"board": ["......."] * 6, "square": "h"},
        {"board": ["......."] * 6, "square": "dd"},
        {"board": ["......."] * 6},
        {"board": ["......."] * 6, "column": 1, "square": "b"},
        {"board": ["......."] * 6, "column": 1, "k": 8},
        {"board": ["......."] * 6, "column": 1, "k": 2},
        {"board": ["..."] * 3, "column": 1},
        {"board": ["......."] * 21, "column": 1},
        {"board": ["......x"] * 6, "column": 1},
        {"board": [".......", "......"] * 3, "column": 1},
        {"board": "XO", "column": 1},
        {"board": [[".", "X"]], "column": 1},
        {"board": None, "column": 1},
        {"board": ["......."] * 6, "column": True},
        {"board": ["......."] * 6, "column": 10**30},
        {"board": ["XXXX...", "OOOO..."][::-1] + ["......."] * 4, "column": 1},
    ],
)
def test_hostile_questions_are_422(client: TestClient, body: Any) -> None:
    answer = client.post("/v1/connect4/check-move", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == "validation_error"


@pytest.mark.parametrize(
    "body",
    [
        {"game": "connect4", "width": 3},
        {"game": "connect4", "width": 21},
        {"game": "connect4", "height": 3},
        {"game": "connect4", "k": 2},
        {"game": "connect4", "width": 5, "height": 6, "k": 7},
        {"game": "connect4", "width": "7"},
        {"game": "connect4", "width": 7.5},
        {"game": "connect4", "n": 7},
        {"game": "connect4", "board": ["......."] * 6},
        {"game": "Connect4"},
    ],
)
def test_hostile_creations_are_422(client: TestClient, body: Any) -> None:
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "validation_error"


@pytest.mark.parametrize(
    ("body", "loc", "where"),
    [
        ({"moves": [3, 7]}, ["body", "moves", 1], "move 2: "),
        ({"moves": [3, -1]}, ["body", "moves", 1], "move 2: "),
        ({"moves": ["d4"]}, None, None),
        ({"moves": [[0, 3]]}, None, None),
        ({"moves": ["pass"]}, None, None),
        ({"moves": [True]}, None, None),
        ({"transcript": "4458"}, ["body", "transcript"], "line 1, column 4: "),
        ({"transcript": "44d"}, ["body", "transcript"], "line 1, column 3: "),
        ({"transcript": "4\n4x"}, ["body", "transcript"], "line 2, column 2: "),
        ({"transcript": 44}, None, None),
    ],
)
def test_hostile_records_are_422_naming_where(
    client: TestClient, body: dict[str, Any], loc: list[Any] | None, where: str | None
) -> None:
    answer = client.post("/v1/records/audit", json={"game": "connect4", **body})
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["code"] == "validation_error"
    if loc is not None:
        assert problem["errors"][0]["loc"] == loc
        assert problem["errors"][0]["msg"].startswith(str(where)), problem


def test_an_audited_record_stops_at_the_first_refused_drop(client: TestClient) -> None:
    answer = client.post(
        "/v1/records/audit", json={"game": "connect4", "width": 4, "height": 4, "moves": [0] * 5}
    )
    assert answer.status_code == 200, answer.text
    audit = answer.json()
    assert (audit["verdict"], audit["plies"]) == ("illegal", 4)
    assert (audit["illegal"]["ply"], audit["illegal"]["code"]) == (5, "column_full")
    assert audit["illegal"]["move"] == 0
