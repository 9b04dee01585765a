"""The generic session: what every game shares, whatever its kind.

A ``Session`` is one game: its id and kind, the hashes of its two players' tokens, its position
(the kind's part, ``kind.Position``) and the receipts of requests sent with an
``Idempotency-Key``. ``Session.play`` is the one statement of the move policy both stores
follow — authenticate, replay a receipt, check ``player`` and ``If-Match``, let the position
apply the move or refuse it, remember the answer — and snapshots (``GameState``,
``MoveResult``) are the immutable values the HTTP edge renders.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.errors import (
    REMEMBERED_REFUSALS,
    GameOver,
    IdempotencyKeyReused,
    PreconditionFailed,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.kind import (
    GameKind,
    Move,
    Placement,
    Player,
    Position,
    Reason,
    Status,
    Winner,
)
from app.sessions.kinds import find_kind

# Refused requests remembered per game under their Idempotency-Key, at most (accepted moves are
# always remembered: they cost memory anyway).
MAX_REMEMBERED_REFUSALS = 1024


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A move as a client asked for it: the cell, and the conditions it set."""

    placement: Placement
    player: Player | None = None  # claimed in the body; must be the token's
    expected_version: int | None = None  # If-Match; -1 names no version
    idempotency_key: str | None = None

    def fingerprint(self) -> str:
        """What makes two requests under one Idempotency-Key "the same body"."""
        return f"{self.placement.row}:{self.placement.col}:{self.player or ''}"


@dataclass(frozen=True, slots=True)
class GameState:
    id: str
    kind: str
    facts: Mapping[str, object]  # the kind's own fields, e.g. {"n": 3}
    status: Status
    winner: Winner
    reason: Reason | None  # why the game ended; None while it goes on
    next_player: Player | None
    version: int
    move_count: int
    last_move: Move | None


@dataclass(frozen=True, slots=True)
class MoveResult:
    winner: Winner
    move: Move
    state: GameState
    replayed: bool = False  # the answer to a retried request (same Idempotency-Key and body)


def result_at(move: Move, now: GameState) -> MoveResult:
    """The answer a move got when it was accepted, rebuilt from the game as it is ``now``.

    Right after move ``seq`` the game was at version ``seq``, and it was over only if no move
    came after it, so the state at that moment follows from the move and the current state.
    """
    if move.seq == now.version:
        state = replace(now, last_move=move)
    else:  # the game went on: it was in progress, and its kind says how it stood
        next_player, facts = find_kind(now.kind).after(move, now.facts)
        state = replace(
            now, facts=facts, status="in_progress", winner=0, reason=None,
            next_player=next_player, version=move.seq, move_count=move.seq, last_move=move,
        )  # fmt: skip
    return MoveResult(winner=state.winner, move=move, state=state, replayed=True)


@dataclass(frozen=True, slots=True)
class Receipt:
    """The first answer to a request under an Idempotency-Key: the move, or the refusal."""

    fingerprint: str
    outcome: int | DomainError  # the accepted move's seq, or the remembered refusal


@dataclass(slots=True)
class Session:
    id: str
    kind: GameKind
    params: Mapping[str, object]
    token_hashes: tuple[str, str]  # players 1 and 2
    position: Position
    max_moves: int  # the game ends in a draw (``move_limit``) at its max_moves-th move
    receipts: dict[str, Receipt] = field(default_factory=dict)  # "player:key" -> receipt
    refusals: int = 0  # receipts of refusals, bounded by MAX_REMEMBERED_REFUSALS
    # The last snapshot: polling reads it far more often than moves change it.
    _snapshot: GameState | None = field(default=None, repr=False)

    @property
    def version(self) -> int:
        """Changes of the game so far: its accepted moves."""
        return self.position.move_count

    @property
    def at_move_limit(self) -> bool:
        """The game went on to its last allowed move: it is drawn (``move_limit``)."""
        position = self.position
        return position.status == "in_progress" and position.move_count >= self.max_moves

    def player_of(self, token: str) -> Player:
        """The player whose token this is, or Unauthorized."""
        digest = tokens.token_hash(token)
        # Compare with both hashes, always, so timing does not tell which one matched.
        first = tokens.matches(digest, self.token_hashes[0])
        second = tokens.matches(digest, self.token_hashes[1])
        if first:
            return 1
        if second:
            return 2
        raise Unauthorized("the token is not valid for this game")

    def state(self) -> GameState:
        snapshot = self._snapshot
        if snapshot is not None and snapshot.version == self.version:
            return snapshot  # every change of the game is a new version
        position = self.position
        count = position.move_count
        limited = self.at_move_limit
        self._snapshot = GameState(
            id=self.id,
            kind=self.kind.name,
            facts=position.facts(),
            status="draw" if limited else position.status,
            winner=position.winner,
            reason="move_limit" if limited else position.reason,
            next_player=None if limited else position.next_player,
            version=self.version,
            move_count=count,
            last_move=position.move(count) if count else None,
        )
        return self._snapshot

    def answered(self, request: MoveRequest, token: str) -> bool:
        """Whether this request was answered before (a receipt under its key); Unauthorized
        for a token of neither player."""
        player = self.player_of(token)
        key = request.idempotency_key
        return key is not None and f"{player}:{key}" in self.receipts

    def play(self, request: MoveRequest, token: str) -> MoveResult:
        """Authenticate, then answer the move as the rules and the receipts say.

        Raises Unauthorized, IdempotencyKeyReused, or the refusal (remembered under the key).
        """
        player = self.player_of(token)
        key = None if request.idempotency_key is None else f"{player}:{request.idempotency_key}"
        body = request.fingerprint()
        if key is not None and key in self.receipts:
            receipt = self.receipts[key]
            if receipt.fingerprint != body:
                raise IdempotencyKeyReused()
            if isinstance(receipt.outcome, DomainError):
                raise receipt.outcome.copy(replayed=True)
            return result_at(self.position.move(receipt.outcome), self.state())
        try:
            if request.player is not None and request.player != player:
                raise WrongPlayer(player, request.player)
            if request.expected_version is not None and request.expected_version != self.version:
                raise PreconditionFailed(self.version)
            if self.at_move_limit:
                raise GameOver("draw", 0)
            move = self.position.play(request.placement, player)
        except REMEMBERED_REFUSALS as refusal:
            if key is not None and self.refusals < MAX_REMEMBERED_REFUSALS:
                self.receipts[key] = Receipt(body, refusal.copy())
                self.refusals += 1
            raise
        if key is not None:
            self.receipts[key] = Receipt(body, move.seq)
        state = self.state()
        return MoveResult(winner=state.winner, move=move, state=state)
