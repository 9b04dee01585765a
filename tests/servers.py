"""Servers the tests start themselves: on 127.0.0.1, a free port, a temporary directory."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from redis.crc import key_slot

from app.server import BOUNDED_PROTOCOL

# Real-server tests and the benchmarks create many games and send many requests from 127.0.0.1:
# they turn the per-client limits off (BATCH_ITEMS is the older code's, for bench baselines).
NO_CLIENT_LIMITS = {
    "ADJUDICATOR_CREATE_RATE_PER_MINUTE": "0", "ADJUDICATOR_CLIENT_CPU_MS_PER_MINUTE": "0",
    "ADJUDICATOR_AUTH_FAILURES_PER_MINUTE": "0", "ADJUDICATOR_CLIENT_SHARE": "1",
    "ADJUDICATOR_HISTORY_MOVES_PER_MINUTE": "0", "ADJUDICATOR_BATCH_ITEMS_PER_MINUTE": "0",
    "ADJUDICATOR_CLIENT_OPEN_GAMES": "1000000",
    # A load generator creates its games before it plays them: every place may hold them.
    "ADJUDICATOR_UNSTARTED_GAMES_SHARE": "1",
}  # fmt: skip


# A server a test starts archives nothing unless the test names an archive: the default, a
# SQLite file in the working directory, would be written into the checkout.
NO_ARCHIVE = {"ADJUDICATOR_ARCHIVE_URL": "none"}


def free_port() -> int:
    """A loopback port nothing listens on, for a server about to start: below the kernel's
    ephemeral range, where no outgoing connection takes it before the server binds it (on a
    busy machine one did: "Address already in use"). A port the kernel gives out if that range
    cannot be read. Each of pytest-xdist's workers has its own residue of the range, and never
    one this process handed out before: a server given one may not have
    bound it yet (a cluster's nodes got the same port twice, and one of them never started)."""
    if EPHEMERAL_LOW > FIRST_PORT + 1000:
        for _ in range(100):
            port = PORTS.randrange(FIRST_PORT + WORKER, EPHEMERAL_LOW, WORKERS)
            if port in HANDED_OUT:
                continue
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:  # in use: another
                    continue
                HANDED_OUT.add(port)
                return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        given: int = sock.getsockname()[1]
        return given


def ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


FIRST_PORT = 20_000  # above the usual services' ports (8000, 6379, …)
EPHEMERAL_LOW = ephemeral_low()
PORTS = random.SystemRandom()  # its own: Hypothesis seeds the random module in its tests
HANDED_OUT: set[int] = set()
WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0) % WORKERS


def require_binary(name: str, package: str | None = None) -> str:
    """The binary's path; without it, skip locally with the reason (and the Debian ``package``
    that has it, if not named after it), fail under CI=true."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (apt-get install -y {package or name})"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"{message}; CI must run these tests")
        pytest.skip(message)
    return path


@contextmanager
def redis_server(directory: Path, port: int | None = None) -> Iterator[str]:
    """A throwaway redis-server (no persistence; DEBUG allowed from loopback, so that a test can
    make it sleep); yields its URL and stops it afterwards."""
    binary = require_binary("redis-server")
    port = port or free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(directory), "--daemonize", "no", "--loglevel", "warning",
         "--enable-debug-command", "local"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_for(lambda: redis.Redis.from_url(url, socket_timeout=1).ping(), "redis-server")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@dataclass
class ClusterNode:
    """One redis-server of a test cluster: its port, and its process while it runs."""

    port: int
    bus: int  # the cluster bus port (by default port + 10000, which may not exist)
    directory: Path
    persist: bool = False  # an append-only file written before each reply: a restart keeps all
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        persistence = ["--appendonly", "yes", "--appendfsync", "always"] if self.persist else []
        binary = require_binary("redis-server")
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--dir", str(self.directory), "--daemonize", "no",
             "--loglevel", "warning", "--cluster-enabled", "yes",
             "--cluster-port", str(self.bus), "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", "1000",
             "--cluster-require-full-coverage", "no", "--cluster-replica-validity-factor", "0",
             "--cluster-allow-reads-when-down", "no", "--enable-debug-command", "local",
             *(persistence or ["--appendonly", "no"])],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self.ping, f"redis-server on port {self.port}")

    def ping(self) -> bool:
        return bool(redis.Redis(port=self.port, socket_timeout=1).ping())

    def stop(self) -> None:
        """Kill it (as a crashed machine would go); its cluster config stays for a restart."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@dataclass
class Cluster:
    """A Redis Cluster the test started: its nodes (primaries first) and its seed URL."""

    nodes: list[ClusterNode]
    url: str

    def primary_of(self, key: str) -> ClusterNode:
        """The node that now serves ``key``'s slot (asked of any running node)."""
        slot = key_slot(key.encode())
        for node in self.nodes:
            if node.process is None:
                continue
            for start, end, primary, *_ in redis.Redis(port=node.port).cluster("slots"):
                if start <= slot <= end:
                    port = int(primary[1])
                    return next(n for n in self.nodes if n.port == port)
        raise LookupError(f"no running node serves slot {slot}")

    def serves(self, node: ClusterNode) -> bool:
        """The node is up and its cluster state is ``ok`` (a restarted primary takes a while)."""
        info = redis.Redis(port=node.port, decode_responses=True).cluster("info")
        return bool(info["cluster_state"] == "ok")

    def is_primary(self, node: ClusterNode) -> bool:
        info = redis.Redis(port=node.port).info("replication")
        return bool(info["role"] == "master")

    def wait_replicated(self) -> None:
        """Until every replica has every write its primary has (replication is asynchronous:
        a primary killed before its replica caught up takes its last writes with it)."""

        def caught_up() -> bool:
            for node in self.nodes:
                if node.process is None or not self.is_primary(node):
                    continue
                info = redis.Redis(port=node.port).info("replication")
                offset = info["master_repl_offset"]
                replicas = [info[k] for k in info if k.startswith("slave") and k[5:].isdigit()]
                if any(replica["offset"] != offset for replica in replicas):
                    return False
            return True

        wait_for(caught_up, "the replicas")


@contextmanager
def redis_cluster(
    directory: Path, primaries: int = 3, replicas: int = 0, persist: bool = False
) -> Iterator[Cluster]:
    """A Redis Cluster of ``primaries`` (each with ``replicas``) on free loopback ports, made
    with ``redis-cli --cluster create``; a primary that is down leaves its slots unserved
    (``cluster-require-full-coverage no``) and the other slots served; with ``persist`` a node
    killed and started again has every write it answered. Stopped afterwards."""
    cli = require_binary("redis-cli")
    nodes = [
        ClusterNode(free_port(), free_port(), directory / f"node{i}", persist)
        for i in range(primaries * (1 + replicas))
    ]
    try:
        for node in nodes:
            node.start()
        subprocess.run(
            [cli, "--cluster", "create", *(f"127.0.0.1:{node.port}" for node in nodes),
             "--cluster-replicas", str(replicas), "--cluster-yes"],
            check=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        url = "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in nodes[:primaries])

        def ready() -> bool:
            for node in nodes:
                info = redis.Redis(port=node.port).cluster("info")
                if info["cluster_state"] != "ok":
                    return False
            return True

        wait_for(ready, "the Redis Cluster")
        yield Cluster(nodes, url)
    finally:
        for node in nodes:
            node.stop()


def wait_for(probe: Callable[[], object], what: str, seconds: float = 60) -> None:
    """Call ``probe`` until it returns truthy, for at most ``seconds`` (bounded polling). The
    bound only keeps a test from hanging: what it waits for takes a second or two, but on a
    loaded machine (the suite's workers and other work on two cores) the adjudicator command
    with two workers once took more than 15 s to answer."""
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
               "--timeout-graceful-shutdown", "3",  # event streams may still be open
               "--no-proxy-headers"]  # the app reads forwarding headers itself  # fmt: skip
    sink = log.open("wb") if log else None
    with sink or nullcontext():
        process = subprocess.Popen(
            command, env={**os.environ, **NO_CLIENT_LIMITS, **NO_ARCHIVE, **(env or {})},
            stdout=sink, stderr=sink,
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

    def read_bytes(self) -> int:
        """Bytes the process has read so far, from sockets and files alike (Linux ``/proc``:
        ``rchar``)."""
        for line in Path(f"/proc/{self.pid}/io").read_text().splitlines():
            if line.startswith("rchar:"):
                return int(line.split()[1])
        raise LookupError("no rchar")


@contextmanager
def adjudicator_command(
    env: dict[str, str], log: Path, *, reader: bool = False, cwd: Path | None = None
) -> Iterator[Served]:
    """The ``adjudicator`` command (what the README and the Docker image run) on a free
    loopback port, with ``env`` added (the per-client limits off); stopped afterwards. A
    ``reader``'s server is the README's first command as a reader runs it: the settings'
    defaults, per-client limits included, and no ``ADJUDICATOR_*`` variable of this
    environment; ``cwd`` its working directory."""
    port = free_port()
    script = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "app.cli"]
    settings = {"ADJUDICATOR_HOST": "127.0.0.1", "ADJUDICATOR_PORT": str(port),
                "ADJUDICATOR_LOG_LEVEL": "warning"}  # fmt: skip
    base = (
        without_settings(os.environ) if reader
        else {**os.environ, **NO_CLIENT_LIMITS, **NO_ARCHIVE}
    )  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, env={**base, **settings, **env}, stdout=sink, stderr=sink, cwd=cwd
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/healthz", timeout=1).status_code == 200, url)
        yield Served(url, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=15)


def without_settings(environment: Mapping[str, str]) -> dict[str, str]:
    """``environment`` without the service's variables (``ADJUDICATOR_*``)."""
    return {k: v for k, v in environment.items() if not k.startswith("ADJUDICATOR_")}


def postgres_binary(name: str) -> str:
    """A PostgreSQL server binary: on the PATH, or where Debian's ``postgresql`` package puts
    it (``/usr/lib/postgresql/<major>/bin``, the newest); missing, as ``require_binary``."""
    found = shutil.which(name) or next(
        (str(path) for path in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                                      key=lambda path: int(path.parts[-3]), reverse=True)),
        None,
    )  # fmt: skip
    if found is None:
        require_binary(name, "postgresql")  # skips, or fails under CI
    assert found is not None
    return found


@contextmanager
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL server on a free loopback port (its data in a new temporary
    directory, removed afterwards; no fsync: a test's data need not survive the machine), its
    database ``adjudicator`` made; yields its URL
    (``postgresql://adjudicator@127.0.0.1:PORT/adjudicator``) and stops it afterwards.
    PostgreSQL refuses to run as root: as root, it runs as the ``postgres`` user that Debian's
    package makes (so its directory is one of its own under /tmp, not under pytest's, which
    only root may enter)."""
    initdb, postgres = postgres_binary("initdb"), postgres_binary("postgres")
    directory = Path(tempfile.mkdtemp(prefix="adjudicator-postgres-"))
    data, sockets = directory / "data", directory / "sockets"
    sockets.mkdir()
    as_user: dict[str, Any] = {}
    if os.geteuid() == 0:
        import pwd

        account = pwd.getpwnam("postgres")
        os.chown(directory, account.pw_uid, account.pw_gid)
        os.chown(sockets, account.pw_uid, account.pw_gid)
        as_user = {"user": account.pw_uid, "group": account.pw_gid}
    subprocess.run(
        [initdb, "-D", str(data), "-U", "adjudicator", "-A", "trust", "-E", "UTF8",
         "--no-sync", "--no-instructions"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **as_user,
    )  # fmt: skip
    port = free_port()
    process = subprocess.Popen(
        [postgres, "-D", str(data), "-p", str(port), "-h", "127.0.0.1", "-k", str(sockets),
         "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
         "-c", "max_connections=200"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **as_user,
    )  # fmt: skip
    server = f"postgresql://adjudicator@127.0.0.1:{port}"

    def ready() -> bool:
        async def made() -> None:
            import asyncpg

            connection = await asyncpg.connect(f"{server}/postgres", timeout=2)
            try:
                await connection.execute("CREATE DATABASE adjudicator")
            finally:
                await connection.close()

        asyncio.run(made())
        return True

    try:
        wait_for(ready, "postgres")
        yield f"{server}/adjudicator"
    finally:
        process.send_signal(signal.SIGINT)  # a fast shutdown: connections closed, no wait
        process.wait(timeout=30)
        shutil.rmtree(directory, ignore_errors=True)
