"""A kind declared here, in the test, and nowhere in ``app/``: the service serves it end to end.

"Corners" is a tiny placement game with a pass: on a size × size board without its four corners
(a corner is refused with a refusal of the kind's own), players place stones in turn or pass;
the game ends when the board is full (more stones win) or after two passes in a row (a draw).
It is created, moved, refused, streamed, paged through its legal moves, listed in
``/openapi.json`` and played through the Python client (``adjudicator_client``, which was not
made for it) on the memory store, one Redis and a Redis Cluster, with no file of ``app/``
knowing it: the app is given ``kinds=(*KINDS, CORNERS)``.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Annotated, ClassVar, Literal, NotRequired

import pytest
import uvicorn
from fastapi import FastAPI
from pydantic import Field
from typing_extensions import TypedDict

from adjudicator_client import Client, EndEvent, MoveEvent, ProblemError
from app.contract.games import (
    LAST_MOVE,
    TOKENS_DOC,
    CreateIn,
    Face,
    GameCommon,
    MoveIn,
    PassIn,
    Tokens,
)
from app.contract.problems import CELL_REFUSALS, refusal
from app.kinds import KINDS
from app.main import create_app
from app.rules.errors import RuleError
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds
from app.sessions.kind import (
    NO_LEGAL_MOVES,
    LegalMove,
    LegalMoves,
    Move,
    Pass,
    Placement,
    Played,
    Player,
    Reason,
    Status,
    Winner,
    cell_page,
    other,
)
from tests.conftest import shared_settings
from tests.timeless import timeless

# --- the kind ---------------------------------------------------------------------------------


class CornerRefused(RuleError):
    code = "corner_refused"

    def __init__(self, row: int, col: int) -> None:
        super().__init__(f"({row}, {col}) is a corner: no stone goes there")


CORNER_REFUSED = refusal(
    CornerRefused(0, 0), 409, "Corner refused", "a Corners game's move on a corner",
    "play a cell that is not a corner",
)  # fmt: skip


class CornersFacts(TypedDict):
    size: int


CornersMoveOut = TypedDict(
    "CornersMoveOut",
    {
        "seq": int,
        "row": NotRequired[int],
        "col": NotRequired[int],
        "square": NotRequired[str],
        "pass": NotRequired[bool],
        "player": Player,
    },
)


class CornersGameOut(GameCommon, CornersFacts):
    game: Literal["corners"]
    last_move: Annotated[CornersMoveOut | None, LAST_MOVE]


class CreatedCornersOut(CornersGameOut):
    tokens: Annotated[Tokens, Field(description=TOKENS_DOC)]


class CornersBoardOut(TypedDict):
    size: int
    rows: list[str]


class CreateCornersIn(CreateIn):
    """A game of Corners."""

    kind: ClassVar[str] = "corners"
    game: Literal["corners"]
    size: int = Field(3, ge=3, le=5)

    def params(self) -> dict[str, object]:
        return {"size": self.size}


def player_of(seq: int) -> Player:
    return 1 if seq % 2 else 2


def played_from(text: str) -> Played:
    if text == "pass":
        return Pass()
    row, col = text.split(":")
    return Placement(int(row), int(col))


class Corners:
    def __init__(self, size: int) -> None:
        self.size = size
        self.stones: dict[tuple[int, int], Player] = {}
        self.played: list[str] = []

    @property
    def move_count(self) -> int:
        return len(self.played)

    @property
    def passes(self) -> int:
        return 2 if self.played[-2:] == ["pass", "pass"] else 0

    @property
    def full(self) -> bool:
        return len(self.stones) == self.size * self.size - 4

    @property
    def status(self) -> Status:
        if self.passes == 2 or (self.full and self.winner == 0):
            return "draw"
        return "won" if self.full else "in_progress"

    @property
    def winner(self) -> Winner:
        if not self.full:
            return 0
        first = sum(1 for p in self.stones.values() if p == 1)
        second = len(self.stones) - first
        return 1 if first > second else 2 if second > first else 0

    @property
    def reason(self) -> Reason | None:
        if self.passes == 2:
            return "no_moves"
        return "board_full" if self.full else None

    @property
    def next_player(self) -> Player | None:
        return None if self.status != "in_progress" else player_of(self.move_count + 1)

    def play(self, played: Played, player: Player) -> Move:
        if self.status != "in_progress":
            raise GameOver(self.status, self.winner, self.reason)
        if player != self.next_player:
            raise NotYourTurn(player, other(player))
        if isinstance(played, Placement):
            row, col, last = played.row, played.col, self.size - 1
            if not (0 <= row <= last and 0 <= col <= last):
                raise OutOfBounds(row, col, self.size)
            if row in (0, last) and col in (0, last):
                raise CornerRefused(row, col)
            if (row, col) in self.stones:
                raise CellOccupied(row, col)
            self.stones[row, col] = player
        self.played.append(played.text())
        return self.move(self.move_count)

    def move(self, seq: int) -> Move:
        return Move(seq, played_from(self.played[seq - 1]), player_of(seq))

    def legal_moves(self, after: int, limit: int) -> LegalMoves:
        """Every empty cell but the corners (a pass is always legal, and no cell: not listed)."""
        if self.status != "in_progress":
            return NO_LEGAL_MOVES
        size, last = self.size, self.size - 1
        free = [
            r * size + c
            for r in range(size)
            for c in range(size)
            if (r, c) not in self.stones and not (r in (0, last) and c in (0, last))
        ]
        page, next_after = cell_page((i for i in free if i > after), size, limit)
        return LegalMoves(len(free), tuple(LegalMove(cell) for cell in page), next_after)

    def moves(self, since: int, limit: int) -> list[Move]:
        last = min(self.move_count, since + limit)
        return [self.move(seq) for seq in range(since + 1, last + 1)]

    def facts(self) -> CornersFacts:
        return {"size": self.size}

    def rows(self) -> list[str]:
        marks = {1: "A", 2: "B"}
        return [
            "".join(marks.get(self.stones.get((r, c), 0), ".") for c in range(self.size))  # type: ignore[call-overload]
            for r in range(self.size)
        ]

    def encode(self) -> str:
        return json.dumps(self.played)


class CornersKind:
    name = "corners"
    dimensions = ("size",)
    rules: tuple[str, ...] = ()
    fast_path = None
    face = Face(
        title="Corners",
        create=CreateCornersIn,
        examples={"corners": {"summary": "Corners, 3 × 3", "value": {"game": "corners"}}},
        state=CornersGameOut,
        created=CreatedCornersOut,
        record=CornersMoveOut,
        board=CornersBoardOut,
        row_one="top",  # its own direction: a1 is the top-left corner
        moves=(MoveIn, PassIn),
        refusals=(*CELL_REFUSALS, CORNER_REFUSED),
        page={"marks": {"1": "A", "2": "B"}, "empty": ".", "names": {"1": "A", "2": "B"}},
    )

    def new(self, params: Mapping[str, object]) -> Corners:
        size = params["size"]
        assert isinstance(size, int)
        return Corners(size)

    def decode(self, params: Mapping[str, object], text: str) -> Corners:
        position = self.new(params)
        for seq, played in enumerate(json.loads(text or "[]"), start=1):
            position.play(played_from(played), player_of(seq))
        return position

    def encode_move(self, move: Move) -> str:
        return move.played.text()

    def decode_move(self, seq: int, text: str) -> Move:
        return Move(seq, played_from(text), player_of(seq))

    def after(
        self, move: Move, facts_now: Mapping[str, object]
    ) -> tuple[Player, Mapping[str, object]]:
        return other(move.player), facts_now

    def ended(
        self, facts: Mapping[str, object], status: str, winner: int, reason: str | None
    ) -> Mapping[str, object]:
        return facts


CORNERS = CornersKind()

# --- served -----------------------------------------------------------------------------------


@contextmanager
def served(app: FastAPI) -> Iterator[str]:
    """The app on a free loopback port, in this process (uvicorn in a thread); its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the server did not start")
            thread.join(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def api(module_store_url: str) -> Iterator[Client]:
    """One server per store for the module: each test reads only the games it creates (a
    server per test, started and stopped, took most of the module's time)."""
    settings = shared_settings(store_url=module_store_url)
    with served(create_app(settings, kinds=(*KINDS, CORNERS))) as url, Client(url) as client:
        yield client


def test_a_kind_declared_outside_the_app_is_listed_in_its_openapi(api: Client) -> None:
    spec = api.http.get("/openapi.json").json()
    assert "(Tic-tac-toe, Reversi, Gomoku, Connect Four, Corners)" in spec["info"]["description"]
    schemas = spec["components"]["schemas"]
    assert {"CornersGameOut", "CreateCornersIn", "CornersMoveOut", "PassIn"} <= set(schemas)
    legal = spec["paths"]["/v1/games/{game_id}/legal-moves"]["get"]["responses"]["200"]
    pages = legal["content"]["application/json"]["schema"]["discriminator"]["mapping"]
    assert pages["corners"] == "#/components/schemas/CornersLegalMovesOut"
    create = schemas["CreateGameIn"]
    assert {"$ref": "#/components/schemas/CreateCornersIn"} in create["oneOf"]
    move = spec["paths"]["/v1/games/{game_id}/moves"]["post"]
    assert "corner_refused" in move["responses"]["409"]["description"]
    examples = move["requestBody"]["content"]["application/json"]["examples"]
    assert examples["pass"]["value"] == {"pass": True}
    assert api.get_problem_type("corner_refused")["status"] == 409


def test_a_kind_declared_outside_the_app_is_played_refused_and_streamed(api: Client) -> None:
    game = api.create_game(game="corners", size=3)
    game_id, first, second = game["id"], game["tokens"]["1"], game["tokens"]["2"]
    assert (game["game"], game["size"], game["next_player"]) == ("corners", 3, 1)  # type: ignore[typeddict-item]

    with pytest.raises(ProblemError) as corner:
        api.make_move(game_id, first, 0, 0)
    assert (corner.value.status, corner.value.code) == (409, "corner_refused")
    moved = api.make_move(game_id, first, square="B2")  # named as its face says: from the top
    assert timeless(moved["move"]) == {"seq": 1, "row": 1, "col": 1, "square": "b2", "player": 1}
    # Its legal moves: in its own shape (cells; its passes are not listed), a page at a time.
    legal = api.http.get(f"/v1/games/{game_id}/legal-moves", params={"limit": 3}).json()
    assert (legal["game"], legal["player"], legal["count"], legal["next_after"]) == (
        "corners", 2, 4, 5)  # fmt: skip
    assert legal["moves"] == [
        {"row": 0, "col": 1, "square": "b1"},
        {"row": 1, "col": 0, "square": "a2"},
        {"row": 1, "col": 2, "square": "c2"},
    ]
    with pytest.raises(ProblemError) as outside:  # a square this board does not have
        api.make_move(game_id, second, square="d1")
    assert (outside.value.status, outside.value.code) == (422, "validation_error")
    assert outside.value.body["errors"][0]["loc"] == ["body", "square"]
    passed = api.make_move(game_id, second, move={"pass": True})
    assert timeless(passed["move"]) == {"seq": 2, "pass": True, "player": 2}  # type: ignore[comparison-overlap]
    with pytest.raises(ProblemError) as occupied:
        api.make_move(game_id, first, 1, 1)
    assert occupied.value.code == "cell_occupied"
    assert api.get_game(game_id)["version"] == 2  # refusals changed nothing

    # Another kind takes no pass: its own move body refuses the shape.
    other = api.create_game(n=3)
    with pytest.raises(ProblemError) as shape:
        api.make_move(other["id"], other["tokens"]["1"], move={"pass": True})
    assert (shape.value.status, shape.value.code) == (422, "validation_error")
    assert api.get_game(other["id"])["version"] == 0

    replay = api.make_move(game_id, first, 0, 1, idempotency_key="k")
    again = api.make_move(game_id, first, 0, 1, idempotency_key="k")
    assert again == replay
    api.make_move(game_id, second, move={"pass": True})
    ended = api.make_move(game_id, first, move={"pass": True})
    assert (ended["state"]["status"], ended["state"]["reason"]) == ("draw", "no_moves")
    assert api.get_board(game_id) == {"size": 3, "rows": [".A.", ".A.", "..."]}  # type: ignore[comparison-overlap]
    assert [m["seq"] for m in api.list_moves(game_id)["moves"]] == [1, 2, 3, 4, 5]

    events = list(api.game_events(game_id))
    moves = [e for e in events if isinstance(e, MoveEvent)]
    assert [e.move for e in moves] == api.list_moves(game_id)["moves"]
    assert moves[2].state["next_player"] == 2  # the answer that move got, rebuilt
    assert isinstance(events[-1], EndEvent)
    assert events[-1].state["status"] == "draw"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('{"pass": "yes"}', "validation_error"),
        ('{"pass": "true"}', "validation_error"),
        ('{"pass": 1}', "validation_error"),
        ('{"pass": false}', "validation_error"),
        ('{"pass": "\\u0000"}', "validation_error"),
        ('{"pass": true, "row": 1}', "validation_error"),
        ('{"row": "\\u0661", "col": 0}', "validation_error"),
        ('{"row": 1, "col": 1, "pass": null}', "validation_error"),
        ("[true]", "validation_error"),
        ('{"row": 100000000000000000000000000000, "col": 0}', "out_of_bounds"),
    ],
)
def test_garbage_moves_of_a_kind_with_passes_are_refused_422(
    api: Client, body: str, code: str
) -> None:
    game = api.create_game(game="corners")
    answer = api.http.post(
        f"/v1/games/{game['id']}/moves",
        content=body.encode(),
        headers={
            "Authorization": f"Bearer {game['tokens']['1']}",
            "Content-Type": "application/json",
        },
    )
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == code
    assert api.get_game(game["id"])["version"] == 0


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ('{"row": "x", "col": 0}', ["body", "row"]),
        ('{"row": 0}', ["body", "col"]),
        ('{"pass": false}', ["body", "pass"]),
        ('{"pass": true, "row": 1}', ["body", "pass"]),  # read as a cell: pass is extra
        ("[true]", ["body"]),
    ],
)
def test_an_error_of_a_move_of_either_shape_names_its_member(
    api: Client, body: str, loc: list[str]
) -> None:
    """A kind that takes moves of two shapes (a cell, a pass) names the member at fault as a
    kind of one shape does, not under the name of the shape it was read as."""
    game = api.create_game(game="corners")
    answer = api.http.post(
        f"/v1/games/{game['id']}/moves",
        content=body.encode(),
        headers={
            "Authorization": f"Bearer {game['tokens']['1']}",
            "Content-Type": "application/json",
        },
    )
    assert answer.status_code == 422, answer.text
    assert loc in [error["loc"] for error in answer.json()["errors"]], answer.text
