"""What every game's requests and answers share, whatever its kind, and the face a kind declares.

A kind (``app.sessions.kind.GameKind``) declares its whole face once, as a ``Face``: its
creation body (a ``CreateIn``), the shapes of its state, move records and board (``TypedDict``s
over ``GameCommon`` and ``MoveOut``), the move bodies it takes (``MoveIn``, ``PassIn``, or
its own ``MoveBody``), its refusals, and what the play page needs. The OpenAPI unions, the move
route's documented refusals, the problem table and the page's kind table derive from the faces
of the kinds a service serves (``app.api.games.schemas.GameShapes``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Annotated, Any, ClassVar, Literal, NotRequired, Protocol

from pydantic import (
    BaseModel,
    BeforeValidator,
    Field,
    ValidationInfo,
    create_model,
    model_validator,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from app.contract.fields import INTEGRAL, SQUARES, Body, JsonInt, Square, cell_of
from app.contract.problems import Refusal
from app.contract.squares import RowOne, Squares
from app.rules.errors import DomainError
from app.sessions.clock import (
    MAX_GIVEN_SECONDS,
    MAX_INCREMENT_SECONDS,
    MAX_INITIAL_SECONDS,
    MAX_STAGE_MOVES,
    MAX_STAGE_SECONDS,
    MAX_STAGES,
    ClockMode,
    Stage,
    TimeControl,
)
from app.sessions.errors import RULE_FLAGS
from app.sessions.kind import (
    GameKind,
    Pass,
    Placement,
    Played,
    Player,
    Reason,
    Status,
    Winner,
)
from app.sessions.session import Terms
from app.sessions.store import NewGame

Example = Mapping[str, Any]  # an OpenAPI example: {"summary": …, "value": …}

# --- answers ----------------------------------------------------------------------------------

SQUARE_DOC = (
    "The cell's square name (`f5`: column letter, row number from 1; Reversi counts rows from "
    "the top, tic-tac-toe from the bottom). Present where the board has names (at most 26 "
    "columns), absent otherwise."
)


class MoveTimesOut(TypedDict):
    """What a move record says of its time (a kind's record adds it)."""

    at: NotRequired[
        Annotated[
            str,
            Field(
                description="When the service accepted the move (RFC 3339, UTC, "
                "milliseconds). An opening's posted stones have none."
            ),
        ]
    ]
    spent_ms: NotRequired[
        Annotated[
            int,
            Field(
                description="A clocked game's move: how long the mover's clock ran for it, "
                "after any delay (0 for the untimed first moves)."
            ),
        ]
    ]


class MoveOut(MoveTimesOut):
    """A move record of a move on a cell (a tic-tac-toe move's whole record)."""

    seq: Annotated[
        int, Field(description="1 for the first move; equals the game's version after it.")
    ]
    row: int
    col: int
    square: NotRequired[Annotated[str, Field(description=SQUARE_DOC)]]
    player: Player


class CellOut(TypedDict):
    """A legal move on a cell (a tic-tac-toe move's whole item: every empty cell is legal)."""

    row: int
    col: int
    square: NotRequired[Annotated[str, Field(description=SQUARE_DOC)]]


PlayerMs = TypedDict("PlayerMs", {"1": int, "2": int})

MODE_DOC = (
    "`fischer`: each timed move adds `increment_seconds` to its mover's clock. `bronstein`: each "
    "timed move gives its mover back the time it used, at most `increment_seconds`. `delay` "
    "(simple, US): each turn, the mover's clock starts running only after `increment_seconds`; "
    "nothing is added."
)
INCREMENT_DOC = "Fischer's increment, Bronstein's most given back, or the delay (seconds)."


class StageOut(TypedDict):
    """A stage: a player completing its `after_moves`-th move gets `add_seconds`."""

    after_moves: int
    add_seconds: int


class ClockOut(TypedDict):
    """A clocked game's clocks. Stable between changes of the game: count down to `deadline`
    (corrected by the answer's `Date`). In `delay` mode the running clock's time left starts
    going down only at `deadline` minus its `remaining_ms` (before that instant the delay
    runs)."""

    initial_seconds: int
    increment_seconds: Annotated[int, Field(description=INCREMENT_DOC)]
    mode: Annotated[ClockMode, Field(description=MODE_DOC)]
    stages: list[StageOut]
    remaining_ms: Annotated[
        PlayerMs, Field(description="Each player's time left, as of the game's last change.")
    ]
    running: Annotated[
        Player | None,
        Field(
            description="Whose clock runs: null until each player has made one move, and "
            "after the end."
        ),
    ]
    deadline: Annotated[
        str | None,
        Field(
            description="When the running clock reaches zero (RFC 3339, UTC, milliseconds): "
            "the game is then lost on time (`reason` `timeout`), whether or not anybody looks."
        ),
    ]


class GameCommon(TypedDict):
    """What the state of a game of every kind says; a kind's state adds ``game``, its facts,
    and ``last_move`` as its move record (``Annotated[Record | None, LAST_MOVE]``)."""

    id: str
    status: Annotated[
        Status,
        Field(
            description="`aborted`: ended with no result (`winner` 0), by a player before both "
            "had moved or by a first move not made in time."
        ),
    ]
    winner: Annotated[Winner, Field(description="0 while nobody has won.")]
    reason: Annotated[
        Reason | None,
        Field(
            description="Why the game ended: `line` (k in a row, five in gomoku), `board_full` "
            "(a tic-tac-toe or gomoku draw), `dead_position` (a game created with `early_draw`: "
            "neither player can still complete a line, a draw), `no_moves` (Reversi: neither "
            "colour can move; stones decide), `foul` (renju with `foul` `lose`: Black played "
            "a forbidden point, White wins), `passes` (renju: two passes in a row, a draw), "
            "`move_limit` (the configured most moves per game: a draw), `timeout` (a flag "
            "fell: the other player wins), `resignation`, `agreement` (a draw offered by both), "
            "`aborted` (by a player, before both had moved), `no_first_move` (a player's first "
            "move not made within `first_move_seconds`); null while it goes on."
        ),
    ]
    next_player: Annotated[
        Player | None,
        Field(description="null once the game is over, and while an open seat waits for a player."),
    ]
    version: Annotated[
        int,
        Field(
            description="0 at creation, +1 per change: an accepted move, a draw offer, an "
            "ending (a flag fall, a resignation, an agreed draw)."
        ),
    ]
    move_count: Annotated[int, Field(description="Accepted moves.")]
    draw_offer: Annotated[
        Player | None,
        Field(description="The player whose draw offer stands (until the next accepted move)."),
    ]
    takeback_offer: Annotated[
        Player | None,
        Field(
            description="The player whose takeback offer stands (until the next accepted "
            "move): the other accepts by offering too."
        ),
    ]
    clock: NotRequired[Annotated[ClockOut, Field(description="Only in a clocked game's state.")]]
    open_seat: NotRequired[
        Annotated[
            Player | None,
            Field(
                description="Only in a game created open: the seat nobody has taken yet (the "
                "game waits: nobody moves), null once someone joined it or the game ended."
            ),
        ]
    ]

    first_move_deadline: NotRequired[
        Annotated[
            str,
            Field(
                description="Only while a first move is due in a game created with "
                "`first_move_seconds`: when the game is aborted (`reason` `no_first_move`) "
                "unless the player to move has moved (RFC 3339, UTC, milliseconds)."
            ),
        ]
    ]
    rules: NotRequired[
        Annotated[
            dict[str, bool],
            Field(description="Only in a game created with an action left out: every rule flag."),
        ]
    ]
    visibility: NotRequired[
        Annotated[Literal["private"], Field(description="Only in a private game.")]
    ]
    names: NotRequired[
        Annotated[
            dict[str, str],
            Field(
                description="Only in a game whose seats have names (at creation, or by who "
                'joined): each named seat\'s name, by seat (`{"1": "Ann"}`).'
            ),
        ]
    ]
    players: NotRequired[
        Annotated[
            dict[str, str | None],
            Field(
                description="Only in a game a player (`POST /v1/players`) holds a seat of: the "
                'player holding each seat, by seat (`{"1": "Xq3p…", "2": null}`).'
            ),
        ]
    ]
    rated: NotRequired[
        Annotated[
            Literal[True],
            Field(description="Only in a rated game: its result updates its players' ratings."),
        ]
    ]
    tournament: NotRequired[
        Annotated[
            str,
            Field(description="Only in a tournament's game: the tournament (its id)."),
        ]
    ]
    pool: NotRequired[
        Annotated[
            str,
            Field(
                description="Only in a rated game: the pool its players are rated in (the game, "
                "its rule, its board's size, `k`, and its speed: `reversi/8x8/blitz`)."
            ),
        ]
    ]
    rematch_offer: NotRequired[
        Annotated[
            Player,
            Field(description="Only while a player's rematch offer stands (after the end)."),
        ]
    ]
    rematch: NotRequired[
        Annotated[
            str,
            Field(description="Only once both players offered a rematch: the new game's id."),
        ]
    ]
    last_takeback: NotRequired[
        Annotated[
            int,
            Field(
                description="Only once a takeback was accepted: the version it made. A polling "
                "client that keeps moves and knew an older version reads them again (`moves`): "
                "moves after some `seq` were taken back, and their numbers used again."
            ),
        ]
    ]
    at: NotRequired[
        Annotated[
            str,
            Field(
                description="When the game last changed (RFC 3339, UTC, milliseconds): the "
                "service's time of its creation, its last move or other change; of the move, in "
                "a move's answer and event."
            ),
        ]
    ]


# The largest board side of a live game the service supports (and ADJUDICATOR_MAX_N's maximum).
LARGEST_N = 1_000_000
KIND_DOC = "The game's kind, as it was created."
EARLY_DRAW_DOC = (
    "`true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can "
    "still complete a line with the moves left; a move costs the same at any k. In a state: "
    "present, and true, only in such a game."
)
LAST_MOVE = Field(description="The last accepted move's record; null before the first.")
Tokens = TypedDict("Tokens", {"1": NotRequired[str], "2": NotRequired[str]})
TOKENS_DOC = (
    "Each player's bearer token, shown only in this answer; an open game's has only the "
    "creator's (the other is made when someone joins)."
)


def etag(game_id: str, version: int) -> str:
    """The strong ETag of a game at a version: ``"<id>.<version>"``."""
    return f'"{game_id}.{version}"'


# --- requests ---------------------------------------------------------------------------------

PlayerIn = Annotated[int, Field(strict=True, ge=1, le=2), INTEGRAL]
PLAYER_DOC = "Optional; must be the token's player (else 403)."


def claimed(player: int | None) -> Player | None:
    """The seat a body's optional ``player`` claims (``PlayerIn`` checked it is 1 or 2)."""
    return None if player is None else 1 if player == 1 else 2


class StageIn(Body):
    """A player completing its `after_moves`-th move (every move it made counts, those taken
    back too) gets `add_seconds` more on its clock, once."""

    after_moves: Annotated[int, Field(strict=True, ge=1, le=MAX_STAGE_MOVES), INTEGRAL] = Field(
        description="The player's move after which the time is added (1: its first)."
    )
    add_seconds: Annotated[int, Field(strict=True, ge=1, le=MAX_STAGE_SECONDS), INTEGRAL] = Field(
        description="The time added."
    )


class ClockIn(Body):
    """Each player's initial time, the time control's mode and its increment (Fischer's, the
    most Bronstein gives back, or the delay), and its stages. Neither clock runs until each
    player has made one move."""

    initial_seconds: Annotated[int, Field(strict=True, ge=1, le=MAX_INITIAL_SECONDS), INTEGRAL] = (
        Field(description="Each player's time at the start.")
    )
    increment_seconds: Annotated[
        int, Field(strict=True, ge=0, le=MAX_INCREMENT_SECONDS), INTEGRAL
    ] = Field(0, description=INCREMENT_DOC)
    mode: ClockMode = Field("fischer", description=MODE_DOC)
    stages: list[StageIn] = Field(
        default_factory=list, max_length=MAX_STAGES,
        description="Time added as the game goes on, by each player's move count (their "
        "`after_moves` strictly increasing).",
    )  # fmt: skip

    @model_validator(mode="after")
    def _stages_increase(self) -> ClockIn:
        afters = [stage.after_moves for stage in self.stages]
        if any(a >= b for a, b in pairwise(afters)):
            raise PydanticCustomError(
                "stages_order", "stages' after_moves must be strictly increasing"
            )
        return self

    def control(self) -> TimeControl:
        stages = tuple(Stage(s.after_moves, s.add_seconds) for s in self.stages)
        return TimeControl(self.initial_seconds, self.increment_seconds, self.mode, stages)


class GiveTimeIn(Body):
    """Time given to the other player's clock."""

    seconds: Annotated[int, Field(strict=True, ge=1, le=MAX_GIVEN_SECONDS), INTEGRAL] = Field(
        description="Added to the other player's clock at once."
    )
    player: PlayerIn | None = Field(None, description=PLAYER_DOC)


# The most a first-move deadline may be, in seconds (a day).
MAX_FIRST_MOVE_SECONDS = 86_400


_FLAGS: dict[str, Any] = {
    flag: (bool, Field(True, strict=True, description=f"`false`: no {words} in this game."))
    for flag, words in RULE_FLAGS.items()
}
RulesIn = create_model("RulesIn", __base__=Body, **_FLAGS)
RulesIn.__doc__ = (
    "Which of a player's actions the game allows (each `true` unless set `false`); a disabled "
    "one is 409 `action_not_allowed`."
)


# A seat's name: 1 to 64 characters, none of them a control character (C0, DEL or C1), so that
# no record, log line or page shows what a name hides.
NAME_LENGTH = 64
SEAT_NAME_PATTERN = r"^[^\u0000-\u001f\u007f-\u009f]{1,64}$"
SeatName = Annotated[
    str,
    Field(
        strict=True, min_length=1, max_length=NAME_LENGTH, pattern=SEAT_NAME_PATTERN,
        description=f"1 to {NAME_LENGTH} characters, no control character.",
    ),
]  # fmt: skip


class NamesIn(Body):
    """What each seat is called (each optional): `"1"` the first player's, `"2"` the
    second's."""

    first: SeatName | None = Field(None, alias="1")
    second: SeatName | None = Field(None, alias="2")

    def pair(self) -> tuple[str | None, str | None]:
        return self.first, self.second


class JoinIn(Body):
    """What a player taking the open seat may say: the name the seat is called by."""

    name: SeatName | None = Field(None, description="The seat's name, in states and records.")


def disabled_of(rules: BaseModel | None) -> frozenset[str]:
    """The rule flags a ``RulesIn`` sets false."""
    if rules is None:
        return frozenset()
    return frozenset(flag for flag in RULE_FLAGS if getattr(rules, flag) is False)


class CreateIn(Body):
    """What a creation body of every kind may say; a kind's body adds ``game`` (a ``Literal``
    of its name) and its parameters, and says what the store keeps of them (``params``)."""

    kind: ClassVar[str]
    clock: ClockIn | None = Field(None, description="Clocks; without them, no time limit.")
    open: bool = Field(
        False,
        strict=True,
        description="`true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone "
        "to take the other seat (`POST /v1/games/{id}/join`); the answer holds only the "
        "creator's token, and nobody moves until the seat is taken.",
    )
    creator: PlayerIn | None = Field(
        None,
        description="With `open`: the seat the creator takes (1 unless given; 2 lets the one "
        "who joins move first).",
    )

    visibility: Literal["public", "private"] = Field(
        "public",
        description="`private`: every read of the game (state, moves, board, events, record) "
        "needs a player's token or a spectator token (`POST /v1/games/{id}/spectators`), else "
        "401; it is never listed in the lobby. `public`: anyone who knows the id reads it.",
    )
    first_move_seconds: (
        Annotated[int, Field(strict=True, ge=1, le=MAX_FIRST_MOVE_SECONDS), INTEGRAL] | None
    ) = Field(
        None,
        description="A player whose first move is not made within this many seconds of it "
        "becoming their turn (with both seats taken) loses nothing: the game is aborted at "
        "that instant (`status` `aborted`, `reason` `no_first_move`), whether or not anybody "
        "looks. The state's `first_move_deadline` says when.",
    )
    rules: RulesIn | None = Field(
        None, description="Actions the game leaves out (each allowed unless set `false`)."
    )
    names: NamesIn | None = Field(
        None,
        description='What the seats are called (`{"1": "Ann", "2": "Bo"}`, each '
        "optional): states and records carry them (JSON `names`; GGF and SGF `PB`, `PW`). "
        "An open game's free seat is named by who joins it.",
    )

    rated: bool = Field(
        False,
        strict=True,
        description="`true`: the game's result (won or drawn, not aborted) updates both "
        "players' Glicko-2 ratings in its pool (the state's `pool`). Made with a player's key "
        "(the creator's seat is the player's), open (`open: true`), its free seat taken by "
        "another player's join.",
    )

    @model_validator(mode="after")
    def _creator_of_an_open_game(self) -> CreateIn:
        if self.creator is not None and not self.open:
            raise PydanticCustomError(
                "creator_without_open", "creator is for open games: give open true with it"
            )
        if self.rated and not self.open:
            raise PydanticCustomError(
                "rated_without_open",
                "a rated game is open: its other seat is taken by a player's join; give open "
                "true with it",
            )
        return self

    def creator_seat(self) -> Player:
        """The seat the creator takes (both, for a game that is not open: then the first)."""
        return 2 if self.creator == 2 else 1

    def open_seat(self) -> Player | None:
        """The seat an open game leaves free: the one the creator does not take."""
        if not self.open:
            return None
        return 1 if self.creator == 2 else 2

    def control(self) -> TimeControl | None:
        return None if self.clock is None else self.clock.control()

    def terms(self) -> Terms:
        """What the body says of the game's life beyond its kind's rules."""
        return Terms(self.first_move_seconds, disabled_of(self.rules), self.visibility == "private")

    def params(self) -> dict[str, object]:
        """The kind's parameters, as the store takes them."""
        raise NotImplementedError

    def opening_moves(self) -> list[Played]:
        """Moves played on the new game before it is handed to the players (an Othello opening,
        checked legal by the body): the game's first move records, untimed."""
        return []

    def new_game(self, owner: str) -> NewGame:
        """The game this body asks for, held by the client ``owner``."""
        names = (None, None) if self.names is None else self.names.pair()
        return NewGame(
            self.kind, self.params(), self.control(), tuple(self.opening_moves()), self.terms(),
            owner, self.open_seat(), names=names,
        )  # fmt: skip


def within_max_side(name: str, value: int | None, info: ValidationInfo) -> int | None:
    """A board side no larger than the service's ``max_n`` setting (the validation context's
    ``settings``, where the body is read for a service); a 422 naming ``name`` otherwise."""
    if value is not None and info.context and value > info.context["settings"].max_n:
        raise PydanticCustomError(
            "less_than_equal",
            "{name} must be at most {limit}",
            {"name": name, "limit": info.context["settings"].max_n},
        )
    return value


class ActionIn(Body):
    player: PlayerIn | None = Field(None, description=PLAYER_DOC)


class MoveBody(Body):
    """A move's body of one shape; ``key`` names the shape, and ``keys`` are the members that
    tell it apart (a body that has none of the shapes' keys is read as the first shape, whose
    errors say what is missing)."""

    key: ClassVar[str]
    keys: ClassVar[tuple[str, ...]] = ()  # ``(key,)`` unless a shape says more
    examples: ClassVar[Mapping[str, Example]]  # for the docs, by name
    player: PlayerIn | None = Field(None, description=PLAYER_DOC)

    def played(self) -> Played:
        """What the move plays."""
        raise NotImplementedError


class MoveIn(MoveBody):
    """A move on a cell: its `row` and `col`, or its `square` name (where the board has names:
    at most 26 columns), not both."""

    key: ClassVar[str] = "row"
    keys: ClassVar[tuple[str, ...]] = ("row", "col", "square")
    examples: ClassVar[Mapping[str, Example]] = {
        "centre": {"summary": "Centre of a 3 × 3 board", "value": {"row": 1, "col": 1}},
        "centre-by-square": {
            "summary": "The same cell by its square name (b2: column b, row 2 from the bottom)",
            "value": {"square": "b2"},
        },
    }
    row: JsonInt | None = Field(
        None,
        description="0 … n−1 (a Reversi game: 0 … height−1), row 0 the top row; outside is 422 "
        "`out_of_bounds`. With `col`, unless `square` is given.",
    )
    col: JsonInt | None = Field(
        None,
        description="0 … n−1 (a Reversi game: 0 … width−1), column 0 the left column; outside "
        "is 422 `out_of_bounds`. With `row`, unless `square` is given.",
    )
    square: Square | None = Field(
        None,
        description="The cell by its square name instead of `row` and `col` (not with them), "
        "on a board of at most 26 columns: a column letter (`a` the left column) and a row "
        "number from 1 — counted from the top row in Reversi (`f5` is row 4, col 5), from the "
        "bottom row in tic-tac-toe (`a1` is the bottom-left cell). Case-insensitive. A name "
        "the board does not have, or a board wider than 26 columns, is 422 `validation_error`.",
    )

    @model_validator(mode="after")
    def _one_cell(self, info: ValidationInfo) -> MoveIn:
        if self.square is None and self.row is not None and self.col is not None:
            return self  # the usual body, a row and a col: nothing to read (nor to assign)
        board = (info.context or {}).get(SQUARES)  # the game's names, if its board has them
        self.row, self.col = cell_of(self.row, self.col, self.square, board)
        return self

    def played(self) -> Placement:
        assert self.row is not None, "resolved by _one_cell"
        assert self.col is not None, "resolved by _one_cell"
        return Placement(self.row, self.col)


def only_true(name: str) -> BeforeValidator:
    """A member that is JSON's ``true`` itself, not ``1`` (which Python's ``True`` equals)."""

    def true_itself(value: object) -> object:
        if value is not True:
            raise PydanticCustomError("literal_error", "{name} must be true", {"name": name})
        return value

    return BeforeValidator(true_itself)


class PassIn(MoveBody):
    """A pass: the mover places nothing and gives the turn away."""

    key: ClassVar[str] = "pass"
    keys: ClassVar[tuple[str, ...]] = ("pass",)
    examples: ClassVar[Mapping[str, Example]] = {
        "pass": {"summary": "A pass", "value": {"pass": True}}
    }
    pass_: Annotated[Literal[True], only_true("pass")] = Field(
        alias="pass", description="`true`: the mover passes."
    )

    def played(self) -> Pass:
        return Pass()


# --- the face of a kind -----------------------------------------------------------------------


class Notation(Protocol):
    """How records write the moves of a kind whose moves are not cells (drops into a column,
    written as the column): a move in a record's list and in a transcript. A kind without one
    is written in square names and ``[row, col]`` pairs (``app.records.transcript``)."""

    @property
    def item(self) -> Any:
        """The annotation of one move in an audit body's ``moves`` (``JsonInt``)."""
        ...

    @property
    def moves_doc(self) -> str:
        """What an audit body's ``moves`` holds, for the OpenAPI document."""
        ...

    @property
    def transcript_doc(self) -> str:
        """What an audit body's ``transcript`` holds, for the OpenAPI document."""
        ...

    def written(self, played: Played) -> object:
        """A move as a record's ``moves`` lists it (a JSON value)."""
        ...

    def read(self, given: object, facts: Mapping[str, object]) -> Played:
        """A move of a record's ``moves`` (``item``, parsed) as the kind plays it on a board of
        ``facts`` (a new game's); ValueError saying why it is none of that board's."""
        ...

    def read_transcript(
        self, text: str, facts: Mapping[str, object], max_moves: int
    ) -> list[object]:
        """A transcript's moves, each as ``read`` takes it; ``app.records.errors.RecordError``
        naming where it broke, or the move over ``max_moves``."""
        ...

    def write_transcript(self, played: Sequence[Played], facts: Mapping[str, object]) -> str:
        """The transcript of a game's moves."""
        ...


@dataclass(frozen=True)
class Question:
    """A stateless question a kind answers: ``POST /v1/<kind>/<path>`` with a ``body`` (a
    ``Body`` model; its ``examples`` for the docs) answered by ``answer`` in the shape
    ``response_model``; ``refused`` are the domain errors ``answer`` may raise besides the
    body's own problems (documented as the route's answers). ``name`` is the endpoint's within
    the kind (the operation's id is ``<kind>_<name>``'s), unless ``endpoint`` names it whole:
    the first kinds' questions were named before there were kinds (``check_move``,
    ``validate_position``). The edge mounts every kind's (``app.api.questions``).

    ``offline`` says whether ``adjudicator check <kind>`` asks it (``app.cli.check``): None, it
    does not; a body with any of the members ``offline`` names (a move's cell) asks this
    question; a body with none of those of the kind's questions asks the one whose ``offline``
    is empty."""

    path: str
    name: str
    body: type[BaseModel]
    examples: Mapping[str, Example]
    answer: Callable[[Any], object]
    response_model: type
    summary: str
    description: str
    refused: tuple[type[DomainError], ...] = ()
    endpoint: str = ""
    offline: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Face:
    """Everything a kind shows clients, declared once.

    ``state``, ``created``, ``record`` and ``board`` are the ``TypedDict``s of its state (with
    ``game``, a ``Literal`` of the kind's name), its creation answer (the state with the
    ``tokens``), a move record and the board answer; ``legal_move`` is the ``TypedDict`` of
    one item of its legal moves (a cell's ``row`` and ``col``, and the kind's
    ``LegalMove.facts``). ``page`` is what the play page needs to know of it, as plain JSON:
    the marks its board answer writes (``marks`` of each player, ``empty``) and what it calls
    each player (``names``); its page module is ``/web/kinds/<name>.js`` unless ``page`` names
    another (``module``).

    ``row_one`` is the row its players number 1 in square names (``app.contract.squares``):
    ``"top"`` (Othello) or ``"bottom"`` (tic-tac-toe, gomoku, renju) — every kind says which.
    The edge reads a move's ``square`` and writes the ``square`` of its cells by it.
    ``cell_lists`` names the kind's fields of a move record or a legal move that are lists of
    ``[row, col]`` cells, each with the name of the list of their square names that answers
    carry beside it, in the same order (Reversi: ``{"flips": "flip_squares"}``).
    ``choices`` are the bodies of the choices its opening rules ask of a player (gomoku's
    swap2: a colour, or two more stones), posted on ``POST /v1/games/{id}/choice``; a kind with
    none refuses that route (409 ``wrong_step``). A choice is a move of the game (a ``Choice``):
    its record, receipts and events are a move's.
    ``inferred_pass`` is, for a kind whose passes are nobody's move (Othello: a player without
    a legal move is skipped), the move record's fact that says the next player was skipped
    (Reversi: ``passed``); a record that writes such a pass is checked against it
    (``app.records.audit``). ``formats`` are the community formats its games are read and
    written in besides transcripts (``app.records.formats``: Othello's ``ggf``, gomoku's
    ``psq`` and ``sgf``).
    """

    title: str
    create: type[CreateIn]
    examples: Mapping[str, Example]
    state: type
    created: type
    record: type
    board: type
    row_one: RowOne
    moves: tuple[type[MoveBody], ...] = (MoveIn,)
    choices: tuple[type[MoveBody], ...] = ()
    legal_move: type = CellOut
    refusals: tuple[Refusal, ...] = ()
    page: Mapping[str, object] = field(default_factory=dict)
    cell_lists: Mapping[str, str] = field(default_factory=dict)
    inferred_pass: str | None = None
    formats: tuple[str, ...] = ()
    notation: Notation | None = None
    known_as: str = ""
    questions: tuple[Question, ...] = ()

    def squares(self, height: int, width: int) -> Squares | None:
        """The square names of a board of this kind and size; None if it has none."""
        return Squares.of(height, width, self.row_one)


class Kind(GameKind, Protocol):
    """A game kind as the service serves it: the session core's ``GameKind`` and its face to
    clients (``Face``), which the edge, the records and the page read and the core never
    does."""

    @property
    def face(self) -> Face:
        """What clients see of the kind: its bodies, shapes, refusals, page."""
        ...


def body_of(model: type[BaseModel]) -> str:
    """The name a body model has in the OpenAPI components."""
    return model.__name__
