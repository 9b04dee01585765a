"""The GameStore port and its embedded default, the in-memory store.

The unit of work is "apply this move to game X if it is legal, and return the result" — the
store authenticates the token, checks the rules and applies the move as one atomic step. Routers
never read a game, mutate it and write it back, so a store on another engine (Redis, with a
server-side script) can offer the same guarantee: no accepted move lost or applied twice.

The in-memory store is atomic because its methods never ``await`` between reading and writing:
on one event loop, each call runs to completion before the next starts. It lives in one process,
so the service must run with a single worker when using it.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Protocol

from app.rules.errors import RuleError
from app.rules.lines import Player
from app.sessions import tokens
from app.sessions.errors import (
    CapacityExhausted,
    GameNotFound,
    IdempotencyKeyReused,
    MoveNotFound,
    PreconditionFailed,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.game import Game, GameState, Move, MoveResult, result_at

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class CreatedGame:
    state: GameState
    tokens: tuple[str, str]  # players 1 and 2, shown once; the store keeps hashes only


class GameStore(Protocol):
    """Where live games are kept. Every method is atomic with respect to the others."""

    async def create(self, n: int) -> CreatedGame:
        """A new game; raises CapacityExhausted when full."""
        ...

    async def state(self, game_id: str) -> GameState:
        """Raises GameNotFound."""
        ...

    async def play(
        self,
        game_id: str,
        token: str,
        row: int,
        col: int,
        player: Player | None,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveResult:
        """Authenticate ``token``, check the move for its player, apply it — or change nothing.

        With ``idempotency_key``, a request already answered for this game and player gets the
        first answer again (``replayed``), or IdempotencyKeyReused if its move differs. With
        ``expected_version``, the move applies only at that version (else PreconditionFailed).
        Raises GameNotFound, Unauthorized, WrongPlayer (``player`` given and not the token's),
        or the Game's rule errors.
        """
        ...

    async def moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        """Moves with ``seq > since`` (at most ``limit``), and the game's version."""
        ...

    async def move(self, game_id: str, seq: int) -> Move:
        """Raises GameNotFound or MoveNotFound."""
        ...

    async def rows(self, game_id: str) -> list[str]:
        """The board as strings (the caller bounds n)."""
        ...

    async def delete(self, game_id: str, token: str) -> None:
        """Either player's token; raises GameNotFound or Unauthorized."""
        ...

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        """Return once the game is past ``version`` (or gone), or after ``timeout`` seconds.

        A hint for push streams, not a guarantee: callers read the store again afterwards.
        """
        ...

    async def ready(self) -> bool:
        """True while the store can serve requests."""
        ...

    async def live_games(self) -> int:
        """How many games the store holds now."""
        ...

    async def close(self) -> None:
        """Release connections (at shutdown)."""
        ...


# Refused requests remembered per game under their Idempotency-Key, at most (accepted moves are
# always remembered: they cost memory anyway).
MAX_REMEMBERED_REFUSALS = 1024


def fingerprint(row: int, col: int, player: Player | None) -> str:
    """What makes two move requests "the same body"."""
    return f"{row}:{col}:{player or ''}"


@dataclass(slots=True)
class _Entry:
    game: Game
    touched: float
    # player:key -> (fingerprint, seq of the accepted move, or the refusal)
    receipts: dict[str, tuple[str, int | RuleError]] = field(default_factory=dict)
    refusals: int = 0


class MemoryGameStore:
    """Games in a dict in this process. Bounded in count; idle games expire.

    A game is *touched* when created and on every accepted move; reads do not extend its life,
    so a poller cannot keep an abandoned game alive. Entries are kept in touch order, so expired
    games are always at the front and are purged in amortised O(1) per call.
    """

    def __init__(self, max_games: int, idle_seconds: float, clock: Clock = time.monotonic) -> None:
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._games: OrderedDict[str, _Entry] = OrderedDict()
        self._watchers: dict[str, asyncio.Event] = {}  # game id -> set at its next change

    def __len__(self) -> int:
        self._expire()
        return len(self._games)

    def _expire(self) -> None:
        deadline = self.clock() - self.idle_seconds
        while self._games:
            entry = next(iter(self._games.values()))
            if entry.touched > deadline:
                break
            game_id, _ = self._games.popitem(last=False)
            self._notify(game_id)

    def _notify(self, game_id: str) -> None:
        event = self._watchers.pop(game_id, None)
        if event is not None:
            event.set()

    def _game(self, game_id: str) -> Game:
        self._expire()
        entry = self._games.get(game_id)
        if entry is None:
            raise GameNotFound(game_id)
        return entry.game

    def _player(self, game: Game, token: str) -> Player:
        digest = tokens.token_hash(token)
        # Compare with both hashes, always, so timing does not tell which one matched.
        first = tokens.matches(digest, game.token_hashes[0])
        second = tokens.matches(digest, game.token_hashes[1])
        if first:
            return 1
        if second:
            return 2
        raise Unauthorized("the token is not valid for this game")

    async def create(self, n: int) -> CreatedGame:
        self._expire()
        if len(self._games) >= self.max_games:
            oldest = next(iter(self._games.values()))
            retry = math.ceil(oldest.touched + self.idle_seconds - self.clock())
            raise CapacityExhausted(self.max_games, max(1, retry))
        secrets = (tokens.new_token(), tokens.new_token())
        game_id = tokens.new_game_id()
        game = Game(game_id, n, (tokens.token_hash(secrets[0]), tokens.token_hash(secrets[1])))
        self._games[game_id] = _Entry(game, self.clock())
        return CreatedGame(game.state(), secrets)

    async def state(self, game_id: str) -> GameState:
        return self._game(game_id).state()

    async def play(
        self,
        game_id: str,
        token: str,
        row: int,
        col: int,
        player: Player | None,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> MoveResult:
        game = self._game(game_id)
        entry = self._games[game_id]
        token_player = self._player(game, token)
        receipt = None if idempotency_key is None else f"{token_player}:{idempotency_key}"
        body = fingerprint(row, col, player)
        if receipt is not None and receipt in entry.receipts:
            first_body, outcome = entry.receipts[receipt]
            if first_body != body:
                raise IdempotencyKeyReused()
            if isinstance(outcome, RuleError):
                raise outcome
            return result_at(game.id, game.n, game.move(outcome), game.state())
        try:
            if player is not None and player != token_player:
                raise WrongPlayer(token_player, player)
            if expected_version is not None and expected_version != game.version:
                raise PreconditionFailed(game.version)
            result = game.play(row, col, token_player)
        except RuleError as refusal:
            if receipt is not None and entry.refusals < MAX_REMEMBERED_REFUSALS:
                entry.receipts[receipt] = (body, refusal)
                entry.refusals += 1
            raise
        if receipt is not None:
            entry.receipts[receipt] = (body, result.move.seq)
        entry.touched = self.clock()
        self._games.move_to_end(game_id)
        self._notify(game_id)
        return result

    async def moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        game = self._game(game_id)
        return game.moves(since, limit), game.version

    async def move(self, game_id: str, seq: int) -> Move:
        game = self._game(game_id)
        if not 1 <= seq <= game.version:
            raise MoveNotFound(game_id, seq)
        return game.move(seq)

    async def rows(self, game_id: str) -> list[str]:
        return self._game(game_id).rows()

    async def delete(self, game_id: str, token: str) -> None:
        game = self._game(game_id)
        self._player(game, token)
        del self._games[game_id]
        self._notify(game_id)

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        if self._game(game_id).version > version:
            return
        event = self._watchers.setdefault(game_id, asyncio.Event())
        with suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    async def ready(self) -> bool:
        return True

    async def live_games(self) -> int:
        return len(self)

    async def close(self) -> None:
        return None
