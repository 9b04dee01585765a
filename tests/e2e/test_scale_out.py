"""Real processes: one redis-server, two service processes sharing it, one restarted mid-game.

Two clients play whole games, sending alternate moves to alternate processes and polling from
the other one; in the middle of one game process A is stopped and started again. Afterwards every
game holds exactly the moves its clients saw accepted, and every answer equals what the
in-memory store gives for the same games.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.servers import NO_CLIENT_LIMITS, free_port, redis_server, wait_for
from tests.timeless import timeless

Client = httpx.Client | TestClient


class Service:
    """One uvicorn process serving the app on a loopback port, with the given store."""

    def __init__(self, store_url: str) -> None:
        self.port = free_port()
        self.store_url = store_url
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "ADJUDICATOR_STORE_URL": self.store_url, **NO_CLIENT_LIMITS}
        command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
                   "--port", str(self.port), "--log-level", "warning",
                   "--timeout-graceful-shutdown", "3"]  # fmt: skip
        self.process = subprocess.Popen(command, env=env)
        wait_for(lambda: httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200, self.url)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=15)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


def scripts(count: int, seed: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Games as (n, cells in play order); play stops at the first win or a full board."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        n = rng.choice([1, 2, 3, 3, 4, 5, 7])
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        games.append((n, cells))
    return games


def play(
    clients: list[Client],
    n: int,
    cells: list[tuple[int, int]],
    before_move: Callable[[int], None] = lambda i: None,
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Play one game: move i through clients[i % 2], then poll it through the other one."""
    created = clients[0].post("/v1/games", json={"n": n})
    assert created.status_code == 201, created.text
    game, tokens = created.json()["id"], created.json()["tokens"]
    answers = []
    for i, (row, col) in enumerate(cells):
        before_move(i)
        mover, poller = clients[i % 2], clients[(i + 1) % 2]
        token = tokens["1" if i % 2 == 0 else "2"]
        response = mover.post(f"/v1/games/{game}/moves", json={"row": row, "col": col},
                              headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        assert response.status_code == 201, response.text
        answers.append(timeless({k: v for k, v in response.json().items() if k != "state"}))
        assert poller.get(f"/v1/games/{game}").json()["version"] == i + 1
        if response.json()["state"]["status"] != "in_progress":
            break
    state = timeless(clients[1].get(f"/v1/games/{game}").json())
    state.pop("id")
    return answers, state, timeless(clients[0].get(f"/v1/games/{game}/moves").json())


def test_two_processes_share_games_through_redis_and_survive_a_restart(tmp_path: Path) -> None:
    games = scripts(40, seed=9)
    middle = next(i for i, (n, _) in enumerate(games) if i >= len(games) // 2 and n >= 5)
    results = []
    with redis_server(tmp_path) as store_url:
        a, b = Service(store_url), Service(store_url)
        a.start()
        b.start()
        clients: list[Client] = [httpx.Client(base_url=a.url), httpx.Client(base_url=b.url)]

        def restart_a_halfway(i: int) -> None:
            if i == 4:  # after four moves of this game: A goes down and comes back
                a.restart()
                clients[0].close()
                clients[0] = httpx.Client(base_url=a.url)

        try:
            for index, (n, cells) in enumerate(games):
                hook = restart_a_halfway if index == middle else (lambda i: None)
                results.append(play(clients, n, cells, hook))
        finally:
            for client in clients:
                client.close()
            a.stop()
            b.stop()

    with TestClient(create_app(Settings(create_rate_per_minute=0))) as memory:
        for index, ((n, cells), got) in enumerate(zip(games, results, strict=True)):
            assert got == play([memory, memory], n, cells), f"game {index} (n = {n})"
    assert any(state["status"] == "won" for _, state, _ in results)
    assert any(state["status"] == "draw" for _, state, _ in results)


def test_a_move_on_one_process_reaches_a_stream_on_the_other(tmp_path: Path) -> None:
    with redis_server(tmp_path) as store_url:
        a, b = Service(store_url), Service(store_url)
        a.start()
        b.start()
        try:
            created = httpx.post(f"{a.url}/v1/games", json={"n": 3}).json()
            game, tokens = created["id"], created["tokens"]
            received: list[str] = []

            def listen() -> None:  # an EventSource-like reader on process B
                with httpx.stream("GET", f"{b.url}/v1/games/{game}/events", timeout=30) as s:
                    for line in s.iter_lines():
                        if line.startswith("event:"):
                            received.append(line.removeprefix("event:").strip())

            listener = threading.Thread(target=listen)
            listener.start()
            cells = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]
            for i, (row, col) in enumerate(cells):
                wait_for(lambda i=i: len(received) == i, "the previous move's event")  # type: ignore[misc]
                response = httpx.post(
                    f"{a.url}/v1/games/{game}/moves",
                    json={"row": row, "col": col},
                    headers={"Authorization": f"Bearer {tokens['1' if i % 2 == 0 else '2']}"},
                )
                assert response.status_code == 201
            listener.join(timeout=30)
            assert not listener.is_alive()
            assert received == ["move"] * 5 + ["end"]
        finally:
            a.stop()
            b.stop()
