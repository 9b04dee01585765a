"""Gomoku sessions under the four rules, on every store: random games played through the API and
every answer compared with the slow reference of the rules (``tests/rules/gomoku_reference.py``)
— Black's forbidden points refused with their shapes (or lost, with ``"foul": "lose"``), fives
won by the rule's own count, passes and the two-pass draw in renju — and the creation body's
rule, size, foul and opening refused where they do not hold together."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.problems import assert_problem
from tests.rules.gomoku_reference import Board, renju_black, renju_forbidden_points, winning_lines
from tests.timeless import timeless

LETTERS = "abcdefghijklmnopqrstuvwxyz"
RULES = ["freestyle", "standard", "renju", "caro"]


@pytest.fixture(scope="module")
def client(module_store_client: TestClient) -> TestClient:
    return module_store_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json={"game": "gomoku", **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def send(client: TestClient, game: dict[str, Any], player: int, body: dict[str, Any],
         **headers: str) -> Any:  # fmt: skip
    auth = {"Authorization": f"Bearer {game['tokens'][str(player)]}", **headers}
    return client.post(f"/v1/games/{game['id']}/moves", json=body, headers=auth)


def square(row: int, col: int, size: int) -> str:
    return f"{LETTERS[col]}{size - row}"


def expected_lines(lines: set[tuple[str, tuple[tuple[int, int], ...]]], size: int) -> list[Any]:
    return sorted(
        (shape, [list(cell) for cell in cells], [square(*cell, size) for cell in cells])
        for shape, cells in lines
    )


def answered_lines(lines: list[dict[str, Any]]) -> list[Any]:
    return sorted((line["shape"], line["cells"], line["squares"]) for line in lines)


def reference_move(
    board: Board, row: int, col: int, color: str, rule: str
) -> tuple[str | None, bool, set[Any]]:
    """(forbidden kind or None, wins, the deciding lines) of a move on an empty cell."""
    if rule == "renju" and color == "B":
        return renju_black(board, (row, col))
    lines = winning_lines(board, row, col, color, rule)
    return None, bool(lines), lines


def play_random_game(client: TestClient, rng: random.Random, rule: str, size: int,
                     foul: str = "refuse") -> int:  # fmt: skip
    """A random game to its end (or 80 moves), each answer checked against the reference; the
    moves are drawn near the centre so that lines, and forbidden shapes, are made. Answers how
    many forbidden moves were met."""
    body: dict[str, Any] = {"rule": rule, "size": size}
    if foul == "lose":
        body["foul"] = foul
    game = create(client, **body)
    board: Board = {}
    path = f"/v1/games/{game['id']}"
    span = range(max(0, size // 2 - 4), min(size, size // 2 + 5))
    met, seq, player = 0, 0, 1
    while seq < 80:
        color = "B" if player == 1 else "W"
        free = [(r, c) for r in span for c in span if (r, c) not in board]
        if not free:
            break
        row, col = rng.choice(free)
        if board and rng.random() < 0.1:  # now and then an occupied cell: refused, nothing else
            taken = rng.choice(sorted(board))
            assert_problem(send(client, game, player, {"row": taken[0], "col": taken[1]}),
                           409, "cell_occupied")  # fmt: skip
        forbidden, wins, lines = reference_move(board, row, col, color, rule)
        answer = send(client, game, player, {"row": row, "col": col})
        if forbidden is not None and foul == "refuse":
            met += 1
            problem = assert_problem(answer, 409, "forbidden_move")
            assert problem["forbidden"] == forbidden
            assert answered_lines(problem["lines"]) == expected_lines(lines, size)
            assert client.get(path).json()["move_count"] == seq  # nothing changed
            continue
        assert answer.status_code == 201, answer.text
        seq += 1
        board[row, col] = color
        move, state = answer.json()["move"], answer.json()["state"]
        assert timeless(move) == {"seq": seq, "row": row, "col": col,
                                  "square": square(row, col, size), "player": player,
                                  "color": color}  # fmt: skip
        if forbidden is not None:  # "foul": "lose": accepted, and lost
            met += 1
            outcome = (state["status"], state["winner"], state["reason"])
            assert outcome == ("won", 3 - player, "foul")
            break
        if wins:
            assert (state["status"], state["winner"], state["reason"]) == ("won", player, "line")
            break
        if len(board) == size * size:
            assert (state["status"], state["reason"]) == ("draw", "board_full")
            break
        assert (state["status"], state["next_player"]) == ("in_progress", 3 - player)
        player = 3 - player
    final = client.get(path).json()
    if final["status"] != "in_progress":  # over: every move is refused
        assert_problem(send(client, game, 1, {"row": 0, "col": 0}), 409, "game_over")
    return met


@pytest.mark.parametrize("rule", RULES)
def test_random_games_are_adjudicated_as_the_reference(client: TestClient, rule: str) -> None:
    rng = random.Random(f"{rule}-games")
    sizes = [15] if rule == "renju" else [5, 9, 15]
    met = sum(play_random_game(client, rng, rule, rng.choice(sizes)) for _ in range(6))
    if rule == "renju":
        assert met > 0, "the games met no forbidden point: they test nothing of renju"


def test_with_foul_lose_black_s_forbidden_move_ends_the_game(client: TestClient) -> None:
    rng = random.Random("fouls")
    fouls = sum(play_random_game(client, rng, "renju", 15, foul="lose") for _ in range(8))
    assert fouls > 0, "no game met a forbidden point"


def test_a_double_three_is_refused_with_its_threes_and_changes_nothing(client: TestClient) -> None:
    game = create(client, rule="renju")
    for player, cell in [(1, "h10"), (2, "a1"), (1, "h9"), (2, "a2"), (1, "i8"), (2, "a3"),
                         (1, "j8"), (2, "a5")]:  # fmt: skip
        assert send(client, game, player, {"square": cell}).status_code == 201
    before = client.get(f"/v1/games/{game['id']}")
    refused = send(client, game, 1, {"square": "h8"}, **{"Idempotency-Key": "k1"})
    problem = assert_problem(refused, 409, "forbidden_move")
    assert problem["forbidden"] == "double_three"
    assert sorted(line["squares"] for line in problem["lines"]) == [
        ["h10", "h9", "h8"], ["h8", "i8", "j8"],
    ]  # fmt: skip
    assert "double-three" in problem["detail"]
    again = send(client, game, 1, {"square": "h8"}, **{"Idempotency-Key": "k1"})
    assert again.json() == refused.json()  # the refusal, remembered under its key
    after = client.get(f"/v1/games/{game['id']}")
    assert (after.headers["etag"], after.json()) == (before.headers["etag"], before.json())
    # White may play there: White has no forbidden points.
    assert send(client, game, 1, {"square": "g8"}).status_code == 201
    assert send(client, game, 2, {"square": "h8"}).status_code == 201


def test_legal_moves_leave_out_black_s_forbidden_points(client: TestClient) -> None:
    rng = random.Random("legal")
    game = create(client, rule="renju")
    board: Board = {}
    player = 1
    while len(board) < 24:
        color = "B" if player == 1 else "W"
        row, col = rng.randrange(4, 11), rng.randrange(4, 11)
        if (row, col) in board or reference_move(board, row, col, color, "renju")[0]:
            continue
        assert send(client, game, player, {"row": row, "col": col}).status_code == 201
        board[row, col] = color
        player = 3 - player
        legal = client.get(f"/v1/games/{game['id']}/legal-moves", params={"limit": 225}).json()
        barred = set()
        if player == 1:
            barred = {(r, c) for r, c, _ in renju_forbidden_points(board)}
        empty = {(r, c) for r in range(15) for c in range(15)} - set(board)
        assert legal["count"] == len(empty - barred)
        assert [(m["row"], m["col"]) for m in legal["moves"]] == sorted(empty - barred)


def test_renju_passes_and_two_in_a_row_draw(client: TestClient) -> None:
    game = create(client, rule="renju")
    passed = send(client, game, 1, {"pass": True})
    assert passed.status_code == 201, passed.text
    assert timeless(passed.json()["move"]) == {"seq": 1, "pass": True, "player": 1, "color": "B"}
    assert passed.json()["state"]["next_player"] == 2
    assert send(client, game, 2, {"row": 7, "col": 7}).status_code == 201  # a stone: none in a row
    assert send(client, game, 1, {"pass": True}).json()["state"]["status"] == "in_progress"
    ended = send(client, game, 2, {"pass": True}).json()["state"]
    assert (ended["status"], ended["winner"], ended["reason"]) == ("draw", 0, "passes")
    moves = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
    assert [m.get("pass", False) for m in moves] == [True, False, True, True]
    assert_problem(send(client, game, 1, {"pass": True}), 409, "game_over")


@pytest.mark.parametrize("rule", ["freestyle", "standard", "caro"])
def test_only_renju_has_passes(client: TestClient, rule: str) -> None:
    game = create(client, rule=rule)
    problem = assert_problem(send(client, game, 1, {"pass": True}), 409, "illegal_move")
    assert problem["reason"] == "no_passes"
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == 0


def test_a_move_of_a_board_of_a_million_is_adjudicated_at_its_far_corner(
    client: TestClient,
) -> None:
    game = create(client, size=1_000_000)
    last = 999_999
    for i in range(4):
        assert send(client, game, 1, {"row": last, "col": last - i}).status_code == 201
        assert send(client, game, 2, {"row": 0, "col": 2 * i}).status_code == 201
    won = send(client, game, 1, {"row": last, "col": last - 4}).json()
    assert (won["state"]["status"], won["state"]["winner"]) == ("won", 1)
    assert "square" not in won["move"]  # a board wider than 26 columns has no names


def test_an_opening_s_stones_are_the_first_moves(client: TestClient) -> None:
    game = create(client, rule="renju", opening={"stones": ["h8", [6, 8], "j10"]})
    assert (game["move_count"], game["version"], game["next_player"]) == (3, 3, 2)
    moves = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
    assert [(m["square"], m["player"], m["color"]) for m in moves] == [
        ("h8", 1, "B"), ("i9", 2, "W"), ("j10", 1, "B"),
    ]  # fmt: skip
    assert send(client, game, 2, {"square": "a1"}).status_code == 201


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"rule": "renju", "size": 19}, ["body", "size"]),
        ({"rule": "gomoku"}, ["body", "rule"]),
        ({"size": 4}, ["body", "size"]),
        ({"size": 1_000_001}, ["body", "size"]),
        ({"size": 10**30}, ["body", "size"]),
        ({"size": 1e300}, ["body", "size"]),
        ({"rule": "renju\u0000"}, ["body", "rule"]),
        ({"foul": "lose\n"}, ["body", "foul"]),
        ({"opening": {"stones": ["h\u00008"]}}, ["body", "opening", "stones", 0]),
        ({"opening": {"stones": ["h\u0668"]}}, ["body", "opening", "stones", 0]),
        ({"opening": {"stones": [[10**30, 0]]}}, ["body", "opening", "stones", 0]),
        ({"size": True}, ["body", "size"]),
        ({"size": "15"}, ["body", "size"]),
        ({"foul": "lose"}, ["body", "foul"]),
        ({"rule": "caro", "foul": "lose"}, ["body", "foul"]),
        ({"rule": "renju", "foul": "maybe"}, ["body", "foul"]),
        ({"opening": {"stones": []}}, ["body", "opening", "stones"]),
        ({"opening": {"stones": ["h8", "h8"]}}, ["body", "opening", "stones", 1]),
        ({"opening": {"stones": ["h8", [1]]}}, ["body", "opening", "stones", 1]),
        ({"opening": {"stones": ["h8", [1, -1]]}}, ["body", "opening", "stones", 1]),
        ({"opening": {"stones": [[15, 0]]}}, ["body", "opening", "stones", 0]),
        ({"opening": {"stones": ["p1"]}}, ["body", "opening", "stones", 0]),
        ({"opening": {"stones": ["h８"]}}, ["body", "opening", "stones", 0]),
        ({"opening": {"stones": [True]}}, ["body", "opening", "stones", 0]),
        ({"opening": {"stones": ["h8"] * 226}}, ["body", "opening", "stones"]),
        ({"size": 27, "opening": {"stones": ["a1"]}}, ["body", "opening", "stones", 0]),
        ({"opening": {"stones": ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]}},
         ["body", "opening", "stones", 8]),  # a five: the game would be over
        ({"rule": "renju", "opening": {"stones": ["h10", "a1", "h9", "a2", "i8", "a3", "j8",
                                                  "a5", "h8"]}},
         ["body", "opening", "stones", 8]),  # a double-three for Black
        ({"opening": {"stones": ["h8"], "swap": True}}, ["body", "opening", "swap"]),
    ],
)  # fmt: skip
def test_a_creation_body_that_does_not_hold_together_is_refused(
    client: TestClient, body: dict[str, Any], where: list[Any]
) -> None:
    problem = assert_problem(client.post("/v1/games", json={"game": "gomoku", **body}), 422,
                             "validation_error")  # fmt: skip
    assert problem["errors"][0]["loc"] == where, problem


def test_the_record_of_a_game_with_passes_writes_them_and_audits_back(client: TestClient) -> None:
    game = create(client, rule="renju")
    plays = [(1, {"square": "h8"}), (2, {"pass": True}), (1, {"square": "i9"}),
             (2, {"pass": True}), (1, {"pass": True})]  # fmt: skip
    for player, body in plays:
        assert send(client, game, player, body).status_code == 201
    record = client.get(f"/v1/games/{game['id']}/record")
    assert record.status_code == 200, record.text
    assert record.json()["moves"] == ["h8", "pass", "i9", "pass", "pass"]
    body = {k: v for k, v in record.json().items() if k not in ("state", "chain", "signature")}
    audited = client.post("/v1/records/audit", json=body).json()
    assert (audited["verdict"], audited["state"], audited["chain"]) == (
        "finished", record.json()["state"], record.json()["chain"],
    )  # fmt: skip
    problem = assert_problem(
        client.get(f"/v1/games/{game['id']}/record", params={"format": "transcript"}),
        422, "validation_error",
    )  # fmt: skip
    assert "pass" in problem["detail"]


@pytest.mark.parametrize(
    ("body", "opening", "first"),
    [
        ({"game": "gomoku", "opening": {"stones": ["h8"]}}, 1, {"square": "a1"}),
        ({"game": "reversi", "opening": "f5"}, 1, {"square": "d6"}),
        ({"game": "gomoku", "rule": "renju", "opening": {"stones": ["h8", "i9"]}}, 2,
         {"square": "a1"}),
    ],
)  # fmt: skip
def test_an_opened_clocked_game_times_only_the_players_moves(
    client: TestClient, body: dict[str, Any], opening: int, first: dict[str, Any]
) -> None:
    clock = {"initial_seconds": 100, "increment_seconds": 5}
    game = client.post("/v1/games", json={**body, "clock": clock}).json()
    assert game["move_count"] == opening
    player = game["next_player"]
    moved = send(client, game, player, first)
    assert moved.status_code == 201, moved.text
    path = f"/v1/games/{game['id']}"
    for read in (path, f"{path}/moves", f"{path}/moves/{opening + 1}", f"{path}/record"):
        assert client.get(read).status_code == 200, read
    state = client.get(path).json()
    assert state["move_count"] == opening + 1
    assert state["clock"]["remaining_ms"] == {"1": 100_000, "2": 100_000}  # no clock ran yet
    assert_problem(send(client, game, player, {"square": "a2"}), 409, "not_your_turn")
