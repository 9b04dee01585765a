"""The Reversi kind: its positions, its creation body, its face, and how a store keeps its
games (the package's docs say how)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Annotated, ClassVar, Literal, NotRequired, cast

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from app.contract.boards import ReversiBoard
from app.contract.fields import INTEGRAL
from app.contract.games import (
    KIND_DOC,
    LAST_MOVE,
    TOKENS_DOC,
    CellOut,
    CreateIn,
    Face,
    GameCommon,
    MoveOut,
    Tokens,
)
from app.contract.problems import CELL_REFUSALS, ILLEGAL_SESSION_MOVE, Refusal
from app.contract.squares import SquareError, Squares, check_syntax
from app.kinds.reversi.moves import ROW_ONE, WrittenMoves
from app.kinds.reversi.questions import QUESTIONS
from app.kinds.reversi.replay import CellsReplayed
from app.records.errors import RecordError
from app.records.transcript import read_transcript
from app.rules import reversi
from app.rules.colors import Color
from app.rules.errors import CellError, RuleError
from app.rules.reversi import BLACK, WHITE, Board, standard_start
from app.sessions.errors import CellOccupied, GameOver, NotYourTurn, OutOfBounds, PassRefused
from app.sessions.kind import (
    ABORTED,
    NO_LEGAL_MOVES,
    LegalMove,
    LegalMoves,
    Move,
    Placement,
    Played,
    Player,
    Reason,
    Status,
    Winner,
    cell_page,
    other,
)

PLAYERS: dict[str, Player] = {BLACK: 1, WHITE: 2}
COLORS: dict[int, Color] = {1: BLACK, 2: WHITE}
PlayerScores = TypedDict("PlayerScores", {"1": int, "2": int})


class ReversiFacts(TypedDict):
    """What a Reversi game's state says of its kind."""

    height: int
    width: int
    score: PlayerScores


class ReversiMoveFacts(TypedDict):
    """What a Reversi move record adds to the move."""

    flips: list[list[int]]
    passed: bool


FLIP_SQUARES_DOC = (
    "The square names of `flips`, in the same order (`flips` are pairs, which cannot carry a "
    "name): present where the board has names (at most 26 columns), absent otherwise."
)


class ReversiMoveOut(MoveOut, ReversiMoveFacts):
    """A Reversi move record: the stones it flipped (sorted by (row, col)) and whether the
    opponent had to pass (`passed`: the mover moves again)."""

    flip_squares: NotRequired[Annotated[list[str], Field(description=FLIP_SQUARES_DOC)]]


class ReversiLegalMoveOut(CellOut):
    """A legal Reversi move: its cell, and the stones it would flip."""

    flips: Annotated[
        list[list[int]],
        Field(
            description="The opponent stones the move would flip, sorted by (row, col): "
            "exactly the `flips` of its record if it is played."
        ),
    ]
    flip_squares: NotRequired[Annotated[list[str], Field(description=FLIP_SQUARES_DOC)]]


FINAL_SCORE_DOC = (
    "The game's result as the World Othello Federation scores it: null while it goes on; at "
    "the end by no moves, each player's stones with the empty squares added to the winner "
    "(split equally on a draw); all the squares to the winner of a flag fall or a resignation "
    "(64–0 on 8 × 8); the squares split equally for an agreed draw or the move limit; null "
    "for an aborted game, which has no result."
)


class ReversiGameOut(GameCommon, ReversiFacts):
    """A Reversi game: `score` counts each player's stones (1 Black, 2 White), and
    `final_score` is the result as Othello tournaments count it once the game is over."""

    game: Annotated[Literal["reversi"], Field(description=KIND_DOC)]
    final_score: Annotated[PlayerScores | None, Field(description=FINAL_SCORE_DOC)]
    last_move: Annotated[ReversiMoveOut | None, LAST_MOVE]


class CreatedReversiOut(ReversiGameOut):
    tokens: Annotated[Tokens, Field(description=TOKENS_DOC)]


class ReversiBoardOut(TypedDict):
    height: int
    width: int
    rows: Annotated[list[str], Field(description="`B` (player 1), `W` (player 2), `.` empty.")]


class NoBracket(CellError):
    """A Reversi stone that brackets no opponent stone, in a session (409; the stateless
    ``apply-move`` answers the same rule with 422, ``rules.reversi.IllegalMove``)."""

    code = "illegal_move"

    def saying(self, cell: str) -> str:
        return f"{cell} brackets no opponent stone"

    def details(self) -> dict[str, object]:
        return {"reason": "no_bracket"}


NO_BRACKET = Refusal(NoBracket, ILLEGAL_SESSION_MOVE)
# A written pass in an audited record, where the player to move has a move: the same problem.
PASS_REFUSED = Refusal(PassRefused, ILLEGAL_SESSION_MOVE)


EvenSide = Annotated[int, Field(strict=True, ge=4, le=32, multiple_of=2), INTEGRAL]


class CreateReversiIn(CreateIn):
    """Reversi / Othello: 8 × 8 from the standard start, any even sides from 4 to 32, or a
    posted position (with the colour to move). Black (player 1) moves first by default."""

    kind: ClassVar[str] = "reversi"
    game: Literal["reversi"] = Field(description="The game's kind.")
    height: EvenSide | None = Field(None, description="Rows: even, 4 to 32; 8 if not given.")
    width: EvenSide | None = Field(None, description="Columns: even, 4 to 32; 8 if not given.")
    board: ReversiBoard | None = Field(
        None, description="A start position instead of the standard one (not with a size)."
    )
    next: Color | None = Field(
        None,
        description="Who moves first on a posted board (`B` if not given); if that colour "
        "cannot move, the other starts.",
    )
    opening: WrittenMoves | None = Field(
        None,
        description="Moves played from the standard start before the game is handed to the "
        'players, as a transcript (`"f5d6c3d3c4"`) or a list of squares: an XOT or opening-'
        "book start. Passes are inferred. They are the game's first move records, untimed; "
        "the player to move after them moves next. An illegal one is 422 naming it. Not with "
        "a posted board.",
    )

    @model_validator(mode="after")
    def _a_playable_start(self) -> CreateReversiIn:
        if self.opening is not None:
            if self.board is not None:
                raise PydanticCustomError(
                    "opening_and_board", "an opening is played from the standard start: no board"
                )
            opening_of(self.height or 8, self.width or 8, self.opening)  # refuses an illegal one
        if self.board is None:
            if self.next is not None:
                raise PydanticCustomError("next_without_board", "next is only for a posted board")
            return self
        if self.height is not None or self.width is not None:
            raise PydanticCustomError(
                "board_and_size", "give a board or its height and width, not both"
            )
        if first_to_move(self.board, self.next or "B") is None:
            raise PydanticCustomError("no_moves", "neither colour can move in the posted position")
        return self

    def params(self) -> dict[str, object]:
        """The kind's parameters, as the store takes them."""
        if self.board is not None:
            return {"board": self.board.to_rows(), "next": self.next or "B"}
        return {"height": self.height or 8, "width": self.width or 8}

    def opening_moves(self) -> list[Played]:
        """The opening's moves, played on the new game before anything else."""
        if not self.opening:
            return []
        height, width = self.height or 8, self.width or 8
        names = Squares(height, width, from_bottom=False)
        return [Placement(*names.parse(s)) for s in opening_of(height, width, self.opening)]


def opening_of(height: int, width: int, written: str | Sequence[str]) -> list[str]:
    """The squares of an opening (a transcript or a list of squares) played from the standard
    start of a board of this size, in lower case; a PydanticCustomError naming the move that
    is not a square of the board or not legal there."""
    try:
        squares = (
            read_transcript(written, height * width)
            if isinstance(written, str)
            else [check_syntax(square) for square in written]
        )
    except (RecordError, SquareError) as error:
        raise PydanticCustomError("opening", "opening: {error}", {"error": str(error)}) from None
    names = Squares.of(height, width, "top")
    if names is None:
        raise PydanticCustomError("opening", "a board wider than 26 columns has no square names")
    position = KIND.new({"height": height, "width": width})
    for index, square in enumerate(squares, 1):
        try:
            cell = Placement(*names.parse(square))
            player = position.next_player
            if player is None:
                raise GameOver(position.status, position.winner, position.reason)
            position.play(cell, player)
        except (SquareError, RuleError) as error:
            raise PydanticCustomError(
                "illegal_opening",
                "move {index} of the opening, {square}, is refused: {error}",
                {"index": index, "square": square, "error": str(error)},
            ) from None
    return squares


def first_to_move(board: Board, wanted: Color) -> Color | None:
    """``wanted`` if it has a legal move, else the other colour if it has one, else None."""
    for color in (wanted, reversi.opponent(wanted)):
        if reversi.has_legal_move(board, color):
            return color
    return None


def score_of(board: Board) -> PlayerScores:
    black, white = board.counts()
    return {"1": black, "2": white}


def final_score(
    score: PlayerScores, squares: int, winner: int, reason: str | None
) -> PlayerScores | None:
    """The result of a game that ended for ``reason`` (None: it goes on), as the federation
    counts it: a game played out (``no_moves``) by ``federation_score``; a flag fall or a
    resignation gives the winner every square; an agreed draw or the move limit splits them;
    an aborted game has none."""
    if reason is None or reason in ABORTED:
        return None
    if reason == "no_moves":
        return federation_score(score, squares)
    if reason in ("timeout", "resignation"):
        return {"1": squares, "2": 0} if winner == 1 else {"1": 0, "2": squares}
    return {"1": squares // 2, "2": squares // 2}


def federation_score(score: PlayerScores, squares: int) -> PlayerScores:
    """A played-out game's score (``score``: its stones, ``"1"`` Black's and ``"2"``
    White's) as the federation counts it: ``rules.reversi.federation_score``."""
    black, white = reversi.federation_score(score["1"], score["2"], squares)
    return {"1": black, "2": white}


class Reversi:
    """One Reversi game: the board now, who moves, and the moves in order — all of them, or
    (a position a store rebuilt from ``encode``'s text) those from move ``first`` on: a store
    keeps the moves in its move list, and the position's text holds only the last one, so a
    move costs the same at move 60 as at move 2."""

    __slots__ = ("board", "first", "next_color", "records", "unwritten")

    def __init__(self, board: Board, next_color: Color | None, first: int = 1) -> None:
        self.board = board
        self.next_color = next_color
        self.first = first  # the number of records[0]
        self.records: list[str] = []  # each move's record, as ReversiKind.encode_move writes it
        self.unwritten: list[Move] = []  # moves played after those of records, until a read

    @property
    def move_count(self) -> int:
        return self.first - 1 + len(self.records) + len(self.unwritten)

    def written(self) -> list[str]:
        """``records``, with the moves played since the last read written into it first."""
        if self.unwritten:
            self.records += [KIND.encode_move(move) for move in self.unwritten]
            self.unwritten = []
        return self.records

    @property
    def next_player(self) -> Player | None:
        return None if self.next_color is None else PLAYERS[self.next_color]

    @property
    def status(self) -> Status:
        if self.next_color is not None:
            return "in_progress"
        black, white = self.board.counts()
        return "draw" if black == white else "won"

    @property
    def winner(self) -> Winner:
        if self.next_color is not None:
            return 0
        black, white = self.board.counts()
        return 1 if black > white else 2 if white > black else 0

    @property
    def reason(self) -> Reason | None:
        return None if self.next_color is not None else "no_moves"

    def move(self, seq: int) -> Move:
        if seq < self.first:
            raise LookupError(f"move {seq} is in the store's move list, not in this position")
        if self.unwritten and seq == self.move_count:  # the last move, as it was played
            last = self.unwritten[-1]
            self.written()
            return last
        return KIND.decode_move(seq, self.written()[seq - self.first])

    def moves(self, since: int, limit: int) -> list[Move]:
        last = min(self.move_count, max(since, 0) + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

    def cell_replay(self) -> CellsReplayed:
        """A record's cells replayed from this new game many at a time, their records made
        when read (an audit's ``CellReplay``: ``app.kinds.reversi.replay``)."""
        assert not self.move_count, "a replay starts from a new game"
        return CellsReplayed(self.board, self.next_color, NoBracket, _replayed)

    def legal_moves(self, after: int, limit: int) -> LegalMoves:
        """The cells that bracket for the colour to move (the rules' legal-move mask), each with
        the stones it would flip, walked for this page's cells only. A live game's player to
        move always has one: a colour that has none passes when the move before is played."""
        color = self.next_color
        if color is None:
            return NO_LEGAL_MOVES
        board = self.board
        mask = reversi.legal_moves_mask(board, color)
        cells = [row * board.cols + col for row, col in board.cells(mask)]
        page, next_after = cell_page((i for i in cells if i > after), board.cols, limit)
        moves = []
        for cell in page:
            flips = reversi.move_flips(board, cell.row, cell.col, color)
            assert flips, "every cell of the legal-move mask flips something"
            moves.append(LegalMove(cell, {"flips": board.cell_lists(flips)}))
        return LegalMoves(len(cells), tuple(moves), next_after)

    def play(self, played: Played, player: Player) -> Move:
        cell = Placement.of(played)
        row, col = cell.row, cell.col
        board = self.board
        if not (0 <= row < board.rows and 0 <= col < board.cols):
            raise OutOfBounds(row, col, board.rows, board.cols)
        color = self.next_color
        if color is None:
            raise GameOver(self.status, self.winner, self.reason)
        if player != PLAYERS[color]:
            raise NotYourTurn(player, PLAYERS[color])
        # The flips are found once, on the bitboards the last move left: they decide legality,
        # then they are played.
        flips = reversi.move_flips(board, row, col, color)
        if flips is None:
            raise CellOccupied(row, col)
        if not flips:
            raise NoBracket(row, col)
        after, self.next_color, passed = reversi.after_move(board, row, col, color, flips)
        self.board = after
        black, white = after.counts()
        facts: ReversiMoveFacts = {
            "flips": board.cell_lists(flips),  # in (row, col) order
            "passed": passed,
        }
        seq = self.first + len(self.records) + len(self.unwritten)
        move = Move(seq, cell, player, facts, {"score": {"1": black, "2": white}})
        self.unwritten.append(move)
        return move

    def undo(self, taken: Sequence[Move], before: Move | None) -> None:
        board = self.board
        for move in reversed(taken):
            cell, flips = Placement.of(move.played), (move.facts or {}).get("flips", [])
            assert isinstance(flips, list)
            board = reversi.undo_move(board, cell.row, cell.col, COLORS[move.player], flips)
        self.board, self.next_color = board, COLORS[taken[0].player]
        count = self.move_count - len(taken)
        records = self.written()
        if count >= self.first:
            del records[count - self.first + 1 :]
        else:  # no move left, or a position a store rebuilt: the one before is its last
            self.first = max(count, 1)
            self.records = [KIND.encode_move(before)] if before is not None else []

    def facts(self) -> ReversiFacts:
        board = self.board
        return {"height": board.rows, "width": board.cols, "score": score_of(board)}

    def rows(self) -> list[str]:
        return self.board.to_rows()

    def encode(self) -> str:
        """The board now, who moves, the number of moves and the last one's record: the same
        size at every move (the store keeps the others in its move list)."""
        kept: dict[str, object] = {"rows": self.board.to_rows(), "next": self.next_color}
        if self.move_count:
            kept |= {"count": self.move_count, "last": self.written()[-1]}
        return json.dumps(kept, separators=(",", ":"))


def _replayed(board: Board, next_color: Color | None, count: int, last: Move | None) -> Reversi:
    """The position a replay of ``count`` moves leaves (``CellsReplayed``): as a position a store
    rebuilt, it holds the last move's record only."""
    if last is None:
        return Reversi(board, next_color)
    position = Reversi(board, next_color, count)
    position.unwritten = [last]
    return position


class ReversiKind:
    """The kind: makes positions, and encodes them and their moves for stores."""

    name = "reversi"
    dimensions = ("height", "width")
    rules: tuple[str, ...] = ()
    fast_path = None  # a move flips stones in eight directions: the generic session plays it
    face = Face(
        title="Reversi",
        create=CreateReversiIn,
        examples={
            "reversi": {"summary": "Reversi, 8 × 8", "value": {"game": "reversi"}},
            "reversi-6x10": {
                "summary": "Reversi, 6 × 10",
                "value": {"game": "reversi", "height": 6, "width": 10},
            },
            "reversi-opening": {
                "summary": "Othello from an opening (the first five moves of a tiger)",
                "value": {"game": "reversi", "opening": "f5d6c3d3c4"},
            },
            "reversi-posted": {
                "summary": "Reversi from a posted position, White to move",
                "value": {
                    "game": "reversi",
                    "board": [
                        "........",
                        "........",
                        "...B....",
                        "...BB...",
                        "...BW...",
                        "........",
                        "........",
                        "........",
                    ],
                    "next": "W",
                },
            },
        },
        state=ReversiGameOut,
        created=CreatedReversiOut,
        record=ReversiMoveOut,
        board=ReversiBoardOut,
        known_as="Reversi/Othello",
        row_one=ROW_ONE,  # Othello's a1 is the top-left corner (WTHOR, GGF, transcripts)
        legal_move=ReversiLegalMoveOut,
        refusals=(*CELL_REFUSALS, NO_BRACKET, PASS_REFUSED),
        page={"marks": {"1": "B", "2": "W"}, "empty": ".", "names": {"1": "Black", "2": "White"}},
        cell_lists={"flips": "flip_squares"},
        inferred_pass="passed",
        formats=("ggf",),
        questions=QUESTIONS,
    )

    def new(self, params: Mapping[str, object]) -> Reversi:
        wanted = params.get("next", BLACK)
        assert wanted in (BLACK, WHITE), wanted
        board, start = _started(_start_rows(params), wanted)
        if start is None:
            raise ValueError("neither colour can move in the start position")
        return Reversi(board, start)

    def decode(self, params: Mapping[str, object], text: str) -> Reversi:
        if not text:
            return self.new(params)
        kept = json.loads(text)
        rows: list[str] = kept["rows"]
        if "moves" in kept:  # written before positions kept only the last move: every move
            position = Reversi(Board.from_rows(rows), kept["next"])
            position.records = [str(record) for record in kept["moves"]]
        elif "last" in kept:
            position = Reversi(Board.from_rows(rows), kept["next"], int(kept["count"]))
            position.records = [str(kept["last"])]
        else:
            position = Reversi(Board.from_rows(rows), kept["next"])
        return position

    def encode_move(self, move: Move) -> str:
        """``row:col:player:passed:flips:black:white`` (the score right after the move), e.g.
        ``2:3:1:0:3.3:4:1``. The player is written: after a pass it does not alternate."""
        facts = move.facts or {}
        flips = facts.get("flips", [])
        assert isinstance(flips, list)
        cells = ",".join(f"{r}.{c}" for r, c in flips)
        score = (move.state_facts or {}).get("score")
        assert isinstance(score, dict)
        passed = 1 if facts.get("passed") else 0
        return f"{move.played.text()}:{move.player}:{passed}:{cells}:{score['1']}:{score['2']}"

    def decode_move(self, seq: int, text: str) -> Move:
        row, col, player, passed, cells, black, white = text.split(":")
        facts: ReversiMoveFacts = {
            "flips": [[int(r), int(c)] for r, c in (f.split(".") for f in cells.split(",") if f)],
            "passed": passed == "1",
        }
        score: PlayerScores = {"1": int(black), "2": int(white)}
        mover: Player = 1 if player == "1" else 2
        return Move(seq, Placement(int(row), int(col)), mover, facts, {"score": score})

    def takes_back(self, move: Move) -> bool:
        return True

    def clocks_wait(self, params: Mapping[str, object]) -> bool:
        return True

    def after(
        self, move: Move, facts_now: Mapping[str, object]
    ) -> tuple[Player, Mapping[str, object]]:
        facts = move.facts or {}
        next_player = move.player if facts.get("passed") else other(move.player)
        return next_player, {**facts_now, "score": (move.state_facts or {})["score"]}

    def ended(
        self, facts: Mapping[str, object], status: Status, winner: Winner, reason: Reason | None
    ) -> Mapping[str, object]:
        score = cast(PlayerScores, facts["score"])
        squares = cast(int, facts["height"]) * cast(int, facts["width"])
        return {**facts, "final_score": final_score(score, squares, winner, reason)}


@lru_cache(maxsize=256)
def _started(rows: tuple[str, ...], wanted: Color) -> tuple[Board, Color | None]:
    """A start position's board and who moves first (``first_to_move``): a value (a Board is
    never changed), made once for the few starts games have (every audit makes one, twice)."""
    board = Board.from_rows(rows)
    return board, first_to_move(board, wanted)


def _start_rows(params: Mapping[str, object]) -> tuple[str, ...]:
    board = params.get("board")
    if board is not None:
        assert isinstance(board, list)
        return tuple(str(row) for row in board)
    height, width = params.get("height", 8), params.get("width", 8)
    assert isinstance(height, int)
    assert isinstance(width, int)
    return _standard(height, width)


@lru_cache(maxsize=256)
def _standard(height: int, width: int) -> tuple[str, ...]:
    return tuple(standard_start(height, width))


KIND = ReversiKind()
