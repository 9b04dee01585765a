"""The ``adjudicator`` command: help, version, settings as flags and variables, bad settings,
the OpenAPI document and offline checks. As the installed script where the process matters
(serving, exit statuses, output bytes), in-process with click's runner where it does not."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient
from uvicorn.server import ServerState

from app.cli import main
from app.server import BoundedHttpToolsProtocol
from app.settings import UNSTARTED_GAME_SECONDS, Settings
from tests.servers import free_port, uvicorn_server, wait_for

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
COMMAND = [SCRIPT] if SCRIPT else [sys.executable, "-m", "app.cli"]
# The tests' own settings only: none inherited from the shell that runs the suite.
CLEAN_ENV = {
    **{name: value for name, value in os.environ.items() if not name.startswith("ADJUDICATOR_")},
    # No archive unless a test names one: the default is a file in the working directory, which
    # here is the repository's.
    "ADJUDICATOR_ARCHIVE_URL": "none",
}
# How uvicorn ends after a graceful shutdown: it re-raises the SIGTERM it caught.
STOPPED_BY_SIGTERM = (0, -signal.SIGTERM)

OPENING = ["........", "........", "........", "...WB...", "...BW...", "........", "........",
           "........"]  # fmt: skip


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], env={**CLEAN_ENV, **(env or {})}, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliRunner:
    """click's in-process runner, with no ADJUDICATOR_* variable set, in a directory of its own
    (the default archive is a file in the working directory); a command that would serve (one
    worker) or bind a socket for workers fails the test instead."""

    def no_serving(*args: object, **kwargs: object) -> None:
        pytest.fail("the command started a server")

    monkeypatch.setattr(uvicorn.Server, "run", no_serving)
    monkeypatch.setattr(uvicorn.Config, "bind_socket", no_serving)
    for name in os.environ:
        if name.startswith("ADJUDICATOR_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return CliRunner()


@dataclass
class Handed:
    """What ``serve`` handed uvicorn's server: its configuration, and the environment then."""

    config: uvicorn.Config
    environment: dict[str, str]


@pytest.fixture
def served(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> list[Handed]:
    """What each ``serve`` run in the runner handed uvicorn's server; nothing is served."""
    handed: list[Handed] = []

    def serve(server: uvicorn.Server, sockets: object = None) -> None:
        handed.append(Handed(server.config, dict(os.environ)))
        server.started = True

    monkeypatch.setattr(uvicorn.Server, "run", serve)
    return handed


def loaded(config: uvicorn.Config) -> tuple[Any, BoundedHttpToolsProtocol]:
    """The app and a connection's protocol, made from ``config`` as uvicorn's server makes
    them (``load``, then the ``http`` class called with uvicorn's arguments)."""
    config.load()
    loop = asyncio.new_event_loop()
    try:
        protocol = config.http_protocol_class(  # type: ignore[call-arg]
            config=config, server_state=ServerState(), app_state={}, _loop=loop
        )
    finally:
        loop.close()
    assert isinstance(protocol, BoundedHttpToolsProtocol)
    return config.loaded_app, protocol


def oneline(text: str) -> str:
    """Help text as one line: click wraps it, at spaces and after hyphens."""
    return re.sub(r"-\s+", "-", " ".join(text.split()))


def env_text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


# Help and version


@contextmanager
def socketed_port() -> Iterator[int]:
    """A loopback port something already listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port: int = sock.getsockname()[1]
        yield port


def test_serve_help_lists_every_setting_with_its_variable_default_and_description() -> None:
    result = run("serve", "--help")
    assert result.returncode == 0, result.stderr
    text = oneline(result.stdout)
    for name, field in Settings.model_fields.items():
        default = env_text(field.get_default(call_default_factory=True))
        assert f"--{name.replace('_', '-')} " in text
        assert f"[env var: ADJUDICATOR_{name.upper()}; default: {default}" in text
        assert oneline(field.description or "") in text


@pytest.mark.parametrize(
    "args", [["--help"], ["-h"], ["serve", "--help"], ["--port", "1", "--help"]]
)
def test_help_never_serves(args: list[str]) -> None:
    with socketed_port() as port:  # a server on it would fail with "address already in use"
        result = run(*args, env={"ADJUDICATOR_PORT": str(port)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: adjudicator")
    assert result.stderr == ""


def test_top_level_help_names_the_subcommands_and_where_the_flags_are() -> None:
    help_text = run("--help").stdout
    for command in ("serve", "openapi", "check"):
        assert re.search(rf"^  {command} ", help_text, re.MULTILINE), command
    assert "adjudicator serve --help" in oneline(help_text)


def test_version_is_the_package_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert version("adjudicator") in result.stdout


# Serving


@contextmanager
def serving(*args: str, env: dict[str, str], port: int, log: Path) -> Iterator[str]:
    """The command started with ``args`` and ``env``, up on ``port``; stopped with SIGTERM,
    which it must take as a graceful stop."""
    with log.open("wb") as sink:
        process = subprocess.Popen([*COMMAND, *args], env={**CLEAN_ENV, **env}, stdout=sink,
                                   stderr=sink)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/healthz", timeout=1).status_code == 200, url)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=20)
    assert status in STOPPED_BY_SIGTERM, log.read_text()


def batch_status(url: str, items: int) -> int:
    body = {"items": [{"board": ["X..", "...", "..."]}] * items}
    return httpx.post(f"{url}/v1/tictactoe/validate-batch", json=body).status_code


def test_serve_port_flag_serves_on_that_port(tmp_path: Path) -> None:
    port = free_port()
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    with serving(*args, env={}, port=port, log=tmp_path / "log") as url:
        assert httpx.get(f"{url}/healthz").json() == {"status": "ok"}


def test_plain_command_serves_with_the_environment_settings(tmp_path: Path) -> None:
    port = free_port()
    env = {"ADJUDICATOR_PORT": str(port), "ADJUDICATOR_MAX_BATCH": "2",
           "ADJUDICATOR_LOG_LEVEL": "warning"}  # fmt: skip
    with serving(env=env, port=port, log=tmp_path / "log") as url:
        assert batch_status(url, 2) == 200
        assert batch_status(url, 3) == 422  # the app itself read ADJUDICATOR_MAX_BATCH


def test_flags_override_the_environment_in_every_worker(tmp_path: Path) -> None:
    port, env_port = free_port(), free_port()
    env = {"ADJUDICATOR_PORT": str(env_port), "ADJUDICATOR_MAX_BATCH": "1000",
           "ADJUDICATOR_MAX_URL_BYTES": "8192", "ADJUDICATOR_LOG_LEVEL": "warning"}  # fmt: skip
    args = ["--port", str(port), "--max-batch", "2", "--max-url-bytes", "64", "--workers", "2"]
    with serving(*args, env=env, port=port, log=tmp_path / "log") as url:
        for _ in range(4):  # answered by either worker process: the app's and the protocol's
            assert batch_status(url, 3) == 422
            assert httpx.get(f"{url}/healthz?{'x' * 64}").status_code == 414
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{env_port}/healthz")


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["--forwarded-allow-ips", "127.0.0.1"], {}),
        (["--workers", "2"], {"ADJUDICATOR_FORWARDED_ALLOW_IPS": "127.0.0.0/8, ::1"}),
    ],
    ids=["flag", "variable-in-a-worker-process"],
)
def test_trusted_proxies_reach_the_server_whose_limits_count_the_forwarded_client(
    tmp_path: Path, args: list[str], env: dict[str, str]
) -> None:
    port = free_port()
    env = {**env, "ADJUDICATOR_PORT": str(port), "ADJUDICATOR_LOG_LEVEL": "warning",
           "ADJUDICATOR_CREATE_RATE_PER_MINUTE": "1", "ADJUDICATOR_CREATE_BURST": "1",
           "ADJUDICATOR_KEEP_ALIVE_SECONDS": "120"}  # fmt: skip
    # One connection, kept however slow the machine: one worker process, whose limits count
    # each client once.
    log = tmp_path / "log"
    with serving(*args, env=env, port=port, log=log) as url, httpx.Client(base_url=url) as proxy:
        statuses = [
            proxy.post("/v1/games", json={"n": 3}, headers=headers).status_code
            for headers in (
                {"X-Forwarded-For": "198.51.100.1"},
                {"X-Forwarded-For": "198.51.100.2"},
                {"X-Forwarded-For": "2001:db8::1"},
                {"X-Forwarded-For": "198.51.100.1"},  # its share is spent
            )
        ]
    assert statuses == [201, 201, 201, 429]


def test_serve_hands_its_settings_to_the_app_and_the_protocol_not_to_the_environment(
    runner: CliRunner, served: list[Handed]
) -> None:
    environment = dict(os.environ)
    result = runner.invoke(main, ["--max-batch", "2", "--max-url-bytes", "64"])
    assert result.exit_code == 0, result.output
    [handed] = served
    assert not [name for name in handed.environment if name.startswith("ADJUDICATOR_")]
    assert dict(os.environ) == environment
    app, protocol = loaded(handed.config)
    assert protocol.limits.max_url_bytes == 64
    with TestClient(app) as client:
        body = {"items": [{"board": ["X..", "...", "..."]}] * 3}
        assert client.post("/v1/tictactoe/validate-batch", json=body).status_code == 422


# Bad settings and usage errors


def test_a_flag_mends_a_malformed_variable_it_overrides(
    runner: CliRunner, served: list[Handed]
) -> None:
    env = {"ADJUDICATOR_CORS_ORIGINS": "https://a.example"}  # not JSON: refused on its own
    result = runner.invoke(main, ["--cors-origins", "https://b.example"], env=env)
    assert result.exit_code == 0, result.output
    [handed] = served
    assert handed.environment["ADJUDICATOR_CORS_ORIGINS"] == "https://a.example"  # untouched
    app, _ = loaded(handed.config)  # nothing reads the variable again
    with TestClient(app) as client:
        answer = client.get("/healthz", headers={"Origin": "https://b.example"})
    assert answer.headers["access-control-allow-origin"] == "https://b.example"


def test_a_short_idle_time_shortens_the_unstarted_default(
    runner: CliRunner, served: list[Handed]
) -> None:
    result = runner.invoke(main, ["--game-idle-seconds", "60"])
    assert result.exit_code == 0, result.output  # no unstarted time set: nothing to refuse
    assert Settings(game_idle_seconds=60).unstarted_game_seconds == 60
    assert Settings(game_idle_seconds=7200).unstarted_game_seconds == UNSTARTED_GAME_SECONDS
    assert Settings(game_idle_seconds=60, unstarted_game_seconds=30).unstarted_game_seconds == 30


@pytest.mark.parametrize(
    ("env", "args", "named", "why"),
    [
        ({"ADJUDICATOR_GAME_IDLE_SECONDS": "0"}, [], "game_idle_seconds", "greater than 0"),
        ({}, ["--game-idle-seconds", "0"], "game_idle_seconds", "greater than 0"),
        ({}, ["serve", "--port", "abc"], "port", "valid integer"),
        ({"ADJUDICATOR_PORT": "8000"}, ["--port=70000"], "port", "65535"),
        ({"ADJUDICATOR_LOG_LEVEL": "loud"}, [], "log_level", "'trace'"),
        ({"ADJUDICATOR_OPENTELEMETRY": "maybe"}, [], "opentelemetry", "valid boolean"),
        ({"ADJUDICATOR_CORS_ORIGINS": "https://a.example"}, [], "cors_origins", "not JSON"),
        ({"ADJUDICATOR_CORS_ORIGINS": '["not a url"]'}, [], "cors_origins", "not an origin"),
        ({"ADJUDICATOR_EVENT_KEEP_ALIVE_SECONDS": "0"}, [], "event_keep_alive_seconds", "than 0"),
        ({"ADJUDICATOR_EVENT_KEEP_ALIVE_SECONDS": "١"}, [], "event_keep_alive_seconds", "number"),
        ({"ADJUDICATOR_EVENT_KEEP_ALIVE_SECONDS": "1e999"}, [], "event_keep_alive_seconds", "3600"),
        ({"ADJUDICATOR_EVENT_KEEP_ALIVE_SECONDS": "nan"}, [], "event_keep_alive_seconds", "3600"),
        (
            {"ADJUDICATOR_UNSTARTED_GAME_SECONDS": "7200"},
            [],
            "unstarted_game_seconds",
            "at most game_idle_seconds",
        ),
        ({"ADJUDICATOR_STORE_URL": "postgres://db"}, ["openapi"], "store_url", "pattern"),
        ({"ADJUDICATOR_MAX_BATCH": "0"}, [], "max_batch", "greater than"),
        (
            {"ADJUDICATOR_FORWARDED_ALLOW_IPS": '["10.0.0.1"'},
            [],
            "forwarded_allow_ips",
            "Expecting",
        ),
        (
            {"ADJUDICATOR_FORWARDED_ALLOW_IPS": "0.0.0.0/0"},
            [],
            "forwarded_allow_ips",
            "every address",
        ),
        ({"ADJUDICATOR_FORWARDED_ALLOW_IPS": '["*"]'}, [], "forwarded_allow_ips", "not taken"),
        ({}, ["--forwarded-allow-ips", "10.0.0.1/8"], "forwarded_allow_ips", "host bits set"),
        ({}, ["--forwarded-allow-ips", "a,b"], "forwarded_allow_ips", "'a' is not an IPv4"),
        ({}, ["--forwarded-header", "x-real-ip"], "forwarded_header", "'x-forwarded-for' or"),
        ({"ADJUDICATOR_NETWORK_IPV4_PREFIX": "33"}, [], "network_ipv4_prefix", "equal to 32"),
        ({}, ["--network-ipv4-prefix", "/24"], "network_ipv4_prefix", "valid integer"),
        ({}, ["--client-ipv6-prefix", "129"], "client_ipv6_prefix", "equal to 128"),
        (
            {"ADJUDICATOR_NETWORK_IPV6_PREFIX": "72"},
            [],
            "network_ipv6_prefix",
            "a network holds its clients",
        ),
        ({}, ["--network-factor", "0.5"], "network_factor", "greater than or equal to 1"),
        ({}, ["--unstarted-games-share", "0"], "unstarted_games_share", "greater than 0"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it_and_exit_2(
    runner: CliRunner, env: dict[str, str], args: list[str], named: str, why: str
) -> None:
    result = runner.invoke(main, args, env=env, input="{}")
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert f"--{named.replace('_', '-')}" in line
    assert f"ADJUDICATOR_{named.upper()}" in line
    assert why in line


def test_a_bad_setting_from_the_installed_command_has_no_traceback() -> None:
    result = run(env={"ADJUDICATOR_GAME_IDLE_SECONDS": "0"})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "Error: --game-idle-seconds / ADJUDICATOR_GAME_IDLE_SECONDS: Input should be greater "
        "than 0 (got '0' from the environment)"
    ]


@pytest.mark.parametrize(
    "args",
    [["--bogus"], ["serve", "--bogus"], ["bogus"], ["check", "chess"],
     ["check", "reversi", "/nonexistent/question.json"]],
)  # fmt: skip
def test_an_unknown_flag_or_command_is_a_usage_error(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    assert "Usage: " in result.stderr
    assert "Traceback" not in result.stderr


TICTACTOE = '{"game": "tictactoe", "n": 3}'


@pytest.mark.parametrize(
    ("game", "bounds"),
    [(TICTACTOE, ["nan", "1"]), (TICTACTOE, ["1", "inf"]), (TICTACTOE, ["-1e400", "1"]),
     ('{"game": "tictactoe", "n": NaN}', []), ('{"n": Infinity}', [])],
)  # fmt: skip
def test_a_seek_of_numbers_json_has_not_is_refused_before_it_is_sent(
    runner: CliRunner, game: str, bounds: list[str]
) -> None:
    """NaN and infinities, which Python reads, were read, then could not be sent: a traceback.
    (No service listens at the URL: nothing is sent.)"""
    ranged = ["--range", *bounds] if bounds else []
    args = ["seek", "new", "--game", game, *ranged, "--key", "k", "--url", "http://127.0.0.1:9"]
    result = runner.invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "finite number" in result.stderr or "not a JSON number" in result.stderr


# The OpenAPI document


def test_openapi_prints_the_committed_document() -> None:
    result = run("openapi")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8")


# Offline checks: the HTTP endpoint's answer, from a file or stdin

FOUR = [".......", ".......", ".......", "...O...", "...XO..", "..XXO.."]
FOUR_TO_WIN = [".......", ".......", ".......", "....O..", "....O..", ".XXXO.."]
FOUR_WON = [".......", ".......", ".......", "....O..", "....O..", "XXXXO.."]

QUESTIONS = [
    ("reversi", "/v1/reversi/legal-moves", {"board": OPENING, "color": "B"}),
    ("reversi", "/v1/reversi/legal-moves", {"board": ["BBB", "BBB"], "color": "W"}),
    ("reversi", "/v1/reversi/check-move", {"board": OPENING, "row": 2, "col": 3, "color": "B"}),
    ("reversi", "/v1/reversi/check-move", {"board": OPENING, "row": 3, "col": 3, "color": "B"}),
    ("reversi", "/v1/reversi/check-move", {"board": [list(".WB")], "row": 0, "col": 0,
                                           "color": "B"}),
    ("reversi", "/v1/reversi/check-move", {"board": OPENING, "square": "F5", "color": "B"}),
    ("tictactoe", "/v1/tictactoe/validate", {"board": ["XOX", "O O", "XOX"]}),
    ("tictactoe", "/v1/tictactoe/validate",
     {"board": ["XXXXO", "OO.OO", ".....", "XXXXO", "O...."], "k": 4}),
    # A kind whose questions only its face declares: its command comes from the registry.
    ("connect4", "/v1/connect4/legal-moves", {"board": FOUR}),
    ("connect4", "/v1/connect4/legal-moves", {"board": FOUR_WON, "k": 4}),
    ("connect4", "/v1/connect4/check-move", {"board": FOUR, "column": 3}),
    ("connect4", "/v1/connect4/check-move", {"board": FOUR_TO_WIN, "square": "A"}),
]  # fmt: skip


def ask(runner: CliRunner, game: str, question: bytes, source: str, tmp_path: Path) -> Result:
    if source == "file":
        path = tmp_path / "question.json"
        path.write_bytes(question)
        return runner.invoke(main, ["check", game, str(path)])
    args = ["check", game] if source == "stdin" else ["check", game, "-"]
    return runner.invoke(main, args, input=question)


@pytest.mark.parametrize("source", ["file", "stdin", "dash"])
@pytest.mark.parametrize(("game", "path", "question"), QUESTIONS)
def test_check_answers_as_the_endpoint_does(
    runner: CliRunner, client: TestClient, tmp_path: Path, source: str, game: str, path: str,
    question: dict[str, Any],
) -> None:  # fmt: skip
    result = ask(runner, game, json.dumps(question).encode(), source, tmp_path)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == client.post(path, json=question).json()


MALFORMED = [
    ("reversi", "/v1/reversi/legal-moves", b'{"board": ["..x"], "color": "B"}'),
    ("reversi", "/v1/reversi/legal-moves", b'{"board": ["...", "..."]}'),
    ("reversi", "/v1/reversi/legal-moves", b'{"board": ["..."], "color": "B"'),
    ("reversi", "/v1/reversi/check-move", b'{"board": ["..."], "row": 0, "col": 3, "color": "B"}'),
    ("reversi", "/v1/reversi/check-move", b'{"board": ["..."], "row": 0, "color": "B"}'),
    ("reversi", "/v1/reversi/check-move", b'{"board": ["..."], "square": "d1", "color": "B"}'),
    ("tictactoe", "/v1/tictactoe/validate", b'{"board": ["XO", "OX"], "k": 3}'),
    ("tictactoe", "/v1/tictactoe/validate", b'{"board": ["XOX", "O O", "XOX"], "n": 3}'),
    ("tictactoe", "/v1/tictactoe/validate", b"[]"),
    ("connect4", "/v1/connect4/check-move", json.dumps({"board": FOUR, "column": 7}).encode()),
    ("connect4", "/v1/connect4/check-move",
     json.dumps({"board": FOUR, "column": 1, "square": "b"}).encode()),
    ("connect4", "/v1/connect4/legal-moves",
     json.dumps({"board": ["X......", *FOUR[1:]]}).encode()),
    ("connect4", "/v1/connect4/legal-moves", b'{"board": 7}'),
]  # fmt: skip


@pytest.mark.parametrize(("game", "path", "question"), MALFORMED)
def test_a_malformed_question_is_the_endpoints_problem_and_exit_1(
    runner: CliRunner, client: TestClient, tmp_path: Path, game: str, path: str, question: bytes
) -> None:
    result = ask(runner, game, question, "stdin", tmp_path)
    assert result.exit_code == 1
    assert result.stdout == ""
    answer = client.post(path, content=question, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert json.loads(result.stderr) == answer.json()


def test_a_question_refused_by_the_rules_is_the_endpoints_problem(client: TestClient) -> None:
    # No command asks apply-move, but a question the rules refuse (``Question.refused``) is
    # answered offline with the problem the endpoint answers, not a traceback.
    from app.cli.check import answer
    from app.kinds.reversi.questions import APPLY_MOVE

    question = {"board": OPENING, "row": 0, "col": 0, "color": "B"}
    written, failed = answer(APPLY_MOVE, json.dumps(question).encode())
    endpoint = client.post("/v1/reversi/apply-move", json=question)
    assert failed
    assert endpoint.status_code == 422
    assert json.loads(written) == endpoint.json()


# Settings of the server, malformed: ``serve`` refuses each, ``check`` reads none of them.
MALFORMED_SERVER_SETTINGS = [
    ("port", "abc", "valid integer"),
    ("cors_origins", "https://a.example", "not JSON"),
    ("cors_origins", '["not a url"]', "not an origin"),
    ("store_url", "postgres://db", "pattern"),
    ("max_batch", "0", "greater than"),
    ("max_n", "0", "greater than"),
    ("signing_key_file", "/nonexistent/key.pem", "cannot be read"),
    ("signing_key_file", str(Path(__file__).parent / "__init__.py"), "not an unencrypted PEM"),
]


@pytest.mark.parametrize(("name", "value", "why"), MALFORMED_SERVER_SETTINGS)
def test_check_answers_whatever_the_servers_settings_say(
    runner: CliRunner, client: TestClient, name: str, value: str, why: str
) -> None:
    env = {f"ADJUDICATOR_{name.upper()}": value}
    question = {"board": ["XOX", "O O", "XOX"]}
    checked = runner.invoke(main, ["check", "tictactoe"], env=env, input=json.dumps(question))
    assert checked.exit_code == 0, checked.stderr
    assert json.loads(checked.stdout) == client.post("/v1/tictactoe/validate", json=question).json()
    served = runner.invoke(main, ["serve"], env=env)
    assert served.exit_code == 2
    [line] = served.stderr.splitlines()
    assert f"ADJUDICATOR_{name.upper()}" in line
    assert why in line


def test_check_from_the_installed_command_ignores_a_malformed_server_setting() -> None:
    question = {"board": OPENING, "row": 2, "col": 3, "color": "B"}
    result = subprocess.run(
        [*COMMAND, "check", "reversi"], input=json.dumps(question),
        env={**CLEAN_ENV, "ADJUDICATOR_PORT": "abc"}, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "legal": True, "reason": None, "flips": [[3, 3]], "flip_squares": ["d4"],
    }  # fmt: skip


def test_check_from_the_installed_command_reads_stdin(client: TestClient) -> None:
    question = {"board": OPENING, "color": "W"}
    result = subprocess.run(
        [*COMMAND, "check", "reversi"], input=json.dumps(question), env=CLEAN_ENV,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == client.post("/v1/reversi/legal-moves", json=question).text + "\n"


# --- games on a running service -------------------------------------------------------------


def test_game_commands_play_a_game_from_the_lobby_to_a_rematch(runner: CliRunner) -> None:
    """``adjudicator game …`` against a real server: an open game created, listed and joined,
    played to a resignation, a rematch made from both seats, a spectator token that reads a
    private game and cannot move; a refusal is the problem on stderr with exit status 1."""
    with uvicorn_server() as url:

        def run(*args: str, token: str | None = None, ok: bool = True) -> Any:
            flags = ["--url", url] + (["--token", token] if token else [])
            result = runner.invoke(main, ["game", args[0], *flags, *args[1:]])
            assert (result.exit_code == 0) is ok, result.output
            return json.loads(result.stdout if ok else result.stderr)

        created = run("create-game", "--body", '{"n": 3, "open": true, "visibility": "public"}')
        game_id, first = created["id"], created["tokens"]["1"]
        listed = run("list-games", "--param", "open=true", "--param", "game=tictactoe")
        assert game_id in [g["id"] for g in listed["games"]]
        joined = run("join-game", game_id, "--param", "Idempotency-Key=cli-join")
        second = joined["token"]
        assert run("join-game", game_id, "--param", "Idempotency-Key=cli-join")["token"] == second
        run("make-move", game_id, "--body", '{"square": "b2"}', token=first)
        refused = run("make-move", game_id, "--body", '{"square": "a1"}', token=first, ok=False)
        assert refused["code"] == "not_your_turn"
        run("make-move", game_id, "--body", '{"square": "a1"}', token=second)
        assert run("abort-game", game_id, token=first, ok=False)["code"] == "too_late_to_abort"
        run("resign", game_id, token=second)
        assert run("rematch", game_id, token=first)["rematch"] is None
        made = run("rematch", game_id, token=second)["rematch"]
        assert made["player"] == 1
        state = run("get-game", made["id"])
        assert (state["status"], state["n"]) == ("in_progress", 3)

        private = run("create-game", "--body", '{"n": 3, "visibility": "private"}')
        assert run("get-game", private["id"], ok=False)["code"] == "unauthorized"
        watcher = run("add-spectator", private["id"], token=private["tokens"]["1"])["token"]
        assert run("get-game", private["id"], token=watcher)["visibility"] == "private"
        moved = run("make-move", private["id"], "--body", '{"row": 0, "col": 0}', token=watcher,
                    ok=False)  # fmt: skip
        assert moved["code"] == "wrong_player"


def test_player_and_ratings_commands_play_a_rated_game_and_list_its_pool(
    runner: CliRunner, tmp_path: Path
) -> None:
    """``adjudicator player …`` and ``adjudicator ratings`` against a real server with an
    archive: players made (their keys shown once, stderr says so), read by id and by key; a
    rated game made and joined with their keys as ``--token`` and played with them; the pool's
    ratings, a page at a time; problems on stderr with exit status 1."""
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url:

        def run(*args: str, ok: bool = True) -> Any:
            result = runner.invoke(main, [*args, "--url", url])
            assert (result.exit_code == 0) is ok, result.output
            return json.loads(result.stdout if ok else result.stderr)

        made = runner.invoke(main, ["player", "new", "Ann", "--url", url])
        assert made.exit_code == 0, made.output
        ann = json.loads(made.stdout)
        assert set(ann) == {"id", "name", "key"}
        assert "shown only this once" in made.stderr
        bo = run("player", "new", "Bo")
        shown = run("player", "show", ann["id"])
        assert (shown["id"], shown["name"], shown["ratings"]) == (ann["id"], "Ann", {})
        assert run("player", "me", "--key", bo["key"])["id"] == bo["id"]

        body = '{"n": 3, "open": true, "rated": true}'
        game = run("game", "create-game", "--body", body, "--token", ann["key"])
        joined = run("game", "join-game", game["id"], "--token", bo["key"])
        assert joined["state"]["players"] == {"1": ann["id"], "2": bo["id"]}
        for i, square in enumerate(["a1", "a2", "b1", "b2", "c1"]):
            key = (ann, bo)[i % 2]["key"]
            run("game", "make-move", game["id"], "--body", f'{{"square": "{square}"}}',
                "--token", key)  # fmt: skip
        pool = game["pool"]
        listed = run("ratings", pool)
        assert [row["name"] for row in listed["players"]] == ["Ann", "Bo"]
        assert listed["next"] is None
        first = run("ratings", pool, "--limit", "1")
        assert [row["id"] for row in first["players"]] == [ann["id"]]
        second = run("ratings", pool, "--limit", "1", "--cursor", first["next"])
        assert [row["id"] for row in second["players"]] == [bo["id"]]
        assert run("player", "show", bo["id"])["ratings"][pool]["games"] == 1

        assert run("player", "show", "nobody", ok=False)["code"] == "player_not_found"
        assert run("player", "me", "--key", "not-a-key", ok=False)["code"] == "unauthorized"
        assert run("player", "new", "", ok=False)["code"] == "validation_error"
    down = runner.invoke(main, ["ratings", "x", "--url", f"http://127.0.0.1:{free_port()}"])
    assert down.exit_code == 1
    assert "127.0.0.1" in down.output


def test_tournament_commands_make_pair_play_and_follow_a_round_robin(
    runner: CliRunner, tmp_path: Path
) -> None:
    """``adjudicator tournament …`` against a real server with an archive: a round robin made
    with the organiser's key, a player entered and another withdrawn, each round paired and its
    games played by their players' keys (``adjudicator game make-move``), the finished document,
    its TRF-16 report, and its events followed one JSON line each, resumed with --after;
    problems on stderr with exit status 1."""
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url:

        def run(*args: str, ok: bool = True) -> Any:
            result = runner.invoke(main, [*args, "--url", url])
            assert (result.exit_code == 0) is ok, result.output
            return json.loads(result.stdout if ok else result.stderr)

        org, ann, bo, cy, di = (run("player", "new", name) for name in
                                ("Org", "Ann", "Bo", "Cy", "Di"))  # fmt: skip
        keys = {p["id"]: p["key"] for p in (ann, bo, cy, di)}
        made = run("tournament", "new", "--name", "Club", "--system", "round_robin",
                   "--game", '{"n": 3}', "--player", ann["id"], "--player", bo["id"],
                   "--key", org["key"])  # fmt: skip
        assert (made["name"], made["status"], made["organiser"]) == ("Club", "registering",
                                                                      org["id"])  # fmt: skip
        assert [p["id"] for p in made["players"]] == [ann["id"], bo["id"]]
        tid = made["id"]
        run("tournament", "enter", tid, cy["id"], "--key", org["key"])
        run("tournament", "enter", tid, di["id"], "--key", org["key"])
        withdrawn = run("tournament", "withdraw", tid, di["id"], "--key", org["key"])
        assert {p["id"]: p.get("withdrawn") for p in withdrawn["players"]}[di["id"]] == 0
        refused = run("tournament", "pair", tid, "--key", ann["key"], ok=False)
        assert refused["code"] == "not_organiser"
        for number in range(1, withdrawn["rounds_planned"] + 1):
            paired = run("tournament", "pair", tid, "--key", org["key"])
            assert paired["rounds"][-1]["number"] == number
            for pairing in paired["rounds"][-1]["pairings"]:
                if pairing["game"] is None:
                    continue
                seats = [keys[pairing["players"]["1"]], keys[pairing["players"]["2"]]]
                for i, square in enumerate(["a1", "a2", "b1", "b2", "c1"]):
                    run("game", "make-move", pairing["game"], "--body",
                        f'{{"square": "{square}"}}', "--token", seats[i % 2])  # fmt: skip
        done = run("tournament", "show", tid)
        assert done["status"] == "finished"
        points = {row["player"]: row["points"] for row in done["standings"]}
        assert points == {ann["id"]: 2, bo["id"]: 2, cy["id"]: 2, di["id"]: 0}  # a win, a bye
        report = runner.invoke(main, ["tournament", "show", tid, "--trf", "--url", url])
        assert report.exit_code == 0, report.output
        assert report.stdout.startswith("012 Club")

        followed = runner.invoke(main, ["tournament", "follow", tid, "--url", url])
        assert followed.exit_code == 0, followed.output
        events = [json.loads(line) for line in followed.stdout.splitlines()]
        assert [e["event"] for e in events if e["event"] != "result"] == [
            "round", "round", "round", "end"
        ]  # fmt: skip
        assert [e["data"]["round"] for e in events if e["event"] == "round"] == [1, 2, 3]
        assert len([e for e in events if e["event"] == "result"]) == 3
        assert [e["id"] for e in events] == sorted(e["id"] for e in events)
        resumed = runner.invoke(main, ["tournament", "follow", tid, "--after",
                                       str(events[-2]["id"]), "--url", url])  # fmt: skip
        assert [json.loads(line) for line in resumed.stdout.splitlines()] == events[-1:]
        assert run("tournament", "show", "nothing", ok=False)["code"] == "tournament_not_found"
        gone = run("tournament", "follow", "nothing", ok=False)
        assert gone["code"] == "tournament_not_found"
    bad = runner.invoke(main, ["tournament", "new", "--name", "X", "--system", "swiss",
                               "--game", "[1]", "--key", "k", "--url", url])  # fmt: skip
    assert bad.exit_code == 2
    assert "JSON object" in bad.output


def test_seek_and_challenge_commands_make_games_told_on_the_players_streams(
    runner: CliRunner, tmp_path: Path
) -> None:
    """``adjudicator seek …`` and ``challenge …`` against a real server with an archive: two
    seeks that fit make a game, printed on both players' streams (``player follow``); a
    challenge declined and one accepted; problems on stderr with exit status 1."""
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url:

        def run(*args: str, ok: bool = True) -> Any:
            result = runner.invoke(main, [*args, "--url", url])
            assert (result.exit_code == 0) is ok, result.output
            text = result.stdout if ok else result.stderr
            return json.loads(text) if text.strip() else None

        def followed(player: dict[str, Any], count: int) -> list[Any]:
            args = ["player", "follow", player["id"], "--count", str(count)]
            result = runner.invoke(main, [*args, "--key", player["key"], "--url", url])
            assert result.exit_code == 0, result.output
            return [json.loads(line) for line in result.stdout.splitlines()]

        ann, bo = run("player", "new", "Ann"), run("player", "new", "Bo")
        waiting = run("seek", "new", "--game", '{"n": 3}', "--range", "1000", "2000",
                      "--key", ann["key"])  # fmt: skip
        assert waiting["game"] is None
        assert [s["id"] for s in run("seek", "list", "--game", "tictactoe")["seeks"]] == [
            waiting["id"]
        ]
        made = run("seek", "new", "--game", '{"game": "tictactoe", "n": 3}', "--key", bo["key"])
        [told] = followed(ann, 1)
        assert told["event"] == "game"
        assert (told["data"]["game"], told["data"]["seat"]) == (made["game"], 3 - made["seat"])
        assert run("seek", "list")["seeks"] == []
        mine = run("seek", "new", "--game", '{"n": 4}', "--rated", "--key", ann["key"])
        assert run("seek", "withdraw", mine["id"], "--key", bo["key"], ok=False)["code"] == (
            "wrong_player"
        )
        run("seek", "withdraw", mine["id"], "--key", ann["key"])

        offered = run("challenge", "new", bo["id"], "--game", '{"n": 3}', "--key", ann["key"])
        assert run("challenge", "list", "--key", bo["key"])["incoming"] == [offered]
        run("challenge", "decline", offered["id"], "--key", bo["key"])
        assert [e["event"] for e in followed(ann, 2)] == ["game", "challenge_declined"]
        again = run("challenge", "new", bo["id"], "--game", '{"n": 3}', "--key", ann["key"])
        game = run("challenge", "accept", again["id"], "--key", bo["key"])
        assert followed(bo, 4)[-1]["data"] == {
            "game": game["game"], "seat": game["seat"], "via": "challenge",
            "challenge": again["id"],
        }  # fmt: skip
        gone = run("challenge", "withdraw", again["id"], "--key", ann["key"], ok=False)
        assert gone["code"] == "challenge_not_found"
        assert run("challenge", "new", ann["id"], "--game", '{"n": 3}', "--key", ann["key"],
                   ok=False)["code"] == "validation_error"  # fmt: skip


def test_game_commands_are_the_game_routes(runner: CliRunner) -> None:
    listed = runner.invoke(main, ["game", "--help"])
    assert listed.exit_code == 0
    for command in ("create-game", "join-game", "list-games", "make-move", "abort-game",
                    "rematch", "add-spectator", "game-events", "delete-game"):  # fmt: skip
        assert command in listed.output
    down = runner.invoke(
        main, ["game", "get-game", "x", "--url", f"http://127.0.0.1:{free_port()}"]
    )
    assert down.exit_code == 1
    assert "127.0.0.1" in down.output


# What a client command's help imports (a game command's, a player's, the ratings'): nothing of
# the service (no FastAPI, Pydantic or app built), and no HTTP client until a request is sent;
# the routes come from the packaged spec.
GAME_HELP_IMPORTS = """
import sys
from app.cli import main
try:
    main(["game", "make-move", "--help"])
except SystemExit as ended:
    assert ended.code == 0, ended.code
heavy = ("fastapi", "starlette", "pydantic", "uvicorn", "httpx", "app.main", "app.settings")
print([name for name in heavy if name in sys.modules])
"""


@pytest.mark.parametrize(
    ("command", "named"),
    [
        (["game", "make-move"], "make-move"),
        (["player", "new"], "NAME"),
        (["ratings"], "POOL"),
        (["tournament", "new"], "--system"),
        (["tournament", "follow"], "--after"),
        (["seek", "new"], "--range"),
        (["challenge", "accept"], "ID"),
        (["player", "follow"], "--count"),
    ],
)
def test_a_client_commands_help_builds_nothing_of_the_service(
    command: list[str], named: str
) -> None:
    code = GAME_HELP_IMPORTS.replace('["game", "make-move", "--help"]', repr([*command, "--help"]))
    done = subprocess.run(
        [sys.executable, "-c", code], env=CLEAN_ENV, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert named in done.stdout
    assert done.stdout.splitlines()[-1] == "[]"
