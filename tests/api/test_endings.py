"""Endings a referee decides — resignation, draw offers, flag falls — through the HTTP API, for
every game kind, on both stores, with and without clocks (contract: "Ending a game").

What is checked: each action's answer and the state a later read shows; ``version`` counting
every change while ``move_count`` counts moves; ETag / 304; events (``offer``, ``end``, ids that
are versions, resumption); ``Idempotency-Key`` and ``If-Match`` on actions; every refusal
changing nothing; racing actions against moves; the games-ended metric.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.kinds import REGISTRY
from app.main import create_app
from app.settings import Settings
from app.stores.memory import MemoryGameStore
from tests.api.problems import assert_problem
from tests.api.test_games_api import parse_events
from tests.api.test_hostile_params import live_games
from tests.api.test_session_kinds import KINDS, Kind
from tests.conftest import app_settings, shared_settings

LONG_CLOCK = {"initial_seconds": 600, "increment_seconds": 5}  # never falls during a test


@pytest.fixture(params=KINDS, ids=[kind.name for kind in KINDS])
def kind(request: pytest.FixtureRequest) -> Kind:
    chosen: Kind = request.param
    return chosen


@pytest.fixture(params=[False, True], ids=["unclocked", "clocked"])
def clocked(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    """One app per store for the module (an app per test took most of its time): each test
    reads the games it creates, and what the games-ended counter gained meanwhile."""
    settings = shared_settings(store_url=module_store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as shared:
        yield shared


def create(client: TestClient, kind: Kind, clock: dict[str, int] | None = None) -> dict[str, Any]:
    body = kind.body if clock is None else {**kind.body, "clock": clock}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def auth(game: dict[str, Any], player: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][str(player)]}"}


def move(client: TestClient, game: dict[str, Any], player: int, row: int, col: int) -> Any:
    answer = client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col}, headers=auth(game, player)
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def act(
    client: TestClient, game: dict[str, Any], player: int, action: str, **headers: str
) -> httpx.Response:
    path = f"/v1/games/{game['id']}/{action}"
    return client.post(path, headers={**auth(game, player), **headers})


def state(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/games/{game['id']}").json()
    return answer


def events(client: TestClient, game: dict[str, Any], since: int = 0) -> list[dict[str, str]]:
    response = client.get(f"/v1/games/{game['id']}/events", params={"since": since})
    assert response.status_code == 200
    return parse_events(response.text)


def ended_metric(client: TestClient) -> dict[str, float]:
    return {
        sample.labels["reason"]: sample.value
        for family in text_string_to_metric_families(client.get("/metrics").text)
        for sample in family.samples
        if sample.name == "adjudicator_games_ended_total"
    }


def ended_since(client: TestClient, before: dict[str, float]) -> dict[str, float]:
    """What the games-ended counter gained, by reason, since it read ``before``."""
    now = ended_metric(client)
    return {reason: now[reason] - before.get(reason, 0) for reason in now
            if now[reason] != before.get(reason, 0)}  # fmt: skip


def test_a_resignation_wins_the_game_for_the_other_player(
    client: TestClient, kind: Kind, clocked: bool
) -> None:
    counted = ended_metric(client)
    game = create(client, kind, LONG_CLOCK if clocked else None)
    player, row, col = kind.script[0]
    move(client, game, player, row, col)
    loser = 2
    tag = client.get(f"/v1/games/{game['id']}").headers["etag"]

    answer = act(client, game, loser, "resign")

    assert answer.status_code == 200, answer.text
    ended = answer.json()
    assert (ended["status"], ended["winner"], ended["reason"], ended["next_player"]) == (
        "won", 1, "resignation", None,
    )  # fmt: skip
    assert (ended["version"], ended["move_count"]) == (2, 1)
    assert state(client, game) == ended
    assert client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": tag}).status_code == 200
    if clocked:
        assert ended["clock"]["running"] is None
        assert ended["clock"]["deadline"] is None
    # After the end every action and move is refused, and changes nothing.
    for action in ("resign", "draw-offer"):
        problem = assert_problem(act(client, game, 1, action), 409, "game_over")
        assert (problem["game_status"], problem["winner"], problem["reason"]) == (
            "won", 1, "resignation",
        )  # fmt: skip
        assert problem["detail"] == "the game is over: player 1 won by resignation"
    next_player, row, col = kind.script[1]
    refused = client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
        headers=auth(game, next_player),
    )  # fmt: skip
    assert_problem(refused, 409, "game_over")
    assert state(client, game) == ended
    # The stream: the move (id 1), then the ending, a change of its own (id 2).
    stream = events(client, game)
    assert [(e["event"], e.get("id")) for e in stream] == [("move", "1"), ("end", "2")]
    assert json.loads(stream[1]["data"]) == ended
    assert ended_since(client, counted) == {"resignation": 1.0}


def test_draw_offers_stand_until_a_move_and_two_make_a_draw(
    client: TestClient, kind: Kind, clocked: bool
) -> None:
    counted = ended_metric(client)
    game = create(client, kind, LONG_CLOCK if clocked else None)
    (p1, r1, c1), (p2, r2, c2) = kind.script[:2]

    offered = act(client, game, p1, "draw-offer")
    assert offered.status_code == 200
    assert (offered.json()["draw_offer"], offered.json()["version"]) == (p1, 1)
    assert offered.json()["move_count"] == 0
    again = act(client, game, p1, "draw-offer")  # its own offer stands: nothing changes
    assert (again.status_code, again.json()) == (200, offered.json())
    assert [(e["event"], e.get("id")) for e in events_until_quiet(client, game)] == [("offer", "1")]

    declined = move(client, game, p1, r1, c1)  # a move declines the standing offer
    assert declined["move"]["seq"] == 1
    assert (declined["state"]["version"], declined["state"]["draw_offer"]) == (2, None)
    listed = client.get(f"/v1/games/{game['id']}/moves", params={"since": 0}).json()
    assert [m["seq"] for m in listed["moves"]] == [1]
    assert listed["version"] == 2
    assert client.get(f"/v1/games/{game['id']}/moves/1").json() == declined["move"]

    move(client, game, p2, r2, c2)  # version 3
    assert act(client, game, p2, "draw-offer").json()["version"] == 4
    agreed = act(client, game, p1, "draw-offer")  # the other's offer stands: accepted

    final = agreed.json()
    assert (final["status"], final["winner"], final["reason"], final["draw_offer"]) == (
        "draw", 0, "agreement", None,
    )  # fmt: skip
    assert (final["version"], final["move_count"]) == (5, 2)
    # Events have versions for ids; an offer that a move declined, or that the agreement
    # ended, is history a stream resumed later does not need.
    stream = events(client, game)
    assert [(e["event"], e.get("id")) for e in stream] == [
        ("move", "2"), ("move", "3"), ("end", "5"),
    ]  # fmt: skip
    answers = [json.loads(e["data"]) for e in stream[:2]]
    assert answers[0] == {**declined, "state": answers[0]["state"]}
    assert answers[0]["state"] == declined["state"]
    resumed = events(client, game, since=3)
    assert [(e["event"], e.get("id")) for e in resumed] == [("end", "5")]
    assert assert_problem(act(client, game, p2, "draw-offer"), 409, "game_over")
    assert ended_since(client, counted) == {"agreement": 1.0}


def events_until_quiet(client: TestClient, game: dict[str, Any]) -> list[dict[str, str]]:
    """The events of a game in progress that are sent at once (the stream then waits)."""
    collected: list[dict[str, str]] = []
    with client.stream("GET", f"/v1/games/{game['id']}/events") as response:
        buffer = ""
        for chunk in response.iter_text():
            buffer += chunk
            if buffer.endswith("\n\n") and parse_events(buffer):
                collected = parse_events(buffer)
                break
    return collected


def test_idempotency_key_and_if_match_apply_to_actions(
    client: TestClient, kind: Kind, clocked: bool
) -> None:
    game = create(client, kind, LONG_CLOCK if clocked else None)
    first = act(client, game, 2, "draw-offer", **{"Idempotency-Key": "offer-1"})
    player, row, col = kind.script[0]
    move(client, game, player, row, col)  # declines the offer
    replay = act(client, game, 2, "draw-offer", **{"Idempotency-Key": "offer-1"})
    assert replay.status_code == 200
    assert replay.headers["idempotent-replayed"] == "true"
    assert replay.json() == first.json()  # the first answer, not a new offer
    assert state(client, game)["draw_offer"] is None
    reused = act(client, game, 2, "resign", **{"Idempotency-Key": "offer-1"})
    assert_problem(reused, 422, "idempotency_key_reused")
    before = state(client, game)
    stale = act(client, game, 2, "resign", **{"If-Match": f'"{game["id"]}.1"'})
    assert assert_problem(stale, 412, "precondition_failed")["version"] == before["version"]
    assert state(client, game) == before
    current = client.get(f"/v1/games/{game['id']}").headers["etag"]
    assert act(client, game, 2, "resign", **{"If-Match": current}).json()["reason"] == "resignation"


def test_refused_actions_change_nothing(client: TestClient, kind: Kind) -> None:
    game = create(client, kind)
    before = state(client, game)
    path = f"/v1/games/{game['id']}"
    assert_problem(client.post(f"{path}/resign"), 401, "unauthorized")
    stranger = {"Authorization": "Bearer not-a-token"}
    assert_problem(client.post(f"{path}/draw-offer", headers=stranger), 401, "unauthorized")
    claimed = client.post(f"{path}/resign", json={"player": 2}, headers=auth(game, 1))
    assert_problem(claimed, 403, "wrong_player")
    garbage = client.post(f"{path}/resign", content=b"[", headers=auth(game, 1))
    assert garbage.status_code in (400, 422)
    unknown = client.post(f"{path}/resign", json={"resign": True}, headers=auth(game, 1))
    assert_problem(unknown, 422, "validation_error")
    nobody = client.post("/v1/games/nope/resign", headers=auth(game, 1))
    assert_problem(nobody, 404, "game_not_found")
    assert state(client, game) == before
    form = client.post(
        f"{path}/resign", json={"player": 1},
        headers={**auth(game, 1), "content-type": "application/x-www-form-urlencoded"},
    )  # fmt: skip
    assert_problem(form, 422, "validation_error")
    assert state(client, game) == before
    named = client.post(f"{path}/draw-offer", json={"player": 1}, headers=auth(game, 1))
    assert named.json()["draw_offer"] == 1
    # No body at all, whatever content type a client declares for it: the token says who.
    empty = client.post(
        f"{path}/draw-offer",
        headers={**auth(game, 2), "content-type": "application/x-www-form-urlencoded"},
    )
    assert (empty.status_code, empty.json()["reason"]) == (200, "agreement")


def test_a_clocked_game_shows_its_clocks_start_with_the_second_players_first_move(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind, {"initial_seconds": 300, "increment_seconds": 2})
    assert game["clock"] == {
        "initial_seconds": 300, "increment_seconds": 2, "mode": "fischer", "stages": [],
        "remaining_ms": {"1": 300_000, "2": 300_000}, "running": None, "deadline": None,
    }  # fmt: skip
    assert "clock" not in create(client, kind)  # a game without clocks has none
    (p1, r1, c1), (p2, r2, c2) = kind.script[:2]
    assert move(client, game, p1, r1, c1)["state"]["clock"]["running"] is None
    answer = move(client, game, p2, r2, c2)
    clock, now = answer["state"]["clock"], answer["state"]
    assert clock["remaining_ms"] == {"1": 300_000, "2": 300_000}  # untimed, no increment
    assert clock["running"] == now["next_player"]
    deadline = datetime.fromisoformat(clock["deadline"])
    assert clock["deadline"].endswith("Z")
    assert deadline.utcoffset() is not None
    # The state is stable between changes: the same ETag, 304.
    tag = client.get(f"/v1/games/{game['id']}").headers["etag"]
    assert client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": tag}).status_code == 304


@pytest.mark.parametrize(
    "clock",
    [
        {"initial_seconds": 0},
        {"initial_seconds": 604_801},
        {"initial_seconds": 60, "increment_seconds": -1},
        {"initial_seconds": 60, "increment_seconds": 86_401},
        {"initial_seconds": "60"},
        {"initial_seconds": 60, "extra": 1},
        {},
        [60, 0],
    ],
)
def test_a_bad_clock_is_refused_and_creates_nothing(
    client: TestClient, clock: Any, kind: Kind
) -> None:
    before = live_games(client)
    answer = client.post("/v1/games", json={**kind.body, "clock": clock})
    problem = assert_problem(answer, 422, "validation_error")
    assert any(error["loc"][:2] == ["body", "clock"] for error in problem["errors"]), problem
    assert live_games(client) == before


class Time:
    """The memory store's wall clock, moved by hand."""

    def __init__(self) -> None:
        self.seconds = 1_800_000_000.0

    def __call__(self) -> float:
        return self.seconds


def test_a_flag_falls_at_its_deadline_with_nobody_looking(kind: Kind) -> None:
    time = Time()
    store = MemoryGameStore(REGISTRY, 100, 3600, wall_clock=time)
    with TestClient(create_app(Settings(), store=store), raise_server_exceptions=False) as client:
        game = create(client, kind, {"initial_seconds": 10, "increment_seconds": 1})
        (p1, r1, c1), (p2, r2, c2), (p3, r3, c3) = kind.script[:3]
        move(client, game, p1, r1, c1)
        move(client, game, p2, r2, c2)
        time.seconds += 4
        third = move(client, game, p3, r3, c3)["state"]
        assert third["clock"]["remaining_ms"][str(p3)] == 7_000
        flagged = third["next_player"]
        time.seconds += 10  # the running clock had 10 s left: its flag has fallen

        ended = state(client, game)

        assert (ended["status"], ended["winner"], ended["reason"]) == (
            "won", 3 - flagged, "timeout",
        )  # fmt: skip
        assert (ended["version"], ended["move_count"]) == (4, 3)
        assert ended["clock"]["remaining_ms"][str(flagged)] == 0
        assert ended["clock"]["running"] is None
        player, row, col = kind.script[3]
        late = client.post(
            f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
            headers=auth(game, player),
        )  # fmt: skip
        assert assert_problem(late, 409, "game_over")["reason"] == "timeout"
        assert_problem(act(client, game, 1, "draw-offer"), 409, "game_over")
        assert state(client, game) == ended
        stream = events(client, game)
        assert [(e["event"], e.get("id")) for e in stream][-1] == ("end", "4")
        assert ended_metric(client) == {"timeout": 1.0}


@pytest.mark.anyio
@pytest.mark.parametrize("action", ["resign", "draw-offer"])
async def test_an_action_racing_a_move_has_one_outcome(
    store_url: str, kind: Kind, action: str
) -> None:
    app = create_app(app_settings(store_url=store_url))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as racer:
        for _ in range(5):
            game = (await racer.post("/v1/games", json=kind.body)).json()
            path = f"/v1/games/{game['id']}"
            player, row, col = kind.script[0]
            other = 3 - player
            moved, acted = await asyncio.gather(
                racer.post(f"{path}/moves", json={"row": row, "col": col},
                           headers=auth(game, player)),
                racer.post(f"{path}/{action}", headers=auth(game, other)),
            )  # fmt: skip
            final = (await racer.get(path)).json()
            listed = (await racer.get(f"{path}/moves")).json()["moves"]
            if action == "resign":
                assert acted.status_code == 200
                assert (final["reason"], final["winner"]) == ("resignation", player)
                # The move came first (and counts), or after the end (refused, not recorded).
                assert moved.status_code in (201, 409)
                assert len(listed) == (1 if moved.status_code == 201 else 0)
                assert final["version"] == len(listed) + 1
            else:
                assert (moved.status_code, acted.status_code) == (201, 200)
                assert len(listed) == 1
                assert final["move_count"] == 1
                assert final["version"] == 2
                # An offer after the move stands; one before it was declined by it.
                offered_first = acted.json()["version"] == 1
                assert final["draw_offer"] == (None if offered_first else other)
