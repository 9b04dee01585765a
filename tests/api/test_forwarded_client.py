"""The client behind trusted proxies (ADJUDICATOR_FORWARDED_ALLOW_IPS): every per-client limit
counts the address a trusted proxy forwarded for (X-Forwarded-For, RFC 7239 Forwarded), read
from the right; a header from any other peer, or one that is not an address, names nobody."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from app.api.clients import MOST_HOPS, IPAddress, TrustedProxies, unmapped
from app.main import create_app
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.fakes import FakeCpu
from tests.servers import wait_for

TRUSTED = ["10.0.0.0/8", "fd00::/8"]
PROXY = ("10.0.0.1", 40000)
OUTSIDER = ("192.0.2.9", 40000)  # a peer that is no trusted proxy
# Clients behind the proxy; Bob of another /24 than Alice's (a client is counted with its
# network too: tests/api/test_crowds.py).
ALICE, BOB, CAROL = "198.51.100.1", "192.0.2.2", "198.51.100.3"
Headers = dict[str, str | bytes]


def proxied_app(**settings: Any) -> FastAPI:
    return create_app(Settings(forwarded_allow_ips=TRUSTED, **settings))


def xff(value: str | bytes) -> Headers:
    return {"X-Forwarded-For": value}


def fwd(value: str | bytes) -> Headers:
    return {"Forwarded": value}


def create(client: TestClient, headers: Headers | None = None) -> httpx2.Response:
    return client.post("/v1/games", json={"n": 3}, headers=headers)


@contextmanager
def proxy_writing(header: str = "x-forwarded-for") -> Iterator[TestClient]:
    """A connection from a trusted proxy that writes ``header``, to an app where each client
    may create one game."""
    app = proxied_app(forwarded_header=header, create_rate_per_minute=1, create_burst=1)
    with TestClient(app, client=PROXY) as client:
        yield client


@pytest.fixture
def proxy() -> Iterator[TestClient]:
    """A trusted proxy that writes X-Forwarded-For (the default)."""
    with proxy_writing() as client:
        yield client


@pytest.fixture
def rfc_proxy() -> Iterator[TestClient]:
    """A trusted proxy that writes RFC 7239 Forwarded."""
    with proxy_writing("forwarded") as client:
        yield client


def test_two_clients_behind_one_proxy_each_get_their_own_creation_share(
    proxy: TestClient,
) -> None:
    assert create(proxy, xff(ALICE)).status_code == 201
    assert_problem(create(proxy, xff(ALICE)), 429, "rate_limited")
    assert create(proxy, xff(BOB)).status_code == 201
    assert create(proxy).status_code == 201  # the proxy's own request: the proxy is the client


def test_a_proxy_writing_forwarded_names_its_clients_there(rfc_proxy: TestClient) -> None:
    assert create(rfc_proxy, fwd(f"for={ALICE}")).status_code == 201
    assert_problem(create(rfc_proxy, fwd(f"for={ALICE};proto=https")), 429, "rate_limited")
    assert create(rfc_proxy, fwd(f"for={BOB};proto=https;by=10.0.0.1")).status_code == 201
    assert create(rfc_proxy, fwd(f'for="{CAROL}:4711"')).status_code == 201
    assert create(rfc_proxy).status_code == 201  # the proxy's own request


def test_a_header_from_a_peer_that_is_no_trusted_proxy_is_ignored() -> None:
    app = proxied_app(create_rate_per_minute=1, create_burst=1)
    with TestClient(app, client=OUTSIDER) as outsider:
        assert create(outsider, xff(ALICE)).status_code == 201
        assert_problem(create(outsider, xff(BOB)), 429, "rate_limited")  # still the outsider
        assert_problem(create(outsider, fwd(f"for={CAROL}")), 429, "rate_limited")
    with TestClient(app, client=(ALICE, 1)) as alice:
        assert create(alice).status_code == 201  # the outsider spent nothing of Alice's


def test_by_default_no_proxy_is_trusted() -> None:
    app = create_app(Settings(create_rate_per_minute=1, create_burst=1))
    with TestClient(app, client=PROXY) as proxy:
        assert create(proxy, xff(ALICE)).status_code == 201
        assert_problem(create(proxy, xff(BOB)), 429, "rate_limited")
        assert_problem(create(proxy, fwd(f"for={CAROL}")), 429, "rate_limited")


def test_a_client_cannot_escape_its_share_by_prepending_to_the_header(
    proxy: TestClient, rfc_proxy: TestClient
) -> None:
    assert create(proxy, xff(f"203.0.113.1, {ALICE}")).status_code == 201
    assert_problem(create(proxy, xff(f"203.0.113.2, {ALICE}")), 429, "rate_limited")
    assert_problem(create(proxy, xff(f"10.0.0.9, {ALICE}")), 429, "rate_limited")
    spoofed = fwd(f'for=203.0.113.3;proto=https, for="{BOB}"')
    assert create(rfc_proxy, spoofed).status_code == 201  # Bob's first game
    assert_problem(create(rfc_proxy, fwd(f"for=203.0.113.4, for={BOB}")), 429, "rate_limited")


def test_the_hops_of_several_trusted_proxies_are_skipped(
    proxy: TestClient, rfc_proxy: TestClient
) -> None:
    assert create(proxy, xff(f"{ALICE}, 10.0.0.2, 10.0.0.3")).status_code == 201
    assert_problem(create(proxy, xff(ALICE)), 429, "rate_limited")
    chain = fwd(f'for={BOB}, for=10.0.0.2, for="[fd00::3]:8080"')
    assert create(rfc_proxy, chain).status_code == 201
    assert_problem(create(rfc_proxy, fwd(f"for={BOB}")), 429, "rate_limited")


def test_ipv6_clients_behind_a_proxy_are_counted_by_their_64() -> None:
    app = proxied_app(create_rate_per_minute=1, create_burst=1)
    with TestClient(app, client=("fd00::1", 40000)) as proxy:  # an IPv6 proxy, trusted
        assert create(proxy, xff("2001:db8:1:2::1")).status_code == 201
        assert_problem(create(proxy, xff("2001:db8:1:2:ffff::1")), 429, "rate_limited")
        assert create(proxy, xff("[2001:db8:1:3::1]:4711")).status_code == 201  # another /64
        assert create(proxy, xff("::ffff:198.51.100.1")).status_code == 201  # IPv4 over IPv6
        assert_problem(create(proxy, xff(ALICE)), 429, "rate_limited")  # the same client


@pytest.mark.parametrize("header", ["x-forwarded-for", "forwarded"])
def test_only_the_header_the_proxies_write_is_read(header: str) -> None:
    """The other header passed the proxies untouched from the client: whatever it says, it
    changes nobody's count."""

    def written(client: str) -> Headers:  # as the proxies write the client
        return xff(client) if header == "x-forwarded-for" else fwd(f"for={client}")

    def passed_on(client: str) -> Headers:  # the other header, as a client wrote it
        return fwd(f"for={client}") if header == "x-forwarded-for" else xff(client)

    app = proxied_app(forwarded_header=header, create_rate_per_minute=1, create_burst=1)
    with TestClient(app, client=PROXY) as proxy:
        assert create(proxy, {**written(ALICE), **passed_on(BOB)}).status_code == 201
        assert_problem(create(proxy, {**written(ALICE), **passed_on(CAROL)}), 429, "rate_limited")
        assert create(proxy, passed_on(CAROL)).status_code == 201  # counted as the proxy
        assert_problem(create(proxy), 429, "rate_limited")
        assert create(proxy, written(BOB)).status_code == 201  # BOB was never counted


GARBAGE: list[Headers] = [
    xff(b"\x00\x01\x7f"),
    xff("198.51.100.1\t\x0b"),
    xff("١٩٨.٥١.١٠٠.١".encode()),  # non-ASCII digits
    xff("198.51.100.01"),  # a leading zero: ambiguous (octal?), not an address
    xff("unknown"),
    xff(""),
    xff(","),
    xff("x" * 20_000),
    xff("198.51.100.1:99999"),
    xff("[198.51.100.1"),
    xff("fe80::1%eth0"),  # a zone means nothing on another host
    xff("2001:db8::1:80:1:2:3:4:5"),
    fwd("for=unknown"),
    fwd("for=_hidden"),
    fwd('for="_hidden:_port"'),
    fwd("proto=https"),  # no for=
    fwd(f"for={ALICE};for={BOB}"),  # twice in one element
    fwd(f"for {ALICE}"),
    fwd(f'for="{ALICE}'),
    fwd('for="[2001:db8::1"'),
    fwd('for="[2001:db8::1]x"'),
    fwd(f'for="\\"{ALICE}"'),
    fwd(f"fór={ALICE}".encode()),
    fwd(";;=;,,"),
    fwd("=" * 20_000),
]


@pytest.mark.parametrize("headers", GARBAGE, ids=lambda h: repr(h)[:40])
def test_a_header_that_names_no_address_counts_the_request_as_the_proxy(
    headers: Headers,
) -> None:
    header = "forwarded" if "Forwarded" in headers else "x-forwarded-for"
    with proxy_writing(header) as proxy:
        assert create(proxy, headers).status_code == 201  # never a 5xx, nothing else refused
        assert_problem(create(proxy), 429, "rate_limited")  # it was the proxy's share
        named = xff(ALICE) if header == "x-forwarded-for" else fwd(f"for={ALICE}")
        assert create(proxy, named).status_code == 201  # nobody else's


def test_a_hop_that_is_no_address_counts_the_request_as_the_last_trusted_hop(
    proxy: TestClient, rfc_proxy: TestClient
) -> None:
    assert create(proxy, xff(f"{ALICE}, unknown, 10.0.0.2")).status_code == 201
    with TestClient(proxy.app, client=("10.0.0.2", 1)) as inner_proxy:
        assert_problem(create(inner_proxy), 429, "rate_limited")
    assert create(proxy, xff(ALICE)).status_code == 201
    assert create(rfc_proxy, fwd("for=_hidden, for=10.0.0.3")).status_code == 201
    with TestClient(rfc_proxy.app, client=("10.0.0.3", 1)) as inner_proxy:
        assert_problem(create(inner_proxy), 429, "rate_limited")


def test_a_huge_header_is_read_only_at_its_right_end(proxy: TestClient) -> None:
    spoofs = ", ".join(f"203.0.{i // 250}.{i % 250}" for i in range(5000))
    assert create(proxy, xff(f"{spoofs}, {ALICE}")).status_code == 201
    assert_problem(create(proxy, xff(ALICE)), 429, "rate_limited")
    # More trusted hops than are read: the last one read.
    hops = ", ".join(["10.0.0.7"] * 5000)
    assert create(proxy, xff(f"{BOB}, {hops}")).status_code == 201
    with TestClient(proxy.app, client=("10.0.0.7", 1)) as inner_proxy:
        assert_problem(create(inner_proxy), 429, "rate_limited")
    assert create(proxy, xff(BOB)).status_code == 201


# Every per-client limit counts the client behind the proxy.


def ask_create_open(client: TestClient, headers: Headers) -> httpx2.Response:
    return client.post("/v1/games", json={"n": 3, "open": True}, headers=headers)


def ask_with_a_wrong_token(client: TestClient, headers: Headers) -> httpx2.Response:
    game = create(client).json()
    wrong = {**headers, "Authorization": "Bearer not-a-token"}
    return client.post(f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0}, headers=wrong)


def ask_lobby_page(client: TestClient, headers: Headers) -> httpx2.Response:
    return client.get("/v1/games?open=true&limit=10", headers=headers)


def ask_validate(client: TestClient, headers: Headers) -> httpx2.Response:
    return client.post("/v1/tictactoe/validate", json={"board": ["X"]}, headers=headers)


def ask_validate_batch(client: TestClient, headers: Headers) -> httpx2.Response:
    body = {"items": [{"board": ["X"]}] * 3}
    return client.post("/v1/tictactoe/validate-batch", json=body, headers=headers)


Ask = Callable[[TestClient, Headers], httpx2.Response]
LIMITS: dict[str, tuple[dict[str, Any], Ask, int, int]] = {
    # settings, the request the limit refuses, its first answer and the refusal
    "creation rate": ({"create_rate_per_minute": 1, "create_burst": 1}, create, 201, 429),
    "store share": ({"max_games": 10, "client_share": 0.1}, create, 201, 503),
    "open games": ({"client_open_games": 1}, ask_create_open, 201, 503),
    "wrong tokens": (
        {"auth_failures_per_minute": 1, "auth_failures_burst": 1}, ask_with_a_wrong_token, 401,
        429,
    ),
    "lobby reads": (
        {"history_moves_per_minute": 1, "history_moves_burst": 10}, ask_lobby_page, 200, 429
    ),
    "CPU time": ({"client_cpu_ms_per_minute": 600, "client_cpu_burst_ms": 500}, ask_validate,
                 200, 429),
    "batch items": ({"client_cpu_ms_per_minute": 600, "client_cpu_burst_ms": 500},
                    ask_validate_batch, 200, 429),
}  # fmt: skip


@pytest.mark.parametrize("limit", LIMITS)
def test_every_per_client_limit_counts_the_client_behind_the_proxy(limit: str) -> None:
    settings, ask, first, refused = LIMITS[limit]
    app = proxied_app(**settings)
    if "client_cpu_ms_per_minute" in settings:
        app.state.work_budget.cpu_clock = FakeCpu(1.0)  # one request's work spends a share
    with TestClient(app, client=PROXY) as proxy:
        assert ask(proxy, xff(ALICE)).status_code == first
        assert ask(proxy, xff(f"203.0.113.1, {ALICE}")).status_code == refused
        assert ask(proxy, xff(BOB)).status_code == first
        assert ask(proxy, xff(BOB)).status_code == refused


def test_event_streams_per_client_count_the_client_behind_the_proxy() -> None:
    app = proxied_app(max_streams=10, max_streams_per_game=10, max_streams_per_client=1)
    with TestClient(app, client=PROXY) as proxy:
        game = create(proxy).json()["id"]
        events = f"/v1/games/{game}/events"
        with proxy.stream("GET", events, headers=xff(ALICE)) as alices:
            assert alices.status_code == 200
            assert_problem(proxy.get(events, headers=xff(ALICE)), 503, "too_many_streams")
            with proxy.stream("GET", events, headers=xff(BOB)) as bobs:
                assert bobs.status_code == 200
        wait_for(lambda: app.state.streams.open == 0, "streams given back")


# The resolution itself, for any header.

NETWORKS = [ipaddress.ip_network(network) for network in TRUSTED]
PROXIES = {header: TrustedProxies(NETWORKS, header) for header in ("x-forwarded-for", "forwarded")}
HEADER_NAMES = st.sampled_from([b"x-forwarded-for", b"forwarded", b"x-forwarded-proto"])
HEADER_VALUES = st.one_of(
    st.binary(max_size=200),
    st.lists(
        st.one_of(
            st.ip_addresses().map(str),
            st.sampled_from(["unknown", "_hidden", "for=", '"', "[", "]", ":", ";", "10.0.0.2"]),
            st.text(max_size=20),
        ),
        max_size=30,
    ).map(lambda parts: ", ".join(f"for={p}" if i % 3 else p for i, p in enumerate(parts))),
)


def as_bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")


@given(st.lists(st.tuples(HEADER_NAMES, HEADER_VALUES.map(as_bytes)), max_size=4))
def test_any_headers_give_the_peer_or_an_address(headers: list[tuple[bytes, bytes]]) -> None:
    for proxies in PROXIES.values():
        host, port = proxies.client(headers, PROXY)
        if (host, port) != PROXY:
            assert str(ipaddress.ip_address(host)) == host  # never a text the client chose
            assert 0 <= port <= 65535


@given(
    st.text(max_size=300),
    st.ip_addresses().filter(lambda a: not PROXIES["forwarded"].trusts(unmapped(a))),
)
def test_nothing_a_client_prepends_changes_who_it_is(prefix: str, client: IPAddress) -> None:
    written = str(client)
    bracketed = f'"[{written}]"' if client.version == 6 else written
    for name, appended in (
        (b"x-forwarded-for", f"{written}, 10.0.0.2"),
        (b"forwarded", f"for={bracketed};proto=https, for=10.0.0.2"),
    ):
        value = f"{prefix}, {appended}".encode("utf-8", "surrogatepass")
        host, _ = PROXIES[name.decode()].client([(name, value)], PROXY)
        assert host == str(unmapped(client))


def test_no_more_than_the_last_hops_are_read() -> None:
    for hops, client in ((MOST_HOPS - 1, ALICE), (MOST_HOPS, "10.0.0.5")):
        trusted = ", ".join(["10.0.0.5"] * hops)
        headers = [(b"x-forwarded-for", f"{ALICE}, {trusted}".encode())]
        assert PROXIES["x-forwarded-for"].client(headers, PROXY) == (
            client,
            0,
        )  # beyond: the last hop read


# The setting


@pytest.mark.parametrize(
    ("given", "trusted"),
    [
        (["10.0.0.5"], ["10.0.0.5/32"]),
        (["10.0.0.0/8", "2001:db8::/32", "::1"], ["10.0.0.0/8", "2001:db8::/32", "::1/128"]),
        (["::ffff:10.0.0.5"], ["10.0.0.5/32"]),  # a dual-stack socket's IPv4 peer, as IPv4
        (["::ffff:10.0.0.0/104"], ["10.0.0.0/8"]),
        ([], []),
        # As uvicorn's --forwarded-allow-ips takes them: one text, separated by commas.
        ("10.0.0.5", ["10.0.0.5/32"]),
        ("10.0.0.5,10.0.0.6", ["10.0.0.5/32", "10.0.0.6/32"]),
        ("10.0.0.5, fd00::/8", ["10.0.0.5/32", "fd00::/8"]),
        (["10.0.0.5,10.0.0.6"], ["10.0.0.5/32", "10.0.0.6/32"]),  # a flag given so
        ('["10.0.0.5"]', ["10.0.0.5/32"]),  # a JSON list
        ("", []),
    ],
)
def test_trusted_proxies_are_addresses_and_networks(given: Any, trusted: list[str]) -> None:
    settings = Settings(forwarded_allow_ips=given)
    assert [str(network) for network in settings.forwarded_allow_ips] == trusted


@pytest.mark.parametrize(
    ("given", "why"),
    [
        (["*"], "* is not taken"),
        ("*", "* is not taken"),
        (["0.0.0.0/0"], "is every address"),
        ("::/0", "is every address"),
        (["10.0.0.1/8"], "host bits set"),
        ("10.0.0.1,,10.0.0.2", "'' is not an IPv4 or IPv6 address"),
        ('["10.0.0.1"', "Expecting"),
        (["proxy.example"], "not an IPv4 or IPv6 address or network"),
        (["١٠.0.0.1"], "not an IPv4 or IPv6 address or network"),
        (["10.0.0.0/33"], "not an IPv4 or IPv6 address or network"),
        ([10], "not an address or network"),
    ],
)
def test_a_proxy_that_is_no_address_or_network_is_refused(given: Any, why: str) -> None:
    with pytest.raises(ValidationError, match="forwarded_allow_ips") as refused:
        Settings(forwarded_allow_ips=given)
    assert why in str(refused.value)
