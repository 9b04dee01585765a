"""Servers the tests start themselves: on 127.0.0.1, a free port, a temporary directory."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import redis

from app.server import BOUNDED_PROTOCOL

# Real-server tests create many games and send many batches from 127.0.0.1: they turn the
# per-client limits off.
NO_CREATE_LIMIT = {
    "ADJUDICATOR_CREATE_RATE_PER_MINUTE": "0", "ADJUDICATOR_BATCH_ITEMS_PER_MINUTE": "0",
}  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def require_binary(name: str) -> str:
    """The binary's path; without it, skip locally with the reason, fail under CI=true."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (apt-get install -y {name})"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{message}; CI must run these tests")
        pytest.skip(message)
    return path


@contextmanager
def redis_server(directory: Path, port: int | None = None) -> Iterator[str]:
    """A throwaway redis-server (no persistence); yields its URL and stops it afterwards."""
    binary = require_binary("redis-server")
    port = port or free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(directory), "--daemonize", "no", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_for(lambda: redis.Redis.from_url(url, socket_timeout=1).ping(), "redis-server")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def wait_for(probe: Callable[[], object], what: str, seconds: float = 15) -> None:
    """Call ``probe`` until it returns truthy, for at most ``seconds`` (bounded polling)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if probe():
                return
        except Exception:  # not up yet: refused, reset, loading…
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not come up within {seconds} s")
        time.sleep(0.05)


@contextmanager
def uvicorn_server(env: dict[str, str] | None = None, log: Path | None = None) -> Iterator[str]:
    """``uvicorn app.main:app`` over the bounded protocol (the README's configuration for plain
    uvicorn) on a free loopback port, with the per-client creation limit off and ``env`` added
    to the environment (its output into ``log``, if given); yields its URL and stops it
    afterwards."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
               "--port", str(port), "--log-level", "warning", "--http", BOUNDED_PROTOCOL,
               "--timeout-graceful-shutdown", "3"]  # event streams may still be open  # fmt: skip
    sink = log.open("wb") if log else None
    with sink or nullcontext():
        process = subprocess.Popen(
            command, env={**os.environ, **NO_CREATE_LIMIT, **(env or {})}, stdout=sink,
            stderr=sink,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/healthz", timeout=1).status_code == 200, url)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


@dataclass(frozen=True)
class Served:
    """A service process the test started: its base URL and its process id."""

    url: str
    pid: int

    def rss_bytes(self) -> int:
        """The process's resident memory now (Linux ``/proc``)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise LookupError("no VmRSS")

    def open_files(self) -> int:
        return len(list(Path(f"/proc/{self.pid}/fd").iterdir()))


@contextmanager
def adjudicator_command(env: dict[str, str], log: Path) -> Iterator[Served]:
    """The ``adjudicator`` command (what the README and the Docker image run) on a free
    loopback port, with ``env`` added (the per-client limits off); stopped afterwards."""
    port = free_port()
    script = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "app.cli"]
    settings = {"ADJUDICATOR_HOST": "127.0.0.1", "ADJUDICATOR_PORT": str(port),
                "ADJUDICATOR_LOG_LEVEL": "warning"}  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, env={**os.environ, **NO_CREATE_LIMIT, **settings, **env}, stdout=sink,
            stderr=sink,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/healthz", timeout=1).status_code == 200, url)
        yield Served(url, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=15)
