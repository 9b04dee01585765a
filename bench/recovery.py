"""A Redis Cluster primary's return: how soon an idle service process is ready again, and how
soon a move on one of the primary's games is accepted again.

    python -m bench.recovery [--rounds 5]

Starts a Redis Cluster of three primaries (append-only files written before each reply, so a
killed node comes back with its games) and one service process on loopback ports. Each round
creates a game on one primary, kills that primary, waits until the service answers not ready,
starts the primary again and measures, from the moment the node serves again (its cluster state
``ok``: Redis keeps a restarted primary from writing for its first two seconds, in case it was
failed over meanwhile), the time until ``GET /readyz`` of the idle service is 200 and until a
move on the game is accepted (each polled every 5 ms). Reports each round and the medians.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import redis

from app.stores.redis.keys import game_keys
from tests.servers import Cluster, redis_cluster, uvicorn_server, wait_for


def first_times(probes: dict[str, Callable[[], bool]]) -> dict[str, float]:
    """Seconds from now until each probe first holds (all polled in turn, every 5 ms)."""
    start, found = time.monotonic(), {}
    while len(found) < len(probes):
        for name, probe in probes.items():
            if name not in found and probe():
                found[name] = time.monotonic() - start
        time.sleep(0.005)
    return found


def one_round(client: httpx.Client, cluster: Cluster) -> tuple[float, dict[str, float]]:
    """Kill and restart the primary of a new game: seconds from the node's start until it
    serves, and from then until the service is ready and until a move is accepted."""
    created = client.post("/v1/games", json={"n": 3}).json()
    game, token = created["id"], created["tokens"]["1"]
    victim = cluster.primary_of(game_keys(game).meta)
    victim.stop()
    wait_for(lambda: client.get("/readyz").status_code == 503, "not ready")
    victim.start()  # returns once the node answers PING
    node = redis.Redis(port=victim.port, decode_responses=True)
    auth = {"Authorization": f"Bearer {token}"}
    times = first_times({
        "serves": lambda: node.cluster("info")["cluster_state"] == "ok",
        "ready": lambda: client.get("/readyz").status_code == 200,
        "moved": lambda: client.post(f"/v1/games/{game}/moves", json={"row": 0, "col": 0},
                                     headers=auth).status_code == 201,
    })  # fmt: skip
    serves = times.pop("serves")
    return serves, {name: at - serves for name, at in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ready, moved = [], []
    with (
        tempfile.TemporaryDirectory() as tmp,
        redis_cluster(Path(tmp), persist=True) as cluster,
        uvicorn_server({"ADJUDICATOR_STORE_URL": cluster.url}) as url,
        httpx.Client(base_url=url, timeout=5) as client,
    ):
        for round_ in range(args.rounds):
            serves, times = one_round(client, cluster)
            ready.append(times["ready"])
            moved.append(times["moved"])
            print(f"round {round_ + 1}: the node serves {serves * 1000:.0f} ms after its start; "
                  f"from then the idle service is ready after {ready[-1] * 1000:.0f} ms, a move "
                  f"is accepted after {moved[-1] * 1000:.0f} ms")  # fmt: skip
    print(f"\nmedian of {args.rounds}, from the moment the node serves: ready after "
          f"{statistics.median(ready) * 1000:.0f} ms, a move accepted after "
          f"{statistics.median(moved) * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
