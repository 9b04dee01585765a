"""A game's two clocks: an initial time, a time control's mode (Fischer, Bronstein or delay),
and stages.

* **Fischer** (``fischer``): an accepted move adds ``increment_seconds`` to the mover's clock.
* **Bronstein** (``bronstein``): an accepted move gives the mover back the time it used, at most
  ``increment_seconds``.
* **Delay** (``delay``: simple, US): each turn, the mover's clock starts running only once
  ``increment_seconds`` have passed; nothing is added.
* **Stages**: a player completing its ``after_moves``-th move gets ``add_seconds`` (every move
  the player made counts, those taken back too: a stage's time is given once).

Neither clock runs until each player has made one move, so the creator can wait for the invited
player: those first moves are untimed and add nothing (where a player may pass, it may move twice
before the other's first move: both are untimed). A game whose kind says its clocks do not wait
(``GameKind.clocks_wait``: a swap2 opening, whose clocks run from the first stone) starts them
with its first move instead. From then on the clock of the player to move runs from the
instant its turn began (the previous move, or a takeback), after the delay in delay mode. When
the running clock reaches zero — at its ``deadline``, exactly — the flag falls and the other
player wins.

Times are integers of milliseconds since the epoch, by the clock of the store that keeps the
game, which every process sharing it agrees on. The arithmetic is ``TimeControl``'s methods
(``counts_from``, ``read``, ``spent``, ``credit``); ``Clocks`` keeps a game's clocks with them
for the memory store, and the Redis store does the same in its scripts (``lua/game.lua``, with
Redis' ``TIME``). A property test drives both with the same requests and times.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from app.sessions.kind import ClockReading, Player, other

# A game whose clocks do not wait for each player's first move counts player 2 as having moved
# (player 1 moves first): its first move, untimed, starts the clock of whoever must act next.
WAITED_FOR: Player = 2

# The bounds of a time control, in seconds (the API's and the stores').
MAX_INITIAL_SECONDS = 604_800  # a week
MAX_INCREMENT_SECONDS = 86_400  # a day
MAX_STAGES = 10  # a time control's stages at most
MAX_STAGE_MOVES = 10_000  # the latest move a stage may follow
MAX_STAGE_SECONDS = 86_400  # the most a stage may add (a day)
MAX_GIVEN_SECONDS = 3_600  # the most one gift of time may add (an hour)

ClockMode = Literal["fischer", "bronstein", "delay"]
CLOCK_MODES: tuple[ClockMode, ...] = get_args(ClockMode)


@dataclass(frozen=True, slots=True)
class Stage:
    """A player completing its ``after_moves``-th move gets ``add_seconds``."""

    after_moves: int
    add_seconds: int


@dataclass(frozen=True, slots=True)
class TimeControl:
    initial_seconds: int
    increment_seconds: int  # Fischer's increment, Bronstein's most given back, or the delay
    mode: ClockMode = "fischer"
    stages: tuple[Stage, ...] = ()

    @property
    def initial_ms(self) -> int:
        return self.initial_seconds * 1000

    @property
    def increment_ms(self) -> int:
        return self.increment_seconds * 1000

    def encode(self) -> str:
        """``initial:increment`` (seconds), then ``:mode:stages`` unless Fischer without stages
        (``after/add,…``), as a store keeps it (``lua/game.lua``'s ``control_of`` reads it)."""
        text = f"{self.initial_seconds}:{self.increment_seconds}"
        if self.mode == "fischer" and not self.stages:
            return text
        stages = ",".join(f"{s.after_moves}/{s.add_seconds}" for s in self.stages)
        return f"{text}:{self.mode}:{stages}"

    @classmethod
    def decode(cls, text: str) -> TimeControl:
        initial, increment, *rest = text.split(":")
        mode: ClockMode = "fischer"
        stages: tuple[Stage, ...] = ()
        if rest:
            named, listed = rest
            if named not in CLOCK_MODES:
                raise ValueError(f"no clock mode {named!r}")
            mode = named  # one of CLOCK_MODES, checked above
            stages = tuple(
                Stage(int(after), int(add))
                for after, _, add in (item.partition("/") for item in listed.split(",") if item)
            )
        return cls(int(initial), int(increment), mode, stages)

    # --- the arithmetic, written once (lua/game.lua mirrors each method) --------------------

    def counts_from(self, since_ms: int, turn_ms: int) -> int:
        """From when the running clock counts down, its time left being as of ``since_ms`` (the
        game's last change) in a turn that began at ``turn_ms``: at once, or once the delay
        has passed."""
        if self.mode == "delay":
            return max(since_ms, turn_ms + self.increment_ms)
        return since_ms

    def deadline(self, remaining_ms: int, since_ms: int, turn_ms: int) -> int:
        """When a running clock with ``remaining_ms`` left as of ``since_ms`` reaches zero."""
        return self.counts_from(since_ms, turn_ms) + remaining_ms

    def read(self, remaining_ms: int, since_ms: int, turn_ms: int, now_ms: int) -> int:
        """A running clock's time left at ``now_ms``."""
        return remaining_ms - max(0, now_ms - self.counts_from(since_ms, turn_ms))

    def spent(self, turn_ms: int, now_ms: int) -> int:
        """The time the mover's clock ran for a move made at ``now_ms`` in a turn that began at
        ``turn_ms`` (after the delay, in delay mode)."""
        return max(0, now_ms - self.counts_from(turn_ms, turn_ms))

    def credit(self, spent_ms: int, made: int) -> int:
        """What a timed move that ran the clock ``spent_ms`` gives back to its mover, its
        ``made``-th move (the increment, or the time used up to it; a stage's time)."""
        given = 0
        if self.mode == "fischer":
            given = self.increment_ms
        elif self.mode == "bronstein":
            given = min(self.increment_ms, spent_ms)
        return given + self.stage_ms(made)

    def stage_ms(self, made: int) -> int:
        """What a player's ``made``-th move brings by the stages."""
        return sum(s.add_seconds * 1000 for s in self.stages if s.after_moves == made)


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
        """The clocks right after a move, from its reading (its turn begins then)."""
        return cls.at(control, reading.remaining_ms, reading.running, reading.at_ms, reading.at_ms)

    @classmethod
    def at(
        cls, control: TimeControl, remaining_ms: tuple[int, int], running: Player | None,
        since_ms: int, turn_ms: int,
    ) -> ClockState:  # fmt: skip
        """The clocks with ``remaining_ms`` left as of ``since_ms``, ``running``'s turn having
        begun at ``turn_ms``."""
        deadline = None
        if running is not None:
            deadline = control.deadline(remaining_ms[running - 1], since_ms, turn_ms)
        return cls(control, remaining_ms, running, deadline)


@dataclass(slots=True)
class Clocks:
    """The two clocks of one game, as the memory store keeps them."""

    control: TimeControl
    remaining_ms: list[int]  # players 1 and 2, as of ``since_ms``
    since_ms: int  # the instant of the game's last change
    running: Player | None = None
    moved: set[int] = field(default_factory=set)  # the players who have made a move
    turn_ms: int = 0  # when the running player's turn began
    made: list[int] = field(default_factory=lambda: [0, 0])  # each player's moves, ever

    @classmethod
    def start(cls, control: TimeControl, now_ms: int, wait: bool = True) -> Clocks:
        """A new game's clocks, stopped. ``wait``: they start once each player has moved;
        else (swap2) with the first move, which is untimed: it counts as the second mover's."""
        moved: set[int] = set() if wait else {WAITED_FOR}
        initial = control.initial_ms
        return cls(control, [initial, initial], now_ms, moved=moved, turn_ms=now_ms)

    @property
    def deadline_ms(self) -> int | None:
        """When the running clock reaches zero."""
        if self.running is None:
            return None
        return self.control.deadline(
            self.remaining_ms[self.running - 1], self.since_ms, self.turn_ms
        )

    def due(self, now_ms: int) -> bool:
        """Whether the running clock has reached zero by ``now_ms``."""
        deadline = self.deadline_ms
        return deadline is not None and now_ms >= deadline

    def fall(self) -> Player:
        """The flag of the running clock falls (at its deadline): the other player wins."""
        loser, deadline = self.running, self.deadline_ms
        assert loser is not None, "no clock runs"
        assert deadline is not None
        self.since_ms = deadline
        self.remaining_ms[loser - 1] = 0
        self.running = None
        return other(loser)

    def read(self, now_ms: int) -> None:
        """Take the running clock's reading at a change that is no move (an offer)."""
        running = self.running
        if running is not None:
            self.remaining_ms[running - 1] = self.control.read(
                self.remaining_ms[running - 1], self.since_ms, self.turn_ms, now_ms
            )
        self.since_ms = now_ms

    def give(self, player: Player, seconds: int, now_ms: int) -> None:
        """``seconds`` more on ``player``'s clock, given at ``now_ms``."""
        self.read(now_ms)
        self.remaining_ms[player - 1] += seconds * 1000

    def turned(self, player: Player, now_ms: int) -> None:
        """It is ``player``'s turn from ``now_ms`` on, though nobody moved (a takeback): the
        running clock is read, and ``player``'s runs instead if one ran (none is rolled back)."""
        self.read(now_ms)
        self.turn_ms = now_ms
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
        control = self.control
        spent = control.spent(self.turn_ms, now_ms) if timed else 0
        self.read(now_ms)
        self.made[mover - 1] += 1
        made = self.made[mover - 1]
        self.remaining_ms[mover - 1] += (
            control.credit(spent, made) if timed else control.stage_ms(made)
        )
        self.moved.add(mover)
        self.running = next_player if len(self.moved) == 2 else None
        self.turn_ms = now_ms
        return self.reading(spent)

    def reading(self, spent_ms: int = 0) -> ClockReading:
        return ClockReading(
            self.since_ms, (self.remaining_ms[0], self.remaining_ms[1]), self.running, spent_ms
        )

    def state(self) -> ClockState:
        return ClockState(
            self.control, (self.remaining_ms[0], self.remaining_ms[1]), self.running,
            self.deadline_ms,
        )  # fmt: skip
