"""Capacity a crowd of addresses cannot take (docs/operations.md, "Fair shares"): games nobody
has moved in hold a smaller pool than the store's, from which a full pool makes room for a
newcomer, so that 500 addresses cannot stop a client that plays from creating a game, on every
store; and every per-client share and limit is kept for the client's network too (an IPv4 /24,
an IPv6 /48), so that the addresses of one network are one bigger client, not many."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.api.test_forwarded_client import LIMITS, Ask
from tests.conftest import app_settings
from tests.fakes import FakeCpu
from tests.servers import wait_for

PLAYER = "127.0.0.1"
# The crowd: 400 addresses of four /24s, and the /64s of 100 customers of one IPv6 /48.
CROWD = [f"127.1.{i // 100}.{1 + i % 100}" for i in range(400)] + [
    f"2001:db8:1:{i:x}::1" for i in range(100)
]


def peer(base: TestClient, host: str) -> TestClient:
    """A client from the address ``host`` of ``base``'s app, on its event loop (a networked
    store's connections belong to it)."""
    client = TestClient(base.app, client=(host, 40000), raise_server_exceptions=False)
    client.portal = base.portal
    return client


def created(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/v1/games", json={"n": 3, **body})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def moved(client: TestClient, game: dict[str, Any], turn: int) -> None:
    answer = client.post(
        f"/v1/games/{game['id']}/moves", json={"row": turn // 3, "col": turn % 3},
        headers={"Authorization": f"Bearer {game['tokens'][str(1 + turn % 2)]}"},
    )  # fmt: skip
    assert answer.status_code == 201, answer.text


@pytest.fixture
def service(store_url: str) -> Iterator[TestClient]:
    """The service on each store, of 100 games (50 for games nobody has moved in), with the
    default shares (a client ten games, a network forty) and creation rates (a client 20 at
    once, a network 80)."""
    settings = app_settings(store_url=store_url, max_games=100)
    with TestClient(create_app(settings), client=(PLAYER, 40000)) as client:
        yield client


def test_500_addresses_cannot_stop_a_client_that_plays_from_creating_a_game(
    service: TestClient,
) -> None:
    playing = created(service)
    moved(service, playing, 0)
    answers: Counter[str] = Counter()
    for host in CROWD:  # each address creates games at once, twice over
        attacker = peer(service, host)
        for _ in range(2):
            answer = attacker.post("/v1/games", json={"n": 3})
            answers[f"{answer.status_code} {answer.json().get('code', '')}".strip()] += 1
    assert set(answers) <= {"201", "429 rate_limited", "503 capacity_exhausted"}, answers
    assert answers["201"] > 50  # the pool of games nobody moved in was full, and turned over
    assert answers["429 rate_limited"] > 0  # the networks' creation rate held
    moved(service, playing, 1)  # a started game plays on
    mine = created(service)  # and its client creates another, and plays it
    moved(service, mine, 0)
    assert created(service)["id"]


def test_a_crowd_in_many_networks_turns_the_pool_over_oldest_first(
    service: TestClient,
) -> None:
    # One game each from 60 networks: more holders than the pool's 50 places, each holding one.
    hosts = [f"10.{i}.0.1" for i in range(60)]
    first = [created(peer(service, host)) for host in hosts[:50]]
    for host in hosts[50:]:
        created(peer(service, host))  # each takes the place of the oldest
    for game in first[:10]:
        assert_problem(service.get(f"/v1/games/{game['id']}"), 404, "game_not_found")
    assert service.get(f"/v1/games/{first[10]['id']}").status_code == 200
    mine = created(service)  # nobody is refused while the pool holds one nobody moved in
    moved(service, mine, 0)


NETWORKS = {
    # three clients of one network, and one of another
    "IPv4 /24": (["192.0.2.1", "192.0.2.2", "192.0.2.3"], "198.51.100.1"),
    "IPv6 /48": (["2001:db8:1:1::1", "2001:db8:1:2::1", "2001:db8:1:3::1"], "2001:db8:2:1::1"),
}
# Every limit but the CPU time of a batch (its slices are charged apart: test_rate_limit.py).
NETWORK_LIMITS = [limit for limit in LIMITS if limit != "batch items"]


@pytest.mark.parametrize("network", NETWORKS)
@pytest.mark.parametrize("limit", NETWORK_LIMITS)
def test_every_per_client_limit_is_kept_for_the_network_too(limit: str, network: str) -> None:
    settings, ask, first, refused = LIMITS[limit]
    # A network holds two clients' worth: two of its clients reach it, a third is refused.
    app = create_app(Settings(network_factor=2, **settings))
    if "client_cpu_ms_per_minute" in settings:
        # A request's work (one stretch of 0.6 s: its body parsed and answered at once) spends
        # more than a client's 0.5 s, and two requests' more than a network's 1 s.
        app.state.work_budget.cpu_clock = FakeCpu(0.6)
    (one, two, three), elsewhere = NETWORKS[network]
    with TestClient(app, client=(one, 40000)) as base:
        answers = [ask_from(base, host, ask) for host in (one, one, two, three, elsewhere)]
    assert answers == [first, refused, first, refused, first]


def ask_from(base: TestClient, host: str, ask: Ask) -> int:
    return ask(peer(base, host), {}).status_code


@pytest.mark.parametrize("network", NETWORKS)
def test_event_streams_are_kept_for_the_network_too(network: str) -> None:
    app = create_app(
        Settings(max_streams=10, max_streams_per_game=10, max_streams_per_client=1,
                 network_factor=2)
    )  # fmt: skip
    (one, two, three), elsewhere = NETWORKS[network]
    with TestClient(app, client=(one, 40000)) as base:
        events = f"/v1/games/{created(base)['id']}/events"
        with (
            peer(base, one).stream("GET", events) as ones,
            peer(base, two).stream("GET", events) as twos,
        ):
            assert (ones.status_code, twos.status_code) == (200, 200)
            refused = peer(base, three).get(events)
            assert_problem(refused, 503, "too_many_streams")
            assert "network" in refused.json()["detail"]
            with peer(base, elsewhere).stream("GET", events) as others:
                assert others.status_code == 200
        wait_for(lambda: app.state.streams.open == 0, "streams given back")
