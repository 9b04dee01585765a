"""Who a client is: what every per-client share and limit counts (``client_of``).

A client is the address its requests come from, and for IPv6 that address's /64 network
(``Clients``, by ``Settings.client_ipv6_prefix``); each client is counted with its network too
(an IPv4 /24, an IPv6 /48: ``Settings.network_ipv4_prefix``, ``network_ipv6_prefix``), whose
clients together hold ``Settings.network_factor`` clients' worth of each share, so that many
addresses of one network are one bigger client, not many (``app.sessions.store.Client``). The
address is the connection's peer, unless the peer is a proxy the
operator trusts (``Settings.forwarded_allow_ips``): then it is the address the proxies say
they forwarded for. ``ForwardedClient`` finds it once a request, before anything reads it, and
puts it in ``scope["client"]``, so that every limit (and the server's access log) sees the
same client. With no proxy trusted it is not installed at all: the peer is the client, at no
cost.

Each proxy appends to ``X-Forwarded-For`` (or to RFC 7239 ``Forwarded``, its ``for=``) the
address of the peer it took the request from. Read from the right, skipping the addresses of
trusted proxies, the first other address is the one a trusted proxy wrote about its own peer:
the client. Everything to its left is whatever the client sent, never looked at, so a client
cannot name itself by prepending. An entry that is not an address (garbage, ``unknown``, an
obfuscated ``_identifier``) ends the walk: the client is then the last trusted hop read, whom
everybody it forwards for without naming them shares. Only the header the proxies write
(``Settings.forwarded_header``) is read: the other one, if a request has it, came from the
client and passed the proxies untouched.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from fastapi import FastAPI
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.sessions.store import Client
from app.settings import (
    DEFAULT_CLIENT_IPV6_PREFIX,
    DEFAULT_NETWORK_IPV4_PREFIX,
    DEFAULT_NETWORK_IPV6_PREFIX,
    Settings,
)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Peer = tuple[str, int]  # scope["client"]: host, port

# Hops read from the right of a forwarding header: more than any real chain of proxies has.
# Left of them the header is not even split, so a huge one costs no more than a short one.
MOST_HOPS = 16
# An address as the headers write it, bare or in brackets: what ipaddress then parses. No zone
# (``%eth0``: it means nothing on another host, and ipaddress takes anything after the %).
ADDRESS_TEXT = re.compile(r"[0-9A-Fa-f:.]{2,45}")
PORT_TEXT = re.compile(r"[0-9]{1,5}|_[A-Za-z0-9._-]+")  # RFC 7239's obfport too (port 0)
LONGEST_NODE = len("[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255]:65535")
LONGEST_MEMBER = 256  # a header's member a cache keeps what it names for (its key's size)
TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110 §5.6.2


def network_text(address: IPAddress, prefix: int) -> str:
    """The network of ``address`` of that prefix length, as text (``2001:db8:1:2::/64``); the
    address itself for a full-length prefix."""
    if prefix == address.max_prefixlen:
        return str(address)
    return str(ipaddress.ip_network((address, prefix), strict=False))


class Clients:
    """Who a client is, by the settings' prefixes (see the module's docs): an IPv4 address
    (counted with its /``ipv4_network``), an IPv6 address's /``ipv6_prefix`` (counted with its
    /``ipv6_network``). Cached: the same hosts come request after request."""

    def __init__(
        self,
        ipv6_prefix: int = DEFAULT_CLIENT_IPV6_PREFIX,
        ipv4_network: int = DEFAULT_NETWORK_IPV4_PREFIX,
        ipv6_network: int = DEFAULT_NETWORK_IPV6_PREFIX,
    ) -> None:
        self.ipv6_prefix, self.ipv4_network, self.ipv6_network = (
            ipv6_prefix, ipv4_network, ipv6_network
        )  # fmt: skip
        self.of = lru_cache(maxsize=4096)(self._of)

    @classmethod
    def from_settings(cls, settings: Settings) -> Clients:
        return cls(
            settings.client_ipv6_prefix, settings.network_ipv4_prefix,
            settings.network_ipv6_prefix,
        )  # fmt: skip

    def _of(self, host: str) -> Client:
        """The client of the peer or forwarded address ``host``."""
        try:
            address = unmapped(ipaddress.ip_address(host))  # IPv4 over IPv6: the IPv4 client
        except ValueError:
            return Client(host)  # not an address (a test client's "testclient", a Unix socket)
        own, network = (
            (self.ipv6_prefix, self.ipv6_network)
            if isinstance(address, ipaddress.IPv6Address)
            else (address.max_prefixlen, self.ipv4_network)
        )
        key = network_text(address, own)
        return Client(key, network_text(address, network) if network < own else None)


# Who a client is by the default settings: for requests of no app (a unit test's).
DEFAULT_CLIENTS = Clients()


# Where a request's client is kept once found (its ASGI scope's).
CLIENT_IN_SCOPE = "adjudicator.client"


def client_of(request: Request) -> Client:
    """The client a request comes from, as limits and shares count it (the app's ``Clients``);
    found once a request (several limits ask)."""
    scope = request.scope
    found: Client | None = scope.get(CLIENT_IN_SCOPE)
    if found is None:
        app, peer = scope.get("app"), scope.get("client")
        clients: Clients = app.state.clients if app is not None else DEFAULT_CLIENTS
        found = scope[CLIENT_IN_SCOPE] = clients.of(peer[0] if peer else "unknown")
    return found


def unmapped(address: IPAddress) -> IPAddress:
    """An IPv4 address over IPv6 (``::ffff:10.0.0.1``, a dual-stack socket's) as IPv4."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def node_address(node: str) -> tuple[IPAddress, int] | None:
    """The address and port of one hop as a header writes it — ``192.0.2.1``, ``192.0.2.1:80``,
    ``2001:db8::1``, ``[2001:db8::1]``, ``[2001:db8::1]:80`` — or None for anything else
    (``unknown``, an obfuscated ``_identifier``, garbage)."""
    if len(node) > LONGEST_NODE:
        return None
    host, port = node, "0"
    if node.startswith("["):
        host, bracket, rest = node[1:].partition("]")
        if not bracket or (rest and rest[0] != ":"):
            return None
        port = rest[1:] or "0"
    elif node.count(":") == 1:  # IPv4 and a port (an IPv6 address has at least two colons)
        host, _, port = node.partition(":")
    if not ADDRESS_TEXT.fullmatch(host) or not PORT_TEXT.fullmatch(port):
        return None
    try:
        address = unmapped(ipaddress.ip_address(host))
    except ValueError:
        return None
    number = int(port) if port[0] != "_" else 0
    return (address, number) if number <= 65535 else None


def forwarded_for(element: str) -> str | None:
    """The ``for=`` node of one RFC 7239 forwarded-element (``for=192.0.2.1;proto=https``),
    unquoted; None if the element has none, has two, or is not pairs of a token and a value."""
    found: str | None = None
    for pair in element.split(";"):
        pair = pair.strip(" \t")
        if not pair:
            continue  # the grammar allows an empty pair
        name, equals, value = pair.partition("=")
        if not equals or not TOKEN.fullmatch(name) or not value:
            return None
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]  # a node needs no quoted-pair: a backslash fails as a node
        if name.lower() == "for":
            if found is not None:
                return None
            found = value
    return found


def hops_from_the_right(value: str) -> Iterator[str]:
    """A list header's last ``MOST_HOPS`` members, the last first (each proxy appends, so the
    right end is the nearest). What lies beyond them is not even split."""
    for member in reversed(value.rsplit(",", MOST_HOPS)[-MOST_HOPS:]):
        yield member.strip(" \t")


class TrustedProxies:
    """The proxies whose forwarding header is believed (``Settings.forwarded_allow_ips``), and
    that header (``Settings.forwarded_header``): ``x-forwarded-for`` or ``forwarded``."""

    def __init__(self, networks: Iterable[IPNetwork], header: str = "x-forwarded-for") -> None:
        self.networks = tuple(networks)
        self.header = header.encode("latin-1")
        self.forwarded = header == "forwarded"  # RFC 7239's elements, not bare addresses
        # Both cached: a proxy's address, and the clients it names, come request after request.
        self.trusts_peer = lru_cache(maxsize=4096)(self._trusts_host)
        self._hop = lru_cache(maxsize=8192)(self._read_hop)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, address: IPAddress) -> bool:
        return any(address in network for network in self.networks)

    def _trusts_host(self, host: str) -> bool:
        """Whether the peer ``host`` (as the server names it) is a trusted proxy."""
        try:
            return self.trusts(unmapped(ipaddress.ip_address(host)))
        except ValueError:
            return False  # not an address: a Unix socket, a test client

    def _read_hop(self, member: str, forwarded: bool) -> tuple[Peer, bool] | None:
        node = forwarded_for(member) if forwarded else member
        found = None if node is None else node_address(node)
        if found is None:
            return None
        address, port = found
        return (str(address), port), self.trusts(address)

    def hop(self, member: str, forwarded: bool) -> tuple[Peer, bool] | None:
        """One member of a header (``Forwarded``'s if ``forwarded``, else ``X-Forwarded-For``'s):
        its client (host and port) and whether that is a trusted proxy; None if it names no
        address."""
        if len(member) > LONGEST_MEMBER:  # not cached: the cache holds short texts only
            return self._read_hop(member, forwarded)
        return self._hop(member, forwarded)

    def walk(self, members: Iterable[str], peer: Peer, forwarded: bool) -> Peer:
        """The first hop of ``members`` (nearest first) that is no trusted proxy; at a hop that
        names no address, or past the last, the last trusted one (``peer`` if none)."""
        last = peer
        for member in members:
            found = self.hop(member, forwarded)
            if found is None:
                break
            last, trusted = found
            if not trusted:
                break
        return last

    def client(self, headers: Iterable[tuple[bytes, bytes]], peer: Peer) -> Peer:
        """The client of a request from the trusted proxy ``peer`` (see the module's docs):
        read from the proxies' header alone, its fields joined in order (RFC 9110 §5.3)."""
        values = [value for name, value in headers if name == self.header]
        if not values:
            return peer
        members = hops_from_the_right(b",".join(values).decode("latin-1"))
        return self.walk(members, peer, self.forwarded)


class ForwardedClient:
    """ASGI middleware: a request from a trusted proxy gets the client the proxy names as
    ``scope["client"]``. Outermost, so that everything inside sees that client; the scope is
    changed in place, as uvicorn's own proxy middleware does, so that the server's access log
    names the client too."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            peer = scope.get("client")
            if peer is not None and self.proxies.trusts_peer(peer[0]):
                scope["client"] = self.proxies.client(scope["headers"], tuple(peer))
        await self.app(scope, receive, send)


def trust_proxies(app: FastAPI, networks: Iterable[IPNetwork], header: str) -> None:
    """Take the client from the forwarding ``header`` of requests from ``networks`` (nothing
    to do for none: the peer is the client)."""
    proxies = TrustedProxies(networks, header)
    if proxies:
        app.add_middleware(ForwardedClient, proxies=proxies)
