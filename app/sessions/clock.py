"""A game's two clocks: Fischer timing (an initial time, and an increment per move).

Neither clock runs until each player has made one move, so the creator can wait for the invited
player: those first moves are untimed and add no increment (in Reversi a player may move twice
before the other's first move: both are untimed). A game whose kind says its clocks do not wait
(``GameKind.clocks_wait``: a swap2 opening, whose clocks run from the first stone) starts them
with its first move instead. From then on the clock of the player to move
runs from the instant the previous change of the game was accepted; an accepted move stops it
and adds the increment. When the running clock reaches zero — at its ``deadline``, exactly —
the flag falls and the other player wins.

Times are integers of milliseconds since the epoch, by the clock of the store that keeps the
game, which every process sharing it agrees on. ``Clocks`` is this arithmetic for the memory
store; the Redis store does the same in its scripts (``lua/game.lua``), with Redis' ``TIME``,
and both run the same session test suite.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.sessions.kind import ClockReading, Player, other

# A game whose clocks do not wait for each player's first move counts player 2 as having moved
# (player 1 moves first): its first move, untimed, starts the clock of whoever must act next.
WAITED_FOR: Player = 2

# The bounds of a time control, in seconds (the API's and the stores').
MAX_INITIAL_SECONDS = 604_800  # a week
MAX_INCREMENT_SECONDS = 86_400  # a day


@dataclass(frozen=True, slots=True)
class TimeControl:
    initial_seconds: int
    increment_seconds: int

    @property
    def initial_ms(self) -> int:
        return self.initial_seconds * 1000

    @property
    def increment_ms(self) -> int:
        return self.increment_seconds * 1000

    def encode(self) -> str:
        """``initial:increment`` (seconds), as a store keeps it."""
        return f"{self.initial_seconds}:{self.increment_seconds}"

    @classmethod
    def decode(cls, text: str) -> TimeControl:
        initial, _, increment = text.partition(":")
        return cls(int(initial), int(increment))


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clocks as a game's state shows them: time left to each player as of the game's last
    change, whose clock runs, and when it reaches zero (None while none runs)."""

    control: TimeControl
    remaining_ms: tuple[int, int]
    running: Player | None
    deadline_ms: int | None

    @classmethod
    def of(cls, control: TimeControl, reading: ClockReading) -> ClockState:
        """The clocks right after a move, from its reading."""
        running = reading.running
        deadline = None if running is None else reading.at_ms + reading.remaining_ms[running - 1]
        return cls(control, reading.remaining_ms, running, deadline)


@dataclass(slots=True)
class Clocks:
    """The two clocks of one game, as the memory store keeps them."""

    control: TimeControl
    remaining_ms: list[int]  # players 1 and 2, as of ``since_ms``
    since_ms: int  # the instant of the game's last change
    running: Player | None = None
    moved: set[int] = field(default_factory=set)  # the players who have made a move

    @classmethod
    def start(cls, control: TimeControl, now_ms: int, wait: bool = True) -> Clocks:
        """A new game's clocks, stopped. ``wait``: they start once each player has moved;
        else (swap2) with the first move, which is untimed: it counts as the second mover's."""
        moved: set[int] = set() if wait else {WAITED_FOR}
        return cls(control, [control.initial_ms, control.initial_ms], now_ms, moved=moved)

    @property
    def deadline_ms(self) -> int | None:
        """When the running clock reaches zero."""
        if self.running is None:
            return None
        return self.since_ms + self.remaining_ms[self.running - 1]

    def due(self, now_ms: int) -> bool:
        """Whether the running clock has reached zero by ``now_ms``."""
        deadline = self.deadline_ms
        return deadline is not None and now_ms >= deadline

    def fall(self) -> Player:
        """The flag of the running clock falls (at its deadline): the other player wins."""
        loser = self.running
        assert loser is not None, "no clock runs"
        self.since_ms = self.since_ms + self.remaining_ms[loser - 1]
        self.remaining_ms[loser - 1] = 0
        self.running = None
        return other(loser)

    def read(self, now_ms: int) -> None:
        """Take the running clock's reading at a change that is no move (an offer)."""
        if self.running is not None:
            self.remaining_ms[self.running - 1] -= now_ms - self.since_ms
        self.since_ms = now_ms

    def turned(self, player: Player, now_ms: int) -> None:
        """It is ``player``'s turn from ``now_ms`` on, though nobody moved (a takeback): the
        running clock is read, and ``player``'s runs instead if one ran (none is rolled back)."""
        self.read(now_ms)
        if self.running is not None:
            self.running = player

    def stop(self, now_ms: int) -> None:
        """The game ended (by resignation or agreement) at ``now_ms``."""
        self.read(now_ms)
        self.running = None

    def moved_by(self, mover: Player, next_player: Player | None, now_ms: int) -> ClockReading:
        """``mover``'s move was accepted at ``now_ms`` (before the deadline); ``next_player``
        moves next (None: the game is over). Returns the reading after it."""
        timed = len(self.moved) == 2  # both players had moved: this move ran a clock
        self.read(now_ms)
        if timed:
            self.remaining_ms[mover - 1] += self.control.increment_ms
        self.moved.add(mover)
        self.running = next_player if len(self.moved) == 2 else None
        return self.reading()

    def reading(self) -> ClockReading:
        return ClockReading(
            self.since_ms, (self.remaining_ms[0], self.remaining_ms[1]), self.running
        )

    def state(self) -> ClockState:
        return ClockState(
            self.control, (self.remaining_ms[0], self.remaining_ms[1]), self.running,
            self.deadline_ms,
        )  # fmt: skip
