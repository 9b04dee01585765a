"""SIGTERM to the ``adjudicator`` command: a request in flight still gets its full answer, open
event streams are closed once the grace period is over, and the process exits cleanly."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.servers import NO_CLIENT_LIMITS, free_port, wait_for

GRACE_SECONDS = 2
# How uvicorn ends after a graceful shutdown: it re-raises the SIGTERM it caught (143 in a shell).
STOPPED_BY_SIGTERM = (0, -signal.SIGTERM)


@pytest.fixture
def server() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    port = free_port()
    script = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "app.cli"]
    env = {
        **os.environ,
        "ADJUDICATOR_PORT": str(port),
        "ADJUDICATOR_LOG_LEVEL": "warning",
        "ADJUDICATOR_SHUTDOWN_GRACE_SECONDS": str(GRACE_SECONDS),
    }
    process = subprocess.Popen(command, env=env)
    try:
        wait_for(
            lambda: httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200,
            "adjudicator",
        )
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def read_response(sock: socket.socket) -> tuple[str, dict[str, str], bytes]:
    """Status line, headers and body of an answer the server ends by closing the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {
        name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)
    }
    return status, headers, body


def test_a_request_in_flight_at_sigterm_gets_its_whole_answer(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    process, port = server
    body = json.dumps({"board": ["XOX", "O O", "XOX"]}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"POST /v1/tictactoe/validate HTTP/1.1\r\nHost: test\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
        )
        sock.sendall(body[:10])  # the request is now in flight: headers and part of its body
        time.sleep(0.5)  # let the server take it up before it is told to stop
        process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert process.poll() is None, "the server must wait for the request in flight"
        sock.sendall(body[10:])
        status, headers, answer = read_response(sock)

    assert status.startswith("HTTP/1.1 200")
    assert headers["connection"] == "close"  # shutting down: no keep-alive
    assert json.loads(answer)["next"] == "X"
    assert process.wait(timeout=GRACE_SECONDS + 10) in STOPPED_BY_SIGTERM


def end_of_a_live_stream_at_sigterm(process: subprocess.Popen[bytes], base: str) -> str:
    """What an event stream of a game in progress receives once the server gets SIGTERM: it
    must end cleanly (a stream left hanging would end in ReadTimeout: keep-alives come every
    15 s; one cut mid-body in RemoteProtocolError)."""
    game = httpx.post(f"{base}/v1/games", json={"n": 3}).json()
    with httpx.stream("GET", f"{base}/v1/games/{game['id']}/events", timeout=10) as stream:
        assert stream.status_code == 200
        process.send_signal(signal.SIGTERM)
        return b"".join(stream.iter_raw()).decode()


def test_open_event_streams_end_cleanly_at_sigterm(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    process, port = server
    received = end_of_a_live_stream_at_sigterm(process, f"http://127.0.0.1:{port}")
    assert received.endswith(": the server is stopping: reconnect with Last-Event-ID\n\n")
    assert process.wait(timeout=10) in STOPPED_BY_SIGTERM


def test_plain_uvicorn_with_an_open_stream_exits_at_sigterm() -> None:
    # uvicorn's default waits for open responses without a deadline.
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
               "--port", str(port), "--log-level", "warning"]  # fmt: skip
    process = subprocess.Popen(command, env={**os.environ, **NO_CLIENT_LIMITS})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{base}/healthz", timeout=1).status_code == 200, "uvicorn")
        assert "the server is stopping" in end_of_a_live_stream_at_sigterm(process, base)
        assert process.wait(timeout=10) in STOPPED_BY_SIGTERM
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
