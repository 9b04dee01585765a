"""The FFO endgame positions (``tests/data/fforum-*.obf``): each line lists every legal move of
the colour to move, and the service's legal moves must be exactly those — asked statelessly
(``POST /v1/reversi/legal-moves``), and of a live session created from the posted position."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.rules.reference import reversi_moves

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = sorted(DATA.glob("fforum-*.obf"))
TO_ROWS = str.maketrans("XO-", "BW.")


def positions() -> Iterator[tuple[str, list[str], str, set[str]]]:
    """Each problem: its name, its rows (``B``, ``W``, ``.``), the colour to move and the
    squares of its legal moves, as the file lists them."""
    for path in FILES:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            board, rest = line.split(" ", 1)
            side, *moves = (part.strip() for part in rest.split(";"))
            squares = {move.split(":")[0].lower() for move in moves if move}
            rows = [board[i : i + 8].translate(TO_ROWS) for i in range(0, 64, 8)]
            yield f"{path.stem}:{number}", rows, "B" if side == "X" else "W", squares


POSITIONS = list(positions())


def square(row: int, col: int) -> str:
    return "abcdefgh"[col] + str(row + 1)


def test_the_files_hold_the_79_problems_and_list_what_the_reference_finds() -> None:
    assert len(POSITIONS) == 79
    for name, rows, color, squares in POSITIONS:
        assert {square(r, c) for r, c in reversi_moves(rows, color)} == squares, name


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(create_rate_per_minute=0)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("name", "rows", "color", "squares"), POSITIONS, ids=[p[0] for p in POSITIONS]
)
def test_the_legal_moves_of_an_ffo_position_are_those_it_lists(
    client: TestClient, name: str, rows: list[str], color: str, squares: set[str]
) -> None:
    stateless = client.post("/v1/reversi/legal-moves", json={"board": rows, "color": color})
    assert stateless.status_code == 200, stateless.text
    listed = {square(move["row"], move["col"]) for move in stateless.json()["moves"]}
    assert listed == squares
    created = client.post("/v1/games", json={"game": "reversi", "board": rows, "next": color})
    assert created.status_code == 201, created.text
    page = client.get(f"/v1/games/{created.json()['id']}/legal-moves").json()
    assert {move["square"] for move in page["moves"]} == squares
    assert page["count"] == len(squares)
