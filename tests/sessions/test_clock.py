"""The clocks' arithmetic, on a session with an injected clock (the memory store's).

Fischer timing as the contract states it: neither clock runs until each player has made one
move (those moves are untimed and add no increment), then the mover's clock runs from the
previous change and an accepted move adds the increment; the flag falls exactly at the deadline.
"""

from __future__ import annotations

import pytest

from app.kinds import REGISTRY, find_kind
from app.sessions import tokens
from app.sessions.clock import Clocks, ClockState, TimeControl
from app.sessions.errors import GameOver
from app.sessions.exchange import ActionRequest, MoveRequest
from app.sessions.kind import Placement
from app.sessions.past import result_at
from app.sessions.session import Session
from app.sessions.store import NewGame
from app.stores.memory import MemoryGameStore

START = 1_800_000_000_000  # an instant, in ms since the epoch


class Time:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.ms = START

    def __call__(self) -> float:
        return self.ms / 1000


TOKENS = {1: "token-one", 2: "token-two"}


def game(kind: str, params: dict[str, object], initial: int, increment: int) -> Session:
    chosen = find_kind(kind)
    hashes = (tokens.token_hash(TOKENS[1]), tokens.token_hash(TOKENS[2]))
    session = Session("g", chosen, params, hashes, chosen.new(params), 10_000)
    session.clocks = Clocks.start(TimeControl(initial, increment), START)
    return session


def play(session: Session, player: int, row: int, col: int, at: int) -> None:
    """``player`` moves at ``START + at`` ms, as a store lets it: a due flag falls first."""
    assert not session.settle(START + at)
    session.play(MoveRequest(Placement(row, col)), TOKENS[player], START + at)


def clock(session: Session) -> ClockState:
    state = session.state().clock
    assert state is not None
    return state


def test_first_move_of_each_player_is_untimed_and_adds_no_increment() -> None:
    session = game("tictactoe", {"n": 3, "k": 3}, 60, 5)
    play(session, 1, 0, 0, at=30_000)  # half a minute to decide: nothing runs yet
    assert clock(session) == ClockState(TimeControl(60, 5), (60_000, 60_000), None, None)
    play(session, 2, 1, 1, at=90_000)
    # Both have moved: player 1's clock runs from player 2's move.
    assert clock(session) == ClockState(
        TimeControl(60, 5), (60_000, 60_000), 1, START + 90_000 + 60_000
    )


def test_a_timed_move_spends_the_time_taken_and_gains_the_increment() -> None:
    session = game("tictactoe", {"n": 3, "k": 3}, 60, 5)
    play(session, 1, 0, 0, at=0)
    play(session, 2, 1, 1, at=1_000)
    play(session, 1, 0, 1, at=11_000)  # 10 s spent, 5 s back
    assert clock(session).remaining_ms == (55_000, 60_000)
    assert clock(session).running == 2
    assert clock(session).deadline_ms == START + 11_000 + 60_000
    play(session, 2, 2, 2, at=11_250)
    assert clock(session).remaining_ms == (55_000, 64_750)


def test_the_flag_falls_exactly_at_the_deadline() -> None:
    session = game("tictactoe", {"n": 3, "k": 3}, 1, 0)
    play(session, 1, 0, 0, at=0)
    play(session, 2, 1, 1, at=0)
    assert not session.settle(START + 999)
    assert session.settle(START + 1_000)
    state = session.state()
    assert (state.status, state.winner, state.reason, state.next_player) == (
        "won", 2, "timeout", None,
    )  # fmt: skip
    assert state.clock == ClockState(TimeControl(1, 0), (0, 1_000), None, None)
    assert state.version == 3
    assert state.move_count == 2
    assert not session.settle(START + 5_000)  # it fell once


@pytest.mark.anyio
async def test_a_move_one_millisecond_late_is_refused_and_one_in_time_is_not() -> None:
    for late, accepted in ((0, True), (1, False)):
        time = Time()
        store = MemoryGameStore(REGISTRY, 10, 3600, wall_clock=time)
        created = await store.create(NewGame("tictactoe", {"n": 3, "k": 3}, TimeControl(2, 0)))
        game_id, (first, second) = created.state.id, created.tokens
        await store.play(game_id, first, MoveRequest(Placement(0, 0)))
        await store.play(game_id, second, MoveRequest(Placement(1, 1)))
        time.ms += 2_000 - 1 + late
        if accepted:
            result = await store.play(game_id, first, MoveRequest(Placement(0, 1)))
            assert result.state.clock is not None
            assert result.state.clock.remaining_ms == (1, 2_000)
        else:
            with pytest.raises(GameOver):
                await store.play(game_id, first, MoveRequest(Placement(0, 1)))
            state = await store.state(game_id)
            assert (state.status, state.winner, state.reason) == ("won", 2, "timeout")
            assert store.endings == {"timeout": 1}


def test_reversi_passes_keep_the_clocks_stopped_until_each_player_has_moved() -> None:
    # Black moves twice before White's first move (White has none after Black's first):
    # all three moves are untimed; the clocks start with White's first move.
    rows = ["....BB..", "..W.B...", "..B.W...", "W....W..", "........", "W......W",
            ".....B..", "B....BB."]  # fmt: skip
    session = game("reversi", {"board": rows, "next": "B"}, 30, 2)
    play(session, 1, 0, 2, at=10_000)
    assert session.state().last_move is not None
    assert session.state().next_player == 1  # White passed
    play(session, 1, 3, 4, at=20_000)
    assert clock(session) == ClockState(TimeControl(30, 2), (30_000, 30_000), None, None)
    white = session.state().next_player
    assert white == 2
    legal = next(
        (r, c) for r in range(8) for c in range(8)
        if _legal(session, r, c)
    )  # fmt: skip
    play(session, 2, *legal, at=25_000)
    after = clock(session)
    assert after.remaining_ms == (30_000, 30_000)  # White's first move: untimed, no increment
    assert after.running == session.state().next_player


def _legal(session: Session, row: int, col: int) -> bool:
    kind = session.kind
    trial = kind.decode(session.params, session.position.encode())
    try:
        trial.play(Placement(row, col), 2)
    except Exception:
        return False
    return True


def test_an_offer_takes_the_running_clocks_reading_and_keeps_its_deadline() -> None:
    session = game("tictactoe", {"n": 3, "k": 3}, 60, 0)
    play(session, 1, 0, 0, at=0)
    play(session, 2, 1, 1, at=0)
    deadline = clock(session).deadline_ms
    session.act(ActionRequest("offer"), TOKENS[2], START + 20_000)
    state = session.state()
    assert state.draw_offer == 2
    assert state.version == 3
    assert state.clock is not None
    assert state.clock.remaining_ms == (40_000, 60_000)
    assert state.clock.deadline_ms == deadline


def test_a_moves_answer_is_rebuilt_with_the_clocks_as_they_were_then() -> None:
    session = game("tictactoe", {"n": 3, "k": 3}, 60, 3)
    play(session, 1, 0, 0, at=0)
    play(session, 2, 1, 1, at=0)
    play(session, 1, 0, 1, at=4_000)
    then = session.state()
    play(session, 2, 2, 2, at=9_000)
    rebuilt = result_at(session.move(3), session.state(), session.kind).state
    assert rebuilt == then
