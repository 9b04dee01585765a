"""Open games and the lobby (API.md part 2, "The lobby, spectators and the game's lifecycle"), on
the memory store, one Redis and a Redis Cluster: a game created open holds one token and waits
(nobody moves, resigns or offers a draw) until someone takes the free seat; one of many racing
joins wins and a retry under its key gets the same seat and token; the lobby lists open games
oldest first, a page at a time, by kind and rule, and drops each one once it is taken or gone;
a client holds a bounded number of them; every bad parameter is a 422 naming it."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.problems import assert_problem
from tests.conftest import STORES, app_settings, empty_store

OPEN_GAMES = 3  # each client's most open games, here


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    settings = app_settings(
        store_url=store_url, create_rate_per_minute=0, client_open_games=OPEN_GAMES,
        history_moves_per_minute=0,
    )  # fmt: skip
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def reader() -> Iterator[TestClient]:
    """One app on the memory store, for the listing's parameters: they are read before any
    store is."""
    with TestClient(create_app(app_settings()), raise_server_exceptions=False) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json={"open": True, **body})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def listed(client: TestClient, query: str = "") -> list[str]:
    """Every open game's id the lobby lists for ``query``, page after page (two a page)."""
    ids, cursor = [], ""
    while True:
        response = client.get(f"/v1/games?open=true&limit=2{query}{cursor}")
        assert response.status_code == 200, response.text
        page = response.json()
        assert len(page["games"]) <= 2
        assert all(game["open_seat"] in (1, 2) for game in page["games"])
        ids += [game["id"] for game in page["games"]]
        if page["next_cursor"] is None:
            return ids
        cursor = f"&cursor={page['next_cursor']}"


@pytest.mark.parametrize("creator", [1, 2])
def test_an_open_game_waits_for_its_second_player(client: TestClient, creator: int) -> None:
    game = create(client, n=3, creator=creator)
    free = 3 - creator
    assert list(game["tokens"]) == [str(creator)]
    assert (game["open_seat"], game["next_player"], game["version"]) == (free, None, 0)
    token = game["tokens"][str(creator)]
    path = f"/v1/games/{game['id']}"
    for action, body in (("moves", {"row": 0, "col": 0}), ("resign", None), ("draw-offer", None)):
        refused = client.post(f"{path}/{action}", json=body, headers=bearer(token))
        assert_problem(refused, 409, "waiting_for_opponent")
        assert refused.json()["open_seat"] == free
    assert client.get(path).json()["version"] == 0  # nothing changed

    joined = client.post(f"{path}/join")
    assert joined.status_code == 200, joined.text
    assert joined.headers["cache-control"] == "no-store"
    answer = joined.json()
    assert answer["player"] == free
    state = answer["state"]
    assert (state["open_seat"], state["next_player"], state["version"]) == (None, 1, 1)
    first = token if creator == 1 else answer["token"]
    second = answer["token"] if creator == 1 else token
    assert (
        client.post(f"{path}/moves", json={"row": 0, "col": 0}, headers=bearer(first)).status_code
        == 201
    )
    wrong = client.post(f"{path}/moves", json={"row": 1, "col": 1}, headers=bearer(first))
    assert_problem(wrong, 409, "not_your_turn")
    assert (
        client.post(f"{path}/moves", json={"row": 1, "col": 1}, headers=bearer(second)).status_code
        == 201
    )
    assert_problem(client.post(f"{path}/join"), 409, "seat_taken")


def test_a_game_created_whole_has_no_free_seat(client: TestClient) -> None:
    game = client.post("/v1/games", json={"n": 3}).json()
    assert "open_seat" not in game
    assert set(game["tokens"]) == {"1", "2"}
    assert_problem(client.post(f"/v1/games/{game['id']}/join"), 409, "seat_taken")
    assert game["id"] not in listed(client)


def test_a_join_retried_under_its_key_gets_the_same_seat_and_token(client: TestClient) -> None:
    game = create(client, game="reversi")
    path = f"/v1/games/{game['id']}/join"
    first = client.post(path, headers={"Idempotency-Key": "join-once"})
    again = client.post(path, headers={"Idempotency-Key": "join-once"})
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json()["token"] == first.json()["token"]
    assert again.json()["player"] == first.json()["player"] == 2
    assert_problem(client.post(path, headers={"Idempotency-Key": "another"}), 409, "seat_taken")
    moved = client.post(
        f"/v1/games/{game['id']}/moves", json={"square": "f5"},
        headers=bearer(game["tokens"]["1"]),
    )  # fmt: skip
    assert moved.status_code == 201, moved.text
    assert (
        client.post(path, headers={"Idempotency-Key": "join-once"}).json()["token"]
        == (first.json()["token"])
    )  # a retry after the game went on still gets its seat


def posted_from(
    client: TestClient, address: str, path: str, keys: list[str]
) -> list[httpx.Response]:
    """``POST path`` once per Idempotency-Key of ``keys``, all at once, from the client at
    ``address`` (another client's than the TestClient's own), on the app's own event loop
    (where its store lives): a second TestClient would run the app's lifespan again, and close
    its store when it stops."""

    async def send() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            return await asyncio.gather(
                *(http.post(path, headers={"Idempotency-Key": key}) for key in keys)
            )

    assert client.portal is not None
    return client.portal.call(send)


# The TestClient's own client address, as the service sees it.
TEST_CLIENT = "testclient"


def test_racing_joins_seat_exactly_one(client: TestClient) -> None:
    """Fifty joins sent at once, each under its own key (and each retried under it): exactly
    one seat is given, every other join is seat_taken, and each retry answers as its first."""
    game = create(client, game="gomoku", rule="renju")
    path = f"/v1/games/{game['id']}/join"
    answers = posted_from(client, TEST_CLIENT, path, [f"racer-{i}" for i in range(50)])
    won = [i for i, answer in enumerate(answers) if answer.status_code == 200]
    assert len(won) == 1
    assert all(answers[i].json()["code"] == "seat_taken" for i in range(50) if i not in won)
    winner = answers[won[0]].json()
    retried = client.post(path, headers={"Idempotency-Key": f"racer-{won[0]}"})
    assert retried.json()["token"] == winner["token"]
    loser = next(i for i in range(50) if i not in won)
    assert_problem(
        client.post(path, headers={"Idempotency-Key": f"racer-{loser}"}), 409, "seat_taken"
    )
    moved = client.post(
        f"/v1/games/{game['id']}/moves", json={"square": "h8"},
        headers=bearer(game["tokens"]["1"]),
    )  # fmt: skip
    assert moved.status_code == 201, moved.text


@pytest.mark.parametrize("key", ["1", "join", "join-once", "0" * 255])
def test_a_join_replayed_from_another_client_does_not_get_the_seat(
    client: TestClient, key: str
) -> None:
    """A join's key is bound to the client that sent it (its address; an IPv6 /64): the same
    key from another address is another join, however guessable — 409 once the seat is taken —
    while the joiner's own retry still gets its seat and token."""
    game = create(client, n=3)
    path = f"/v1/games/{game['id']}/join"
    joined = client.post(path, headers={"Idempotency-Key": key})
    assert joined.status_code == 200, joined.text
    for address in ("192.0.2.7", "2001:db8::7", "testclient2"):
        (replayed,) = posted_from(client, address, path, [key])
        assert_problem(replayed, 409, "seat_taken")
        assert joined.json()["token"] not in replayed.text
    again = client.post(path, headers={"Idempotency-Key": key})
    assert again.status_code == 200
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json()["token"] == joined.json()["token"]


def test_a_join_from_another_client_under_a_used_key_takes_a_free_seat_of_its_own(
    client: TestClient,
) -> None:
    """Keys are the client's own: another client's join under the same key, of another game
    or of this one before its seat is taken, is a join of its own with a token of its own."""
    first, second = create(client, n=3), create(client, n=3)
    mine = client.post(f"/v1/games/{first['id']}/join", headers={"Idempotency-Key": "k"})
    (theirs,) = posted_from(client, "192.0.2.7", f"/v1/games/{second['id']}/join", ["k"])
    assert (mine.status_code, theirs.status_code) == (200, 200)
    assert "idempotent-replayed" not in theirs.headers
    assert theirs.json()["token"] != mine.json()["token"]
    # The other client's answer is its own, and is its retry's too; not the TestClient's.
    (retried,) = posted_from(client, "192.0.2.7", f"/v1/games/{second['id']}/join", ["k"])
    assert retried.json()["token"] == theirs.json()["token"]
    mine_there = client.post(f"/v1/games/{second['id']}/join", headers={"Idempotency-Key": "k"})
    assert_problem(mine_there, 409, "seat_taken")


def test_an_ipv6_client_retries_its_join_from_another_address_of_its_network(
    client: TestClient,
) -> None:
    """An IPv6 client is its /64 (``client_of``): a retry from another address of it — a new
    privacy address — is the same client's, and gets the seat again."""
    game = create(client, n=3)
    path = f"/v1/games/{game['id']}/join"
    (first,) = posted_from(client, "2001:db8:0:1::aaaa", path, ["roaming"])
    (again,) = posted_from(client, "2001:db8:0:1::bbbb", path, ["roaming"])
    (elsewhere,) = posted_from(client, "2001:db8:0:2::aaaa", path, ["roaming"])
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json()["token"] == first.json()["token"]
    assert_problem(elsewhere, 409, "seat_taken")


def test_the_lobby_lists_open_games_oldest_first_by_kind_and_rule(client: TestClient) -> None:
    tictactoe = create(client, n=3)
    renju = create(client, game="gomoku", rule="renju")
    caro = create(client, game="gomoku", rule="caro")
    assert listed(client) == [tictactoe["id"], renju["id"], caro["id"]]
    assert listed(client, "&game=gomoku") == [renju["id"], caro["id"]]
    assert listed(client, "&game=gomoku&rule=caro") == [caro["id"]]
    assert listed(client, "&game=reversi") == []
    # A joined game and a deleted one leave the lobby.
    client.post(f"/v1/games/{renju['id']}/join")
    client.delete(f"/v1/games/{tictactoe['id']}", headers=bearer(tictactoe["tokens"]["1"]))
    assert listed(client) == [caro["id"]]
    # Each listed state is the game's state.
    page = client.get("/v1/games?open=true").json()
    assert page["games"] == [client.get(f"/v1/games/{caro['id']}").json()]
    assert page["next_cursor"] is None


def test_a_client_holds_a_bounded_number_of_open_games(client: TestClient) -> None:
    games = [create(client, n=3) for _ in range(OPEN_GAMES)]
    refused = client.post("/v1/games", json={"n": 3, "open": True})
    assert_problem(refused, 503, "capacity_exhausted")
    assert "open games" in refused.json()["detail"]
    assert client.post("/v1/games", json={"n": 3}).status_code == 201  # a whole game is fine
    client.post(f"/v1/games/{games[0]['id']}/join")  # a seat taken frees a place
    assert client.post("/v1/games", json={"n": 3, "open": True}).status_code == 201


def test_open_games_that_expire_give_their_places_back(store_url: str) -> None:
    """A game nobody joined expires as any unstarted game does; its place among its owner's
    open games comes back (on Redis the lobby outlives the game's keys: the owner's next open
    game finds its listed games gone, and drops them), and it is no longer listed."""
    settings = app_settings(
        store_url=store_url, create_rate_per_minute=0, client_open_games=2,
        unstarted_game_seconds=0.3, history_moves_per_minute=0,
    )  # fmt: skip
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        for _ in range(2):
            create(client, n=3)
        assert_problem(client.post("/v1/games", json={"n": 3, "open": True}), 503,
                       "capacity_exhausted")  # fmt: skip
        time.sleep(0.5)  # past their lifetime: they expire (no answer's time is asserted)
        fresh = create(client, n=3)
        assert listed(client) == [fresh["id"]]


def test_a_game_deleted_gives_its_place_back(client: TestClient) -> None:
    games = [create(client, n=3) for _ in range(OPEN_GAMES)]
    assert_problem(client.post("/v1/games", json={"n": 3, "open": True}), 503, "capacity_exhausted")
    first = games[0]
    client.delete(f"/v1/games/{first['id']}", headers=bearer(first["tokens"]["1"]))
    assert create(client, n=3)["id"] not in [game["id"] for game in games]


def test_nobody_has_legal_moves_while_the_game_waits(client: TestClient) -> None:
    for body in ({"n": 3}, {"game": "reversi"}, {"game": "gomoku", "size": 9}):
        game = create(client, **body)
        page = client.get(f"/v1/games/{game['id']}/legal-moves").json()
        assert (page["player"], page["count"], page["moves"]) == (None, 0, []), body
        client.post(f"/v1/games/{game['id']}/join")
        page = client.get(f"/v1/games/{game['id']}/legal-moves").json()
        assert page["player"] == 1
        assert page["count"] > 0


def test_a_keyed_move_refused_while_waiting_is_taken_once_the_seat_is(client: TestClient) -> None:
    """Waiting is no answer to remember: the same request, under the same key, is decided
    again once someone joined (a refusal of the rules would be replayed)."""
    for body, move in (({"n": 3}, {"row": 0, "col": 0}), ({"game": "reversi"}, {"square": "f5"})):
        game = create(client, **body)
        path, token = f"/v1/games/{game['id']}/moves", game["tokens"]["1"]
        headers = {**bearer(token), "Idempotency-Key": "the-first-move"}
        assert_problem(client.post(path, json=move, headers=headers), 409, "waiting_for_opponent")
        client.post(f"/v1/games/{game['id']}/join")
        moved = client.post(path, json=move, headers=headers)
        assert moved.status_code == 201, moved.text
        assert "idempotent-replayed" not in moved.headers


def test_an_open_game_its_opening_ended_is_not_listed(store_url: str) -> None:
    settings = app_settings(store_url=store_url, create_rate_per_minute=0, max_moves_per_game=2)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        game = create(client, game="reversi", opening="f5d6")  # the move limit: a draw
        assert (game["status"], game["open_seat"]) == ("draw", None)
        assert listed(client) == []
        assert_problem(client.post(f"/v1/games/{game['id']}/join"), 409, "seat_taken")


def test_a_joined_game_lives_an_unstarted_games_life_from_the_join(
    request: pytest.FixtureRequest,
) -> None:
    """On every store at once: the three games wait out the same seconds."""
    with ExitStack() as apps:
        clients = [
            apps.enter_context(TestClient(create_app(app_settings(
                store_url=empty_store(request, store), create_rate_per_minute=0,
                unstarted_game_seconds=3,
            )), raise_server_exceptions=False))
            for store in STORES
        ]  # fmt: skip
        # A second of margin each way: a machine busy with the suite's other workers may take
        # a few hundred milliseconds a request.
        games = [create(client, n=3) for client in clients]
        time.sleep(2)
        for client, game in zip(clients, games, strict=True):
            client.post(f"/v1/games/{game['id']}/join")
        time.sleep(2)  # past its creation's lifetime, not its join's
        for store, client, game in zip(STORES, clients, games, strict=True):
            moved = client.post(
                f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0},
                headers=bearer(game["tokens"]["1"]),
            )  # fmt: skip
            assert moved.status_code == 201, (store, moved.text)


def test_a_join_after_an_opening_is_sent_in_its_place(client: TestClient) -> None:
    """The join comes after the opening's stones (moves 1 to 3, versions 1 to 3) and before the
    first move of the players: a stream from the start, or resumed anywhere, sends each change
    once, in the order of the versions."""
    game = create(client, game="gomoku", size=9, opening={"stones": ["e5", "e6", "f5"]})
    joined = client.post(f"/v1/games/{game['id']}/join").json()
    white = joined["token"]
    client.post(f"/v1/games/{game['id']}/moves", json={"square": "a1"}, headers=bearer(white))
    client.post(f"/v1/games/{game['id']}/resign", headers=bearer(white))
    from_start = ["move"] * 3 + ["join", "move", "end"]
    for since, expected in ((0, from_start), (3, from_start[3:]), (4, from_start[4:])):
        with client.stream("GET", f"/v1/games/{game['id']}/events?since={since}") as stream:
            text = "".join(stream.iter_text())
        events = re.findall(r"event: (\w+)\r?\n(?:data: .*\r?\n)?id: (\d+)", text)
        assert [name for name, _ in events] == expected, since
        versions = [int(version) for _, version in events]
        assert versions == sorted(set(versions)), since


def test_a_join_is_announced_on_the_games_stream(client: TestClient) -> None:
    game = create(client, n=3)
    client.post(f"/v1/games/{game['id']}/join")
    token = game["tokens"]["1"]
    client.post(f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0}, headers=bearer(token))
    client.post(f"/v1/games/{game['id']}/resign", headers=bearer(token))
    with client.stream("GET", f"/v1/games/{game['id']}/events") as stream:
        text = "".join(stream.iter_text())
    events = re.findall(r"event: (\w+)\r?\n(?:data: .*\r?\n)?id: (\d+)", text)
    assert [name for name, _ in events] == ["join", "move", "end"]
    assert [int(version) for _, version in events] == [1, 2, 3]


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("", "open"),
        ("?open=false", "open"),
        ("?open=1", "open"),
        ("?open=true&open=true", "open"),
        ("?open=true&game=chess", "game"),
        ("?open=true&game=GOMOKU", "game"),
        ("?open=true&game=" + "g" * 40, "game"),
        ("?open=true&rule=renju", "rule"),
        ("?open=true&game=reversi&rule=renju", "rule"),
        ("?open=true&game=gomoku&rule=chess", "rule"),
        ("?open=true&limit=0", "limit"),
        ("?open=true&limit=101", "limit"),
        ("?open=true&limit=%EF%BC%95", "limit"),
        ("?open=true&cursor=-1", "cursor"),
        ("?open=true&cursor=1e3", "cursor"),
        ("?open=true&cursor=" + "9" * 19, "cursor"),
        ("?open=true&cursor=%00", "cursor"),
    ],
)
def test_a_bad_listing_is_422_naming_its_parameter(
    reader: TestClient, query: str, name: str
) -> None:
    response = reader.get(f"/v1/games{query}")
    assert_problem(response, 422, "validation_error")
    assert response.json()["errors"][0]["loc"] == ["query", name]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"n": 3, "creator": 2}, "creator_without_open"),
        ({"n": 3, "open": "true"}, "open"),
        ({"n": 3, "open": 1}, "open"),
        ({"n": 3, "open": True, "creator": 3}, "creator"),
        ({"n": 3, "open": True, "creator": "2"}, "creator"),
        ({"n": 3, "open": True, "creator": "\uff12"}, "creator"),  # a full-width 2
        ({"n": 3, "open": True, "creator": "\u0662"}, "creator"),  # an Arabic-Indic 2
        ({"n": 3, "open": True, "creator": 10**30}, "creator"),
        ({"n": 3, "open": "\u0000true"}, "open"),
    ],
)
def test_a_bad_open_game_is_422(
    module_store_client: TestClient, body: dict[str, Any], field: str
) -> None:
    client = module_store_client  # one app a store: a refused body reaches no store
    listed = client.get("/v1/games?open=true&limit=100").json()["games"]
    response = client.post("/v1/games", json=body)
    assert_problem(response, 422, "validation_error")
    error = response.json()["errors"][0]
    assert field in [*map(str, error["loc"]), error["type"]]
    assert client.get("/v1/games?open=true&limit=100").json()["games"] == listed  # none more


@pytest.mark.parametrize("key", [" ", "x" * 256, "\u0662\u0663", "a\u0000b", "k\u00e9y", "\t"])
def test_a_join_with_a_bad_idempotency_key_is_4xx_and_takes_no_seat(
    module_store_client: TestClient, key: str
) -> None:
    client = module_store_client  # one app a store: each case reads only its own game
    game = create(client, n=3)
    raw = [(b"idempotency-key", key.encode("utf-8"))]
    response = client.post(f"/v1/games/{game['id']}/join", headers=raw)
    assert_problem(response, 422, "validation_error")  # a key is 1-255 visible ASCII characters
    assert client.get(f"/v1/games/{game['id']}").json()["open_seat"] == 2  # nobody seated


def test_joining_no_game_is_404(client: TestClient) -> None:
    assert_problem(client.post("/v1/games/nosuchgame123/join"), 404, "game_not_found")
    assert_problem(client.post("/v1/games/" + "x" * 80 + "/join"), 404, "game_not_found")
