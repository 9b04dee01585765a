"""Fischer, Bronstein and delay clocks, stages and given time, against a slow reference that
ticks a millisecond at a time.

The reference (``TickingClocks``) knows nothing of deadlines or readings: each millisecond the
player to move first uses up what is left of its turn's delay (delay mode), then its own time;
at zero its flag falls, there and then. A move ends the turn: Fischer adds the increment,
Bronstein gives back the milliseconds the clock ran in that turn (at most the increment), a
player completing its ``after_moves``-th move gets the stage's time; given time is added as it
is given. The session (the memory store's arithmetic, ``clock.py``) must show, after every
step of random games, the same time left, deadline, flag fall and per-move ``spent_ms``; the
stores-agree property test holds Lua to the same session.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from app.kinds import find_kind
from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.clock import CLOCK_MODES, ClockMode, Clocks, Stage, TimeControl
from app.sessions.exchange import ActionRequest, MoveRequest
from app.sessions.kind import Placement
from app.sessions.session import Session

START = 1_800_000_000_000
TOKENS = {1: "token-one", 2: "token-two"}
SIDE = 5  # a 5 × 5 board, five in a row: long enough games, few of them won early


@dataclass
class TickingClocks:
    """Two clocks run a millisecond at a time."""

    control: TimeControl
    left: list[int]
    moved: set[int] = field(default_factory=set)
    made: list[int] = field(default_factory=lambda: [0, 0])
    running: int | None = None
    delay_left: int = 0  # what is left of the running turn's delay
    ran: int = 0  # the milliseconds the running clock ran this turn
    fallen: int | None = None  # the instant (ms after START) a flag fell
    now: int = 0  # ms after START

    def tick_to(self, instant: int) -> None:
        while self.now < instant and self.fallen is None:
            self.now += 1
            if self.running is None:
                continue
            if self.delay_left > 0:
                self.delay_left -= 1
                continue
            self.left[self.running - 1] -= 1
            self.ran += 1
            if self.left[self.running - 1] == 0:
                self.fallen, self.running = self.now, None

    def turn_of(self, player: int | None) -> None:
        self.running = player
        self.ran = 0
        self.delay_left = self.control.increment_ms if self.control.mode == "delay" else 0

    def move(self, mover: int, next_player: int | None) -> int:
        """The move's spent time."""
        timed = len(self.moved) == 2
        spent = self.ran if timed else 0
        self.made[mover - 1] += 1
        if timed and self.control.mode == "fischer":
            self.left[mover - 1] += self.control.increment_ms
        if timed and self.control.mode == "bronstein":
            self.left[mover - 1] += min(self.ran, self.control.increment_ms)
        for stage in self.control.stages:
            if stage.after_moves == self.made[mover - 1]:
                self.left[mover - 1] += stage.add_seconds * 1000
        self.moved.add(mover)
        self.turn_of(next_player if len(self.moved) == 2 else None)
        return spent

    def deadline(self) -> int | None:
        if self.running is None:
            return None
        return self.now + self.delay_left + self.left[self.running - 1]


modes = st.sampled_from(CLOCK_MODES)
stage_lists = st.lists(
    st.tuples(st.integers(1, 3), st.integers(1, 2)), max_size=2, unique_by=lambda s: s[0]
).map(lambda stages: tuple(Stage(a, s) for a, s in sorted(stages)))
steps = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.sampled_from([0, 1, 150, 700, 999, 1000, 1001, 1800])),
        st.tuples(st.just("give"), st.sampled_from([1, 2]), st.integers(1, 2)),
        st.tuples(st.just("offer"), st.sampled_from([1, 2]), st.sampled_from([0, 300, 1200])),
        st.tuples(st.just("wait"), st.sampled_from([1, 500, 1000, 2500])),
    ),
    max_size=24,
)


@settings(max_examples=300, deadline=None)
@given(
    mode=modes,
    initial=st.integers(1, 3),
    increment=st.integers(0, 2),
    stages=stage_lists,
    sequence=steps,
)
def test_the_clocks_are_the_ticking_reference(
    mode: ClockMode, initial: int, increment: int, stages: tuple[Stage, ...],
    sequence: list[tuple[object, ...]],
) -> None:  # fmt: skip
    control = TimeControl(initial, increment, mode, stages)
    kind = find_kind("tictactoe")
    params = {"n": SIDE, "k": SIDE}
    hashes = (tokens.token_hash(TOKENS[1]), tokens.token_hash(TOKENS[2]))
    session = Session("g", kind, params, hashes, kind.new(params), 10_000)
    session.clocks = Clocks.start(control, START)
    reference = TickingClocks(control, [control.initial_ms, control.initial_ms])
    cells = iter([(r, c) for r in range(SIDE) for c in range(SIDE) if (r + c) % 3 != 0] * 2)
    for step in sequence:
        if step[0] in ("move", "wait"):
            at = reference.now + int(step[1])  # type: ignore[call-overload]
        else:
            at = reference.now + (int(step[2]) if step[0] == "offer" else 0)  # type: ignore[call-overload]
        before = session.state().clock
        assert before is not None
        reference.tick_to(at)
        ended = session.settle(START + at)
        if reference.fallen is not None:
            state = session.state()
            assert ended, "the flag fell"
            assert state.reason == "timeout"
            assert before.deadline_ms == START + reference.fallen, "at its instant"
            assert state.clock is not None
            assert state.clock.remaining_ms[2 - state.winner] == 0
            assert state.clock.deadline_ms is None
            return
        assert not ended, "no flag fell"
        state = session.state()
        if state.status != "in_progress":
            return  # a line of five (rare on this board)
        if step[0] == "move":
            mover = state.next_player
            assert mover is not None
            row, col = next(cells)
            try:
                result = session.play(MoveRequest(Placement(row, col)), TOKENS[mover], START + at)
            except DomainError:
                continue  # the cell was taken: nothing changed
            next_player = result.state.next_player
            spent = reference.move(mover, next_player)
            assert result.move.clock is not None
            assert result.move.clock.spent_ms == spent
            assert session.move(result.move.seq).clock == result.move.clock
        elif step[0] == "give":
            player = int(step[1])  # type: ignore[call-overload]
            seconds = int(step[2])  # type: ignore[call-overload]
            session.act(ActionRequest("give_time", seconds=seconds), TOKENS[player], START + at)
            reference.left[2 - player] += seconds * 1000
        elif step[0] == "offer":
            session.act(ActionRequest("offer"), TOKENS[int(step[1])], START + at)  # type: ignore[call-overload]
        clock = session.state().clock
        assert clock is not None
        if session.state().status != "in_progress":
            return
        # The time left as of this instant, the running clock's read at it.
        running = clock.running
        assert running == reference.running
        assert clock.deadline_ms == (
            None if reference.deadline() is None else START + reference.deadline()  # type: ignore[operator]
        )
        for player in (1, 2):
            shown = clock.remaining_ms[player - 1]
            if player == running:
                assert clock.deadline_ms is not None
                shown = min(shown, clock.deadline_ms - (START + at))
            assert shown == reference.left[player - 1], f"player {player}'s time left"
