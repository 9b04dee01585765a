"""Seeks, challenges and a player's event stream through the HTTP API (contract part 3, "Seeks,
challenges and bots"), on SQLite and on a real PostgreSQL server, with games in the memory store
and in Redis: two seeks that fit make one game at once (seats drawn, each player playing with
its key), told on both players' streams; ranges and rated flags keep seeks apart; seeks racing
from many requests make one game each; challenges accepted, declined and withdrawn; a
tournament's pairing told on its players' streams; every bound and every hostile input refused
with the contract's codes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.api.matches import Matches, now_ms
from app.main import create_app
from app.sessions.errors import StoreUnavailable
from app.stores.archive.offers import Offers, Seek
from tests.api.problems import assert_problem
from tests.api.test_players import WIN, bearer, make_player, move, served
from tests.conftest import empty_store

GAME = {"game": "tictactoe", "n": 3}


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest) -> str:
    return empty_store(request, request.param)


@pytest.fixture
def client(archive_url: str, store: str) -> Iterator[TestClient]:
    app = create_app(served(archive_url, store_url=store, max_seeks_per_player=3,
                            max_challenges_per_player=2))  # fmt: skip
    with TestClient(app, raise_server_exceptions=False) as made:
        yield made


@pytest.fixture
def quick(tmp_path: Any) -> Iterator[TestClient]:
    """One store and one database, for what does not depend on them: hostile inputs."""
    url = f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    app = create_app(served(url, max_seeks_per_player=3, max_challenges_per_player=2))
    with TestClient(app, raise_server_exceptions=False) as made:
        yield made


def seek(client: TestClient, player: dict[str, Any], **body: Any) -> dict[str, Any]:
    answer = client.post("/v1/seeks", json={"game": GAME, **body}, headers=bearer(player["key"]))
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    assert answer.headers["location"] == f"/v1/seeks/{made['id']}"
    return made


def events(client: TestClient, player: dict[str, Any], count: int, after: int = 0) -> list[Any]:
    """The first ``count`` events of the player's stream after ``after``: (id, name, data)."""
    got: list[Any] = []
    headers = {**bearer(player["key"]), "Last-Event-ID": str(after)}
    with client.stream("GET", f"/v1/players/{player['id']}/events", headers=headers) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        block: dict[str, str] = {}
        for line in stream.iter_lines():
            if line:
                field, _, value = line.partition(": ")
                block[field] = value
                continue
            if "event" in block:
                got.append((int(block["id"]), block["event"], json.loads(block["data"])))
                if len(got) == count:
                    return got
            block = {}
    return got


def seats_of(client: TestClient, game_id: str) -> dict[str, Any]:
    state = client.get(f"/v1/games/{game_id}")
    assert state.status_code == 200, state.text
    players: dict[str, Any] = state.json()["players"]
    return players


def test_two_seeks_that_fit_make_one_game_told_on_both_streams(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    waiting = seek(client, ann)
    assert waiting["game"] is None
    listed = client.get("/v1/seeks").json()
    assert [s["id"] for s in listed["seeks"]] == [waiting["id"]]
    row = listed["seeks"][0]
    assert row["player"] == {"id": ann["id"], "name": "Ann"}
    assert row["game"] == GAME
    assert row["rated"] is False
    assert row["rating_range"] is None
    assert row["rating"] == 1500.0
    # The same game written otherwise (k defaults to n) is the same game.
    made = client.post("/v1/seeks", json={"game": {"n": 3, "k": 3}}, headers=bearer(bo["key"]))
    assert made.status_code == 201, made.text
    answer = made.json()
    assert answer["game"] is not None
    assert answer["seat"] in (1, 2)
    assert client.get("/v1/seeks").json()["seeks"] == []
    game_id, bo_seat = answer["game"], answer["seat"]
    players = seats_of(client, game_id)
    assert players[str(bo_seat)] == bo["id"]
    assert players[str(3 - bo_seat)] == ann["id"]
    [(_, name, told)] = events(client, ann, 1)
    assert name == "game"
    assert told == {"game": game_id, "seat": 3 - bo_seat, "via": "seek", "seek": waiting["id"]}
    [(_, _, told)] = events(client, bo, 1)
    assert told == {"game": game_id, "seat": bo_seat, "via": "seek", "seek": answer["id"]}
    # Each plays with its key: seat 1 moves first.
    keys = {bo_seat: bo["key"], 3 - bo_seat: ann["key"]}
    for seat, row_, col in WIN:
        assert move(client, game_id, keys[seat], row_, col).status_code == 201
    assert client.get(f"/v1/games/{game_id}").json()["winner"] == 1


def test_seeks_that_do_not_fit_wait(client: TestClient) -> None:
    ann, bo, cy = (make_player(client, name) for name in ("Ann", "Bo", "Cy"))
    seek(client, ann, rating_range=[1600, 2000])  # a new player is 1500: nobody fits yet
    assert seek(client, bo)["game"] is None
    assert seek(client, cy, rated=True)["game"] is None  # rated: another pool of offers
    other_game = client.post("/v1/seeks", json={"game": {"n": 4}}, headers=bearer(cy["key"])).json()
    assert other_game["game"] is None
    # Ann's own second seek never fits her first one.
    assert seek(client, ann)["game"] is not None  # Bo's was waiting: it fits
    listed = client.get("/v1/seeks").json()["seeks"]
    assert sorted(row["player"]["id"] for row in listed) == sorted([ann["id"], cy["id"], cy["id"]])
    only = client.get("/v1/seeks", params={"game": "reversi"}).json()
    assert only == {"seeks": [], "next": None}


def test_a_rated_seek_makes_a_rated_game_in_its_pool(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    seek(client, ann, rated=True, rating_range=[1400, 1600])
    answer = seek(client, bo, rated=True, rating_range=[1500, 1500])
    state = client.get(f"/v1/games/{answer['game']}").json()
    assert state["pool"] == "tictactoe/3x3/k3/correspondence"


def test_a_seek_is_withdrawn_by_its_player_only(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    made = seek(client, ann, rating_range=[0, 1])
    path = f"/v1/seeks/{made['id']}"
    assert_problem(client.delete(path, headers=bearer(bo["key"])), 403, "wrong_player")
    assert_problem(client.delete(path), 401, "unauthorized")
    assert client.delete(path, headers=bearer(ann["key"])).status_code == 204
    assert_problem(client.delete(path, headers=bearer(ann["key"])), 404, "seek_not_found")
    assert client.get("/v1/seeks").json()["seeks"] == []


def test_a_player_holds_a_bounded_number_of_seeks(client: TestClient) -> None:
    ann = make_player(client, "Ann")
    for _ in range(3):
        seek(client, ann)
    refused = client.post("/v1/seeks", json={"game": GAME}, headers=bearer(ann["key"]))
    assert_problem(refused, 503, "capacity_exhausted")
    assert "retry-after" in refused.headers
    assert len(client.get("/v1/seeks").json()["seeks"]) == 3


def test_the_seeks_are_listed_a_page_at_a_time(quick: TestClient) -> None:
    players = [make_player(quick, f"P{number}") for number in range(5)]
    made = [seek(quick, player, rating_range=[0, 1])["id"] for player in players]
    listed: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = quick.get("/v1/seeks", params=params).json()
        listed += [row["id"] for row in page["seeks"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert listed == made


@pytest.mark.anyio
async def test_racing_seeks_make_one_game_each_pair(archive_url: str, store: str) -> None:
    """Many players seek the same game at once: every game made holds two of them, no player
    is in two games, and the seeks left are fewer than two (they would fit each other)."""
    app = create_app(served(archive_url, store_url=store))
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://test") as client,
    ):
        made = [
            (await client.post("/v1/players", json={"name": f"P{n}"})).json() for n in range(12)
        ]
        answers = await asyncio.gather(*(
            client.post("/v1/seeks", json={"game": GAME}, headers=bearer(player["key"]))
            for player in made
        ))  # fmt: skip
        assert all(answer.status_code == 201 for answer in answers), [a.text for a in answers]
        games = {answer.json()["game"] for answer in answers} - {None}
        seated = [
            player
            for game_id in games
            for player in (await client.get(f"/v1/games/{game_id}")).json()["players"].values()
        ]
        assert len(seated) == len(set(seated)) == 2 * len(games)
        left = (await client.get("/v1/seeks")).json()["seeks"]
        assert len(left) + len(seated) == len(made)
        assert len(left) < 2


def test_a_challenge_accepted_makes_the_game(client: TestClient) -> None:
    ann, bo, cy = (make_player(client, name) for name in ("Ann", "Bo", "Cy"))
    made = client.post(
        "/v1/challenges", json={"to": bo["id"], "game": GAME}, headers=bearer(ann["key"])
    )
    assert made.status_code == 201, made.text
    challenge = made.json()
    assert challenge["from"] == {"id": ann["id"], "name": "Ann"}
    assert challenge["to"] == {"id": bo["id"], "name": "Bo"}
    [(_, name, told)] = events(client, bo, 1)
    assert (name, told) == ("challenge", challenge)
    mine = client.get("/v1/challenges", headers=bearer(bo["key"])).json()
    assert mine == {"incoming": [challenge], "outgoing": []}
    path = f"/v1/challenges/{challenge['id']}"
    assert client.get(path, headers=bearer(ann["key"])).json() == challenge
    assert_problem(client.get(path, headers=bearer(cy["key"])), 403, "wrong_player")
    # Only the challenged accepts.
    for other in (ann, cy):
        refused = client.post(f"{path}/accept", headers=bearer(other["key"]))
        assert_problem(refused, 403, "wrong_player")
    accepted = client.post(f"{path}/accept", headers=bearer(bo["key"]))
    assert accepted.status_code == 201, accepted.text
    game_id, seat = accepted.json()["game"], accepted.json()["seat"]
    assert seats_of(client, game_id)[str(seat)] == bo["id"]
    assert seats_of(client, game_id)[str(3 - seat)] == ann["id"]
    [(_, name, told)] = events(client, ann, 1)
    assert told == {"game": game_id, "seat": 3 - seat, "via": "challenge",
                    "challenge": challenge["id"]}  # fmt: skip
    [(_, _, told)] = events(client, bo, 1, after=1)
    assert (told["game"], told["seat"]) == (game_id, seat)
    again = client.post(f"{path}/accept", headers=bearer(bo["key"]))
    assert_problem(again, 404, "challenge_not_found")


def test_a_challenge_declined_is_told_to_the_challenger(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    challenge = client.post(
        "/v1/challenges", json={"to": bo["id"], "game": GAME, "rated": True},
        headers=bearer(ann["key"]),
    ).json()  # fmt: skip
    path = f"/v1/challenges/{challenge['id']}"
    assert_problem(client.post(f"{path}/decline", headers=bearer(ann["key"])), 403,
                   "wrong_player")  # fmt: skip
    assert client.post(f"{path}/decline", headers=bearer(bo["key"])).status_code == 204
    [(_, name, told)] = events(client, ann, 1)
    assert name == "challenge_declined"
    assert told == {"challenge": challenge["id"], "by": {"id": bo["id"], "name": "Bo"}}
    assert_problem(client.post(f"{path}/accept", headers=bearer(bo["key"])), 404,
                   "challenge_not_found")  # fmt: skip


def test_a_challenge_is_withdrawn_by_its_challenger_and_bounded(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    body = {"to": bo["id"], "game": GAME}
    made = [client.post("/v1/challenges", json=body, headers=bearer(ann["key"])) for _ in range(3)]
    assert [answer.status_code for answer in made[:2]] == [201, 201]
    assert_problem(made[2], 503, "capacity_exhausted")
    path = f"/v1/challenges/{made[0].json()['id']}"
    assert_problem(client.delete(path, headers=bearer(bo["key"])), 403, "wrong_player")
    assert client.delete(path, headers=bearer(ann["key"])).status_code == 204
    assert_problem(client.delete(path, headers=bearer(ann["key"])), 404, "challenge_not_found")
    again = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
    assert again.status_code == 201


def test_a_tournament_pairing_is_told_on_its_players_streams(client: TestClient) -> None:
    organiser = make_player(client, "Org")
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    made = client.post(
        "/v1/tournaments",
        json={"name": "Cup", "system": "round_robin", "game": GAME,
              "players": [ann["id"], bo["id"]]},
        headers=bearer(organiser["key"]),
    ).json()  # fmt: skip
    paired = client.post(f"/v1/tournaments/{made['id']}/rounds", headers=bearer(organiser["key"]))
    assert paired.status_code == 201, paired.text
    [pairing] = paired.json()["rounds"][0]["pairings"]
    for player in (ann, bo):
        [(_, name, told)] = events(client, player, 1)
        assert name == "game"
        seat = 1 if pairing["players"]["1"] == player["id"] else 2
        assert pairing["players"][str(seat)] == player["id"]
        assert told == {"game": pairing["game"], "seat": seat, "via": "tournament",
                        "tournament": made["id"]}  # fmt: skip


def test_a_stream_resumes_after_its_last_event_and_is_its_players_only(quick: TestClient) -> None:
    ann, bo = make_player(quick, "Ann"), make_player(quick, "Bo")
    key = bearer(ann["key"])
    for _ in range(3):
        made = quick.post("/v1/challenges", json={"to": bo["id"], "game": GAME}, headers=key)
        quick.delete(f"/v1/challenges/{made.json()['id']}", headers=key)
    got = events(quick, bo, 3)
    assert [number for number, _, _ in got] == [1, 2, 3]
    assert [number for number, _, _ in events(quick, bo, 1, after=1)] == [2]
    url = f"/v1/players/{bo['id']}/events"
    assert_problem(quick.get(url, headers=bearer(ann["key"])), 403, "wrong_player")
    assert_problem(quick.get(url), 401, "unauthorized")
    assert_problem(quick.get(url, headers=bearer(f"{bo['id']}.nope")), 401, "unauthorized")
    bad = quick.get(url, headers={**bearer(bo["key"]), "Last-Event-ID": "x"})
    assert_problem(bad, 422, "validation_error")


HOSTILE_SEEKS = [
    {},
    {"game": GAME, "rated": "yes"},
    {"game": {"game": "chess"}},
    {"game": {"n": 0}},
    {"game": GAME, "rating_range": [1800, 1400]},
    {"game": GAME, "rating_range": [1400]},
    {"game": GAME, "rating_range": [1400, 1e308]},
    {"game": GAME, "rating_range": ["a", "b"]},
    {"game": GAME, "rating_range": [False, 0.0]},
    {"game": GAME, "rating_range": ["1400", 1800]},
    {"game": {**GAME, "open": True}},
    {"game": {**GAME, "rated": True}},
    {"game": {**GAME, "names": {"1": "x"}}},
    {"game": GAME, "extra": 1},
    {"game": []},
]


@pytest.mark.parametrize("body", HOSTILE_SEEKS, ids=range(len(HOSTILE_SEEKS)))
def test_hostile_seeks_are_422(quick: TestClient, body: Any) -> None:
    ann = make_player(quick, "Ann")
    assert_problem(quick.post("/v1/seeks", json=body, headers=bearer(ann["key"])), 422,
                   "validation_error")  # fmt: skip


def test_hostile_challenges_and_ids(quick: TestClient) -> None:
    ann = make_player(quick, "Ann")
    key = bearer(ann["key"])
    for body in ({"to": ann["id"], "game": GAME}, {"to": "nobody", "game": GAME},
                 {"to": "", "game": GAME}, {"to": "x" * 65, "game": GAME}, {"game": GAME},
                 {"to": "nobody", "game": {"n": -1}}):  # fmt: skip
        assert_problem(quick.post("/v1/challenges", json=body, headers=key), 422,
                       "validation_error")  # fmt: skip
    assert_problem(quick.post("/v1/seeks", json={"game": GAME}), 401, "unauthorized")
    assert_problem(quick.post("/v1/challenges", json={"to": "x", "game": GAME}), 401,
                   "unauthorized")  # fmt: skip
    for path in ("/v1/seeks/nope", "/v1/challenges/nope"):
        found = quick.delete(path, headers=key)
        assert found.status_code == 404
    assert_problem(quick.post("/v1/challenges/nope/accept", headers=key), 404,
                   "challenge_not_found")  # fmt: skip
    assert_problem(quick.delete("/v1/seeks/%20bad", headers=key), 422, "validation_error")
    assert_problem(quick.get("/v1/seeks", params={"cursor": "zz"}), 422, "validation_error")
    assert_problem(quick.get("/v1/seeks", params={"limit": 0}), 422, "validation_error")
    assert_problem(quick.get("/v1/seeks", params={"limit": 101}), 422, "validation_error")


@pytest.mark.parametrize("cursor", ["1.\x00", "1.a\x00b", "1.é", "١٢.x", "1.", ".x", "1.x.y"])
def test_a_cursor_that_is_no_next_is_422_on_every_database(archive_url: str, cursor: str) -> None:
    """A cursor's seek id is a seek id's characters: a NUL byte reached PostgreSQL, which
    refused the query (503 store_unavailable)."""
    with TestClient(create_app(served(archive_url)), raise_server_exceptions=False) as client:
        assert_problem(client.get("/v1/seeks", params={"cursor": cursor}), 422,
                       "validation_error")  # fmt: skip


def test_without_an_archive_the_routes_are_503() -> None:
    with TestClient(create_app(served("none")), raise_server_exceptions=False) as client:
        key = bearer("P123.secret")
        routes = (("GET", "/v1/seeks"), ("POST", "/v1/seeks"), ("GET", "/v1/challenges"),
                  ("GET", "/v1/players/P123/events"))  # fmt: skip
        for method, path in routes:
            answer = client.request(method, path, json={"game": GAME}, headers=key)
            assert_problem(answer, 503, "store_unavailable")


def test_a_game_that_cannot_be_made_leaves_the_waiting_seek_and_the_challenge(
    tmp_path: Any,
) -> None:
    url = f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    with TestClient(create_app(served(url, max_games=1)), raise_server_exceptions=False) as client:
        ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
        assert client.post("/v1/games", json=GAME).status_code == 201  # the store is full
        waiting = seek(client, ann)
        refused = client.post("/v1/seeks", json={"game": GAME}, headers=bearer(bo["key"]))
        assert_problem(refused, 503, "capacity_exhausted")
        assert [s["id"] for s in client.get("/v1/seeks").json()["seeks"]] == [waiting["id"]]
        challenge = client.post(
            "/v1/challenges", json={"to": bo["id"], "game": GAME}, headers=bearer(ann["key"])
        ).json()
        path = f"/v1/challenges/{challenge['id']}"
        assert_problem(client.post(f"{path}/accept", headers=bearer(bo["key"])), 503,
                       "capacity_exhausted")  # fmt: skip
        assert client.get(path, headers=bearer(bo["key"])).json() == challenge


def test_a_players_streams_are_bounded_per_client_as_games_are(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    app = create_app(served(url, max_streams_per_client=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        ann = make_player(client, "Ann")
        path, key = f"/v1/players/{ann['id']}/events", bearer(ann["key"])
        with client.stream("GET", path, headers=key) as held:
            assert held.status_code == 200
            refused = client.get(path, headers=key)
            assert_problem(refused, 503, "too_many_streams")
            assert "retry-after" in refused.headers


PAST_ANY_EVENT = [({"Last-Event-ID": "3000000000"}, {}), ({}, {"since": "9007199254740991"})]


@pytest.mark.parametrize(("resume", "params"), PAST_ANY_EVENT, ids=["last-event-id", "since"])
def test_a_stream_resumed_past_any_events_number_waits_on_every_database(
    archive_url: str, resume: dict[str, str], params: dict[str, str]
) -> None:
    """A resume point past the largest number an event can have (its row's INTEGER) is read
    as that number: PostgreSQL refused the query, and the stream broke with a traceback."""
    app = create_app(served(archive_url, event_keep_alive_seconds=0.1))
    with TestClient(app, raise_server_exceptions=False) as client:
        ann = make_player(client, "Ann")
        headers = {**bearer(ann["key"]), **resume}
        path = f"/v1/players/{ann['id']}/events"
        with client.stream("GET", path, headers=headers, params=params) as stream:
            assert stream.status_code == 200
            lines = stream.iter_lines()
            assert any(line == ": keep-alive" for line, _ in zip(lines, range(10), strict=False))


class Died(Exception):
    """The process making a game dies here: nothing after it runs (its request answers 500)."""


async def _died(*_: Any) -> None:
    raise Died()


def told(client: TestClient, player: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every event of the player's stream, read in the database."""
    offers = Offers(client.app.state.archive, 100, 1)
    kept = client.portal.call(offers.events, player["id"], 0, 100)
    return [(name, json.loads(data)) for _, name, data in kept]


@pytest.mark.parametrize("dies", ["before_the_game", "before_the_telling"])
def test_a_game_whose_process_died_after_the_match_is_made_and_told_once(
    archive_url: str, store: str, dies: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that matched two seeks dies before the game is made (or once it is made,
    before it is told): the pair is pending — its seeks never listed nor matched again — and
    the periodic work (and any number of processes recovering at once) makes the game once and
    tells it to both players once."""
    settings = served(archive_url, store_url=store, pending_game_seconds=0.2)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        ann, bo, cy = (make_player(client, name) for name in ("Ann", "Bo", "Cy"))
        waiting = seek(client, ann)
        with monkeypatch.context() as dying:
            dying.setattr(Matches, "complete" if dies == "before_the_game" else "finish", _died)
            answer = client.post("/v1/seeks", json={"game": GAME}, headers=bearer(bo["key"]))
        assert answer.status_code == 500
        assert client.get("/v1/seeks").json()["seeks"] == []
        assert seek(client, cy)["game"] is None  # the pending pair's seeks are not matched
        matches = Matches.of(client.app.state, client.app.state.archive)

        async def racing() -> list[int]:  # processes recovering at once, beside the periodic work
            return await asyncio.gather(*(matches.recover(now_ms() + 60_000) for _ in range(3)))

        assert sum(client.portal.call(racing)) <= 1
        [(_, name, ann_told)] = events(client, ann, 1)  # made and told (else this waits)
        assert name == "game"
        game_id = ann_told["game"]
        assert ann_told == {"game": game_id, "seat": ann_told["seat"], "via": "seek",
                            "seek": waiting["id"]}  # fmt: skip
        players = seats_of(client, game_id)
        assert players[str(ann_told["seat"])] == ann["id"]
        assert players[str(3 - ann_told["seat"])] == bo["id"]
        client.portal.call(racing)  # nothing left to make
        assert told(client, ann) == [("game", ann_told)]
        [(name, bo_told)] = told(client, bo)
        assert (name, bo_told["game"], bo_told["seat"]) == ("game", game_id, 3 - ann_told["seat"])
        assert [s["player"]["id"] for s in client.get("/v1/seeks").json()["seeks"]] == [cy["id"]]
        # Each plays with its key.
        keys = {ann_told["seat"]: ann["key"], 3 - ann_told["seat"]: bo["key"]}
        for seat, row_, col in WIN:
            assert move(client, game_id, keys[seat], row_, col).status_code == 201


def test_a_game_the_store_did_not_answer_for_is_left_pending_then_made_and_told_once(
    archive_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live store makes a match's (or an accepted challenge's) game but its answer is lost:
    the game stays pending — the waiting seek is not put back to be matched into a second game
    while the first stands told to nobody — and the periodic work tells it, once. The seek is
    answered 201 without its game (told on the stream); the acceptance 503."""
    settings = served(archive_url, pending_game_seconds=0.2)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        ann, bo, cy = (make_player(client, name) for name in ("Ann", "Bo", "Cy"))
        waiting = seek(client, ann)
        challenge = client.post(
            "/v1/challenges", json={"to": cy["id"], "game": GAME}, headers=bearer(ann["key"])
        ).json()
        path = f"/v1/challenges/{challenge['id']}"
        made = Matches.make

        async def answer_lost(self: Matches, pending: Any) -> None:
            await made(self, pending)
            raise StoreUnavailable()

        with monkeypatch.context() as lossy:
            lossy.setattr(Matches, "make", answer_lost)
            taking = seek(client, bo)
            assert (taking["game"], taking["seat"]) == (None, None)
            refused = client.post(f"{path}/accept", headers=bearer(cy["key"]))
            assert_problem(refused, 503, "store_unavailable")
        assert client.get("/v1/seeks").json()["seeks"] == []  # the waiting seek is not back
        assert seek(client, cy)["game"] is None  # nothing to match
        assert_problem(client.get(path, headers=bearer(ann["key"])), 404, "challenge_not_found")
        matches = Matches.of(client.app.state, client.app.state.archive)
        assert client.portal.call(matches.recover, now_ms() + 60_000) == 2
        assert client.portal.call(matches.recover, now_ms() + 120_000) == 0
        by_via = {data["via"]: data for name, data in told(client, ann) if name == "game"}
        assert set(by_via) == {"seek", "challenge"}
        assert by_via["seek"]["seek"] == waiting["id"]
        [(_, bo_told)] = told(client, bo)
        assert (bo_told["game"], bo_told["seek"]) == (by_via["seek"]["game"], taking["id"])
        assert [name for name, _ in told(client, cy)] == ["challenge", "game"]
        for data in by_via.values():
            assert seats_of(client, data["game"])[str(data["seat"])] == ann["id"]


def test_an_accepted_challenge_whose_process_died_is_made_and_told_once(
    archive_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = served(archive_url, pending_game_seconds=0.2)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
        challenge = client.post(
            "/v1/challenges", json={"to": bo["id"], "game": GAME}, headers=bearer(ann["key"])
        ).json()
        path = f"/v1/challenges/{challenge['id']}"
        with monkeypatch.context() as dying:
            dying.setattr(Matches, "complete", _died)
            assert client.post(f"{path}/accept", headers=bearer(bo["key"])).status_code == 500
        assert_problem(client.get(path, headers=bearer(ann["key"])), 404, "challenge_not_found")
        [(_, name, ann_told)] = events(client, ann, 1, after=0)
        assert (name, ann_told["via"], ann_told["challenge"]) == ("game", "challenge",
                                                                  challenge["id"])  # fmt: skip
        assert seats_of(client, ann_told["game"])[str(ann_told["seat"])] == ann["id"]
        assert [name for name, _ in told(client, bo)] == ["challenge", "game"]
        assert [name for name, _ in told(client, ann)] == ["game"]


def test_a_seek_expires_told_on_its_players_stream(tmp_path: Any) -> None:
    """A seek lives ADJUDICATOR_SEEK_SECONDS: listed with its end, then gone — told on its
    player's stream (`seek_expired`), no longer withdrawn, matched nor counted."""
    url = f"sqlite:///{tmp_path / 'archive.sqlite3'}"
    app = create_app(served(url, seek_seconds=0.5, max_seeks_per_player=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
        waiting = seek(client, ann)
        [listed] = client.get("/v1/seeks").json()["seeks"]
        made, ends = (datetime.fromisoformat(listed[at]) for at in ("created_at", "expires_at"))
        assert ends - made == timedelta(seconds=0.5)
        [(_, name, data)] = events(client, ann, 1)  # waits for the periodic work
        assert (name, data) == ("seek_expired", {"seek": waiting["id"]})
        assert client.get("/v1/seeks").json()["seeks"] == []
        gone = client.delete(f"/v1/seeks/{waiting['id']}", headers=bearer(ann["key"]))
        assert_problem(gone, 404, "seek_not_found")
        assert seek(client, bo)["game"] is None  # nothing to match
        assert seek(client, ann)["game"] is not None  # at her most (1) no longer
        assert [name for name, _ in told(client, ann)] == ["seek_expired", "game"]


def test_a_pending_game_that_can_no_longer_be_made_puts_the_waiting_seek_back(
    quick: TestClient,
) -> None:
    """A pending game whose body no longer makes a game (this version's settings refuse it):
    the periodic work undoes it, and the waiting seek waits again, nobody told of a game."""
    ann, bo = make_player(quick, "Ann"), make_player(quick, "Bo")
    waiting = seek(quick, ann)
    matches = Matches.of(quick.app.state, quick.app.state.archive)
    kept = quick.portal.call(matches.offers.find_seek, waiting["id"])
    assert kept is not None
    refused = Seek("s-bo", bo["id"], {"game": "no-such-kind"}, kept.rated, kept.terms, kept.kind,
                   kept.pool, None, now_ms())  # fmt: skip
    matched = quick.portal.call(matches.offers.seek, refused, 10, matches.draw("c", now_ms()))
    assert matched is not None
    assert quick.get("/v1/seeks").json()["seeks"] == []
    assert quick.portal.call(matches.recover, now_ms() + 60_000) == 0
    assert [s["id"] for s in quick.get("/v1/seeks").json()["seeks"]] == [waiting["id"]]
    assert told(quick, ann) == told(quick, bo) == []
    assert quick.get(f"/v1/games/{matched.pending.id}").status_code == 404
