"""Othello as the federation plays it, in live sessions: real tournament games of the WTHOR
database (1988, ``tests/data/``) played move by move in square notation on every store, each
state compared with the independent replay of ``tests/records/test_wthor.py`` — the board, the
score, who moves, the passes, the end — and the final score with the one the federation stored;
and the final score of the endings a referee decides."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from itertools import islice
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.records.wthor import WthorGame, read_wthor
from tests.conftest import shared_settings
from tests.records.test_wthor import MAX, START, YEAR_1988, cell, federation_score
from tests.rules.reference import reversi_moves, reversi_play
from tests.timeless import timeless

OTHER = {"B": "W", "W": "B"}
PLAYER = {"B": 1, "W": 2}


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    """One app a store for the module: each test reads only the games it makes."""
    settings = shared_settings(store_url=module_store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def sample(count: int, seed: int) -> list[WthorGame]:
    """``count`` games of 1988, picked at random, with the unfinished ones among them."""
    _, games = read_wthor(YEAR_1988, MAX)
    every = list(games)
    rng = random.Random(seed)
    return rng.sample(every, count)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def move(client: TestClient, game: dict[str, Any], player: int, square: str) -> dict[str, Any]:
    response = client.post(
        f"/v1/games/{game['id']}/moves", json={"square": square},
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}"},
    )  # fmt: skip
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def play_through(client: TestClient, game: WthorGame) -> dict[str, Any]:
    """Play a real game in a session, checking every state against the reference replay; the
    game's creation answer."""
    created = create(client, game="reversi")
    grid, color = list(START), "B"
    for square in game.moves:
        row, col = cell(square)
        answer = move(client, created, PLAYER[color], square)
        grid = reversi_play(grid, row, col, color)
        if reversi_moves(grid, OTHER[color]):
            passed, color_next = False, OTHER[color]
        elif reversi_moves(grid, color):
            passed, color_next = True, color
        else:
            passed, color_next = False, None
        state = answer["state"]
        assert answer["move"]["square"] == square
        assert answer["move"]["passed"] is passed
        text = "".join(grid)
        assert state["score"] == {"1": text.count("B"), "2": text.count("W")}
        assert state["next_player"] == (None if color_next is None else PLAYER[color_next])
        if color_next is None:
            assert state["status"] in ("won", "draw")
            assert state["reason"] == "no_moves"
            assert state["final_score"]["1"] == federation_score(grid) == game.stored_score
            assert sum(state["final_score"].values()) in (63, 64)  # a draw's odd square: nobody's
        else:
            assert (state["status"], state["final_score"]) == ("in_progress", None)
            color = color_next
    board = client.get(f"/v1/games/{created['id']}/board").json()["rows"]
    assert board == grid
    return created


def test_real_tournament_games_play_through_live_sessions(
    client: TestClient, store_url: str
) -> None:
    count = 12 if store_url == "memory://" else 4
    for game in sample(count, seed=len(store_url)):
        play_through(client, game)


@cache
def ended_early(count: int) -> list[WthorGame]:
    """The first ``count`` games of 1988 that ended with empty squares (found once: the
    reference replays every game)."""
    _, games = read_wthor(YEAR_1988, MAX)
    return list(islice((
        game for game in games
        if "." in "".join(grid := _replayed(game))
        and not (reversi_moves(grid, "B") or reversi_moves(grid, "W"))
    ), count))  # fmt: skip


def test_the_games_ending_with_empty_squares_score_them_to_the_winner(client: TestClient) -> None:
    games = ended_early(3)
    assert len(games) == 3  # (96 of the 1988 games)
    for game in games:
        created = play_through(client, game)
        # Its GGF states the federation's result (Black's score less White's, the empty
        # squares the winner's) and audits back to the session's state.
        text = client.get(f"/v1/games/{created['id']}/record", params={"format": "ggf"}).text
        cells = "".join(_replayed(game))
        black, white, empty = cells.count("B"), cells.count("W"), cells.count(".")
        difference = black - white + (empty if black > white else -empty if white > black else 0)
        assert f"RE[{difference:+.3f}]" in text
        audited = client.post("/v1/records/audit", json={"record": text, "format": "ggf"})
        state = client.get(f"/v1/games/{created['id']}").json()
        for private in ("id", "version"):
            state.pop(private)
        assert audited.json()["state"] == timeless(state)


def _replayed(game: WthorGame) -> list[str]:
    grid, color = list(START), "B"
    for square in game.moves:
        row, col = cell(square)
        if not reversi_moves(grid, color):
            color = OTHER[color]
        grid = reversi_play(grid, row, col, color)
        color = OTHER[color]
    return grid


def test_a_resignation_gives_the_winner_every_square_and_an_agreed_draw_splits_them(
    client: TestClient,
) -> None:
    resigned = create(client, game="reversi", height=6, width=10)
    response = client.post(
        f"/v1/games/{resigned['id']}/resign",
        headers={"Authorization": f"Bearer {resigned['tokens']['1']}"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["final_score"] == {"1": 0, "2": 60}

    agreed = create(client, game="reversi")
    move(client, agreed, 1, "f5")
    for player in (2, 1):  # an offer, then the other player's: a draw by agreement
        offered = client.post(
            f"/v1/games/{agreed['id']}/draw-offer",
            headers={"Authorization": f"Bearer {agreed['tokens'][str(player)]}"},
        )
        assert offered.status_code == 200, offered.text
    state = client.get(f"/v1/games/{agreed['id']}").json()
    assert (state["reason"], state["final_score"]) == ("agreement", {"1": 32, "2": 32})


# --- openings as moves ------------------------------------------------------------------------


def reference_game(squares: list[str]) -> tuple[list[str], str | None, list[bool]]:
    """The board after ``squares`` from the standard start, who moves next, and which moves
    made the opponent pass: the reference replay."""
    grid, color, passes = list(START), "B", []
    for square in squares:
        assert color is not None
        grid = reversi_play(grid, *cell(square), color)
        if reversi_moves(grid, OTHER[color]):
            color, passed = OTHER[color], False
        elif reversi_moves(grid, color):
            passed = True
        else:
            color, passed = None, False  # type: ignore[assignment]
        passes.append(passed)
    return grid, color, passes


def with_a_pass() -> list[str]:
    """The moves of a real 1988 game up to and including the first move after which the
    opponent had to pass, and one more."""
    _, games = read_wthor(YEAR_1988, MAX)
    for game in games:
        _, _, passes = reference_game(list(game.moves))
        if True in passes[:-2]:
            return list(game.moves[: passes.index(True) + 2])
    raise AssertionError("no 1988 game has a pass")


@pytest.mark.parametrize("written", ["transcript", "list"])
def test_an_opening_is_the_games_first_moves(client: TestClient, written: str) -> None:
    squares = with_a_pass()
    opening: Any = "".join(squares) if written == "transcript" else [s.upper() for s in squares]
    created = create(client, game="reversi", opening=opening)
    grid, color, passes = reference_game(squares)
    assert (created["version"], created["move_count"]) == (len(squares), len(squares))
    assert created["next_player"] == PLAYER[color or "B"]
    assert created["last_move"]["square"] == squares[-1]
    assert client.get(f"/v1/games/{created['id']}/board").json()["rows"] == grid
    listed = client.get(f"/v1/games/{created['id']}/moves").json()
    assert [m["square"] for m in listed["moves"]] == squares
    assert [m["passed"] for m in listed["moves"]] == passes
    assert listed["version"] == len(squares)
    legal = client.get(f"/v1/games/{created['id']}/legal-moves").json()["moves"][0]
    assert color is not None
    moved = move(client, created, PLAYER[color], legal["square"])
    assert moved["move"]["seq"] == len(squares) + 1
    exported = client.get(f"/v1/games/{created['id']}/record").json()
    assert "opening" not in exported  # its moves are the record's first moves
    assert exported["moves"] == [*squares, legal["square"]]
    audited = client.post("/v1/records/audit", json={
        "game": "reversi", "opening": opening, "moves": [legal["square"]],
    }).json()  # fmt: skip
    assert (audited["chain"], audited["plies"]) == (exported["chain"], 1)


def test_an_opening_is_untimed(client: TestClient) -> None:
    created = create(client, game="reversi", opening="f5d6c3", clock={"initial_seconds": 60})
    assert created["clock"]["running"] is None
    assert created["clock"]["remaining_ms"] == {"1": 60_000, "2": 60_000}


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"opening": "f5d6a1"}, "move 3 of the opening, a1"),
        ({"opening": ["f5", "f5"]}, "move 2 of the opening, f5"),
        ({"opening": "f5 z9"}, "move 2 of the opening, z9"),
        ({"opening": "f5,d6"}, "opening"),
        ({"opening": ["f5", 7]}, "opening"),
        ({"opening": "f5", "board": ["BW..", "....", "....", "...."]}, "standard start"),
    ],
)
def test_an_opening_that_cannot_be_played_is_422_naming_the_move(
    client: TestClient, body: dict[str, Any], said: str
) -> None:
    response = client.post("/v1/games", json={"game": "reversi", **body})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "validation_error"
    assert said in response.json()["detail"]
