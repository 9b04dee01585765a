"""``adjudicator-bot`` against a real server (with an archive: its players): two bots, each a
process with an engine of its own, play a game by its id — freestyle gomoku, renju with swap2
and a clock, k in a row, Othello with a clock — with the example engines of ``docs/examples``
(so the docs' engines stay true), and engines that misbehave (``faulty_engine.py``): one that
crashes, one that answers taken cells, one too slow for its clock. A bot started again resumes
its game. Then games from the player's stream: bots that seek play each other game after game,
a bot accepts a challenge (and declines one its engine does not play), bots play their
tournament's games, and a bot stopped mid-game and started again finds its game on its stream.
Each bot says one line per game, which the service's own state bears out."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adjudicator_client import Client
from tests.servers import uvicorn_server

CLIENT = Path(__file__).resolve().parents[1]
EXAMPLES = CLIENT.parents[1] / "docs" / "examples"
FAULTY = Path(__file__).resolve().parent / "faulty_engine.py"
GOMOCUP = f"{sys.executable} {EXAMPLES / 'gomocup_random.py'}"
NBOARD = f"{sys.executable} {EXAMPLES / 'nboard_random.py'}"
LINE = re.compile(
    r"game (?P<id>\S+) (?P<kind>\S+) seat (?P<seat>[12]) \((?P<mark>[BWXO])\): "
    r"(?P<outcome>won|lost|drawn|aborted) by (?P<reason>\S+) after (?P<moves>\d+) moves; "
    r"engine restarts (?P<restarts>\d+), refused answers (?P<refusals>\d+)"
    r"(?: \(gave up: (?P<gave_up>.+)\))?"
)
BOT_SECONDS = 240  # a game of random engines takes seconds; this only keeps a test from hanging


def faulty(engine: str, *faults: str) -> str:
    """The engine behind the misbehaving proxy."""
    return f"{sys.executable} {FAULTY} {' '.join(faults)} -- {engine}"


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    archive = tmp_path_factory.mktemp("bots") / "archive.sqlite3"
    with uvicorn_server({"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{archive}"}) as served:
        yield served


def bot(url: str, key: str, engine: str, protocol: str, *more: str) -> subprocess.Popen[str]:
    """An ``adjudicator-bot`` process (this checkout's client first on its path)."""
    path = os.pathsep.join([str(CLIENT / "src"), os.environ.get("PYTHONPATH", "")])
    return subprocess.Popen(
        [sys.executable, "-m", "adjudicator_client.bot", "--server", url, "--engine", engine,
         "--protocol", protocol, *more],
        env={**os.environ, "PYTHONPATH": path, "ADJUDICATOR_KEY": key},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


@dataclass
class Said:
    """What a bot said of its game (its line's fields), and what else it wrote."""

    line: dict[str, Any]
    stderr: str


def said_all(process: subprocess.Popen[str]) -> list[Said]:
    """Each line the bot said, once it stopped by itself."""
    out, err = process.communicate(timeout=BOT_SECONDS)
    assert process.returncode == 0, err
    assert "Traceback" not in err, err
    found = [LINE.fullmatch(line) for line in out.splitlines()]
    assert all(match is not None for match in found), out
    return [Said(match.groupdict(), err) for match in found if match is not None]


def said(process: subprocess.Popen[str]) -> Said:
    (one,) = said_all(process)
    return one


@dataclass
class Duel:
    """Two players and a game of theirs: Ann made it with her key (seat 1), Bo joined it."""

    api: Client
    game_id: str
    keys: tuple[str, str]

    def bots(self, url: str, engines: tuple[str, str], protocol: str,
             *more: str) -> tuple[Said, Said]:  # fmt: skip
        running = [
            bot(url, key, engine, protocol, f"--game={self.game_id}", *more)
            for key, engine in zip(self.keys, engines, strict=True)
        ]
        first, second = (said(process) for process in running)
        return first, second

    def state(self) -> dict[str, Any]:
        return dict(self.api.get_game(self.game_id))


def duel(api: Client, **game: Any) -> Duel:
    ann, bo = api.create_player("Ann"), api.create_player("Bo")
    made = api.create_game(open=True, key=ann["key"], **game)
    api.join_game(made["id"], key=bo["key"])
    return Duel(api, made["id"], (ann["key"], bo["key"]))


def bears_out(lines: tuple[Said, Said], state: dict[str, Any]) -> None:
    """Both lines say what the service's state says: the game, the moves, the reason, each
    seat's outcome."""
    assert state["status"] != "in_progress"
    words = {"won": "won", "draw": "drawn", "aborted": "aborted"}
    for seat, told in enumerate(lines, start=1):
        line = told.line
        assert (line["id"], int(line["seat"])) == (state["id"], seat)
        assert (int(line["moves"]), line["reason"]) == (state["move_count"], state["reason"])
        expected = words[state["status"]]
        if state["status"] == "won" and state["winner"] != seat:
            expected = "lost"
        assert line["outcome"] == expected


def test_two_gomocup_bots_play_freestyle_gomoku(url: str) -> None:
    with Client(url) as api:
        game = duel(api, game="gomoku")
        lines = game.bots(url, (GOMOCUP, GOMOCUP), "gomocup")
        state = game.state()
    bears_out(lines, state)
    assert state["reason"] in ("line", "board_full")
    assert all(told.line["refusals"] == told.line["restarts"] == "0" for told in lines)
    assert [told.line["mark"] for told in lines] == ["B", "W"]


def test_two_gomocup_bots_play_renju_with_swap2_and_a_clock(url: str) -> None:
    clock = {"initial_seconds": 120, "increment_seconds": 2}
    with Client(url) as api:
        game = duel(api, game="gomoku", rule="renju", opening="swap2", clock=clock)
        # A random Black plays renju's forbidden points now and then: refused, asked again.
        lines = game.bots(url, (GOMOCUP, GOMOCUP), "gomocup")
        state = game.state()
    bears_out(lines, state)
    assert state["reason"] in ("line", "board_full")
    assert state["opening"] is None  # the brains placed the stones and chose the colours
    assert {told.line["mark"] for told in lines} == {"B", "W"}
    assert [told.line["mark"] for told in lines] == [state["colors"]["1"], state["colors"]["2"]]
    assert all(told.line["restarts"] == "0" for told in lines)


def test_two_gomocup_bots_play_k_in_a_row(url: str) -> None:
    with Client(url) as api:
        game = duel(api, n=7, k=4)
        lines = game.bots(url, (GOMOCUP, GOMOCUP), "gomocup")
        state = game.state()
    bears_out(lines, state)
    assert [told.line["mark"] for told in lines] == ["X", "O"]


def test_two_nboard_bots_play_othello_with_a_clock(url: str) -> None:
    clock = {"initial_seconds": 120, "increment_seconds": 2}
    with Client(url) as api:
        game = duel(api, game="reversi", clock=clock)
        lines = game.bots(url, (NBOARD, NBOARD), "nboard")
        state = game.state()
        record = api.get_record_text(game.game_id, "ggf")
    bears_out(lines, state)
    assert state["reason"] == "no_moves"  # played out: random movers never pass a legal move
    assert all(told.line["refusals"] == told.line["restarts"] == "0" for told in lines)
    assert record.count("[") > 60


@pytest.mark.parametrize(
    ("protocol", "engine", "game"),
    [("gomocup", GOMOCUP, {"game": "gomoku"}), ("nboard", NBOARD, {"game": "reversi"})],
    ids=["gomocup", "nboard"],
)
def test_an_engine_that_crashes_is_started_again_and_the_game_goes_on(
    url: str, tmp_path: Path, protocol: str, engine: str, game: dict[str, Any]
) -> None:
    crashing = faulty(engine, "--crash-after", "4", "--once", str(tmp_path / "crashed"))
    with Client(url) as api:
        match = duel(api, **game)
        lines = match.bots(url, (crashing, engine), protocol)
        state = match.state()
    bears_out(lines, state)
    assert (tmp_path / "crashed").exists()
    assert lines[0].line["restarts"] == "1"
    assert state["reason"] not in ("resignation", "aborted")  # it played on, to the end
    assert "starting it again" in lines[0].stderr


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_an_engine_killed_mid_game_is_started_again_and_the_game_resumed(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        slow = faulty(NBOARD, "--slow", "0.05")
        running = [bot(url, key, slow, "nboard", f"--game={match.game_id}") for key in match.keys]
        deadline = time.monotonic() + BOT_SECONDS
        while match.state()["move_count"] < 12 and time.monotonic() < deadline:
            time.sleep(0.05)
        (engine,) = children(running[0].pid)  # the first bot's engine: one game, one engine
        os.kill(engine, signal.SIGKILL)
        first, second = (said(process) for process in running)
        state = match.state()
    bears_out((first, second), state)
    assert first.line["restarts"] == "1"
    assert state["reason"] == "no_moves"  # resumed and played out


@pytest.mark.parametrize(
    ("protocol", "engine", "game"),
    [("gomocup", GOMOCUP, {"game": "gomoku"}), ("nboard", NBOARD, {"game": "reversi"})],
    ids=["gomocup", "nboard"],
)
def test_a_refused_answer_is_never_taken_for_played(
    url: str, protocol: str, engine: str, game: dict[str, Any]
) -> None:
    with Client(url) as api:
        match = duel(api, **game)
        lines = match.bots(url, (faulty(engine, "--illegal", "1"), engine), protocol)
        state = match.state()
        moves = api.list_moves(match.game_id)["moves"]
    bears_out(lines, state)
    assert lines[0].line["refusals"] == "1"
    assert "cell_occupied" in lines[0].stderr
    assert state["reason"] not in ("resignation", "aborted")
    squares = [move["square"] for move in moves]
    assert len(squares) == len(set(squares))  # what was played is what the service accepted


def test_an_engine_whose_answers_keep_being_refused_resigns(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        lines = match.bots(url, (faulty(NBOARD, "--illegal", "100"), NBOARD), "nboard")
        state = match.state()
    bears_out(lines, state)
    assert (state["reason"], state["winner"]) == ("resignation", 2)
    assert lines[0].line["refusals"] == "6"  # --refusals 5 by default: the sixth resigns
    assert "answers refused in a row" in (lines[0].line["gave_up"] or "")


def test_a_slow_engine_loses_on_time_and_its_bot_moves_on(url: str) -> None:
    clock = {"initial_seconds": 2, "increment_seconds": 0}
    with Client(url) as api:
        match = duel(api, game="gomoku", clock=clock)
        slow = faulty(GOMOCUP, "--slow", "1.5")
        lines = match.bots(url, (slow, GOMOCUP), "gomocup")
        state = match.state()
    bears_out(lines, state)
    assert (state["reason"], state["winner"]) == ("timeout", 2)
    assert lines[0].line["outcome"] == "lost"  # its bot stopped its engine and said so


def test_a_bot_started_again_resumes_its_game(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        ann, bo = match.keys
        slow = faulty(NBOARD, "--slow", "0.2")
        first = bot(url, ann, slow, "nboard", f"--game={match.game_id}")
        other = bot(url, bo, slow, "nboard", f"--game={match.game_id}")
        deadline = time.monotonic() + BOT_SECONDS
        while match.state()["move_count"] < 10 and time.monotonic() < deadline:
            time.sleep(0.1)
        first.send_signal(signal.SIGKILL)  # the bot is gone mid-game, its engine with it
        first.communicate(timeout=BOT_SECONDS)
        again = bot(url, ann, NBOARD, "nboard", f"--game={match.game_id}")
        lines = said(again), said(other)
        state = match.state()
    bears_out(lines, state)
    assert state["reason"] == "no_moves"


def test_a_game_the_engine_does_not_play_is_aborted(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        line = said(bot(url, match.keys[0], GOMOCUP, "gomocup", f"--game={match.game_id}"))
        state = match.state()
        again = bot(url, match.keys[0], GOMOCUP, "gomocup", f"--game={match.game_id}")
        out, _ = again.communicate(timeout=BOT_SECONDS)
    assert state["status"] == "aborted"
    assert line.line["outcome"] == "aborted"
    assert "do not play reversi" in (line.line["gave_up"] or "")
    assert out == f"game {match.game_id} reversi: not played: it was over before the bot read it\n"


class Cutter:
    """A TCP proxy on loopback in front of the server, in a thread of its own: ``cut`` closes
    every connection it carries (a dropped network), and refuses new ones for ``seconds`` (the
    service away for a while)."""

    def __init__(self, target: str) -> None:
        self.host, _, port = target.removeprefix("http://").partition(":")
        self.target_port = int(port)
        self.loop = asyncio.new_event_loop()
        self.carried: set[asyncio.StreamWriter] = set()
        self.down_until = 0.0
        ready = threading.Event()
        self.port = 0

        async def serve() -> None:
            server = await asyncio.start_server(self._carry, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            async with server:
                await server.serve_forever()

        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(serve(),),
                                       daemon=True)  # fmt: skip
        self.thread.start()
        ready.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if time.monotonic() < self.down_until:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(self.host, self.target_port)
        self.carried |= {writer, up_writer}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.carried -= {writer, up_writer}

    def cut(self, seconds: float = 0.0) -> None:
        def close_all() -> None:
            self.down_until = time.monotonic() + seconds
            for writer in list(self.carried):
                writer.transport.abort()

        self.loop.call_soon_threadsafe(close_all)


def test_bots_survive_dropped_connections_and_a_service_away_for_a_while(url: str) -> None:
    cutter = Cutter(url)
    with Client(url) as api:
        match = duel(api, game="reversi", clock={"initial_seconds": 120, "increment_seconds": 1})
        slow = faulty(NBOARD, "--slow", "0.1")
        running = [bot(cutter.url, key, slow, "nboard", f"--game={match.game_id}")
                   for key in match.keys]  # fmt: skip
        for moves, seconds in ((8, 0.0), (20, 3.0), (36, 0.0)):
            deadline = time.monotonic() + BOT_SECONDS
            while match.state()["move_count"] < moves and time.monotonic() < deadline:
                time.sleep(0.05)
            cutter.cut(seconds)
        first, second = (said(process) for process in running)
        state = match.state()
    bears_out((first, second), state)
    assert state["reason"] == "no_moves"  # played out: nobody lost track, nobody flagged
    assert all(told.line["refusals"] == told.line["restarts"] == "0" for told in (first, second))
    assert "event stream dropped" in first.stderr + second.stderr  # the cuts were felt


# --- the opponent's offers: draws, takebacks, rematches ------------------------------------------


def until(api: Client, game_id: str, token: str, wanted: Any) -> dict[str, Any]:
    """The game's state once ``wanted(state)`` holds (the other side is a bot: it gets there)."""
    deadline = time.monotonic() + BOT_SECONDS
    while True:
        state = dict(api.get_game(game_id, token=token))
        if wanted(state):
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.05)


def human_move(api: Client, game_id: str, token: str) -> dict[str, Any]:
    """A move of the test's own side (a person's, at a bot's game): its first legal move."""
    legal = api.list_legal_moves(game_id, limit=1, token=token)["moves"][0]
    return dict(api.make_move(game_id, token, legal["row"], legal["col"])["state"])


def test_a_bot_declines_draw_and_takeback_offers_by_playing_on(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        ann, bo = match.keys
        running = bot(url, ann, faulty(NBOARD, "--slow", "0.3"), "nboard",
                      f"--game={match.game_id}", "-v")  # fmt: skip
        for offer in (api.offer_draw, api.offer_takeback):
            while True:  # an offer made while the bot is to move (its engine thinks)
                until(api, match.game_id, bo, lambda state: state["next_player"] == 2)
                human_move(api, match.game_id, bo)
                offered: dict[str, Any] = dict(offer(match.game_id, bo))
                if offered["next_player"] == 1:
                    break
            version, moves = int(offered["version"]), int(offered["move_count"])
            answered = until(api, match.game_id, bo,
                             lambda state, seen=version: state["version"] > seen)  # fmt: skip
            assert answered["status"] == "in_progress"
            assert answered["move_count"] == moves + 1  # its move: the answer
            assert (answered["draw_offer"], answered["takeback_offer"]) == (None, None)
        api.resign(match.game_id, bo)
        told = said(running)
    assert (told.line["outcome"], told.line["reason"]) == ("won", "resignation")
    assert "offers a draw: declined" in told.stderr
    assert "offers a takeback: declined" in told.stderr


def test_a_bot_told_to_accept_draws_accepts_the_opponents_offer(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        ann, bo = match.keys
        running = bot(url, ann, NBOARD, "nboard", f"--game={match.game_id}", "--accept-draws")
        until(api, match.game_id, bo, lambda state: state["next_player"] == 2)
        api.offer_draw(match.game_id, bo)  # on its own turn: the bot's answer is no move
        told = said(running)
        state = match.state()
    assert (state["status"], state["reason"]) == ("draw", "agreement")
    assert (told.line["outcome"], told.line["reason"]) == ("drawn", "agreement")


def test_a_bot_accepts_a_rematch_while_it_would_play_on(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        ann, bo = match.keys
        running = bot(url, ann, NBOARD, "nboard", f"--game={match.game_id}", "--games", "2")
        until(api, match.game_id, bo, lambda state: state["next_player"] == 2)
        api.resign(match.game_id, bo)
        assert api.rematch(match.game_id, bo)["rematch"] is None  # Bo's offer stands
        made = until(api, match.game_id, bo, lambda state: state.get("rematch"))["rematch"]
        mine = api.rematch(match.game_id, bo)["rematch"]  # Bo's seat and token in it
        assert mine is not None
        assert mine["id"] == made
        seat, token = mine["player"], mine["token"]
        while True:  # Bo moves (it may open the rematch), and resigns once the bot has moved
            state = until(api, made, token, lambda state: state["next_player"] == seat)
            if state["move_count"] >= 2:
                break
            human_move(api, made, token)
        api.resign(made, token)
        assert api.rematch(made, token)["rematch"] is None  # its second game: it plays no third
        first, second = said_all(running)
        state = dict(api.get_game(made, token=token))
    assert (first.line["id"], second.line["id"]) == (match.game_id, made)
    assert int(second.line["seat"]) == 3 - seat
    assert all(told.line["outcome"] == "won" for told in (first, second))
    assert "rematch" not in state  # the bot is gone: Bo's offer stands unanswered


# --- games from the player's stream -------------------------------------------------------------


def players(api: Client, *names: str) -> list[dict[str, str]]:
    made = [api.create_player(name) for name in names]
    return [{"id": player["id"], "name": player["name"], "key": player["key"]} for player in made]


def played_alike(first: list[Said], second: list[Said], api: Client) -> list[dict[str, Any]]:
    """Both bots said a line for each of the same games, each over, as the service says."""
    games = sorted(told.line["id"] for told in first)
    assert games == sorted(told.line["id"] for told in second)
    assert len(set(games)) == len(games)
    states = []
    for game_id in games:
        mine = next(told for told in first if told.line["id"] == game_id)
        theirs = next(told for told in second if told.line["id"] == game_id)
        state = dict(api.get_game(game_id))
        pair = (mine, theirs) if mine.line["seat"] == "1" else (theirs, mine)
        bears_out(pair, state)
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("protocol", "engine", "seeks", "games"),
    [
        ("gomocup", GOMOCUP, [{"game": {"game": "gomoku", "rule": "renju"}},
                              {"game": {"game": "gomoku"}, "rated": True}], 4),
        ("nboard", NBOARD, [{"game": {"game": "reversi",
                                      "clock": {"initial_seconds": 60, "increment_seconds": 1}}}],
         3),
    ],
    ids=["gomocup", "nboard"],
)  # fmt: skip
def test_two_seeking_bots_play_each_other_game_after_game(
    url: str, protocol: str, engine: str, seeks: list[dict[str, Any]], games: int
) -> None:
    with Client(url) as api:
        ann, bo = players(api, "Ann", "Bo")
        asked = [arg for seek in seeks for arg in ("--seek", json.dumps(seek))]
        more = [*asked, "--games", str(games)]
        running = [bot(url, p["key"], engine, protocol, *more) for p in (ann, bo)]
        first, second = (said_all(process) for process in running)
        states = played_alike(first, second, api)
        assert len(states) >= games
        assert all(told.line["restarts"] == "0" for told in first + second)
        assert api.list_seeks()["seeks"] == []  # none left waiting: withdrawn at the end
        archived = api.list_archived_games(player=ann["id"])["games"]
        assert {game["id"] for game in archived} == {state["id"] for state in states}
    if len(seeks) > 1:
        assert {state["rule"] for state in states} == {"renju", "freestyle"}


def test_a_bot_accepts_a_challenge_it_plays_and_declines_one_it_does_not(url: str) -> None:
    with Client(url) as api:
        ann, bo = players(api, "Ann", "Bo")
        accepting = bot(url, bo["key"], GOMOCUP, "gomocup", "--accept-challenges", "--games", "1")
        playing = bot(url, ann["key"], GOMOCUP, "gomocup", "--games", "1")  # its stream's games
        api.create_challenge(bo["id"], {"game": "reversi"}, key=ann["key"])
        deadline = time.monotonic() + BOT_SECONDS
        while api.list_challenges(key=ann["key"])["outgoing"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert api.list_challenges(key=ann["key"])["outgoing"] == []  # declined
        api.create_challenge(bo["id"], {"game": "gomoku", "size": 9}, key=ann["key"])
        (mine,), (theirs,) = said_all(playing), said_all(accepting)
        (state,) = played_alike([mine], [theirs], api)
    assert (state["game"], state["size"]) == ("gomoku", 9)


def test_bots_play_their_tournaments_games(url: str) -> None:
    with Client(url) as api:
        org, ann, bo, cy = players(api, "Org", "Ann", "Bo", "Cy")
        made = api.create_tournament(
            "Bots", "round_robin", {"game": "gomoku", "size": 9}, key=org["key"],
            players=[ann["id"], bo["id"], cy["id"]],
        )  # fmt: skip
        running = [bot(url, p["key"], GOMOCUP, "gomocup", "--games", "2") for p in (ann, bo, cy)]
        for _ in range(3):  # three players: three rounds, a bye each
            api.pair_round(made["id"], key=org["key"])
            deadline = time.monotonic() + BOT_SECONDS
            while any(p["game"] is not None and p["result"] is None
                      for r in api.get_tournament(made["id"])["rounds"]
                      for p in r["pairings"]) and time.monotonic() < deadline:  # fmt: skip
                time.sleep(0.2)
        lines = [said_all(process) for process in running]
        done = api.get_tournament(made["id"])
    assert done["status"] == "finished"
    assert all(len(told) == 2 for told in lines)  # each played its two games
    paired = {p["game"] for r in done["rounds"] for p in r["pairings"] if p["game"]}
    assert {told.line["id"] for told in itertools.chain(*lines)} == paired


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_a_bot_told_to_stop_withdraws_its_seek_and_stops_its_engine(url: str) -> None:
    with Client(url) as api:
        match = duel(api, game="reversi")
        ann = match.keys[0]
        seek = json.dumps({"game": {"game": "reversi", "rules": {"takeback": False}}})
        running = bot(url, ann, faulty(NBOARD, "--slow", "30"), "nboard",
                      f"--game={match.game_id}", "--seek", seek)  # fmt: skip
        deadline = time.monotonic() + BOT_SECONDS
        while not children(running.pid) or not api.list_seeks()["seeks"]:  # thinks, and seeks
            assert time.monotonic() < deadline
            time.sleep(0.05)
        (engine,) = children(running.pid)
        running.send_signal(signal.SIGTERM)  # as a service manager stops it
        out, err = running.communicate(timeout=BOT_SECONDS)
        assert running.returncode == 128 + signal.SIGTERM
        assert "Traceback" not in err
        assert out.startswith(f"game {match.game_id} reversi seat 1 (B): left in progress after")
        assert api.list_seeks()["seeks"] == []  # withdrawn: no game made that nobody plays
    assert not Path(f"/proc/{engine}").exists()


def test_a_seeking_bot_started_again_finds_its_game_on_its_stream(url: str) -> None:
    with Client(url) as api:
        ann, bo = players(api, "Ann", "Bo")
        seek = ["--seek", json.dumps({"game": {"game": "reversi"}}), "--games", "1"]
        slow = faulty(NBOARD, "--slow", "0.2")
        first = bot(url, ann["key"], slow, "nboard", *seek)
        other = bot(url, bo["key"], slow, "nboard", *seek)
        stream = api.player_events(ann["id"], key=ann["key"])
        game_id = next(event.data["game"] for event in stream if event.event == "game")
        stream.close()
        deadline = time.monotonic() + BOT_SECONDS
        while api.get_game(game_id)["move_count"] < 10 and time.monotonic() < deadline:
            time.sleep(0.1)
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=BOT_SECONDS)
        again = bot(url, ann["key"], NBOARD, "nboard", *seek)
        (mine,), (theirs,) = said_all(again), said_all(other)
        (state,) = played_alike([mine], [theirs], api)
    assert state["reason"] == "no_moves"
