"""Real processes on a real Redis Cluster: three primaries on loopback ports, two service
processes, games of every kind whose ids land on every primary, events crossing processes, a
primary killed and started again, and a failover to a replica.

Every game is played to what its clients saw accepted: afterwards its moves are exactly those,
in order (nothing lost, nothing applied twice), whatever node went down in between.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.retry import Retry

from adjudicator_client import Client, EndEvent, GameEvent, MoveEvent, Retries, StoreUnavailable
from app.stores.redis.cluster import ShardedListener, connect
from app.stores.redis.keys import ACCOUNTS, channel, game_keys
from tests.rules.reference import reversi_moves
from tests.servers import Cluster, ClusterNode, redis_cluster, uvicorn_server, wait_for

# One creation body per kind (and per engine: tic-tac-toe takes the O(1) script, Reversi the
# generic compare-and-set path).
KINDS = [
    {"n": 3},
    {"game": "tictactoe", "n": 6, "k": 4},
    {"game": "reversi", "height": 4, "width": 4},
]


@dataclass
class Game:
    id: str
    body: dict[str, Any]
    tokens: dict[str, str]
    accepted: list[tuple[int, int, int]] = field(default_factory=list)  # (row, col, player)
    over: bool = False


def create(api: Client, body: dict[str, Any]) -> Game:
    created = api.create_game(**body)
    return Game(created["id"], body, dict(created["tokens"]))


def games_on_every_primary(api: Client, cluster: Cluster, body: dict[str, Any]) -> list[Game]:
    """Games of one kind, created until every primary holds at least one of them."""
    games: list[Game] = []
    primaries = {node.port for node in cluster.nodes if cluster.is_primary(node)}
    seen: set[int] = set()
    while seen != primaries:
        assert len(games) < 100, "game ids do not spread over the slots"
        games.append(create(api, body))
        seen.add(cluster.primary_of(game_keys(games[-1].id).meta).port)
    return games


def next_move(api: Client, game: Game) -> tuple[int, int, int]:
    """The next move of a scripted game: the first legal cell of the player to move."""
    player = api.get_game(game.id)["next_player"]
    assert player is not None
    rows = api.get_board(game.id)["rows"]
    if game.body.get("game") == "reversi":
        row, col = reversi_moves(rows, "B" if player == 1 else "W")[0]
    else:
        row, col = next(
            (r, c) for r, line in enumerate(rows) for c, mark in enumerate(line) if mark == "."
        )
    return row, col, player


def play_one(mover: Client, game: Game) -> None:
    """One move of the game through ``mover``, which must be accepted."""
    row, col, player = next_move(mover, game)
    answer = mover.make_move(game.id, game.tokens[str(player)], row, col)
    game.accepted.append((row, col, player))
    game.over = answer["state"]["status"] != "in_progress"


def assert_holds_exactly(api: Client, game: Game) -> None:
    """The game's moves are the ones its clients saw accepted, in order, each once."""
    moves = api.list_moves(game.id, limit=1000)["moves"]
    assert [(m["row"], m["col"], m["player"]) for m in moves] == game.accepted, game.id
    assert [m["seq"] for m in moves] == list(range(1, len(game.accepted) + 1))


def subscribers(cluster: Cluster, game: Game) -> int:
    """Subscribers of the game's channel on the node that holds the game (sharded pub/sub)."""
    node = cluster.primary_of(game_keys(game.id).meta)
    name = channel(game.id)
    return int(
        dict(redis.Redis(port=node.port, decode_responses=True).pubsub_shardnumsub(name))[name]
    )


class Stream:
    """A reader of one game's events, in a thread (it stops after the game's end)."""

    def __init__(self, url: str, game: Game) -> None:
        self.events: list[GameEvent] = []
        self.thread = threading.Thread(target=self._read, args=(url, game.id), daemon=True)
        self.thread.start()

    def _read(self, url: str, game_id: str) -> None:
        with Client(url, timeout=60) as api:
            self.events.extend(api.game_events(game_id))


def ready(api: Client) -> bool:
    try:
        api.get_readiness()
    except StoreUnavailable:
        return False
    return True


def read_while(url: str, games: list[Game], until: Callable[[], bool]) -> list[int]:
    """The statuses of reads of ``games`` sent by four threads at once until ``until()``."""
    done = threading.Event()
    statuses: list[int] = []

    def reader() -> None:
        with httpx.Client(base_url=url) as client:
            while not done.is_set():
                for game in games:
                    statuses.append(client.get(f"/v1/games/{game.id}").status_code)

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        wait_for(until, "the condition")
    finally:
        done.set()
        for thread in threads:
            thread.join()
    return statuses


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with redis_cluster(tmp_path, persist=True) as started:
        yield started


@pytest.fixture
def services(cluster: Cluster) -> Iterator[tuple[str, str]]:
    """Two service processes on the cluster."""
    env = {"ADJUDICATOR_STORE_URL": cluster.url}
    with uvicorn_server(env) as a, uvicorn_server(env) as b:
        yield a, b


def test_two_processes_play_every_kind_on_every_primary_with_events_across(
    cluster: Cluster, services: tuple[str, str]
) -> None:
    with ExitStack() as stack:
        clients = [stack.enter_context(Client(url)) for url in services]
        games = [
            game for body in KINDS for game in games_on_every_primary(clients[0], cluster, body)
        ]
        # Each game is watched on process B while it is played through both.
        streams = {game.id: Stream(services[1], game) for game in games}
        # B listens on each game's own channel, on the node that holds the game.
        wait_for(lambda: all(subscribers(cluster, game) == 1 for game in games), "subscriptions")
        turn = 0
        while not all(game.over for game in games):
            for game in games:
                if not game.over:
                    play_one(clients[turn % 2], game)
                    turn += 1
        for game in games:
            streams[game.id].thread.join(timeout=30)
            events = streams[game.id].events
            moves = [event.move for event in events if isinstance(event, MoveEvent)]
            assert [(m["row"], m["col"], m["player"]) for m in moves] == game.accepted, game.id
            assert isinstance(events[-1], EndEvent)
            for client in clients:
                assert_holds_exactly(client, game)
        for node in cluster.nodes:  # no pattern subscription that every node must broadcast
            assert redis.Redis(port=node.port).pubsub_numpat() == 0
    # A channel is released a while after its last listener left.
    wait_for(lambda: all(subscribers(cluster, game) == 0 for game in games), "released channels")


def test_a_primary_killed_and_restarted(cluster: Cluster, services: tuple[str, str]) -> None:
    a, idle = services
    # One send a request: a 503 is answered at once, not waited out.
    with Client(a, retries=Retries(attempts=1)) as client, Client(idle) as watcher:
        games = games_on_every_primary(client, cluster, {"n": 5})
        for game in games:
            play_one(client, game)
        victim = cluster.primary_of(game_keys(games[0].id).meta)
        down = [g for g in games if cluster.primary_of(game_keys(g.id).meta) is victim]
        up = [g for g in games if g not in down]
        victim.stop()

        for game in down:  # its games answer 503 store_unavailable and change nothing
            row, col = game.accepted[-1][0], game.accepted[-1][1] + 1
            with pytest.raises(StoreUnavailable):
                client.make_move(game.id, game.tokens["2"], row, col)
            with pytest.raises(StoreUnavailable):
                client.get_game(game.id)
        for game in up:  # every other game keeps playing
            play_one(client, game)
        wait_for(lambda: not ready(watcher), "not ready while a node is down")

        victim.start()
        # While the node comes back (it refuses its games' commands for a while: CLUSTERDOWN),
        # the other games are read all along, in parallel, and always answered.
        answers = read_while(a, up, until=lambda: bool(client.get_game(down[0].id)))
        assert answers
        assert set(answers) == {200}, answers
        wait_for(lambda: ready(watcher), "ready after the node's return")
        for game in games:
            play_one(client, game)
            assert_holds_exactly(client, game)
            assert_holds_exactly(watcher, game)


def test_a_failover_to_a_replica(tmp_path: Path) -> None:
    with (
        redis_cluster(tmp_path, replicas=1) as cluster,
        uvicorn_server({"ADJUDICATOR_STORE_URL": cluster.url}) as url,
        Client(url, retries=Retries(attempts=1)) as client,
    ):
        games = games_on_every_primary(client, cluster, {"n": 5})
        for game in games:
            play_one(client, game)
        victim = cluster.primary_of(game_keys(games[0].id).meta)
        moved = [g for g in games if cluster.primary_of(game_keys(g.id).meta) is victim]
        cluster.wait_replicated()
        victim.stop()
        promoted: list[ClusterNode] = []

        def taken_over() -> bool:
            promoted[:] = [cluster.primary_of(game_keys(moved[0].id).meta)]
            return promoted[0] is not victim

        wait_for(taken_over, "a replica promoted")

        # 503 until the service has learned where the slot went
        wait_for(lambda: client.get_game(moved[0].id), "the game served by the promoted replica")
        for game in games:
            play_one(client, game)
            assert_holds_exactly(client, game)


def test_a_games_slot_moved_to_another_primary_mid_game(
    cluster: Cluster, services: tuple[str, str]
) -> None:
    """Resharding: the game's slot and keys migrate to another primary between two moves; the
    next moves are redirected (MOVED) and land there, nothing lost or doubled."""
    with Client(services[0]) as client:
        game = create(client, {"n": 4})
        play_one(client, game)
        meta = game_keys(game.id).meta
        source = cluster.primary_of(meta)
        target = next(n for n in cluster.nodes if n is not source and cluster.is_primary(n))
        slot = key_slot(meta.encode())
        ids = {n.port: redis.Redis(port=n.port).cluster("myid") for n in (source, target)}
        src, dst = redis.Redis(port=source.port), redis.Redis(port=target.port)
        dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", ids[source.port])
        src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", ids[target.port])
        keys = src.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100)
        src.execute_command("MIGRATE", "127.0.0.1", target.port, "", 0, 5000, "KEYS", *keys)
        for node in cluster.nodes:
            redis.Redis(port=node.port).execute_command(
                "CLUSTER", "SETSLOT", slot, "NODE", ids[target.port]
            )
        assert cluster.primary_of(meta) is target
        while not game.over:
            play_one(client, game)
        assert_holds_exactly(client, game)
        assert redis.Redis(port=target.port).exists(meta)


@pytest.mark.anyio
async def test_a_subscription_refused_by_a_node_that_is_down_is_made_at_its_return(
    tmp_path: Path,
) -> None:
    """A listener that could not subscribe while the game's node was down subscribes at its
    next wait once the node is back, and hears the game's changes again."""
    with redis_cluster(tmp_path) as cluster:
        client = connect(cluster.url, 5, 0.5)
        heard: list[str] = []
        listener = ShardedListener(client, heard.append, 0.5)
        try:
            await client.initialize()  # knows the slots: the refusal comes from the node itself
            victim = cluster.primary_of(channel("g"))
            victim.stop()
            await listener.hold("g")  # refused: logged, the wait falls back to its timeout
            listener.release("g")
            assert subscribers_of(victim, "g") is None
            victim.start()
            wait_for(lambda: cluster.serves(victim), "the node serving again")
            await listener.hold("g")
            assert subscribers_of(victim, "g") == 1
            redis.Redis(port=victim.port).spublish(channel("g"), "1")  # as a move's script does
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.01)
            assert heard == ["g"]
            listener.release("g")
        finally:
            await listener.close()
            await client.close()


def subscribers_of(node: ClusterNode, game_id: str) -> int | None:
    """Subscribers of the game's channel on ``node``; None while it is down."""
    if node.process is None:
        return None
    name = channel(game_id)
    found = redis.Redis(port=node.port, decode_responses=True).pubsub_shardnumsub(name)
    return int(dict(found)[name])


@dataclass
class Keyed:
    """One move sent under its Idempotency-Key until answered: what each 503 said of it
    (``may_have_been_applied``), and whether the answer was a replay (``Idempotent-Replayed``:
    an earlier send of it was applied, though answered 503)."""

    said: list[object] = field(default_factory=list)
    replayed: bool = False


def play_through_faults(
    url: str, stop: threading.Event, seen: list[int], games: list[Game], keyed: list[Keyed]
) -> None:
    """Play games of 5 × 5 tic-tac-toe, each move with an Idempotency-Key sent again after a 503
    (as the answer says to) until it is answered; every status seen is kept, and what was said
    of each move (``keyed``)."""
    with httpx.Client(base_url=url, timeout=10) as client:
        while not stop.is_set():
            created = client.post("/v1/games", json={"n": 5})
            seen.append(created.status_code)
            if created.status_code != 201:
                time.sleep(0.05)
                continue
            game = Game(created.json()["id"], {"n": 5}, created.json()["tokens"])
            games.append(game)
            for cell in range(8):  # no line of five in the first eight cells of two rows
                row, col, player = cell % 2, cell // 2, 1 + cell % 2
                headers = {"Authorization": f"Bearer {game.tokens[str(player)]}",
                           "Idempotency-Key": f"{game.id}-{cell}"}  # fmt: skip
                move = Keyed()
                keyed.append(move)
                for _ in range(100):
                    answer = client.post(
                        f"/v1/games/{game.id}/moves", json={"row": row, "col": col},
                        headers=headers,
                    )  # fmt: skip
                    seen.append(answer.status_code)
                    if answer.status_code != 503:
                        break
                    move.said.append(answer.json().get("may_have_been_applied"))
                    time.sleep(0.05)
                if answer.status_code != 201:
                    break
                move.replayed = answer.headers.get("idempotent-replayed") == "true"
                game.accepted.append((row, col, player))


def asleep(node: ClusterNode) -> None:
    """Wait until ``node`` answers nothing within 50 ms (``DEBUG SLEEP`` has begun): at most a
    second."""
    probe = redis.Redis(port=node.port, socket_timeout=0.05, retry=Retry(NoBackoff(), 0))
    deadline = time.monotonic() + 1
    try:
        while time.monotonic() < deadline:
            try:
                probe.ping()
            except redis.exceptions.TimeoutError:
                return
            time.sleep(0.005)
        raise AssertionError(f"node {node.port} never slept")
    finally:
        probe.close()


def moves_while_stalled(
    url: str, cluster: Cluster, node: ClusterNode, tries: int = 5
) -> list[Keyed]:
    """A keyed move in a game of ``node``'s, sent while the node stalls (``DEBUG SLEEP``, past
    the store's timeout), then again under its key once the node is back — in a new game each
    try, until one is answered 503 and applied all the same (its retry a replay): on a loaded
    machine the move may reach the node too late in its sleep to meet the timeout, or not at
    all before it (a 503 of a move that was not applied). At most ``tries`` tries; each try's
    move."""
    moves: list[Keyed] = []
    while len(moves) < tries and not any(move.replayed for move in moves):
        moves.append(_move_while_stalled(url, cluster, node))
    return moves


def _move_while_stalled(url: str, cluster: Cluster, node: ClusterNode) -> Keyed:
    with httpx.Client(base_url=url, timeout=10) as client:
        for _ in range(100):  # a game of the node's
            game = client.post("/v1/games", json={"n": 3}).json()
            if cluster.primary_of(game_keys(game["id"]).meta) is node:
                break
        assert cluster.primary_of(game_keys(game["id"]).meta) is node
        headers = {"Authorization": f"Bearer {game['tokens']['1']}", "Idempotency-Key": "stalled"}
        move = Keyed()
        sleeper = threading.Thread(
            target=redis.Redis(port=node.port).execute_command, args=("DEBUG", "SLEEP", "0.7")
        )
        sleeper.start()
        asleep(node)  # the move goes once the node sleeps (a thread started late: no fault)
        for _ in range(100):
            answer = client.post(f"/v1/games/{game['id']}/moves", json={"row": 1, "col": 1},
                                 headers=headers)  # fmt: skip
            sleeper.join()
            if answer.status_code != 503:
                break
            move.said.append(answer.json().get("may_have_been_applied"))
        assert answer.status_code == 201, answer.text
        move.replayed = answer.headers.get("idempotent-replayed") == "true"
        moves = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
        assert [m["seq"] for m in moves] == [1]  # applied once
        return move


def test_node_faults_under_load_are_503_never_500_and_lose_nothing(tmp_path: Path) -> None:
    # A short store timeout: a node that stalls longer makes 503s of moves that run all the
    # same when it wakes.
    with (
        redis_cluster(tmp_path, persist=True) as cluster,  # a primary restarted keeps its games
        uvicorn_server(
            {"ADJUDICATOR_STORE_URL": cluster.url, "ADJUDICATOR_STORE_TIMEOUT_SECONDS": "0.5"},
            tmp_path / "log",
        ) as url,
    ):
        stop, seen, games, keyed = threading.Event(), list[int](), list[Game](), list[Keyed]()
        players = [
            threading.Thread(target=play_through_faults, args=(url, stop, seen, games, keyed))
            for _ in range(4)
        ]
        for thread in players:
            thread.start()
        try:
            time.sleep(1)
            victim = cluster.nodes[0]
            raw = redis.Redis(port=victim.port)
            raw.execute_command("CLIENT", "PAUSE", "800", "ALL")  # commands wait, answers late
            time.sleep(1.5)
            # A node stalls past the store's timeout (not past the cluster's node timeout): the
            # moves sent to it meanwhile are answered 503, and run when it wakes. (Not the
            # accounting's node: creations would stall too, and no game be played on it.)
            accounting = cluster.primary_of(ACCOUNTS[0])
            stalled = next(node for node in cluster.nodes if node is not accounting)
            keyed.extend(moves_while_stalled(url, cluster, stalled))
            time.sleep(1)
            for node in cluster.nodes:  # every connection of the service cut
                redis.Redis(port=node.port).execute_command("CLIENT", "KILL", "TYPE", "normal")
            time.sleep(1)
            victim.stop()  # a primary killed (SIGKILL) under load, and back
            time.sleep(1.5)
            victim.start()
            wait_for(lambda: cluster.serves(victim), "the primary's return")
            time.sleep(1.5)
        finally:
            stop.set()
            for thread in players:
                thread.join()
        assert set(seen) <= {201, 503}, sorted(set(seen))
        assert seen.count(201) > 50
        # A move answered 503 that was applied all the same (its retry is a replay) was told
        # so: "may_have_been_applied": true, whatever the fault.
        applied = [move for move in keyed if move.replayed]
        assert applied, "no 503 of a move that was applied: the faults missed the moves"
        for move in applied:
            assert True in move.said, move
        assert all(said in (True, False) for move in keyed for said in move.said)
        with Client(url) as api:
            wait_for(lambda: ready(api), "ready again")
            for game in games:  # every move the clients saw accepted, each once, in order
                assert_holds_exactly(api, game)
    log = (tmp_path / "log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
