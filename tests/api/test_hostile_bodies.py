"""Hostile bodies cost little to refuse: at most 20 errors and their count, however many there
are, and a megabyte of members no request takes is refused with one error that counts them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.bodies import JsonBody
from app.api.games.schemas import GameShapes
from app.contract.bodies import (
    DEFAULT_MAX_BATCH,
    EXAMINED_SURPLUS,
    STRICT_MEMBERS,
    BodyInvalid,
    most_members,
)
from app.contract.fields import Body
from app.contract.problems import MAX_REPORTED_ERRORS
from app.kinds import REGISTRY
from app.main import create_app
from app.rules.reversi import OPENING
from app.sessions.clock import MAX_STAGES
from tests.api.problems import assert_problem, assert_validation_error
from tests.conftest import shared_settings

ONE_MIB = 1024 * 1024


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One app for the module: each test reads only its own answers."""
    settings = shared_settings()
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def unknown_members(count: int, **known: Any) -> bytes:
    return json.dumps({**known, **{f"m{i}": 0 for i in range(count)}}).encode()


def flood(**known: Any) -> bytes:
    """Nearly 1 MiB of members no request takes (about 90,000), after ``known``."""
    head = json.dumps(known)[:-1] + (", " if known else "")
    members, size, i = [], len(head) + 1, 0
    while size + len(f'"m{i}": 0, ') < ONE_MIB:
        members.append(f'"m{i}": 0')
        size += len(members[-1]) + 2
        i += 1
    return (head + ", ".join(members) + "}").encode()


def assert_few_errors(response: Any) -> dict[str, Any]:
    problem = assert_problem(response, 422, "validation_error")
    assert 1 <= len(problem["errors"]) <= MAX_REPORTED_ERRORS
    assert problem["error_count"] >= len(problem["errors"])
    assert len(response.content) < 4096
    return problem


BODY_ROUTES = [
    ("/v1/reversi/check-move", {"board": list(OPENING), "row": 2, "col": 3, "color": "B"}),
    ("/v1/reversi/legal-moves", {"board": list(OPENING), "color": "B"}),
    ("/v1/reversi/apply-move", {"board": list(OPENING), "row": 2, "col": 3, "color": "B"}),
    (
        "/v1/reversi/check-moves",
        {"board": list(OPENING), "queries": [{"row": 2, "col": 3, "color": "B"}]},
    ),
    ("/v1/tictactoe/validate", {"board": ["XO", ".."]}),
    ("/v1/tictactoe/validate-batch", {"items": [{"board": ["X"]}]}),
    ("/v1/games", {"n": 3}),
    ("/v1/games", {"game": "reversi"}),
]


@pytest.mark.parametrize(("path", "valid"), BODY_ROUTES)
@pytest.mark.parametrize("with_valid_members", [True, False], ids=["valid-members", "nothing-else"])
def test_a_megabyte_of_unknown_members_is_one_counted_error(
    client: TestClient, path: str, valid: dict[str, Any], with_valid_members: bool
) -> None:
    body = flood(**valid) if with_valid_members else flood()
    assert len(body) < ONE_MIB
    problem = assert_few_errors(
        client.post(path, content=body, headers={"content-type": "application/json"})
    )
    surplus = [e for e in problem["errors"] if e["type"] == "extra_forbidden"]
    assert surplus, problem
    assert "'m0'" in surplus[0]["msg"]  # the first members no request takes are named
    # Counted as "at least" those beyond the most a valid body holds (no member is read).
    found = re.search(r"at least ([\d,]+) members more .* \(at most ([\d,]+)\)", surplus[0]["msg"])
    assert found, surplus
    counted, most = (int(group.replace(",", "")) for group in found.groups())
    unknown = len(json.loads(body)) - len(valid if with_valid_members else {})
    assert unknown - most <= counted <= unknown


def test_a_moves_megabyte_of_unknown_members_changes_nothing(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3}).json()
    auth = {"Authorization": f"Bearer {game['tokens']['1']}", "content-type": "application/json"}
    for path in ("moves", "resign", "draw-offer"):
        body = flood(row=1, col=1) if path == "moves" else flood()
        assert_few_errors(client.post(f"/v1/games/{game['id']}/{path}", content=body, headers=auth))
    state = client.get(f"/v1/games/{game['id']}").json()
    assert (state["version"], state["status"]) == (0, "in_progress")


def test_many_errors_are_counted_and_the_first_twenty_named(client: TestClient) -> None:
    body = unknown_members(500, n=3)
    problem = assert_validation_error(
        client.post("/v1/games", content=body, headers={"content-type": "application/json"}),
        "body",
        "m0",
    )
    assert len(problem["errors"]) == MAX_REPORTED_ERRORS
    assert problem["error_count"] == 500
    assert problem["detail"] == "body.m0: Extra inputs are not permitted (and 499 more)"


def test_a_repeated_member_flood_is_refused(client: TestClient) -> None:
    body = ("{" + '"n": 3, ' * 100_000 + '"k": 3}').encode()
    problem = assert_few_errors(
        client.post("/v1/games", content=body, headers={"content-type": "application/json"})
    )
    most = most_members(GameShapes.of(REGISTRY).create.model, DEFAULT_MAX_BATCH)
    assert f"at least {100_001 - most:,} members more" in problem["errors"][0]["msg"]


def test_names_of_unknown_members_are_looked_for_only_among_the_first(client: TestClient) -> None:
    # One unknown name repeated a hundred thousand times, then others: the search for names
    # to show stops after the first few dozen members, rather than read the body to its end.
    body = ("{" + '"zz": 1, ' * 100_000 + '"yy": 1, "n": 3}').encode()
    problem = assert_few_errors(
        client.post("/v1/games", content=body, headers={"content-type": "application/json"})
    )
    assert "'zz'" in problem["errors"][0]["msg"]
    assert "'yy'" not in problem["errors"][0]["msg"]
    assert EXAMINED_SURPLUS < 100_000


def test_each_bad_board_of_a_batch_is_one_error_not_one_a_row(client: TestClient) -> None:
    items = [{"board": [1] * 100} for _ in range(1000)]
    response = client.post("/v1/tictactoe/validate-batch", json={"items": items})
    problem = assert_validation_error(response, "body", "items", 0, "board", 0)
    assert problem["error_count"] == 1000
    assert len(problem["errors"]) == MAX_REPORTED_ERRORS


def test_a_valid_body_of_many_members_is_answered(client: TestClient) -> None:
    queries = [{"row": r % 8, "col": r // 8 % 8, "color": "BW"[r % 2]} for r in range(1000)]
    # More members than a small body's, no more than a valid batch holds: read in one pass.
    assert 3 * len(queries) > STRICT_MEMBERS
    answer = client.post(
        "/v1/reversi/check-moves", json={"board": list(OPENING), "queries": queries}
    )
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["results"]) == 1000


def test_one_unknown_member_among_many_is_named_where_it_is(client: TestClient) -> None:
    queries: list[dict[str, Any]] = [{"row": 0, "col": 0, "color": "B"} for _ in range(1000)]
    queries[567]["colour"] = "B"
    response = client.post(
        "/v1/reversi/check-moves", json={"board": list(OPENING), "queries": queries}
    )
    problem = assert_validation_error(response, "body", "queries", 567, "colour")
    assert problem["error_count"] == 1


class Annotated(Body):
    """A body with free text, which may hold colons (as a game record does)."""

    text: str
    items: list[int]


def test_colons_inside_texts_are_no_members() -> None:
    # The body's colons bound its members from above; the colons of the texts it took are
    # told apart, so a long text full of colons is no surplus.
    body = JsonBody(Annotated, {}, components=[])  # not one of the app's documented bodies
    text = "12:00:00 " * 2 * STRICT_MEMBERS
    parsed = body.validate(json.dumps({"text": text, "items": [1, 2]}).encode(), {})
    assert parsed.text == text
    with pytest.raises(BodyInvalid) as refused:
        body.validate(json.dumps({"text": text, "items": [], "note": 1}).encode(), {})
    assert [e["loc"] for e in refused.value.errors()] == [("body", "note")]


def test_the_most_members_of_a_body_come_from_its_shape() -> None:
    from app.api.games.schemas import GameShapes
    from app.api.reversi import CheckMovesRequest, MoveQuery
    from app.api.tictactoe import ValidateBatchRequest
    from app.contract.games import NAME_LENGTH, ActionIn, JoinIn, MoveIn
    from app.kinds import REGISTRY

    create_game_in = GameShapes.of(REGISTRY).create.model

    assert most_members(MoveIn, 1000) == len(MoveIn.model_fields)
    assert most_members(ActionIn, 1000) == 1
    assert most_members(CheckMovesRequest, 50) == 2 + 50 * len(MoveQuery.__annotations__)
    assert most_members(ValidateBatchRequest, 7) == 1 + 7 * 2  # a board and k an item
    # gomoku's: its 6, stones, clock and its 4 (stages: at most MAX_STAGES of 2), open,
    # creator, visibility, first_move_seconds, rated, and rules and its 5; and names, its 2
    # seats and the colons their names may hold
    names = 1 + 2 + 2 * NAME_LENGTH
    assert most_members(create_game_in, 1000) == 21 + 2 + MAX_STAGES * 2 + names
    assert most_members(JoinIn, 1000) == 1 + NAME_LENGTH
    assert most_members(Annotated, 1000) is None  # a type it does not know: no bound
    assert most_members(str, 1000) is None  # text of no most length may hold any colons
