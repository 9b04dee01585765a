"""Why a session request is refused. Each carries its stable ``code``; problems.py maps status."""

from __future__ import annotations

from app.rules.errors import RuleError


class GameNotFound(RuleError):
    code = "game_not_found"
    title = "Game not found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r} (it may have ended by deletion or expired)")


class MoveNotFound(RuleError):
    code = "move_not_found"
    title = "Move not found"

    def __init__(self, game_id: str, seq: int) -> None:
        super().__init__(f"game {game_id!r} has no move {seq}")


class Unauthorized(RuleError):
    code = "unauthorized"
    title = "Missing or invalid token"

    def __init__(self, detail: str = "a player's bearer token for this game is required") -> None:
        super().__init__(detail)


class WrongPlayer(RuleError):
    code = "wrong_player"
    title = "Token is for the other player"

    def __init__(self, token_player: int, claimed: int) -> None:
        self.token_player, self.claimed = token_player, claimed
        super().__init__(f"this token is player {token_player}'s, the move claims player {claimed}")


class OutOfBounds(RuleError):
    code = "out_of_bounds"
    title = "Cell outside the board"

    def __init__(self, row: int, col: int, n: int) -> None:
        self.row, self.col, self.n = row, col, n
        super().__init__(f"({row}, {col}) is outside the {n} × {n} board (0 … {n - 1})")


class NotYourTurn(RuleError):
    code = "not_your_turn"
    title = "Not your turn"

    def __init__(self, player: int, next_player: int) -> None:
        self.player, self.next_player = player, next_player
        super().__init__(f"player {next_player} moves next, not player {player}")

    def details(self) -> dict[str, object]:
        return {"next_player": self.next_player}


class CellOccupied(RuleError):
    code = "cell_occupied"
    title = "Cell occupied"

    def __init__(self, row: int, col: int) -> None:
        self.row, self.col = row, col
        super().__init__(f"cell ({row}, {col}) already holds a mark")


class GameOver(RuleError):
    code = "game_over"
    title = "Game over"

    def __init__(self, status: str, winner: int) -> None:  # winner 0 means a draw
        self.status, self.winner = status, winner
        outcome = f"player {winner} won" if winner else "it was drawn"
        super().__init__(f"the game is over: {outcome}")

    def details(self) -> dict[str, object]:
        return {"game_status": self.status, "winner": self.winner}


class CapacityExhausted(RuleError):
    code = "capacity_exhausted"
    title = "Too many live games"

    def __init__(self, limit: int, retry_after: int) -> None:
        self.limit, self.retry_after = limit, retry_after
        super().__init__(f"the store holds its maximum of {limit} live games; retry later")


class BoardTooLarge(RuleError):
    code = "board_too_large"
    title = "Board too large to render"

    def __init__(self, n: int, limit: int) -> None:
        self.n, self.limit = n, limit
        super().__init__(f"the board is {n} × {n}; it is rendered only up to {limit} × {limit}")


class StoreUnavailable(RuleError):
    code = "store_unavailable"
    title = "Game store unavailable"

    def __init__(self, detail: str = "the game store does not answer; retry later") -> None:
        super().__init__(detail)


class PreconditionFailed(RuleError):
    code = "precondition_failed"
    title = "The game has moved on"

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(f"If-Match does not match the game, which is at version {version}")

    def details(self) -> dict[str, object]:
        return {"version": self.version}


class IdempotencyKeyReused(RuleError):
    code = "idempotency_key_reused"
    title = "Idempotency-Key reused with a different body"

    def __init__(self) -> None:
        super().__init__("this Idempotency-Key was first used with a different move")
