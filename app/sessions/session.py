"""The generic session: what every game shares, whatever its kind.

A ``Session`` is one game: its id and kind, the hashes of its two players' tokens, its position
(the kind's part, ``kind.Position``), its version (every change of the game counts: a move, a
draw offer, an ending), the endings a referee decides (a flag fall, a resignation, a draw by
agreement), its clocks (``clock.py``) and the receipts of requests sent with an
``Idempotency-Key`` (``receipts.py``). ``Session.play`` and ``Session.act`` are the one
statement of the policy both stores follow — authenticate, replay a receipt, check ``player``
and ``If-Match``, refuse after the end, let the position apply the move or refuse it, remember
the answer — on the requests of ``exchange.py``, answered with its snapshots (a retry's answer
rebuilt as ``past.py`` says).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.clock import Clocks
from app.sessions.errors import (
    NO_CLOCK,
    NO_OPPONENT,
    OWN_GAME,
    PLAYER_NEEDED,
    PRIVATE_GAME,
    REMEMBERED_REFUSALS,
    TOO_MANY_GIFTS,
    ActionNotAllowed,
    GameNotOver,
    GameOver,
    IdempotencyKeyReused,
    NothingToTakeBack,
    PreconditionFailed,
    SeatTaken,
    SpectatorToken,
    TooLateToAbort,
    TooManySpectators,
    Unauthorized,
    WaitingForOpponent,
    WrongPlayer,
)
from app.sessions.exchange import (
    ACTION_FLAGS,
    ActionRequest,
    ActionResult,
    GameState,
    JoinResult,
    LegalMovesPage,
    MoveRequest,
    MoveResult,
    Rematch,
)
from app.sessions.kind import (
    NO_LEGAL_MOVES,
    ClockReading,
    GameKind,
    Move,
    Player,
    Position,
    Reason,
    Status,
    Winner,
    board_size,
    other,
)
from app.sessions.past import Gift, result_at, state_at_gift, state_at_takeback
from app.sessions.receipts import (
    ANY_VERSION,
    JOIN,
    Answered,
    Receipt,
    join_receipt_key,
    receipt_key,
)


def player_by_hash(token_hashes: tuple[str, str], token: str) -> Player:
    """The player (1 or 2) whose token hash this token has, or Unauthorized."""
    return player_by_digest(token_hashes, tokens.token_hash(token))


def player_by_digest(token_hashes: tuple[str, str], digest: str) -> Player:
    """The player (1 or 2) whose token hash is ``digest``, or Unauthorized."""
    # Compare with both hashes, always, so timing does not tell which one matched.
    first = tokens.matches(digest, token_hashes[0])
    second = tokens.matches(digest, token_hashes[1])
    if first:
        return 1
    if second:
        return 2
    raise Unauthorized("the token is not valid for this game")


@dataclass(frozen=True, slots=True)
class Terms:
    """What a game's creation says of its life beyond its kind's rules: the first-move deadline
    (seconds), the rule flags set false (``errors.RULE_FLAGS``), whether it is private, and
    the pool of a rated game (its result updates its players' ratings there; None: not rated),
    and the tournament it is a board of (its result is one)."""

    first_move_seconds: int | None = None
    disabled: frozenset[str] = frozenset()
    private: bool = False
    pool: str | None = None
    tournament: str | None = None

    def onto(self, session: Session, now_ms: int) -> None:
        """A new game's ``session`` takes these terms at ``now_ms``, its creation."""
        session.disabled, session.private = self.disabled, self.private
        session.pool, session.tournament = self.pool, self.tournament
        if self.first_move_seconds is not None:
            session.first_move_ms = self.first_move_seconds * 1000
            session.first_turn(now_ms)


# A game's bounds by default (each a setting: ADJUDICATOR_MAX_MOVES_PER_GAME — the last move
# is a draw —, ADJUDICATOR_MAX_REFUSALS_PER_GAME: answers other than accepted moves a game
# remembers under their Idempotency-Key, ADJUDICATOR_GAME_SPECTATORS and
# ADJUDICATOR_GAME_TIME_GIFTS: the gifts of time, POST /v1/games/{id}/give-time, it may have).
DEFAULT_MAX_MOVES = 10_000
DEFAULT_MAX_REFUSALS = 32
DEFAULT_GAME_SPECTATORS = 50
DEFAULT_GAME_TIME_GIFTS = 100

NO_TERMS = Terms()


# The players' moves (an opening's are not theirs) from which a game can no longer be aborted.
ABORT_BEFORE_MOVES = 2

# The actions whose answers are kept under their Idempotency-Key as moves are, whatever
# ``max_refusals`` says (game.lua's ``remember(…, always)``).
KEPT_ACTIONS = frozenset({"takeback", "give_time"})

# The numbers of one move's clock reading (``Session._readings``).
READING = 5


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ended by the session's rules rather than its kind's."""

    status: Status
    winner: Winner
    reason: Reason


@dataclass(slots=True)
class Session:
    id: str
    kind: GameKind
    params: Mapping[str, object]
    token_hashes: tuple[str, str]  # players 1 and 2
    position: Position
    max_moves: int  # the game ends in a draw (``move_limit``) at its max_moves-th move
    # Answers other than accepted moves remembered under their Idempotency-Key, at most
    # (accepted moves are always remembered: they cost memory anyway).
    max_refusals: int = DEFAULT_MAX_REFUSALS
    version: int = 0
    ending: Ending | None = None  # a flag fall, a resignation, a draw by agreement
    draw_offer: Player | None = None
    clocks: Clocks | None = None  # the clocks of a clocked game (kept here by the memory store)
    receipts: dict[str, Receipt] = field(default_factory=dict)  # receipt_key -> receipt
    refusals: int = 0  # receipts other than accepted moves, bounded by max_refusals
    # The number of moves made at each change that was no move, in order: move m's version is
    # m plus the number of those made before it (fewer than m moves then).
    _others: list[int] = field(default_factory=list, repr=False)
    # The moves made before the game was handed to the players (an opening's): untimed, they
    # have no clock reading.
    untimed: int = 0
    # Each timed move's clock reading (clocked games), from move ``untimed + 1`` on, READING
    # numbers a move: at, remaining 1, remaining 2, running (0: none), spent. A game without
    # clocks keeps each such move's instant alone (``_times``).
    _readings: array[int] = field(default_factory=lambda: array("q"), repr=False)
    _times: array[int] = field(default_factory=lambda: array("q"), repr=False)
    # The instant of the last change (ms since the epoch), None where no time is kept (0: an
    # audit's replay, which passes no time).
    changed_ms: int | None = None
    max_gifts: int = DEFAULT_GAME_TIME_GIFTS  # gifts of time the game may have
    gifts: int = 0  # gifts of time so far
    last_given: int | None = None  # the version of the last gift of time
    # Every gift of time, in order (at most ``max_gifts``): a stream sends each in its place.
    given: list[Gift] = field(default_factory=list)
    joined_ms: int | None = None  # when the open seat was taken (ms; None: not yet, or no time)
    created_ms: int | None = None  # when it was created (ms; None: no time kept)
    names: tuple[str | None, str | None] = (None, None)  # what seats 1 and 2 are called
    players: tuple[str | None, str | None] = (None, None)  # the players (ids) holding them
    pool: str | None = None  # a rated game's pool (``Terms.pool``); None: not rated
    tournament: str | None = None  # the tournament it is a board of (``Terms.tournament``)
    # The last snapshot: polling reads it far more often than moves change it.
    _snapshot: GameState | None = field(default=None, repr=False)
    # The board's rows and columns, read once (``board_size``): they never change.
    _size: tuple[int, int] | None = field(default=None, repr=False, compare=False)
    lobby: bool = False  # created open (``"open": true``)
    open_seat: Player | None = None  # the seat nobody has taken yet; its token hash is ""
    joined: int | None = None  # the version at which the open seat was taken
    moved: int = 0  # a bit a player who has made a move (1: player 1, 2: player 2)
    first_move_ms: int | None = None  # ``first_move_seconds``, in ms (None: no deadline)
    first_due: int | None = None  # when the game is aborted if the player to move has not moved
    disabled: frozenset[str] = frozenset()  # the rule flags (``RULE_FLAGS``) set false
    private: bool = False
    spectators: set[str] = field(default_factory=set)  # the hashes of its spectator tokens
    rematch_offer: Player | None = None  # the player whose rematch offer stands
    rematch: str | None = None  # the rematch's id, once both offered
    # Each offerer's token in the rematch: its hash (the new game's seat), and the token sealed
    # under the offerer's token here (``tokens.seal``: shown to that player alone, on asking).
    rematch_hashes: dict[int, str] = field(default_factory=dict)
    rematch_sealed: dict[int, str] = field(default_factory=dict)
    takeback_offer: Player | None = None  # the player whose takeback offer stands
    # The moves takebacks took back, by the version right after each (a retry of one under its
    # Idempotency-Key is answered as it was): held as long as the game, as its moves are.
    taken: dict[int, Move] = field(default_factory=dict)
    # The takebacks a stream may not have seen, as (version, moves left, when: ms or 0): for any
    # version, the
    # first one after it left the fewest moves (a later one that left fewer removes those
    # before it that left as many or more). Its moves left grow along the list.
    takebacks: list[tuple[int, int, int]] = field(default_factory=list)
    # Move records a store read besides the position's (which may know only its last move):
    # what a takeback on the Redis store's generic engine needs to see.
    earlier: dict[int, Move] = field(default_factory=dict)

    @property
    def held_moves(self) -> int:
        """The moves the game holds: its own, and those takebacks took back (kept)."""
        return self.position.move_count + len(self.taken)

    @property
    def at_move_limit(self) -> bool:
        """The game went on to its last allowed move: it is drawn (``move_limit``)."""
        position = self.position
        return position.status == "in_progress" and position.move_count >= self.max_moves

    @property
    def waiting(self) -> bool:
        """An open game whose free seat nobody has taken yet: nobody moves."""
        return self.open_seat is not None and not self.over

    @property
    def over(self) -> bool:
        return (
            self.ending is not None or self.at_move_limit or self.position.status != "in_progress"
        )

    def board_size(self) -> tuple[int, int]:
        """The board's rows and columns (``kind.board_size``), which never change: what its
        cells' square names depend on. Asked with every move: read from the facts once."""
        size = self._size
        if size is None:
            size = self._size = board_size(self.kind, self.state().facts)
        return size

    def player_of(self, token: str) -> Player:
        """The player whose token this is; SpectatorToken for one of the game's spectator
        tokens (it never acts), else Unauthorized."""
        digest = tokens.token_hash(token)
        try:
            return player_by_digest(self.token_hashes, digest)
        except Unauthorized:
            if digest in self.spectators:
                raise SpectatorToken() from None
            raise

    def check_viewer(self, token: str | None) -> None:
        """A private game is read only with a player's or a spectator's token (Unauthorized)."""
        if not self.private:
            return
        if token is None:
            raise Unauthorized(PRIVATE_GAME)
        digest = tokens.token_hash(token)
        if digest not in self.spectators and not any(
            tokens.matches(digest, known) for known in self.token_hashes
        ):
            raise Unauthorized(PRIVATE_GAME)

    def spectate(self, token: str, most: int) -> str:
        """A new spectator token, asked with a player's ``token`` (of at most ``most``); a
        spectator's token asking is told it is one (SpectatorToken), as every action is."""
        self.player_of(token)
        if len(self.spectators) >= most:
            raise TooManySpectators(most)
        made = tokens.new_token()
        self.spectators.add(tokens.token_hash(made))
        return made

    def state(self) -> GameState:
        snapshot = self._snapshot
        if snapshot is not None and snapshot.version == self.version:
            return snapshot  # every change of the game is a new version
        position = self.position
        count = position.move_count
        status, winner, reason = position.status, position.winner, position.reason
        next_player = position.next_player
        if self.ending is not None:
            status, winner, reason = self.ending.status, self.ending.winner, self.ending.reason
            next_player = None
        elif self.at_move_limit:
            status, reason, next_player = "draw", "move_limit", None
        elif self.open_seat is not None and status == "in_progress":
            next_player = None  # nobody moves until the open seat is taken
        self._snapshot = GameState(
            id=self.id,
            kind=self.kind.name,
            facts=self.kind.ended(position.facts(), status, winner, reason),
            status=status,
            winner=winner,
            reason=reason,
            next_player=next_player,
            version=self.version,
            move_count=count,
            last_move=self.move(count) if count else None,
            draw_offer=self.draw_offer,
            clock=None if self.clocks is None else self.clocks.state(),
            lobby=self.lobby,
            open_seat=self.open_seat if status == "in_progress" else None,
            joined=self.joined,
            first_move_due=self.first_due if status == "in_progress" else None,
            disabled=self.disabled,
            private=self.private,
            rematch_offer=self.rematch_offer,
            rematch=self.rematch,
            takeback_offer=self.takeback_offer,
            last_takeback=self.takebacks[-1][0] if self.takebacks else None,
            at_ms=self.changed_ms,
            last_given=self.last_given,
            joined_ms=self.joined_ms,
            created_ms=self.created_ms,
            names=self.names,
            players=self.players,
            pool=self.pool,
            tournament=self.tournament,
        )
        return self._snapshot

    # --- moves as clients see them -----------------------------------------------------------

    def move(self, seq: int) -> Move:
        """Move number ``seq`` (1 ≤ seq ≤ move_count), with the session's facts of it."""
        if seq in self.earlier:
            return self.earlier[seq]
        move = self.position.move(seq)
        others = bisect_left(self._others, seq)
        reading, at = None, None
        timed = seq - self.untimed
        if self._readings and timed > 0:
            at, first, second, running, spent = self._readings[
                READING * timed - READING : READING * timed
            ]
            reading = ClockReading(
                at, (first, second), 1 if running == 1 else 2 if running else None, spent
            )
        elif timed > 0 and timed <= len(self._times):
            at = self._times[timed - 1]
        if others or at is not None:
            version = seq + others if others else None
            return move.stamped(version, reading, at)
        return move

    def moves(self, since: int, limit: int) -> list[Move]:
        """The moves with ``seq > since``, in order, at most ``limit``."""
        last = min(self.position.move_count, max(since, 0) + limit)
        return [self.move(seq) for seq in range(max(since, 0) + 1, last + 1)]

    def legal_moves(self, after: int, limit: int) -> LegalMovesPage:
        """The moves the player to move may make now, a page at a time (``Position.legal_moves``):
        none once the game is over, by its kind's rules or the session's (an ending, the move
        limit)."""
        player = None if self.over or self.waiting else self.position.next_player
        legal = NO_LEGAL_MOVES if player is None else self.position.legal_moves(after, limit)
        return LegalMovesPage(self.id, self.kind.name, self.version, player, legal)

    def answered_move(self, answered: Answered) -> Move:
        """The move a request was answered with: the game's, or one a takeback took back."""
        seq, version = answered
        if seq <= self.position.move_count:
            move = self.move(seq)
            if version in (move.changed, ANY_VERSION):
                return move
        return self.taken[version]

    def taken_back_after(self, version: int) -> tuple[int, int, int] | None:
        """The takeback after ``version`` that left the fewest moves (its version, and the
        moves it left), if any: a stream at ``version`` no longer has the moves after those."""
        takebacks = self.takebacks
        index = bisect_right(takebacks, version, key=lambda takeback: takeback[0])
        return takebacks[index] if index < len(takebacks) else None

    def takeback_state(self, taken_back: tuple[int, int, int]) -> GameState:
        """The state right after a takeback (its version, the moves it left, its instant)."""
        version, left, at = taken_back
        last = self.move(left) if left else None
        return state_at_takeback(
            self.state(), version, left, last, self.kind, self.params, at or None
        )

    def gifts_after(self, version: int, first: int, most: int) -> tuple[GameState, ...]:
        """The gifts of time after ``version`` as the states right after them
        (``state_at_gift``), for a stream that reads the moves after move ``first``, at most
        ``most``: those before the last move read (all, when it is the game's last), and whose
        moves still stand — a gift made after a move a takeback took back is history, as
        that move is (the takeback's state shows the clocks it left)."""
        gifts = self.given
        index = bisect_right(gifts, version, key=lambda gift: gift.version)
        count, now = self.position.move_count, self.state()
        end = first + most  # the last move read, unless the game has fewer
        states = []
        for gift in gifts[index:]:
            made = gift.moves
            if end < count and made >= end:
                continue  # after the last move read: the next read's
            if made > count:
                continue  # its last move was taken back (none made again since)
            last = self.move(made) if made else None
            if last is not None and last.changed > gift.version:
                continue  # its last move was taken back, and another made since
            states.append(state_at_gift(now, gift, last, self.kind, self.params))
        return tuple(states)

    def moves_before(self, version: int) -> int:
        """How many moves the game had made at ``version``."""
        count = self.position.move_count
        return bisect_right(
            range(1, count + 1), version, key=lambda m: m + bisect_left(self._others, m)
        )

    # --- changes ---------------------------------------------------------------------------

    def settle(self, now_ms: int) -> bool:
        """Let a flag fall, or a first move's deadline pass, that is due by ``now_ms``: the game
        ended at that instant, whether or not anybody was looking. True if it ended now."""
        clocks, due = self.clocks, self.first_due
        flag = None if clocks is None else clocks.deadline_ms
        if ((flag is None or now_ms < flag) and (due is None or now_ms < due)) or self.over:
            return False
        if due is not None and now_ms >= due and (flag is None or due <= flag):
            if clocks is not None:
                clocks.stop(due)
            self._changed_without_move(due, Ending("aborted", 0, "no_first_move"))
            return True
        assert clocks is not None
        winner = clocks.fall()
        self._changed_without_move(clocks.since_ms, Ending("won", winner, "timeout"))
        return True

    def first_turn(self, now_ms: int) -> None:
        """The player to move has it to move from ``now_ms`` (the game began, or a move was
        made): with a first-move deadline, one who has not moved yet must by ``now_ms`` plus
        it."""
        if self.first_move_ms is None:
            return
        next_player = None if self.over or self.waiting else self.position.next_player
        due = next_player is not None and not self.moved & next_player
        self.first_due = now_ms + self.first_move_ms if due else None

    def _changed_without_move(self, now_ms: int, ending: Ending | None = None) -> None:
        """A change that is no move, made at ``now_ms`` (0: no time is kept)."""
        self.changed_ms = now_ms or None
        self.version += 1
        self._others.append(self.position.move_count)
        if ending is not None:
            self.ending = ending
            self.draw_offer = self.takeback_offer = None
            self.first_due = None

    def answered(self, request: MoveRequest | ActionRequest, token: str) -> bool:
        """Whether this request was answered before (a receipt under its key); Unauthorized
        for a token of neither player."""
        player = self.player_of(token)
        key = request.idempotency_key
        return key is not None and receipt_key(player, key) in self.receipts

    def answered_seq(self, request: MoveRequest, token: str) -> Answered | None:
        """The move this request (the same key and body) was answered with, if it was accepted
        before; raises as ``play`` would of a remembered refusal or a key reused. A store that
        keeps moves outside the position answers the replay itself."""
        _, answered = self._receipt(request, self.player_of(token))
        return answered if isinstance(answered, Answered) else None

    def _receipt(
        self, request: MoveRequest | ActionRequest, player: Player
    ) -> tuple[str | None, Answered | GameState | None]:
        """The request's receipt key, and the answer already given under it: a remembered
        refusal is raised again (replayed); IdempotencyKeyReused if it answered another
        request."""
        if request.idempotency_key is None:
            return None, None
        key = receipt_key(player, request.idempotency_key)
        receipt = self.receipts.get(key)
        if receipt is None:
            return key, None
        if receipt.fingerprint != request.fingerprint():
            raise IdempotencyKeyReused()
        outcome = receipt.outcome
        if isinstance(outcome, DomainError):
            raise outcome.copy(replayed=True)
        assert isinstance(outcome, (Answered, GameState)), "a player's receipt holds no join"
        return key, outcome

    def _check(self, request: MoveRequest | ActionRequest, player: Player) -> None:
        """The conditions every request of a player sets or meets, before the rules."""
        if request.player is not None and request.player != player:
            raise WrongPlayer(player, request.player)
        if request.expected_version is not None and request.expected_version != self.version:
            raise PreconditionFailed(self.version)

    def _not_waiting(self) -> None:
        """An open game waits for its second player: nobody moves, resigns or offers a draw.
        Not remembered under the request's key: the same request is taken once the seat is."""
        if self.waiting:
            assert self.open_seat is not None
            raise WaitingForOpponent(self.open_seat)

    def join(
        self, idempotency_key: str | None, requester: str, now_ms: int = 0,
        name: str | None = None, player: str | None = None, token: str | None = None,
    ) -> JoinResult:  # fmt: skip
        """Take the open seat with a new token (the store keeps its hash), or with ``token``
        (a player's for this game: ``tokens.seat_token``) for the ``player`` (an id) taking
        it, who may not hold the other seat too (SeatTaken), called ``name`` if given (else as
        the creator called it); with an
        ``idempotency_key``, a retry of the join that took it by the same ``requester`` gets
        the same seat and token (sealed under the key: ``tokens.seal``; ``join_receipt_key``).
        SeatTaken if no seat is free, or the game is over."""
        key = None
        if idempotency_key is not None:
            key = join_receipt_key(idempotency_key, requester)
            receipt = self.receipts.get(key)
            if receipt is not None:
                outcome = receipt.outcome
                assert isinstance(outcome, tuple), "a join's receipt holds its seat"
                assert not isinstance(outcome, Answered), "a join's receipt holds its seat"
                taken, sealed = outcome
                return JoinResult(
                    taken, tokens.unseal(sealed, idempotency_key), self.state(), replayed=True
                )
        seat = self.open_seat
        if seat is None or self.over:
            raise SeatTaken()
        if player is not None and player in self.players:
            raise SeatTaken(OWN_GAME)
        if player is None and self.pool is not None:
            raise Unauthorized(PLAYER_NEEDED)
        token = token or tokens.new_token()
        hashes = list(self.token_hashes)
        hashes[seat - 1] = tokens.token_hash(token)
        self.token_hashes = (hashes[0], hashes[1])
        self.open_seat = None
        if name is not None:
            named = list(self.names)
            named[seat - 1] = name
            self.names = (named[0], named[1])
        if player is not None:
            held = list(self.players)
            held[seat - 1] = player
            self.players = (held[0], held[1])
        self._changed_without_move(now_ms)
        self.joined, self.joined_ms = self.version, now_ms or None
        self.first_turn(now_ms)
        if key is not None and idempotency_key is not None:
            self.receipts[key] = Receipt(JOIN, (seat, tokens.seal(token, idempotency_key)))
        return JoinResult(seat, token, self.state())

    def _refused(self, key: str | None, body: str, refusal: DomainError) -> None:
        self._remember(key, Receipt(body, refusal.copy()))

    def _remember(self, key: str | None, receipt: Receipt) -> None:
        """Keep an answer other than an accepted move, up to ``max_refusals``."""
        if key is not None and self.refusals < self.max_refusals:
            self.receipts[key] = receipt
            self.refusals += 1

    def _game_over(self) -> GameOver:
        state = self.state()
        return GameOver(state.status, state.winner, state.reason)

    def play(self, request: MoveRequest, token: str, now_ms: int = 0) -> MoveResult:
        """Authenticate, then answer the move as the rules and the receipts say; ``now_ms``
        is the instant of the move (for the clocks, which the caller settled first).

        Raises Unauthorized, IdempotencyKeyReused, or the refusal (remembered under the key).
        """
        player = self.player_of(token)
        key, answered = self._receipt(request, player)
        if answered is not None:
            assert isinstance(answered, Answered)
            return result_at(self.answered_move(answered), self.state(), self.kind)
        self._not_waiting()
        try:
            self._check(request, player)
            if self.ending is not None or self.at_move_limit:
                raise self._game_over()
            move = self.position.play(request.played, player)
        except REMEMBERED_REFUSALS as refusal:
            self._refused(key, request.fingerprint(), refusal)
            raise
        self.version += 1
        self.draw_offer = self.takeback_offer = None  # a move declines a standing offer
        self.moved |= player
        self.first_turn(now_ms)
        if self.clocks is not None:
            next_player = None if self.at_move_limit else self.position.next_player
            reading = self.clocks.moved_by(player, next_player, now_ms)
            self._readings.extend(
                (reading.at_ms, *reading.remaining_ms, reading.running or 0, reading.spent_ms)
            )
        elif now_ms:
            self._times.append(now_ms)
        self.changed_ms = now_ms or None
        if key is not None:
            self.receipts[key] = Receipt(request.fingerprint(), Answered(move.seq, self.version))
        state = self.state()
        return MoveResult(winner=state.winner, move=state.last_move or move, state=state)

    def act(self, request: ActionRequest, token: str, now_ms: int = 0) -> ActionResult:
        """A resignation, a draw offer, an abort, a takeback offer or time given, with the same
        policy as a move (``play``). A game is aborted while its players have made fewer than
        two moves (a game waiting for its second player too). A takeback offer stands until the
        next move; the other player's offer accepts it (``_take_back``). Time is given to the
        other player's clock, at once (a game without clocks has none to give)."""
        player, version = self.player_of(token), self.version
        key, answered = self._receipt(request, player)
        if answered is not None:
            assert isinstance(answered, GameState)
            return ActionResult(answered, replayed=True)
        if request.action != "abort":
            self._not_waiting()
        try:
            self._check(request, player)
            flag = ACTION_FLAGS.get(request.action)
            if flag in self.disabled:
                raise ActionNotAllowed(flag or "")
            if request.action == "give_time" and self.clocks is None:
                raise ActionNotAllowed("give_time", NO_CLOCK)
            if request.action == "give_time" and self.gifts >= self.max_gifts:
                raise ActionNotAllowed("give_time", TOO_MANY_GIFTS)
            if self.over:
                raise self._game_over()
            played = self.position.move_count - self.untimed
            if request.action == "abort" and played >= ABORT_BEFORE_MOVES:
                raise TooLateToAbort()
            if (
                request.action == "takeback"
                and self.takeback_offer is None
                and self.moves_to_take_back(player) is None
            ):
                raise NothingToTakeBack(player)
        except REMEMBERED_REFUSALS as refusal:
            self._refused(key, request.fingerprint(), refusal)
            raise
        if request.action == "abort":
            self._end(Ending("aborted", 0, "aborted"), now_ms)
        elif request.action == "resign":
            self._end(Ending("won", other(player), "resignation"), now_ms)
        elif request.action == "takeback":
            if self.takeback_offer == other(player):
                self._take_back(other(player), now_ms)
            elif self.takeback_offer is None:
                if self.clocks is not None:
                    self.clocks.read(now_ms)
                self.takeback_offer = player
                self._changed_without_move(now_ms)
        elif request.action == "give_time":
            assert self.clocks is not None
            clocks = self.clocks
            clocks.give(other(player), request.seconds, now_ms)
            self._changed_without_move(now_ms)
            self.gifts += 1
            self.last_given = self.version
            self.given.append(
                Gift(
                    self.version, now_ms, self.position.move_count,
                    (clocks.remaining_ms[0], clocks.remaining_ms[1]), clocks.running,
                    clocks.turn_ms, self.draw_offer, self.takeback_offer, self.first_due,
                    self.takebacks[-1][0] if self.takebacks else None,
                )
            )  # fmt: skip
        elif self.draw_offer == other(player):
            self._end(Ending("draw", 0, "agreement"), now_ms)
        elif self.draw_offer is None:
            if self.clocks is not None:
                self.clocks.read(now_ms)
            self.draw_offer = player
            self._changed_without_move(now_ms)
        # else: the player's own offer stands already; nothing changes
        state = self.state()
        receipt = Receipt(request.fingerprint(), state)
        if request.action in KEPT_ACTIONS and key is not None and state.version != version:
            # A takeback offer or acceptance, or a gift of time, is kept as a move is, whatever
            # the bound: its retry must never be taken for a new one (a takeback needs a move
            # taken back, gifts have their own bound: bounded so).
            self.receipts[key] = receipt
        else:
            self._remember(key, receipt)
        return ActionResult(state)

    def moves_to_take_back(self, player: Player) -> int | None:
        """How many of the last moves a takeback for ``player`` takes back: back to its own
        last move, which it makes again (its move, and the other's reply if there was one — or
        replies, after passes); None if it has no move that may be taken back (none
        yet, or only an opening's)."""
        last = self.position.move_count
        for seq in range(last, self.untimed, -1):
            move = self.move(seq)
            if not self.kind.takes_back(move):
                return None
            if move.player == player:
                return last - seq + 1
        return None

    def _take_back(self, player: Player, now_ms: int) -> None:
        """``player``'s standing takeback offer is accepted: its last move and those after it
        are taken back, and it moves again. Their numbers are used again by the next moves;
        the version still grows; the clocks are not rolled back (the player's own runs)."""
        count = self.moves_to_take_back(player)
        assert count is not None, "an offer stands only while there is a move to take back"
        last = self.position.move_count
        left = last - count
        taken = [self.move(seq) for seq in range(left + 1, last + 1)]
        self.position.undo(taken, self.move(left) if left else None)
        for move in taken:
            self.taken[move.changed] = move
        # The changes made after move ``left`` — the moves taken back are no moves now, and the
        # changes that were none — all came before the next move.
        others = self._others
        for index in range(bisect_right(others, left), len(others)):
            others[index] = left
        others.extend([left] * count)
        del self._readings[READING * max(0, left - self.untimed) :]
        del self._times[max(0, left - self.untimed) :]
        self.takeback_offer = self.draw_offer = None  # (a takeback declines a draw offer)
        if self.clocks is not None:
            self.clocks.turned(player, now_ms)
        self._changed_without_move(now_ms)
        takebacks = self.takebacks
        while takebacks and takebacks[-1][1] >= left:
            takebacks.pop()
        takebacks.append((self.version, left, now_ms))
        self.first_turn(now_ms)

    def rematch_step(self, token: str) -> tuple[Player, Player | None]:
        """Who asks for a rematch (a player's ``token``), and whose offer stood before:
        ActionNotAllowed in a game created without rematches, GameNotOver while it goes on."""
        player = self.player_of(token)
        if "rematch" in self.disabled:
            raise ActionNotAllowed("rematch")
        if not self.over:
            raise GameNotOver()
        if self.open_seat is not None:  # over before anybody took the open seat
            raise ActionNotAllowed("rematch", NO_OPPONENT)
        return player, self.rematch_offer

    def offer_rematch(self, player: Player, token: str, made: str, now_ms: int = 0) -> None:
        """``player`` (``token``) offers a rematch in which its token will be ``made`` (an
        offer that stands already changes nothing)."""
        if self.rematch is None and self.rematch_offer is None:
            self.rematch_offer = player
            self.rematch_hashes[player] = tokens.token_hash(made)
            self.rematch_sealed[player] = tokens.seal(made, token, tokens.REMATCH_SEAL)
            self._changed_without_move(now_ms)

    def rematch_seats(self, player: Player, made: str) -> tuple[str, str]:
        """The token hashes of the rematch's seats, ``player`` accepting the other's offer with
        its token ``made``: each player takes the other seat (colours swapped)."""
        offerer = other(player)
        seats = {player: self.rematch_hashes[offerer], offerer: tokens.token_hash(made)}
        return seats[1], seats[2]

    def rematched(
        self, player: Player, token: str, made: str, game_id: str, now_ms: int = 0
    ) -> None:
        """The rematch ``game_id`` was made at ``player``'s acceptance (its token there
        ``made``): the game says so, once."""
        self.rematch, self.rematch_offer = game_id, None
        self.rematch_sealed[player] = tokens.seal(made, token, tokens.REMATCH_SEAL)
        self._changed_without_move(now_ms)

    def rematch_of(self, player: Player, token: str) -> Rematch | None:
        """``player``'s seat and token in the rematch, once made."""
        if self.rematch is None:
            return None
        made = tokens.unseal(self.rematch_sealed[player], token, tokens.REMATCH_SEAL)
        return Rematch(self.rematch, other(player), made)

    def _end(self, ending: Ending, now_ms: int) -> None:
        if self.clocks is not None:
            self.clocks.stop(now_ms)
        self._changed_without_move(now_ms, ending)
