"""Why a session request is refused or cannot be served, grouped by meaning.

* ``RuleError`` (from the rules): the move breaks a rule of the game — out of bounds, not your
  turn, cell occupied, game over.
* ``AccessDenied``: the request does not prove it may act for a player of this game.
* ``RequestConflict``: the request's own conditions do not hold (``If-Match``, a reused
  ``Idempotency-Key``).
* ``NotFound``: no such game or move.
* ``Unavailable``: the store cannot take the request now (full, or not answering).
* ``BoardTooLarge``: the board exists but is not rendered at that size.

Each concrete error carries its stable ``code``; ``api/problems.py`` gives it a status and title.
"""

from __future__ import annotations

from typing import ClassVar

from app.rules.errors import CellError, DomainError, RuleError


class OutOfBounds(RuleError):
    code = "out_of_bounds"

    def __init__(self, row: int, col: int, n: int, width: int | None = None) -> None:
        """Outside an n × n board, or an n × width one (n rows)."""
        self.row, self.col, self.n = row, col, n
        if width is None:
            super().__init__(f"({row}, {col}) is outside the {n} × {n} board (0 … {n - 1})")
        else:
            super().__init__(
                f"({row}, {col}) is outside the {n} × {width} board (rows 0 … {n - 1}, "
                f"columns 0 … {width - 1})"
            )


class NotYourTurn(RuleError):
    code = "not_your_turn"

    def __init__(self, player: int, next_player: int) -> None:
        self.player, self.next_player = player, next_player
        super().__init__(f"player {next_player} moves next, not player {player}")

    def details(self) -> dict[str, object]:
        return {"next_player": self.next_player}


class CellOccupied(CellError):
    code = "cell_occupied"

    def saying(self, cell: str) -> str:
        return f"cell {cell} already holds a mark"


class GameOver(RuleError):
    code = "game_over"

    reason: str | None = None  # (receipts kept before reasons were restored without one)
    # How each reason reads after "player 1 won" or "it was drawn".
    HOW: ClassVar[dict[str, str]] = {
        "line": " (a line)", "board_full": " (the board is full)", "no_moves": " (no moves)",
        "foul": " (a forbidden move by Black)", "passes": " (two passes in a row)",
        "dead_position": " (no line could still be completed)",
        "move_limit": " (the move limit)", "timeout": " on time", "resignation": " by resignation",
        "agreement": " by agreement", "aborted": " by a player",
        "no_first_move": ": a first move was not made in time",
    }  # fmt: skip

    def __init__(self, status: str, winner: int, reason: str | None = None) -> None:
        """``winner`` 0 means a draw; ``reason`` is why the game ended, where known."""
        self.status, self.winner, self.reason = status, winner, reason
        outcome = (
            "it was aborted" if status == "aborted" else f"player {winner} won" if winner
            else "it was drawn"
        )  # fmt: skip
        super().__init__(f"the game is over: {outcome}{self.HOW.get(reason or '', '')}")

    def details(self) -> dict[str, object]:
        found: dict[str, object] = {"game_status": self.status, "winner": self.winner}
        if self.reason is not None:
            found["reason"] = self.reason
        return found


class PassRefused(RuleError):
    """An explicit pass in a record of a kind whose passes are inferred: a player may
    pass only when it has no legal move, which the move before says (its ``passed``)."""

    code = "illegal_move"

    def __init__(self, player: int) -> None:
        self.player = player
        super().__init__(f"player {player} has a legal move and may not pass")

    def details(self) -> dict[str, object]:
        return {"reason": "pass_with_moves"}


class PassNotAllowed(RuleError):
    """A pass in a game whose rule has none: the mover must place a stone."""

    code = "illegal_move"

    def __init__(self, rule: str) -> None:
        self.rule = rule
        super().__init__(f"a {rule} game has no passes (only renju lets a player pass)")

    def details(self) -> dict[str, object]:
        return {"reason": "no_passes"}


# A choice in a game whose colours were fixed at creation (without an opening rule): the
# refusal both the kind and the Redis fast path give.
NO_OPENING_CHOICE = "this game has no swap2 opening: its colours were fixed at creation"


class WrongStep(RuleError):
    """A request the game's step does not take: a stone while an opening rule waits for a choice
    (swap2's colour), a choice while it waits for stones or once the colours are fixed, or a
    choice in a game whose kind has none. ``step`` is the step the game is at (None: no opening
    step is pending)."""

    code = "wrong_step"

    def __init__(self, why: str, step: str | None = None) -> None:
        self.why, self.step = why, step
        super().__init__(why)

    def details(self) -> dict[str, object]:
        return {"step": self.step}


class WaitingForOpponent(RuleError):
    """A move or an action in an open game whose free seat nobody has taken yet: the game
    begins when someone joins (``POST /v1/games/{id}/join``)."""

    code = "waiting_for_opponent"

    def __init__(self, open_seat: int) -> None:
        self.open_seat = open_seat
        super().__init__(
            f"player {open_seat}'s seat is open: the game begins when someone joins it"
        )

    def details(self) -> dict[str, object]:
        return {"open_seat": self.open_seat}


class SeatTaken(RuleError):
    """A join of a game that has no free seat (never open, or taken already)."""

    code = "seat_taken"

    def __init__(self, detail: str = "this game has no free seat: both players are seated") -> None:
        super().__init__(detail)


# A join of a rated game without a player's key (Unauthorized): its seats are players'.
PLAYER_NEEDED = "a rated game's seats are taken by players: join it with a player's key"
# A player joining the game whose other seat it holds (SeatTaken): it plays with another.
OWN_GAME = "this player holds the game's other seat: a game is played by two players"


# The actions a game may be created without (``"rules": {"<action>": false}``), each with
# what it is called in words: the one list of rule flags.
RULE_FLAGS: dict[str, str] = {
    "abort": "aborting", "takeback": "takebacks", "rematch": "rematches",
    "draw_offer": "draw offers", "give_time": "giving time",
}  # fmt: skip


# Why an action is not allowed besides the game's rules: a rematch of a game whose open seat
# nobody ever took; time given in a game without clocks, or past the most gifts a game may have
# (the ``game_time_gifts`` setting).
NO_OPPONENT = "no_opponent"
NO_CLOCK = "no_clock"
TOO_MANY_GIFTS = "too_many_gifts"


class ActionNotAllowed(RuleError):
    """An action the game was created without (``"rules": {"<action>": false}``), or that it
    cannot have (``why``: ``no_opponent``, a rematch of a game nobody joined)."""

    code = "action_not_allowed"

    def __init__(self, action: str, why: str = "") -> None:
        self.action, self.why = action, why
        if why == NO_OPPONENT:
            super().__init__(
                "nobody ever took this game's open seat: there is nobody to play again"
            )
        elif why == NO_CLOCK:
            super().__init__("this game has no clock: there is no time to give")
        elif why == TOO_MANY_GIFTS:
            super().__init__("this game has had its most gifts of time")
        else:
            super().__init__(f"this game was created without {RULE_FLAGS[action]} (its rules)")

    def details(self) -> dict[str, object]:
        return {"action": self.action, **({"why": self.why} if self.why else {})}


class GameNotOver(RuleError):
    """A rematch offered while the game goes on: it is offered after the end."""

    code = "game_not_over"

    def __init__(self) -> None:
        super().__init__("the game goes on: a rematch is offered once it is over")


class TooLateToAbort(RuleError):
    """An abort once the players have made two moves: the game can only be resigned now."""

    code = "too_late_to_abort"

    def __init__(self) -> None:
        super().__init__("two moves were made: the game can no longer be aborted (resign)")


class NothingToTakeBack(RuleError):
    """A takeback offered by a player who has no move of its own that may be taken back (it has
    not moved yet, or only in the game's opening)."""

    code = "nothing_to_take_back"

    def __init__(self, player: int) -> None:
        self.player = player
        super().__init__(
            f"player {player} has made no move that can be taken back (an opening's cannot)"
        )

    def details(self) -> dict[str, object]:
        return {"player": self.player}


class AccessDenied(DomainError):
    """The request does not prove it may act for this player of this game."""


class Unauthorized(AccessDenied):
    code = "unauthorized"

    def __init__(self, detail: str = "a player's bearer token for this game is required") -> None:
        super().__init__(detail)


class WrongPlayer(AccessDenied):
    code = "wrong_player"

    def __init__(self, token_player: int, claimed: int) -> None:
        self.token_player, self.claimed = token_player, claimed
        super().__init__(f"this token is player {token_player}'s, the move claims player {claimed}")


class SpectatorToken(WrongPlayer):
    """A spectator token sent to act: it reads the game, it never plays (403 ``wrong_player``)."""

    def __init__(self) -> None:
        self.token_player, self.claimed = 0, 0
        DomainError.__init__(self, "this is a spectator token: it reads the game, never acts")


class NotYours(WrongPlayer):
    """A player's key sent for what is another player's: its seek, the challenge made to
    another (or by another), another's event stream (403 ``wrong_player``)."""

    def __init__(self, what: str) -> None:
        self.token_player, self.claimed = 0, 0
        DomainError.__init__(self, f"this key is not the player's whose {what} this is")


# A private game read without a player's or a spectator's token.
PRIVATE_GAME = "this game is private: a player's or a spectator's bearer token is required"


class TooManySpectators(RuleError):
    """A spectator token asked of a game that has issued its most."""

    code = "too_many_spectators"

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"this game has issued its most spectator tokens ({limit})")

    def details(self) -> dict[str, object]:
        return {"limit": self.limit}


class RequestConflict(DomainError):
    """A condition the request set for itself does not hold."""


class PreconditionFailed(RequestConflict):
    code = "precondition_failed"

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(f"If-Match does not match the game, which is at version {version}")

    def details(self) -> dict[str, object]:
        return {"version": self.version}


class IdempotencyKeyReused(RequestConflict):
    code = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__("this Idempotency-Key was first used with a different move")


class NotFound(DomainError):
    """No such resource (any more)."""


class GameNotFound(NotFound):
    code = "game_not_found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r} (it may have ended by deletion or expired)")


class TournamentNotFound(NotFound):
    code = "tournament_not_found"

    def __init__(self, tournament_id: str) -> None:
        super().__init__(f"no tournament {tournament_id!r}")


class NotOrganiser(AccessDenied):
    """A tournament's change asked by a player who is not its organiser."""

    code = "not_organiser"

    def __init__(self) -> None:
        super().__init__("only the tournament's organiser (its key) pairs, enters and withdraws")


class TournamentRefused(RuleError):
    """A change a tournament cannot take now: a round while the one before has an unfinished
    game (or while another request pairs it), a round past the last, an entrant after round 1
    or entered already, or past the most entrants."""

    code = "tournament_refused"


class PlayerNotFound(NotFound):
    code = "player_not_found"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"no player {player_id!r}")


class SeekNotFound(NotFound):
    code = "seek_not_found"

    def __init__(self, seek_id: str) -> None:
        super().__init__(f"no seek {seek_id!r} (matched, withdrawn, or never made)")


class ChallengeNotFound(NotFound):
    code = "challenge_not_found"

    def __init__(self, challenge_id: str) -> None:
        super().__init__(
            f"no challenge {challenge_id!r} (accepted, declined, withdrawn, or never made)"
        )


class MoveNotFound(NotFound):
    code = "move_not_found"

    def __init__(self, game_id: str, seq: int) -> None:
        super().__init__(f"game {game_id!r} has no move {seq}")


class Unavailable(DomainError):
    """The store cannot take this request now; the same request may succeed later."""


class CapacityExhausted(Unavailable):
    code = "capacity_exhausted"

    def __init__(self, limit: int, retry_after: int, what: str = "live games") -> None:
        self.limit, self.retry_after = limit, retry_after
        super().__init__(f"the store holds its maximum of {limit} {what}; retry later")


class TooManyStreams(Unavailable):
    code = "too_many_streams"

    def __init__(self, where: str, limit: int, retry_after: int, evicted: bool = False) -> None:
        """``evicted``: an open stream gave its place to another client's (``where`` and
        ``limit`` are then not said)."""
        self.limit, self.retry_after = limit, retry_after
        if evicted:
            super().__init__(
                "this stream gave its place to another client's: this client address holds "
                "more than its share of the open event streams; poll, or reconnect later"
            )
        else:
            super().__init__(
                f"{where} holds its maximum of {limit} open event streams; retry later"
            )


class StoreUnavailable(Unavailable):
    """The store did not answer. For a request that changes a game, ``may_have_applied`` says
    whether it may still have been applied (the store may have run it, its answer lost) or
    surely was not (the store refused it, or was never reached)."""

    code = "store_unavailable"
    may_have_applied: bool | None = None
    MAY_HAVE: ClassVar[str] = (
        "the game store did not answer in time: this request may have been applied; send it "
        "again with the same Idempotency-Key to learn its answer (it is applied at most once), "
        "or read the game"
    )
    NOT_APPLIED: ClassVar[str] = (
        "the game store could not be reached: this request was not applied; retry later"
    )

    def __init__(
        self,
        detail: str = "the game store does not answer; retry later",
        may_have_applied: bool | None = None,
    ) -> None:
        if may_have_applied is not None:
            detail = self.MAY_HAVE if may_have_applied else self.NOT_APPLIED
        self.may_have_applied = may_have_applied
        super().__init__(detail)

    def details(self) -> dict[str, object]:
        if self.may_have_applied is None:
            return {}
        return {"may_have_been_applied": self.may_have_applied}


class BoardTooLarge(DomainError):
    code = "board_too_large"

    def __init__(self, n: int, limit: int) -> None:
        self.n, self.limit = n, limit
        super().__init__(f"the board is {n} × {n}; it is rendered only up to {limit} × {limit}")


# Refusals a store remembers under an Idempotency-Key, so that a retry is refused the same way:
# the answer depended on the game and the request only. Access and availability problems are
# not remembered (they are not answers about this move).
REMEMBERED_REFUSALS: tuple[type[DomainError], ...] = (RuleError, WrongPlayer, PreconditionFailed)
