"""A game's lifecycle (API.md part 2, "The lobby, spectators and the game's lifecycle"), through
the HTTP API, for every kind, on the memory store, one Redis and a Redis Cluster: aborting
before the players' second move (and not after), the first-move deadline aborting a game at its
instant whether or not anybody looks (also when the game is read through another process), and
the rule flags that leave an action out. Every refusal changes nothing; every bad creation
parameter is a 422 naming it and creates nothing.

(Python and Lua are held to one policy for these by tests/sessions/test_stores_agree.py, on
injected time; here the deadlines pass on the stores' own clocks.)
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.sessions.errors import RULE_FLAGS
from tests.api.problems import assert_problem
from tests.api.test_endings import ended_metric, ended_since, events
from tests.api.test_games_api import parse_events
from tests.api.test_hostile_params import live_games
from tests.api.test_session_kinds import KINDS, Kind
from tests.conftest import app_settings, shared_settings


@pytest.fixture(params=KINDS, ids=[kind.name for kind in KINDS])
def kind(request: pytest.FixtureRequest) -> Kind:
    chosen: Kind = request.param
    return chosen


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    with TestClient(
        create_app(shared_settings(store_url=module_store_url)), raise_server_exceptions=False
    ) as shared:
        yield shared


def create(client: TestClient, kind: Kind, **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json={**kind.body, **extra})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def auth(game: dict[str, Any], player: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][str(player)]}"}


def play(
    client: TestClient, game: dict[str, Any], kind: Kind, count: int, start: int = 0
) -> dict[str, Any]:
    """The kind's script's moves from ``start`` up to ``count`` (the first ones: from 0); the
    state after them."""
    state: dict[str, Any] = {}
    for player, row, col in kind.script[start:count]:
        answer = client.post(
            f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
            headers=auth(game, player),
        )  # fmt: skip
        assert answer.status_code == 201, answer.text
        state = answer.json()["state"]
    return state


def read(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/games/{game['id']}").json()
    return answer


def both_moved(kind: Kind) -> int:
    """How many of the script's moves it takes until each player has made one."""
    return next(i + 1 for i, move in enumerate(kind.script) if move[0] != kind.script[0][0])


# --- abort -----------------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [0, 1])
@pytest.mark.parametrize("who", [1, 2])
def test_a_game_is_aborted_before_both_players_have_moved(
    client: TestClient, kind: Kind, moves: int, who: int
) -> None:
    game = create(client, kind)
    before = play(client, game, kind, moves) if moves else game
    answer = client.post(f"/v1/games/{game['id']}/abort", headers=auth(game, who))
    assert answer.status_code == 200, answer.text
    state = answer.json()
    assert (state["status"], state["winner"], state["reason"]) == ("aborted", 0, "aborted")
    assert (state["next_player"], state["move_count"]) == (None, moves)
    assert state["version"] == before["version"] + 1
    assert answer.headers["etag"] == f'"{game["id"]}.{state["version"]}"'
    assert read(client, game) == state
    if kind.name == "reversi":
        assert state["final_score"] is None  # an aborted game has no result
    # Over: nothing more is taken, and the stream says it was aborted, then that it ended.
    again = client.post(f"/v1/games/{game['id']}/abort", headers=auth(game, who))
    assert assert_problem(again, 409, "game_over")["reason"] == "aborted"
    player, row, col = kind.script[moves]
    late = client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
        headers=auth(game, player),
    )  # fmt: skip
    assert_problem(late, 409, "game_over")
    stream = events(client, game, since=before["version"])
    assert [(e["event"], e.get("id")) for e in stream] == [
        ("abort", str(state["version"])), ("end", None),
    ]  # fmt: skip
    spec = client.get("/openapi.json").json()
    media = spec["paths"]["/v1/games/{game_id}/events"]["get"]["responses"]["200"]["content"]
    schema = {**media["text/event-stream"]["x-sse-events"], "components": spec["components"]}
    for event in stream:  # as the documented event schema says
        parsed = {**event, "data": json.loads(event["data"])}
        assert jsonschema_rs.Draft202012Validator(schema).is_valid(parsed), event
        assert parsed["data"] == state
    assert read(client, game) == state


def test_once_both_players_have_moved_it_is_too_late_to_abort(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind)
    state = play(client, game, kind, both_moved(kind))
    for who in (1, 2):
        refused = client.post(
            f"/v1/games/{game['id']}/abort", headers={**auth(game, who), "Idempotency-Key": "k"}
        )
        assert_problem(refused, 409, "too_late_to_abort")
        replayed = client.post(
            f"/v1/games/{game['id']}/abort", headers={**auth(game, who), "Idempotency-Key": "k"}
        )
        assert_problem(replayed, 409, "too_late_to_abort")
        assert replayed.headers.get("idempotent-replayed") == "true"
    assert read(client, game) == state
    # Resigning is still the way out.
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=auth(game, 1))
    assert resigned.json()["reason"] == "resignation"


def test_an_open_game_waiting_for_its_player_may_be_aborted(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3, "open": True}).json()
    aborted = client.post(f"/v1/games/{game['id']}/abort", headers=auth(game, 1))
    assert aborted.status_code == 200, aborted.text
    assert (aborted.json()["status"], aborted.json()["open_seat"]) == ("aborted", None)
    assert_problem(client.post(f"/v1/games/{game['id']}/join"), 409, "seat_taken")
    listed = client.get("/v1/games?open=true&limit=100").json()["games"]
    assert game["id"] not in [g["id"] for g in listed]


def test_an_abort_needs_a_players_token(client: TestClient, kind: Kind) -> None:
    game = create(client, kind)
    path = f"/v1/games/{game['id']}/abort"
    assert_problem(client.post(path), 401, "unauthorized")
    assert_problem(client.post(path, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    claimed = client.post(path, json={"player": 2}, headers=auth(game, 1))
    assert_problem(claimed, 403, "wrong_player")
    stale = client.post(path, headers={**auth(game, 1), "If-Match": f'"{game["id"]}.7"'})
    assert_problem(stale, 412, "precondition_failed")
    assert read(client, game)["status"] == "in_progress"


# --- rule flags ------------------------------------------------------------------------------


@pytest.mark.parametrize(("flag", "action"), [("abort", "abort"), ("draw_offer", "draw-offer")])
def test_an_action_the_game_leaves_out_is_refused(
    client: TestClient, kind: Kind, flag: str, action: str
) -> None:
    game = create(client, kind, rules={flag: False})
    assert game["rules"] == {name: name != flag for name in RULE_FLAGS}
    state = play(client, game, kind, 1)
    refused = client.post(f"/v1/games/{game['id']}/{action}", headers=auth(game, 2))
    assert assert_problem(refused, 409, "action_not_allowed")["action"] == flag
    assert read(client, game) == state
    # Every other action is still there.
    other = "draw-offer" if action == "abort" else "abort"
    assert client.post(f"/v1/games/{game['id']}/{other}", headers=auth(game, 2)).status_code == 200


def test_a_game_with_every_action_allowed_shows_no_rules(client: TestClient) -> None:
    for rules in (None, {}, dict.fromkeys(RULE_FLAGS, True)):
        body = {"n": 3} if rules is None else {"n": 3, "rules": rules}
        game = client.post("/v1/games", json=body).json()
        assert "rules" not in game
        assert "first_move_deadline" not in game


# --- the first-move deadline -------------------------------------------------------------------


def instant(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC).timestamp()


def test_the_first_move_deadline_moves_to_each_player_then_goes(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind, first_move_seconds=3600)
    first = instant(game["first_move_deadline"])
    assert first - time.time() == pytest.approx(3600, abs=60)
    state = play(client, game, kind, 1)
    if state["next_player"] == kind.script[0][0]:  # the same player again (a Reversi pass)
        assert "first_move_deadline" not in state
    else:
        assert instant(state["first_move_deadline"]) >= first
    state = play(client, game, kind, both_moved(kind), start=1)
    assert "first_move_deadline" not in state  # both have moved: nothing is due
    assert read(client, game) == state


def test_a_first_move_not_made_in_time_aborts_the_game_with_nobody_looking(
    module_store_url: str, client: TestClient
) -> None:
    """Two processes on one networked store (one app each; the memory store lives in one):
    games of every kind are created through one, a first move is never made, and the other
    reads them after the deadline: aborted at that instant, each counted once among them.
    (Every kind's games wait out the same second: the test waits once.)"""
    settings = app_settings(store_url=module_store_url, create_rate_per_minute=0)
    shared = module_store_url.startswith("redis")
    with (
        TestClient(create_app(settings), raise_server_exceptions=False) as one,
        TestClient(create_app(settings), raise_server_exceptions=False) as second,
    ):
        other = second if shared else one
        games = []
        for kind in KINDS:
            waited = create(one, kind, first_move_seconds=1)
            moved = create(one, kind, first_move_seconds=1)
            state = play(one, moved, kind, 1)  # the second player's first move is then due
            games.append((kind, waited, moved, state))
        time.sleep(1.3)
        for kind, waited, moved, state in games:
            for game, count in ((waited, 0), (moved, 1)):
                ended = read(other, game)
                assert (ended["status"], ended["winner"], ended["reason"]) == (
                    "aborted", 0, "no_first_move",
                ), kind.name  # fmt: skip
                assert ended["move_count"] == count
                assert "first_move_deadline" not in ended
                player, row, col = kind.script[count]
                late = other.post(
                    f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
                    headers=auth(game, player),
                )  # fmt: skip
                assert assert_problem(late, 409, "game_over")["reason"] == "no_first_move"
                assert read(one, game) == ended
            assert read(other, moved)["version"] == state["version"] + 1
        # Counted once, by the process that applied it: whichever one's sweep (or read) came
        # first — with nobody looking, each process on the store (the module's app too) sweeps.
        counted = sum(ended_metric(app).get("no_first_move", 0.0) for app in (one, second, client))
        assert counted == 2.0 * len(KINDS)


def test_an_open_games_deadline_starts_when_its_seat_is_taken(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3, "open": True, "first_move_seconds": 1}).json()
    assert "first_move_deadline" not in game  # nobody can move yet
    time.sleep(1.2)
    assert read(client, game)["status"] == "in_progress"
    joined = client.post(f"/v1/games/{game['id']}/join").json()["state"]
    assert instant(joined["first_move_deadline"]) > time.time()


# --- bad creation parameters -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"first_move_seconds": 0}, "first_move_seconds"),
        ({"first_move_seconds": 86_401}, "first_move_seconds"),
        ({"first_move_seconds": "30"}, "first_move_seconds"),
        ({"first_move_seconds": 1.5}, "first_move_seconds"),
        ({"first_move_seconds": True}, "first_move_seconds"),
        ({"rules": {"abort": "no"}}, "rules"),
        ({"rules": {"abort": 0}}, "rules"),
        ({"rules": {"undo": False}}, "rules"),
        ({"rules": [False]}, "rules"),
        ({"rules": None, "visibility": "secret"}, "visibility"),
        ({"visibility": True}, "visibility"),
    ],
)
def test_a_bad_lifecycle_parameter_is_refused_and_creates_nothing(
    client: TestClient, extra: dict[str, Any], where: str
) -> None:
    before = live_games(client)
    problem = assert_problem(
        client.post("/v1/games", json={"n": 3, **extra}), 422, "validation_error"
    )
    assert any(error["loc"][:2] == ["body", where] for error in problem["errors"]), problem
    assert live_games(client) == before


# --- visibility and spectators ---------------------------------------------------------------


def reads(game_id: str) -> list[str]:
    """Every read of a game: its state, moves, one move, legal moves, board, events, record."""
    path = f"/v1/games/{game_id}"
    return [
        path, f"{path}/moves", f"{path}/moves/1", f"{path}/legal-moves", f"{path}/board",
        f"{path}/events", f"{path}/record",
    ]  # fmt: skip


def test_a_private_game_is_read_only_with_a_players_or_a_spectators_token(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind, visibility="private")
    assert game["visibility"] == "private"
    play(client, game, kind, 2)
    made = client.post(f"/v1/games/{game['id']}/spectators", headers=auth(game, 2))
    assert made.status_code == 201, made.text
    assert made.headers["cache-control"] == "no-store"
    watcher = {"Authorization": f"Bearer {made.json()['token']}"}
    # A spectator never acts.
    _, row, col = kind.script[2]
    for action, body in (("moves", {"row": row, "col": col}), ("resign", None), ("abort", None)):
        refused = client.post(f"/v1/games/{game['id']}/{action}", json=body, headers=watcher)
        assert_problem(refused, 403, "wrong_player")
    assert_problem(
        client.post(f"/v1/games/{game['id']}/spectators", headers=watcher), 403, "wrong_player"
    )
    assert_problem(client.delete(f"/v1/games/{game['id']}", headers=watcher), 403, "wrong_player")
    assert client.post(f"/v1/games/{game['id']}/resign", headers=auth(game, 1)).status_code == 200
    for path in reads(game["id"]):  # (the game is over: its stream ends)
        for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"}):
            refused = client.get(path, headers=headers)
            assert_problem(refused, 401, "unauthorized")
        for headers in (auth(game, 1), auth(game, 2), watcher):
            answer = client.get(path, headers=headers)
            assert answer.status_code in (200, 204), (path, answer.text)
    assert read_as(client, game, watcher)["move_count"] == 2


def read_as(client: TestClient, game: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/games/{game['id']}", headers=headers).json()
    return answer


def test_a_public_game_is_read_by_anyone_and_may_have_spectators_too(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3}).json()
    assert "visibility" not in game
    made = client.post(f"/v1/games/{game['id']}/spectators", headers=auth(game, 1)).json()
    for headers in ({}, {"Authorization": f"Bearer {made['token']}"}, auth(game, 2)):
        assert client.get(f"/v1/games/{game['id']}", headers=headers).status_code == 200
    # A token sent to a public game's read is not looked at, nor any other Authorization.
    for header in ("Bearer x", "Basic eDp5", "Bearer"):
        answer = client.get(f"/v1/games/{game['id']}", headers={"Authorization": header})
        assert answer.status_code == 200, header
    assert_problem(client.post(f"/v1/games/{game['id']}/spectators"), 401, "unauthorized")
    assert_problem(
        client.post("/v1/games/nope/spectators", headers=auth(game, 1)), 404, "game_not_found"
    )


def test_a_private_open_game_is_never_listed_but_joined_by_its_id(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3, "open": True, "visibility": "private"}).json()
    listed = client.get("/v1/games?open=true&limit=100").json()["games"]
    assert game["id"] not in [g["id"] for g in listed]
    assert_problem(client.get(f"/v1/games/{game['id']}"), 401, "unauthorized")
    joined = client.post(f"/v1/games/{game['id']}/join").json()
    headers = {"Authorization": f"Bearer {joined['token']}"}
    assert read_as(client, game, headers)["next_player"] == 1


def test_a_game_issues_a_bounded_number_of_spectator_tokens(store_url: str) -> None:
    settings = app_settings(store_url=store_url, game_spectators=2, create_rate_per_minute=0)
    with TestClient(create_app(settings), raise_server_exceptions=False) as limited:
        game = limited.post("/v1/games", json={"n": 3, "visibility": "private"}).json()
        path = f"/v1/games/{game['id']}/spectators"
        made = [limited.post(path, headers=auth(game, 1 + i % 2)) for i in range(2)]
        assert [answer.status_code for answer in made] == [201, 201]
        refused = limited.post(path, headers=auth(game, 1))
        assert assert_problem(refused, 409, "too_many_spectators")["limit"] == 2
        for answer in made:  # the tokens made still read it
            headers = {"Authorization": f"Bearer {answer.json()['token']}"}
            assert limited.get(f"/v1/games/{game['id']}", headers=headers).status_code == 200


# --- rematch ---------------------------------------------------------------------------------


def rematch(client: TestClient, game: dict[str, Any], player: int) -> dict[str, Any]:
    answer = client.post(f"/v1/games/{game['id']}/rematch", headers=auth(game, player))
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    body: dict[str, Any] = answer.json()
    return body


def test_a_rematch_is_made_once_both_offered_with_the_seats_swapped(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind, visibility="private", rules={"takeback": False})
    play(client, game, kind, 2)
    refused = client.post(f"/v1/games/{game['id']}/rematch", headers=auth(game, 1))
    assert_problem(refused, 409, "game_not_over")
    ended = client.post(f"/v1/games/{game['id']}/resign", headers=auth(game, 2)).json()

    offered = rematch(client, game, 1)
    assert offered["rematch"] is None
    assert offered["state"]["rematch_offer"] == 1
    assert offered["state"]["version"] == ended["version"] + 1
    assert rematch(client, game, 1) == offered  # an offer that stands changes nothing

    accepted = rematch(client, game, 2)
    made = accepted["rematch"]
    assert made["player"] == 1  # player 2 here is player 1 there
    assert "rematch_offer" not in accepted["state"]
    assert accepted["state"]["rematch"] == made["id"]
    assert accepted["state"]["version"] == ended["version"] + 2
    mine = rematch(client, game, 1)["rematch"]  # the first offerer asks again for its own
    assert (mine["id"], mine["player"]) == (made["id"], 2)
    assert mine["token"] != made["token"]
    assert rematch(client, game, 2)["rematch"] == made  # asked again: the same answer

    new = {"id": made["id"], "tokens": {"1": made["token"], "2": mine["token"]}}
    state = read_as(client, new, auth(new, 1))
    assert (state["status"], state["version"], state["move_count"]) == ("in_progress", 0, 0)
    # The same creation parameters: the kind's facts, the visibility, the rules.
    old = read_as(client, game, auth(game, 1))
    facts = {name: old[name] for name in kind.facts if name not in ("score", "final_score")}
    assert {name: state[name] for name in facts} == facts
    assert (state["visibility"], state["rules"]) == ("private", old["rules"])
    assert_problem(client.get(f"/v1/games/{made['id']}"), 401, "unauthorized")
    play(client, new, kind, 1)  # the new seat 1 (old player 2) moves first
    # The old game's stream, resumed at its end, says a rematch was made.
    stream = client.get(
        f"/v1/games/{game['id']}/events", params={"since": ended["version"]},
        headers=auth(game, 2),
    )  # fmt: skip
    assert [(e["event"], e["id"]) for e in parse_events(stream.text)] == [
        ("rematch", str(ended["version"] + 2))
    ]


def test_a_game_without_rematches_refuses_them(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3, "rules": {"rematch": False}}).json()
    client.post(f"/v1/games/{game['id']}/resign", headers=auth(game, 1))
    refused = client.post(f"/v1/games/{game['id']}/rematch", headers=auth(game, 2))
    assert assert_problem(refused, 409, "action_not_allowed")["action"] == "rematch"
    assert_problem(client.post(f"/v1/games/{game['id']}/rematch"), 401, "unauthorized")


@pytest.mark.anyio
async def test_racing_rematch_offers_make_one_game(module_store_url: str) -> None:
    """Both players offer at once, each through a process of its own (one on the memory
    store): one rematch is made, and each player gets its own seat in it."""
    settings = app_settings(store_url=module_store_url, create_rate_per_minute=0)
    apps = [create_app(settings)]
    apps.append(create_app(settings) if module_store_url.startswith("redis") else apps[0])
    clients = [
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
        for app in apps
    ]
    try:
        for _ in range(5):
            game = (await clients[0].post("/v1/games", json={"n": 3})).json()
            await clients[0].post(f"/v1/games/{game['id']}/abort", headers=auth(game, 1))
            path = f"/v1/games/{game['id']}/rematch"
            answers = await asyncio.gather(
                *(clients[p - 1].post(path, headers=auth(game, p)) for p in (1, 2))
            )
            assert [answer.status_code for answer in answers] == [200, 200]
            again = [(await clients[0].post(path, headers=auth(game, p))).json() for p in (1, 2)]
            made = [answer["rematch"] for answer in again]
            assert made[0]["id"] == made[1]["id"]
            assert (made[0]["player"], made[1]["player"]) == (2, 1)
            for answer in answers:  # whoever got an answer with the rematch got the same one
                if answer.json()["rematch"] is not None:
                    assert answer.json()["rematch"]["id"] == made[0]["id"]
            new = {"tokens": {"1": made[1]["token"], "2": made[0]["token"]}}
            moved = await clients[1].post(
                f"/v1/games/{made[0]['id']}/moves", json={"row": 0, "col": 0},
                headers=auth(new, 1),
            )  # fmt: skip
            assert moved.status_code == 201, moved.text
    finally:
        for racer in clients:
            await racer.aclose()


def test_an_ending_due_comes_before_a_rematch_offer(
    module_store_url: str, client: TestClient
) -> None:
    """A first move's deadline passed with nobody looking: the rematch offer finds the game
    aborted, and its ending is counted, once: no rematch change counts it again. On a networked
    store the module's app sweeps the same deadlines, and whichever process came first counts
    the ending (counting only this app's flaked when the other's sweep came first); that app's
    count may also take other tests' games due meanwhile, so there it is at least one."""
    settings = app_settings(store_url=module_store_url, create_rate_per_minute=0)
    before = ended_metric(client)
    with TestClient(create_app(settings), raise_server_exceptions=False) as fresh:
        game = fresh.post("/v1/games", json={"n": 3, "first_move_seconds": 1}).json()
        time.sleep(1.3)
        offered = rematch(fresh, game, 1)
        assert (offered["state"]["reason"], offered["state"]["rematch_offer"]) == (
            "no_first_move", 1,
        )  # fmt: skip
        mine = ended_metric(fresh).get("no_first_move", 0.0)
        rematch(fresh, game, 2)
        assert ended_metric(fresh).get("no_first_move", 0.0) == mine  # not counted again
        if module_store_url == "memory://":  # its own store: nobody else could end it
            assert mine == 1.0
        else:
            assert mine + ended_since(client, before).get("no_first_move", 0.0) >= 1.0


def test_a_game_nobody_joined_has_no_rematch(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3, "open": True}).json()
    client.post(f"/v1/games/{game['id']}/abort", headers=auth(game, 1))
    refused = client.post(f"/v1/games/{game['id']}/rematch", headers=auth(game, 1))
    problem = assert_problem(refused, 409, "action_not_allowed")
    assert (problem["action"], problem["why"]) == ("rematch", "no_opponent")


@pytest.mark.parametrize(
    ("body", "moves"),
    [  # an opening's posted stones are not the players' moves: two of theirs are
        ({"game": "gomoku", "size": 9, "opening": {"stones": ["e5", "e6", "f5"]}},
         [(2, "a1"), (1, "i9")]),
        ({"game": "gomoku", "size": 15, "opening": "swap2"}, [(1, "a1"), (1, "a2")]),
    ],
)  # fmt: skip
def test_an_abort_counts_the_players_moves(
    client: TestClient, body: dict[str, Any], moves: list[tuple[int, str]]
) -> None:
    game = client.post("/v1/games", json=body).json()
    path = f"/v1/games/{game['id']}"
    for player, square in moves:
        answer = client.post(f"{path}/moves", json={"square": square}, headers=auth(game, player))
        assert answer.status_code == 201, answer.text
    assert_problem(client.post(f"{path}/abort", headers=auth(game, 1)), 409, "too_late_to_abort")
    fresh = client.post("/v1/games", json=body).json()  # one move of theirs: still abortable
    player, square = moves[0]
    moved = client.post(
        f"/v1/games/{fresh['id']}/moves", json={"square": square}, headers=auth(fresh, player)
    )
    assert moved.status_code == 201, moved.text
    aborted = client.post(f"/v1/games/{fresh['id']}/abort", headers=auth(fresh, 2))
    assert aborted.json()["status"] == "aborted"


@pytest.mark.parametrize("moves", [0, 1])
def test_an_aborted_game_is_written_in_every_format_of_its_kind_with_no_result(
    client: TestClient, kind: Kind, moves: int
) -> None:
    """An aborted game has no result (a Reversi `final_score` is null): each record of it says
    none, rather than failing (GGF's `RE` once read a null score)."""
    game = create(client, kind)
    play(client, game, kind, moves)
    client.post(f"/v1/games/{game['id']}/abort", headers=auth(game, 1))
    spec = client.get("/openapi.json").json()
    formats = spec["paths"]["/v1/games/{game_id}/record"]["get"]["parameters"]
    listed = next(p for p in formats if p["name"] == "format")["schema"]["enum"]
    written = 0
    for wanted in listed:
        answer = client.get(f"/v1/games/{game['id']}/record", params={"format": wanted})
        if answer.status_code == 422:  # a format of another kind
            continue
        assert answer.status_code == 200, (wanted, answer.text)
        written += 1
        if wanted == "ggf":
            assert "RE[" not in answer.text  # no result
        if wanted == "json":
            assert answer.json()["state"]["status"] == "aborted"
    assert written >= 2  # JSON and the transcript, at least
