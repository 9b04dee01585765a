"""Clocks in real time, against real service processes (contract: "Ending a game").

* A stream of a game whose clock runs gets its ``end`` event when the flag falls, with no
  request in between, on both stores: the stream waits for the deadline itself (it would
  otherwise only re-read after its 15 s wait).
* Two service processes on one Redis whose own clocks disagree by a minute: the store's clock
  decides, so both see the same game — in progress before the deadline, lost on time after.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.servers import redis_server, uvicorn_server

SKEW_SECONDS = 60.0
# Installed in one process (PYTHONPATH): its wall clock runs ADJUDICATOR_TEST_SKEW seconds off.
SKEWED_CLOCK = """
import os
import time

_skew = float(os.environ["ADJUDICATOR_TEST_SKEW"])
_time, _time_ns = time.time, time.time_ns
time.time = lambda: _time() + _skew
time.time_ns = lambda: _time_ns() + int(_skew * 1e9)
"""


def create(url: str, clock: dict[str, int]) -> dict[str, Any]:
    answer = httpx.post(f"{url}/v1/games", json={"n": 3, "clock": clock})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def move(url: str, game: dict[str, Any], player: int, row: int, col: int) -> dict[str, Any]:
    answer = httpx.post(
        f"{url}/v1/games/{game['id']}/moves", json={"row": row, "col": col},
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}"},
    )  # fmt: skip
    assert answer.status_code == 201, answer.text
    moved: dict[str, Any] = answer.json()
    return moved


def end_event(url: str, game_id: str, since: int) -> tuple[dict[str, Any], float]:
    """Read the game's stream from ``since`` until its ``end`` event: its state, and when it
    came (this machine's clock). The read gives up after 10 s, well before the stream's own
    15 s wait would have found the flag fallen."""
    timeout = httpx.Timeout(10.0)
    with httpx.stream(
        "GET", f"{url}/v1/games/{game_id}/events", params={"since": since}, timeout=timeout
    ) as response:
        assert response.status_code == 200
        event = ""
        for line in response.iter_lines():
            if line.startswith("event:"):
                event = line.partition(":")[2].strip()
            elif line.startswith("data:") and event == "end":
                return json.loads(line.partition(":")[2]), time.time()
    raise AssertionError("the stream ended without an end event")


@pytest.fixture(params=["memory", "redis"])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "memory":
        with uvicorn_server({"ADJUDICATOR_STORE_URL": "memory://"}) as url:
            yield url
        return
    with (
        redis_server(tmp_path) as redis_url,
        uvicorn_server({"ADJUDICATOR_STORE_URL": redis_url}) as url,
    ):
        yield url


def test_a_stream_gets_the_end_when_the_flag_falls_with_no_request_between(
    service: str,
) -> None:
    game = create(service, {"initial_seconds": 1, "increment_seconds": 0})
    move(service, game, 1, 0, 0)
    started = move(service, game, 2, 1, 1)["state"]  # player 1's clock runs from here
    deadline = datetime.fromisoformat(started["clock"]["deadline"]).timestamp()

    ended, arrived = end_event(service, game["id"], since=started["version"])

    assert (ended["status"], ended["winner"], ended["reason"]) == ("won", 2, "timeout")
    assert ended["version"] == started["version"] + 1
    assert ended["clock"]["remaining_ms"] == {"1": 0, "2": 1000}
    print(f"end event {1000 * (arrived - deadline):.0f} ms after the deadline")


@pytest.fixture
def skewed_pythonpath(tmp_path: Path) -> str:
    directory = tmp_path / "skewed"
    directory.mkdir()
    (directory / "sitecustomize.py").write_text(SKEWED_CLOCK)
    return str(directory)


@pytest.mark.parametrize("skew", [SKEW_SECONDS, -SKEW_SECONDS], ids=["ahead", "behind"])
def test_processes_whose_clocks_disagree_agree_on_the_flag(
    tmp_path: Path, skewed_pythonpath: str, skew: float
) -> None:
    skewed = {"PYTHONPATH": os.pathsep.join(filter(None, [skewed_pythonpath,
                                                          os.environ.get("PYTHONPATH")])),
              "ADJUDICATOR_TEST_SKEW": str(skew)}  # fmt: skip
    with redis_server(tmp_path) as redis_url:
        store = {"ADJUDICATOR_STORE_URL": redis_url}
        with uvicorn_server(store) as honest, uvicorn_server({**store, **skewed}) as off:
            dates = [
                parsedate_to_datetime(httpx.get(f"{url}/healthz").headers["date"]).timestamp()
                for url in (honest, off)
            ]
            assert abs(dates[1] - dates[0] - skew) < SKEW_SECONDS / 2  # the skew is in effect
            game = create(honest, {"initial_seconds": 2, "increment_seconds": 0})
            move(off, game, 1, 0, 0)
            started = move(honest, game, 2, 1, 1)["state"]
            # A minute ahead, a process deciding by its own clock would see the flag fallen
            # (and refuse this move); a minute behind, it would let moves in after the end.
            in_time = move(off, game, 1, 0, 1)["state"]
            assert (in_time["status"], in_time["clock"]["running"]) == ("in_progress", 2)
            assert in_time["version"] == started["version"] + 1
            views = [httpx.get(f"{url}/v1/games/{game['id']}").json() for url in (honest, off)]
            assert views[0] == views[1]
            assert views[0]["status"] == "in_progress"

            ended, _ = end_event(off, game["id"], since=in_time["version"])

            assert (ended["status"], ended["winner"], ended["reason"]) == ("won", 1, "timeout")
            views = [httpx.get(f"{url}/v1/games/{game['id']}").json() for url in (honest, off)]
            assert views[0] == views[1] == ended
            late = httpx.post(
                f"{off}/v1/games/{game['id']}/moves", json={"row": 2, "col": 2},
                headers={"Authorization": f"Bearer {game['tokens']['2']}"},
            )  # fmt: skip
            assert late.status_code == 409
            assert late.json()["code"] == "game_over"


def test_an_offer_and_a_resignation_made_on_one_process_reach_a_stream_on_the_other(
    tmp_path: Path,
) -> None:
    with redis_server(tmp_path) as redis_url:
        store = {"ADJUDICATOR_STORE_URL": redis_url}
        with uvicorn_server(store) as first, uvicorn_server(store) as second:
            game = create(first, {"initial_seconds": 600, "increment_seconds": 0})
            seen: list[tuple[str, str]] = []
            with httpx.stream(
                "GET", f"{second}/v1/games/{game['id']}/events", timeout=httpx.Timeout(10.0)
            ) as response:
                lines = response.iter_lines()
                move(first, game, 1, 1, 1)
                event = ""
                for line in lines:
                    if line.startswith("event:"):
                        event = line.partition(":")[2].strip()
                    elif line.startswith("id:"):
                        seen.append((event, line.partition(":")[2].strip()))
                        if event == "move":
                            offer = httpx.post(
                                f"{first}/v1/games/{game['id']}/draw-offer",
                                headers={"Authorization": f"Bearer {game['tokens']['2']}"},
                            )
                            assert offer.status_code == 200
                        elif event == "offer":
                            resigned = httpx.post(
                                f"{first}/v1/games/{game['id']}/resign",
                                headers={"Authorization": f"Bearer {game['tokens']['1']}"},
                            )
                            assert resigned.status_code == 200
                        elif event == "end":
                            break
            assert seen == [("move", "1"), ("offer", "2"), ("end", "3")]
