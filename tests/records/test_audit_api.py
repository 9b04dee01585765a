"""``POST /v1/records/audit`` and ``GET /v1/games/{id}/record`` over HTTP.

Every verdict is checked against an independent replay (``tests/rules/reference.py``, cell by
cell, passes inferred by looking for a legal move), never against the service's own engine: the
plies accepted, the first refused one and its code, the passes, the final board and score. A
session's record, exported in every form, audits back to the same moves, state and hash chain; a
changed move or result no longer verifies.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema_rs import Draft202012Validator

from app.main import create_app
from app.records.canonical import chain
from app.records.signing import NotVerified, verify
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.conftest import shared_settings
from tests.rules import reference
from tests.timeless import timeless

OTHER = {"B": "W", "W": "B"}
PLAYER = {"B": 1, "W": 2}


@dataclass
class OthelloReplay:
    """A game replayed by the reference: the board, who moves, and what each move did."""

    grid: list[str]
    to_move: str | None = "B"
    squares: list[str] = field(default_factory=list)
    passed: list[bool] = field(default_factory=list)

    @classmethod
    def standard(cls, size: int = 8) -> OthelloReplay:
        grid = [["."] * size for _ in range(size)]
        half = size // 2
        grid[half - 1][half - 1] = grid[half][half] = "W"
        grid[half - 1][half] = grid[half][half - 1] = "B"
        return cls(["".join(row) for row in grid])

    def play(self, row: int, col: int) -> None:
        assert self.to_move is not None
        color = self.to_move
        self.grid = reference.reversi_play(self.grid, row, col, color)
        self.squares.append(reference.othello_square(row, col))
        if reference.reversi_moves(self.grid, OTHER[color]):
            self.to_move, skipped = OTHER[color], False
        elif reference.reversi_moves(self.grid, color):
            self.to_move, skipped = color, True
        else:
            self.to_move, skipped = None, False
        self.passed.append(skipped)

    def score(self) -> dict[str, int]:
        text = "".join(self.grid)
        return {"1": text.count("B"), "2": text.count("W")}


def random_othello(rng: random.Random, plies: int | None = None, size: int = 8) -> OthelloReplay:
    game = OthelloReplay.standard(size)
    while game.to_move is not None and (plies is None or len(game.squares) < plies):
        game.play(*rng.choice(reference.reversi_moves(game.grid, game.to_move)))
    return game


@pytest.fixture(scope="module")
def shared() -> Iterator[TestClient]:
    """One app for every example of a property test (each makes its own games)."""
    with TestClient(create_app(Settings(create_rate_per_minute=0))) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One app for the module: an audit is stateless, and a test reads only the games it
    makes (an app a test was a third of the module's time)."""
    settings = shared_settings(max_record_moves=500)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def audit(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/records/audit", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def keys(client: TestClient) -> list[dict[str, Any]]:
    published: list[dict[str, Any]] = client.get("/v1/keys").json()["keys"]
    return published


# --- Othello: the verdict, the passes and the final state, by the reference -------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 70))
def test_an_othello_transcript_audits_as_the_reference_replays_it(
    shared: TestClient, seed: int, cut: int
) -> None:
    game = random_othello(random.Random(seed), plies=cut)
    answer = audit(shared, game="reversi", transcript="".join(game.squares))
    assert answer["verdict"] == ("finished" if game.to_move is None else "unfinished")
    assert answer["plies"] == len(game.squares)
    assert answer["illegal"] is None
    assert [move["square"] for move in answer["moves"]] == game.squares
    assert [move["passed"] for move in answer["moves"]] == game.passed
    state = answer["state"]
    assert state["score"] == game.score()
    assert state["next_player"] == (None if game.to_move is None else PLAYER[game.to_move])
    assert state["move_count"] == len(game.squares)
    if game.to_move is None:
        black, white = game.score()["1"], game.score()["2"]
        assert state["winner"] == (1 if black > white else 2 if white > black else 0)
        assert state["reason"] == "no_moves"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_planted_illegal_move_is_refused_at_its_ply_with_the_sessions_code(
    shared: TestClient, seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    game = random_othello(rng)
    ply = data.draw(st.integers(1, len(game.squares)), label="ply")
    before = OthelloReplay.standard()
    for square in game.squares[: ply - 1]:
        before.play(int(square[1:]) - 1, "abcdefgh".index(square[0]))
    assert before.to_move is not None
    legal = set(reference.reversi_moves(before.grid, before.to_move))
    illegal = [(r, c) for r in range(8) for c in range(8) if (r, c) not in legal]
    row, col = data.draw(st.sampled_from(illegal), label="planted")
    squares = [*game.squares[: ply - 1], reference.othello_square(row, col), *game.squares[ply:]]
    answer = audit(shared, game="reversi", moves=squares)
    assert answer["verdict"] == "illegal"
    assert answer["plies"] == ply - 1
    refused = answer["illegal"]
    assert refused["ply"] == ply
    assert refused["move"] == reference.othello_square(row, col)
    occupied = before.grid[row][col] != "."
    assert refused["code"] == ("cell_occupied" if occupied else "illegal_move")
    assert refused["status"] == 409
    assert [move["square"] for move in answer["moves"]] == game.squares[: ply - 1]


def test_a_move_after_the_end_is_refused_as_game_over(client: TestClient) -> None:
    game = random_othello(random.Random(7))
    assert game.to_move is None
    empty = next(
        (r, c) for r in range(8) for c in range(8) if game.grid[r][c] == "."
    ) if "." in "".join(game.grid) else (0, 0)  # fmt: skip
    extra = reference.othello_square(*empty)
    answer = audit(client, game="reversi", transcript="".join([*game.squares, extra]))
    assert answer["verdict"] == "illegal"
    assert answer["illegal"]["ply"] == len(game.squares) + 1
    assert answer["illegal"]["code"] == "game_over"


def othello_with_a_pass(rng: random.Random) -> OthelloReplay:
    """A random finished 8 × 8 game in which some move skipped the opponent."""
    while True:
        game = random_othello(rng)
        if any(game.passed):
            return game


def test_written_passes_are_checked_where_the_reference_infers_them(client: TestClient) -> None:
    game = othello_with_a_pass(random.Random(11))
    at = game.passed.index(True) + 1  # the move after which the opponent had to pass
    written = [*game.squares[:at], "pass", *game.squares[at:]]
    answer = audit(client, game="reversi", moves=written)
    assert answer["verdict"] == "finished"
    assert answer["plies"] == len(written)
    assert answer["moves"][at - 1]["passed"] is True

    twice = [*game.squares[:at], "pass", "pass", *game.squares[at:]]
    refused = audit(client, game="reversi", moves=twice)["illegal"]
    assert (refused["ply"], refused["code"], refused["reason"]) == (at + 2, "illegal_move",
                                                                     "pass_with_moves")  # fmt: skip

    early = ["pass", *game.squares]
    refused = audit(client, game="reversi", moves=early)["illegal"]
    assert (refused["ply"], refused["move"], refused["reason"]) == (1, "pass", "pass_with_moves")


# --- tic-tac-toe -------------------------------------------------------------------------------


def test_a_tictactoe_record_in_pairs_ends_at_the_line(client: TestClient) -> None:
    answer = audit(client, n=3, moves=[[1, 1], [0, 1], [0, 0], [2, 1], [2, 2]])
    assert answer["verdict"] == "finished"
    assert answer["state"]["winner"] == 1
    assert answer["state"]["reason"] == "line"
    more = audit(client, n=3, moves=[[1, 1], [0, 1], [0, 0], [2, 1], [2, 2], [1, 0]])
    assert (more["verdict"], more["illegal"]["ply"], more["illegal"]["code"]) == (
        "illegal", 6, "game_over"
    )  # fmt: skip


def test_tictactoe_squares_count_rows_from_the_bottom(client: TestClient) -> None:
    answer = audit(client, n=3, transcript="a1 c3\nb1")
    cells = [(move["row"], move["col"]) for move in answer["moves"]]
    assert cells == [(2, 0), (0, 2), (2, 1)]
    assert answer["state"]["next_player"] == 2


def test_an_occupied_cell_and_a_cell_outside_are_refused_as_a_session_refuses_them(
    client: TestClient,
) -> None:
    occupied = audit(client, n=3, transcript="b2a1c3b2")["illegal"]
    assert (occupied["ply"], occupied["move"], occupied["code"]) == (4, "b2", "cell_occupied")
    outside = audit(client, n=3, moves=[[1, 1], [3, 0]])["illegal"]
    assert (outside["ply"], outside["move"], outside["code"]) == (2, [3, 0], "out_of_bounds")


@pytest.mark.parametrize(
    ("body", "cell", "named"),
    [
        ({"n": 3, "transcript": "b2a1c3b2"}, "(1, 1)", "b2"),  # rows from the bottom
        ({"n": 3, "moves": [[0, 0], [1, 1], [0, 0]]}, "(0, 0)", "a3"),  # written as a pair
        ({"game": "reversi", "transcript": "f5d6c3d3c4f5"}, "(4, 5)", "f5"),  # from the top
        ({"game": "reversi", "transcript": "f5d6c3d3c4a1"}, "(0, 0)", "a1"),  # no bracket
        ({"game": "gomoku", "moves": ["h8", "h8"]}, "(7, 7)", "h8"),
    ],
)
def test_a_refusal_names_its_cell_by_square_as_the_kind_writes_it(
    client: TestClient, body: dict[str, Any], cell: str, named: str
) -> None:
    detail = audit(client, **body)["illegal"]["detail"]
    assert f"{named} {cell}" in detail


def test_a_refusal_on_a_board_without_names_names_its_cell_by_row_and_col(
    client: TestClient,
) -> None:
    detail = audit(client, n=30, moves=[[0, 0], [1, 1], [0, 0]])["illegal"]["detail"]
    assert detail == "cell (0, 0) already holds a mark"


# --- what a client cannot send ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"n": 3}, ["body"]),
        ({"n": 3, "moves": ["b2"], "transcript": "b2"}, ["body"]),
        ({"n": 3, "moves": ["b2", "z9"]}, ["body", "moves", 1]),
        ({"n": 3, "moves": ["b2", "b 2"]}, ["body", "moves", 1]),
        ({"n": 3, "moves": ["pass"]}, ["body", "moves", 0]),
        ({"n": 30, "moves": ["a1"]}, ["body", "moves", 0]),
        ({"n": 3, "transcript": "b2\na1 x3"}, ["body", "transcript"]),
        ({"n": 3, "moves": ["b2"], "clock": {"initial_seconds": 60}}, ["body", "clock"]),
        ({"n": 3, "record": "(;GM[Othello];)"}, ["body"]),
        ({"game": "reversi", "record": "x", "format": "sgf"}, ["body"]),
        ({"game": "reversi", "height": 6, "record": "x", "format": "ggf"}, ["body"]),
        ({"game": "reversi", "moves": [[1, 2, 3]]}, ["body", "moves", 0]),
        ({"game": "reversi", "moves": "f5d6"}, ["body", "moves"]),
    ],
)
def test_a_record_that_cannot_be_read_is_422_naming_where(
    client: TestClient, body: dict[str, Any], where: list[Any]
) -> None:
    response = client.post("/v1/records/audit", json=body)
    problem = assert_problem(response, 422, "validation_error")
    assert problem["errors"][0]["loc"][: len(where)] == where


GGF = (
    "(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
    "B[f5];)"
)
PSQ = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\n"


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"n": 3, "moves": [[1, 1]]}, 200),
        ({"game": "tictactoe", "n": 3, "transcript": "b2"}, 200),
        ({"game": "reversi", "moves": ["f5"]}, 200),
        ({"game": "reversi", "transcript": "f5d6"}, 200),
        ({"record": GGF, "format": "ggf"}, 200),
        ({"game": "reversi", "record": GGF, "format": "ggf"}, 200),
        ({"game": "gomoku", "moves": ["h8"]}, 200),
        ({"game": "gomoku", "transcript": "h8"}, 200),
        ({"record": PSQ, "format": "psq", "rule": "standard", "foul": "refuse"}, 200),
        ({"game": "reversi"}, 422),
        ({"game": "reversi", "moves": ["f5"], "transcript": "f5"}, 422),
        ({"game": "reversi", "record": GGF}, 422),
        ({"game": "reversi", "moves": ["f5"], "format": "ggf"}, 422),
        ({"game": "gomoku", "record": GGF, "format": "ggf"}, 422),
        ({"record": PSQ, "format": "psq", "size": 15}, 422),
        ({"moves": ["f5"]}, 422),
    ],
)
def test_a_body_the_service_reads_fits_one_shape_of_the_documented_body_and_none_else(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    """The document's audit body is a ``oneOf``: one shape a kind and a way of giving the moves
    (a list, a transcript, a record with its format). A body the service audits fits exactly
    one; a body it refuses for its kind or its way fits none."""
    spec = client.get("/openapi.json").json()
    components = {"components": spec["components"]}
    shapes = spec["components"]["schemas"]["AuditIn"]["oneOf"]
    fits = [s["$ref"] for s in shapes if Draft202012Validator({**s, **components}).is_valid(body)]
    response = client.post("/v1/records/audit", json=body)
    assert response.status_code == status, response.text
    assert len(fits) == (1 if status == 200 else 0), fits


def test_a_null_way_is_a_way_left_out(client: TestClient) -> None:
    """As the service has always read it (the document shows the way's members only)."""
    body = {"game": "reversi", "moves": ["f5"], "transcript": None, "record": None, "format": None}
    assert audit(client, **body)["plies"] == 1


def test_more_moves_than_the_bound_are_refused_before_they_are_read(client: TestClient) -> None:
    listed = client.post("/v1/records/audit", json={"n": 30, "moves": [[0, 0]] * 501})
    assert "501" in assert_problem(listed, 422, "validation_error")["detail"]
    written = client.post("/v1/records/audit", json={"n": 30, "transcript": "a1" * 100_000})
    detail = assert_problem(written, 422, "validation_error")["detail"]
    assert "move 501" in detail


def test_line_and_column_name_where_a_transcript_broke(client: TestClient) -> None:
    response = client.post("/v1/records/audit", json={"n": 3, "transcript": "a1 b2\nc3 ?"})
    assert "line 2, column 4" in assert_problem(response, 422, "validation_error")["detail"]


# --- signatures and the hash chain ------------------------------------------------------------


def test_an_audit_answer_verifies_and_a_changed_one_does_not(client: TestClient) -> None:
    game = random_othello(random.Random(3))
    answer = audit(client, game="reversi", transcript="".join(game.squares))
    published = keys(client)
    assert verify(answer, published) == (published[0]["kid"], "audit")
    assert answer["chain"] == chain({"game": "reversi", "height": 8, "width": 8}, answer["moves"])
    changed_result = {
        **answer,
        "state": {**answer["state"], "winner": 3 - answer["state"]["winner"]},
    }
    with pytest.raises(NotVerified):
        verify(changed_result, published)
    changed_move = {
        **answer,
        "moves": [{**answer["moves"][0], "square": "d3"}, *answer["moves"][1:]],
    }
    with pytest.raises(NotVerified):
        verify(changed_move, published)


def test_changing_one_move_changes_the_chain_or_makes_the_record_illegal(
    client: TestClient,
) -> None:
    rng = random.Random(5)
    game = random_othello(rng)
    original = audit(client, game="reversi", transcript="".join(game.squares))
    for ply in rng.sample(range(len(game.squares)), 10):
        squares = list(game.squares)
        squares[ply] = rng.choice([reference.othello_square(r, c) for r in range(8)
                                   for c in range(8)])  # fmt: skip
        if squares[ply] == game.squares[ply]:
            continue
        changed = audit(client, game="reversi", moves=squares)
        assert changed["verdict"] == "illegal" or changed["chain"] != original["chain"]


# --- a session's record -----------------------------------------------------------------------


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def move(client: TestClient, game: dict[str, Any], player: int, **cell: Any) -> None:
    response = client.post(
        f"/v1/games/{game['id']}/moves", json=cell,
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}"},
    )  # fmt: skip
    assert response.status_code == 201, response.text


def record(client: TestClient, game_id: str, format: str | None = None) -> Any:
    query = "" if format is None else f"?format={format}"
    response = client.get(f"/v1/games/{game_id}/record{query}")
    assert response.status_code == 200, response.text
    return response.json() if format is None else response.text


@pytest.fixture(params=["memory", "redis"])
def store_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    from tests.conftest import empty_store

    url = empty_store(request, request.param)
    with TestClient(create_app(Settings(store_url=url, create_rate_per_minute=0))) as client:
        yield client


def test_an_othello_session_exported_audits_back_to_its_moves_state_and_chain(
    store_client: TestClient,
) -> None:
    client = store_client
    game = random_othello(random.Random(21))
    created = create(client, game="reversi")
    for i, square in enumerate(game.squares):
        unsigned = record(client, created["id"])
        assert unsigned["signature"] is None
        player = audit(client, game="reversi", moves=game.squares[:i])["state"]["next_player"]
        move(client, created, player, square=square)
    exported = record(client, created["id"])
    assert exported["moves"] == game.squares
    assert verify(exported, keys(client)).typ == "record"
    again = audit(client, **{k: v for k, v in exported.items()
                             if k not in ("state", "chain", "signature")})  # fmt: skip
    assert again["state"] == exported["state"]
    assert again["chain"] == exported["chain"]
    assert record(client, created["id"], "transcript") == "".join(game.squares)
    from_text = audit(
        client, game="reversi", transcript=record(client, created["id"], "transcript")
    )
    assert from_text["chain"] == exported["chain"]


def test_a_tictactoe_session_on_a_posted_size_exports_and_audits_back(
    store_client: TestClient,
) -> None:
    client = store_client
    created = create(client, n=5, k=4)
    cells = [(4, 0), (0, 4), (4, 1), (0, 3), (4, 2), (0, 2), (4, 3)]
    for i, (row, col) in enumerate(cells):
        move(client, created, 1 + i % 2, row=row, col=col)
    exported = record(client, created["id"])
    assert exported["moves"] == ["a1", "e5", "b1", "d5", "c1", "c5", "d1"]
    assert exported["state"]["reason"] == "line"
    assert verify(exported, keys(client)).typ == "record"
    again = audit(client, game="tictactoe", n=5, k=4, moves=exported["moves"])
    assert (again["state"], again["chain"]) == (exported["state"], exported["chain"])


def test_a_board_without_names_is_recorded_in_pairs_and_has_no_transcript(
    client: TestClient,
) -> None:
    created = create(client, n=30, k=5)
    move(client, created, 1, row=29, col=29)
    exported = record(client, created["id"])
    assert exported["moves"] == [[29, 29]]
    response = client.get(f"/v1/games/{created['id']}/record?format=transcript")
    assert_problem(response, 422, "validation_error")


def test_a_format_the_kind_has_no_use_for_is_422(client: TestClient) -> None:
    created = create(client, n=3)
    for wanted in ("ggf", "pgn", "JSON", "x" * 40):
        response = client.get(f"/v1/games/{created['id']}/record?format={wanted}")
        assert_problem(response, 422, "validation_error")


def test_the_record_of_no_game_is_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/games/nope/record"), 404, "game_not_found")


def test_a_record_is_cached_like_the_game(client: TestClient) -> None:
    created = create(client, n=3)
    first = client.get(f"/v1/games/{created['id']}/record")
    tag = first.headers["etag"]
    assert client.get(f"/v1/games/{created['id']}/record",
                      headers={"If-None-Match": tag}).status_code == 304  # fmt: skip
    move(client, created, 1, square="b2")
    assert client.get(f"/v1/games/{created['id']}/record",
                      headers={"If-None-Match": tag}).status_code == 200  # fmt: skip


# --- GGF: real games, and sessions written and read back ------------------------------------

DATA = __import__("pathlib").Path(__file__).parent.parent / "data"


@pytest.mark.parametrize(
    "name", ["ggs-2000-fangr-patzer.ggf", "ggs-2003-saio.ggf", "ggs-2011-white-starts.ggf"]
)
def test_a_real_ggs_game_audits_as_the_reference_replays_it(client: TestClient, name: str) -> None:
    from app.records.ggf import read_ggf

    text = (DATA / name).read_text()
    game = read_ggf(text, 500)
    grid = list(game.start_rows) if game.start_rows else OthelloReplay.standard().grid
    replay = OthelloReplay(grid, game.to_move)
    for written in game.moves:
        if written.square == "pass":
            continue
        assert replay.to_move == written.color
        replay.play(int(written.square[1:]) - 1, "abcdefgh".index(written.square[0]))
    answer = audit(client, record=text, format="ggf")
    assert answer["verdict"] == ("finished" if replay.to_move is None else "unfinished")
    assert [move["square"] for move in answer["moves"]] == replay.squares
    assert [move["passed"] for move in answer["moves"]] == replay.passed
    assert answer["state"]["score"] == replay.score()
    if game.result is not None and replay.to_move is None:
        assert game.result.score == replay.score()["1"] - replay.score()["2"]


def test_a_ggf_move_written_for_the_wrong_colour_is_refused_as_not_your_turn(
    client: TestClient,
) -> None:
    text = "(;GM[Othello]TY[8]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]B[f5]B[d6];)"
    answer = audit(client, record=text, format="ggf")
    assert (answer["verdict"], answer["illegal"]["ply"], answer["illegal"]["code"]) == (
        "illegal", 2, "not_your_turn"
    )  # fmt: skip


def test_an_othello_session_exports_ggf_that_audits_back(store_client: TestClient) -> None:
    client = store_client
    game = othello_with_a_pass(random.Random(2))
    created = create(client, game="reversi")
    for square, player in zip(
        game.squares,
        [
            audit(client, game="reversi", moves=game.squares[:i])["state"]["next_player"]
            for i in range(len(game.squares))
        ],
        strict=True,
    ):
        move(client, created, player, square=square)
    text = record(client, created["id"], "ggf")
    assert text.startswith("(;GM[Othello]")
    assert "PA]" in text  # the inferred pass, as GGS writes it
    exported = record(client, created["id"])
    again = audit(client, record=text, format="ggf")
    assert (again["state"], again["chain"]) == (exported["state"], exported["chain"])
    black, white = game.score()["1"], game.score()["2"]
    assert f"RE[{black - white:+.3f}]" in text


def test_a_posted_reversi_start_round_trips_through_ggf(client: TestClient) -> None:
    board = ["........", "........", "...B....", "...BB...", "...BW...", "........",
             "........", "........"]  # fmt: skip
    created = create(client, game="reversi", board=board, next="W")
    exported = record(client, created["id"])
    again = audit(client, record=record(client, created["id"], "ggf"), format="ggf")
    assert again["chain"] == exported["chain"]
    assert again["state"] == exported["state"]


@pytest.mark.parametrize(
    ("initial", "increment", "written"),
    [
        (300, 5, "05:00/00:05/00:00"),
        (5400, 0, "1:30:00/00:00/00:00"),
        (59, 61, "00:59/01:01/00:00"),
    ],
)
def test_a_clocked_games_ggf_states_its_clock_as_ggs_writes_one(
    client: TestClient, initial: int, increment: int, written: str
) -> None:
    # GGS's clock: initial/increment/extension, each [[HH:]MM:]SS; no extension (a flag fall
    # loses), and every part written.
    clock = {"initial_seconds": initial, "increment_seconds": increment}
    created = create(client, game="reversi", clock=clock)
    text = record(client, created["id"], "ggf")
    assert f"TI[{written}]" in text
    assert "TI[" not in record(client, create(client, game="reversi")["id"], "ggf")


@pytest.mark.parametrize(("player", "result"), [(1, "RE[-64.000:r]"), (2, "RE[+64.000:r]")])
def test_a_resigned_games_ggf_gives_the_winner_every_square(
    client: TestClient, player: int, result: str
) -> None:
    created = create(client, game="reversi")
    response = client.post(
        f"/v1/games/{created['id']}/resign",
        headers={"Authorization": f"Bearer {created['tokens'][str(player)]}"},
    )
    assert response.status_code == 200, response.text
    assert result in record(client, created["id"], "ggf")


def test_a_rectangular_board_has_no_ggf(client: TestClient) -> None:
    created = create(client, game="reversi", height=6, width=10)
    response = client.get(f"/v1/games/{created['id']}/record?format=ggf")
    assert "square boards" in assert_problem(response, 422, "validation_error")["detail"]


def test_a_ggf_text_that_is_not_a_game_is_422_naming_the_line(client: TestClient) -> None:
    response = client.post(
        "/v1/records/audit", json={"record": "(;GM[Othello]\nTY[8]B[z9];)", "format": "ggf"}
    )
    detail = assert_problem(response, 422, "validation_error")["detail"]
    assert "line 2" in detail


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(1, 30), k=st.integers(1, 30), seed=st.integers(0, 2**32), cut=st.integers(0, 40)
)
def test_a_tictactoe_session_exported_audits_back_on_any_board(
    shared: TestClient, n: int, k: int, seed: int, cut: int
) -> None:
    k = min(k, n)
    rng = random.Random(seed)
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    client = shared
    created = create(client, n=n, k=k)
    for i, (row, col) in enumerate(cells[:cut]):
        response = client.post(
            f"/v1/games/{created['id']}/moves", json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {created['tokens'][str(1 + i % 2)]}"},
        )  # fmt: skip
        if response.status_code != 201:  # the game is over
            assert response.json()["code"] == "game_over"
            break
    exported = record(client, created["id"])
    body = {k: v for k, v in exported.items() if k not in ("state", "chain", "signature")}
    again = audit(client, **body)
    assert (again["state"], again["chain"]) == (exported["state"], exported["chain"])
    assert again["verdict"] == ("unfinished" if exported["signature"] is None else "finished")
    if n <= 26:
        text = record(client, created["id"], "transcript")
        from_text = audit(client, n=n, k=k, transcript=text)
        assert from_text["chain"] == exported["chain"]


# Games of each kind played in a session, over or not: their creation bodies and the squares
# played, the players taking turns.
SESSION_GAMES = {
    "tic-tac-toe, won on a line": ({"game": "tictactoe", "n": 3}, ["b2", "a1", "b1", "c3", "b3"]),
    "gomoku, won by five": (
        {"game": "gomoku", "rule": "freestyle"},
        ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"],
    ),
    "gomoku, going on": ({"game": "gomoku", "rule": "renju"}, ["h8", "h9", "j8", "a1"]),
    "othello, going on": ({"game": "reversi"}, ["f5", "d6", "c3", "d3", "c4"]),
}


@pytest.mark.parametrize("name", sorted(SESSION_GAMES))
def test_an_audits_state_is_the_sessions_state_without_its_id_version_and_clock(
    client: TestClient, name: str
) -> None:
    body, squares = SESSION_GAMES[name]
    created = create(client, **body)
    for ply, square in enumerate(squares):
        move(client, created, 1 + ply % 2, square=square)
    live = client.get(f"/v1/games/{created['id']}").json()
    audited = audit(client, **body, moves=squares)
    # The audit replays the moves without time: no instants, and nothing only a session has.
    shown = {key: value for key, value in live.items() if key not in ("id", "version", "clock")}
    assert audited["state"] == timeless(shown)
    assert audited["verdict"] == ("unfinished" if live["status"] == "in_progress" else "finished")
