"""A bounded HTTP/1.1 load generator in plain asyncio, for machines without wrk.

Each connection sends one request at a time over keep-alive (like wrk without pipelining) until
the deadline, and records each request's latency. Slower than wrk per request, so ratios between
scenarios measured with it are comparable with each other, not with wrk's figures.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

Request = tuple[str, str, dict[str, str], bytes]  # method, path, headers, body


def encode(host: str, request: Request) -> bytes:
    method, path, headers, body = request
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@dataclass
class LoadResult:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int


async def _connection(
    host: str, port: int, requests: Iterator[Request], deadline: float, latencies: list[float]
) -> int:
    reader, writer = await asyncio.open_connection(host, port)
    errors = 0
    try:
        while time.perf_counter() < deadline:
            payload = encode(f"{host}:{port}", next(requests))
            start = time.perf_counter()
            writer.write(payload)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - start)
            errors += status >= 400
    finally:
        writer.close()
    return errors


async def _run(
    host: str,
    port: int,
    requests_for: Callable[[int], Iterator[Request]],
    connections: int,
    duration: float,
) -> LoadResult:
    latencies: list[float] = []
    start = time.perf_counter()
    deadline = start + duration
    errors = await asyncio.gather(
        *(_connection(host, port, requests_for(i), deadline, latencies) for i in range(connections))
    )
    elapsed = time.perf_counter() - start
    ordered = sorted(latencies)
    return LoadResult(
        requests_per_second=len(ordered) / elapsed,
        p50_ms=statistics.median(ordered) * 1e3,
        p99_ms=ordered[int(len(ordered) * 0.99)] * 1e3,
        errors=sum(errors),
    )


def load(
    host: str,
    port: int,
    requests_for: Callable[[int], Iterator[Request]],
    connections: int,
    duration: float,
) -> LoadResult:
    """Run ``connections`` keep-alive connections for ``duration`` seconds.

    ``requests_for(i)`` yields connection i's requests in order (so a connection can play its
    own game).
    """
    return asyncio.run(_run(host, port, requests_for, connections, duration))
