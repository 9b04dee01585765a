"""The bot's protocol adapters with engines the tests script (no process, no server): what a
Gomocup brain and an NBoard engine are told, in which order, and what their answers mean; the
swap2 opening's answers as actions; the service's states as positions and clocks; and what the
command line refuses before it starts."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest

from adjudicator_client.bot.cli import main
from adjudicator_client.bot.engine import BadAnswer, CannotPlay, EngineGone
from adjudicator_client.bot.game import Action, swap2_plan
from adjudicator_client.bot.gomocup import (
    UNLIMITED_MS,
    Gomocup,
    Limits,
    Position,
    Stone,
    Swap2Answer,
)
from adjudicator_client.bot.nboard import NBoard, Played
from adjudicator_client.bot.positions import (
    answer_seconds,
    gomocup_position,
    limits,
    nboard_moves,
    seat_of,
)

T = TypeVar("T")


class Scripted:
    """An engine whose every answer is ``reply(line)``'s lines (none: it says nothing, and a
    read of it finds it gone, as a silent engine is taken for)."""

    def __init__(self, reply: Callable[[str], Iterable[str]]) -> None:
        self.reply = reply
        self.heard: list[str] = []
        self.saying: list[str] = []

    async def send(self, line: str) -> None:
        self.heard.append(line)
        self.saying.extend(self.reply(line))

    async def receive(self, timeout: float | None) -> str:
        if not self.saying:
            raise EngineGone("the scripted engine has nothing to say")
        return self.saying.pop(0)


def run(work: Awaitable[T]) -> T:
    async def awaited() -> T:
        return await work

    return asyncio.run(awaited())


def brain(moves: Iterable[str], **answers: list[str]) -> Scripted:
    """A Gomocup brain that answers OK to START and RESTART, its ``moves`` in turn to BEGIN,
    TURN and DONE, and ``answers[word]`` to other words."""
    queue = list(moves)

    def reply(line: str) -> list[str]:
        word = line.split(" ")[0]
        if word in answers:
            return answers[word]
        if word in ("START", "RECTSTART", "RESTART"):
            return ["OK"]
        if word in ("BEGIN", "TURN", "DONE"):
            return [queue.pop(0)]
        return []

    return Scripted(reply)


LIMITS = Limits(turn=5000)
RENJU = 4


def position(*stones: tuple[int, int, bool], side: int = 15, rule: int = RENJU) -> Position:
    return Position(side, side, rule, tuple(Stone(x, y, mine) for x, y, mine in stones))


def test_a_brain_is_started_told_the_rules_and_opens_with_begin() -> None:
    engine = brain(["7,7"])
    played = run(Gomocup(engine).move(position(), Limits(3000, 60000, 42000), 1.0))
    assert played == (7, 7)
    assert engine.heard == [
        "START 15", "ABOUT", "INFO timeout_turn 3000", "INFO timeout_match 60000",
        "INFO time_left 42000", "INFO rule 4", "BEGIN",
    ]  # fmt: skip


def test_a_clock_is_read_when_the_brain_is_ready_to_hear_it() -> None:
    engine = brain(["7,7"])
    heard_when_read: list[list[str]] = []

    def clock() -> Limits:  # a running clock's time, read after START and ABOUT took theirs
        heard_when_read.append(list(engine.heard))
        return Limits(3000, 60000, 42000)

    assert run(Gomocup(engine).move(position(), clock, 1.0)) == (7, 7)
    assert heard_when_read == [["START 15", "ABOUT"]]
    assert "INFO time_left 42000" in engine.heard


def test_the_opponents_one_new_stone_is_a_turn() -> None:
    engine = brain(["7,7", "8,8"])
    gomocup = Gomocup(engine)
    run(gomocup.move(position(), LIMITS, 1.0))
    engine.heard.clear()
    played = run(gomocup.move(position((7, 7, True), (6, 6, False)), LIMITS, 1.0))
    assert played == (8, 8)
    assert engine.heard[-1] == "TURN 6,6"
    assert not any(line.startswith(("START", "RESTART", "BOARD")) for line in engine.heard)


def test_a_brain_that_lost_the_game_is_told_the_whole_board_in_the_order_played() -> None:
    engine = brain(["7,7", "9,9"])
    gomocup = Gomocup(engine)
    run(gomocup.move(position(), LIMITS, 1.0))
    gomocup.lost()  # its answer was refused, say
    engine.heard.clear()
    now = position((8, 8, True), (6, 6, False), (5, 5, True), (4, 4, False))
    assert run(gomocup.move(now, LIMITS, 1.0)) == (9, 9)
    board = engine.heard[engine.heard.index("RESTART") :]
    assert board[board.index("BOARD") :] == ["BOARD", "8,8,1", "6,6,2", "5,5,1", "4,4,2", "DONE"]
    assert "START 15" not in engine.heard


def test_a_new_brain_that_moves_second_is_told_the_first_move_as_a_turn() -> None:
    engine = brain(["3,3"])
    run(Gomocup(engine).move(position((7, 7, False)), LIMITS, 1.0))
    assert engine.heard[0] == "START 15"
    assert engine.heard[-1] == "TURN 7,7"


def test_a_new_brain_in_a_game_that_goes_on_gets_the_board_without_restart() -> None:
    engine = brain(["3,3"])
    run(Gomocup(engine).move(position((7, 7, False), (1, 1, True), (2, 2, False)), LIMITS, 1.0))
    assert engine.heard[0] == "START 15"
    assert "RESTART" not in engine.heard
    assert engine.heard[-5:] == ["BOARD", "7,7,2", "1,1,1", "2,2,2", "DONE"]


def test_a_brain_that_does_not_know_restart_is_started_again() -> None:
    engine = brain(["7,7", "1,1"], RESTART=["UNKNOWN RESTART"])
    gomocup = Gomocup(engine)
    run(gomocup.move(position(), LIMITS, 1.0))
    gomocup.lost()
    run(gomocup.move(position((7, 7, True), (2, 2, False)), LIMITS, 1.0))
    assert engine.heard.count("START 15") == 2


def test_notes_are_passed_over_and_a_suggestion_is_played() -> None:
    engine = brain([], BEGIN=["MESSAGE thinking", "DEBUG depth 3", "", "SUGGEST 4,5"], PLAY=["4,5"])
    assert run(Gomocup(engine).move(position(), LIMITS, 1.0)) == (4, 5)
    assert engine.heard[-1] == "PLAY 4,5"


@pytest.mark.parametrize("answer", ["ERROR no move", "UNKNOWN", "15,3", "3", "x,y", "1,2,3"])
def test_an_answer_that_is_no_cell_of_the_board_is_a_bad_answer(answer: str) -> None:
    with pytest.raises(BadAnswer):
        run(Gomocup(brain([answer])).move(position(), LIMITS, 1.0))


def test_a_brain_that_refuses_the_board_size_cannot_play_the_game() -> None:
    with pytest.raises(CannotPlay, match="START 3"):
        run(Gomocup(brain([], START=["ERROR too small"])).move(position(side=3), LIMITS, 1.0))


def test_a_silent_brain_is_gone() -> None:
    with pytest.raises(EngineGone):
        run(Gomocup(brain([], BEGIN=[])).move(position(), LIMITS, 1.0))


def test_a_new_brain_is_asked_its_name_once() -> None:
    engine = brain(["7,7", "1,1"], ABOUT=['name="Yixin", version="2018", author="Sun Kai"'])
    gomocup = Gomocup(engine)
    run(gomocup.move(position(), LIMITS, 1.0))
    gomocup.lost()
    run(gomocup.move(position((7, 7, True), (2, 2, False)), LIMITS, 1.0))
    assert gomocup.name == "Yixin"
    assert engine.heard.count("ABOUT") == 1


@pytest.mark.parametrize(
    ("answer", "name"),
    [(['name="pbrain-x", version="1"'], "pbrain-x"), (["Old Brain 1.0"], "Old Brain 1.0"),
     (["UNKNOWN ABOUT"], None), ([], None)],
)  # fmt: skip
def test_a_brains_name_is_what_it_says_if_it_says_one(answer: list[str], name: str | None) -> None:
    assert run(Gomocup(brain([], ABOUT=answer)).about()) == name


@pytest.mark.parametrize(
    ("answer", "read"),
    [
        ("1,7 8,1 9,2", Swap2Answer(False, ((1, 7), (8, 1), (9, 2)))),
        ("swap", Swap2Answer(True)),
        ("8,8", Swap2Answer(False, ((8, 8),))),
        ("8,8 8,6", Swap2Answer(False, ((8, 8), (8, 6)))),
    ],
)
def test_swap2board_sends_the_stones_and_reads_the_answer(answer: str, read: Swap2Answer) -> None:
    engine = brain([], DONE=[answer])
    opening = position((7, 7, False), (8, 7, False), (9, 9, False))
    assert run(Gomocup(engine).swap2(opening, LIMITS, 1.0)) == read
    assert engine.heard[-5:] == ["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]


@pytest.mark.parametrize(
    "answer", ["SWAP 1,1", "1,1 2,2 3,3 4,4", "1,1 nowhere", "99,1", "1,1 2,2 1,1", "4,4"]
)
def test_a_swap2_answer_out_of_the_protocol_is_a_bad_answer(answer: str) -> None:
    opening = position((4, 4, False), (5, 5, False), (6, 6, False))
    with pytest.raises(BadAnswer):
        run(Gomocup(brain([], DONE=[answer])).swap2(opening, LIMITS, 1.0))


def test_after_swap2_the_game_goes_on_from_a_board() -> None:
    engine = brain(["6,6"], DONE=["7,7 8,7 9,9"])
    gomocup = Gomocup(engine)
    run(gomocup.swap2(position(), LIMITS, 1.0))
    engine.reply = brain(["6,6"]).reply
    engine.heard.clear()
    run(gomocup.move(position((7, 7, True), (8, 7, False), (9, 9, True), (5, 5, False)),
                     LIMITS, 1.0))  # fmt: skip
    assert "RESTART" not in engine.heard
    assert engine.heard[-6:] == ["BOARD", "7,7,1", "8,7,2", "9,9,1", "5,5,2", "DONE"]


@pytest.mark.parametrize(
    ("step", "placed", "answer", "plan"),
    [
        ("place_three", 0, Swap2Answer(False, ((1, 1), (2, 2), (3, 3))),
         [Action(cell=(1, 1)), Action(cell=(2, 2)), Action(cell=(3, 3))]),
        ("place_three", 2, Swap2Answer(False, ((1, 1), (2, 2), (3, 3))), [Action(cell=(3, 3))]),
        ("choose", 3, Swap2Answer(True), [Action(color="B")]),
        ("choose", 3, Swap2Answer(False, ((4, 4),)), [Action(color="W"), Action(cell=(4, 4))]),
        ("choose", 3, Swap2Answer(False, ((4, 4), (5, 5))),
         [Action(place_two=True), Action(cell=(4, 4)), Action(cell=(5, 5))]),
        ("place_two", 4, Swap2Answer(False, ((4, 4), (5, 5))), [Action(cell=(5, 5))]),
        ("choose_color", 5, Swap2Answer(True), [Action(color="B")]),
        ("choose_color", 5, Swap2Answer(False, ((6, 6),)),
         [Action(color="W"), Action(cell=(6, 6))]),
    ],
)  # fmt: skip
def test_a_swap2_answer_is_the_steps_actions(
    step: str, placed: int, answer: Swap2Answer, plan: list[Action]
) -> None:
    assert swap2_plan(step, placed, answer) == plan


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        ("place_three", Swap2Answer(True)),
        ("place_three", Swap2Answer(False, ((1, 1),))),
        ("choose", Swap2Answer(False, ((1, 1), (2, 2), (3, 3)))),
        ("choose_color", Swap2Answer(False, ((1, 1), (2, 2)))),
        ("place_two", Swap2Answer(True)),
    ],
)
def test_a_swap2_answer_the_step_has_no_use_for_is_a_bad_answer(
    step: str, answer: Swap2Answer
) -> None:
    with pytest.raises(BadAnswer):
        swap2_plan(step, 3, answer)


# --- NBoard -------------------------------------------------------------------------------------


GGF = "(;GM[Othello]PC[adjudicator]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- \n\
-------- -------- -------- *]B[f5//1.50];)"


def engine_of(moves: Iterable[str], **answers: list[str]) -> Scripted:
    """An NBoard engine: pong to each ping (after a note), its ``moves`` in turn to go."""
    queue = list(moves)

    def reply(line: str) -> list[str]:
        word, _, rest = line.partition(" ")
        if word in answers:
            return answers[word]
        if word == "ping":
            return ["status waiting", f"pong {rest}"]
        if word == "go":
            return ["nodestats 100 0.01", f"=== {queue.pop(0)}"]
        if line == "set depth 10":
            return ["set myname Tester"]
        return []

    return Scripted(reply)


def ggf_reader(texts: list[str]) -> Callable[[], Awaitable[str]]:
    async def read() -> str:
        texts.append(GGF)
        return GGF

    return read


def test_an_nboard_engine_is_told_the_whole_game_then_each_move() -> None:
    engine = engine_of(["f4/-1.5/0.2", "d3"])
    nboard = NBoard(engine, depth=10)
    read: list[str] = []
    first = [Played("f5", 1.5)]
    assert run(nboard.move(first, ggf_reader(read), 1.0)) == "f4"
    assert nboard.name == "Tester"
    assert engine.heard[:4] == ["nboard 2", "set depth 10", "ping 1", "set game " + " ".join(
        GGF.split()
    )]  # fmt: skip
    assert engine.heard[4:] == ["ping 2", "go"]
    engine.heard.clear()
    later = [*first, Played("f4", 0.25), Played("e3", None)]
    assert run(nboard.move(later, ggf_reader(read), 1.0)) == "d3"
    assert engine.heard == ["move f4//0.25", "move e3", "ping 3", "go"]
    assert len(read) == 1


@pytest.mark.parametrize("why", ["lost", "pass", "takeback", "takeback-replayed"])
def test_an_nboard_engine_is_told_the_whole_game_again_when_needed(why: str) -> None:
    engine = engine_of(["f4", "d3"])
    nboard = NBoard(engine, depth=10)
    read: list[str] = []
    moves = [Played("f5")]
    run(nboard.move(moves, ggf_reader(read), 1.0))
    if why == "lost":
        nboard.lost()
        moves = [*moves, Played("f4"), Played("e3")]
    elif why == "pass":
        moves = [*moves, Played("f4", passed=True)]
    elif why == "takeback":
        moves = []
    else:  # f5 taken back and another move played: as many moves as the engine was told
        moves = [Played("d3")]
    run(nboard.move(moves, ggf_reader(read), 1.0))
    assert len(read) == 2
    assert sum(line.startswith("set game") for line in engine.heard) == 2


def test_a_stale_pong_and_answer_are_passed_over() -> None:
    engine = engine_of(["c4"], ping=["=== a1", "pong 0", "pong 1"])
    nboard = NBoard(engine, depth=3)
    nboard.started = True
    assert run(nboard.move([], ggf_reader([]), 1.0)) == "c4"


class Stale:
    """An engine that answers every ping with a pong of long ago, one line a millisecond, and
    is taken for gone when a read's time is up (as ``EngineProcess`` is)."""

    async def send(self, line: str) -> None:
        pass

    async def receive(self, timeout: float | None) -> str:
        if timeout is not None and timeout <= 0:
            raise EngineGone("said nothing in time")
        await asyncio.sleep(0.001)
        return "pong 0"


def test_an_engine_that_never_pongs_the_ping_is_gone_within_the_pings_time() -> None:
    nboard = NBoard(Stale(), depth=3, wait=0.05)
    with pytest.raises(EngineGone):
        run(asyncio.wait_for(nboard.start(), 30))  # not a stale pong after another forever


@pytest.mark.parametrize("answer", ["PA", "pass", "z", "f5f6", ""])
def test_a_go_answer_that_is_no_square_is_a_bad_answer(answer: str) -> None:
    engine = engine_of([], go=[f"=== {answer}"])
    with pytest.raises(BadAnswer):
        run(NBoard(engine, depth=3).move([], ggf_reader([]), 1.0))


# --- positions ----------------------------------------------------------------------------------


def gomoku_state(**facts: Any) -> dict[str, Any]:
    return {"game": "gomoku", "rule": "renju", "size": 15, "players": {"1": "a", "2": "b"},
            "colors": {"1": "W", "2": "B"}, **facts}  # fmt: skip


def test_stones_are_the_brains_by_colour_and_choices_are_left_out() -> None:
    moves = [
        {"seq": 1, "row": 7, "col": 7, "player": 1, "color": "B"},
        {"seq": 2, "row": 6, "col": 7, "player": 1, "color": "W"},
        {"seq": 3, "row": 6, "col": 8, "player": 1, "color": "B"},
        {"seq": 4, "choice": "color", "player": 2},
        {"seq": 5, "row": 5, "col": 5, "player": 1, "color": "W"},
    ]
    state = gomoku_state()
    assert seat_of(state, "b") == 2
    seen = gomocup_position(state, moves, seat=2)  # seat 2 chose Black
    assert seen.stones == (Stone(7, 7, True), Stone(7, 6, False), Stone(8, 6, True),
                           Stone(5, 5, False))  # fmt: skip
    assert (seen.width, seen.rule) == (15, RENJU)


def test_a_tictactoe_stone_is_its_players() -> None:
    state = {"game": "tictactoe", "n": 7, "k": 4}
    moves = [{"seq": 1, "row": 0, "col": 1, "player": 1}, {"seq": 2, "row": 2, "col": 3,
                                                           "player": 2}]  # fmt: skip
    assert gomocup_position(state, moves, seat=2) == Position(
        7, 7, 0, (Stone(1, 0, False), Stone(3, 2, True))
    )


def clocked(running: int | None, deadline: datetime | None) -> dict[str, Any]:
    clock = {
        "initial_seconds": 60, "increment_seconds": 1, "remaining_ms": {"1": 30_000, "2": 8_000},
        "running": running, "deadline": None if deadline is None else deadline.isoformat(),
    }  # fmt: skip
    return gomoku_state(clock=clock)


def test_a_clock_that_waits_is_what_it_shows_less_the_margin() -> None:
    given = limits(clocked(None, None), seat=1, turn_seconds=10)
    assert given == Limits(turn=29_000, match=60_000, left=29_000)


def test_a_running_clock_counts_down_to_its_deadline() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    given = limits(clocked(2, now + timedelta(seconds=5)), seat=2, turn_seconds=10, now=now)
    assert given.left == 5_000 - 250
    assert answer_seconds(given, 10) > given.left / 1000


def test_a_clock_given_weeks_is_told_as_the_protocol_can_write_it() -> None:
    state = clocked(None, None)
    state["clock"]["remaining_ms"]["1"] = 40 * 86_400_000  # time given, stage after stage
    given = limits(state, seat=1, turn_seconds=10)
    assert given.left == given.turn == UNLIMITED_MS  # a 32-bit count of milliseconds


def test_no_clock_is_the_turn_seconds_and_no_match_limit() -> None:
    given = limits(gomoku_state(clock=None), seat=1, turn_seconds=2.5)
    assert (given.turn, given.match) == (2500, 0)
    assert answer_seconds(given, 2.5) == 10


def test_othello_records_are_told_with_their_time_and_passes() -> None:
    moves = [{"square": "f5", "spent_ms": 1500, "passed": False}, {"square": "d6", "passed": True}]
    assert nboard_moves(moves) == [Played("f5", 1.5, False), Played("d6", None, True)]


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--engine", "no-such-brain --fast", "--key", "k"], "cannot run 'no-such-brain'"),
        (["--engine", "python3 brain.py"], "--key or $ADJUDICATOR_KEY is needed"),
        (["--engine", "python3", "--key", "k", "--seek", "[1]"], "a seek is a JSON object"),
        (["--engine", "python3", "--key", "k", "--seek", "{"], "not JSON"),
        (["--engine", "python3", "--key", "k", "--seek", '{"game": {}, "rate": 1}'], "not rate"),
        (["--engine", "python3", "--key", "k", "--seek", '{"rated": true}'], "not a game"),
        (
            ["--engine", "python3", "--key", "k", "--seek", '{"game": {}, "rating_range": 5}'],
            "two numbers",
        ),
        (["--engine", "python3", "--key", "k", "--games", "0"], "must be at least 1"),
        (["--engine", "python3", "--key", "k", "--turn-seconds", "-1"], "at least 0"),
        (["--engine", "python3", "--key", "k", "--turn-seconds", "inf"], "number of seconds"),
        (["--engine", "python3", "--key", "k", "--turn-seconds", "nan"], "number of seconds"),
        (["--engine", "python3", "--key", "k", "--turn-seconds", "1e7"], "at most 2147483"),
        (["--engine", "python3", "--key", "k", "--rematch-seconds", "-5"], "at least 0"),
        (["--engine", "python3", "--key", "k", "--restarts", "-1"], "must be at least 0"),
        (["--engine", "python3", "--key", "k", "--refusals", "-2"], "must be at least 0"),
    ],
)
def test_the_command_line_refuses_what_cannot_work(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ADJUDICATOR_KEY", raising=False)
    with pytest.raises(SystemExit) as stopped:
        main(["--server", "http://127.0.0.1:9", "--protocol", "gomocup", *argv])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err
