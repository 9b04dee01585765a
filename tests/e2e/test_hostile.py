"""Hostile connections against the ``adjudicator`` command: every bound of ``app/server.py``.

Small and bounded (each attack sends at most a few MiB and holds at most a few hundred
connections); the full figures are ``bench/hostile.py``'s. Each answer is checked against the
problem table, and the server's log must show no traceback.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from app.contract.problems import (
    HEADERS_TOO_LARGE,
    MALFORMED_HTTP,
    PAYLOAD_TOO_LARGE,
    REQUEST_TIMEOUT,
    TOO_MANY_CONNECTIONS,
    TRANSFER_CODING_NOT_IMPLEMENTED,
    URL_TOO_LONG,
    ProblemType,
)
from tests.servers import Served, adjudicator_command, redis_server

LIMITS = {
    "ADJUDICATOR_MAX_CONNECTIONS": "40",
    "ADJUDICATOR_HEADER_TIMEOUT_SECONDS": "1",
    "ADJUDICATOR_BODY_TIMEOUT_SECONDS": "1",
    "ADJUDICATOR_KEEP_ALIVE_SECONDS": "1",
    "ADJUDICATOR_MAX_PIPELINED_REQUESTS": "4",
}
WAIT = 15  # seconds a test waits for an answer at most: a bound, not a figure


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile") / "server.log"


@pytest.fixture(scope="module")
def server(log: Path) -> Iterator[Served]:
    with adjudicator_command(LIMITS, log) as served:
        yield served
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-4000:]


def connect(served: Served, source: str = "127.0.0.1") -> socket.socket:
    """A connection to the server from the loopback address ``source`` (127.0.0.0/8: each
    address is a client of its own)."""
    host, port = served.url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=WAIT, source_address=(source, 0))


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def assert_problem(answer: bytes, problem: ProblemType) -> dict[str, object]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {problem.status} "), lines[0]
    headers = {name.lower(): value for name, _, value in (h.partition(": ") for h in lines[1:])}
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    assert headers["x-content-type-options"] == "nosniff"
    document: dict[str, object] = json.loads(body)
    assert document["code"] == problem.code
    assert document["status"] == problem.status
    assert document["type"] == f"/problems/{problem.code}"
    return document


def healthy(served: Served) -> None:
    assert httpx.get(f"{served.url}/healthz", timeout=WAIT).status_code == 200


def test_a_long_url_is_414(server: Served) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        assert "8192" in str(assert_problem(read_all(sock), URL_TOO_LONG)["detail"])
    healthy(server)


def test_too_many_header_fields_is_431(server: Served) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n" + b"X-A: b\r\n" * 101 + b"\r\n")
        assert "100" in str(assert_problem(read_all(sock), HEADERS_TOO_LARGE)["detail"])


@pytest.mark.parametrize("pieces", [1, 40], ids=["whole", "in-pieces"])
def test_a_head_over_the_byte_limit_is_431(server: Served, pieces: int) -> None:
    head = b"GET /healthz HTTP/1.1\r\nX-A: " + b"b" * 20_000 + b"\r\n\r\n"
    size = len(head) // pieces + 1
    with connect(server) as sock:
        try:
            for start in range(0, len(head), size):
                sock.sendall(head[start : start + size])
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the last piece: the answer is already waiting
        assert_problem(read_all(sock), HEADERS_TOO_LARGE)


def test_a_header_flood_keeps_memory_bounded(server: Served) -> None:
    before = server.rss_bytes()
    sent = 0
    with connect(server) as sock:
        chunk = b"X-Flood: " + b"f" * 1000 + b"\r\n"
        try:
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")
            while sent < 8 * 1024 * 1024:  # the flood the server refuses at 16 KiB
                sock.sendall(chunk * 64)
                sent += len(chunk) * 64
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = read_all(sock)
    assert_problem(answer, HEADERS_TOO_LARGE)  # not lost: the reset comes after the answer
    assert server.rss_bytes() - before < 16 * 1024 * 1024
    healthy(server)


# What the server may read of a connection after answering it: the read its answer came from,
# and what it drops after (UNREAD_KEPT, in reads of up to 256 KiB) — not what the client sends.
READ_AFTER_ANSWER = 1024 * 1024


def flood_after_answer(served: Served, start: bytes) -> tuple[int, int, bytes]:
    """Send ``start``, then up to 256 MiB more, until the server stops taking it (the send
    stalls, and the server closes: a reset); the bytes sent after ``start``, the bytes the
    server read meanwhile, and its answer."""
    before = served.read_bytes()
    with connect(served) as sock:
        sent = send_until_refused(sock, start, b"x" * 65536, 256 * 1024 * 1024)
        answer = read_all(sock)
    return sent, served.read_bytes() - before, answer


def test_after_a_refusal_the_server_reads_no_more_and_closes(server: Served) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Flood: " + b"f" * 20_000
    sent, read, answer = flood_after_answer(server, head)
    assert_problem(answer, HEADERS_TOO_LARGE)  # the answer, then the end: closed
    assert read < READ_AFTER_ANSWER < sent  # not read and dropped for as long as it comes
    healthy(server)


def test_an_answer_before_the_body_closes_the_connection_without_reading_it(
    server: Served,
) -> None:
    head = (
        b"POST /v1/tictactoe/validate-batch HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/json\r\nContent-Length: 268435456\r\n\r\n"
    )
    sent, read, answer = flood_after_answer(server, head)
    assert_problem(answer, PAYLOAD_TOO_LARGE)  # the app's answer, given before the body
    assert read < READ_AFTER_ANSWER < sent  # and no reset at once: it lingered, reading nothing
    healthy(server)


def test_a_silent_connection_is_closed(server: Served) -> None:
    with connect(server) as sock:
        assert read_all(sock) == b""  # closed by the server, without an answer


def test_a_trickling_head_is_408(server: Served) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never finished
        assert "1 s" in str(assert_problem(read_all(sock), REQUEST_TIMEOUT)["detail"])


def live_games(served: Served) -> float:
    metrics = httpx.get(f"{served.url}/metrics", timeout=WAIT).text
    (value,) = (
        line.split()[1]
        for line in metrics.splitlines()
        if line.startswith("adjudicator_live_games ")
    )
    return float(value)


def test_a_body_too_slow_is_408_and_the_request_changes_nothing(server: Served) -> None:
    games = live_games(server)
    with connect(server) as sock:
        sock.sendall(
            b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 12\r\n\r\n{"n"'
        )
        assert "body" in str(assert_problem(read_all(sock), REQUEST_TIMEOUT)["detail"])
    assert live_games(server) == games


def test_bytes_that_are_not_http_are_400(server: Served) -> None:
    with connect(server) as sock:
        sock.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n")
        assert_problem(read_all(sock), MALFORMED_HTTP)


def chunked(path: str, headers: bytes = b"") -> bytes:
    """The head of a chunked POST of JSON."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n".encode()
        + headers
        + b"Transfer-Encoding: chunked\r\n\r\n"
    )


def send_until_refused(sock: socket.socket, start: bytes, unit: bytes, most: int) -> int:
    """Send ``start``, then ``unit`` until ``most`` bytes or the server stops reading; the bytes
    sent after ``start``."""
    sent = 0
    try:
        sock.sendall(start)
        while sent < most:
            sock.sendall(unit)
            sent += len(unit)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sent


def test_an_endless_trailer_field_is_431_and_costs_no_memory(server: Served) -> None:
    before = server.rss_bytes()
    with connect(server) as sock:
        start = chunked("/v1/tictactoe/validate") + b'10\r\n{"board": ["X"]}\r\n0\r\nX-T: '
        send_until_refused(sock, start, b"t" * 4096, 8 * 1024 * 1024)
        problem = assert_problem(read_all(sock), HEADERS_TOO_LARGE)
    assert "trailer" in str(problem["detail"])
    assert server.rss_bytes() - before < 16 * 1024 * 1024
    healthy(server)


def test_an_endless_chunk_extension_is_413(server: Served) -> None:
    with connect(server) as sock:
        start = chunked("/v1/tictactoe/validate") + b"12;ext="
        send_until_refused(sock, start, b"e" * 4096, 8 * 1024 * 1024)
        problem = assert_problem(read_all(sock), PAYLOAD_TOO_LARGE)
    assert "chunk" in str(problem["detail"])


def test_a_body_in_one_byte_chunks_is_413_after_a_head_s_worth_of_framing(server: Served) -> None:
    body = json.dumps({"board": ["X" * 100] * 100}).encode()  # 10 kB of JSON
    with connect(server) as sock:
        chunks = b"".join(b"1\r\n" + body[i : i + 1] + b"\r\n" for i in range(len(body)))
        send_until_refused(sock, chunked("/v1/tictactoe/validate"), chunks + b"0\r\n\r\n", 1)
        assert_problem(read_all(sock), PAYLOAD_TOO_LARGE)


def test_a_chunked_body_with_a_trailer_is_answered_without_the_trailer(server: Served) -> None:
    # The trailer's fields never join the request's headers: an If-Match sent there would make
    # the move conditional on a version the game does not have (412).
    game = httpx.post(f"{server.url}/v1/games", json={"n": 3}, timeout=WAIT).json()
    token = game["tokens"]["1"].encode()
    head = chunked(f"/v1/games/{game['id']}/moves", b"Authorization: Bearer " + token + b"\r\n")
    body = b'{"row": 1, "col": 1}'
    with connect(server) as sock:
        sock.sendall(
            head + b"%x\r\n" % 5 + body[:5] + b"\r\n" + b"%x\r\n" % (len(body) - 5)
            + body[5:] + b"\r\n0\r\nIf-Match: \"nope\"\r\nConnection: close\r\n\r\n"
        )  # fmt: skip
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]


def test_a_body_sent_after_100_continue_is_answered(server: Served) -> None:
    """RFC 9110 §10.1.1: a client that sends ``Expect: 100-continue`` waits for the interim
    ``100 Continue`` before its body (the bounded protocol reads the header fields itself)."""
    body = b'{"board": ["XOX", "O.O", "XOX"]}'
    with connect(server) as sock:
        sock.sendall(
            b"POST /v1/tictactoe/validate HTTP/1.1\r\nHost: t\r\nContent-Type: application/json"
            b"\r\nExpect: 100-Continue\r\nConnection: close\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)
        )
        assert sock.recv(65536).startswith(b"HTTP/1.1 100 Continue\r\n")
        sock.sendall(body)
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:300]
    assert b'"valid":true' in answer


@pytest.mark.parametrize(
    ("coding", "problem"),
    [
        (b"gzip, chunked", TRANSFER_CODING_NOT_IMPLEMENTED),
        (b"gzip", TRANSFER_CODING_NOT_IMPLEMENTED),
        (b"identity", TRANSFER_CODING_NOT_IMPLEMENTED),
        # Chunked twice is no coding but a broken framing (RFC 9112 §6.3): the parser's 400.
        (b"chunked, chunked", MALFORMED_HTTP),
        (b"chunked\r\nTransfer-Encoding: chunked", MALFORMED_HTTP),
    ],
    ids=["gzip-chunked", "gzip", "identity", "chunked-twice", "two-fields"],
)
def test_a_transfer_coding_but_chunked_is_501(
    server: Served, coding: bytes, problem: ProblemType
) -> None:
    with connect(server) as sock:
        sock.sendall(
            b"POST /v1/tictactoe/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: " + coding + b"\r\n\r\n10\r\n" + b'{"board": ["X"]}\r\n0\r\n\r\n'
        )
        assert_problem(read_all(sock), problem)


@pytest.mark.parametrize(
    "head",
    [
        b"GET /healthz HTTP/1.1\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n",
        b"GET /healthz HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: a/b\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: user@a\r\n\r\n",
    ],
    ids=["missing", "doubled", "doubled-1.0", "space", "slash", "userinfo"],
)
def test_a_missing_doubled_or_bad_host_is_400(server: Served, head: bytes) -> None:
    with connect(server) as sock:
        sock.sendall(head)
        problem = assert_problem(read_all(sock), MALFORMED_HTTP)
    assert "Host" in str(problem["detail"])


def test_each_requests_host_is_checked_not_only_a_connections_first(server: Served) -> None:
    with connect(server) as sock:
        for host in (b"a", b"a", b"b:8000"):  # good ones, the same and another
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
                chunk = sock.recv(65536)
                assert chunk, answer  # closed before the whole answer
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200 "), answer
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n")
        problem = assert_problem(read_all(sock), MALFORMED_HTTP)
    assert "Host" in str(problem["detail"])


@pytest.mark.parametrize(
    "head",
    [
        b"GET /healthz HTTP/1.0\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: [::1]:8000\r\nConnection: close\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:8000\r\nConnection: close\r\n\r\n",
    ],
    ids=["http-1.0-without", "empty", "ipv6", "lower-case-name"],
)
def test_a_host_as_the_rfc_allows_is_served(server: Served, head: bytes) -> None:
    with connect(server) as sock:
        sock.sendall(head)
        assert read_all(sock).startswith(b"HTTP/1.1 200 ")


def test_pipelining_past_the_bound_answers_the_bound_then_closes(server: Served) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    with connect(server) as sock:
        sock.sendall(request * 50)
        answers = read_all(sock).count(b"HTTP/1.1 200 OK")
    pipelined = int(LIMITS["ADJUDICATOR_MAX_PIPELINED_REQUESTS"])
    assert answers == 1 + pipelined  # the one being answered, and those queued behind it


def test_idle_connections_past_the_bound_do_not_lock_out_a_client(server: Served) -> None:
    with ExitStack() as stack:
        for _ in range(200):  # five times the bound, each silent or half a head
            sock = stack.enter_context(connect(server))
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        healthy(server)
        # The idle ones made room: the process holds about the bound, not 200.
        assert server.open_files() < 40 + 64


def test_when_every_connection_is_busy_a_newcomer_gets_503(tmp_path: Path) -> None:
    # Three event streams hold the only three places; the fourth connection is answered 503.
    with adjudicator_command({"ADJUDICATOR_MAX_CONNECTIONS": "3"}, tmp_path / "log") as served:
        created = httpx.post(f"{served.url}/v1/games", json={"n": 3}, timeout=WAIT)
        game = created.json()["id"]
        with ExitStack() as stack:
            for _ in range(3):
                sock = stack.enter_context(connect(served))
                sock.sendall(f"GET /v1/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                assert sock.recv(12) == b"HTTP/1.1 200"
            with connect(served) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = read_all(sock)
            assert_problem(answer, TOO_MANY_CONNECTIONS)
            assert b"\r\nretry-after: 1\r\n" in answer
        healthy(served)  # the streams gone, places are free again


def test_streams_on_redis_never_take_the_connections_moves_need(tmp_path: Path) -> None:
    # 300 streams of one game on a process with two request connections and one for streams:
    # a move in another game is answered, and a move in the watched game reaches every stream.
    streams = 300
    env = {
        "ADJUDICATOR_STORE_CONNECTIONS": "2",
        "ADJUDICATOR_STORE_STREAM_CONNECTIONS": "1",
        "ADJUDICATOR_MAX_STREAMS": str(streams),
        "ADJUDICATOR_MAX_STREAMS_PER_GAME": str(streams),
        "ADJUDICATOR_MAX_STREAMS_PER_CLIENT": str(streams),  # all come from 127.0.0.1
        # The 300 streams' first reads queue for the one stream connection: on a loaded machine
        # the last waited more than the default second (503). Moves starved by the streams
        # would still fail: they would wait as long, then 503, within WAIT.
        "ADJUDICATOR_STORE_TIMEOUT_SECONDS": "10",
    }
    with (
        redis_server(tmp_path) as url,
        adjudicator_command({**env, "ADJUDICATOR_STORE_URL": url}, tmp_path / "log") as served,
        httpx.Client(base_url=served.url, timeout=WAIT) as client,
        ExitStack() as stack,
    ):
        watched, other = (client.post("/v1/games", json={"n": 3}).json() for _ in range(2))
        socks = []
        for _ in range(streams):
            sock = stack.enter_context(connect(served))
            sock.sendall(
                f"GET /v1/games/{watched['id']}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            )
            socks.append(sock)
        for sock in socks:
            assert sock.recv(12) == b"HTTP/1.1 200"
        for game in (other, watched):
            moved = client.post(
                f"/v1/games/{game['id']}/moves", json={"row": 1, "col": 1},
                headers={"Authorization": f"Bearer {game['tokens']['1']}"},
            )  # fmt: skip
            assert moved.status_code == 201, moved.text
        for sock in socks:
            received = b""
            while b"event: move" not in received:
                chunk = sock.recv(65536)
                assert chunk, "stream cut"
                received += chunk
    assert "Traceback" not in (tmp_path / "log").read_text(errors="replace")


def open_stream(served: Served, game: str, source: str) -> socket.socket:
    sock = connect(served, source)
    sock.sendall(f"GET /v1/games/{game}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


def test_a_client_holding_a_games_streams_gives_one_up_to_another(tmp_path: Path) -> None:
    env = {"ADJUDICATOR_MAX_STREAMS_PER_GAME": "3"}
    with adjudicator_command(env, tmp_path / "log") as served, ExitStack() as stack:
        game = httpx.post(f"{served.url}/v1/games", json={"n": 3}, timeout=WAIT).json()["id"]
        greedy = [stack.enter_context(open_stream(served, game, "127.0.0.2")) for _ in range(3)]
        for sock in greedy:
            assert sock.recv(12) == b"HTTP/1.1 200"
        polite = stack.enter_context(open_stream(served, game, "127.0.0.3"))
        assert polite.recv(12) == b"HTTP/1.1 200"  # the game was full: a place was made
        ended = b""  # the oldest of the greedy client's streams ends, saying why
        while b"event: error" not in ended or not ended.endswith(b"\r\n\r\n"):
            chunk = greedy[0].recv(65536)
            assert chunk, ended
            ended += chunk
        assert b'"code":"too_many_streams"' in ended
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=served.url, transport=transport, timeout=WAIT) as greedy_client:
            again = greedy_client.get(f"/v1/games/{game}/events")  # two of three: its share
        assert again.status_code == 503
        assert again.json()["code"] == "too_many_streams"
    assert "Traceback" not in (tmp_path / "log").read_text(errors="replace")


def test_a_client_that_reads_nothing_of_its_answers_is_cut_off(tmp_path: Path) -> None:
    # Four pipelined requests for a 1.4 MB script, never read: the server's send buffer fills,
    # and after ADJUDICATOR_SEND_TIMEOUT_SECONDS the connection is cut, its answers dropped.
    env = {"ADJUDICATOR_SEND_TIMEOUT_SECONDS": "1"}
    with adjudicator_command(env, tmp_path / "log") as served:
        asset = httpx.get(f"{served.url}/docs-assets/swagger-ui-bundle.js", timeout=WAIT)
        request = b"GET /docs-assets/swagger-ui-bundle.js HTTP/1.1\r\nHost: x\r\n\r\n"
        host, port = served.url.removeprefix("http://").split(":")
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(WAIT)
            sock.connect((host, int(port)))
            sock.sendall(request * 4)
            time.sleep(3)  # reading nothing, for longer than the send timeout
            received = b""
            try:
                while chunk := sock.recv(65536):
                    received += chunk
            except ConnectionResetError:
                pass  # cut with its answers unsent
        assert len(received) < 4 * len(asset.content)
        healthy(served)
    assert "Traceback" not in (tmp_path / "log").read_text(errors="replace")
