"""Swap2 openings through live sessions on every store, every branch: random requests — stones,
choices and passes by either player, in and out of step — each answer compared with a slow
reference of the opening rule written here from the contract (API.md, "Openings"); then every
keyed request sent again (its answer replayed as it was first given, however far the game went
on), the event stream, the moves, the record and its audit compared with the answers given.

The stones are drawn from cells whose row and column are both even: no five, no three and no
four can be made of them, so no rule but the opening's decides an answer here (the rules' own
tests are ``test_gomoku_sessions.py``'s)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.problems import assert_problem
from tests.api.test_games_api import parse_events
from tests.timeless import timeless

LETTERS = "abcdefghijklmnopqrstuvwxyz"
SIZE = 15
CELLS = [(row, col) for row in range(0, SIZE, 2) for col in range(0, SIZE, 2)]


@pytest.fixture(scope="module")
def client(module_store_client: TestClient) -> TestClient:
    return module_store_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json={"game": "gomoku", "opening": "swap2", **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def post(client: TestClient, game: dict[str, Any], player: int, path: str, body: Any,
         **headers: str) -> Any:  # fmt: skip
    auth = {"Authorization": f"Bearer {game['tokens'][str(player)]}", **headers}
    return client.post(f"/v1/games/{game['id']}/{path}", json=body, headers=auth)


def square(row: int, col: int) -> str:
    return f"{LETTERS[col]}{SIZE - row}"


# --- the reference: the opening rule, replayed from the accepted actions each time ------------


def other(color: str) -> str:
    return "W" if color == "B" else "B"


def reference(accepted: list[tuple[int, Any]]) -> tuple[str | None, int, dict[str, str | None]]:
    """(the pending step or None, who acts, each seat's colour) after ``accepted``: (player,
    a cell, "pass", or a choice "B" / "W" / "place_two") in order."""
    placed = sum(1 for _, what in accepted if isinstance(what, tuple) or what == "pass")
    choices = [(player, what) for player, what in accepted if what in ("B", "W", "place_two")]
    none: dict[str, str | None] = {"1": None, "2": None}
    if not choices:
        return ("place_three", 1, none) if placed < 3 else ("choose", 2, none)
    chooser, chose = choices[-1]
    if chose == "place_two":
        return ("place_two", 2, none) if placed < 5 else ("choose_color", 1, none)
    colors: dict[str, str | None] = {str(chooser): chose, str(3 - chooser): other(chose)}
    to_move = "B" if placed % 2 == 0 else "W"  # stones and passes alternate the colours
    return None, 1 if colors["1"] == to_move else 2, colors


def expected(
    accepted: list[tuple[int, Any]], player: int, what: Any, rule: str, board: set[Any]
) -> tuple[int, str | None]:
    """The status and problem code (None when accepted) of ``player`` sending ``what``."""
    step, to_act, _ = reference(accepted)
    if player != to_act:
        return 409, "not_your_turn"
    choosing = step in ("choose", "choose_color")
    if isinstance(what, tuple):
        if choosing:
            return 409, "wrong_step"
        return (409, "cell_occupied") if what in board else (201, None)
    if what == "pass":
        if step is not None:
            return 409, "wrong_step"
        return (201, None) if rule == "renju" else (409, "illegal_move")
    if not choosing or (what == "place_two" and step == "choose_color"):
        return 409, "wrong_step"
    return 201, None


def body_of(what: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(what, tuple):
        return "moves", {"square": square(*what)}
    if what == "pass":
        return "moves", {"pass": True}
    if what == "place_two":
        return "choice", {"place_two": True}
    return "choice", {"color": what}


def draw_request(rng: random.Random, accepted: list[Any], board: set[Any]) -> tuple[int, Any]:
    """A request likely to be in step now and then: the player who acts most often, each kind
    of request in turn."""
    step, to_act, _ = reference(accepted)
    player = to_act if rng.random() < 0.8 else 3 - to_act
    roll = rng.random()
    if step in ("choose", "choose_color") and roll < 0.7:
        return player, rng.choice(["B", "W", "place_two"])
    if roll < 0.05:
        return player, "pass"
    if roll < 0.15:
        return player, rng.choice(["B", "W", "place_two"])
    if board and roll < 0.2:
        return player, rng.choice(sorted(board))
    return player, rng.choice([cell for cell in CELLS if cell not in board])


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
@pytest.mark.parametrize("seed", range(6))
def test_random_swap2_openings_answer_as_the_reference(
    client: TestClient, rule: str, seed: int
) -> None:
    rng = random.Random(f"{rule}-{seed}")
    game = create(client, rule=rule)
    path = f"/v1/games/{game['id']}"
    assert (game["opening"], game["colors"]) == (
        {"rule": "swap2", "step": "place_three", "to_act": 1}, {"1": None, "2": None},
    )  # fmt: skip
    accepted: list[tuple[int, Any]] = []
    board: set[Any] = set()
    answers: list[tuple[int, str, dict[str, Any], str, dict[str, Any]]] = []
    branches = set()
    for index in range(60):
        player, what = draw_request(rng, accepted, board)
        status, code = expected(accepted, player, what, rule, board)
        route, body = body_of(what)
        key = f"k{index}"
        answer = post(client, game, player, route, body, **{"Idempotency-Key": key})
        if code is not None:
            assert_problem(answer, status, code)
            assert client.get(path).json()["version"] == len(accepted)  # nothing changed
            continue
        assert answer.status_code == 201, answer.text
        placed = sum(1 for _, w in accepted if isinstance(w, tuple) or w == "pass")
        accepted.append((player, what))
        move, state = timeless(answer.json()["move"]), answer.json()["state"]
        seq = len(accepted)
        if isinstance(what, tuple):
            board.add(what)
            color = "B" if placed % 2 == 0 else "W"
            assert move == {"seq": seq, "row": what[0], "col": what[1],
                            "square": square(*what), "player": player, "color": color}  # fmt: skip
        elif what == "pass":
            assert move == {"seq": seq, "pass": True, "player": player,
                            "color": "B" if placed % 2 == 0 else "W"}  # fmt: skip
        elif what == "place_two":
            assert move == {"seq": seq, "choice": "place_two", "player": player}
            branches.add("place_two")
        else:
            assert move == {"seq": seq, "choice": "color", "player": player, "color": what}
            branches.add(f"player {player} chose {what}")
        step, to_act, colors = reference(accepted)
        opening = None if step is None else {"rule": "swap2", "step": step, "to_act": to_act}
        assert (state["opening"], state["colors"], state["next_player"]) == (
            opening, colors, to_act,
        )  # fmt: skip
        assert state["status"] == "in_progress"
        assert state["move_count"] == seq
        assert answer.headers["location"] == f"{path}/moves/{seq}"
        answers.append((player, route, body, key, answer.json()))
    assert branches, "the random requests made no choice"
    # Every accepted request again, under its key: the answer it was first given.
    for player, route, body, key, first in answers:
        again = post(client, game, player, route, body, **{"Idempotency-Key": key})
        assert again.status_code == 201, again.text
        assert again.headers.get("idempotent-replayed") == "true"
        assert again.json() == first
    # The moves, the events and the record say the same.
    moves = client.get(f"{path}/moves").json()["moves"]
    assert moves == [first["move"] for *_, first in answers]
    resigned = post(client, game, 1, "resign", {})
    assert resigned.status_code == 200, resigned.text
    events = parse_events(client.get(f"{path}/events").text)
    assert [json.loads(e["data"]) for e in events if e["event"] == "move"] == [
        first for *_, first in answers
    ]
    record = client.get(f"{path}/record").json()
    audited = client.post(
        "/v1/records/audit",
        json={k: v for k, v in record.items() if k not in ("state", "chain", "signature")},
    ).json()
    assert audited["moves"] == timeless(moves)
    assert audited["chain"] == record["chain"]
    final = client.get(path).json()
    assert (audited["state"]["colors"], audited["state"]["opening"]) == (
        final["colors"], final["opening"],
    )  # fmt: skip


@pytest.mark.parametrize(
    ("choices", "colors", "first_mover"),
    [
        (["W"], {"1": "B", "2": "W"}, 2),
        (["B"], {"1": "W", "2": "B"}, 1),
        (["place_two", "W"], {"1": "W", "2": "B"}, 1),
        (["place_two", "B"], {"1": "B", "2": "W"}, 2),
    ],
)
def test_every_branch_hands_white_s_move_to_the_seat_that_holds_white(
    client: TestClient, choices: list[str], colors: dict[str, str], first_mover: int
) -> None:
    game = create(client)
    stones = iter(CELLS)
    for _ in range(3):
        assert post(client, game, 1, "moves", {"square": square(*next(stones))}).status_code == 201
    chooser = 2
    for choice in choices:
        route, body = body_of(choice)
        answer = post(client, game, chooser, route, body)
        assert answer.status_code == 201, answer.text
        if choice == "place_two":
            for _ in range(2):
                placed = post(client, game, 2, "moves", {"square": square(*next(stones))})
                assert placed.status_code == 201, placed.text
            chooser = 1
        if choice == "place_two":  # the legal moves of a step that asks for a choice: none
            legal = client.get(f"/v1/games/{game['id']}/legal-moves").json()
            assert (legal["player"], legal["count"], legal["moves"]) == (1, 0, [])
    state = answer.json()["state"]
    assert (state["colors"], state["opening"], state["next_player"]) == (colors, None, first_mover)
    white = post(client, game, first_mover, "moves", {"square": square(*next(stones))})
    assert white.json()["move"]["color"] == "W"
    black = post(client, game, 3 - first_mover, "moves", {"square": square(*next(stones))})
    assert black.json()["move"]["color"] == "B"


def test_the_clocks_run_from_the_first_stone_and_charge_whoever_must_act(
    client: TestClient,
) -> None:
    game = create(client, clock={"initial_seconds": 600, "increment_seconds": 2})
    assert game["clock"]["running"] is None
    stones = iter(CELLS)
    first = post(client, game, 1, "moves", {"square": square(*next(stones))}).json()["state"]
    assert first["clock"]["running"] == 1  # untimed, but it starts player 1's clock
    assert first["clock"]["remaining_ms"] == {"1": 600_000, "2": 600_000}
    for _ in range(2):
        state = post(client, game, 1, "moves", {"square": square(*next(stones))}).json()["state"]
    assert state["clock"]["running"] == 2  # player 2 must choose
    assert state["clock"]["remaining_ms"]["1"] > 600_000  # two timed stones, +2 s each
    chosen = post(client, game, 2, "choice", {"place_two": True}).json()["state"]
    assert chosen["clock"]["running"] == 2  # and then place two stones
    assert chosen["clock"]["remaining_ms"]["2"] > 600_000 - 60_000


def test_a_game_without_swap2_has_its_colours_and_no_choice(client: TestClient) -> None:
    game = client.post("/v1/games", json={"game": "gomoku"}).json()
    assert (game["colors"], game["opening"]) == ({"1": "B", "2": "W"}, None)
    problem = assert_problem(post(client, game, 1, "choice", {"color": "W"}), 409, "wrong_step")
    assert problem["step"] is None
    assert "no swap2 opening" in problem["detail"]
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == 0


@pytest.mark.parametrize("kind", [{"n": 3}, {"game": "reversi"}])
def test_a_kind_without_choices_refuses_one_before_reading_it(
    client: TestClient, kind: dict[str, Any]
) -> None:
    game = client.post("/v1/games", json=kind).json()
    for body in ({"color": "W"}, {"nonsense": 1}, []):
        problem = assert_problem(post(client, game, 1, "choice", body), 409, "wrong_step")
        assert "has no choices" in problem["detail"]
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == 0


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({}, ["body", "color"]),
        ([], ["body"]),
        ("W", ["body"]),
        ({"color": "w"}, ["body", "color"]),
        ({"color": None}, ["body", "color"]),
        ({"color": "B\u0000"}, ["body", "color"]),
        ({"color": ["W"]}, ["body", "color"]),
        ({"place_two": 1}, ["body", "place_two"]),
        ({"place_two": "true"}, ["body", "place_two"]),
        ({"place_two": False}, ["body", "place_two"]),
        ({"color": "W", "extra": 1}, ["body", "extra"]),
        ({"color": "W", "place_two": True}, ["body", "place_two"]),
        ({"color": "W", "player": 3}, ["body", "player"]),
        ({"color": "\uff37"}, ["body", "color"]),  # a full-width W
        ({"color": "W", "player": 10**30}, ["body", "player"]),
        ({"color": "W", "player": "\u0662"}, ["body", "player"]),  # an Arabic-Indic 2
        ({"place_two": 1e300}, ["body", "place_two"]),
        ({"color": "W" * 100_000}, ["body", "color"]),
    ],
)  # fmt: skip
def test_a_choice_body_that_is_no_choice_is_refused_and_changes_nothing(
    client: TestClient, body: Any, where: list[Any]
) -> None:
    game = create(client)
    for cell in CELLS[:3]:
        post(client, game, 1, "moves", {"square": square(*cell)})
    problem = assert_problem(post(client, game, 2, "choice", body), 422, "validation_error")
    assert problem["errors"][0]["loc"] == where, problem
    state = client.get(f"/v1/games/{game['id']}").json()
    assert (state["version"], state["opening"]["step"]) == (3, "choose")


@pytest.mark.parametrize(
    "opening", ["swap3", "SWAP2", "", 2, True, ["swap2"], "swap\uff12", "swap2\u0000", 10**30]
)
def test_an_opening_that_is_neither_stones_nor_swap2_is_refused(
    client: TestClient, opening: Any
) -> None:
    problem = assert_problem(
        client.post("/v1/games", json={"game": "gomoku", "opening": opening}), 422,
        "validation_error",
    )  # fmt: skip
    assert problem["errors"][0]["loc"] == ["body", "opening"], problem


def test_an_audit_reads_choices_and_refuses_one_out_of_step(client: TestClient) -> None:
    stones = [square(*cell) for cell in CELLS[:7]]
    moves: list[Any] = [*stones[:3], {"place_two": True}, *stones[3:5], {"color": "B"}, stones[5]]
    answer = client.post("/v1/records/audit", json={"game": "gomoku", "opening": "swap2",
                                                     "moves": moves}).json()  # fmt: skip
    assert (answer["verdict"], answer["plies"]) == ("unfinished", 8)
    assert answer["state"]["colors"] == {"1": "B", "2": "W"}
    assert answer["moves"][7] == {"seq": 8, "row": 0, "col": 10, "square": "k15", "player": 2,
                                  "color": "W"}  # fmt: skip
    out_of_step = [*stones[:2], {"color": "W"}]
    answer = client.post("/v1/records/audit", json={"game": "gomoku", "opening": "swap2",
                                                     "moves": out_of_step}).json()  # fmt: skip
    assert answer["verdict"] == "illegal"
    assert answer["illegal"]["ply"] == 3
    assert answer["illegal"]["code"] == "wrong_step"
    assert answer["illegal"]["move"] == {"color": "W"}
    claimed = [*stones[:3], {"color": "W", "player": 1}]  # player 2 chooses, not player 1
    answer = client.post("/v1/records/audit", json={"game": "gomoku", "opening": "swap2",
                                                     "moves": claimed}).json()  # fmt: skip
    assert (answer["verdict"], answer["illegal"]["ply"]) == ("illegal", 4)
    assert answer["illegal"]["code"] == "not_your_turn"
    no_swap2 = client.post("/v1/records/audit", json={"game": "gomoku", "moves": ["h8", {
        "color": "W"}]}).json()  # fmt: skip
    assert no_swap2["illegal"]["code"] == "wrong_step"
    problem = assert_problem(
        client.post("/v1/records/audit", json={"n": 3, "moves": ["b2", {"color": "W"}]}), 422,
        "validation_error",
    )  # fmt: skip
    assert problem["errors"][0]["loc"] == ["body", "moves", 1]


def test_a_transcript_of_a_swap2_game_says_why_it_is_none(client: TestClient) -> None:
    game = create(client)
    for cell in CELLS[:3]:
        post(client, game, 1, "moves", {"square": square(*cell)})
    post(client, game, 2, "choice", {"color": "B"})
    problem = assert_problem(client.get(f"/v1/games/{game['id']}/record?format=transcript"), 422,
                             "validation_error")  # fmt: skip
    assert "choice" in problem["detail"]


def test_a_game_over_in_the_opening_has_no_step_pending(client: TestClient) -> None:
    game = create(client)
    post(client, game, 1, "moves", {"square": square(*CELLS[0])})
    ended = post(client, game, 2, "resign", {}).json()
    assert (ended["status"], ended["reason"], ended["next_player"]) == ("won", "resignation", None)
    assert (ended["opening"], ended["colors"]) == (None, {"1": None, "2": None})
    problem = assert_problem(post(client, game, 2, "choice", {"color": "W"}), 409, "game_over")
    assert problem["reason"] == "resignation"
