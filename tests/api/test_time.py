"""Time as players and arbiters count it (API.md part 2, "Time"), through the HTTP API, for
every kind, on the memory store, one Redis and a Redis Cluster: the clock's modes (Fischer,
Bronstein, delay) and stages, time given to the other player, and the times every move record
of a clocked game carries (``at``, ``spent_ms``).

Each timed move is checked against the mode's rule from the records' own instants: the time
the mover's clock ran is the time since the previous change (after the delay, in delay mode),
and what the mover has left is what it had, less that, plus what the mode gives back. (The
arithmetic is held to a millisecond-ticking reference by tests/sessions/test_clock_modes.py,
and Lua to Python by tests/sessions/test_stores_agree.py.)
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from app.api.games import events as event_stream
from app.api.games import routes
from app.api.games.events import PAGE
from app.main import create_app
from app.sessions.clock import CLOCK_MODES
from tests.api.problems import assert_problem
from tests.api.test_endings import act, events
from tests.api.test_games_api import parse_events
from tests.api.test_lifecycle import client, create, kind
from tests.api.test_session_kinds import Kind
from tests.conftest import shared_settings

__all__ = ["client", "kind"]  # the fixtures, shared with test_lifecycle.py

LONG = 600  # seconds: no flag falls during a test


def auth(game: dict[str, Any], player: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][str(player)]}"}


def give(client: TestClient, game: dict[str, Any], player: int, body: Any) -> Any:
    return client.post(f"/v1/games/{game['id']}/give-time", json=body, headers=auth(game, player))


def state(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/games/{game['id']}").json()
    return answer


def ms(instant: str) -> int:
    """An RFC 3339 UTC instant with milliseconds, as milliseconds since the epoch."""
    assert instant.endswith("Z")
    assert len(instant.split(".")[1]) == 4  # three digits of milliseconds, and the Z
    return round(datetime.fromisoformat(instant).timestamp() * 1000)


# A bound that only keeps a broken stream from hanging the suite (keep-alives come meanwhile):
# what is awaited comes at once.
GIVE_UP_SECONDS = 60


def first_events(
    client: TestClient, game: dict[str, Any], since: int, until: str, count: int = 1
) -> list[dict[str, str]]:
    """The events a stream of a game in progress sends after version ``since``, up to the
    ``count``-th ``until`` event."""
    url = f"/v1/games/{game['id']}/events"
    given_up = time.monotonic() + GIVE_UP_SECONDS
    with client.stream("GET", url, params={"since": since}) as response:
        buffer = ""
        for chunk in response.iter_text():
            buffer += chunk
            sent = parse_events(buffer) if buffer.endswith("\n\n") else []
            if sum(event["event"] == until for event in sent) >= count:
                return sent
            assert time.monotonic() < given_up, f"no {until} event: {buffer[-500:]!r}"
    raise AssertionError("the stream ended")


def moved(client: TestClient, game: dict[str, Any], player: int, row: int, col: int) -> Any:
    answer = client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col}, headers=auth(game, player)
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.mark.parametrize("mode", ["fischer", "bronstein", "delay"])
def test_each_timed_move_runs_the_clock_as_its_mode_says(
    client: TestClient, kind: Kind, mode: str
) -> None:
    increment = 3
    stages = [{"after_moves": 2, "add_seconds": 30}]
    clock = {"initial_seconds": LONG, "increment_seconds": increment, "mode": mode}
    game = create(client, kind, clock={**clock, "stages": stages})
    assert game["clock"] == {
        **clock, "stages": stages, "remaining_ms": {"1": LONG * 1000, "2": LONG * 1000},
        "running": None, "deadline": None,
    }  # fmt: skip
    before = game
    made = {1: 0, 2: 0}
    for player, row, col in kind.script[:5]:
        answer = moved(client, game, player, row, col)
        record, after = answer["move"], answer["state"]
        made[player] += 1
        at = ms(record["at"])
        if before["clock"]["running"] is None:  # an untimed first move
            assert record["spent_ms"] == 0
            ran, given = 0, 0
        else:
            assert before["clock"]["running"] == player
            turn = ms(before["last_move"]["at"])  # the turn began with the last change
            ran = at - turn if mode != "delay" else max(0, at - turn - increment * 1000)
            given = {"fischer": increment * 1000, "bronstein": min(ran, increment * 1000),
                     "delay": 0}[mode]  # fmt: skip
            assert record["spent_ms"] == ran
        stage = 30_000 if made[player] == 2 else 0
        left = before["clock"]["remaining_ms"][str(player)] - ran + given + stage
        assert after["clock"]["remaining_ms"][str(player)] == left
        runs = after["clock"]["running"]
        if runs is not None:
            delay = increment * 1000 if mode == "delay" else 0
            assert ms(after["clock"]["deadline"]) == (
                at + delay + after["clock"]["remaining_ms"][str(runs)]
            )
        assert client.get(f"/v1/games/{game['id']}/moves/{record['seq']}").json() == record
        before = after


def test_every_change_says_when_it_was_made(client: TestClient, kind: Kind) -> None:
    """An untimed game's too: its moves say when (not how long: no clock ran)."""
    game = create(client, kind)
    made = ms(game["at"])
    player, row, col = kind.script[0]
    answer = moved(client, game, player, row, col)
    record, after = answer["move"], answer["state"]
    assert "spent_ms" not in record
    assert after["at"] == record["at"]  # the move is the game's last change
    assert ms(record["at"]) >= made
    offered = client.post(f"/v1/games/{game['id']}/draw-offer", headers=auth(game, 2)).json()
    assert ms(offered["at"]) >= ms(record["at"])
    assert state(client, game)["at"] == offered["at"]
    # Every event's data says when: a move's answer (its state: the move's instant), a state.
    sent = first_events(client, game, 0, "offer")
    assert [e["event"] for e in sent][-1] == "offer"
    for event in sent:
        data = json.loads(event["data"])
        shown = data["state"] if event["event"] == "move" else data
        assert shown["at"] == (record["at"] if event["event"] == "move" else offered["at"])


def test_a_flag_falls_at_its_instant_and_the_game_says_so(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3, "clock": {"initial_seconds": 1}}).json()
    moved(client, game, 1, 0, 0)
    deadline = moved(client, game, 2, 1, 1)["state"]["clock"]["deadline"]
    time.sleep(max(0.0, ms(deadline) / 1000 - time.time()) + 0.1)  # nobody looks meanwhile
    ended = state(client, game)
    assert (ended["status"], ended["reason"]) == ("won", "timeout")
    assert ended["at"] == deadline  # the fall's instant, whenever it was read


def test_time_given_goes_on_the_other_players_clock_at_once(client: TestClient, kind: Kind) -> None:
    game = create(client, kind, clock={"initial_seconds": LONG, "increment_seconds": 0})
    for player, row, col in kind.script[:3]:
        moved(client, game, player, row, col)
    before = state(client, game)
    runs = before["clock"]["running"]
    waits = 3 - runs
    # To the player whose clock runs: its deadline moves by the time given.
    answer = give(client, game, waits, {"seconds": 15})
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["version"] == before["version"] + 1
    assert after["move_count"] == before["move_count"]
    assert ms(after["clock"]["deadline"]) == ms(before["clock"]["deadline"]) + 15_000
    # To the player who waits: its time left grows, and the deadline stays.
    again = give(client, game, runs, {"seconds": 3600, "player": runs}).json()
    assert again["clock"]["remaining_ms"][str(waits)] == (
        before["clock"]["remaining_ms"][str(waits)] + 3_600_000
    )
    assert again["clock"]["deadline"] == after["clock"]["deadline"]
    sent = first_events(client, game, before["version"], "clock", count=2)
    # A stream read after both gifts sends each, with the clocks it left.
    assert [(e["event"], e["id"], json.loads(e["data"])) for e in sent] == [
        ("clock", str(after["version"]), after),
        ("clock", str(again["version"]), again),
    ]


def test_time_given_is_refused_without_a_clock_when_left_out_and_after_the_end(
    client: TestClient, kind: Kind
) -> None:
    untimed = create(client, kind)
    answer = give(client, untimed, 1, {"seconds": 15})
    assert_problem(answer, 409, "action_not_allowed")
    assert (answer.json()["action"], answer.json()["why"]) == ("give_time", "no_clock")
    clock = {"initial_seconds": LONG, "increment_seconds": 0}
    left_out = create(client, kind, clock=clock, rules={"give_time": False})
    answer = give(client, left_out, 1, {"seconds": 15})
    assert_problem(answer, 409, "action_not_allowed")
    assert answer.json()["action"] == "give_time"
    ended = create(client, kind, clock=clock)
    client.post(f"/v1/games/{ended['id']}/resign", headers=auth(ended, 1))
    assert_problem(give(client, ended, 2, {"seconds": 15}), 409, "game_over")
    for game in (untimed, left_out):
        assert state(client, game)["version"] == 0


@pytest.mark.parametrize(
    "body",
    [{}, {"seconds": 0}, {"seconds": 3601}, {"seconds": "15"}, {"seconds": 1.5},
     {"seconds": True}, {"seconds": 15, "player": 3}, {"seconds": 15, "extra": 1}, [15],
     {"seconds": "\u0661\u0665"}, {"seconds": 10**100}, {"seconds": "1\x00"},
     {"seconds": 15, "player": "\u0661"}],
)  # fmt: skip
def test_time_given_that_is_no_time_is_refused_and_changes_nothing(
    client: TestClient, kind: Kind, body: Any
) -> None:
    game = create(client, kind, clock={"initial_seconds": LONG, "increment_seconds": 0})
    assert_problem(give(client, game, 1, body), 422, "validation_error")
    assert state(client, game) == {k: v for k, v in game.items() if k != "tokens"}


@pytest.mark.parametrize(
    "clock",
    [
        {"initial_seconds": 60, "mode": "hourglass"},
        {"initial_seconds": 60, "mode": None},
        {"initial_seconds": 60, "stages": [{"after_moves": 40, "add_seconds": 900}] * 2},
        {"initial_seconds": 60, "stages": [{"after_moves": 40, "add_seconds": 900},
                                           {"after_moves": 20, "add_seconds": 900}]},
        {"initial_seconds": 60, "stages": [{"after_moves": 0, "add_seconds": 900}]},
        {"initial_seconds": 60, "stages": [{"after_moves": 40, "add_seconds": 0}]},
        {"initial_seconds": 60, "stages": [{"after_moves": 40}]},
        {"initial_seconds": 60, "stages": [{"after_moves": n, "add_seconds": 1}
                                           for n in range(1, 12)]},
        {"initial_seconds": 60, "stages": {"after_moves": 40, "add_seconds": 900}},
        {"initial_seconds": 60, "mode": "\u0000fischer"},
        {"initial_seconds": 60, "mode": "FISCHER"},
        {"initial_seconds": 60, "stages": [{"after_moves": 10**100, "add_seconds": 1}]},
        {"initial_seconds": 60, "stages": [{"after_moves": "\u0664\u0660", "add_seconds": 1}]},
    ],
)  # fmt: skip
def test_a_time_control_the_rules_do_not_know_is_refused(
    client: TestClient, kind: Kind, clock: dict[str, Any]
) -> None:
    answer = client.post("/v1/games", json={**kind.body, "clock": clock})
    assert_problem(answer, 422, "validation_error")


def played_by_squares(
    client: TestClient, body: dict[str, Any], transcript: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A new game of ``body`` whose players play the two-character squares of ``transcript``
    in turn; the game and its move records."""
    game = client.post("/v1/games", json=body).json()
    for index in range(0, len(transcript), 2):
        answer = client.post(
            f"/v1/games/{game['id']}/moves", json={"square": transcript[index : index + 2]},
            headers=auth(game, 1 + index // 2 % 2),
        )  # fmt: skip
        assert answer.status_code == 201, answer.text
    records: list[dict[str, Any]] = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
    return game, records


@pytest.mark.parametrize("mode", ["fischer", "delay"])
def test_a_clocked_games_records_carry_its_times_and_audit_back_without_them(
    client: TestClient, mode: str
) -> None:
    clock = {"initial_seconds": LONG, "increment_seconds": 1, "mode": mode}
    game, records = played_by_squares(client, {"game": "reversi", "clock": clock}, "f5d6c3d3")
    record = client.get(f"/v1/games/{game['id']}/record").json()
    # The JSON record is the audit's: the same chain and state, replayed without time.
    body = {k: v for k, v in record.items() if k not in ("state", "chain", "signature")}
    audited = client.post("/v1/records/audit", json=body).json()
    assert (audited["chain"], audited["state"]) == (record["chain"], record["state"])
    assert "at" not in record["state"]["last_move"]
    # GGF writes each move's time (seconds, to the hundredth), and GGS's clock only for
    # Fischer.
    ggf = client.get(f"/v1/games/{game['id']}/record", params={"format": "ggf"}).text
    times = re.findall(r"[BW]\[[a-h][1-8]//([\d.]+)\]", ggf)
    assert times == [f"{r['spent_ms'] / 1000:.2f}" for r in records]
    assert ("TI[10:00/00:01/00:00]" in ggf) == (mode == "fischer")
    audited = client.post("/v1/records/audit", json={"record": ggf, "format": "ggf"}).json()
    assert audited["chain"] == record["chain"]


def test_a_clocked_gomoku_games_psq_carries_each_stones_milliseconds(client: TestClient) -> None:
    clock = {"initial_seconds": LONG, "increment_seconds": 0}
    game, records = played_by_squares(client, {"game": "gomoku", "clock": clock}, "h8h9j8a1")
    psq = client.get(f"/v1/games/{game['id']}/record", params={"format": "psq"}).text
    lines = psq.splitlines()[1:5]
    assert [int(line.split(",")[2]) for line in lines] == [r["spent_ms"] for r in records]


def test_a_retried_gift_gives_once_and_a_game_has_at_most_its_gifts(module_store_url: str) -> None:
    """Past the refusals a game remembers, a keyed gift's retry is still its first answer; past
    ``game_time_gifts``, a gift is refused and changes nothing."""
    settings = shared_settings(
        store_url=module_store_url, game_time_gifts=2, max_refusals_per_game=0
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        clock = {"initial_seconds": LONG, "increment_seconds": 0}
        game = client.post("/v1/games", json={"n": 3, "clock": clock}).json()
        keyed = {**auth(game, 1), "Idempotency-Key": "gift-1"}
        url = f"/v1/games/{game['id']}/give-time"
        first = client.post(url, json={"seconds": 10}, headers=keyed)
        again = client.post(url, json={"seconds": 10}, headers=keyed)
        assert again.json() == first.json()
        assert again.headers["idempotent-replayed"] == "true"
        assert give(client, game, 2, {"seconds": 5}).status_code == 200
        before = state(client, game)
        refused = give(client, game, 1, {"seconds": 5})
        assert_problem(refused, 409, "action_not_allowed")
        assert refused.json()["why"] == "too_many_gifts"
        assert state(client, game) == before
        assert before["clock"]["remaining_ms"] == {
            "1": LONG * 1000 + 5000,
            "2": LONG * 1000 + 10_000,
        }


def test_a_stream_that_reads_late_sends_a_join_and_a_takeback_at_their_instants(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind, open=True)
    joined = client.post(f"/v1/games/{game['id']}/join").json()
    tokens = {1: game["tokens"]["1"], 2: joined["token"]}
    seated = {**game, "tokens": {"1": tokens[1], "2": tokens[2]}}
    for player, row, col in kind.script[:3]:
        moved(client, seated, player, row, col)
    mover = kind.script[2][0]
    client.post(f"/v1/games/{game['id']}/takeback-offer", headers=auth(seated, mover))
    taken = client.post(f"/v1/games/{game['id']}/takeback-offer", headers=auth(seated, 3 - mover))
    assert taken.status_code == 200, taken.text
    player, row, col = kind.script[2]
    moved(client, seated, player, row, col)
    client.post(f"/v1/games/{game['id']}/resign", headers=auth(seated, 1))
    sent = {e["event"]: json.loads(e["data"]) for e in events(client, game)}
    assert sent["join"]["at"] == joined["state"]["at"]
    assert sent["takeback"]["at"] == taken.json()["at"]


Sent = tuple[str, str | None, Any]  # an event's name, its id, and its data parsed


def sent_of(stream: list[dict[str, str]]) -> list[Sent]:
    return [(e["event"], e.get("id"), json.loads(e["data"])) for e in stream]


class Live:
    """A game's stream read as the game changes: after each change, until its event came."""

    def __init__(self, client: TestClient, game: dict[str, Any], chunks: Iterator[str]) -> None:
        self.client, self.game, self.chunks = client, game, chunks
        self.buffer = ""

    def sent(self) -> list[Sent]:
        """The events sent so far."""
        return sent_of(parse_events(self.buffer.rpartition("\n\n")[0]))

    def change(self, name: str, answer: dict[str, Any]) -> dict[str, Any]:
        """The change answered ``answer`` (a move's answer, or the state): its event is sent,
        ``name`` with the answer as data, and it is the last sent."""
        version = str((answer["state"] if name == "move" else answer)["version"])
        given_up = time.monotonic() + GIVE_UP_SECONDS
        while not any(event[1] == version for event in self.sent()):
            assert time.monotonic() < given_up, f"no event {version}: {self.buffer[-500:]!r}"
            self.buffer += next(self.chunks)
        assert self.sent()[-1] == (name, version, answer)
        return answer

    def move(self, player: int, row: int, col: int) -> dict[str, Any]:
        return self.change("move", moved(self.client, self.game, player, row, col))

    def give(self, player: int, seconds: int) -> dict[str, Any]:
        answer = give(self.client, self.game, player, {"seconds": seconds})
        assert answer.status_code == 200, answer.text
        return self.change("clock", answer.json())

    def end(self, answer: Response) -> list[Sent]:
        """The game ended by the change that answered (a change of its own: the end has its
        id): the stream ends with it. Every event the stream sent."""
        assert answer.status_code == 200, answer.text
        self.buffer += "".join(self.chunks)
        ended = answer.json()
        assert self.sent()[-1] == ("end", str(ended["version"]), ended)
        return self.sent()


@contextmanager
def live(client: TestClient, game: dict[str, Any]) -> Iterator[Live]:
    """A stream of ``game`` from its start, read live."""
    with client.stream("GET", f"/v1/games/{game['id']}/events") as response:
        yield Live(client, game, response.iter_text())


def read_late(
    client: TestClient, game: dict[str, Any], expected: list[Sent], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream of the ended game read from the start or resumed after any version, its moves
    read a page of any size at a time (``events.PAGE``: the route's first read too), sends
    the ``expected`` events after that version."""
    for since in range(int(expected[-1][1] or 0)):
        for page in (1, 2, PAGE):
            monkeypatch.setattr(event_stream, "PAGE", page)
            monkeypatch.setattr(routes, "PAGE", page)
            after = [event for event in expected if int(event[1] or 0) > since]
            assert sent_of(events(client, game, since)) == after, (since, page)


@pytest.mark.parametrize("mode", CLOCK_MODES)
def test_a_stream_read_late_sends_every_gift_of_time_in_its_place(
    client: TestClient, kind: Kind, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Time given before the first move, twice between two moves, while a draw offer stands,
    and after the last move: a stream read after the end — from the start, or resumed after
    any version, its moves read a page of any size at a time — sends exactly the events a
    live stream sent, each gift's ``clock`` event with the state right after it (the clocks
    with the time given, its instant)."""
    game = create(client, kind, clock={"initial_seconds": LONG, "increment_seconds": 2,
                                       "mode": mode})  # fmt: skip
    script = kind.script
    with live(client, game) as stream:
        stream.give(2, 10)
        stream.move(*script[0])
        stream.move(*script[1])
        stream.give(1, 20)
        stream.give(2, 30)
        stream.change("offer", act(client, game, 1, "draw-offer").json())
        assert stream.give(script[2][0], 40)["draw_offer"] == 1  # the offer stands: shown
        stream.move(*script[2])
        stream.move(*script[3])
        stream.give(1, 50)
        sent = stream.end(act(client, game, 2, "resign"))
    # A draw offer a move declined is history: no stream that reads after the move sends it.
    read_late(client, game, [event for event in sent if event[0] != "offer"], monkeypatch)


def test_a_gift_of_time_after_a_move_taken_back_is_not_sent_by_a_stream_read_later(
    client: TestClient, kind: Kind, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Time given after a move that a takeback then took back is history, as that move is: a
    stream that reads after the takeback sends the takeback's state in their place (its clocks
    hold the time given: no takeback rolls a clock back); the gifts whose moves stand are sent
    in their places."""
    game = create(client, kind, clock={"initial_seconds": LONG, "increment_seconds": 1})
    script = kind.script
    mover = script[2][0]
    with live(client, game) as stream:
        stream.move(*script[0])
        stream.move(*script[1])
        stream.give(1, 10)
        stream.move(*script[2])
        lost = stream.give(mover, 20)
        stream.change("takeback", act(client, game, mover, "takeback-offer").json())
        taken = stream.change("takeback", act(client, game, 3 - mover, "takeback-offer").json())
        assert taken["move_count"] == 2
        stream.move(*script[2])
        stream.give(3 - mover, 30)
        sent = stream.end(act(client, game, 1, "resign"))
    # What a stream reading later no longer sends: the move taken back, the gift after it, the
    # takeback's offer (accepted since). The takeback's state shows the clocks as they are.
    gone = {str(lost["version"] - 1), str(lost["version"]), str(taken["version"] - 1)}
    expected = [event for event in sent if event[1] not in gone]
    late = sent_of(events(client, game, 0))
    assert [event[:2] for event in late] == [event[:2] for event in expected]
    index = [event[0] for event in expected].index("takeback")
    shown = late[index][2]
    assert shown == {**taken, "clock": shown["clock"]}
    expected[index] = late[index]
    read_late(client, game, expected, monkeypatch)


def test_a_late_gifts_state_shows_the_first_move_deadline_and_the_last_takeback_of_then(
    client: TestClient, kind: Kind
) -> None:
    """What a gift's state shows that the game no longer does — the deadline of a first move
    not yet made, the takeback before it when another came after — is the gift's own: read
    late, each gift's ``clock`` event is the one the live stream sent."""
    game = create(client, kind, clock={"initial_seconds": LONG, "increment_seconds": 1},
                  first_move_seconds=LONG)  # fmt: skip
    script = kind.script
    mover = script[2][0]

    def take_back() -> None:
        stream.change("takeback", act(client, game, mover, "takeback-offer").json())
        stream.change("takeback", act(client, game, 3 - mover, "takeback-offer").json())

    with live(client, game) as stream:
        before_moves = stream.give(2, 10)
        assert "first_move_deadline" in before_moves
        stream.move(*script[0])
        stream.move(*script[1])
        stream.move(*script[2])
        take_back()
        after_takeback = stream.give(1, 20)
        assert after_takeback["last_takeback"] is not None
        stream.move(*script[2])
        take_back()  # another, after the gift: the game's last takeback is now this one
        sent = stream.end(act(client, game, 1, "resign"))
    live_gifts = {event[1]: event for event in sent if event[0] == "clock"}
    late_gifts = {e[1]: e for e in sent_of(events(client, game, 0)) if e[0] == "clock"}
    assert late_gifts == live_gifts
    assert set(live_gifts) == {str(before_moves["version"]), str(after_takeback["version"])}
