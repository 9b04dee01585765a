"""Game sessions over HTTP: every field, status and error code of the contract."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from app.kinds import REGISTRY
from app.main import create_app
from app.sessions.errors import StoreUnavailable
from app.settings import Settings
from app.stores.memory import MemoryGameStore
from tests.api.problems import assert_problem, assert_validation_error
from tests.conftest import app_settings, shared_settings
from tests.servers import wait_for
from tests.timeless import timeless


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    """Every test in this module runs against the memory store, one Redis and a cluster: one
    app per store, as each reads only the games it creates (an app per test took most of the
    module's time)."""
    app = create_app(shared_settings(store_url=module_store_url))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


# A tic-tac-toe state (API.md, "Game kinds": every state names its `game`; tic-tac-toe adds `k`).
STATE_FIELDS = {
    "id", "game", "n", "k", "status", "winner", "reason", "next_player", "version", "move_count",
    "last_move", "draw_offer", "takeback_offer", "at",
}  # fmt: skip


def create(client: TestClient, n: int = 3) -> tuple[str, str, str]:
    response = client.post("/v1/games", json={"n": n})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["tokens"]["1"], body["tokens"]["2"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def move(client: TestClient, game_id: str, token: str, row: int, col: int, **extra: Any) -> Any:
    return client.post(
        f"/v1/games/{game_id}/moves", json={"row": row, "col": col, **extra}, headers=auth(token)
    )


def test_create_answers_201_state_location_and_two_tokens(client: TestClient) -> None:
    response = client.post("/v1/games", json={"n": 3})
    assert response.status_code == 201
    body = response.json()
    assert set(body) == STATE_FIELDS | {"tokens"}
    assert response.headers["location"] == f"/v1/games/{body['id']}"
    assert response.headers["cache-control"] == "no-store"  # it holds the tokens
    assert {k: body[k] for k in STATE_FIELDS - {"id", "at"}} == {
        "game": "tictactoe",
        "n": 3,
        "k": 3,
        "status": "in_progress",
        "winner": 0,
        "reason": None,
        "next_player": 1,
        "version": 0,
        "move_count": 0,
        "last_move": None,
        "draw_offer": None,
        "takeback_offer": None,
    }
    tokens = body["tokens"]
    assert set(tokens) == {"1", "2"}
    assert tokens["1"] != tokens["2"]
    assert len(tokens["1"]) >= 32
    state = client.get(response.headers["location"]).json()
    assert "tokens" not in state


def test_classic_game_through_http(client: TestClient) -> None:
    game_id, first, second = create(client)
    # Each move with its square name: on tic-tac-toe boards, row 1 is the bottom row.
    script = [
        (0, 0, "a3", 1), (0, 2, "c3", 2), (2, 2, "c1", 1), (1, 1, "b2", 2), (2, 0, "a1", 1),
        (1, 0, "a2", 2), (2, 1, "b1", 1),
    ]  # fmt: skip
    winners = []
    for seq, (row, col, square, player) in enumerate(script, start=1):
        response = move(client, game_id, (first, second)[player - 1], row, col, player=player)
        assert response.status_code == 201
        body = response.json()
        assert timeless(body["move"]) == {
            "seq": seq, "row": row, "col": col, "square": square, "player": player,
        }  # fmt: skip
        assert response.headers["location"] == f"/v1/games/{game_id}/moves/{seq}"
        assert body["state"]["version"] == seq
        assert body["state"]["last_move"] == body["move"]
        winners.append(body["winner"])
    assert winners == [0, 0, 0, 0, 0, 0, 1]
    state = client.get(f"/v1/games/{game_id}").json()
    assert (state["status"], state["winner"], state["next_player"]) == ("won", 1, None)
    assert client.get(f"/v1/games/{game_id}/board").json() == {
        "n": 3,
        "rows": ["X.O", "OO.", "XXX"],
    }


def test_draw(client: TestClient) -> None:
    game_id, first, second = create(client)
    cells = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
    for i, (r, c) in enumerate(cells):
        body = move(client, game_id, (first, second)[i % 2], r, c).json()
    assert body["winner"] == 0
    assert (body["state"]["status"], body["state"]["next_player"]) == ("draw", None)
    assert_problem(move(client, game_id, second, 0, 0), 409, "game_over")


def test_one_by_one_game_is_won_by_the_first_move(client: TestClient) -> None:
    game_id, first, _ = create(client, 1)
    assert move(client, game_id, first, 0, 0).json()["winner"] == 1


def test_million_by_million_game_plays(client: TestClient) -> None:
    game_id, first, second = create(client, 1_000_000)
    assert move(client, game_id, first, 999_999, 0).status_code == 201
    assert move(client, game_id, second, 500_000, 500_000).json()["state"]["version"] == 2
    assert_problem(client.get(f"/v1/games/{game_id}/board"), 422, "board_too_large")


class TestRefusals:
    def assert_unchanged(self, client: TestClient, game_id: str, version: int) -> None:
        assert client.get(f"/v1/games/{game_id}").json()["version"] == version

    @pytest.mark.parametrize(
        "headers",
        [
            {},
            {"Authorization": "Bearer"},
            {"Authorization": "Basic dXNlcjpwYXNz"},
            {"Authorization": "Bearer not-a-token"},
            {"Authorization": "bearer "},
        ],
    )
    def test_missing_or_invalid_token_is_401(
        self, client: TestClient, headers: dict[str, str]
    ) -> None:
        game_id, _, _ = create(client)
        response = client.post(
            f"/v1/games/{game_id}/moves", json={"row": 0, "col": 0}, headers=headers
        )
        assert_problem(response, 401, "unauthorized")
        assert response.headers["www-authenticate"] == "Bearer"
        self.assert_unchanged(client, game_id, 0)

    def test_token_of_another_game_is_401(self, client: TestClient) -> None:
        game_id, _, _ = create(client)
        _, other_first, _ = create(client)
        assert_problem(move(client, game_id, other_first, 0, 0), 401, "unauthorized")

    def test_player_contradicting_the_token_is_403(self, client: TestClient) -> None:
        game_id, first, second = create(client)
        assert_problem(move(client, game_id, first, 0, 0, player=2), 403, "wrong_player")
        assert_problem(move(client, game_id, second, 0, 0, player=1), 403, "wrong_player")
        self.assert_unchanged(client, game_id, 0)

    def test_unknown_game_is_404(self, client: TestClient) -> None:
        _, first, _ = create(client)
        assert_problem(move(client, "no-such-game", first, 0, 0), 404, "game_not_found")
        assert_problem(client.get("/v1/games/no-such-game"), 404, "game_not_found")
        for path in ["/moves", "/moves/1", "/board"]:
            assert_problem(client.get(f"/v1/games/no-such-game{path}"), 404, "game_not_found")

    @pytest.mark.parametrize(("row", "col"), [(3, 0), (0, 3), (-1, 0), (0, -1), (10**20, 0)])
    def test_cell_outside_the_board_is_422_out_of_bounds(
        self, client: TestClient, row: int, col: int
    ) -> None:
        game_id, first, _ = create(client)
        assert_problem(move(client, game_id, first, row, col), 422, "out_of_bounds")
        self.assert_unchanged(client, game_id, 0)

    def test_not_your_turn_and_cell_occupied_are_409(self, client: TestClient) -> None:
        game_id, first, second = create(client)
        move(client, game_id, first, 1, 1)
        body = assert_problem(move(client, game_id, first, 0, 0), 409, "not_your_turn")
        assert body["next_player"] == 2
        assert_problem(move(client, game_id, second, 1, 1), 409, "cell_occupied")
        self.assert_unchanged(client, game_id, 1)

    def test_move_after_the_win_is_refused(self, client: TestClient) -> None:
        game_id, first, _ = create(client, 1)
        move(client, game_id, first, 0, 0)
        body = assert_problem(move(client, game_id, first, 0, 0), 409, "game_over")
        assert body["winner"] == 1
        self.assert_unchanged(client, game_id, 1)

    @pytest.mark.parametrize(
        ("payload", "field"),
        [
            ({"col": 0}, "row"),
            ({"row": "0", "col": 0}, "row"),
            ({"row": 0.5, "col": 0}, "row"),
            ({"row": 0, "col": True}, "col"),
            ({"row": 0, "col": 0, "player": 3}, "player"),
            ({"row": 0, "col": 0, "player": "1"}, "player"),
            ({"row": 0, "col": 0, "player": True}, "player"),
        ],
    )
    def test_malformed_move_is_a_validation_error(
        self, client: TestClient, payload: dict[str, Any], field: str
    ) -> None:
        game_id, first, _ = create(client)
        response = client.post(f"/v1/games/{game_id}/moves", json=payload, headers=auth(first))
        assert_validation_error(response, "body", field)
        self.assert_unchanged(client, game_id, 0)


@pytest.mark.parametrize("n", [0, -3, 1_000_001, "3", 3.5, True, None])
def test_create_with_bad_n_is_a_validation_error(client: TestClient, n: object) -> None:
    assert_validation_error(client.post("/v1/games", json={"n": n}), "body", "n")


def test_gomoku_is_tictactoe_with_k(client: TestClient) -> None:
    created = client.post("/v1/games", json={"game": "tictactoe", "n": 15, "k": 5})
    assert created.status_code == 201, created.text
    state = created.json()
    assert (state["game"], state["n"], state["k"]) == ("tictactoe", 15, 5)
    game_id, tokens = state["id"], state["tokens"]
    for i in range(4):  # X on row 7, O on row 0, four each
        move(client, game_id, tokens["1"], 7, 3 + i)
        move(client, game_id, tokens["2"], 0, 2 * i)
    won = move(client, game_id, tokens["1"], 7, 7)
    assert won.json()["winner"] == 1
    assert (won.json()["state"]["status"], won.json()["state"]["reason"]) == ("won", "line")
    board = client.get(f"/v1/games/{game_id}/board").json()
    assert board["rows"][7] == "...XXXXX......."


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"game": "tictactoe", "n": 3, "k": 4}, ("body", "k")),  # k over n
        ({"game": "tictactoe", "n": 3, "k": 0}, ("body", "k")),
        ({"game": "tictactoe", "n": 3, "k": True}, ("body", "k")),
        ({"game": "checkers", "n": 8}, ("body", "game")),
        ({"game": "tictactoe"}, ("body", "n")),
    ],
)
def test_create_refuses_bad_kinds_and_k(
    client: TestClient, body: dict[str, object], where: tuple[str, ...]
) -> None:
    assert_validation_error(client.post("/v1/games", json=body), *where)


def test_max_n_comes_from_settings() -> None:
    with TestClient(create_app(Settings(max_n=50))) as client:
        assert client.post("/v1/games", json={"n": 50}).status_code == 201
        assert_validation_error(client.post("/v1/games", json={"n": 51}), "body", "n")


def test_capacity_exhausted_is_503_with_retry_after(store_url: str) -> None:
    settings = app_settings(
        max_games=2, store_url=store_url, client_share=1, unstarted_games_share=1
    )  # both places for games nobody has moved in (tests/api/test_crowds.py: half of them)
    with TestClient(create_app(settings)) as client:
        create(client)
        create(client)
        response = client.post("/v1/games", json={"n": 3})
    assert_problem(response, 503, "capacity_exhausted")
    assert int(response.headers["retry-after"]) >= 1


def test_one_address_holds_at_most_its_share_of_the_games() -> None:
    with TestClient(create_app(Settings(max_games=4, client_share=0.5))) as client:
        create(client)
        create(client)
        refused = assert_problem(client.post("/v1/games", json={"n": 3}), 503, "capacity_exhausted")
        assert "one client" in refused["detail"]
        with TestClient(client.app, client=("192.0.2.8", 50000)) as other:
            assert other.post("/v1/games", json={"n": 3}).status_code == 201


def test_idle_games_expire_on_the_injected_clock() -> None:
    now = [0.0]
    store = MemoryGameStore(REGISTRY, max_games=10, idle_seconds=100, clock=lambda: now[0])
    with TestClient(create_app(Settings(), store=store)) as client:
        game_id, first, _ = create(client)
        now[0] = 99.0
        assert move(client, game_id, first, 0, 0).status_code == 201  # touched at 99
        now[0] = 198.0
        assert client.get(f"/v1/games/{game_id}").status_code == 200
        now[0] = 199.0
        assert_problem(client.get(f"/v1/games/{game_id}"), 404, "game_not_found")


class TestPolling:
    def test_etag_and_304(self, client: TestClient) -> None:
        game_id, first, _ = create(client)
        response = client.get(f"/v1/games/{game_id}")
        tag = response.headers["etag"]
        assert game_id in tag
        for header in [tag, f"W/{tag}", f'"other", {tag}', "*"]:
            unchanged = client.get(f"/v1/games/{game_id}", headers={"If-None-Match": header})
            assert unchanged.status_code == 304
            assert unchanged.content == b""
            assert unchanged.headers["etag"] == tag
        move(client, game_id, first, 0, 0)
        changed = client.get(f"/v1/games/{game_id}", headers={"If-None-Match": tag})
        assert changed.status_code == 200
        assert changed.headers["etag"] != tag
        assert changed.json()["version"] == 1

    def test_moves_since_returns_only_newer_moves_in_order(self, client: TestClient) -> None:
        game_id, first, second = create(client, 5)
        cells = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 0)]
        for i, (r, c) in enumerate(cells):
            move(client, game_id, (first, second)[i % 2], r, c)
        everything = client.get(f"/v1/games/{game_id}/moves").json()
        assert everything["version"] == 5
        assert [(m["seq"], m["row"], m["col"], m["player"]) for m in everything["moves"]] == [
            (i + 1, r, c, 1 + i % 2) for i, (r, c) in enumerate(cells)
        ]
        page = client.get(f"/v1/games/{game_id}/moves", params={"since": 2, "limit": 2}).json()
        assert [m["seq"] for m in page["moves"]] == [3, 4]
        assert client.get(f"/v1/games/{game_id}/moves", params={"since": 5}).json() == {
            "moves": [],
            "version": 5,
        }
        single = client.get(f"/v1/games/{game_id}/moves/3").json()
        assert timeless(single) == {"seq": 3, "row": 2, "col": 2, "square": "c3", "player": 1}
        assert_problem(client.get(f"/v1/games/{game_id}/moves/6"), 404, "move_not_found")
        assert_problem(client.get(f"/v1/games/{game_id}/moves/0"), 404, "move_not_found")

    @pytest.mark.parametrize(
        ("params", "field"),
        [
            ({"since": -1}, "since"),
            ({"limit": 0}, "limit"),
            ({"limit": 10_001}, "limit"),
            ({"since": "x"}, "since"),
            ({"limit": "1e3"}, "limit"),
        ],
    )
    def test_bad_query_values_are_validation_errors(
        self, client: TestClient, params: dict[str, Any], field: str
    ) -> None:
        game_id, _, _ = create(client)
        response = client.get(f"/v1/games/{game_id}/moves", params=params)
        assert_validation_error(response, "query", field)

    def test_non_numeric_seq_is_a_validation_error(self, client: TestClient) -> None:
        game_id, _, _ = create(client)
        assert_validation_error(client.get(f"/v1/games/{game_id}/moves/abc"), "path", "seq")


def test_board_up_to_100_and_refused_above(client: TestClient) -> None:
    game_id, first, _ = create(client, 100)
    move(client, game_id, first, 99, 0)
    board = client.get(f"/v1/games/{game_id}/board").json()
    assert board["n"] == 100
    assert board["rows"][99] == "X" + "." * 99
    big_id, _, _ = create(client, 101)
    assert_problem(client.get(f"/v1/games/{big_id}/board"), 422, "board_too_large")


def test_delete_with_either_token_then_404(client: TestClient) -> None:
    game_id, first, second = create(client)
    missing = client.delete(f"/v1/games/{game_id}")
    assert_problem(missing, 401, "unauthorized")
    assert missing.headers["www-authenticate"] == "Bearer"
    assert_problem(client.delete(f"/v1/games/{game_id}", headers=auth("x")), 401, "unauthorized")
    response = client.delete(f"/v1/games/{game_id}", headers=auth(second))
    assert response.status_code == 204
    assert response.content == b""
    assert_problem(client.get(f"/v1/games/{game_id}"), 404, "game_not_found")
    assert_problem(move(client, game_id, first, 0, 0), 404, "game_not_found")
    other_id, other_first, _ = create(client)
    assert client.delete(f"/v1/games/{other_id}", headers=auth(other_first)).status_code == 204


@pytest.mark.anyio
async def test_concurrent_clients_never_lose_or_double_apply_a_move(store_url: str) -> None:
    # 144 requests at once queue for the networked store's 50 connections: on a busy machine
    # (the suite's other workers) one may wait longer than the default second, and be answered
    # store_unavailable. What is checked here is what the answers are, not how fast.
    app = create_app(app_settings(store_url=store_url, store_timeout_seconds=30))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        created = (await client.post("/v1/games", json={"n": 6})).json()
        game_id, tokens = created["id"], created["tokens"]
        rng = random.Random(5)
        requests = []
        for player in ("1", "2"):
            for r in range(6):
                for c in range(6):
                    for _ in range(2):  # every move sent twice, as a retrying client would
                        requests.append((tokens[player], r, c))
        rng.shuffle(requests)

        async def send(token: str, r: int, c: int) -> httpx.Response:
            return await client.post(
                f"/v1/games/{game_id}/moves", json={"row": r, "col": c}, headers=auth(token)
            )

        responses = await asyncio.gather(*(send(*request) for request in requests))
        listed = (await client.get(f"/v1/games/{game_id}/moves")).json()
        state = (await client.get(f"/v1/games/{game_id}")).json()

    accepted = sorted(
        (r.json()["move"] for r in responses if r.status_code == 201), key=lambda m: m["seq"]
    )
    refused = {r.json()["code"] for r in responses if r.status_code != 201}
    assert refused <= {"not_your_turn", "cell_occupied", "game_over"}
    assert accepted == listed["moves"]
    assert [m["seq"] for m in accepted] == list(range(1, len(accepted) + 1))
    assert [m["player"] for m in accepted] == [1 + i % 2 for i in range(len(accepted))]
    assert len({(m["row"], m["col"]) for m in accepted}) == len(accepted)
    assert state["version"] == listed["version"] == len(accepted)


class TestRetrySafeMoves:
    def test_retry_with_the_same_key_gets_the_first_answer(self, client: TestClient) -> None:
        game_id, first, second = create(client)
        headers = {**auth(first), "Idempotency-Key": "move-1"}
        body = {"row": 1, "col": 1}
        original = client.post(f"/v1/games/{game_id}/moves", json=body, headers=headers)
        move(client, game_id, second, 0, 0)
        retry = client.post(f"/v1/games/{game_id}/moves", json=body, headers=headers)
        assert (retry.status_code, retry.json()) == (201, original.json())
        assert retry.headers["location"] == original.headers["location"]
        assert retry.headers["idempotent-replayed"] == "true"
        assert "idempotent-replayed" not in original.headers
        assert client.get(f"/v1/games/{game_id}").json()["version"] == 2

    def test_same_key_other_body_is_422(self, client: TestClient) -> None:
        game_id, first, _ = create(client)
        headers = {**auth(first), "Idempotency-Key": "k"}
        client.post(f"/v1/games/{game_id}/moves", json={"row": 0, "col": 0}, headers=headers)
        other = client.post(f"/v1/games/{game_id}/moves", json={"row": 2, "col": 2},
                            headers=headers)  # fmt: skip
        assert_problem(other, 422, "idempotency_key_reused")
        assert client.get(f"/v1/games/{game_id}").json()["version"] == 1

    def test_retried_refusal_gets_the_same_refusal(self, client: TestClient) -> None:
        game_id, first, second = create(client)
        headers = {**auth(second), "Idempotency-Key": "early"}
        body = {"row": 0, "col": 0}
        refused = client.post(f"/v1/games/{game_id}/moves", json=body, headers=headers)
        move(client, game_id, first, 1, 1)
        again = client.post(f"/v1/games/{game_id}/moves", json=body, headers=headers)
        assert (again.status_code, again.json()) == (409, refused.json())
        assert again.headers["idempotent-replayed"] == "true"
        assert "idempotent-replayed" not in refused.headers

    @pytest.mark.parametrize("key", ["", "x" * 256, "with space", "tab\there"])
    def test_malformed_idempotency_key_is_a_validation_error(
        self, client: TestClient, key: str
    ) -> None:
        game_id, first, _ = create(client)
        response = client.post(f"/v1/games/{game_id}/moves", json={"row": 0, "col": 0},
                               headers={**auth(first), "Idempotency-Key": key})  # fmt: skip
        assert_validation_error(response, "header", "Idempotency-Key")
        assert client.get(f"/v1/games/{game_id}").json()["version"] == 0

    def test_if_match_with_the_current_etag_applies(self, client: TestClient) -> None:
        game_id, first, second = create(client)
        tag = client.get(f"/v1/games/{game_id}").headers["etag"]
        ok = client.post(f"/v1/games/{game_id}/moves", json={"row": 0, "col": 0},
                         headers={**auth(first), "If-Match": tag})  # fmt: skip
        assert ok.status_code == 201
        stale = client.post(f"/v1/games/{game_id}/moves", json={"row": 1, "col": 1},
                            headers={**auth(second), "If-Match": tag})  # fmt: skip
        body = assert_problem(stale, 412, "precondition_failed")
        assert body["version"] == 1
        assert client.get(f"/v1/games/{game_id}").json()["version"] == 1
        fresh = client.post(f"/v1/games/{game_id}/moves", json={"row": 1, "col": 1},
                            headers={**auth(second), "If-Match": ok.headers["etag"]})  # fmt: skip
        assert fresh.status_code == 201

    @pytest.mark.parametrize("header", ['W/"{id}.0"', '"other.0"', "garbage", '"{id}.x"'])
    def test_if_match_that_names_no_version_of_this_game_is_412(
        self, client: TestClient, header: str
    ) -> None:
        game_id, first, _ = create(client)
        headers = {**auth(first), "If-Match": header.format(id=game_id)}
        response = client.post(f"/v1/games/{game_id}/moves", json={"row": 0, "col": 0},
                               headers=headers)  # fmt: skip
        assert_problem(response, 412, "precondition_failed")

    def test_if_match_star_always_matches(self, client: TestClient) -> None:
        game_id, first, _ = create(client)
        response = client.post(f"/v1/games/{game_id}/moves", json={"row": 0, "col": 0},
                               headers={**auth(first), "If-Match": "*"})  # fmt: skip
        assert response.status_code == 201


def parse_events(text: str) -> list[dict[str, str]]:
    """Server-Sent Events as dicts of their fields (comments dropped; a block with no data, such
    as the stream's opening ``retry:``, is no event)."""
    events = []
    for block in text.strip().split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        if "data" in fields:
            events.append(fields)
    return events


class TestEvents:
    def finished_game(self, client: TestClient) -> tuple[str, list[dict[str, Any]]]:
        game_id, first, second = create(client)
        answers = [
            move(client, game_id, (first, second)[i % 2], r, c).json()
            for i, (r, c) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
        ]
        return game_id, answers

    def test_stream_of_a_finished_game_is_every_move_then_end(self, client: TestClient) -> None:
        game_id, answers = self.finished_game(client)
        response = client.get(f"/v1/games/{game_id}/events")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = parse_events(response.text)
        assert [e["event"] for e in events] == ["move"] * 5 + ["end"]
        assert [e["id"] for e in events[:5]] == ["1", "2", "3", "4", "5"]
        assert [json.loads(e["data"]) for e in events[:5]] == answers
        assert json.loads(events[-1]["data"])["status"] == "won"

    def test_events_match_the_documented_event_schema(self, client: TestClient) -> None:
        spec = client.get("/openapi.json").json()
        response = spec["paths"]["/v1/games/{game_id}/events"]["get"]["responses"]["200"]
        media = response["content"]["text/event-stream"]
        assert "schema" not in media  # no tool takes it for one event, or parses the stream
        components = {"components": spec["components"]}  # for the schemas' $refs
        event_valid = jsonschema_rs.Draft202012Validator(
            {**media["x-sse-events"], **components}
        ).is_valid
        union = spec["components"]["schemas"]["GameEvent"]
        assert set(union["discriminator"]["mapping"]) == {
            "join",
            "move",
            "offer",
            "takeback",
            "clock",
            "abort",
            "rematch",
            "end",
            "error",
        }
        game_id, _ = self.finished_game(client)
        events = parse_events(client.get(f"/v1/games/{game_id}/events").text)
        for event in events:
            read = {**event, "data": json.loads(event["data"])}  # as a client reads it
            assert event_valid(read), event
            wrong = {**read, "event": "offer" if event["event"] == "move" else "move"}
            assert not event_valid(wrong), wrong
        assert [e["event"] for e in events] == ["move"] * 5 + ["end"]

    def test_resume_after_last_event_id_or_since(self, client: TestClient) -> None:
        game_id, answers = self.finished_game(client)
        by_header = client.get(f"/v1/games/{game_id}/events", headers={"Last-Event-ID": "3"})
        by_query = client.get(f"/v1/games/{game_id}/events", params={"since": 3})
        for response in (by_header, by_query):
            events = parse_events(response.text)
            assert [e.get("id") for e in events] == ["4", "5", None]
            assert json.loads(events[0]["data"]) == answers[3]
        both = client.get(
            f"/v1/games/{game_id}/events", headers={"Last-Event-ID": "4"}, params={"since": 1}
        )
        assert [e.get("id") for e in parse_events(both.text)] == ["5", None]

    def test_unknown_game_and_bad_resume_points(self, client: TestClient) -> None:
        assert_problem(client.get("/v1/games/nope/events"), 404, "game_not_found")
        game_id, _ = self.finished_game(client)
        bad = client.get(f"/v1/games/{game_id}/events", params={"since": "-1"})
        assert_validation_error(bad, "query", "since")
        bad = client.get(f"/v1/games/{game_id}/events", headers={"Last-Event-ID": "x"})
        assert_validation_error(bad, "header", "Last-Event-ID")
        bad = client.get(  # a bad `since` is refused even when Last-Event-ID wins over it
            f"/v1/games/{game_id}/events", headers={"Last-Event-ID": "2"}, params={"since": "1.5"}
        )
        assert_validation_error(bad, "query", "since")


def test_405_lists_every_method_of_the_path(client: TestClient) -> None:
    response = client.request("PUT", "/v1/games/some-id")
    assert_problem(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "DELETE, GET"


def test_a_game_ends_in_a_draw_at_the_configured_move_limit(store_url: str) -> None:
    settings = app_settings(store_url=store_url, max_moves_per_game=2)
    with TestClient(create_app(settings)) as client:
        game_id, first, second = create(client)
        move(client, game_id, first, 0, 0)
        last = move(client, game_id, second, 1, 1).json()["state"]
        assert (last["status"], last["winner"], last["reason"], last["next_player"]) == (
            "draw", 0, "move_limit", None,
        )  # fmt: skip
        assert client.get(f"/v1/games/{game_id}").json() == last
        assert_problem(move(client, game_id, first, 2, 2), 409, "game_over")


def test_event_streams_are_bounded_per_game_and_given_back() -> None:
    settings = Settings(max_streams=2, max_streams_per_game=1)
    with TestClient(create_app(settings)) as client:
        game_id, _, _ = create(client)
        other, _, _ = create(client)
        third, _, _ = create(client)
        with client.stream("GET", f"/v1/games/{game_id}/events") as first:
            assert first.status_code == 200
            refused = client.get(f"/v1/games/{game_id}/events")
            assert_problem(refused, 503, "too_many_streams")
            assert int(refused.headers["retry-after"]) > 0
            with client.stream("GET", f"/v1/games/{other}/events") as second:
                assert second.status_code == 200
                assert_problem(client.get(f"/v1/games/{third}/events"), 503, "too_many_streams")
        wait_for(lambda: client.app.state.streams.open == 0, "streams given back")
        with client.stream("GET", f"/v1/games/{third}/events") as again:
            assert again.status_code == 200


def test_event_streams_are_bounded_per_client_address() -> None:
    settings = Settings(max_streams=10, max_streams_per_game=10, max_streams_per_client=1)
    with TestClient(create_app(settings)) as client:
        game_id, _, _ = create(client)
        other, _, _ = create(client)
        with client.stream("GET", f"/v1/games/{game_id}/events") as first:
            assert first.status_code == 200
            refused = client.get(f"/v1/games/{other}/events")  # another game, the same address
            assert_problem(refused, 503, "too_many_streams")
            assert "client address" in refused.json()["detail"]
        wait_for(lambda: client.app.state.streams.open == 0, "streams given back")
        with client.stream("GET", f"/v1/games/{other}/events") as again:
            assert again.status_code == 200


def test_a_stream_of_no_game_takes_no_place_from_anyone() -> None:
    settings = Settings(max_streams=2, max_streams_per_game=2, max_streams_per_client=2)
    with TestClient(create_app(settings)) as greedy:
        game_id, _, _ = create(greedy)
        newcomer = TestClient(greedy.app, client=("192.0.2.7", 50000))
        events = f"/v1/games/{game_id}/events"
        with greedy.stream("GET", events) as first, greedy.stream("GET", events) as second:
            assert (first.status_code, second.status_code) == (200, 200)
            missing = newcomer.get("/v1/games/nothing-here/events")
            assert_problem(missing, 404, "game_not_found")
            assert greedy.app.state.streams.open == 2  # neither stream gave its place


def test_a_stream_ends_with_an_error_event_when_the_store_stops_answering() -> None:
    class FailingStore(MemoryGameStore):
        async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
            raise StoreUnavailable()

    with TestClient(create_app(Settings(), store=FailingStore(REGISTRY, 10, 100))) as client:
        game_id, first, _ = create(client)
        move(client, game_id, first, 0, 0)
        events = parse_events(client.get(f"/v1/games/{game_id}/events").text)
    assert [event["event"] for event in events] == ["move", "error"]
    problem = json.loads(events[-1]["data"])
    assert (problem["status"], problem["code"]) == (503, "store_unavailable")
