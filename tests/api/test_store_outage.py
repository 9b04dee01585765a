"""When the game store cannot be reached: clean 503s, no hang, stateless endpoints unaffected."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.stores.redis.keys import game_keys
from tests.api.problems import assert_problem
from tests.servers import free_port, redis_cluster, redis_server, wait_for

GAME_CALLS = [
    ("POST", "/v1/games", {"n": 3}),
    ("GET", "/v1/games/abc", None),
    ("GET", "/v1/games/abc/moves", None),
    ("GET", "/v1/games/abc/moves/1", None),
    ("GET", "/v1/games/abc/board", None),
]


@pytest.fixture
def silent_peer() -> Iterator[int]:
    """A TCP listener on loopback that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    server.close()


def assert_store_unavailable(client: TestClient) -> None:
    for method, path, body in GAME_CALLS:
        assert_problem(client.request(method, path, json=body), 503, "store_unavailable")
    move = client.post("/v1/games/abc/moves", json={"row": 0, "col": 0},
                       headers={"Authorization": "Bearer t"})  # fmt: skip
    assert_problem(move, 503, "store_unavailable")
    assert_problem(client.get("/readyz"), 503, "store_unavailable")
    assert client.get("/healthz").status_code == 200
    validate = client.post("/v1/tictactoe/validate", json={"board": ["X"]})
    assert validate.status_code == 200


def test_refused_connections_are_503_store_unavailable() -> None:
    settings = Settings(store_url=f"redis://127.0.0.1:{free_port()}/0")
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        assert_store_unavailable(client)


def test_a_store_that_never_answers_times_out_into_503(silent_peer: int) -> None:
    settings = Settings(store_url=f"redis://127.0.0.1:{silent_peer}/0", store_timeout_seconds=0.2)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        started = time.monotonic()
        assert_problem(client.get("/v1/games/abc"), 503, "store_unavailable")
        elapsed = time.monotonic() - started
        assert_problem(client.get("/readyz"), 503, "store_unavailable")
    assert elapsed < 5  # bounded by the configured timeout, not a hang (generous margin)


def test_redis_restart_is_503_while_down_then_recovers(tmp_path: Path) -> None:
    port = free_port()
    with ExitStack() as running:
        url = running.enter_context(redis_server(tmp_path, port))
        app = create_app(Settings(store_url=url, store_timeout_seconds=0.5))
        with TestClient(app, raise_server_exceptions=False) as client:
            created = client.post("/v1/games", json={"n": 3}).json()
            auth = {"Authorization": f"Bearer {created['tokens']['1']}"}
            path = f"/v1/games/{created['id']}/moves"
            assert client.post(path, json={"row": 0, "col": 0}, headers=auth).status_code == 201

            running.close()  # Redis stops; the same app and its connection pool carry on
            assert_store_unavailable(client)

            with redis_server(tmp_path, port):  # back on the same port, empty (no persistence)
                assert client.get("/readyz").status_code == 200
                assert_problem(client.get(f"/v1/games/{created['id']}"), 404, "game_not_found")
                fresh = client.post("/v1/games", json={"n": 3}).json()  # scripts loaded again
                move = client.post(
                    f"/v1/games/{fresh['id']}/moves",
                    json={"row": 1, "col": 1},
                    headers={"Authorization": f"Bearer {fresh['tokens']['1']}"},
                )
                assert move.json()["state"]["version"] == 1


def test_ready_again_at_once_when_redis_returns(tmp_path: Path) -> None:
    # A process that served nothing while Redis was away holds pooled connections to the
    # Redis that went: the first probe after its return must not be spent on them.
    port = free_port()
    with ExitStack() as running:
        url = running.enter_context(redis_server(tmp_path, port))
        app = create_app(Settings(store_url=url, store_timeout_seconds=0.5))
        with TestClient(app, raise_server_exceptions=False) as client:
            assert client.get("/readyz").status_code == 200
            assert client.post("/v1/games", json={"n": 3}).status_code == 201
            running.close()
            with redis_server(tmp_path, port):
                assert client.get("/readyz").status_code == 200
                assert client.post("/v1/games", json={"n": 3}).status_code == 201


def move_in(
    client: TestClient, game: dict[str, Any], key: str, player: int = 1, cell: int = 4
) -> httpx2.Response:
    return client.post(
        f"/v1/games/{game['id']}/moves",
        json={"row": cell // 3, "col": cell % 3},
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}", "Idempotency-Key": key},
    )


def test_a_move_the_store_never_got_says_it_was_not_applied(tmp_path: Path) -> None:
    port = free_port()
    with ExitStack() as running:
        url = running.enter_context(redis_server(tmp_path, port))
        app = create_app(Settings(store_url=url, store_timeout_seconds=0.5))
        with TestClient(app, raise_server_exceptions=False) as client:
            game = client.post("/v1/games", json={"n": 3}).json()
            running.close()  # the process knows the game's tokens; the store is gone
            # A command on a connection made before is answered "may have been applied" (the
            # server may have run it, then gone); then no connection can be made at all.
            client.get(f"/v1/games/{game['id']}")
            problem = assert_problem(move_in(client, game, "k"), 503, "store_unavailable")
            assert problem["may_have_been_applied"] is False
            assert "was not applied" in problem["detail"]


def test_a_move_whose_game_could_not_be_read_says_it_was_not_applied(tmp_path: Path) -> None:
    port = free_port()
    with ExitStack() as running:
        url = running.enter_context(redis_server(tmp_path, port))
        settings = Settings(store_url=url, store_timeout_seconds=0.5)
        with TestClient(create_app(settings)) as creator:
            game = creator.post("/v1/games", json={"n": 3}).json()
        # Another process, which has never read the game: it must read its tokens first.
        with TestClient(create_app(settings), raise_server_exceptions=False) as client:
            running.close()
            for attempt in ("k", "k"):  # a command on an old connection, then none at all
                problem = assert_problem(move_in(client, game, attempt), 503, "store_unavailable")
                assert problem["may_have_been_applied"] is False
            read = assert_problem(client.get(f"/v1/games/{game['id']}"), 503, "store_unavailable")
            assert "may_have_been_applied" not in read  # a read applies nothing to be asked of


def test_a_move_whose_answer_was_lost_says_it_may_have_been_applied(redis_url: str) -> None:
    raw = redis.Redis.from_url(redis_url)
    raw.flushdb()
    app = create_app(Settings(store_url=redis_url, store_timeout_seconds=0.3))
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/v1/games", json={"n": 3}).json()
        assert move_in(client, game, "first", 1, 0).status_code == 201
        # The server sleeps (as a stalled Redis would): the move is sent, its answer comes
        # after the service stopped waiting for it, and it runs all the same.
        sleeper = threading.Thread(target=raw.execute_command, args=("DEBUG", "SLEEP", "1"))
        sleeper.start()
        time.sleep(0.1)
        answer = move_in(client, game, "lost", 2)
        sleeper.join()
        problem = assert_problem(answer, 503, "store_unavailable")
        assert problem["may_have_been_applied"] is True
        assert "same Idempotency-Key" in problem["detail"]
        wait_for(lambda: client.get(f"/v1/games/{game['id']}").json()["move_count"] == 2, "move")
        again = move_in(client, game, "lost", 2)  # the retry the answer asks for
        assert again.status_code == 201
        assert again.headers["idempotent-replayed"] == "true"
        assert again.json()["move"]["seq"] == 2


def test_on_a_cluster_a_move_whose_answer_was_lost_says_it_may_have_been_applied(
    tmp_path: Path,
) -> None:
    with redis_cluster(tmp_path) as cluster:
        app = create_app(Settings(store_url=cluster.url, store_timeout_seconds=0.3))
        with TestClient(app, raise_server_exceptions=False) as client:
            game = client.post("/v1/games", json={"n": 3}).json()
            assert move_in(client, game, "first", 1, 0).status_code == 201
            node = cluster.primary_of(game_keys(game["id"]).meta)
            raw = redis.Redis(port=node.port)
            # The game's node sleeps (less than the cluster's node timeout: no failover).
            sleeper = threading.Thread(target=raw.execute_command, args=("DEBUG", "SLEEP", "0.6"))
            sleeper.start()
            time.sleep(0.1)
            answer = move_in(client, game, "lost", 2)
            sleeper.join()
            problem = assert_problem(answer, 503, "store_unavailable")
            assert problem["may_have_been_applied"] is True
            moved = lambda: client.get(f"/v1/games/{game['id']}").json()["move_count"] == 2  # noqa: E731
            wait_for(moved, "the move")
            again = move_in(client, game, "lost", 2)  # the retry the answer asks for
            assert again.status_code == 201
            assert again.headers["idempotent-replayed"] == "true"
            assert again.json()["move"]["seq"] == 2


def test_a_store_that_refuses_writes_is_not_ready_and_applies_nothing(redis_url: str) -> None:
    raw = redis.Redis.from_url(redis_url)
    raw.flushdb()
    app = create_app(Settings(store_url=redis_url, store_timeout_seconds=0.5))
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/v1/games", json={"n": 3}).json()
        assert client.get("/readyz").status_code == 200
        raw.config_set("maxmemory", "1")  # every write refused: out of memory
        try:
            assert_problem(client.get("/readyz"), 503, "store_unavailable")
            problem = assert_problem(move_in(client, game, "k"), 503, "store_unavailable")
            assert problem["may_have_been_applied"] is False
        finally:
            raw.config_set("maxmemory", "0")
        assert client.get("/readyz").status_code == 200
        assert client.get(f"/v1/games/{game['id']}").json()["move_count"] == 0
        raw.client_pause(1500, all=False)  # writes wait (CLIENT PAUSE WRITE): not ready
        assert_problem(client.get("/readyz"), 503, "store_unavailable")
        raw.client_unpause()
