"""Players and ratings through the HTTP API (contract part 3, "Players and ratings"), on SQLite
and on a real PostgreSQL server: players made and read, their keys acting for their seats, rated
games and their pools, and Glicko-2 ratings updated once per rated result — equal to a slow
reference replaying the archive's rated games in the order their updates were made.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from app.main import create_app
from app.stores.archive.archive import Archive
from app.stores.archive.tables import games, rating_changes, ratings
from app.stores.archive.urls import NONE
from tests.api.problems import assert_problem
from tests.conftest import app_settings
from tests.league.test_glicko2 import reference_rate

# Tic-tac-toe on 3 × 3: seat 1 wins with its third move; a draw fills the board.
WIN = [(1, 0, 0), (2, 1, 0), (1, 0, 1), (2, 1, 1), (1, 0, 2)]
DRAW = [(1, 0, 0), (2, 0, 1), (1, 0, 2), (2, 1, 1), (1, 1, 0), (2, 1, 2), (1, 2, 1), (2, 2, 0),
        (1, 2, 2)]  # fmt: skip
NEW = (1500.0, 350.0, 0.06)


def served(archive_url: str, **more: Any) -> Any:
    return app_settings(
        archive_url=archive_url, create_rate_per_minute=0, archive_poll_seconds=0.1, **more
    )


@pytest.fixture
def client(archive_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(served(archive_url)), raise_server_exceptions=False) as made:
        yield made


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def make_player(client: TestClient, name: str) -> dict[str, Any]:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    assert set(made) == {"id", "name", "key"}
    assert response.headers["location"] == f"/v1/players/{made['id']}"
    return made


def move(client: TestClient, game_id: str, secret: str, row: int, col: int) -> Any:
    return client.post(
        f"/v1/games/{game_id}/moves", json={"row": row, "col": col}, headers=bearer(secret)
    )


def rated_game(
    client: TestClient, first: dict[str, Any], second: dict[str, Any], body: dict[str, Any]
) -> str:
    made = client.post(
        "/v1/games", json={**body, "open": True, "rated": True}, headers=bearer(first["key"])
    )
    assert made.status_code == 201, made.text
    game_id: str = made.json()["id"]
    joined = client.post(f"/v1/games/{game_id}/join", headers=bearer(second["key"]))
    assert joined.status_code == 200, joined.text
    return game_id


def play(client: TestClient, game_id: str, keys: dict[int, str], script: list[Any]) -> Any:
    answer = None
    for seat, row, col in script:
        answer = move(client, game_id, keys[seat], row, col)
        assert answer.status_code == 201, answer.text
    return answer


# --- players ------------------------------------------------------------------------------------


def test_a_player_is_made_once_and_read_without_its_key(client: TestClient) -> None:
    ann = make_player(client, "Ann")
    assert ann["name"] == "Ann"
    assert ann["key"].startswith(ann["id"] + ".")
    found = client.get(f"/v1/players/{ann['id']}")
    assert found.status_code == 200
    body = found.json()
    assert set(body) == {"id", "name", "created_at", "ratings"}
    assert body["id"] == ann["id"]
    assert body["ratings"] == {}
    assert ann["key"] not in found.text
    me = client.get("/v1/players/me", headers=bearer(ann["key"]))
    assert me.json() == body
    other = make_player(client, "Ann")  # names need not be unique; ids and keys are
    assert other["id"] != ann["id"]
    assert other["key"] != ann["key"]


def test_unknown_players_and_keys_are_refused(client: TestClient) -> None:
    ann = make_player(client, "Ann")
    assert_problem(client.get("/v1/players/nobody"), 404, "player_not_found")
    assert_problem(client.get("/v1/players/me"), 401, "unauthorized")
    forged = ann["id"] + ".not-its-secret"
    assert_problem(client.get("/v1/players/me", headers=bearer(forged)), 401, "unauthorized")
    for token in ("no-dot", ".x", "x.", "ghost." + "a" * 43):
        assert_problem(client.get("/v1/players/me", headers=bearer(token)), 401, "unauthorized")
    # A key of no player makes no game as a player.
    response = client.post("/v1/games", json={"n": 3}, headers=bearer(forged))
    assert_problem(response, 401, "unauthorized")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "x" * 65},
        {"name": "a\nb"},
        {"name": 7},
        {"name": None},
        [],
        "Ann",
    ],
)
def test_a_player_body_is_checked(client: TestClient, body: Any) -> None:
    assert_problem(client.post("/v1/players", json=body), 422, "validation_error")


@pytest.mark.parametrize("archive_url", ["sqlite"], indirect=True)
def test_a_client_makes_at_most_its_players(archive_url: str) -> None:
    settings = served(archive_url, max_players_per_client=2)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        make_player(client, "A")
        make_player(client, "B")
        assert_problem(client.post("/v1/players", json={"name": "C"}), 503, "capacity_exhausted")


def test_without_an_archive_there_are_no_players() -> None:
    with TestClient(create_app(served(NONE)), raise_server_exceptions=False) as client:
        assert_problem(client.post("/v1/players", json={"name": "A"}), 503, "store_unavailable")
        assert_problem(client.get("/v1/players/x"), 503, "store_unavailable")
        # A game made without a key is made as ever.
        assert client.post("/v1/games", json={"n": 3}).status_code == 201


# --- a player's key in games ------------------------------------------------------------------


def test_a_players_key_acts_for_its_seat_and_its_token_too(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    made = client.post("/v1/games", json={"n": 3}, headers=bearer(ann["key"]))
    assert made.status_code == 201, made.text
    game = made.json()
    assert game["players"] == {"1": ann["id"], "2": None}
    assert game["names"] == {"1": "Ann"}
    assert "rated" not in game
    assert "pool" not in game
    game_id = game["id"]
    assert move(client, game_id, ann["key"], 0, 0).status_code == 201  # seat 1, by its key
    assert move(client, game_id, game["tokens"]["2"], 1, 1).status_code == 201
    assert move(client, game_id, game["tokens"]["1"], 0, 1).status_code == 201  # its token too
    # Another player's key, and a key of no player, act for no seat.
    assert_problem(move(client, game_id, bo["key"], 2, 2), 401, "unauthorized")
    assert_problem(move(client, game_id, ann["id"] + ".x", 2, 2), 401, "unauthorized")
    offer = client.post(f"/v1/games/{game_id}/draw-offer", headers=bearer(ann["key"]))
    assert offer.status_code == 200, offer.text
    assert client.get(f"/v1/games/{game_id}").json()["draw_offer"] == 1


def test_a_player_joins_with_its_key_but_never_its_own_game(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    made = client.post(
        "/v1/games", json={"n": 3, "open": True, "creator": 2}, headers=bearer(ann["key"])
    )
    game = made.json()
    assert game["players"] == {"1": None, "2": ann["id"]}
    assert game["open_seat"] == 1
    own = client.post(f"/v1/games/{game['id']}/join", headers=bearer(ann["key"]))
    assert_problem(own, 409, "seat_taken")
    joined = client.post(
        f"/v1/games/{game['id']}/join", json={"name": "not Bo"}, headers=bearer(bo["key"])
    )
    assert joined.status_code == 200, joined.text
    state = joined.json()["state"]
    assert state["players"] == {"1": bo["id"], "2": ann["id"]}
    assert state["names"] == {"1": "Bo", "2": "Ann"}  # a player's seat is called by the player
    assert move(client, game["id"], bo["key"], 0, 0).status_code == 201
    assert move(client, game["id"], joined.json()["token"], 1, 1).status_code == 409  # not its turn


def test_a_private_games_records_are_read_with_a_players_key(client: TestClient) -> None:
    ann = make_player(client, "Ann")
    made = client.post(
        "/v1/games", json={"n": 3, "visibility": "private"}, headers=bearer(ann["key"])
    ).json()
    game_id = made["id"]
    assert_problem(client.get(f"/v1/games/{game_id}"), 401, "unauthorized")
    assert client.get(f"/v1/games/{game_id}", headers=bearer(ann["key"])).status_code == 200
    keys = {1: ann["key"], 2: made["tokens"]["2"]}
    play(client, game_id, keys, WIN)
    record = client.get(f"/v1/games/{game_id}/record", headers=bearer(ann["key"]))
    assert record.status_code == 200
    assert record.json()["players"] == {"1": ann["id"], "2": None}
    kept = client.get(f"/v1/archive/games/{game_id}", headers=bearer(ann["key"]))
    assert kept.status_code == 200, kept.text
    assert kept.content == record.content


# --- rated games and ratings --------------------------------------------------------------------


def test_a_rated_game_is_made_only_open_and_by_players(client: TestClient) -> None:
    ann = make_player(client, "Ann")
    assert_problem(
        client.post("/v1/games", json={"n": 3, "rated": True}, headers=bearer(ann["key"])),
        422, "validation_error",
    )  # fmt: skip
    assert_problem(
        client.post("/v1/games", json={"n": 3, "open": True, "rated": True}), 401, "unauthorized"
    )
    assert_problem(
        client.post("/v1/games", json={"n": 3, "open": True, "rated": "yes"},
                    headers=bearer(ann["key"])),
        422, "validation_error",
    )  # fmt: skip
    made = client.post(
        "/v1/games", json={"n": 3, "open": True, "rated": True}, headers=bearer(ann["key"])
    ).json()
    assert made["rated"] is True
    assert made["pool"] == "tictactoe/3x3/k3/correspondence"
    # Its free seat is a player's: a join without a key is refused, and changes nothing.
    assert_problem(client.post(f"/v1/games/{made['id']}/join"), 401, "unauthorized")
    assert client.get(f"/v1/games/{made['id']}").json()["open_seat"] == 2


@pytest.mark.parametrize(
    ("clock", "speed"),
    [
        (None, "correspondence"),
        ({"initial_seconds": 60, "increment_seconds": 2}, "bullet"),  # 60 + 40 × 2 = 140
        ({"initial_seconds": 100, "increment_seconds": 2}, "blitz"),  # 180: not below it
        ({"initial_seconds": 300, "increment_seconds": 4}, "blitz"),  # 460
        ({"initial_seconds": 600, "increment_seconds": 5}, "rapid"),  # 800
        ({"initial_seconds": 1500, "increment_seconds": 0}, "classical"),
    ],
)
def test_a_pool_names_the_game_its_board_and_its_speed(
    client: TestClient, clock: dict[str, int] | None, speed: str
) -> None:
    ann = make_player(client, "Ann")
    body: dict[str, Any] = {"game": "gomoku", "rule": "renju", "open": True, "rated": True}
    if clock is not None:
        body["clock"] = clock
    made = client.post("/v1/games", json=body, headers=bearer(ann["key"]))
    assert made.status_code == 201, made.text
    assert made.json()["pool"] == f"gomoku/renju/15x15/{speed}"


def expected_after(
    before: dict[str, tuple[float, float, float]], first: str, second: str, score: float
) -> dict[str, tuple[float, float, float]]:
    """Both players after one game, by the slow reference: one period each, from both players'
    values before it."""
    a, b = before[first], before[second]
    return {
        first: reference_rate(a, [(b[0], b[1], score)]).rating,
        second: reference_rate(b, [(a[0], a[1], 1 - score)]).rating,
    }


def test_a_rated_result_rates_both_players_once(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    game_id = rated_game(client, ann, bo, {"n": 3})
    keys = {1: ann["key"], 2: bo["key"]}
    play(client, game_id, keys, WIN)
    pool = "tictactoe/3x3/k3/correspondence"
    expected = expected_after({ann["id"]: NEW, bo["id"]: NEW}, ann["id"], bo["id"], 1.0)
    for player in (ann, bo):
        rated = client.get(f"/v1/players/{player['id']}").json()["ratings"]
        assert set(rated) == {pool}
        got = rated[pool]
        assert got["games"] == 1
        want = expected[player["id"]]
        assert abs(got["rating"] - want[0]) < 0.01
        assert abs(got["rd"] - want[1]) < 0.01
        assert abs(got["volatility"] - want[2]) < 1e-6
    listed = client.get("/v1/ratings", params={"pool": pool}).json()
    assert [row["id"] for row in listed["players"]] == [ann["id"], bo["id"]]
    assert listed["players"][0]["provisional"] is True
    assert listed["next"] is None
    assert set(listed["players"][0]) == {"id", "name", "rating", "rd", "games", "provisional"}
    # The archive's summary says so; the game is archived once (its result rated once).
    summary = client.get("/v1/archive/games", params={"player": ann["id"]}).json()["games"]
    assert [game["id"] for game in summary] == [game_id]
    assert summary[0]["rated"] is True
    assert summary[0]["pool"] == pool
    assert summary[0]["players"] == {"1": ann["id"], "2": bo["id"]}


def test_an_aborted_rated_game_rates_nobody(client: TestClient) -> None:
    ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
    game_id = rated_game(client, ann, bo, {"n": 3})
    aborted = client.post(f"/v1/games/{game_id}/abort", headers=bearer(bo["key"]))
    assert aborted.status_code == 200, aborted.text
    assert client.get(f"/v1/players/{ann['id']}").json()["ratings"] == {}


def test_ratings_are_a_replay_of_the_archives_rated_games(archive_url: str) -> None:
    """Many rated games between a dozen players in two pools, in random pairs and results: every
    rating the service shows equals the slow reference replaying the archive's rated games (their
    summaries: players, result) in the order their updates were made."""
    rng = random.Random(20261202)
    with TestClient(create_app(served(archive_url)), raise_server_exceptions=False) as client:
        players = [make_player(client, f"P{index}") for index in range(12)]
        bodies = [{"n": 3}, {"n": 4, "k": 3}]
        for _ in range(60):
            first, second = rng.sample(players, 2)
            body = rng.choice(bodies)
            game_id = rated_game(client, first, second, body)
            keys = {1: first["key"], 2: second["key"]}
            if body["n"] == 3:
                script = rng.choice([WIN, DRAW])
                if rng.random() < 0.3:  # seat 2 wins: seat 1 resigns
                    play(client, game_id, keys, script[:2])
                    resigned = client.post(
                        f"/v1/games/{game_id}/resign", headers=bearer(first["key"])
                    )
                    assert resigned.status_code == 200, resigned.text
                    continue
            else:
                script = [(1, 0, 0), (2, 1, 0), (1, 0, 1), (2, 1, 1), (1, 0, 2)]
            play(client, game_id, keys, script)
        shown = {
            (pool, player["id"]): (got["rating"], got["rd"], got["volatility"], got["games"])
            for player in players
            for pool, got in client.get(f"/v1/players/{player['id']}").json()["ratings"].items()
        }
    replayed = asyncio.run(replay(archive_url))
    assert set(shown) == set(replayed)
    for key, (rating, rd, volatility, played) in replayed.items():
        got = shown[key]
        assert abs(got[0] - rating) < 0.01, key
        assert abs(got[1] - rd) < 0.01, key
        assert abs(got[2] - volatility) < 1e-6, key
        assert got[3] == played, key


async def replay(archive_url: str) -> dict[tuple[str, str], tuple[float, float, float, int]]:
    """The ratings the archive's rated games make, replayed by the slow reference in the order
    their updates were numbered, from the games' summaries alone."""
    archive = Archive(archive_url)
    try:
        async with archive.engine.connect() as connection:
            order = [
                row.game_id
                for row in await connection.execute(
                    select(rating_changes.c.game_id).order_by(rating_changes.c.seq)
                )
            ]
            summaries = {
                row.id: json.loads(row.summary)
                for row in await connection.execute(select(games.c.id, games.c.summary))
            }
            assert (await connection.execute(select(ratings))).all()  # there are some
    finally:
        await archive.close()
    seen: list[str] = []
    for game_id in order:  # two changes a game, one after the other
        if not seen or seen[-1] != game_id:
            seen.append(game_id)
    assert len(seen) == len(set(seen))  # each game rated once
    values: dict[tuple[str, str], tuple[float, float, float]] = {}
    played: dict[tuple[str, str], int] = {}
    for game_id in seen:
        summary = summaries[game_id]
        pool, first, second = summary["pool"], summary["players"]["1"], summary["players"]["2"]
        score = 0.5 if summary["status"] == "draw" else (1.0 if summary["winner"] == 1 else 0.0)
        a, b = (pool, first), (pool, second)
        before = {a: values.get(a, NEW), b: values.get(b, NEW)}
        values[a] = reference_rate(before[a], [(before[b][0], before[b][1], score)]).rating
        values[b] = reference_rate(before[b], [(before[a][0], before[a][1], 1 - score)]).rating
        for key in (a, b):
            played[key] = played.get(key, 0) + 1
    return {key: (*value, played[key]) for key, value in values.items()}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=300))
def test_a_pool_and_a_cursor_are_checked(client: TestClient, text: str) -> None:
    for params in ({"pool": text}, {"pool": "x", "cursor": text}, {"pool": "x", "limit": text}):
        response = client.get("/v1/ratings", params=params)
        assert response.status_code in (200, 422), response.text
        if response.status_code == 200:
            assert response.json() == {"players": [], "next": None}


def test_ratings_page_exactly(client: TestClient) -> None:
    players = [make_player(client, f"P{index}") for index in range(7)]
    for first, second in itertools.pairwise(players):
        game_id = rated_game(client, first, second, {"n": 3})
        play(client, game_id, {1: first["key"], 2: second["key"]}, WIN)
    pool = "tictactoe/3x3/k3/correspondence"
    whole = client.get("/v1/ratings", params={"pool": pool, "limit": 1000}).json()["players"]
    assert len(whole) == 7
    assert [row["rating"] for row in whole] == sorted(
        (row["rating"] for row in whole), reverse=True
    )
    walked: list[str] = []
    cursor = None
    while True:
        params = {"pool": pool, "limit": 2, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/ratings", params=params).json()
        walked += [row["id"] for row in page["players"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert walked == [row["id"] for row in whole]


def test_players_play_rated_games_on_every_store(store_url: str, tmp_path: Any) -> None:
    """The live stores keep a game's players and pool (Redis: in the game's hash, set by create
    and join.lua): a key acts for its seat, a rated seat is a player's, a player never takes
    both seats, and the result rates both."""
    settings = served(f"sqlite:///{tmp_path / 'archive.sqlite3'}", store_url=store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        ann, bo = make_player(client, "Ann"), make_player(client, "Bo")
        made = client.post(
            "/v1/games", json={"n": 3, "open": True, "rated": True}, headers=bearer(ann["key"])
        ).json()
        game_id = made["id"]
        assert_problem(client.post(f"/v1/games/{game_id}/join"), 401, "unauthorized")
        own = client.post(f"/v1/games/{game_id}/join", headers=bearer(ann["key"]))
        assert_problem(own, 409, "seat_taken")
        joined = client.post(f"/v1/games/{game_id}/join", headers=bearer(bo["key"]))
        assert joined.status_code == 200, joined.text
        state = client.get(f"/v1/games/{game_id}").json()
        assert state["players"] == {"1": ann["id"], "2": bo["id"]}
        assert state["names"] == {"1": "Ann", "2": "Bo"}
        assert state["pool"] == "tictactoe/3x3/k3/correspondence"
        assert state["rated"] is True
        assert_problem(move(client, game_id, bo["key"], 0, 0), 409, "not_your_turn")
        play(client, game_id, {1: ann["key"], 2: bo["key"]}, WIN)
        pool = state["pool"]
        for player, won in ((ann, True), (bo, False)):
            got = client.get(f"/v1/players/{player['id']}").json()["ratings"][pool]
            assert got["games"] == 1
            assert (got["rating"] > 1500) == won
