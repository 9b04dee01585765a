"""Connect Four sessions and questions: the kind's whole face, over ``app/rules/connect4.py``.

A move names a column (``{"column": 3}`` or ``{"square": "d"}``); the rules drop the mover's
disc to the lowest empty cell of it. What a move plays is a ``Column`` as a body asks it and a
``Disc`` as the rules made it (its column, the row it landed in and that cell's name), which
is what its record, its store text and its legal-move item say. A position keeps its discs
as the rules' bitboards and its moves as two flat arrays (columns and rows), and is kept by a
store as its columns, one letter a move, replayed when read (at most 400 drops, each O(k)).

Every game of the kind takes the generic session (no fast path: a drop is a few shifts of an
int, and the generic engine's one round trip a move is what every kind pays). Records write a
move as its 0-based column and a transcript as the community does (``Connect4Notation``); the
stateless questions ``check-move`` and ``legal-moves`` are declared here (``QUESTIONS``) and
mounted by the edge under ``/v1/connect4``.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import TypedDict

from app.contract.boards import BoardField
from app.contract.fields import INTEGRAL, SQUARES, Body, JsonInt
from app.contract.games import (
    KIND_DOC,
    LAST_MOVE,
    TOKENS_DOC,
    CreateIn,
    Example,
    Face,
    GameCommon,
    MoveBody,
    MoveTimesOut,
    Question,
    Tokens,
)
from app.contract.problems import NOT_YOUR_TURN, refusal
from app.contract.squares import Squares
from app.records.errors import RecordError
from app.records.text import place
from app.rules import connect4
from app.rules.connect4 import BoardError, ColumnFull, NotationError, Position
from app.sessions.errors import GameOver, NotYourTurn
from app.sessions.kind import (
    NO_LEGAL_MOVES,
    Alternating,
    LegalMove,
    LegalMoves,
    Move,
    Played,
    Player,
    Reason,
    Status,
    Winner,
    immutable,
)

NAME = "connect4"
COLUMN_DOC = "The column, 0-based (0 is the leftmost)."
ROW_DOC = "The row the disc landed in, counted from the top as boards are listed (0 is the top)."
COL_DOC = "The cell's column: `column` again, as every kind's move names its cell (`row`, `col`)."
SQUARE_DOC = (
    "The cell's name: its column letter and its row counted from the bottom (`d1` is the bottom "
    "of the fourth column)."
)

# --- what a move plays --------------------------------------------------------------------------


@immutable
class Column:
    """A drop asked for: the column, before the rules say where the disc lands."""

    column: int

    def record(self) -> Mapping[str, object]:
        return {"column": self.column}

    def text(self) -> str:
        return str(self.column)


@immutable
class Disc:
    """A drop made: its column, the row it landed in (from the top) and that cell's name."""

    column: int
    row: int
    square: str

    def record(self) -> Mapping[str, object]:
        # ``col`` beside ``column``: a reader of every kind's records finds a move's cell by
        # its ``row`` and ``col``, as it does in every other kind's.
        return {"column": self.column, "row": self.row, "col": self.column, "square": self.square}

    def text(self) -> str:
        return f"{self.column}:{self.row}:{self.square}"

    @staticmethod
    def read(text: str) -> Disc:
        column, row, square = text.split(":")
        return Disc(int(column), int(row), square)


# --- the shapes clients see ---------------------------------------------------------------------


class Connect4Facts(TypedDict):
    """What a Connect Four game's state says of its kind."""

    width: int
    height: int
    k: Annotated[int, Field(description="Discs in a row that win.")]


class Connect4MoveOut(MoveTimesOut):
    """A drop: its column, the cell the disc landed in, and its player."""

    seq: Annotated[
        int, Field(description="1 for the first move; equals the game's version after it.")
    ]
    column: Annotated[int, Field(description=COLUMN_DOC)]
    row: Annotated[int, Field(description=ROW_DOC)]
    col: Annotated[int, Field(description=COL_DOC)]
    square: Annotated[str, Field(description=SQUARE_DOC)]
    player: Player


class Connect4LegalMoveOut(TypedDict):
    """A column the player to move may drop into, and where the disc would land."""

    column: Annotated[int, Field(description=COLUMN_DOC)]
    row: Annotated[int, Field(description=ROW_DOC)]
    col: Annotated[int, Field(description=COL_DOC)]
    square: Annotated[str, Field(description=SQUARE_DOC)]


class Connect4GameOut(GameCommon, Connect4Facts):
    """A Connect Four game: `width` × `height`, `k` in a row wins."""

    game: Annotated[Literal["connect4"], Field(description=KIND_DOC)]
    last_move: Annotated[Connect4MoveOut | None, LAST_MOVE]


class CreatedConnect4Out(Connect4GameOut):
    tokens: Annotated[Tokens, Field(description=TOKENS_DOC)]


class Connect4BoardOut(TypedDict):
    height: int
    width: int
    rows: Annotated[
        list[str],
        Field(description="Top to bottom: `X` (player 1), `O` (player 2), `.` empty."),
    ]


SideIn = Annotated[int, Field(strict=True, ge=connect4.MIN_SIDE, le=connect4.MAX_SIDE), INTEGRAL]
KIn = Annotated[int, Field(strict=True, ge=connect4.MIN_K, le=connect4.MAX_SIDE), INTEGRAL]


def _k_in_range(k: int, width: int, height: int) -> None:
    try:
        connect4.check_shape(width, height, k)
    except BoardError as error:
        raise PydanticCustomError(error.type, str(error)) from None


class CreateConnect4In(CreateIn):
    """A Connect Four game: 7 columns × 6 rows and 4 in a row unless told; player 1 (`X`) drops
    first."""

    kind: ClassVar[str] = NAME
    game: Literal["connect4"] = Field(description="The game's kind.")
    width: SideIn = Field(
        connect4.WIDTH, description=f"Columns, {connect4.MIN_SIDE} to {connect4.MAX_SIDE}."
    )
    height: SideIn = Field(
        connect4.HEIGHT, description=f"Rows, {connect4.MIN_SIDE} to {connect4.MAX_SIDE}."
    )
    k: KIn = Field(
        connect4.K,
        description=f"Discs in a row that win, {connect4.MIN_K} to max(width, height).",
    )

    @model_validator(mode="after")
    def _k_fits(self) -> CreateConnect4In:
        _k_in_range(self.k, self.width, self.height)
        return self

    def params(self) -> dict[str, object]:
        return {"width": self.width, "height": self.height, "k": self.k}


def _on_board(column: int, info: ValidationInfo) -> int:
    """``column`` if the game's board has it (the validation context's names say how wide the
    board is), else a 422 naming it."""
    board: Squares | None = (info.context or {}).get(SQUARES)
    width = connect4.MAX_SIDE if board is None else board.width
    if not 0 <= column < width:
        raise PydanticCustomError(
            "column_range",
            "column {column} is not on a board {width} columns wide: 0 to {last}",
            {"column": column, "width": width, "last": width - 1},
        )
    return column


def _letter(square: str, info: ValidationInfo) -> int:
    """The column a letter names on the game's board, else a 422 naming it."""
    board: Squares | None = (info.context or {}).get(SQUARES)
    width = connect4.MAX_SIDE if board is None else board.width
    try:
        return connect4.parse_column(square, width)
    except NotationError as error:
        raise PydanticCustomError(
            "column_letter", "{message}", {"message": error.message}
        ) from None


LETTER = Annotated[str, Field(min_length=1, max_length=1, pattern="^[A-Za-z]$")]


class ColumnIn(MoveBody):
    """A drop into a column, by its number (0-based)."""

    key: ClassVar[str] = "column"
    examples: ClassVar[Mapping[str, Example]] = {
        "middle": {"summary": "The middle column of 7", "value": {"column": 3}},
    }
    column: JsonInt = Field(
        description="0 … width−1, 0 the leftmost column; outside is 422 `validation_error`."
    )

    @field_validator("column")
    @classmethod
    def _on_the_board(cls, column: int, info: ValidationInfo) -> int:
        return _on_board(column, info)

    def played(self) -> Column:
        return Column(self.column)


class ColumnLetterIn(MoveBody):
    """A drop into a column, by its letter (`a` the leftmost, either case)."""

    key: ClassVar[str] = "square"
    examples: ClassVar[Mapping[str, Example]] = {
        "middle-by-letter": {
            "summary": "The middle column of 7 by its letter",
            "value": {"square": "d"},
        },
    }
    square: LETTER = Field(
        description="The column's letter: `a` the leftmost, either case; one the board does "
        "not have is 422 `validation_error`."
    )
    _column: int = PrivateAttr(0)

    @model_validator(mode="after")
    def _on_the_board(self, info: ValidationInfo) -> ColumnLetterIn:
        try:
            self._column = _letter(self.square, info)
        except PydanticCustomError as error:
            raise _located("square", error.message()) from None
        return self

    def played(self) -> Column:
        return Column(self._column)


def _located(field: str, message: str, *where: int) -> ValidationError:
    """A body's error at ``field`` (and ``where`` in it), from a validator of the whole body."""
    error = PydanticCustomError("value_error", "{message}", {"message": message})
    detail = InitErrorDetails(type=error, loc=(field, *where), input=None)
    return ValidationError.from_exception_data("Connect4", [detail])


COLUMN_FULL = refusal(
    ColumnFull(3, 6), 409, "Column full",
    "a Connect Four drop into a column that holds as many discs as the board has rows",
    "drop into another column (`legal-moves` on the game lists them)",
)  # fmt: skip


# --- a session's position -----------------------------------------------------------------------


class Connect4:
    """One game: the rules' position and the drops in order (two flat arrays)."""

    __slots__ = ("columns", "position", "rows_of")

    def __init__(self, position: Position) -> None:
        self.position = position
        self.columns: array[int] = array("b")
        self.rows_of: array[int] = array("b")

    @property
    def status(self) -> Status:
        return self.position.status

    @property
    def winner(self) -> Winner:
        return self.position.winner

    @property
    def reason(self) -> Reason | None:
        return self.position.reason

    @property
    def next_player(self) -> Player | None:
        return self.position.player

    @property
    def move_count(self) -> int:
        return len(self.columns)

    def _disc(self, column: int, row: int) -> Disc:
        return Disc(column, row, connect4.square(row, column, self.position.height))

    def play(self, played: Played, player: Player) -> Move:
        if not isinstance(played, Column | Disc):
            raise TypeError(f"a Connect Four move is a column, not {played!r}")
        position = self.position
        next_player = position.player
        if next_player is None:
            raise GameOver(self.status, self.winner, self.reason)
        if player != next_player:
            raise NotYourTurn(player, next_player)
        drop = position.drop(played.column)  # ColumnFull for a full column, changing nothing
        self.columns.append(drop.column)
        self.rows_of.append(drop.row)
        return Move(self.move_count, self._disc(drop.column, drop.row), drop.player)

    def move(self, seq: int) -> Move:
        disc = self._disc(self.columns[seq - 1], self.rows_of[seq - 1])
        return Move(seq, disc, 1 if seq % 2 else 2)

    def moves(self, since: int, limit: int) -> list[Move]:
        last = min(self.move_count, since + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

    def legal_moves(self, after: int, limit: int) -> LegalMoves:
        """The columns open to the player to move, as the cells their discs would land in, in
        row-major order of those cells (at most ``width`` of them)."""
        position = self.position
        width = position.width
        cells = sorted(
            (row * width + column, column, row)
            for column in position.legal_columns()
            if (row := position.landing_row(column)) is not None
        )
        if not cells:
            return NO_LEGAL_MOVES
        later = [cell for cell in cells if cell[0] > after]
        page = later[:limit]
        moves = tuple(LegalMove(self._disc(column, row)) for _, column, row in page)
        next_after = page[-1][0] if len(later) > limit else None
        return LegalMoves(len(cells), moves, next_after)

    def undo(self, taken: Sequence[Move], before: Move | None) -> None:
        for _ in taken:
            self.position.undo(self.columns.pop())
            self.rows_of.pop()

    def facts(self) -> Connect4Facts:
        position = self.position
        return {"width": position.width, "height": position.height, "k": position.k}

    def rows(self) -> list[str]:
        return self.position.rows()

    def encode(self) -> str:
        return "".join(connect4.LETTERS[column] for column in self.columns)


# --- records ------------------------------------------------------------------------------------


def _width(facts: Mapping[str, object]) -> int:
    width = facts["width"]
    assert isinstance(width, int), width
    return width


class Connect4Notation:
    """How records write a drop: its 0-based column in a list of moves, its column digit (1-9,
    boards up to 9 wide) or letter in a transcript, as the community writes games."""

    item: Any = JsonInt
    moves_doc = (
        "The drops in order, each its column, 0-based (0 is the leftmost). At most "
        "`max_record_moves` (default 10,000)."
    )
    transcript_doc = (
        "The columns one after another as the community writes games: digits 1 to 9 (`4453`, "
        "boards up to 9 columns wide) or letters, either case (`ddec`, any width); spaces and "
        "line breaks allowed between them."
    )

    def written(self, played: Played) -> object:
        assert isinstance(played, Disc | Column), played
        return played.column

    def read(self, given: object, facts: Mapping[str, object]) -> Played:
        width = _width(facts)
        if not isinstance(given, int) or isinstance(given, bool) or not 0 <= given < width:
            raise ValueError(f"a drop is a column from 0 to {width - 1}, not {given!r}")
        return Column(given)

    def read_transcript(
        self, text: str, facts: Mapping[str, object], max_moves: int
    ) -> list[object]:
        try:
            return list(connect4.read_transcript(text, _width(facts), max_moves))
        except NotationError as error:
            raise RecordError(error.message, **place(text, error.index)) from None

    def write_transcript(self, played: Sequence[Played], facts: Mapping[str, object]) -> str:
        columns = [self.written(move) for move in played]
        return connect4.write_transcript((int(c) for c in columns), _width(facts))  # type: ignore[call-overload]


# --- the stateless questions --------------------------------------------------------------------

EXAMPLE_BOARD = [".......", ".......", ".......", "...O...", "...XO..", "..XXO.."]

Connect4Board = Annotated[
    tuple[str, ...],
    BoardField(
        name="Connect4Board",
        cells={"X": "X", "O": "O", ".": "."},
        max_side=connect4.MAX_SIDE,
        square=False,
        build=tuple,
        example=EXAMPLE_BOARD,
    ),
]
BOARD_DOC = (
    f"Rows top to bottom of `X`, `O` and `.`, {connect4.MIN_SIDE} to {connect4.MAX_SIDE} a side. "
    "Refused (422) where a disc floats (an empty cell under it), where the counts are not "
    "X = O or X = O + 1, or where both players have k in a row."
)


class PositionIn(Body):
    """A posted Connect Four position: its rows, top to bottom, and k."""

    board: Connect4Board = Field(description=BOARD_DOC)
    k: KIn = Field(
        connect4.K, description=f"Discs in a row that win, {connect4.MIN_K} to max(width, height)."
    )
    _position: Position | None = None

    @model_validator(mode="after")
    def _a_position(self) -> PositionIn:
        try:
            self._position = Position.from_rows(self.board, self.k)
        except BoardError as error:
            if error.type == "k_range":
                raise _located("k", str(error)) from None
            where = () if error.row is None else (error.row,)
            raise _located("board", str(error), *where) from None
        return self

    @property
    def position(self) -> Position:
        assert self._position is not None, "made by _a_position"
        return self._position


class CheckColumnIn(PositionIn):
    """A drop asked about, by the player to move: `column` (0-based) or its letter as
    `square`."""

    column: JsonInt | None = Field(None, description=COLUMN_DOC + " Or `square`.")
    square: LETTER | None = Field(
        None, description="The column's letter (`a` the leftmost), either case; not with `column`."
    )

    @model_validator(mode="after")
    def _one_column(self) -> CheckColumnIn:
        width = len(self.board[0])
        if (self.column is None) == (self.square is None):
            raise PydanticCustomError("one_column", "give the column, or its letter as square")
        if self.square is not None:
            try:
                self.column = connect4.parse_column(self.square, width)
            except NotationError as error:
                raise _located("square", error.message) from None
        elif not 0 <= self.column < width:  # type: ignore[operator]
            raise _located(
                "column", f"column {self.column} is not on a board {width} columns wide: 0 to "
                f"{width - 1}",
            )  # fmt: skip
        return self


class CheckColumnOut(TypedDict):
    """Whether the player to move may drop there, where the disc lands and whether it wins."""

    legal: bool
    reason: Annotated[
        Literal["column_full", "game_over"] | None,
        Field(description="Why not: the column is full, or the game is over; null if legal."),
    ]
    row: Annotated[int | None, Field(description=ROW_DOC + " Null if refused.")]
    square: Annotated[str | None, Field(description=SQUARE_DOC + " Null if refused.")]
    wins: Annotated[bool, Field(description="Whether the drop completes k or more in a row.")]


class LegalColumnsOut(TypedDict):
    """The player to move and the columns it may drop into."""

    player: Annotated[
        Player | None, Field(description="Who drops next; null once the game is over.")
    ]
    columns: Annotated[list[int], Field(description="0-based, left to right.")]


def check_move_answer(body: CheckColumnIn) -> CheckColumnOut:
    assert body.column is not None
    found = body.position.check(body.column)
    return {
        "legal": found.legal,
        "reason": found.reason,
        "row": found.row,
        "square": found.square,
        "wins": found.wins,
    }


def legal_moves_answer(body: PositionIn) -> LegalColumnsOut:
    position = body.position
    return {"player": position.player, "columns": position.legal_columns()}


QUESTIONS = (
    Question(
        path="/check-move",
        name="check_move",
        body=CheckColumnIn,
        examples={
            "wins": {
                "summary": "X to move drops into column a: four in a row",
                "value": {
                    "board": [".......", ".......", ".......", "....O..", "....O..", ".XXXO.."],
                    "column": 0,
                },
            },
            "by-letter": {
                "summary": "The middle column by its letter",
                "value": {"board": EXAMPLE_BOARD, "square": "d"},
            },
        },
        answer=check_move_answer,
        response_model=CheckColumnOut,
        offline=("column", "square"),  # a body naming a column asks whether a drop there is legal
        summary="May the player to move drop into this column, and does it win?",
        description="For the player to move on a posted board (X when the counts are equal): "
        "`legal`, or the `reason` not (`column_full`, or `game_over` where a player has k in a "
        "row or the board is full), the `row` and `square` the disc lands on, and whether it "
        "`wins`. A column off the board, or a board that breaks gravity or the counts, is 422.",
    ),
    Question(
        path="/legal-moves",
        name="legal_moves",
        body=PositionIn,
        examples={
            "position": {"summary": "A position, X to move", "value": {"board": EXAMPLE_BOARD}}
        },
        answer=legal_moves_answer,
        response_model=LegalColumnsOut,
        offline=(),  # any other body asks who drops next and where
        summary="Who drops next, and into which columns?",
        description="The player to move on a posted board (null once someone has k in a row "
        "or the board is full) and the columns that are not full, 0-based, left to right.",
    ),
)


# --- the kind -----------------------------------------------------------------------------------


class Connect4Kind(Alternating):
    """The kind: makes positions, encodes them and their moves for stores, and its face."""

    name = NAME
    dimensions = ("height", "width")
    rules: tuple[str, ...] = ()
    fast_path = None  # the generic session plays every game: a drop is a few shifts of an int
    face = Face(
        title="Connect Four",
        create=CreateConnect4In,
        examples={
            "connect4": {"summary": "Connect Four, 7 × 6", "value": {"game": "connect4"}},
            "connect4-large": {
                "summary": "Connect Five on 9 columns × 7 rows",
                "value": {"game": "connect4", "width": 9, "height": 7, "k": 5},
            },
        },
        state=Connect4GameOut,
        created=CreatedConnect4Out,
        record=Connect4MoveOut,
        board=Connect4BoardOut,
        row_one="bottom",  # as the community names cells: d1 is the bottom of the fourth column
        moves=(ColumnIn, ColumnLetterIn),
        legal_move=Connect4LegalMoveOut,
        refusals=(NOT_YOUR_TURN, COLUMN_FULL),
        page={"marks": {"1": "X", "2": "O"}, "empty": ".", "names": {"1": "X", "2": "O"}},
        notation=Connect4Notation(),
        questions=QUESTIONS,
    )

    def new(self, params: Mapping[str, object]) -> Connect4:
        width, height, k = (params[name] for name in ("width", "height", "k"))
        assert isinstance(width, int), width
        assert isinstance(height, int), height
        assert isinstance(k, int), k
        return Connect4(Position(width, height, k))

    def decode(self, params: Mapping[str, object], text: str) -> Connect4:
        game = self.new(params)
        for seq, letter in enumerate(text, start=1):
            game.play(Column(connect4.LETTERS.index(letter)), 1 if seq % 2 else 2)
        return game

    def encode_move(self, move: Move) -> str:
        return move.played.text()

    def decode_move(self, seq: int, text: str) -> Move:
        return Move(seq, Disc.read(text), 1 if seq % 2 else 2)


KIND = Connect4Kind()
