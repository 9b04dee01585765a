"""``GET /v1/games/{id}/legal-moves`` over HTTP, on the memory store, one Redis and a cluster:
what the player to move may play now, in the kind's shape, a page at a time, ETag-cached like
the state. Tic-tac-toe: every empty cell. Reversi: checked against the slow reference of
``tests/rules/reference.py`` — every listed move is accepted by ``POST …/moves`` with exactly
the listed flips, every empty cell not listed is refused."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.problems import assert_problem
from tests.conftest import shared_settings
from tests.rules import reference

# Every cell of 3 × 3, row-major, with its square name (tic-tac-toe: row 1 is the bottom row).
ALL_OF_3X3 = [
    {"row": 0, "col": 0, "square": "a3"}, {"row": 0, "col": 1, "square": "b3"},
    {"row": 0, "col": 2, "square": "c3"}, {"row": 1, "col": 0, "square": "a2"},
    {"row": 1, "col": 1, "square": "b2"}, {"row": 1, "col": 2, "square": "c2"},
    {"row": 2, "col": 0, "square": "a1"}, {"row": 2, "col": 1, "square": "b1"},
    {"row": 2, "col": 2, "square": "c1"},
]  # fmt: skip
COLOR = {1: "B", 2: "W"}


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    """One app per store for the module: each test reads only the games it creates. (The
    Reversi checks create a game for every listed move: creation is not throttled here.)"""
    settings = shared_settings(store_url=module_store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def play(client: TestClient, game: dict[str, Any], player: int, row: int, col: int) -> Any:
    return client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}"},
    )  # fmt: skip


def legal(client: TestClient, game: dict[str, Any], query: str = "") -> dict[str, Any]:
    response = client.get(f"/v1/games/{game['id']}/legal-moves{query}")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    body: dict[str, Any] = response.json()
    return body


def every_page(client: TestClient, game: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """Every legal move, read a page of ``limit`` at a time by following ``next_after``."""
    moves: list[dict[str, Any]] = []
    page = legal(client, game, f"?limit={limit}")
    while True:
        assert len(page["moves"]) <= limit
        moves += page["moves"]
        if page["next_after"] is None:
            return moves
        last = page["moves"][-1]
        assert page["next_after"] == last["row"] * game["n"] + last["col"]
        page = legal(client, game, f"?limit={limit}&after={page['next_after']}")


# --- tic-tac-toe ---------------------------------------------------------------------------------


def test_a_new_game_lists_every_cell_for_player_1(client: TestClient) -> None:
    game = create(client, n=3)
    assert legal(client, game) == {
        "id": game["id"], "game": "tictactoe", "version": 0, "player": 1, "count": 9,
        "moves": ALL_OF_3X3, "next_after": None,
    }  # fmt: skip


def test_occupied_cells_are_not_listed(client: TestClient) -> None:
    game = create(client, n=3)
    assert play(client, game, 1, 1, 1).status_code == 201
    assert play(client, game, 2, 0, 2).status_code == 201
    answer = legal(client, game)
    free = [cell for cell in ALL_OF_3X3 if cell["square"] not in ("b2", "c3")]
    assert (answer["version"], answer["player"], answer["count"]) == (2, 1, 7)
    assert answer["moves"] == free


@pytest.mark.parametrize("limit", [1, 2, 3, 5, 13, 14, 1024])
def test_pages_join_to_every_legal_move_once(client: TestClient, limit: int) -> None:
    game = create(client, game="tictactoe", n=4, k=3)
    for player, (row, col) in zip([1, 2, 1], [(0, 0), (1, 3), (3, 3)], strict=True):
        assert play(client, game, player, row, col).status_code == 201
    expected = [
        {"row": r, "col": c, "square": f"{'abcd'[c]}{4 - r}"}  # row 1 at the bottom
        for r in range(4)
        for c in range(4)
        if (r, c) not in {(0, 0), (1, 3), (3, 3)}
    ]
    assert every_page(client, game, limit) == expected  # in order: no gap, no repeat


def test_a_cursor_on_an_occupied_cell_or_past_the_board(client: TestClient) -> None:
    game = create(client, n=3)
    assert play(client, game, 1, 0, 2).status_code == 201
    page = legal(client, game, "?after=1&limit=2")  # (0, 2) taken: the page starts at (1, 0)
    assert (page["moves"], page["next_after"]) == (ALL_OF_3X3[3:5], 4)
    page = legal(client, game, "?after=2")
    assert page["moves"] == ALL_OF_3X3[3:]
    past = legal(client, game, f"?after={2**53 - 1}")
    assert (past["moves"], past["count"], past["next_after"]) == ([], 8, None)


def test_a_finished_game_has_no_player_and_no_moves(client: TestClient) -> None:
    won = create(client, n=3)
    for turn, (row, col) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]):  # X's top row
        assert play(client, won, 1 + turn % 2, row, col).status_code == 201
    resigned = create(client, game="reversi")
    resign = client.post(
        f"/v1/games/{resigned['id']}/resign",
        headers={"Authorization": f"Bearer {resigned['tokens']['2']}"},
    )
    assert resign.status_code == 200, resign.text
    for game, kind, version in ((won, "tictactoe", 5), (resigned, "reversi", 1)):
        assert legal(client, game) == {
            "id": game["id"], "game": kind, "version": version, "player": None, "count": 0,
            "moves": [], "next_after": None,
        }  # fmt: skip


def test_a_board_of_a_million_answers_its_first_row_first(client: TestClient) -> None:
    game = create(client, game="tictactoe", n=1_000_000, k=5)
    assert play(client, game, 1, 0, 3).status_code == 201
    page = legal(client, game)
    assert page["moves"] == [{"row": 0, "col": c} for c in range(1025) if c != 3]
    assert (page["count"], page["next_after"]) == (10**12 - 1, 1024)
    assert legal(client, game, "?limit=2&after=1024")["moves"] == [
        {"row": 0, "col": 1025}, {"row": 0, "col": 1026}]  # fmt: skip
    last = legal(client, game, f"?after={10**12 - 2}")
    assert (last["moves"], last["next_after"]) == ([{"row": 999_999, "col": 999_999}], None)


# --- ETag ---------------------------------------------------------------------------------------


def test_the_etag_is_the_states_and_a_match_is_304(client: TestClient) -> None:
    game = create(client, n=3)
    url = f"/v1/games/{game['id']}/legal-moves"
    first = client.get(url)
    state = client.get(f"/v1/games/{game['id']}")
    assert first.headers["etag"] == state.headers["etag"] == f'"{game["id"]}.0"'
    assert first.headers["cache-control"] == "no-cache"
    for tag in (
        first.headers["etag"],
        f"W/{first.headers['etag']}",
        f'"x", {first.headers["etag"]}',
    ):
        unchanged = client.get(url, headers={"If-None-Match": tag})
        assert (unchanged.status_code, unchanged.content) == (304, b"")
        assert unchanged.headers["etag"] == first.headers["etag"]
        assert unchanged.headers["cache-control"] == "no-cache"
    # Another page of the same game at the same version is unchanged too.
    other_page = client.get(f"{url}?limit=1", headers={"If-None-Match": first.headers["etag"]})
    assert other_page.status_code == 304

    assert play(client, game, 1, 1, 1).status_code == 201
    changed = client.get(url, headers={"If-None-Match": first.headers["etag"]})
    assert changed.status_code == 200
    assert changed.headers["etag"] == f'"{game["id"]}.1"' != first.headers["etag"]
    assert changed.json()["count"] == 8


def test_a_draw_offer_changes_the_etag_not_the_moves(client: TestClient) -> None:
    game = create(client, n=3)
    before = client.get(f"/v1/games/{game['id']}/legal-moves")
    offered = client.post(
        f"/v1/games/{game['id']}/draw-offer",
        headers={"Authorization": f"Bearer {game['tokens']['1']}"},
    )
    assert offered.status_code == 200
    after = client.get(
        f"/v1/games/{game['id']}/legal-moves", headers={"If-None-Match": before.headers["etag"]}
    )
    assert after.status_code == 200
    assert after.json() == {**before.json(), "version": 1}


# --- refusals -----------------------------------------------------------------------------------


def test_an_unknown_game_is_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/games/nosuchgame/legal-moves"), 404, "game_not_found")
    game = create(client, n=3)
    deleted = client.delete(
        f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens']['1']}"}
    )
    assert deleted.status_code == 204
    assert_problem(client.get(f"/v1/games/{game['id']}/legal-moves"), 404, "game_not_found")


def test_reading_them_needs_no_token_and_changes_nothing(client: TestClient) -> None:
    game = create(client, n=3)
    before = client.get(f"/v1/games/{game['id']}").json()
    assert client.get(f"/v1/games/{game['id']}/legal-moves").status_code == 200
    assert client.get(f"/v1/games/{game['id']}").json() == before


# --- Reversi, against the reference ---------------------------------------------------------------


def check_against_the_reference(
    client: TestClient, game: dict[str, Any], grid: list[str], player: int
) -> list[dict[str, Any]]:
    """The game's legal moves now are the reference's, with its flips; each is accepted with
    exactly those flips (on a game started from this position), and every other empty cell is
    refused (and the game is left as it was)."""
    color = COLOR[player]
    answer = legal(client, game)
    moves = answer["moves"]
    assert (answer["player"], answer["count"], answer["next_after"]) == (player, len(moves), None)
    assert [(m["row"], m["col"]) for m in moves] == reference.reversi_moves(grid, color)
    for move in moves:
        flips = reference.reversi_flips(grid, move["row"], move["col"], color)
        assert move["flips"] == [list(cell) for cell in flips]
        assert move["square"] == reference.othello_square(move["row"], move["col"])
        assert move["flip_squares"] == [reference.othello_square(*cell) for cell in flips]
        # Played by its square name, on a game started from this position.
        trial = create(client, game="reversi", board=grid, next=color)
        accepted = client.post(
            f"/v1/games/{trial['id']}/moves", json={"square": move["square"]},
            headers={"Authorization": f"Bearer {trial['tokens'][str(trial['next_player'])]}"},
        )  # fmt: skip
        assert accepted.status_code == 201, accepted.text
        record = accepted.json()["move"]
        assert (record["row"], record["col"], record["square"]) == (
            move["row"], move["col"], move["square"])  # fmt: skip
        assert (record["flips"], record["flip_squares"]) == (move["flips"], move["flip_squares"])
        assert client.delete(
            f"/v1/games/{trial['id']}",
            headers={"Authorization": f"Bearer {trial['tokens']['1']}"},
        ).status_code == 204  # fmt: skip
    listed = {(m["row"], m["col"]) for m in moves}
    version = answer["version"]
    for row, line in enumerate(grid):
        for col, mark in enumerate(line):
            if mark == "." and (row, col) not in listed:
                refused = assert_problem(play(client, game, player, row, col), 409, "illegal_move")
                assert refused["reason"] == "no_bracket"
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == version
    return moves


@pytest.mark.parametrize(("height", "width", "seed"), [(4, 4, 1), (6, 6, 2), (4, 8, 3)])
def test_reversi_lists_exactly_the_moves_the_game_accepts(
    client: TestClient, height: int, width: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = create(client, game="reversi", height=height, width=width)
    grid = client.get(f"/v1/games/{game['id']}/board").json()["rows"]
    state = game
    while state["status"] == "in_progress":
        player = state["next_player"]
        moves = check_against_the_reference(client, game, grid, player)
        chosen = rng.choice(moves)
        moved = play(client, game, player, chosen["row"], chosen["col"])
        assert moved.status_code == 201, moved.text
        assert moved.json()["move"]["flips"] == chosen["flips"]
        grid = reference.reversi_play(grid, chosen["row"], chosen["col"], COLOR[player])
        state = moved.json()["state"]
    assert legal(client, game)["moves"] == []
    assert client.get(f"/v1/games/{game['id']}/board").json()["rows"] == grid


MIDGAME = ["........", "..W.....", "..WBW...", "..BWW...", "...WB...", "....W...", "........",
           "........"]  # fmt: skip


def test_reversi_pages_are_the_whole_list_in_pieces(client: TestClient) -> None:
    game = create(client, game="reversi", board=MIDGAME)
    whole = legal(client, game)["moves"]
    assert [(m["row"], m["col"]) for m in whole] == reference.reversi_moves(MIDGAME, "B")
    assert len(whole) == 12
    for limit in range(1, len(whole) + 1):
        joined, query = [], f"?limit={limit}"
        while True:
            page = legal(client, game, query)
            joined += page["moves"]
            if page["next_after"] is None:
                break
            query = f"?limit={limit}&after={page['next_after']}"
        assert joined == whole
