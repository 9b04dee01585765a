"""The values a store and the HTTP edge exchange: a player's requests as a client asked for
them — a move, or an action (resign, offer a draw, abort, offer a takeback, give time) — with
the conditions they set (``player``, ``If-Match``, an ``Idempotency-Key``) and what makes two
of them under one key the same request; and the immutable snapshots a store answers with, which
the edge renders (``GameState``, ``MoveResult``, ``ActionResult``, a join's, a rematch's, a page
of legal moves)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from app.sessions.clock import ClockState
from app.sessions.kind import LegalMoves, Move, Played, Player, Reason, Status, Winner

# --- requests -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A move as a client asked for it: what it plays (a cell, a pass, …, as the game's kind
    defines it), and the conditions it set."""

    played: Played
    player: Player | None = None  # claimed in the body; must be the token's
    expected_version: int | None = None  # If-Match; -1 names no version
    idempotency_key: str | None = None

    def fingerprint(self) -> str:
        """What makes two requests under one Idempotency-Key "the same body"."""
        return f"{self.played.text()}:{self.player or ''}"


# What a player may do besides moving: resign, offer a draw, abort, offer a takeback, give
# time to the other player.
Action = Literal["resign", "offer", "abort", "takeback", "give_time"]
# The rule flag (``errors.RULE_FLAGS``) that may leave each action out of a game.
ACTION_FLAGS: Mapping[str, str] = {
    "offer": "draw_offer", "abort": "abort", "takeback": "takeback", "give_time": "give_time",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A resignation, a draw offer, an abort, a takeback offer or time given as a client asked
    for it, with its conditions."""

    action: Action
    player: Player | None = None
    expected_version: int | None = None
    idempotency_key: str | None = None
    seconds: int = 0  # the time given (give_time)

    def fingerprint(self) -> str:
        if self.action == "give_time":
            return f"{self.action}:{self.player or ''}:{self.seconds}"
        return f"{self.action}:{self.player or ''}"


# --- answers --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameState:
    id: str
    kind: str
    facts: Mapping[str, object]  # the kind's own fields, e.g. {"n": 3}
    status: Status
    winner: Winner
    reason: Reason | None  # why the game ended; None while it goes on
    next_player: Player | None
    version: int  # changes so far: moves, draw offers, an ending
    move_count: int
    last_move: Move | None
    draw_offer: Player | None = None  # the player whose draw offer stands
    clock: ClockState | None = None
    lobby: bool = False  # created open: its state says ``open_seat``
    open_seat: Player | None = None  # the seat nobody has taken yet (an open game's)
    joined: int | None = None  # the version the open seat was taken at
    # When the game is aborted if the player to move has not made their first move (ms since
    # the epoch: ``first_move_seconds``); None when no first move is due.
    first_move_due: int | None = None
    disabled: frozenset[str] = frozenset()  # the rule flags the game was created without
    private: bool = False  # read only with a player's or a spectator's token
    rematch_offer: Player | None = None  # the player whose rematch offer stands
    rematch: str | None = None  # the id of the rematch, once both offered
    takeback_offer: Player | None = None  # the player whose takeback offer stands
    last_takeback: int | None = None  # the version of the last takeback accepted, if any
    # The instant of the game's last change (ms since the epoch, the store's time; None where
    # no time is kept: an audit's replay, a game stored before changes kept it).
    at_ms: int | None = None
    last_given: int | None = None  # the version of the last gift of time, if any (streams')
    joined_ms: int | None = None  # when the open seat was taken (ms), if kept
    created_ms: int | None = None  # when the game was created (ms; the store's time), if kept
    names: tuple[str | None, str | None] = (None, None)  # what seats 1 and 2 are called
    players: tuple[str | None, str | None] = (None, None)  # the players (ids) holding them
    pool: str | None = None  # a rated game's pool: its result updates its players' ratings there
    tournament: str | None = None  # the tournament the game is a board of (its result is one)

    @property
    def ended_version(self) -> int:
        """The version at which the game ended (its version while it goes on): the changes
        after the end are a rematch's, its offer and its creation."""
        return self.version - (self.rematch_offer is not None) - 2 * (self.rematch is not None)

    @property
    def deadline_ms(self) -> int | None:
        """The next instant the game ends by itself unless a player acts first: the running
        clock's flag fall, or a first move's deadline."""
        clock = None if self.clock is None else self.clock.deadline_ms
        due = self.first_move_due
        if clock is None or due is None:
            return due if clock is None else clock
        return min(clock, due)


@dataclass(frozen=True, slots=True)
class Rematch:
    """A player's seat and token in the rematch of a game: its id, the seat (the other one than
    in this game: colours swapped) and the token, shown to that player alone."""

    id: str
    player: Player
    token: str


@dataclass(frozen=True, slots=True)
class RematchAnswer:
    """The answer to a rematch offer: the caller's seat in the rematch once both offered (None
    while only the caller's offer stands), and the game's state."""

    rematch: Rematch | None
    state: GameState


@dataclass(frozen=True, slots=True)
class JoinResult:
    """A join's answer: the seat taken, its token (shown to the joiner alone), the game after
    it, and whether this is the answer to a retry (the same ``Idempotency-Key``)."""

    player: Player
    token: str
    state: GameState
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class LegalMovesPage:
    """A page of a game's legal moves at a version: the player to move (None once the game is
    over, however it ended: then there are none), and the page (``LegalMoves``)."""

    id: str
    kind: str
    version: int
    player: Player | None
    legal: LegalMoves


@dataclass(frozen=True, slots=True)
class MoveResult:
    winner: Winner
    move: Move
    state: GameState
    replayed: bool = False  # the answer to a retried request (same Idempotency-Key and body)


@dataclass(frozen=True, slots=True)
class ActionResult:
    state: GameState
    replayed: bool = False
