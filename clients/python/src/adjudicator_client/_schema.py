"""The service's contract as Python types, generated from openapi/openapi.json by
clients/python/generate.py. Do not edit: regenerate (``python clients/python/generate.py``).

The schemas of the document as ``TypedDict``s, each operation (``OPERATIONS``) and the type of
its answer (``<OperationId>Answer``), one exception class per problem code (``PROBLEMS``), and
how a client counts a quiet event stream.
"""

from __future__ import annotations

from typing import Any, Final, Literal, NamedTuple, NotRequired, TypeAlias, TypedDict

from adjudicator_client._problem import ProblemError

__all__ = [
    "AbortGameAnswer",
    "AcceptChallengeAnswer",
    "ActionIn",
    "ActionNotAllowed",
    "AddSpectatorAnswer",
    "AnyMoveIn",
    "ApplyMoveAnswer",
    "ApplyMoveRequest",
    "ApplyMoveResponse",
    "ArchivedGameOut",
    "ArchivedGamesOut",
    "AuditBatchAnswer",
    "AuditBatchIn",
    "AuditBatchOut",
    "AuditConnect4MovesIn",
    "AuditConnect4TranscriptIn",
    "AuditGomokuMovesIn",
    "AuditGomokuRecordIn",
    "AuditGomokuTranscriptIn",
    "AuditIn",
    "AuditOut",
    "AuditRecordAnswer",
    "AuditReversiMovesIn",
    "AuditReversiRecordIn",
    "AuditReversiTranscriptIn",
    "AuditTicTacToeMovesIn",
    "AuditTicTacToeTranscriptIn",
    "BoardTooLarge",
    "CapacityExhausted",
    "CellOccupied",
    "CellOut",
    "ChallengeIn",
    "ChallengeNotFound",
    "ChallengeOut",
    "ChallengesOut",
    "CheckColumnIn",
    "CheckColumnOut",
    "CheckMoveAnswer",
    "CheckMoveResponse",
    "CheckMovesAnswer",
    "CheckMovesRequest",
    "CheckMovesResponse",
    "ClockIn",
    "ClockOut",
    "ColorChoiceIn",
    "ColorsOut",
    "ColumnFull",
    "ColumnIn",
    "ColumnLetterIn",
    "Connect4BoardOut",
    "Connect4CheckMoveAnswer",
    "Connect4GameOut",
    "Connect4LegalMoveOut",
    "Connect4LegalMovesAnswer",
    "Connect4MoveOut",
    "ConnectFourLegalMovesOut",
    "CorsRefused",
    "Counts",
    "CreateChallengeAnswer",
    "CreateConnect4In",
    "CreateGameAnswer",
    "CreateGameIn",
    "CreateGomokuIn",
    "CreatePlayerAnswer",
    "CreateReversiIn",
    "CreateSeekAnswer",
    "CreateTicTacToeIn",
    "CreateTournamentAnswer",
    "CreatedConnect4Out",
    "CreatedGomokuOut",
    "CreatedReversiOut",
    "CreatedTicTacToeOut",
    "DeclineChallengeAnswer",
    "DeleteGameAnswer",
    "EnterPlayerAnswer",
    "EntrantIn",
    "ExportArchiveAnswer",
    "ForbiddenMove",
    "ForbiddenPointOut",
    "ForbiddenPointsOut",
    "ForbiddenPointsRequest",
    "GameEventsAnswer",
    "GameMadeOut",
    "GameNotFound",
    "GameNotOver",
    "GameOver",
    "GetArchivedGameAnswer",
    "GetBoardAnswer",
    "GetChallengeAnswer",
    "GetGameAnswer",
    "GetHealthAnswer",
    "GetKeysAnswer",
    "GetMeAnswer",
    "GetMetricsAnswer",
    "GetMoveAnswer",
    "GetPlayerAnswer",
    "GetProblemTypeAnswer",
    "GetReadinessAnswer",
    "GetRecordAnswer",
    "GetTournamentAnswer",
    "GiveTimeAnswer",
    "GiveTimeIn",
    "GomokuBoardOut",
    "GomokuCheckMoveAnswer",
    "GomokuCheckMovesAnswer",
    "GomokuCheckMovesOut",
    "GomokuCheckMovesRequest",
    "GomokuCheckOut",
    "GomokuChoiceIn",
    "GomokuForbiddenPointsAnswer",
    "GomokuGameOut",
    "GomokuLegalMovesOut",
    "GomokuMoveOut",
    "GomokuMoveRequest",
    "GomokuQuery",
    "HeadersTooLarge",
    "Health",
    "IdempotencyKeyReused",
    "IllegalMove",
    "IllegalOut",
    "InternalError",
    "JoinGameAnswer",
    "JoinIn",
    "JoinOut",
    "Jwk",
    "Keys",
    "LegalColumnsOut",
    "LegalMove",
    "LegalMovesAnswer",
    "LegalMovesRequest",
    "LegalMovesResponse",
    "LineOut",
    "ListArchivedGamesAnswer",
    "ListChallengesAnswer",
    "ListGamesAnswer",
    "ListLegalMovesAnswer",
    "ListMovesAnswer",
    "ListRatingsAnswer",
    "ListSeeksAnswer",
    "MakeChoiceAnswer",
    "MakeMoveAnswer",
    "MalformedHttp",
    "MethodNotAllowed",
    "MoveIn",
    "MoveNotFound",
    "MoveOut",
    "MoveQuery",
    "MoveResultOut",
    "MovesPage",
    "NameOut",
    "NamesIn",
    "NewPlayerOut",
    "NotFound",
    "NotOrganiser",
    "NotYourTurn",
    "NothingToTakeBack",
    "OfferDrawAnswer",
    "OfferTakebackAnswer",
    "OpenGamesOut",
    "OutOfBounds",
    "PairRoundAnswer",
    "PassIn",
    "PayloadTooLarge",
    "PlaceTwoIn",
    "PlayerEventsAnswer",
    "PlayerIn",
    "PlayerMs",
    "PlayerNotFound",
    "PlayerOut",
    "PlayerScores",
    "PoolRatingOut",
    "PositionIn",
    "PostedSeekOut",
    "PreconditionFailed",
    "Problem",
    "ProblemDescription",
    "RankedOut",
    "RateLimited",
    "RatingsOut",
    "Readiness",
    "RecordOut",
    "RematchAnswer",
    "RematchOut",
    "RematchSeat",
    "RequestTimeout",
    "ResignAnswer",
    "ReversiBoardOut",
    "ReversiGameOut",
    "ReversiLegalMoveOut",
    "ReversiLegalMovesOut",
    "ReversiMoveOut",
    "ReversiMoveRequest",
    "RulesIn",
    "Score",
    "SeatTaken",
    "SeekIn",
    "SeekNotFound",
    "SeekOut",
    "SeeksOut",
    "SignatureOut",
    "SpectatorOut",
    "StageIn",
    "StageOut",
    "StonesOpening",
    "StoreUnavailable",
    "Swap2Out",
    "TicTacToeBoardOut",
    "TicTacToeGameOut",
    "TicTacToeLegalMovesOut",
    "Tokens",
    "TooLateToAbort",
    "TooManyConnections",
    "TooManySpectators",
    "TooManyStreams",
    "TournamentEventsAnswer",
    "TournamentIn",
    "TournamentNotFound",
    "TournamentRefused",
    "TransferCodingNotImplemented",
    "Unauthorized",
    "UnsupportedContentEncoding",
    "UrlTooLong",
    "ValidateBatchRequest",
    "ValidateBatchResponse",
    "ValidatePositionAnswer",
    "ValidatePositionsAnswer",
    "ValidateRequest",
    "ValidateResponse",
    "ValidationError",
    "ValidationIssue",
    "WaitingForOpponent",
    "WithdrawChallengeAnswer",
    "WithdrawPlayerAnswer",
    "WithdrawSeekAnswer",
    "WrongPlayer",
    "WrongStep",
]

# --- the schemas ----------------------------------------------------------------------------------


class AbortEvent(TypedDict):
    """The game was aborted (`status` `aborted`: by a player, or a first move not made in time):
    `data` is the final state. The `end` event follows it, without an `id`.
    """

    event: Literal["abort"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: str
    data: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class TicTacToeGameOut(TypedDict):
    """An n × n tic-tac-toe game, k in a row wins."""

    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    n: int
    k: int
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game.
    early_draw: NotRequired[bool]
    # The game's kind, as it was created.
    game: Literal["tictactoe"]
    # The last accepted move's record; null before the first.
    last_move: MoveOut | None


class ClockOut(TypedDict):
    """A clocked game's clocks. Stable between changes of the game: count down to `deadline`
    (corrected by the answer's `Date`). In `delay` mode the running clock's time left starts
    going down only at `deadline` minus its `remaining_ms` (before that instant the delay runs).
    """

    initial_seconds: int
    # Fischer's increment, Bronstein's most given back, or the delay (seconds).
    increment_seconds: int
    # `fischer`: each timed move adds `increment_seconds` to its mover's clock. `bronstein`: each
    # timed move gives its mover back the time it used, at most `increment_seconds`. `delay`
    # (simple, US): each turn, the mover's clock starts running only after `increment_seconds`;
    # nothing is added.
    mode: Literal["fischer", "bronstein", "delay"]
    stages: list[StageOut]
    # Each player's time left, as of the game's last change.
    remaining_ms: PlayerMs
    # Whose clock runs: null until each player has made one move, and after the end.
    running: Literal[1, 2] | None
    # When the running clock reaches zero (RFC 3339, UTC, milliseconds): the game is then lost on
    # time (`reason` `timeout`), whether or not anybody looks.
    deadline: str | None


class StageOut(TypedDict):
    """A stage: a player completing its `after_moves`-th move gets `add_seconds`."""

    after_moves: int
    add_seconds: int


PlayerMs = TypedDict("PlayerMs", {"1": int, "2": int})


class MoveOut(TypedDict):
    """A move record of a move on a cell (a tic-tac-toe move's whole record)."""

    # When the service accepted the move (RFC 3339, UTC, milliseconds). An opening's posted stones
    # have none.
    at: NotRequired[str]
    # A clocked game's move: how long the mover's clock ran for it, after any delay (0 for the
    # untimed first moves).
    spent_ms: NotRequired[int]
    # 1 for the first move; equals the game's version after it.
    seq: int
    row: int
    col: int
    # The cell's square name (`f5`: column letter, row number from 1; Reversi counts rows from the
    # top, tic-tac-toe from the bottom). Present where the board has names (at most 26 columns),
    # absent otherwise.
    square: NotRequired[str]
    player: Literal[1, 2]


class ReversiGameOut(TypedDict):
    """A Reversi game: `score` counts each player's stones (1 Black, 2 White), and `final_score` is
    the result as Othello tournaments count it once the game is over.
    """

    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    height: int
    width: int
    score: PlayerScores
    # The game's kind, as it was created.
    game: Literal["reversi"]
    # The game's result as the World Othello Federation scores it: null while it goes on; at the end
    # by no moves, each player's stones with the empty squares added to the winner (split equally on
    # a draw); all the squares to the winner of a flag fall or a resignation (64–0 on 8 × 8); the
    # squares split equally for an agreed draw or the move limit; null for an aborted game, which
    # has no result.
    final_score: PlayerScores | None
    # The last accepted move's record; null before the first.
    last_move: ReversiMoveOut | None


PlayerScores = TypedDict("PlayerScores", {"1": int, "2": int})


class ReversiMoveOut(TypedDict):
    """A Reversi move record: the stones it flipped (sorted by (row, col)) and whether the opponent
    had to pass (`passed`: the mover moves again).
    """

    # When the service accepted the move (RFC 3339, UTC, milliseconds). An opening's posted stones
    # have none.
    at: NotRequired[str]
    # A clocked game's move: how long the mover's clock ran for it, after any delay (0 for the
    # untimed first moves).
    spent_ms: NotRequired[int]
    # 1 for the first move; equals the game's version after it.
    seq: int
    row: int
    col: int
    # The cell's square name (`f5`: column letter, row number from 1; Reversi counts rows from the
    # top, tic-tac-toe from the bottom). Present where the board has names (at most 26 columns),
    # absent otherwise.
    square: NotRequired[str]
    player: Literal[1, 2]
    flips: list[list[int]]
    passed: bool
    # The square names of `flips`, in the same order (`flips` are pairs, which cannot carry a name):
    # present where the board has names (at most 26 columns), absent otherwise.
    flip_squares: NotRequired[list[str]]


class GomokuGameOut(TypedDict):
    """A gomoku game: five in a row under its `rule`, on a `size` × `size` board."""

    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent).
    rule: Literal["freestyle", "standard", "renju", "caro"]
    # The board's side.
    size: int
    # What Black's move on a renju forbidden point does: `refuse` it (409 `forbidden_move`, the
    # default), or `lose`: the move is accepted and White wins (`reason` `foul`).
    foul: Literal["refuse", "lose"]
    # Each seat's colour: player 1 Black, unless a swap2 opening decides otherwise (null for both
    # until its choice).
    colors: ColorsOut
    # A swap2 opening's pending step; null once the colours are fixed, in a game without one, and
    # once the game is over.
    opening: Swap2Out | None
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game.
    early_draw: NotRequired[bool]
    # The game's kind, as it was created.
    game: Literal["gomoku"]
    # The last accepted move's record; null before the first.
    last_move: GomokuMoveOut | None


# Each seat's colour: fixed at creation, or by a swap2 choice.
ColorsOut = TypedDict("ColorsOut", {"1": Literal["B", "W"] | None, "2": Literal["B", "W"] | None})


class Swap2Out(TypedDict):
    """A swap2 opening's step, while the colours are not fixed."""

    rule: Literal["swap2"]
    # `place_three`: player 1 places three stones (Black, White, Black); `choose`: player 2 chooses
    # a colour, or to place two more stones; `place_two`: player 2 places them (White, Black);
    # `choose_color`: player 1 chooses a colour.
    step: Literal["place_three", "choose", "place_two", "choose_color"]
    # The player who acts now (`next_player`).
    to_act: Literal[1, 2]


# A gomoku move record: a stone (its cell), a pass, or a swap2 choice, and its colour.
GomokuMoveOut = TypedDict(
    "GomokuMoveOut",
    {
        "seq": int,
        "row": NotRequired[int],
        "col": NotRequired[int],
        "square": NotRequired[str],
        "pass": NotRequired[Literal[True]],
        "choice": NotRequired[Literal["color", "place_two"]],
        "player": Literal[1, 2],
        "color": NotRequired[Literal["B", "W"]],
        "at": NotRequired[str],
        "spent_ms": NotRequired[int],
    },
)


class Connect4GameOut(TypedDict):
    """A Connect Four game: `width` × `height`, `k` in a row wins."""

    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    width: int
    height: int
    # Discs in a row that win.
    k: int
    # The game's kind, as it was created.
    game: Literal["connect4"]
    # The last accepted move's record; null before the first.
    last_move: Connect4MoveOut | None


class Connect4MoveOut(TypedDict):
    """A drop: its column, the cell the disc landed in, and its player."""

    # When the service accepted the move (RFC 3339, UTC, milliseconds). An opening's posted stones
    # have none.
    at: NotRequired[str]
    # A clocked game's move: how long the mover's clock ran for it, after any delay (0 for the
    # untimed first moves).
    spent_ms: NotRequired[int]
    # 1 for the first move; equals the game's version after it.
    seq: int
    # The column, 0-based (0 is the leftmost).
    column: int
    # The row the disc landed in, counted from the top as boards are listed (0 is the top).
    row: int
    # The cell's column: `column` again, as every kind's move names its cell (`row`, `col`).
    col: int
    # The cell's name: its column letter and its row counted from the bottom (`d1` is the bottom of
    # the fourth column).
    square: str
    player: Literal[1, 2]


class ActionIn(TypedDict):
    # Optional; must be the token's player (else 403).
    player: NotRequired[int | None]


class ColumnIn(TypedDict):
    """A drop into a column, by its number (0-based)."""

    # Optional; must be the token's player (else 403).
    player: NotRequired[int | None]
    # 0 … width−1, 0 the leftmost column; outside is 422 `validation_error`.
    column: int


class ColumnLetterIn(TypedDict):
    """A drop into a column, by its letter (`a` the leftmost, either case)."""

    # Optional; must be the token's player (else 403).
    player: NotRequired[int | None]
    # The column's letter: `a` the leftmost, either case; one the board does not have is 422
    # `validation_error`.
    square: str


class MoveIn(TypedDict):
    """A move on a cell: its `row` and `col`, or its `square` name (where the board has names: at
    most 26 columns), not both.
    """

    # Optional; must be the token's player (else 403).
    player: NotRequired[int | None]
    # 0 … n−1 (a Reversi game: 0 … height−1), row 0 the top row; outside is 422 `out_of_bounds`.
    # With `col`, unless `square` is given.
    row: NotRequired[int | None]
    # 0 … n−1 (a Reversi game: 0 … width−1), column 0 the left column; outside is 422
    # `out_of_bounds`. With `row`, unless `square` is given.
    col: NotRequired[int | None]
    # The cell by its square name instead of `row` and `col` (not with them), on a board of at most
    # 26 columns: a column letter (`a` the left column) and a row number from 1 — counted from the
    # top row in Reversi (`f5` is row 4, col 5), from the bottom row in tic-tac-toe (`a1` is the
    # bottom-left cell). Case-insensitive. A name the board does not have, or a board wider than 26
    # columns, is 422 `validation_error`.
    square: NotRequired[str | None]


# A pass: the mover places nothing and gives the turn away.
PassIn = TypedDict("PassIn", {"player": NotRequired[int | None], "pass": Literal[True]})


# A move: a move on a cell: its `row` and `col`, or its `square` name (where the board has names:
# at most 26 columns), not both, or a pass: the mover places nothing and gives the turn away, or a
# drop into a column, by its number (0-based), or a drop into a column, by its letter (`a` the
# leftmost, either case)
AnyMoveIn: TypeAlias = MoveIn | PassIn | ColumnIn | ColumnLetterIn


class ApplyMoveRequest(TypedDict):
    """One move (`row` and `col`, or `square`, on a posted `board`, by `color`), or a game's `moves`
    played from a posted or the standard start.
    """

    # Required with one move; with `moves`, the standard start if not given.
    board: NotRequired[list[str | list[Literal[".", "B", "W"]]] | None]
    # 0-based; row 0 is the top row. With `col`, unless `square` is given.
    row: NotRequired[int | None]
    # 0-based; column 0 is the left column. With `row`, unless `square` is given.
    col: NotRequired[int | None]
    # The cell by its square name instead of `row` and `col` (not with them): a column letter (`a`
    # the left column) and a row number from 1, counted from the top row as Othello players write it
    # (`f5` is row 4, col 5). Case-insensitive. Only on boards of at most 26 columns; a name the
    # board does not have is 422 `validation_error`.
    square: NotRequired[str | None]
    # Who plays the move; with `moves`, who moves first (`B` if not given).
    color: NotRequired[Literal["B", "W"] | None]
    # A game's moves instead of one move: a transcript (`"f5d6c3"`) or a list of squares (`["f5",
    # "d6"]`), played one after another from `board` (the standard 8 × 8 start if not given),
    # `color` first (`B` if not given), with passes inferred: a colour that has no legal move
    # passes. The answer is the position after the last of them, as for one move. Not with `row`,
    # `col` or `square`.
    moves: NotRequired[str | list[str] | None]


class ApplyMoveResponse(TypedDict):
    # The board after the move, as strings.
    board: list[str]
    flips: list[list[int]]
    # The square names of `flips`, in the same order (`flips` are pairs, which cannot carry a name;
    # rows counted from the top, as Othello players write them: `a1` is row 0, col 0). Present where
    # the board has names (at most 26 columns), absent otherwise.
    flip_squares: NotRequired[list[str]]
    # Who moves next: the opponent if it can, else `color` again (the opponent passes), else null
    # (game over).
    next: Literal["B", "W"] | None
    # True when the opponent has no move and must pass.
    passed: bool
    game_over: bool
    score: Score
    # Set only when the game is over.
    winner: Literal["B", "W", "draw"] | None
    # Set only when the game is over: the score as the World Othello Federation counts it, each
    # colour's stones and the empty squares to the winner (split equally on a draw, an odd one left
    # over given to nobody).
    final_score: Score | None


class Score(TypedDict):
    B: int
    W: int


class ArchivedGameOut(TypedDict):
    """A finished game, as listed: its creation parameters (as `POST /v1/games` took them) are
    members too.
    """

    id: str
    game: str
    # The seats' names, by seat.
    names: dict[str, str]
    # The seats' players, by seat.
    players: dict[str, str]
    # `won`, `draw` or `aborted`.
    status: str
    # 1 or 2; null for a draw or an abort.
    winner: int | None
    # Why it ended.
    reason: str | None
    move_count: int
    # RFC 3339, UTC, ms.
    created_at: str
    # RFC 3339, UTC, ms.
    ended_at: str
    # The record's hash chain.
    chain: str


class ArchivedGamesOut(TypedDict):
    games: list[ArchivedGameOut]
    # Send as `cursor` for the next page.
    next: str | None


class AuditBatchIn(TypedDict):
    """Games to audit, each as `POST /v1/records/audit` takes one."""

    # The games to audit, 1 to `max_batch`: each an audit body as `POST /v1/records/audit` takes it
    # (`AuditIn`). Each is read on its own: one that is not an audit body is its result's problem,
    # not the batch's.
    records: list[Any]


class AuditBatchOut(TypedDict):
    # Each record's answer, or `{"problem"}`.
    results: list[AuditOut | dict[str, Any]]


class AuditOut(TypedDict):
    """A whole game, audited."""

    # `finished`: a legal game, over; `unfinished`: legal so far, the record stops before the end;
    # `illegal`: a move was refused.
    verdict: Literal["finished", "unfinished", "illegal"]
    # The submitted moves accepted: all of them, or those before the refused one (written passes
    # count; inferred ones are no submitted move).
    plies: int
    # The first refused move; null if none.
    illegal: IllegalOut | None
    # The accepted moves, as a session records them (Othello's inferred passes are their moves'
    # `passed`); left out of a `"detail": "summary"` answer.
    moves: NotRequired[list[MoveOut | ReversiMoveOut | GomokuMoveOut | Connect4MoveOut]]
    # The game after the accepted moves, as `GET /v1/games/{id}` shows it, without `id`, `version`
    # and `clock`.
    state: dict[str, Any]
    # The record's SHA-256 hash chain, lower-case hex: `h0 = SHA-256(canonical creation parameters,
    # with game)`, `h_i = SHA-256(h_{i-1} ‖ canonical move record i)`.
    chain: str
    # Present only when a record left unsaid a parameter its format may say and the body gave none
    # beside it: the values the game was checked under (a PSQ or SGF record that names no rule:
    # `{"rule": "freestyle"}`).
    assumed: NotRequired[dict[str, Any]]
    # The service's signature of the answer.
    signature: SignatureOut


class IllegalOut(TypedDict):
    """The first refused move: where it is in what was submitted, as it was written, and the refusal
    a session's move would get (its problem's members: `code`, `detail`, and those of its code,
    as `GET /problems/{code}` describes them).
    """

    ply: NotRequired[int]
    move: NotRequired[Any]
    type: NotRequired[str]
    title: NotRequired[str]
    status: NotRequired[int]
    detail: NotRequired[str]
    code: NotRequired[str]


class SignatureOut(TypedDict):
    # Always `Ed25519`.
    alg: Literal["Ed25519"]
    # The key's id: one of `GET /v1/keys`.
    kid: str
    # What the signed document is, signed with it: `record` (a game's record, `GET
    # /v1/games/{id}/record`) or `audit` (an audit's answer). A record never verifies as an audit
    # answer, nor an answer as a record.
    typ: Literal["record", "audit", "tournament"]
    # base64url of the Ed25519 signature of the canonical JSON (RFC 8785) of the whole document, its
    # `signature` holding every member but `value`.
    value: str


class AuditConnect4MovesIn(TypedDict):
    """A Connect Four game: 7 columns × 6 rows and 4 in a row unless told; player 1 (`X`) drops
    first. With the moves of the game to audit as a list (`moves`).
    """

    # The drops in order, each its column, 0-based (0 is the leftmost). At most `max_record_moves`
    # (default 10,000).
    moves: list[int]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["connect4"]
    # Columns, 4 to 20. Default: `7`.
    width: NotRequired[int]
    # Rows, 4 to 20. Default: `6`.
    height: NotRequired[int]
    # Discs in a row that win, 3 to max(width, height). Default: `4`.
    k: NotRequired[int]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class RulesIn(TypedDict):
    """Which of a player's actions the game allows (each `true` unless set `false`); a disabled one
    is 409 `action_not_allowed`.
    """

    # `false`: no aborting in this game. Default: `true`.
    abort: NotRequired[bool]
    # `false`: no takebacks in this game. Default: `true`.
    takeback: NotRequired[bool]
    # `false`: no rematches in this game. Default: `true`.
    rematch: NotRequired[bool]
    # `false`: no draw offers in this game. Default: `true`.
    draw_offer: NotRequired[bool]
    # `false`: no giving time in this game. Default: `true`.
    give_time: NotRequired[bool]


# What each seat is called (each optional): `"1"` the first player's, `"2"` the
# second's.
NamesIn = TypedDict("NamesIn", {"1": NotRequired[str | None], "2": NotRequired[str | None]})


class AuditConnect4TranscriptIn(TypedDict):
    """A Connect Four game: 7 columns × 6 rows and 4 in a row unless told; player 1 (`X`) drops
    first. With the moves of the game to audit as a transcript (`transcript`).
    """

    # The columns one after another as the community writes games: digits 1 to 9 (`4453`, boards up
    # to 9 columns wide) or letters, either case (`ddec`, any width); spaces and line breaks allowed
    # between them.
    transcript: str
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["connect4"]
    # Columns, 4 to 20. Default: `7`.
    width: NotRequired[int]
    # Rows, 4 to 20. Default: `6`.
    height: NotRequired[int]
    # Discs in a row that win, 3 to max(width, height). Default: `4`.
    k: NotRequired[int]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class AuditGomokuMovesIn(TypedDict):
    """Gomoku: five in a row under one of the four rule sets (`freestyle` unless given), on a `size`
    × `size` board (15 unless given; renju only 15). Black (player 1) moves first. With the moves
    of the game to audit as a list (`moves`).
    """

    # The moves in order: squares (`f5`), `[row, col]` pairs, `pass` where the kind has passes
    # (Othello's are inferred: a written one is checked), and choices where an opening rule asks for
    # them (swap2: `{"color": "W"}`, `{"place_two": true}`). At most `max_record_moves` (default
    # 10,000).
    moves: list[str | list[Any] | dict[str, Any]]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["gomoku"]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent). Default:
    # `"freestyle"`.
    rule: NotRequired[Literal["freestyle", "standard", "renju", "caro"]]
    # Board side: 15 if not given; renju is played on 15 × 15 only.
    size: NotRequired[int | None]
    # What Black's move on a renju forbidden point does: `refuse` it (409 `forbidden_move`, the
    # default), or `lose`: the move is accepted and White wins (`reason` `foul`). `lose` is for
    # renju only. Default: `"refuse"`.
    foul: NotRequired[Literal["refuse", "lose"]]
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game. Freestyle and standard only. Default: `false`.
    early_draw: NotRequired[bool]
    # Stones placed before the players move (`{"stones": […]}`), or `"swap2"`: player 1 places three
    # stones (Black, White, Black), then player 2 chooses a colour or to place two more (White,
    # Black) and let player 1 choose (`POST /v1/games/{id}/choice`); the clocks run from the first
    # stone. None if not given.
    opening: NotRequired[StonesOpening | Literal["swap2"] | None]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class StonesOpening(TypedDict):
    """Stones placed before play, alternately Black, White, Black, … (as Gomocup hands its balanced
    openings to engines).
    """

    # Each stone as `[row, col]` or a square name (`h8`, rows counted from the bottom; on boards of
    # at most 26 columns). They are the game's first move records, untimed, by players 1, 2, 1, …;
    # then the colour whose turn it is moves. A stone the rules refuse (an occupied or forbidden
    # point), or stones that end the game, are 422 naming the stone.
    stones: list[list[int] | str]


class AuditGomokuRecordIn(TypedDict):
    """Gomoku: five in a row under one of the four rule sets (`freestyle` unless given), on a `size`
    × `size` board (15 unless given; renju only 15). Black (player 1) moves first. With the game
    to audit as a record in one of the kind's formats (`record` and `format`), which gives the
    game's parameters: beside it, only those its format cannot carry.
    """

    # A game in a community format, named by `format`: its text. The game's parameters come from the
    # record, and those its format cannot carry from the body (`format` says which).
    record: str
    # The format of `record`: `psq`, a gomoku game as Gomocup's manager and Piskvork write it. It
    # carries the board's size, not the rule: `rule` is the body's, else the division its
    # tournament's name says (`1,Renju`), else freestyle (both given must agree); `foul` and
    # `early_draw` may be given beside it. `sgf`, a gomoku game as SGF FF[4] writes it (`GM[4]`):
    # its `RU` is the rule where it says one; `rule` (the same, where `RU` says one), `foul` and
    # `early_draw` may be given beside it.
    format: Literal["psq", "sgf"]
    # The game's kind. Default: `"gomoku"`.
    game: NotRequired[Literal["gomoku"]]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent). Default:
    # `"freestyle"`.
    rule: NotRequired[Literal["freestyle", "standard", "renju", "caro"]]
    # What Black's move on a renju forbidden point does: `refuse` it (409 `forbidden_move`, the
    # default), or `lose`: the move is accepted and White wins (`reason` `foul`). `lose` is for
    # renju only. Default: `"refuse"`.
    foul: NotRequired[Literal["refuse", "lose"]]
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game. Freestyle and standard only. Default: `false`.
    early_draw: NotRequired[bool]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class AuditGomokuTranscriptIn(TypedDict):
    """Gomoku: five in a row under one of the four rule sets (`freestyle` unless given), on a `size`
    × `size` board (15 unless given; renju only 15). Black (player 1) moves first. With the moves
    of the game to audit as a transcript (`transcript`).
    """

    # The squares written one after another (`f5d6c3d3c4`; `h8i9j10` where rows have two digits),
    # case-insensitive, spaces and line breaks allowed between them; no passes (Othello's are
    # inferred).
    transcript: str
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["gomoku"]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent). Default:
    # `"freestyle"`.
    rule: NotRequired[Literal["freestyle", "standard", "renju", "caro"]]
    # Board side: 15 if not given; renju is played on 15 × 15 only.
    size: NotRequired[int | None]
    # What Black's move on a renju forbidden point does: `refuse` it (409 `forbidden_move`, the
    # default), or `lose`: the move is accepted and White wins (`reason` `foul`). `lose` is for
    # renju only. Default: `"refuse"`.
    foul: NotRequired[Literal["refuse", "lose"]]
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game. Freestyle and standard only. Default: `false`.
    early_draw: NotRequired[bool]
    # Stones placed before the players move (`{"stones": […]}`), or `"swap2"`: player 1 places three
    # stones (Black, White, Black), then player 2 chooses a colour or to place two more (White,
    # Black) and let player 1 choose (`POST /v1/games/{id}/choice`); the clocks run from the first
    # stone. None if not given.
    opening: NotRequired[StonesOpening | Literal["swap2"] | None]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class AuditReversiMovesIn(TypedDict):
    """Reversi / Othello: 8 × 8 from the standard start, any even sides from 4 to 32, or a posted
    position (with the colour to move). Black (player 1) moves first by default. With the moves
    of the game to audit as a list (`moves`).
    """

    # The moves in order: squares (`f5`), `[row, col]` pairs, `pass` where the kind has passes
    # (Othello's are inferred: a written one is checked), and choices where an opening rule asks for
    # them (swap2: `{"color": "W"}`, `{"place_two": true}`). At most `max_record_moves` (default
    # 10,000).
    moves: list[str | list[Any] | dict[str, Any]]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["reversi"]
    # Rows: even, 4 to 32; 8 if not given.
    height: NotRequired[int | None]
    # Columns: even, 4 to 32; 8 if not given.
    width: NotRequired[int | None]
    # A start position instead of the standard one (not with a size).
    board: NotRequired[list[str | list[Literal[".", "B", "W"]]] | None]
    # Who moves first on a posted board (`B` if not given); if that colour cannot move, the other
    # starts.
    next: NotRequired[Literal["B", "W"] | None]
    # Moves played from the standard start before the game is handed to the players, as a transcript
    # (`"f5d6c3d3c4"`) or a list of squares: an XOT or opening-book start. Passes are inferred. They
    # are the game's first move records, untimed; the player to move after them moves next. An
    # illegal one is 422 naming it. Not with a posted board.
    opening: NotRequired[str | list[str] | None]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class AuditReversiRecordIn(TypedDict):
    """Reversi / Othello: 8 × 8 from the standard start, any even sides from 4 to 32, or a posted
    position (with the colour to move). Black (player 1) moves first by default. With the game to
    audit as a record in one of the kind's formats (`record` and `format`), which gives the
    game's parameters: beside it, only those its format cannot carry.
    """

    # A game in a community format, named by `format`: its text. The game's parameters come from the
    # record, and those its format cannot carry from the body (`format` says which).
    record: str
    # The format of `record`: `ggf`, an Othello game as GGS writes it (it gives every parameter).
    format: Literal["ggf"]
    # The game's kind. Default: `"reversi"`.
    game: NotRequired[Literal["reversi"]]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class AuditReversiTranscriptIn(TypedDict):
    """Reversi / Othello: 8 × 8 from the standard start, any even sides from 4 to 32, or a posted
    position (with the colour to move). Black (player 1) moves first by default. With the moves
    of the game to audit as a transcript (`transcript`).
    """

    # The squares written one after another (`f5d6c3d3c4`; `h8i9j10` where rows have two digits),
    # case-insensitive, spaces and line breaks allowed between them; no passes (Othello's are
    # inferred).
    transcript: str
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["reversi"]
    # Rows: even, 4 to 32; 8 if not given.
    height: NotRequired[int | None]
    # Columns: even, 4 to 32; 8 if not given.
    width: NotRequired[int | None]
    # A start position instead of the standard one (not with a size).
    board: NotRequired[list[str | list[Literal[".", "B", "W"]]] | None]
    # Who moves first on a posted board (`B` if not given); if that colour cannot move, the other
    # starts.
    next: NotRequired[Literal["B", "W"] | None]
    # Moves played from the standard start before the game is handed to the players, as a transcript
    # (`"f5d6c3d3c4"`) or a list of squares: an XOT or opening-book start. Passes are inferred. They
    # are the game's first move records, untimed; the player to move after them moves next. An
    # illegal one is 422 naming it. Not with a posted board.
    opening: NotRequired[str | list[str] | None]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class AuditTicTacToeMovesIn(TypedDict):
    """An n × n tic-tac-toe game: k in a row wins (a longer run too); k is n unless given. With the
    moves of the game to audit as a list (`moves`).
    """

    # The moves in order: squares (`f5`), `[row, col]` pairs, `pass` where the kind has passes
    # (Othello's are inferred: a written one is checked), and choices where an opening rule asks for
    # them (swap2: `{"color": "W"}`, `{"place_two": true}`). At most `max_record_moves` (default
    # 10,000).
    moves: list[str | list[Any] | dict[str, Any]]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind; without it, tic-tac-toe. Default: `"tictactoe"`.
    game: NotRequired[Literal["tictactoe"]]
    # Board side.
    n: int
    # Stones in a row that win, at most n; n if not given (gomoku: 5).
    k: NotRequired[int | None]
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game. Default: `false`.
    early_draw: NotRequired[bool]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


class AuditTicTacToeTranscriptIn(TypedDict):
    """An n × n tic-tac-toe game: k in a row wins (a longer run too); k is n unless given. With the
    moves of the game to audit as a transcript (`transcript`).
    """

    # The squares written one after another (`f5d6c3d3c4`; `h8i9j10` where rows have two digits),
    # case-insensitive, spaces and line breaks allowed between them; no passes (Othello's are
    # inferred).
    transcript: str
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind; without it, tic-tac-toe. Default: `"tictactoe"`.
    game: NotRequired[Literal["tictactoe"]]
    # Board side.
    n: int
    # Stones in a row that win, at most n; n if not given (gomoku: 5).
    k: NotRequired[int | None]
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game. Default: `false`.
    early_draw: NotRequired[bool]
    # How much the answer says: `full` (the default: the accepted move records too) or `summary`
    # (the verdict, `plies`, `illegal`, the state, the chain and the signature, without `moves`: the
    # answer a bulk client reads, a few hundred bytes a game). The chain is the same either way, and
    # the summary is signed as a whole, as the full answer is. Default: `"full"`.
    detail: NotRequired[Literal["full", "summary"]]


# A game to audit: its kind's creation parameters and its moves, given one way: a list (`moves`), a
# transcript (`transcript`), or a record (`record` and `format`).
AuditIn: TypeAlias = (
    AuditTicTacToeMovesIn
    | AuditTicTacToeTranscriptIn
    | AuditReversiMovesIn
    | AuditReversiTranscriptIn
    | AuditReversiRecordIn
    | AuditGomokuMovesIn
    | AuditGomokuTranscriptIn
    | AuditGomokuRecordIn
    | AuditConnect4MovesIn
    | AuditConnect4TranscriptIn
)


class CellOut(TypedDict):
    """A legal move on a cell (a tic-tac-toe move's whole item: every empty cell is legal)."""

    row: int
    col: int
    # The cell's square name (`f5`: column letter, row number from 1; Reversi counts rows from the
    # top, tic-tac-toe from the bottom). Present where the board has names (at most 26 columns),
    # absent otherwise.
    square: NotRequired[str]


class ChallengeIn(TypedDict):
    """An offer to one player."""

    # The challenged player's id.
    to: str
    # The game's creation body, as `POST /v1/games` takes it (without `open`, `creator`, `rated` or
    # `names`: the service seats both players, each named by itself).
    game: dict[str, Any]
    # `true`: the game is rated (in its pool, `GET /v1/ratings`). Default: `false`.
    rated: NotRequired[bool]


class NameOut(TypedDict):
    id: str
    name: str


ChallengeOut = TypedDict(
    "ChallengeOut",
    {
        "id": str,
        "from": NameOut,
        "to": NameOut,
        "game": dict[str, Any],
        "rated": bool,
        "created_at": str,
    },
)


class ChallengesOut(TypedDict):
    # Made to the player, oldest first.
    incoming: list[ChallengeOut]
    # Made by the player, oldest first.
    outgoing: list[ChallengeOut]


class CheckColumnIn(TypedDict):
    """A drop asked about, by the player to move: `column` (0-based) or its letter as `square`."""

    # Rows top to bottom of `X`, `O` and `.`, 4 to 20 a side. Refused (422) where a disc floats (an
    # empty cell under it), where the counts are not X = O or X = O + 1, or where both players have
    # k in a row.
    board: list[str | list[Literal["X", "O", "."]]]
    # Discs in a row that win, 3 to max(width, height). Default: `4`.
    k: NotRequired[int]
    # The column, 0-based (0 is the leftmost). Or `square`.
    column: NotRequired[int | None]
    # The column's letter (`a` the leftmost), either case; not with `column`.
    square: NotRequired[str | None]


class CheckColumnOut(TypedDict):
    """Whether the player to move may drop there, where the disc lands and whether it wins."""

    legal: bool
    # Why not: the column is full, or the game is over; null if legal.
    reason: Literal["column_full", "game_over"] | None
    # The row the disc landed in, counted from the top as boards are listed (0 is the top). Null if
    # refused.
    row: int | None
    # The cell's name: its column letter and its row counted from the bottom (`d1` is the bottom of
    # the fourth column). Null if refused.
    square: str | None
    # Whether the drop completes k or more in a row.
    wins: bool


class CheckMoveResponse(TypedDict):
    legal: bool
    # Why the move is illegal; null when legal.
    reason: Literal["occupied", "no_bracket"] | None
    # Stones that flip, sorted by (row, col); [] if illegal.
    flips: list[list[int]]
    # The square names of `flips`, in the same order (`flips` are pairs, which cannot carry a name;
    # rows counted from the top, as Othello players write them: `a1` is row 0, col 0). Present where
    # the board has names (at most 26 columns), absent otherwise.
    flip_squares: NotRequired[list[str]]


class CheckMovesRequest(TypedDict):
    """One board and many questions about it."""

    # Rectangular board, 1 to 32 cells a side, row 0 on top. Each row is a string, or a list of
    # one-character strings. Cells: '.', 'B', 'W'.
    board: list[str | list[Literal[".", "B", "W"]]]
    # 1 to `max_batch` (default 1000) questions.
    queries: list[MoveQuery]


class MoveQuery(TypedDict):
    """One question of a batch: may ``color`` play at (row, col), or at ``square``? Which cell it
    asks about, the batch reads on its board (``CheckMovesRequest.read_cells``).
    """

    # 0-based; row 0 is the top row. With `col`, unless `square` is given.
    row: NotRequired[int | None]
    # 0-based; column 0 is the left column. With `row`, unless `square` is given.
    col: NotRequired[int | None]
    # The cell by its square name instead of `row` and `col` (not with them): a column letter (`a`
    # the left column) and a row number from 1, counted from the top row as Othello players write it
    # (`f5` is row 4, col 5). Case-insensitive. Only on boards of at most 26 columns; a name the
    # board does not have is 422 `validation_error`.
    square: NotRequired[str | None]
    color: Literal["B", "W"]


class CheckMovesResponse(TypedDict):
    # One answer per query, in order.
    results: list[CheckMoveResponse]


class ClockEvent(TypedDict):
    """Time was given to a player (`POST …/give-time`): `data` is the state, its clocks with the
    time added.
    """

    event: Literal["clock"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: str
    data: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class ClockIn(TypedDict):
    """Each player's initial time, the time control's mode and its increment (Fischer's, the most
    Bronstein gives back, or the delay), and its stages. Neither clock runs until each player has
    made one move.
    """

    # Each player's time at the start.
    initial_seconds: int
    # Fischer's increment, Bronstein's most given back, or the delay (seconds). Default: `0`.
    increment_seconds: NotRequired[int]
    # `fischer`: each timed move adds `increment_seconds` to its mover's clock. `bronstein`: each
    # timed move gives its mover back the time it used, at most `increment_seconds`. `delay`
    # (simple, US): each turn, the mover's clock starts running only after `increment_seconds`;
    # nothing is added. Default: `"fischer"`.
    mode: NotRequired[Literal["fischer", "bronstein", "delay"]]
    # Time added as the game goes on, by each player's move count (their `after_moves` strictly
    # increasing).
    stages: NotRequired[list[StageIn]]


class StageIn(TypedDict):
    """A player completing its `after_moves`-th move (every move it made counts, those taken back
    too) gets `add_seconds` more on its clock, once.
    """

    # The player's move after which the time is added (1: its first).
    after_moves: int
    # The time added.
    add_seconds: int


class ColorChoiceIn(TypedDict):
    """A swap2 colour: the chooser plays it, the other player the other one."""

    # Optional; must be the token's player (else 403).
    player: NotRequired[int | None]
    # `B` or `W`: the colour the chooser plays.
    color: Literal["B", "W"]


class Connect4BoardOut(TypedDict):
    height: int
    width: int
    # Top to bottom: `X` (player 1), `O` (player 2), `.` empty.
    rows: list[str]


class Connect4LegalMoveOut(TypedDict):
    """A column the player to move may drop into, and where the disc would land."""

    # The column, 0-based (0 is the leftmost).
    column: int
    # The row the disc landed in, counted from the top as boards are listed (0 is the top).
    row: int
    # The cell's column: `column` again, as every kind's move names its cell (`row`, `col`).
    col: int
    # The cell's name: its column letter and its row counted from the bottom (`d1` is the bottom of
    # the fourth column).
    square: str


class ConnectFourLegalMovesOut(TypedDict):
    """A page of the legal moves of the player to move, in a game of Connect Four."""

    id: str
    # The game's kind, as it was created.
    game: Literal["connect4"]
    # The game's version these moves are of (its `ETag` says it).
    version: int
    # Who moves now; null once the game is over (then no moves).
    player: Literal[1, 2] | None
    # How many legal moves the player has, on every page.
    count: int
    # This page's legal moves, in row-major order (by row, then column).
    moves: list[Connect4LegalMoveOut]
    # The `after` of the next page (this page's last cell index); null when no legal move follows
    # this page.
    next_after: int | None


class Counts(TypedDict):
    X: int
    O: int  # noqa: E741


class CreateConnect4In(TypedDict):
    """A Connect Four game: 7 columns × 6 rows and 4 in a row unless told; player 1 (`X`) drops
    first.
    """

    # Clocks; without them, no time limit.
    clock: NotRequired[ClockIn | None]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["connect4"]
    # Columns, 4 to 20. Default: `7`.
    width: NotRequired[int]
    # Rows, 4 to 20. Default: `6`.
    height: NotRequired[int]
    # Discs in a row that win, 3 to max(width, height). Default: `4`.
    k: NotRequired[int]


class CreateGomokuIn(TypedDict):
    """Gomoku: five in a row under one of the four rule sets (`freestyle` unless given), on a `size`
    × `size` board (15 unless given; renju only 15). Black (player 1) moves first.
    """

    # Clocks; without them, no time limit.
    clock: NotRequired[ClockIn | None]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["gomoku"]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent). Default:
    # `"freestyle"`.
    rule: NotRequired[Literal["freestyle", "standard", "renju", "caro"]]
    # Board side: 15 if not given; renju is played on 15 × 15 only.
    size: NotRequired[int | None]
    # What Black's move on a renju forbidden point does: `refuse` it (409 `forbidden_move`, the
    # default), or `lose`: the move is accepted and White wins (`reason` `foul`). `lose` is for
    # renju only. Default: `"refuse"`.
    foul: NotRequired[Literal["refuse", "lose"]]
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game. Freestyle and standard only. Default: `false`.
    early_draw: NotRequired[bool]
    # Stones placed before the players move (`{"stones": […]}`), or `"swap2"`: player 1 places three
    # stones (Black, White, Black), then player 2 chooses a colour or to place two more (White,
    # Black) and let player 1 choose (`POST /v1/games/{id}/choice`); the clocks run from the first
    # stone. None if not given.
    opening: NotRequired[StonesOpening | Literal["swap2"] | None]


class CreateReversiIn(TypedDict):
    """Reversi / Othello: 8 × 8 from the standard start, any even sides from 4 to 32, or a posted
    position (with the colour to move). Black (player 1) moves first by default.
    """

    # Clocks; without them, no time limit.
    clock: NotRequired[ClockIn | None]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind.
    game: Literal["reversi"]
    # Rows: even, 4 to 32; 8 if not given.
    height: NotRequired[int | None]
    # Columns: even, 4 to 32; 8 if not given.
    width: NotRequired[int | None]
    # A start position instead of the standard one (not with a size).
    board: NotRequired[list[str | list[Literal[".", "B", "W"]]] | None]
    # Who moves first on a posted board (`B` if not given); if that colour cannot move, the other
    # starts.
    next: NotRequired[Literal["B", "W"] | None]
    # Moves played from the standard start before the game is handed to the players, as a transcript
    # (`"f5d6c3d3c4"`) or a list of squares: an XOT or opening-book start. Passes are inferred. They
    # are the game's first move records, untimed; the player to move after them moves next. An
    # illegal one is 422 naming it. Not with a posted board.
    opening: NotRequired[str | list[str] | None]


class CreateTicTacToeIn(TypedDict):
    """An n × n tic-tac-toe game: k in a row wins (a longer run too); k is n unless given."""

    # Clocks; without them, no time limit.
    clock: NotRequired[ClockIn | None]
    # `true`: the game waits in the lobby (`GET /v1/games?open=true`) for anyone to take the other
    # seat (`POST /v1/games/{id}/join`); the answer holds only the creator's token, and nobody moves
    # until the seat is taken. Default: `false`.
    open: NotRequired[bool]
    # With `open`: the seat the creator takes (1 unless given; 2 lets the one who joins move first).
    creator: NotRequired[int | None]
    # `private`: every read of the game (state, moves, board, events, record) needs a player's token
    # or a spectator token (`POST /v1/games/{id}/spectators`), else 401; it is never listed in the
    # lobby. `public`: anyone who knows the id reads it. Default: `"public"`.
    visibility: NotRequired[Literal["public", "private"]]
    # A player whose first move is not made within this many seconds of it becoming their turn (with
    # both seats taken) loses nothing: the game is aborted at that instant (`status` `aborted`,
    # `reason` `no_first_move`), whether or not anybody looks. The state's `first_move_deadline`
    # says when.
    first_move_seconds: NotRequired[int | None]
    # Actions the game leaves out (each allowed unless set `false`).
    rules: NotRequired[RulesIn | None]
    # What the seats are called (`{"1": "Ann", "2": "Bo"}`, each optional): states and records carry
    # them (JSON `names`; GGF and SGF `PB`, `PW`). An open game's free seat is named by who joins
    # it.
    names: NotRequired[NamesIn | None]
    # `true`: the game's result (won or drawn, not aborted) updates both players' Glicko-2 ratings
    # in its pool (the state's `pool`). Made with a player's key (the creator's seat is the
    # player's), open (`open: true`), its free seat taken by another player's join. Default:
    # `false`.
    rated: NotRequired[bool]
    # The game's kind; without it, tic-tac-toe. Default: `"tictactoe"`.
    game: NotRequired[Literal["tictactoe"]]
    # Board side.
    n: int
    # Stones in a row that win, at most n; n if not given (gomoku: 5).
    k: NotRequired[int | None]
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game. Default: `false`.
    early_draw: NotRequired[bool]


# A new game of one kind, named by `game` (tic-tac-toe without it).
CreateGameIn: TypeAlias = CreateTicTacToeIn | CreateReversiIn | CreateGomokuIn | CreateConnect4In


class CreatedConnect4Out(TypedDict):
    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    width: int
    height: int
    # Discs in a row that win.
    k: int
    # The game's kind, as it was created.
    game: Literal["connect4"]
    # The last accepted move's record; null before the first.
    last_move: Connect4MoveOut | None
    # Each player's bearer token, shown only in this answer; an open game's has only the creator's
    # (the other is made when someone joins).
    tokens: Tokens


Tokens = TypedDict("Tokens", {"1": NotRequired[str], "2": NotRequired[str]})


class CreatedGomokuOut(TypedDict):
    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent).
    rule: Literal["freestyle", "standard", "renju", "caro"]
    # The board's side.
    size: int
    # What Black's move on a renju forbidden point does: `refuse` it (409 `forbidden_move`, the
    # default), or `lose`: the move is accepted and White wins (`reason` `foul`).
    foul: Literal["refuse", "lose"]
    # Each seat's colour: player 1 Black, unless a swap2 opening decides otherwise (null for both
    # until its choice).
    colors: ColorsOut
    # A swap2 opening's pending step; null once the colours are fixed, in a game without one, and
    # once the game is over.
    opening: Swap2Out | None
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game.
    early_draw: NotRequired[bool]
    # The game's kind, as it was created.
    game: Literal["gomoku"]
    # The last accepted move's record; null before the first.
    last_move: GomokuMoveOut | None
    # Each player's bearer token, shown only in this answer; an open game's has only the creator's
    # (the other is made when someone joins).
    tokens: Tokens


class CreatedReversiOut(TypedDict):
    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    height: int
    width: int
    score: PlayerScores
    # The game's kind, as it was created.
    game: Literal["reversi"]
    # The game's result as the World Othello Federation scores it: null while it goes on; at the end
    # by no moves, each player's stones with the empty squares added to the winner (split equally on
    # a draw); all the squares to the winner of a flag fall or a resignation (64–0 on 8 × 8); the
    # squares split equally for an agreed draw or the move limit; null for an aborted game, which
    # has no result.
    final_score: PlayerScores | None
    # The last accepted move's record; null before the first.
    last_move: ReversiMoveOut | None
    # Each player's bearer token, shown only in this answer; an open game's has only the creator's
    # (the other is made when someone joins).
    tokens: Tokens


class CreatedTicTacToeOut(TypedDict):
    id: str
    # `aborted`: ended with no result (`winner` 0), by a player before both had moved or by a first
    # move not made in time.
    status: Literal["in_progress", "won", "draw", "aborted"]
    # 0 while nobody has won.
    winner: Literal[0, 1, 2]
    # Why the game ended: `line` (k in a row, five in gomoku), `board_full` (a tic-tac-toe or gomoku
    # draw), `dead_position` (a game created with `early_draw`: neither player can still complete a
    # line, a draw), `no_moves` (Reversi: neither colour can move; stones decide), `foul` (renju
    # with `foul` `lose`: Black played a forbidden point, White wins), `passes` (renju: two passes
    # in a row, a draw), `move_limit` (the configured most moves per game: a draw), `timeout` (a
    # flag fell: the other player wins), `resignation`, `agreement` (a draw offered by both),
    # `aborted` (by a player, before both had moved), `no_first_move` (a player's first move not
    # made within `first_move_seconds`); null while it goes on.
    reason: (
        Literal[
            "line",
            "board_full",
            "no_moves",
            "foul",
            "passes",
            "dead_position",
            "move_limit",
            "timeout",
            "resignation",
            "agreement",
            "aborted",
            "no_first_move",
        ]
        | None
    )
    # null once the game is over, and while an open seat waits for a player.
    next_player: Literal[1, 2] | None
    # 0 at creation, +1 per change: an accepted move, a draw offer, an ending (a flag fall, a
    # resignation, an agreed draw).
    version: int
    # Accepted moves.
    move_count: int
    # The player whose draw offer stands (until the next accepted move).
    draw_offer: Literal[1, 2] | None
    # The player whose takeback offer stands (until the next accepted move): the other accepts by
    # offering too.
    takeback_offer: Literal[1, 2] | None
    # Only in a clocked game's state.
    clock: NotRequired[ClockOut]
    # Only in a game created open: the seat nobody has taken yet (the game waits: nobody moves),
    # null once someone joined it or the game ended.
    open_seat: NotRequired[Literal[1, 2] | None]
    # Only while a first move is due in a game created with `first_move_seconds`: when the game is
    # aborted (`reason` `no_first_move`) unless the player to move has moved (RFC 3339, UTC,
    # milliseconds).
    first_move_deadline: NotRequired[str]
    # Only in a game created with an action left out: every rule flag.
    rules: NotRequired[dict[str, bool]]
    # Only in a private game.
    visibility: NotRequired[Literal["private"]]
    # Only in a game whose seats have names (at creation, or by who joined): each named seat's name,
    # by seat (`{"1": "Ann"}`).
    names: NotRequired[dict[str, str]]
    # Only in a game a player (`POST /v1/players`) holds a seat of: the player holding each seat, by
    # seat (`{"1": "Xq3p…", "2": null}`).
    players: NotRequired[dict[str, str | None]]
    # Only in a rated game: its result updates its players' ratings.
    rated: NotRequired[Literal[True]]
    # Only in a tournament's game: the tournament (its id).
    tournament: NotRequired[str]
    # Only in a rated game: the pool its players are rated in (the game, its rule, its board's size,
    # `k`, and its speed: `reversi/8x8/blitz`).
    pool: NotRequired[str]
    # Only while a player's rematch offer stands (after the end).
    rematch_offer: NotRequired[Literal[1, 2]]
    # Only once both players offered a rematch: the new game's id.
    rematch: NotRequired[str]
    # Only once a takeback was accepted: the version it made. A polling client that keeps moves and
    # knew an older version reads them again (`moves`): moves after some `seq` were taken back, and
    # their numbers used again.
    last_takeback: NotRequired[int]
    # When the game last changed (RFC 3339, UTC, milliseconds): the service's time of its creation,
    # its last move or other change; of the move, in a move's answer and event.
    at: NotRequired[str]
    n: int
    k: int
    # `true`: the game ends drawn (`reason` `dead_position`) as soon as neither player can still
    # complete a line with the moves left; a move costs the same at any k. In a state: present, and
    # true, only in such a game.
    early_draw: NotRequired[bool]
    # The game's kind, as it was created.
    game: Literal["tictactoe"]
    # The last accepted move's record; null before the first.
    last_move: MoveOut | None
    # Each player's bearer token, shown only in this answer; an open game's has only the creator's
    # (the other is made when someone joins).
    tokens: Tokens


class EndEvent(TypedDict):
    """The game is over: `data` is the final state. Its `id` is the version of the ending when the
    ending is a change of its own (a flag fall, a resignation, an agreed draw); without one when
    the last move ended the game, or an `abort` event carried it.
    """

    event: Literal["end"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: NotRequired[str]
    data: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class EntrantIn(TypedDict):
    # The player's id.
    player: str


class ErrorEvent(TypedDict):
    """The store stopped answering: `data` is the problem. The stream ends; resume it with
    `Last-Event-ID`.
    """

    event: Literal["error"]
    data: Problem


class Problem(TypedDict):
    """An error answer (RFC 9457). ``code`` is stable; ``title`` and ``detail`` are for people."""

    # A URI reference naming the problem type: `/problems/{code}`.
    type: str
    title: str
    status: int
    detail: str
    # Stable snake_case identifier; branch on this.
    code: str
    # Only for `validation_error`: the fields that failed and why, the first 20 of them.
    errors: NotRequired[list[ValidationIssue] | None]
    # Only for `validation_error`: how many fields failed in all.
    error_count: NotRequired[int | None]


class ValidationIssue(TypedDict):
    """One reason a request was refused by the schema: where, what, and a stable type."""

    loc: list[str | int]
    msg: str
    type: str


class ForbiddenPointOut(TypedDict):
    row: int
    col: int
    square: str
    forbidden: Literal["overline", "double_four", "double_three"]


class ForbiddenPointsOut(TypedDict):
    # Every point Black may not play, by (row, col).
    points: list[ForbiddenPointOut]
    count: int


class ForbiddenPointsRequest(TypedDict):
    """A renju position: where may Black not play?"""

    # n × n board, 1 to 100 cells a side, row 0 on top. Each row is a string, or a list of
    # one-character strings. Cells: '.', 'B', 'W'.
    board: list[str | list[Literal[".", "B", "W"]]]
    # `renju`: the only rule with forbidden points. Default: `"renju"`.
    rule: NotRequired[Literal["renju"]]


class JoinEvent(TypedDict):
    """An open game's free seat was taken (`POST …/join`): `data` is the game's state as it is when
    the event is sent (moves may follow it). Before any move.
    """

    event: Literal["join"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: str
    data: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class MoveEvent(TypedDict):
    """A move was accepted: `data` is the move's answer."""

    event: Literal["move"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: str
    data: MoveResultOut


class OfferEvent(TypedDict):
    """A draw offer stands (`draw_offer`): `data` is the state."""

    event: Literal["offer"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: str
    data: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class RematchEvent(TypedDict):
    """After the end, a rematch was offered (`rematch_offer`) or made (`rematch`): `data` is the
    state. Sent by a stream opened (or resumed) after it: a stream ends with the game's end.
    """

    event: Literal["rematch"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: str
    data: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class TakebackEvent(TypedDict):
    """A takeback offer stands (`takeback_offer`), or one was accepted: `data` is the state right
    after it. After an accepted one, the moves after its `move_count` are gone: the `move` events
    that follow replace them (their `seq` numbers are used again).
    """

    event: Literal["takeback"]
    # The game's version after this change: resume after it with Last-Event-ID.
    id: str
    data: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


# One event of a game's stream (`GET /v1/games/{game_id}/events`), as a client reads it: the event's
# name, its `id` and its `data` line parsed as JSON.
GameEvent: TypeAlias = (
    JoinEvent
    | MoveEvent
    | OfferEvent
    | TakebackEvent
    | ClockEvent
    | AbortEvent
    | RematchEvent
    | EndEvent
    | ErrorEvent
)


class MoveResultOut(TypedDict):
    # 0 while nobody has won, else the winner.
    winner: Literal[0, 1, 2]
    move: MoveOut | ReversiMoveOut | GomokuMoveOut | Connect4MoveOut
    state: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class GameMadeOut(TypedDict):
    # The game's id.
    game: str
    # The player's seat: 1 moves first.
    seat: int


class GiveTimeIn(TypedDict):
    """Time given to the other player's clock."""

    # Added to the other player's clock at once.
    seconds: int
    # Optional; must be the token's player (else 403).
    player: NotRequired[int | None]


class GomokuBoardOut(TypedDict):
    size: int
    # `B` Black, `W` White, `.` empty; top row first.
    rows: list[str]


class GomokuCheckMovesOut(TypedDict):
    # One answer per query, in order.
    results: list[GomokuCheckOut]


class GomokuCheckOut(TypedDict):
    legal: bool
    # Why not, when illegal.
    reason: Literal["occupied", "forbidden"] | None
    # Renju, Black: `overline`, `double_four` or `double_three`.
    forbidden: Literal["overline", "double_four", "double_three"] | None
    # The move wins under the rule.
    wins: bool
    # The shapes that decide the answer: the five (or overline) that wins, or the fours, threes or
    # overline that make the move forbidden.
    lines: list[LineOut]


class LineOut(TypedDict):
    # `five`, `overline`, `four` or `three`.
    shape: Literal["five", "overline", "four", "three"]
    # The stones that form it, the move's included.
    cells: list[list[Any]]
    # The same cells' square names (only on boards of ≤ 26 columns).
    squares: NotRequired[list[str]]


class GomokuCheckMovesRequest(TypedDict):
    """One board, one rule and many questions about it."""

    # n × n board, 1 to 100 cells a side, row 0 on top. Each row is a string, or a list of
    # one-character strings. Cells: '.', 'B', 'W'.
    board: list[str | list[Literal[".", "B", "W"]]]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent). Default:
    # `"freestyle"`.
    rule: NotRequired[Literal["freestyle", "standard", "renju", "caro"]]
    # 1 to `max_batch` (default 1000) questions.
    queries: list[GomokuQuery]


class GomokuQuery(TypedDict):
    """One question of a batch: may ``color`` play at (row, col), or at ``square``?"""

    # 0-based; row 0 is the top row. With `col`, unless `square` is given.
    row: NotRequired[int | None]
    # 0-based; column 0 is the left column. With `row`, unless `square` is given.
    col: NotRequired[int | None]
    # The cell by its square name instead of `row` and `col` (not with them): a column letter (`a`
    # the left column) and a row number from 1, counted from the bottom row as gomoku and renju
    # players write it (`h8` is the centre of 15 × 15). Case-insensitive; on boards of at most 26
    # columns.
    square: NotRequired[str | None]
    color: Literal["B", "W"]


class PlaceTwoIn(TypedDict):
    """Swap2's third option: place two more stones (White, Black), then the other player chooses a
    colour.
    """

    # Optional; must be the token's player (else 403).
    player: NotRequired[int | None]
    # `true`: the chooser places two more stones.
    place_two: Literal[True]


# A choice: a swap2 colour: the chooser plays it, the other player the other one, or swap2's third
# option: place two more stones (white, black), then the other player
# chooses a colour
GomokuChoiceIn: TypeAlias = ColorChoiceIn | PlaceTwoIn


class GomokuLegalMovesOut(TypedDict):
    """A page of the legal moves of the player to move, in a game of Gomoku."""

    id: str
    # The game's kind, as it was created.
    game: Literal["gomoku"]
    # The game's version these moves are of (its `ETag` says it).
    version: int
    # Who moves now; null once the game is over (then no moves).
    player: Literal[1, 2] | None
    # How many legal moves the player has, on every page.
    count: int
    # This page's legal moves, in row-major order (by row, then column).
    moves: list[CellOut]
    # The `after` of the next page (this page's last cell index); null when no legal move follows
    # this page.
    next_after: int | None


class GomokuMoveRequest(TypedDict):
    """A board, a rule, a cell (`row` and `col`, or `square`) and the colour that would play."""

    # n × n board, 1 to 100 cells a side, row 0 on top. Each row is a string, or a list of
    # one-character strings. Cells: '.', 'B', 'W'.
    board: list[str | list[Literal[".", "B", "W"]]]
    # 0-based; row 0 is the top row. With `col`, unless `square` is given.
    row: NotRequired[int | None]
    # 0-based; column 0 is the left column. With `row`, unless `square` is given.
    col: NotRequired[int | None]
    # The cell by its square name instead of `row` and `col` (not with them): a column letter (`a`
    # the left column) and a row number from 1, counted from the bottom row as gomoku and renju
    # players write it (`h8` is the centre of 15 × 15). Case-insensitive; on boards of at most 26
    # columns.
    square: NotRequired[str | None]
    color: Literal["B", "W"]
    # `freestyle` (five or more wins), `standard` (exactly five), `renju` (15 × 15; Black exactly
    # five and never on a forbidden point: overline, double-four, double-three; White five or more)
    # or `caro` (six or more, or exactly five not blocked at both ends by the opponent). Default:
    # `"freestyle"`.
    rule: NotRequired[Literal["freestyle", "standard", "renju", "caro"]]


class Health(TypedDict):
    status: Literal["ok"]


class JoinIn(TypedDict):
    """What a player taking the open seat may say: the name the seat is called by."""

    # The seat's name, in states and records.
    name: NotRequired[str | None]


class JoinOut(TypedDict):
    # The seat taken.
    player: Literal[1, 2]
    # Its bearer token, shown only in this answer.
    token: str
    # The game after the join.
    state: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class Jwk(TypedDict):
    """An Ed25519 public key as a JWK (RFC 8037); `kid` is its RFC 7638 thumbprint."""

    # `OKP`.
    kty: str
    # `Ed25519`.
    crv: str
    # The public key, base64url (32 bytes).
    x: str
    # The key's id: the signatures it made carry it.
    kid: str


class Keys(TypedDict):
    """The keys that verify the service's signatures: the current one first."""

    # The current key, then older ones still published.
    keys: list[Jwk]


class LegalColumnsOut(TypedDict):
    """The player to move and the columns it may drop into."""

    # Who drops next; null once the game is over.
    player: Literal[1, 2] | None
    # 0-based, left to right.
    columns: list[int]


class LegalMove(TypedDict):
    row: int
    col: int
    # The cell's square name (`d3` is row 2, col 3: rows counted from the top, as Othello players
    # write them). Present where the board has names (at most 26 columns), absent otherwise.
    square: NotRequired[str]
    # How many stones this move flips.
    flips: int


class LegalMovesRequest(TypedDict):
    # Rectangular board, 1 to 32 cells a side, row 0 on top. Each row is a string, or a list of
    # one-character strings. Cells: '.', 'B', 'W'.
    board: list[str | list[Literal[".", "B", "W"]]]
    color: Literal["B", "W"]


class LegalMovesResponse(TypedDict):
    color: Literal["B", "W"]
    # Sorted by (row, col).
    moves: list[LegalMove]
    count: int
    # True when `color` has no legal move.
    must_pass: bool


class MovesPage(TypedDict):
    moves: list[MoveOut | ReversiMoveOut | GomokuMoveOut | Connect4MoveOut]
    # The game's version now: its number of moves too, unless changes other than moves were made
    # (draw offers, an ending). Pass the last move's `seq` as `since` next time.
    version: int


class NewPlayerOut(TypedDict):
    id: str
    name: str
    # The player's key, shown only here (the service keeps a hash): a bearer token for `GET
    # /v1/players/me`, for making and joining games as this player, and wherever a seat's token acts
    # in the player's games.
    key: str


class OpenGamesOut(TypedDict):
    # Open games' states (`open_seat` set), oldest first.
    games: list[TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut]
    # Send as `cursor` for the next page; null: no more.
    next_cursor: str | None


class PlayerIn(TypedDict):
    """A new player: what it is called in states, records, listings and standings."""

    # The player's name.
    name: str


class PlayerOut(TypedDict):
    id: str
    name: str
    # RFC 3339, UTC, ms.
    created_at: str
    # The player's rating in each pool it played.
    ratings: dict[str, PoolRatingOut]


class PoolRatingOut(TypedDict):
    # Glicko-2's rating, unrounded.
    rating: float
    # Its rating deviation.
    rd: float
    volatility: float
    # Rated games played in the pool.
    games: int


class PositionIn(TypedDict):
    """A posted Connect Four position: its rows, top to bottom, and k."""

    # Rows top to bottom of `X`, `O` and `.`, 4 to 20 a side. Refused (422) where a disc floats (an
    # empty cell under it), where the counts are not X = O or X = O + 1, or where both players have
    # k in a row.
    board: list[str | list[Literal["X", "O", "."]]]
    # Discs in a row that win, 3 to max(width, height). Default: `4`.
    k: NotRequired[int]


class PostedSeekOut(TypedDict):
    id: str
    # The game made at once when the seek fit one that was waiting; null: it waits, or it fit one
    # but the game store did not answer (the game is made once it does): either way the game is told
    # on the player's stream when made.
    game: str | None
    # The player's seat in that game.
    seat: int | None


class ProblemDescription(TypedDict):
    code: str
    # The HTTP status it is answered with (the first, for a code answered with two: `statuses` lists
    # them).
    status: int
    statuses: list[int]
    title: str
    # When the service answers it.
    when: str
    # What a client does about it.
    todo: str
    # A realistic answer.
    example: dict[str, Any]


class RankedOut(TypedDict):
    id: str
    name: str
    rating: float
    rd: float
    games: int
    # `rd` > 110: the rating is not settled yet.
    provisional: bool


class RatingsOut(TypedDict):
    players: list[RankedOut]
    # Send as `cursor` for the next page.
    next: str | None


class Readiness(TypedDict):
    status: Literal["ready"]


class RecordOut(TypedDict):
    """A game as a record: its kind, its creation parameters (as `POST /v1/games` takes them: `n`
    and `k`, `height` and `width`, or `board` and `next`), its moves, its state and its hash
    chain.
    """

    # The game's kind.
    game: str
    # The moves in order: squares (`f5`), or `[row, col]` pairs on a board wider than 26 columns; as
    # the kind's notation writes them where its moves are not cells (a drop's 0-based column).
    moves: list[str | list[Any] | int]
    # The game now, as `GET /v1/games/{id}` shows it, without `id`, `version` and `clock`.
    state: dict[str, Any]
    # The record's SHA-256 hash chain, lower-case hex: `h0 = SHA-256(canonical JSON of the creation
    # parameters, with game)`, `h_i = SHA-256(h_{i-1} ‖ canonical JSON of move record i)`, the last
    # hash (RFC 8785 canonical JSON).
    chain: str
    # The service's signature of the record once the game is over; null before.
    signature: SignatureOut | None


class RematchOut(TypedDict):
    # null while only the caller's offer stands.
    rematch: RematchSeat | None
    # This game's state.
    state: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut


class RematchSeat(TypedDict):
    # The rematch's game id.
    id: str
    # The caller's seat in it (the other one).
    player: Literal[1, 2]
    # The caller's token in it, for it alone.
    token: str


class ReversiBoardOut(TypedDict):
    height: int
    width: int
    # `B` (player 1), `W` (player 2), `.` empty.
    rows: list[str]


class ReversiLegalMoveOut(TypedDict):
    """A legal Reversi move: its cell, and the stones it would flip."""

    row: int
    col: int
    # The cell's square name (`f5`: column letter, row number from 1; Reversi counts rows from the
    # top, tic-tac-toe from the bottom). Present where the board has names (at most 26 columns),
    # absent otherwise.
    square: NotRequired[str]
    # The opponent stones the move would flip, sorted by (row, col): exactly the `flips` of its
    # record if it is played.
    flips: list[list[int]]
    # The square names of `flips`, in the same order (`flips` are pairs, which cannot carry a name):
    # present where the board has names (at most 26 columns), absent otherwise.
    flip_squares: NotRequired[list[str]]


class ReversiLegalMovesOut(TypedDict):
    """A page of the legal moves of the player to move, in a game of Reversi."""

    id: str
    # The game's kind, as it was created.
    game: Literal["reversi"]
    # The game's version these moves are of (its `ETag` says it).
    version: int
    # Who moves now; null once the game is over (then no moves).
    player: Literal[1, 2] | None
    # How many legal moves the player has, on every page.
    count: int
    # This page's legal moves, in row-major order (by row, then column).
    moves: list[ReversiLegalMoveOut]
    # The `after` of the next page (this page's last cell index); null when no legal move follows
    # this page.
    next_after: int | None


class ReversiMoveRequest(TypedDict):
    """A board, a cell (`row` and `col`, or `square`) and the colour that would play there."""

    # Rectangular board, 1 to 32 cells a side, row 0 on top. Each row is a string, or a list of
    # one-character strings. Cells: '.', 'B', 'W'.
    board: list[str | list[Literal[".", "B", "W"]]]
    # 0-based; row 0 is the top row. With `col`, unless `square` is given.
    row: NotRequired[int | None]
    # 0-based; column 0 is the left column. With `row`, unless `square` is given.
    col: NotRequired[int | None]
    # The cell by its square name instead of `row` and `col` (not with them): a column letter (`a`
    # the left column) and a row number from 1, counted from the top row as Othello players write it
    # (`f5` is row 4, col 5). Case-insensitive. Only on boards of at most 26 columns; a name the
    # board does not have is 422 `validation_error`.
    square: NotRequired[str | None]
    color: Literal["B", "W"]


class SeekIn(TypedDict):
    """A standing offer to play."""

    # The game's creation body, as `POST /v1/games` takes it (without `open`, `creator`, `rated` or
    # `names`: the service seats both players, each named by itself).
    game: dict[str, Any]
    # `true`: the game is rated (in its pool, `GET /v1/ratings`). Default: `false`.
    rated: NotRequired[bool]
    # `[lo, hi]`: only an opponent whose rating in the game's pool is within it (inclusive) fits;
    # left out, any does. A player with no rating in the pool is rated 1500.
    rating_range: NotRequired[list[float] | None]


class SeekOut(TypedDict):
    id: str
    player: NameOut
    # The game's creation body.
    game: dict[str, Any]
    rated: bool
    rating_range: list[float] | None
    # The game's pool, where ratings are read.
    pool: str
    # The player's rating in the pool (1500: none).
    rating: float
    created_at: str
    # When it expires (`ADJUDICATOR_SEEK_SECONDS` after `created_at`) unless matched or withdrawn
    # first: then gone, told on its player's stream (`seek_expired`).
    expires_at: str


class SeeksOut(TypedDict):
    seeks: list[SeekOut]
    # Send as `cursor` for the next page.
    next: str | None


class SpectatorOut(TypedDict):
    # The spectator's bearer token.
    token: str


class TicTacToeBoardOut(TypedDict):
    n: int
    # `X` (player 1), `O` (player 2), `.` empty.
    rows: list[str]


class TicTacToeLegalMovesOut(TypedDict):
    """A page of the legal moves of the player to move, in a game of Tic-tac-toe."""

    id: str
    # The game's kind, as it was created.
    game: Literal["tictactoe"]
    # The game's version these moves are of (its `ETag` says it).
    version: int
    # Who moves now; null once the game is over (then no moves).
    player: Literal[1, 2] | None
    # How many legal moves the player has, on every page.
    count: int
    # This page's legal moves, in row-major order (by row, then column).
    moves: list[CellOut]
    # The `after` of the next page (this page's last cell index); null when no legal move follows
    # this page.
    next_after: int | None


class TournamentIn(TypedDict):
    """A new tournament."""

    # The tournament's name.
    name: str
    # `round_robin` (FIDE's Berger tables), `double_round_robin` (the cycle again, seats swapped) or
    # `swiss` (the FIDE Dutch system).
    system: Literal["round_robin", "double_round_robin", "swiss"]
    # A Swiss's rounds (required for it; a round robin's are its entrants' count less one, twice
    # that double; at most `ADJUDICATOR_MAX_TOURNAMENT_ROUNDS`).
    rounds: NotRequired[int | None]
    # The creation body of each of its games, as `POST /v1/games` takes it (without `open`,
    # `creator`, `rated` or `names`: the tournament seats its players).
    game: dict[str, Any]
    # Its players' ids in the seeding order (more may enter before round 1).
    players: NotRequired[list[str]]
    # Members laid over `game` for each round: round r plays `openings[(r − 1) mod len]` (an Othello
    # `opening`, gomoku `stones`, …).
    openings: NotRequired[list[dict[str, Any]]]
    # `true`: its games are rated (in their pool). Default: `false`.
    rated: NotRequired[bool]


class ValidateBatchRequest(TypedDict):
    # 1 to `max_batch` (default 1000) positions.
    items: list[ValidateRequest]


class ValidateRequest(TypedDict):
    # n × n board, 1 to 100 cells a side, row 0 on top. Each row is a string, or a list of
    # one-character strings. Cells: 'X', 'O', '.', ' '.
    board: list[str | list[Literal["X", "O", ".", " "]]]
    # Marks in a row that win, 1 ≤ k ≤ n; default n.
    k: NotRequired[int | None]


class ValidateBatchResponse(TypedDict):
    # One answer per item, in order.
    results: list[ValidateResponse]


class ValidateResponse(TypedDict):
    # True iff the position can occur in a legal game.
    valid: bool
    # Why not, when invalid: `bad_counts`, `both_won`, `x_won_but_o_moved`, `o_won_but_x_moved`,
    # `play_after_win` (the winner's lines cannot all have been completed by one last move).
    reason: (
        Literal[
            "bad_counts", "both_won", "x_won_but_o_moved", "o_won_but_x_moved", "play_after_win"
        ]
        | None
    )
    status: Literal["in_progress", "x_won", "o_won", "draw"] | None
    # Whose turn; null once the game is over.
    next: Literal["X", "O"] | None
    winner: Literal["X", "O"] | None
    counts: Counts


CheckMoveAnswer: TypeAlias = CheckMoveResponse

CheckMovesAnswer: TypeAlias = CheckMovesResponse

LegalMovesAnswer: TypeAlias = LegalMovesResponse

ApplyMoveAnswer: TypeAlias = ApplyMoveResponse

ValidatePositionAnswer: TypeAlias = ValidateResponse

ValidatePositionsAnswer: TypeAlias = ValidateBatchResponse

GomokuCheckMoveAnswer: TypeAlias = GomokuCheckOut

GomokuCheckMovesAnswer: TypeAlias = GomokuCheckMovesOut

GomokuForbiddenPointsAnswer: TypeAlias = ForbiddenPointsOut

Connect4CheckMoveAnswer: TypeAlias = CheckColumnOut

Connect4LegalMovesAnswer: TypeAlias = LegalColumnsOut

MakeMoveAnswer: TypeAlias = MoveResultOut

ListMovesAnswer: TypeAlias = MovesPage

MakeChoiceAnswer: TypeAlias = MoveResultOut

GetGameAnswer: TypeAlias = TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut

DeleteGameAnswer: TypeAlias = None

CreateGameAnswer: TypeAlias = (
    CreatedTicTacToeOut | CreatedReversiOut | CreatedGomokuOut | CreatedConnect4Out
)

ListGamesAnswer: TypeAlias = OpenGamesOut

JoinGameAnswer: TypeAlias = JoinOut

AddSpectatorAnswer: TypeAlias = SpectatorOut

RematchAnswer: TypeAlias = RematchOut

ResignAnswer: TypeAlias = TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut

OfferDrawAnswer: TypeAlias = TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut

AbortGameAnswer: TypeAlias = TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut

OfferTakebackAnswer: TypeAlias = TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut

GiveTimeAnswer: TypeAlias = TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut

GameEventsAnswer: TypeAlias = GameEvent

GetMoveAnswer: TypeAlias = MoveOut | ReversiMoveOut | GomokuMoveOut | Connect4MoveOut

ListLegalMovesAnswer: TypeAlias = (
    TicTacToeLegalMovesOut | ReversiLegalMovesOut | GomokuLegalMovesOut | ConnectFourLegalMovesOut
)

GetBoardAnswer: TypeAlias = TicTacToeBoardOut | ReversiBoardOut | GomokuBoardOut | Connect4BoardOut

GetKeysAnswer: TypeAlias = Keys

GetRecordAnswer: TypeAlias = RecordOut

AuditRecordAnswer: TypeAlias = AuditOut

AuditBatchAnswer: TypeAlias = AuditBatchOut

ListArchivedGamesAnswer: TypeAlias = ArchivedGamesOut

GetArchivedGameAnswer: TypeAlias = Any

ExportArchiveAnswer: TypeAlias = Any

CreatePlayerAnswer: TypeAlias = NewPlayerOut

GetMeAnswer: TypeAlias = PlayerOut

GetPlayerAnswer: TypeAlias = PlayerOut

ListRatingsAnswer: TypeAlias = RatingsOut

CreateTournamentAnswer: TypeAlias = Any

GetTournamentAnswer: TypeAlias = Any

EnterPlayerAnswer: TypeAlias = Any

WithdrawPlayerAnswer: TypeAlias = Any

PairRoundAnswer: TypeAlias = Any

TournamentEventsAnswer: TypeAlias = str

CreateSeekAnswer: TypeAlias = PostedSeekOut

ListSeeksAnswer: TypeAlias = SeeksOut

WithdrawSeekAnswer: TypeAlias = None

CreateChallengeAnswer: TypeAlias = ChallengeOut

ListChallengesAnswer: TypeAlias = ChallengesOut

GetChallengeAnswer: TypeAlias = ChallengeOut

WithdrawChallengeAnswer: TypeAlias = None

AcceptChallengeAnswer: TypeAlias = GameMadeOut

DeclineChallengeAnswer: TypeAlias = None

PlayerEventsAnswer: TypeAlias = str

GetHealthAnswer: TypeAlias = Health

GetReadinessAnswer: TypeAlias = Readiness

GetMetricsAnswer: TypeAlias = str

GetProblemTypeAnswer: TypeAlias = ProblemDescription


# --- the operations -------------------------------------------------------------------------------


# How safe a request is to send again (``x-resend``): ``always`` (sending it twice does what
# sending it once does: after any connection error, and after a 503 whose ``Retry-After`` is
# short), or only when the connection failed before it left (``unsent``).
Resend: TypeAlias = Literal["always", "unsent"]


class Operation(NamedTuple):
    """One operation of the service: its id, method and path (``{name}`` for a path
    parameter), the statuses of its answers that are not problems, and when it may be sent
    again."""

    operation_id: str
    method: str
    path: str
    statuses: tuple[int, ...]
    resend: Resend


OPERATIONS: Final[dict[str, Operation]] = {
    "check_move": Operation("checkMove", "POST", "/v1/reversi/check-move", (200,), "always"),
    "check_moves": Operation("checkMoves", "POST", "/v1/reversi/check-moves", (200,), "always"),
    "legal_moves": Operation("legalMoves", "POST", "/v1/reversi/legal-moves", (200,), "always"),
    "apply_move": Operation("applyMove", "POST", "/v1/reversi/apply-move", (200,), "always"),
    "validate_position": Operation(
        "validatePosition", "POST", "/v1/tictactoe/validate", (200,), "always"
    ),
    "validate_positions": Operation(
        "validatePositions", "POST", "/v1/tictactoe/validate-batch", (200,), "always"
    ),
    "gomoku_check_move": Operation(
        "gomokuCheckMove", "POST", "/v1/gomoku/check-move", (200,), "always"
    ),
    "gomoku_check_moves": Operation(
        "gomokuCheckMoves", "POST", "/v1/gomoku/check-moves", (200,), "always"
    ),
    "gomoku_forbidden_points": Operation(
        "gomokuForbiddenPoints", "POST", "/v1/gomoku/forbidden-points", (200,), "always"
    ),
    "connect4_check_move": Operation(
        "connect4CheckMove", "POST", "/v1/connect4/check-move", (200,), "always"
    ),
    "connect4_legal_moves": Operation(
        "connect4LegalMoves", "POST", "/v1/connect4/legal-moves", (200,), "always"
    ),
    "make_move": Operation("makeMove", "POST", "/v1/games/{game_id}/moves", (201,), "always"),
    "list_moves": Operation("listMoves", "GET", "/v1/games/{game_id}/moves", (200,), "always"),
    "make_choice": Operation("makeChoice", "POST", "/v1/games/{game_id}/choice", (201,), "always"),
    "get_game": Operation("getGame", "GET", "/v1/games/{game_id}", (200, 304), "always"),
    "delete_game": Operation("deleteGame", "DELETE", "/v1/games/{game_id}", (204,), "unsent"),
    "create_game": Operation("createGame", "POST", "/v1/games", (201,), "unsent"),
    "list_games": Operation("listGames", "GET", "/v1/games", (200,), "always"),
    "join_game": Operation("joinGame", "POST", "/v1/games/{game_id}/join", (200,), "always"),
    "add_spectator": Operation(
        "addSpectator", "POST", "/v1/games/{game_id}/spectators", (201,), "unsent"
    ),
    "rematch": Operation("rematch", "POST", "/v1/games/{game_id}/rematch", (200,), "always"),
    "resign": Operation("resign", "POST", "/v1/games/{game_id}/resign", (200,), "always"),
    "offer_draw": Operation(
        "offerDraw", "POST", "/v1/games/{game_id}/draw-offer", (200,), "always"
    ),
    "abort_game": Operation("abortGame", "POST", "/v1/games/{game_id}/abort", (200,), "always"),
    "offer_takeback": Operation(
        "offerTakeback", "POST", "/v1/games/{game_id}/takeback-offer", (200,), "always"
    ),
    "give_time": Operation("giveTime", "POST", "/v1/games/{game_id}/give-time", (200,), "always"),
    "game_events": Operation(
        "gameEvents", "GET", "/v1/games/{game_id}/events", (200, 204), "always"
    ),
    "get_move": Operation("getMove", "GET", "/v1/games/{game_id}/moves/{seq}", (200,), "always"),
    "list_legal_moves": Operation(
        "listLegalMoves", "GET", "/v1/games/{game_id}/legal-moves", (200, 304), "always"
    ),
    "get_board": Operation("getBoard", "GET", "/v1/games/{game_id}/board", (200,), "always"),
    "get_keys": Operation("getKeys", "GET", "/v1/keys", (200,), "always"),
    "get_record": Operation("getRecord", "GET", "/v1/games/{game_id}/record", (200, 304), "always"),
    "audit_record": Operation("auditRecord", "POST", "/v1/records/audit", (200,), "always"),
    "audit_batch": Operation("auditBatch", "POST", "/v1/records/audit-batch", (200,), "always"),
    "list_archived_games": Operation(
        "listArchivedGames", "GET", "/v1/archive/games", (200,), "always"
    ),
    "get_archived_game": Operation(
        "getArchivedGame", "GET", "/v1/archive/games/{game_id}", (200,), "always"
    ),
    "export_archive": Operation("exportArchive", "GET", "/v1/archive/export", (200,), "always"),
    "create_player": Operation("createPlayer", "POST", "/v1/players", (201,), "unsent"),
    "get_me": Operation("getMe", "GET", "/v1/players/me", (200,), "always"),
    "get_player": Operation("getPlayer", "GET", "/v1/players/{player_id}", (200,), "always"),
    "list_ratings": Operation("listRatings", "GET", "/v1/ratings", (200,), "always"),
    "create_tournament": Operation("createTournament", "POST", "/v1/tournaments", (201,), "unsent"),
    "get_tournament": Operation(
        "getTournament", "GET", "/v1/tournaments/{tournament_id}", (200,), "always"
    ),
    "enter_player": Operation(
        "enterPlayer", "POST", "/v1/tournaments/{tournament_id}/players", (201,), "unsent"
    ),
    "withdraw_player": Operation(
        "withdrawPlayer",
        "DELETE",
        "/v1/tournaments/{tournament_id}/players/{player_id}",
        (200,),
        "unsent",
    ),
    "pair_round": Operation(
        "pairRound", "POST", "/v1/tournaments/{tournament_id}/rounds", (201,), "unsent"
    ),
    "tournament_events": Operation(
        "tournamentEvents", "GET", "/v1/tournaments/{tournament_id}/events", (200, 204), "always"
    ),
    "create_seek": Operation("createSeek", "POST", "/v1/seeks", (201,), "unsent"),
    "list_seeks": Operation("listSeeks", "GET", "/v1/seeks", (200,), "always"),
    "withdraw_seek": Operation("withdrawSeek", "DELETE", "/v1/seeks/{seek_id}", (204,), "unsent"),
    "create_challenge": Operation("createChallenge", "POST", "/v1/challenges", (201,), "unsent"),
    "list_challenges": Operation("listChallenges", "GET", "/v1/challenges", (200,), "always"),
    "get_challenge": Operation(
        "getChallenge", "GET", "/v1/challenges/{challenge_id}", (200,), "always"
    ),
    "withdraw_challenge": Operation(
        "withdrawChallenge", "DELETE", "/v1/challenges/{challenge_id}", (204,), "unsent"
    ),
    "accept_challenge": Operation(
        "acceptChallenge", "POST", "/v1/challenges/{challenge_id}/accept", (201,), "unsent"
    ),
    "decline_challenge": Operation(
        "declineChallenge", "POST", "/v1/challenges/{challenge_id}/decline", (204,), "unsent"
    ),
    "player_events": Operation(
        "playerEvents", "GET", "/v1/players/{player_id}/events", (200,), "always"
    ),
    "get_health": Operation("getHealth", "GET", "/healthz", (200,), "always"),
    "get_readiness": Operation("getReadiness", "GET", "/readyz", (200,), "always"),
    "get_metrics": Operation("getMetrics", "GET", "/metrics", (200,), "always"),
    "get_problem_type": Operation("getProblemType", "GET", "/problems/{code}", (200,), "always"),
}


# How a request is sent again where its rule allows, unless told otherwise (`x-retry`): at most this
# many sends in all; after a connection error, this long later (doubling at each send); after an
# answer of these statuses, its Retry-After later if it is at most this long.
RETRY_ATTEMPTS: Final = 3
RETRY_BACKOFF_SECONDS: Final = 0.1
RETRY_MAX_WAIT_SECONDS: Final = 5.0
RETRY_STATUSES: Final = (503,)


# --- the problems ---------------------------------------------------------------------------------


class ValidationError(ProblemError):
    """Request does not match the schema (422 ``validation_error``). When: the body is not JSON or
    fails the schema (wrong types, unknown fields, a ragged board, a coordinate outside a posted
    board, a batch too long), or a header, path or query parameter is malformed; `errors` names
    each one. To do: fix each field `errors` names (`loc` is its path); /openapi.json declares
    what it takes.
    """

    code = "validation_error"
    statuses = (422,)


class PayloadTooLarge(ProblemError):
    """Request body too large (413 ``payload_too_large``). When: the body is larger than the
    configured limit; refused while reading. To do: send a smaller body: split a batch into
    several requests.
    """

    code = "payload_too_large"
    statuses = (413,)


class UnsupportedContentEncoding(ProblemError):
    """Content encoding not supported (415 ``unsupported_content_encoding``). When: the request has
    a `Content-Encoding` (a compressed body): bodies are read as sent, never decompressed (see
    `Accept-Encoding`). To do: send the body uncompressed, without `Content-Encoding`.
    """

    code = "unsupported_content_encoding"
    statuses = (415,)


class NotFound(ProblemError):
    """Not found (404 ``not_found``). When: no resource at this path. To do: check the path against
    /openapi.json (paths have no trailing slash).
    """

    code = "not_found"
    statuses = (404,)


class MethodNotAllowed(ProblemError):
    """Method not allowed (405 ``method_not_allowed``). When: the path does not take this method
    (see `Allow`). To do: use one of the methods the `Allow` header lists.
    """

    code = "method_not_allowed"
    statuses = (405,)


class CorsRefused(ProblemError):
    """Cross-origin request refused (400 ``cors_refused``). When: a browser's preflight (`OPTIONS`
    with `Origin` and `Access-Control-Request-Method`) asks for an origin, a method or a header
    the service does not allow (`ADJUDICATOR_CORS_ORIGINS`). To do: serve the page from an
    allowed origin, or have the operator add yours; send only the methods and headers
    /openapi.json declares.
    """

    code = "cors_refused"
    statuses = (400,)


class RateLimited(ProblemError):
    """Too many requests (429 ``rate_limited``). When: this client address creates games too fast,
    has sent too many wrong tokens, has read too many moves of games' move lists, or has used its
    share of the service's time (its bodies parsed, its stateless questions answered) (see
    `Retry-After`). To do: wait the `Retry-After` seconds, then send the request again.
    """

    code = "rate_limited"
    statuses = (429,)


class InternalError(ProblemError):
    """Internal server error (500 ``internal_error``). When: a bug: never expected. To do: report it
    with the answer's `X-Request-ID`; a move sent with an `Idempotency-Key` can be sent again
    safely.
    """

    code = "internal_error"
    statuses = (500,)


class MalformedHttp(ProblemError):
    """Malformed HTTP request (400 ``malformed_http``). When: the bytes sent are not an HTTP/1.1
    request; the connection is closed. To do: send a well-formed HTTP/1.1 request on a new
    connection.
    """

    code = "malformed_http"
    statuses = (400,)


class RequestTimeout(ProblemError):
    """Request not sent in time (408 ``request_timeout``). When: the request head or body did not
    arrive within the server's timeout; the connection is closed. To do: send the whole request
    at once, on a new connection.
    """

    code = "request_timeout"
    statuses = (408,)


class UrlTooLong(ProblemError):
    """URL too long (414 ``url_too_long``). When: the URL is longer than the server's limit. To do:
    shorten the URL: the API's paths and query parameters are short.
    """

    code = "url_too_long"
    statuses = (414,)


class HeadersTooLarge(ProblemError):
    """Request header fields too large (431 ``headers_too_large``). When: the request has more
    header fields, or more header bytes, than the server's limits. To do: send fewer or shorter
    header fields.
    """

    code = "headers_too_large"
    statuses = (431,)


class TransferCodingNotImplemented(ProblemError):
    """Transfer coding not implemented (501 ``transfer_coding_not_implemented``). When: the
    request's `Transfer-Encoding` names a coding other than `chunked` (RFC 9112 §6.1); the
    connection is closed. To do: send the body as it is, with a `Content-Length`, or
    `Transfer-Encoding: chunked` alone.
    """

    code = "transfer_coding_not_implemented"
    statuses = (501,)


class TooManyConnections(ProblemError):
    """Too many connections (503 ``too_many_connections``). When: the server has its most
    connections open, each busy with a request (see `Retry-After`). To do: wait the `Retry-After`
    seconds; keep one connection open and reuse it.
    """

    code = "too_many_connections"
    statuses = (503,)


class IllegalMove(ProblemError):
    """Illegal move (422, 409 ``illegal_move``). When: 422: `apply-move` of an illegal move;
    `reason` says why. 409: a session's move (or an audited record's) that the game's rules
    refuse; `reason` names the rule: `no_bracket` (Reversi: the stone brackets no opponent
    stone), `pass_with_moves` (an audited Othello record's written pass where the player has a
    legal move: Othello passes are inferred), `no_passes` (a pass in a gomoku game whose rule has
    none: only renju has passes). To do: 422: play one of the moves `legal-moves` lists. 409:
    play a move the rules allow (`legal-moves` on the game lists them).
    """

    code = "illegal_move"
    statuses = (422, 409)


class Unauthorized(ProblemError):
    """Missing or invalid token (401 ``unauthorized``). When: no bearer token, or not one of this
    game's (a private game's reads: neither a player's nor a spectator's). To do: send
    `Authorization: Bearer <token>` with your seat's token from `POST /v1/games`.
    """

    code = "unauthorized"
    statuses = (401,)


class WrongPlayer(ProblemError):
    """Token is for the other player (403 ``wrong_player``). When: `player` contradicts the token,
    or the token is a spectator's (it never acts); or a player's key sent for another player's
    seek, challenge or event stream. To do: leave `player` out (the token says who moves) or send
    your own seat's number; act on your own seeks and challenges, follow your own stream.
    """

    code = "wrong_player"
    statuses = (403,)


class GameNotFound(ProblemError):
    """Game not found (404 ``game_not_found``). When: no such game: never created, deleted or
    expired. To do: create a new game; a game nobody touches for the idle time expires.
    """

    code = "game_not_found"
    statuses = (404,)


class MoveNotFound(ProblemError):
    """Move not found (404 ``move_not_found``). When: the game has no move with this number. To do:
    ask for a `seq` from 1 to the game's `move_count`.
    """

    code = "move_not_found"
    statuses = (404,)


class PlayerNotFound(ProblemError):
    """Player not found (404 ``player_not_found``). When: no player with this id. To do: use an id
    from `POST /v1/players` (a player's key begins with its id).
    """

    code = "player_not_found"
    statuses = (404,)


class TournamentNotFound(ProblemError):
    """Tournament not found (404 ``tournament_not_found``). When: no tournament with this id. To do:
    use an id from `POST /v1/tournaments`.
    """

    code = "tournament_not_found"
    statuses = (404,)


class NotOrganiser(ProblemError):
    """Not the organiser (403 ``not_organiser``). When: a tournament's round, entrant or withdrawal
    asked with a key other than its organiser's. To do: send the organiser's key (the one that
    made the tournament).
    """

    code = "not_organiser"
    statuses = (403,)


class TournamentRefused(ProblemError):
    """Tournament refuses it now (409 ``tournament_refused``). When: a round while a game of the
    round before is unfinished (or another request is pairing it), a round past the last, an
    entrant after round 1 (or entered already, or past `ADJUDICATOR_MAX_TOURNAMENT_PLAYERS`);
    `detail` says which. To do: wait for the round's games to end, or read the tournament (`GET
    /v1/tournaments/{id}`).
    """

    code = "tournament_refused"
    statuses = (409,)


class SeekNotFound(ProblemError):
    """Seek not found (404 ``seek_not_found``). When: no open seek with this id: matched (its game
    made), withdrawn, or never made. To do: list the open seeks (`GET /v1/seeks`); a matched
    seek's game is told on the player's stream (`GET /v1/players/{id}/events`).
    """

    code = "seek_not_found"
    statuses = (404,)


class ChallengeNotFound(ProblemError):
    """Challenge not found (404 ``challenge_not_found``). When: no open challenge with this id:
    accepted, declined, withdrawn, or never made. To do: list your open challenges (`GET
    /v1/challenges`).
    """

    code = "challenge_not_found"
    statuses = (404,)


class GameOver(ProblemError):
    """Game over (409 ``game_over``). When: the game is won or drawn (`game_status`, `winner`,
    `reason`). To do: read the game's final state; start a new game to play again.
    """

    code = "game_over"
    statuses = (409,)


class BoardTooLarge(ProblemError):
    """Board too large to render (422 ``board_too_large``). When: `…/board` of a board too large to
    render. To do: read the game's moves (`…/moves`) instead.
    """

    code = "board_too_large"
    statuses = (422,)


class PreconditionFailed(ProblemError):
    """The game has moved on (412 ``precondition_failed``). When: `If-Match` names another version
    of the game (`version`). To do: read the game again, decide with its new state, and send its
    new `ETag` in `If-Match`.
    """

    code = "precondition_failed"
    statuses = (412,)


class WrongStep(ProblemError):
    """Not this step (409 ``wrong_step``). When: an opening rule's step takes another request
    (`step`: a swap2 opening's `place_three`, `choose`, `place_two` or `choose_color`; null once
    the colours are fixed, or in a game with no choices): a stone while a choice is due, a choice
    while stones are, or a choice the step does not offer. To do: read the game's `opening`
    (`step`, `to_act`) and send what it asks: stones on `…/moves`, a choice on `…/choice`.
    """

    code = "wrong_step"
    statuses = (409,)


class WaitingForOpponent(ProblemError):
    """Waiting for an opponent (409 ``waiting_for_opponent``). When: the game is open (`open_seat`):
    nobody has taken the other seat yet, so nobody moves. To do: wait until someone joins (`POST
    /v1/games/{id}/join`): poll the game or read its events for `event: join`; delete the game to
    call it off.
    """

    code = "waiting_for_opponent"
    statuses = (409,)


class SeatTaken(ProblemError):
    """No free seat (409 ``seat_taken``). When: a join of a game whose seats are both taken (it was
    never open, or someone joined first). To do: list the open games (`GET /v1/games?open=true`)
    and join another, or create one.
    """

    code = "seat_taken"
    statuses = (409,)


class ActionNotAllowed(ProblemError):
    """Action not allowed in this game (409 ``action_not_allowed``). When: the game was created with
    this action left out (`rules`: `action` names it). To do: read the game's `rules`; play on
    without that action.
    """

    code = "action_not_allowed"
    statuses = (409,)


class TooLateToAbort(ProblemError):
    """Too late to abort (409 ``too_late_to_abort``). When: an abort once the players have made two
    moves (an opening's posted stones are not theirs). To do: resign (`POST …/resign`) or offer a
    draw instead.
    """

    code = "too_late_to_abort"
    statuses = (409,)


class TooManySpectators(ProblemError):
    """Too many spectator tokens (409 ``too_many_spectators``). When: the game has issued its most
    spectator tokens (`limit`: the `game_spectators` setting). To do: share a spectator token
    already made: any number of readers may use one.
    """

    code = "too_many_spectators"
    statuses = (409,)


class GameNotOver(ProblemError):
    """The game goes on (409 ``game_not_over``). When: a rematch offered before the game's end. To
    do: finish the game (or resign, or abort it), then offer the rematch.
    """

    code = "game_not_over"
    statuses = (409,)


class NothingToTakeBack(ProblemError):
    """Nothing to take back (409 ``nothing_to_take_back``). When: a takeback offered by a player who
    has made no move that can be taken back (none yet, or only the opening's: posted stones and a
    swap2 opening stay). To do: make a move first; a takeback is offered after one's own move.
    """

    code = "nothing_to_take_back"
    statuses = (409,)


class IdempotencyKeyReused(ProblemError):
    """Idempotency-Key reused with a different body (422 ``idempotency_key_reused``). When: an
    `Idempotency-Key` sent again with a different move or action. To do: send a new
    `Idempotency-Key` with each new move or action; reuse one only to retry.
    """

    code = "idempotency_key_reused"
    statuses = (422,)


class CapacityExhausted(ProblemError):
    """Too many live games (503 ``capacity_exhausted``). When: the store is full, or the client that
    created the game (for a new game: this one) holds its share of the store's games or moves
    (`ADJUDICATOR_CLIENT_SHARE`; see `Retry-After`). To do: wait the `Retry-After` seconds, then
    create the game (or send the move) again.
    """

    code = "capacity_exhausted"
    statuses = (503,)


class StoreUnavailable(ProblemError):
    """Game store unavailable (503 ``store_unavailable``). When: the game store (Redis) does not
    answer; a request that changes a game says whether it may have been applied all the same
    (`may_have_been_applied`). To do: retry later; a request that may have been applied, send
    again with the same `Idempotency-Key`: it is applied at most once, and the retry gets its
    answer.
    """

    code = "store_unavailable"
    statuses = (503,)


class TooManyStreams(ProblemError):
    """Too many event streams (503 ``too_many_streams``). When: this client address has its most
    open event streams, or this process (or this game) has its most and no client holds more than
    its share of them (see `Retry-After`); also the `error` event that ends a stream whose place
    went to another client's. To do: close the streams you no longer read, or poll with
    `If-None-Match`; retry after `Retry-After`.
    """

    code = "too_many_streams"
    statuses = (503,)


class OutOfBounds(ProblemError):
    """Cell outside the board (422 ``out_of_bounds``). When: `row` or `col` outside 0 … n−1. To do:
    send a `row` and `col` inside the board (0-based).
    """

    code = "out_of_bounds"
    statuses = (422,)


class NotYourTurn(ProblemError):
    """Not your turn (409 ``not_your_turn``). When: the other player moves next (`next_player`). To
    do: wait for the other player's move: poll the game with `If-None-Match` or read its events.
    """

    code = "not_your_turn"
    statuses = (409,)


class CellOccupied(ProblemError):
    """Cell occupied (409 ``cell_occupied``). When: the cell already holds a mark. To do: play an
    empty cell (`…/board` shows them).
    """

    code = "cell_occupied"
    statuses = (409,)


class ForbiddenMove(ProblemError):
    """Forbidden move (409 ``forbidden_move``). When: Black's move on a renju forbidden point
    (`forbidden`: `overline`, `double_four` or `double_three`; `lines`: the shapes that make it
    so), in a game created with `foul` `refuse` (the default). To do: play another point (`POST
    /v1/gomoku/forbidden-points` lists them all), or pass.
    """

    code = "forbidden_move"
    statuses = (409,)


class ColumnFull(ProblemError):
    """Column full (409 ``column_full``). When: a Connect Four drop into a column that holds as many
    discs as the board has rows. To do: drop into another column (`legal-moves` on the game lists
    them).
    """

    code = "column_full"
    statuses = (409,)


# Every problem code the service answers with, and its class.
PROBLEMS: Final[dict[str, type[ProblemError]]] = {
    "validation_error": ValidationError,
    "payload_too_large": PayloadTooLarge,
    "unsupported_content_encoding": UnsupportedContentEncoding,
    "not_found": NotFound,
    "method_not_allowed": MethodNotAllowed,
    "cors_refused": CorsRefused,
    "rate_limited": RateLimited,
    "internal_error": InternalError,
    "malformed_http": MalformedHttp,
    "request_timeout": RequestTimeout,
    "url_too_long": UrlTooLong,
    "headers_too_large": HeadersTooLarge,
    "transfer_coding_not_implemented": TransferCodingNotImplemented,
    "too_many_connections": TooManyConnections,
    "illegal_move": IllegalMove,
    "unauthorized": Unauthorized,
    "wrong_player": WrongPlayer,
    "game_not_found": GameNotFound,
    "move_not_found": MoveNotFound,
    "player_not_found": PlayerNotFound,
    "tournament_not_found": TournamentNotFound,
    "not_organiser": NotOrganiser,
    "tournament_refused": TournamentRefused,
    "seek_not_found": SeekNotFound,
    "challenge_not_found": ChallengeNotFound,
    "game_over": GameOver,
    "board_too_large": BoardTooLarge,
    "precondition_failed": PreconditionFailed,
    "wrong_step": WrongStep,
    "waiting_for_opponent": WaitingForOpponent,
    "seat_taken": SeatTaken,
    "action_not_allowed": ActionNotAllowed,
    "too_late_to_abort": TooLateToAbort,
    "too_many_spectators": TooManySpectators,
    "game_not_over": GameNotOver,
    "nothing_to_take_back": NothingToTakeBack,
    "idempotency_key_reused": IdempotencyKeyReused,
    "capacity_exhausted": CapacityExhausted,
    "store_unavailable": StoreUnavailable,
    "too_many_streams": TooManyStreams,
    "out_of_bounds": OutOfBounds,
    "not_your_turn": NotYourTurn,
    "cell_occupied": CellOccupied,
    "forbidden_move": ForbiddenMove,
    "column_full": ColumnFull,
}


# --- the event stream -----------------------------------------------------------------------------

# A quiet stream sends a keep-alive at least this often (seconds), unless the server is configured
# otherwise (`x-sse-keep-alive-seconds`).
KEEP_ALIVE_SECONDS: Final = 15.0
# How many keep-alive intervals a client waits for a line before it takes the stream for dead and
# resumes it (`x-sse-keep-alives-missed`).
KEEP_ALIVES_MISSED: Final = 3
