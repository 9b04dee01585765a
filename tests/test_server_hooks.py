"""What ``app/server.py`` relies on of uvicorn and httptools beyond their documented interfaces
(``OVERRIDDEN_HOOKS``, ``INHERITED_ATTRIBUTES``, and the behaviours its comment names), and
``app/cli/serve.py`` of uvicorn's worker supervisor, checked against the installed releases. An
upgrade that breaks one fails here, naming it and the range ``pyproject.toml`` pins, rather than
as a hostile-traffic test failing for a reason hard to see.
"""

from __future__ import annotations

import asyncio
import inspect
import socket
import tomllib
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httptools
import pytest
import uvicorn
from packaging.requirements import Requirement
from packaging.version import Version
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.server import ServerState
from uvicorn.supervisors import Multiprocess

from app.server import (
    INHERITED_ATTRIBUTES,
    OVERRIDDEN_HOOKS,
    BoundedHttpToolsProtocol,
    protocol_for,
)
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def pinned(name: str) -> str:
    """The project's requirement on ``name``, as pyproject.toml writes it."""
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return next(d for d in dependencies if Requirement(d).name == name)


def relied_on(what: str, package: str, user: str = "app/server.py") -> str:
    """The failure message: what broke, and the pin that promised it."""
    return (
        f"{what} (installed: {package} {version(package)}). {user} relies on it, and "
        f"pyproject.toml pins {pinned(package)!r}, the releases where it holds"
    )


@pytest.mark.parametrize("package", ["uvicorn", "httptools"])
def test_the_installed_release_is_one_the_pin_admits(package: str) -> None:
    installed = Version(version(package))
    requirement = pinned(package)
    assert Requirement(requirement).specifier.contains(installed, prereleases=True), (
        f"{package} {installed} is outside pyproject.toml's {requirement!r}, the releases "
        "app/server.py and app/cli/serve.py are checked against: run "
        "tests/test_server_hooks.py and the e2e tests with it, then move the pin"
    )


# The hooks: uvicorn's, with the signature the override has


def uvicorn_defines(name: str) -> bool:
    """``HttpToolsProtocol`` or a uvicorn class it inherits from has ``name`` itself (not only
    ``asyncio.Protocol`` or ``object``)."""
    uvicorns = [c for c in HttpToolsProtocol.__mro__ if c.__module__.startswith("uvicorn.")]
    return any(name in vars(cls) for cls in uvicorns)


def parameters(function: Callable[..., Any]) -> list[tuple[str, inspect._ParameterKind, bool]]:
    """A function's parameters as a caller sees them: name, kind, and whether it is optional."""
    return [
        (p.name, p.kind, p.default is not p.empty)
        for p in inspect.signature(function).parameters.values()
    ]


@pytest.mark.parametrize("hook", OVERRIDDEN_HOOKS)
def test_every_overridden_hook_is_uvicorns_with_the_overrides_signature(hook: str) -> None:
    assert uvicorn_defines(hook), relied_on(
        f"uvicorn's HttpToolsProtocol has no {hook}, which BoundedHttpToolsProtocol "
        "overrides (OVERRIDDEN_HOOKS): nothing calls the override now", "uvicorn"
    )  # fmt: skip
    theirs = parameters(getattr(HttpToolsProtocol, hook))
    # The override may add keyword-only parameters of its own (bound before uvicorn calls it).
    ours = [
        parameter
        for parameter in parameters(getattr(BoundedHttpToolsProtocol, hook))
        if parameter[1] is not inspect.Parameter.KEYWORD_ONLY or parameter in theirs
    ]
    assert ours == theirs, relied_on(
        f"uvicorn's HttpToolsProtocol.{hook} now takes {theirs}, and BoundedHttpToolsProtocol's "
        f"override (OVERRIDDEN_HOOKS) takes {ours}", "uvicorn"
    )  # fmt: skip


def test_every_override_of_a_uvicorn_method_is_listed() -> None:
    methods = {name for name, value in vars(BoundedHttpToolsProtocol).items() if callable(value)}
    unlisted = sorted(name for name in methods - set(OVERRIDDEN_HOOKS) if uvicorn_defines(name))
    assert not unlisted, (
        f"BoundedHttpToolsProtocol overrides uvicorn's {unlisted}: list them in OVERRIDDEN_HOOKS "
        "(app/server.py), so that an upgrade that changes them fails here"
    )
    assert set(OVERRIDDEN_HOOKS) <= methods, "OVERRIDDEN_HOOKS lists methods it does not override"


# uvicorn's state and behaviour, on a real connection


async def answer_ok(scope: Any, receive: Any, send: Any) -> None:
    body = b"ok"
    headers = [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


ProtocolFactory = Callable[..., HttpToolsProtocol]  # uvicorn's ``http``, called as its server does


@dataclass
class Connection:
    """A protocol on one end of a socket pair, made as uvicorn's server makes it, and the
    client's end; the loop runs only within ``answer``."""

    loop: asyncio.AbstractEventLoop
    protocol: HttpToolsProtocol
    server_state: ServerState
    client: socket.socket

    def answer(self) -> bytes:
        """Run the request tasks to their end; what the client received."""

        async def finished() -> None:
            await asyncio.gather(*self.server_state.tasks)

        self.loop.run_until_complete(finished())
        received = b""
        while True:
            try:
                chunk = self.client.recv(65536)
            except BlockingIOError:
                return received
            if not chunk:
                return received
            received += chunk


@pytest.fixture
def connect() -> Iterator[Callable[..., Connection]]:
    """Makes connections over a protocol (as uvicorn's ``http``: a class, or what
    ``protocol_for`` makes) to an app (``answer_ok`` unless given), each with a request head
    already received (``HEAD`` unless given: a cycle, a URL and headers; its answer not yet
    run); closes them afterwards."""
    loop = asyncio.new_event_loop()
    made: list[Connection] = []

    def connect(make_protocol: ProtocolFactory, app: Any = None, head: bytes = b"") -> Connection:
        config = uvicorn.Config(
            app or answer_ok, lifespan="off", proxy_headers=False, log_config=None
        )
        config.load()
        server_end, client_end = socket.socketpair()
        client_end.setblocking(False)
        server_state = ServerState()
        protocol = make_protocol(config=config, server_state=server_state, app_state={}, _loop=loop)
        loop.run_until_complete(loop.connect_accepted_socket(lambda: protocol, server_end))
        made.append(Connection(loop, protocol, server_state, client_end))
        protocol.data_received(head or HEAD)
        return made[-1]

    try:
        yield connect
    finally:
        for connection in made:
            connection.answer()
            connection.protocol.transport.close()
            connection.client.close()
        loop.run_until_complete(asyncio.sleep(0))  # transports are closed soon after close()
        loop.close()


HEAD = b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"


def test_uvicorn_starts_each_request_through_start_asgi_task(
    connect: Callable[..., Connection],
) -> None:
    protocol = connect(protocol_for(Settings())).protocol
    assert isinstance(protocol, BoundedHttpToolsProtocol)
    assert protocol.current is protocol.cycle, relied_on(
        "uvicorn did not start the request through HttpToolsProtocol._start_asgi_task, which "
        "BoundedHttpToolsProtocol overrides to know the request being answered", "uvicorn"
    )  # fmt: skip


def inherited() -> list[tuple[type, str]]:
    return [(cls, name) for cls, names in INHERITED_ATTRIBUTES.items() for name in names]


@pytest.mark.parametrize(("cls", "name"), inherited(), ids=lambda p: getattr(p, "__name__", p))
def test_what_the_protocol_reads_of_uvicorn_is_there(
    connect: Callable[..., Connection], cls: type, name: str
) -> None:
    connection = connect(HttpToolsProtocol)  # uvicorn's own: what is found is uvicorn's
    instances = {
        HttpToolsProtocol: connection.protocol,
        RequestResponseCycle: connection.protocol.cycle,
        ServerState: connection.server_state,
        FlowControl: connection.protocol.flow,
    }
    assert isinstance(instances[cls], cls)
    assert hasattr(instances[cls], name), relied_on(
        f"uvicorn's {cls.__name__} has no {name} (INHERITED_ATTRIBUTES)", "uvicorn"
    )


def test_the_server_state_can_key_a_weak_dictionary() -> None:
    try:
        weakref.WeakKeyDictionary({ServerState(): None})
    except TypeError as error:
        raise AssertionError(
            relied_on(f"uvicorn's ServerState cannot key _WAITING ({error})", "uvicorn")
        ) from error


def test_an_answer_without_keep_alive_says_connection_close(
    connect: Callable[..., Connection],
) -> None:
    connection = connect(protocol_for(Settings()))
    connection.protocol.cycle.keep_alive = False  # as _drain, and uvicorn's shutdown, do
    head = connection.answer().partition(b"\r\n\r\n")[0].lower()
    assert head.startswith(b"http/1.1 200 ")
    assert b"\r\nconnection: close" in head, relied_on(
        "uvicorn answered a request whose keep_alive was turned off without "
        "`Connection: close`", "uvicorn"
    )  # fmt: skip


def test_an_answer_that_closes_the_connection_closes_it_through_the_cycles_transport(
    connect: Callable[..., Connection],
) -> None:
    connection = connect(protocol_for(Settings()))
    protocol = connection.protocol
    assert isinstance(protocol, BoundedHttpToolsProtocol)
    protocol.cycle.keep_alive = False  # an answer that says Connection: close
    assert connection.answer().lower().startswith(b"http/1.1 200 ")  # and then the end
    lingers = protocol.lingering and not protocol.transport.is_closing()
    assert lingers, relied_on(
        "uvicorn closed the connection after an answer without keep-alive other than through "
        "its request cycle's `transport`, which BoundedHttpToolsProtocol replaces so that the "
        "close lingers (_Answers)", "uvicorn"
    )  # fmt: skip


class Writes:
    """A transport's stand-in that keeps what is written to it, each write apart, and passes
    everything on to the transport."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


def watched(connection: Connection) -> Writes:
    protocol = connection.protocol
    writes = Writes(protocol.transport)
    protocol.transport = writes  # type: ignore[assignment]
    return writes


def test_an_answers_head_goes_with_its_body_in_one_write(
    connect: Callable[..., Connection],
) -> None:
    connection = connect(protocol_for(Settings()))
    writes = watched(connection)
    received = connection.answer()
    assert received.startswith(b"HTTP/1.1 200 OK\r\n")
    assert received.endswith(b"\r\n\r\nok")
    assert writes.writes == [received], relied_on(
        "uvicorn wrote an answer's head other than in one write when the answer started, "
        "followed by its body's (_Answers holds the head for the body)", "uvicorn"
    )  # fmt: skip


def test_the_head_of_an_answer_to_head_is_written_when_it_completes(
    connect: Callable[..., Connection],
) -> None:
    connection = connect(protocol_for(Settings()), head=b"HEAD / HTTP/1.1\r\nHost: t\r\n\r\n")
    writes = watched(connection)
    received = connection.answer()
    assert received.startswith(b"HTTP/1.1 200 OK\r\n")
    assert received.endswith(b"content-length: 2\r\n\r\n")  # and no body
    assert writes.writes == [received]


def test_a_streamed_answers_head_is_not_held(connect: Callable[..., Connection]) -> None:
    released = asyncio.Event()
    seen: list[bytes] = []

    async def streamed(scope: Any, receive: Any, send: Any) -> None:  # no length: chunked
        await send({"type": "http.response.start", "status": 200, "headers": []})
        seen.extend(writes.writes)  # what was written before any of the body
        await released.wait()
        await send({"type": "http.response.body", "body": b"event"})

    connection = connect(protocol_for(Settings()), streamed)
    writes = watched(connection)
    connection.loop.call_later(0.05, released.set)
    received = connection.answer()
    assert len(seen) == 1
    assert seen[0].startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"transfer-encoding: chunked" in seen[0]
    assert received.startswith(seen[0])
    assert received.endswith(b"5\r\nevent\r\n0\r\n\r\n")


# uvicorn's worker supervisor, as the adjudicator command starts it


def test_the_worker_supervisor_takes_a_configuration_and_its_sockets() -> None:
    required = [name for name, _, optional in parameters(Multiprocess) if not optional]
    assert required == ["config", "sockets"], relied_on(
        f"uvicorn's Multiprocess now requires {required}: app/cli/serve.py's run starts "
        "workers with Multiprocess(config, sockets=…), the signature from uvicorn 0.51",
        "uvicorn", "app/cli/serve.py",
    )  # fmt: skip


# httptools' parser


class ParserEvents:
    """An httptools parser protocol that records its callbacks, and raises ``refusal`` from
    ``on_header`` if one is set."""

    def __init__(self, refusal: Exception | None = None) -> None:
        self.events: list[object] = []
        self.refusal = refusal

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.refusal is not None:
            raise self.refusal
        self.events.append((name, value))

    def on_headers_complete(self) -> None:
        self.events.append("headers complete")

    def on_chunk_header(self) -> None:
        self.events.append("chunk header")

    def on_body(self, body: bytes) -> None:
        self.events.append(body)

    def on_chunk_complete(self) -> None:
        self.events.append("chunk complete")

    def on_message_complete(self) -> None:
        self.events.append("message complete")


def test_an_exception_raised_in_a_callback_is_the_parser_errors_context() -> None:
    refusal = ValueError("refused")
    parser = httptools.HttpRequestParser(ParserEvents(refusal))
    with pytest.raises(httptools.HttpParserError) as raised:
        parser.feed_data(HEAD)
    assert raised.value.__context__ is refusal, relied_on(
        "httptools no longer gives the exception a callback raised as its error's __context__ "
        "(BoundedHttpToolsProtocol.data_received finds its refusals there)", "httptools"
    )  # fmt: skip


def test_a_chunked_bodys_trailer_fields_come_after_its_last_chunk_header() -> None:
    events = ParserEvents()
    parser = httptools.HttpRequestParser(events)
    parser.feed_data(
        b"POST / HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"3;ext=1\r\nabc\r\n0\r\nField: value\r\n\r\n"
    )
    assert events.events == [
        (b"Host", b"test"), (b"Transfer-Encoding", b"chunked"), "headers complete",
        "chunk header", b"abc", "chunk complete",
        "chunk header", (b"Field", b"value"), "chunk complete", "message complete",
    ], relied_on(
        "httptools' callbacks for a chunked body with a trailer changed (BoundedHttpToolsProtocol "
        "counts chunks at on_chunk_header, and takes fields after the last one for the trailer)",
        "httptools",
    )  # fmt: skip
