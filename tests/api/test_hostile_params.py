"""Hostile parameters: every hand-read header, path and query parameter, sent malformed.

The rule: every input is hostile until parsed. A malformed value gets a 4xx
``application/problem+json`` answer naming what was wrong, never a 5xx, and changes nothing: the
game (``GET /v1/games/{id}``) is the same before and after. Where the contract
(``../shared/API.md``) or the served OpenAPI document says what the answer is, it is asserted
exactly; where they are silent, the expectation chosen is written next to the cases.

Integers read from a URL or a header (``since``, ``limit``, ``seq``, ``after``, the lobby's
``cursor``, ``Last-Event-ID``, the version inside an ETag) are ASCII digits only, at most
``MAX_NUMBER`` (2**53 - 1, the largest integer every JSON client reads exactly; the OpenAPI
document declares it as their ``maximum``, and the cursor's description says it).
Signs, spaces, underscores, decimal points, digits of other scripts, more digits: a 422
``validation_error`` whose ``errors[].loc`` names the parameter. So is a query parameter sent
more than once: which of its values counts would be a guess.

Leading and trailing whitespace of a header value is not part of the value (RFC 9110 §5.5: HTTP
servers strip it before the app sees it), so headers are tested with whitespace inside instead.

Most cases go through Starlette's TestClient, against the memory store and Redis; header values
go through ``exact`` (httpx's ASGI transport on the TestClient's loop), which passes their bytes
unchanged. The last cases go over a real TCP connection to a uvicorn process, for what no
in-process client sends as a client would: raw control bytes in header values, a raw non-ASCII
byte in the request line, and what the HTTP server itself makes of them.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import httpx2
import pytest
from fastapi.testclient import TestClient

from app.api.params import MAX_NUMBER
from app.main import create_app
from app.settings import Settings
from tests.api.problems import assert_problem, assert_validation_error
from tests.conftest import app_settings
from tests.servers import uvicorn_server
from tests.timeless import timeless

# --- fixtures and helpers ----------------------------------------------------------------------


@pytest.fixture(scope="module", params=["memory", "redis"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """Session tests run against the memory store and against Redis: one app per store for the
    whole module (building one per test would be most of the run), each test with new games."""
    url = "memory://" if request.param == "memory" else request.getfixturevalue("redis_url")
    # Many of its requests carry malformed tokens on purpose: their throttle is off here.
    settings = app_settings(store_url=url, create_rate_per_minute=0, auth_failures_per_minute=0)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def memory_client() -> Iterator[TestClient]:
    """For what touches no game store (stateless bodies, problem types)."""
    with TestClient(create_app(Settings()), raise_server_exceptions=False) as test_client:
        yield test_client


def exact(
    client: TestClient,
    method: str,
    url: str,
    headers: Mapping[str, str | bytes],
    *,
    json: Any = None,
    content: bytes | None = None,
) -> httpx.Response:
    """One request whose header values reach the app byte for byte: through httpx's ASGI
    transport, on the TestClient's own event loop (so the Redis store's connections work).
    TestClient itself re-encodes a non-ASCII header value as UTF-8, so it can never send one
    latin-1 byte such as 0xB2, "²" — the byte that made ``Last-Event-ID`` a 500."""

    async def send() -> httpx.Response:
        # An app error is answered (500), as TestClient(raise_server_exceptions=False) does.
        transport = httpx.ASGITransport(app=client.app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            return await http.request(method, url, headers=headers, json=json, content=content)

    assert client.portal is not None, "use inside the TestClient's context"
    return client.portal.call(send)


@dataclass(frozen=True)
class Game:
    id: str
    tokens: tuple[str, str]

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"

    def fill(self, template: bytes) -> bytes:
        """A header value template with ``{id}`` and ``{token}`` (player 1's) filled in."""
        return template.replace(b"{id}", self.id.encode()).replace(
            b"{token}", self.tokens[0].encode()
        )


def create_game(client: TestClient) -> Game:
    response = client.post("/v1/games", json={"n": 3})
    assert response.status_code == 201, response.text
    body = response.json()
    return Game(body["id"], (body["tokens"]["1"], body["tokens"]["2"]))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


MOVE = {"row": 0, "col": 0}
MOVE_BYTES = b'{"row":0,"col":0}'
# X takes the top row: a won game.
WIN = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]


@pytest.fixture
def game(client: TestClient) -> Game:
    """A new game, version 0, X to move."""
    return create_game(client)


@pytest.fixture
def played(client: TestClient) -> Game:
    """A game with one move (X at (0, 0)): ``seq`` 1 exists, so a malformed value that is
    read as 1 shows up as a 200 instead of the 422 it should be."""
    new = create_game(client)
    assert client.post(f"{new.url}/moves", json=MOVE, headers=bearer(new.tokens[0])).is_success
    return new


@pytest.fixture(scope="module")
def finished(client: TestClient) -> Game:
    """A won game, one per store: nothing can change it (each test checks that nothing did).
    Its event stream ends by itself, so a stream wrongly opened for a malformed resume point
    ends with the test instead of hanging it."""
    new = create_game(client)
    for turn, (row, col) in enumerate(WIN):
        response = client.post(
            f"{new.url}/moves", json={"row": row, "col": col}, headers=bearer(new.tokens[turn % 2])
        )
        assert response.status_code == 201, response.text
    return new


def state(client: TestClient, game: Game) -> dict[str, Any]:
    response = client.get(game.url)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def live_games(client: TestClient) -> float:
    text = client.get("/metrics").text
    found = re.search(r"^adjudicator_live_games (\S+)$", text, re.MULTILINE)
    assert found, text
    return float(found.group(1))


def assert_refused(response: httpx.Response | httpx2.Response) -> dict[str, Any]:
    """Where the code is not fixed by the contract: some 4xx problem, with a ``code``."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:500])
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert isinstance(body.get("code"), str), body
    assert body["code"]
    return body


def encode(value: str | bytes) -> str:
    """Percent-encode every byte (UTF-8 for text) but letters, digits and ``-_~``, so that the
    value arrives exactly as written. Dots too: clients collapse a literal ``..`` segment."""
    return quote(value, safe="").replace(".", "%2E")


def move_event_ids(stream: str) -> list[int]:
    return [int(line[len("id: ") :]) for line in stream.splitlines() if line.startswith("id: ")]


# --- value tables ------------------------------------------------------------------------------

# Malformed integers for query and path parameters, percent-encoded on the way out. None of
# them is "ASCII digits, at most MAX_NUMBER": each must be a 422 naming the parameter.
MALFORMED_INTEGERS = [
    pytest.param("²", id="superscript-two"),
    pytest.param("٣", id="arabic-indic-three"),
    pytest.param("１", id="fullwidth-one"),
    pytest.param("+1", id="plus-sign"),
    pytest.param("-1", id="minus-sign"),
    pytest.param(" 1", id="leading-space"),
    pytest.param("1 ", id="trailing-space"),
    pytest.param("1 2", id="inner-space"),
    pytest.param("1_0", id="underscore"),
    pytest.param("1.0", id="decimal-point"),
    pytest.param("1e3", id="exponent"),
    pytest.param("0x1", id="hex"),
    pytest.param(str(MAX_NUMBER + 1), id="past-the-maximum"),
    pytest.param("9" * 19, id="19-digits"),
    pytest.param("9223372036854775808", id="int64-overflow"),
    pytest.param("9" * 30, id="30-digits"),
    pytest.param("1" * 10_240, id="10kB-of-digits"),
    pytest.param("\x00", id="nul"),
    pytest.param("1\n", id="newline"),
    pytest.param("\x7f", id="del"),
    pytest.param("é", id="utf8-letter"),
    pytest.param(b"\xff", id="non-utf8-byte"),
]
EMPTY = pytest.param("", id="empty")

# The same for header values, as bytes on the wire (a header is decoded as latin-1 by the app,
# so a latin-1 superscript digit arrives as one character for which str.isdigit is true).
MALFORMED_HEADER_INTEGERS = [
    pytest.param(b"\xb2", id="latin1-superscript-two"),
    pytest.param(b"\xb9", id="latin1-superscript-one"),
    pytest.param("٣".encode(), id="utf8-arabic-indic-three"),
    pytest.param("１".encode(), id="utf8-fullwidth-one"),
    pytest.param(b"+1", id="plus-sign"),
    pytest.param(b"-1", id="minus-sign"),
    pytest.param(b"1 2", id="inner-space"),
    pytest.param(b"1\t2", id="inner-tab"),
    pytest.param(b"1_0", id="underscore"),
    pytest.param(b"1.0", id="decimal-point"),
    pytest.param(str(MAX_NUMBER + 1).encode(), id="past-the-maximum"),
    pytest.param(b"9" * 19, id="19-digits"),
    pytest.param(b"9223372036854775808", id="int64-overflow"),
    pytest.param(b"9" * 30, id="30-digits"),
    pytest.param(b"1" * 10_240, id="10kB-of-digits"),
    pytest.param(b"\xff\xfe", id="non-utf8-bytes"),
]

# Header values that are not "visible ASCII characters" (Idempotency-Key, X-Request-ID).
NOT_VISIBLE_ASCII = [
    pytest.param(b"", id="empty"),
    pytest.param(b"\t", id="tab"),
    pytest.param(b"a\tb", id="inner-tab"),
    pytest.param(b"a b", id="inner-space"),
    pytest.param(b"\xb2", id="latin1-byte"),
    pytest.param("é".encode(), id="utf8-letter"),
    pytest.param(b"\xff\xfe", id="non-utf8-bytes"),
]

# Entity tags that are not the game's current ETag ``"{id}.0"``. ETags are compared character
# by character (RFC 9110 §8.8.3.2), so "{id}.00" is not "{id}.0" even though both read as 0.
NOT_THE_ETAG = [
    pytest.param(b'"{id}.\xb2"', id="latin1-superscript-version"),
    pytest.param(b'"{id}.\xb9"', id="latin1-superscript-one-version"),
    pytest.param('"{id}.٠"'.encode(), id="utf8-arabic-indic-zero-version"),
    pytest.param('"{id}.０"'.encode(), id="utf8-fullwidth-zero-version"),
    pytest.param(b'"{id}.00"', id="leading-zero-version"),
    pytest.param(b'"{id}.+0"', id="plus-sign-version"),
    pytest.param(b'"{id}.-0"', id="minus-sign-version"),
    pytest.param(b'"{id}.0_0"', id="underscore-version"),
    pytest.param(b'"{id}. 0"', id="space-in-tag"),
    pytest.param(b'"{id}.\t0"', id="tab-in-tag"),
    pytest.param(b'"{id}.' + b"9" * 30 + b'"', id="30-digit-version"),
    pytest.param(b'"{id}.9223372036854775808"', id="int64-overflow-version"),
    pytest.param(b'"{id}.1"', id="future-version"),
    pytest.param(b'"someone-else.0"', id="other-game"),
    pytest.param(b"{id}.0", id="unquoted"),
    pytest.param(b'"{id}.0', id="unterminated"),
    pytest.param(b"", id="empty"),
    pytest.param(b'"' + b"x" * 10_240 + b'"', id="10kB-tag"),
    pytest.param(b"\xff\xfe", id="non-utf8-bytes"),
]


# --- query: since and limit of GET /v1/games/{id}/moves ----------------------------------------


@pytest.mark.parametrize("name", ["since", "limit"])
@pytest.mark.parametrize("value", [*MALFORMED_INTEGERS, EMPTY])
def test_moves_query_malformed_is_422(
    client: TestClient, played: Game, name: str, value: str | bytes
) -> None:
    # The contract: `since` not an integer → 422 validation_error at ["query", "since"]; the
    # same for `limit`. An empty value is not an integer either (FastAPI already says so).
    before = state(client, played)
    response = client.get(f"{played.url}/moves?{name}={encode(value)}")
    assert_validation_error(response, "query", name)
    assert state(client, played) == before


@pytest.mark.parametrize("name", ["since", "limit"])
@pytest.mark.parametrize("values", [("1", "1"), ("1", "2"), ("1", "x"), ("", "1")])
def test_moves_query_repeated_is_422(
    client: TestClient, played: Game, name: str, values: tuple[str, str]
) -> None:
    # Which of two values counts would be a guess (the first? the last?): neither.
    before = state(client, played)
    query = "&".join(f"{name}={value}" for value in values)
    assert_validation_error(client.get(f"{played.url}/moves?{query}"), "query", name)
    assert state(client, played) == before


@pytest.mark.parametrize("value", ["0", "10001"])
def test_moves_limit_out_of_range_is_422(client: TestClient, played: Game, value: str) -> None:
    before = state(client, played)
    assert_validation_error(client.get(f"{played.url}/moves?limit={value}"), "query", "limit")
    assert state(client, played) == before


@pytest.mark.parametrize(
    ("query", "seqs"),
    [
        pytest.param("since=0", [1], id="since-0"),
        pytest.param("since=1", [], id="since-1"),
        pytest.param(f"since={MAX_NUMBER}", [], id="since-maximum"),
        pytest.param("limit=1", [1], id="limit-1"),
        pytest.param("limit=10000", [1], id="limit-10000"),
    ],
)
def test_moves_query_valid_keeps_its_meaning(
    client: TestClient, played: Game, query: str, seqs: list[int]
) -> None:
    # Valid but naming nothing (a `since` past the last move): 200 with no moves.
    response = client.get(f"{played.url}/moves?{query}")
    assert response.status_code == 200, response.text
    assert [move["seq"] for move in response.json()["moves"]] == seqs
    assert response.json()["version"] == 1


# --- query: after and limit of GET /v1/games/{id}/legal-moves -----------------------------------


@pytest.mark.parametrize("name", ["after", "limit"])
@pytest.mark.parametrize("value", [*MALFORMED_INTEGERS, EMPTY])
def test_legal_moves_query_malformed_is_422(
    client: TestClient, played: Game, name: str, value: str | bytes
) -> None:
    # A cell index and a page size: ASCII digits, as every integer of a URL (negative, huge and
    # non-numeric values among them).
    before = state(client, played)
    response = client.get(f"{played.url}/legal-moves?{name}={encode(value)}")
    assert_validation_error(response, "query", name)
    assert state(client, played) == before


@pytest.mark.parametrize("value", ["0", "1025"])
def test_legal_moves_limit_out_of_range_is_422(
    client: TestClient, played: Game, value: str
) -> None:
    response = client.get(f"{played.url}/legal-moves?limit={value}")
    assert_validation_error(response, "query", "limit")


@pytest.mark.parametrize("name", ["after", "limit"])
@pytest.mark.parametrize("values", [("1", "1"), ("1", "2"), ("2", "-1"), ("1", "")])
def test_legal_moves_query_repeated_is_422(
    client: TestClient, played: Game, name: str, values: tuple[str, str]
) -> None:
    query = "&".join(f"{name}={value}" for value in values)
    assert_validation_error(client.get(f"{played.url}/legal-moves?{query}"), "query", name)


@pytest.mark.parametrize(
    ("query", "cells"),
    [
        pytest.param("after=0", [1, 2, 3, 4, 5, 6, 7, 8], id="after-0"),
        pytest.param("after=7", [8], id="after-7"),
        pytest.param("after=8", [], id="after-the-last-cell"),
        pytest.param(f"after={MAX_NUMBER}", [], id="after-maximum"),
        pytest.param("limit=1", [1], id="limit-1"),
        pytest.param("limit=1024", [1, 2, 3, 4, 5, 6, 7, 8], id="limit-1024"),
        pytest.param("after=00000001&limit=02", [2, 3], id="leading-zeros"),
    ],
)
def test_legal_moves_query_valid_keeps_its_meaning(
    client: TestClient, played: Game, query: str, cells: list[int]
) -> None:
    # X holds cell 0 of the 3 × 3 board: O may play every other cell.
    response = client.get(f"{played.url}/legal-moves?{query}")
    assert response.status_code == 200, response.text
    assert [3 * m["row"] + m["col"] for m in response.json()["moves"]] == cells
    assert (response.json()["count"], response.json()["player"]) == (8, 2)


# --- query: cursor of the lobby (GET /v1/games?open=true) -------------------------------------

# A cursor is a `next_cursor` the lobby gave: digits as the service writes them (no leading
# zero), at most MAX_NUMBER. The integers above are no cursor, and neither are these.
NOT_A_CURSOR = [
    pytest.param("01", id="leading-zero"),
    pytest.param("00", id="zeros"),
    pytest.param("0" * 16 + "1", id="seventeen-digits-of-one"),
    pytest.param(str(2**53), id="two-to-the-53"),
    pytest.param(str(10**100), id="ten-to-the-100"),
    pytest.param("\u0661\u0662", id="arabic-indic-twelve"),
    pytest.param("1\x00", id="trailing-nul"),
    pytest.param("1\r\n2", id="crlf"),
]


@pytest.mark.parametrize("value", [*MALFORMED_INTEGERS, *NOT_A_CURSOR, EMPTY])
def test_lobby_cursor_not_one_the_service_gives_is_422(
    client: TestClient, value: str | bytes
) -> None:
    response = client.get(f"/v1/games?open=true&cursor={encode(value)}")
    assert_validation_error(response, "query", "cursor")


def test_lobby_cursor_from_0_to_the_maximum_is_a_page(client: TestClient) -> None:
    created = client.post("/v1/games", json={"n": 3, "open": True})
    assert created.status_code == 201, created.text
    first = client.get("/v1/games?open=true&limit=100&cursor=0")
    assert first.status_code == 200, first.text
    assert created.json()["id"] in [game["id"] for game in first.json()["games"]]
    last = client.get(f"/v1/games?open=true&cursor={MAX_NUMBER}")  # past every number given
    assert last.status_code == 200, last.text
    assert last.json() == {"games": [], "next_cursor": None}


# --- query `since` and header `Last-Event-ID` of GET /v1/games/{id}/events ---------------------


def test_events_since_repeated_is_422(client: TestClient, finished: Game) -> None:
    assert_validation_error(client.get(f"{finished.url}/events?since=1&since=2"), "query", "since")


@pytest.mark.parametrize("value", [*MALFORMED_INTEGERS, EMPTY])
def test_events_since_malformed_is_422(
    client: TestClient, finished: Game, value: str | bytes
) -> None:
    # The OpenAPI document declares `since` an integer ≥ 0: an empty `since=` is not one (as on
    # …/moves), unlike an empty Last-Event-ID, which its declared pattern allows.
    before = state(client, finished)
    response = client.get(f"{finished.url}/events?since={encode(value)}")
    assert_validation_error(response, "query", "since")
    assert state(client, finished) == before


@pytest.mark.parametrize("value", MALFORMED_HEADER_INTEGERS)
def test_last_event_id_malformed_is_422(client: TestClient, finished: Game, value: bytes) -> None:
    before = state(client, finished)
    response = exact(client, "GET", f"{finished.url}/events", {"Last-Event-ID": value})
    assert_validation_error(response, "header", "Last-Event-ID")
    assert state(client, finished) == before


def test_bad_since_is_refused_even_when_last_event_id_wins(
    client: TestClient, finished: Game
) -> None:
    response = exact(client, "GET", f"{finished.url}/events?since=%C2%B2", {"Last-Event-ID": "3"})
    assert_validation_error(response, "query", "since")


def test_bad_last_event_id_is_refused_even_with_a_good_since(
    client: TestClient, finished: Game
) -> None:
    response = exact(client, "GET", f"{finished.url}/events?since=3", {"Last-Event-ID": b"\xb2"})
    assert_validation_error(response, "header", "Last-Event-ID")


@pytest.mark.parametrize(
    ("headers", "query", "seqs"),
    [
        # Empty Last-Event-ID: no resume point (what browsers mean by not sending one).
        pytest.param({"Last-Event-ID": ""}, "", [1, 2, 3, 4, 5], id="empty-last-event-id"),
        pytest.param({"Last-Event-ID": "3"}, "", [4, 5], id="last-event-id-3"),
        pytest.param({"Last-Event-ID": "3"}, "?since=1", [4, 5], id="last-event-id-wins"),
        pytest.param({}, "?since=4", [5], id="since-4"),
    ],
)
def test_events_valid_resume_points_keep_their_meaning(
    client: TestClient, finished: Game, headers: dict[str, str], query: str, seqs: list[int]
) -> None:
    response = exact(client, "GET", f"{finished.url}/events{query}", headers)
    assert response.status_code == 200, response.text
    assert move_event_ids(response.text) == seqs
    assert "event: end" in response.text


@pytest.mark.parametrize(
    ("headers", "query"),
    [
        pytest.param({"Last-Event-ID": "5"}, "", id="last-event-id-at-the-end"),
        pytest.param({}, "?since=5", id="since-at-the-end"),
        pytest.param({}, f"?since={MAX_NUMBER}", id="since-maximum"),
    ],
)
def test_events_resumed_at_or_past_the_end_are_204_no_content(
    client: TestClient, finished: Game, headers: dict[str, str], query: str
) -> None:
    # The HTML standard: a 204 tells an EventSource to stop reconnecting.
    response = exact(client, "GET", f"{finished.url}/events{query}", headers)
    assert (response.status_code, response.content) == (204, b"")


# --- path: seq of GET /v1/games/{id}/moves/{seq} -----------------------------------------------


@pytest.mark.parametrize("value", MALFORMED_INTEGERS)
def test_move_seq_malformed_is_422(client: TestClient, played: Game, value: str | bytes) -> None:
    # The contract: `seq` not an integer → 422 at ["path", "seq"]. (An empty seq is another
    # URL, …/moves/, which is no route: not a value of this parameter.)
    before = state(client, played)
    response = client.get(f"{played.url}/moves/{encode(value)}")
    assert_validation_error(response, "path", "seq")
    assert state(client, played) == before


@pytest.mark.parametrize("value", ["0", "2", str(MAX_NUMBER)])
def test_move_seq_valid_but_absent_is_move_not_found(
    client: TestClient, played: Game, value: str
) -> None:
    assert_problem(client.get(f"{played.url}/moves/{value}"), 404, "move_not_found")


def test_move_seq_valid_is_the_move(client: TestClient, played: Game) -> None:
    response = client.get(f"{played.url}/moves/1")
    assert response.status_code == 200, response.text
    assert timeless(response.json()) == {"seq": 1, "row": 0, "col": 0, "square": "a3", "player": 1}


# --- path: game_id of every game route ---------------------------------------------------------

# Every route of one game, from the committed OpenAPI document (a new route is in it at once):
# method, the path after the game's id (a move's seq: 1), the operation.
SPEC = json.loads((Path(__file__).parents[2] / "openapi" / "openapi.json").read_text())
GAME_PREFIX = "/v1/games/{game_id}"
GAME_ROUTES = [
    pytest.param(
        method.upper(),
        path.removeprefix(GAME_PREFIX).replace("{seq}", "1"),
        id=operation["operationId"],
    )
    for path, operations in SPEC["paths"].items()
    if path.startswith(GAME_PREFIX)
    for method, operation in operations.items()
]
# The actions besides a move (resign, offer a draw, abort, offer a takeback, give time), each
# with the members a valid body of it holds besides ``player``.
ACTION_BODIES = {"ActionIn": {}, "GiveTimeIn": {"seconds": 15}}
ACTION_ROUTES = [
    pytest.param(path.removeprefix(GAME_PREFIX), valid, id=operations["post"]["operationId"])
    for path, operations in SPEC["paths"].items()
    if path.startswith(GAME_PREFIX) and "post" in operations
    for name, valid in ACTION_BODIES.items()
    if operations["post"]
    .get("requestBody", {})
    .get("content", {})
    .get("application/json", {})
    .get("schema")
    == {"$ref": f"#/components/schemas/{name}"}
]
# Ids that name no game, built from a real game's id where that matters: "{id}" stands for it.
# POST and DELETE carry that real game's token, so an id matched by prefix, by case or after
# trimming would show up as a change of the real game.
UNKNOWN_GAME_IDS = [
    pytest.param("\x00", id="nul"),
    pytest.param("\n", id="newline"),
    pytest.param("\x7f", id="del"),
    pytest.param("é", id="utf8-letter"),
    pytest.param(b"\xff", id="non-utf8-byte"),
    pytest.param(" ", id="space"),
    pytest.param("..", id="dot-dot"),
    pytest.param("*", id="star"),
    pytest.param("x" * 10_240, id="10kB"),
    pytest.param("{id}\x00", id="real-id-then-nul"),
    pytest.param("{id} ", id="real-id-then-space"),
    pytest.param("{id}}", id="real-id-then-brace"),  # a Redis hash tag {game:ID} broken out of
    pytest.param("{id}x", id="real-id-then-letter"),
    pytest.param("{swapped}", id="real-id-swapped-case"),
]


def hostile_id(template: str | bytes, game: Game) -> str:
    if isinstance(template, bytes):
        return encode(template)
    return encode(template.replace("{id}", game.id).replace("{swapped}", game.id.swapcase()))


def send(client: TestClient, method: str, url: str, game: Game) -> httpx2.Response:
    if method == "POST":
        return client.post(url, json=MOVE, headers=bearer(game.tokens[0]))
    if method == "DELETE":
        return client.delete(url, headers=bearer(game.tokens[0]))
    return client.get(url)


@pytest.mark.parametrize("template", UNKNOWN_GAME_IDS)
@pytest.mark.parametrize(("method", "suffix"), GAME_ROUTES)
def test_unknown_game_id_is_game_not_found(
    client: TestClient, game: Game, method: str, suffix: str, template: str | bytes
) -> None:
    before = state(client, game)
    response = send(client, method, f"/v1/games/{hostile_id(template, game)}{suffix}", game)
    assert_problem(response, 404, "game_not_found")
    assert state(client, game) == before


@pytest.mark.parametrize(
    "game_id",
    [
        pytest.param("", id="empty"),  # /v1/games/ is no route (no redirect): 404
        pytest.param("%2F", id="encoded-slash"),  # the path changes shape: no route or 405
    ],
)
@pytest.mark.parametrize(("method", "suffix"), GAME_ROUTES)
def test_game_id_that_changes_the_route_is_still_a_problem(
    client: TestClient, game: Game, method: str, suffix: str, game_id: str
) -> None:
    # Silent in the contract: some 4xx problem (404 not_found or 405 method_not_allowed).
    before = state(client, game)
    assert_refused(send(client, method, f"/v1/games/{game_id}{suffix}", game))
    assert state(client, game) == before


# --- path: code of GET /problems/{code} --------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("\x00", id="nul"),
        pytest.param("\n", id="newline"),
        pytest.param("\x7f", id="del"),
        pytest.param("é", id="utf8-letter"),
        pytest.param(b"\xff", id="non-utf8-byte"),
        pytest.param("x" * 10_240, id="10kB"),
        pytest.param("ILLEGAL_MOVE", id="upper-case"),
        pytest.param("illegal-move", id="dash"),
        pytest.param("illegal_move\x00", id="code-then-nul"),
        pytest.param("illegal_move ", id="code-then-space"),
        pytest.param(" illegal_move", id="space-then-code"),
        pytest.param("..", id="dot-dot"),
    ],
)
def test_unknown_problem_code_is_not_found(memory_client: TestClient, code: str | bytes) -> None:
    assert_problem(memory_client.get(f"/problems/{encode(code)}"), 404, "not_found")


def test_known_problem_code_is_described(memory_client: TestClient) -> None:
    response = memory_client.get("/problems/illegal_move")
    assert response.status_code == 200
    described = response.json()
    assert (described["code"], described["status"], described["title"]) == (
        "illegal_move", 422, "Illegal move")  # fmt: skip


# --- header: If-Match of POST /v1/games/{id}/moves ---------------------------------------------


@pytest.mark.parametrize("template", NOT_THE_ETAG)
def test_if_match_naming_no_version_is_412(client: TestClient, game: Game, template: bytes) -> None:
    # The contract: If-Match that does not match the game → 412 precondition_failed, with the
    # game's `version`. A malformed tag names no version of the game, so it never matches.
    before = state(client, game)
    headers = {**bearer(game.tokens[0]), "If-Match": game.fill(template)}
    response = exact(client, "POST", f"{game.url}/moves", headers, json=MOVE)
    body = assert_problem(response, 412, "precondition_failed")
    assert body["version"] == 0
    assert state(client, game) == before


@pytest.mark.parametrize(
    "template",
    [
        pytest.param(b"*", id="star"),
        pytest.param(b'"{id}.0"', id="the-etag"),
        pytest.param(b'"other.7", "{id}.0"', id="list-with-the-etag"),
    ],
)
def test_if_match_that_matches_applies_the_move(
    client: TestClient, game: Game, template: bytes
) -> None:
    headers = {**bearer(game.tokens[0]), "If-Match": game.fill(template)}
    response = exact(client, "POST", f"{game.url}/moves", headers, json=MOVE)
    assert response.status_code == 201, response.text
    assert state(client, game)["version"] == 1


# --- header: If-None-Match of GET /v1/games/{id} -----------------------------------------------


@pytest.mark.parametrize("template", NOT_THE_ETAG)
def test_if_none_match_naming_no_version_answers_the_state(
    client: TestClient, game: Game, template: bytes
) -> None:
    # Silent in the contract; chosen: a value that names no current version of the game, however
    # malformed, is a condition that holds (RFC 9110 §13.1.2: "none match"), so the answer is the
    # full 200, as without the header: never 304, never an error. Refusing it would break
    # polling for a client or proxy that sends an odd validator, and gain nothing.
    before = state(client, game)
    response = exact(client, "GET", game.url, {"If-None-Match": game.fill(template)})
    assert response.status_code == 200, response.text
    assert response.json() == before
    assert response.headers["etag"] == f'"{game.id}.0"'


@pytest.mark.parametrize(
    "template",
    [
        pytest.param(b'"{id}.0"', id="the-etag"),
        pytest.param(b'W/"{id}.0"', id="weak-etag"),  # If-None-Match compares weakly
        pytest.param(b"*", id="star"),
        pytest.param(b'"other.7", "{id}.0"', id="list-with-the-etag"),
    ],
)
def test_if_none_match_that_matches_is_304(client: TestClient, game: Game, template: bytes) -> None:
    response = exact(client, "GET", game.url, {"If-None-Match": game.fill(template)})
    assert response.status_code == 304
    assert response.content == b""


# --- header: Idempotency-Key of POST /v1/games/{id}/moves --------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        *NOT_VISIBLE_ASCII,
        pytest.param(b"x" * 256, id="256-characters"),
        pytest.param(b"x" * 10_240, id="10kB"),
    ],
)
def test_idempotency_key_malformed_is_422(client: TestClient, game: Game, key: bytes) -> None:
    # Declared in the OpenAPI document: 1 to 255 visible ASCII characters.
    before = state(client, game)
    headers = {**bearer(game.tokens[0]), "Idempotency-Key": key}
    response = exact(client, "POST", f"{game.url}/moves", headers, json=MOVE)
    assert_validation_error(response, "header", "Idempotency-Key")
    assert state(client, game) == before


@pytest.mark.parametrize("key", [b"!", b"~" * 255], ids=["one-character", "255-characters"])
def test_idempotency_key_at_the_bounds_is_accepted(
    client: TestClient, game: Game, key: bytes
) -> None:
    headers = {**bearer(game.tokens[0]), "Idempotency-Key": key}
    response = exact(client, "POST", f"{game.url}/moves", headers, json=MOVE)
    assert response.status_code == 201, response.text


# --- header: Authorization of POST …/moves and DELETE /v1/games/{id} ---------------------------

BAD_AUTHORIZATIONS = [
    pytest.param(b"", id="empty"),
    pytest.param(b"Bearer", id="scheme-only"),
    pytest.param(b"Bearer ", id="scheme-and-space"),
    pytest.param(b"Bearer \t", id="scheme-and-tab"),
    pytest.param(b"{token}", id="no-scheme"),
    pytest.param(b"Basic {token}", id="basic-scheme"),
    pytest.param(b"Bearer\t{token}", id="tab-after-scheme"),
    pytest.param(b"Bearer {token}x", id="token-and-a-letter"),
    pytest.param(b"Bearer {token} {token}", id="token-twice"),
    pytest.param(b"Bearer {token}\xb2", id="token-then-latin1-byte"),
    pytest.param(b"Bearer \xb2", id="latin1-byte"),
    pytest.param("Bearer é".encode(), id="utf8-letter"),
    pytest.param(b"Bearer \xff\xfe", id="non-utf8-bytes"),
    pytest.param(b"Bearer " + b"x" * 10_240, id="10kB-token"),
]


@pytest.mark.parametrize("template", BAD_AUTHORIZATIONS)
@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_bad_authorization_is_401(
    client: TestClient, game: Game, method: str, template: bytes
) -> None:
    before = state(client, game)
    headers = {"Authorization": game.fill(template)}
    if method == "POST":
        response = exact(client, "POST", f"{game.url}/moves", headers, json=MOVE)
    else:
        response = exact(client, "DELETE", game.url, headers)
    assert_problem(response, 401, "unauthorized")
    assert response.headers["www-authenticate"] == "Bearer"
    assert state(client, game) == before


def test_token_of_another_game_is_401(client: TestClient, game: Game) -> None:
    other = create_game(client)
    before = state(client, game)
    response = client.post(f"{game.url}/moves", json=MOVE, headers=bearer(other.tokens[0]))
    assert_problem(response, 401, "unauthorized")
    assert_problem(client.delete(game.url, headers=bearer(other.tokens[1])), 401, "unauthorized")
    assert state(client, game) == before


def test_bearer_scheme_is_case_insensitive(client: TestClient, game: Game) -> None:
    # RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces separate it.
    headers = {"Authorization": f"bearer  {game.tokens[0]}"}
    response = exact(client, "POST", f"{game.url}/moves", headers, json=MOVE)
    assert response.status_code == 201, response.text


# --- header: X-Request-ID of any request -------------------------------------------------------

GENERATED_ID = re.compile(r"[0-9a-f]{12}-[0-9a-f]+")


@pytest.mark.parametrize(
    "request_id",
    [
        *NOT_VISIBLE_ASCII,
        pytest.param(b"x" * 129, id="129-characters"),
        pytest.param(b"x" * 10_240, id="10kB"),
    ],
)
def test_bad_request_id_is_replaced_never_refused(
    client: TestClient, game: Game, request_id: bytes
) -> None:
    # X-Request-ID never makes a request fail: an id that is not 1–128 visible ASCII characters
    # is replaced by a generated one, and the request is answered as without it.
    headers = {"X-Request-ID": request_id}
    polled = exact(client, "GET", game.url, headers)
    assert polled.status_code == 200, polled.text
    refused = exact(client, "GET", "/v1/games/no-such-game", headers)
    assert_problem(refused, 404, "game_not_found")
    moved = exact(
        client, "POST", f"{game.url}/moves", {**bearer(game.tokens[0]), **headers}, json=MOVE
    )
    assert moved.status_code == 201, moved.text
    for response in (polled, refused, moved):
        assert GENERATED_ID.fullmatch(response.headers["x-request-id"]), response.headers


@pytest.mark.parametrize("request_id", ["abc-123", "!~", "x" * 128], ids=["plain", "edges", "128"])
def test_sane_request_id_is_echoed(client: TestClient, game: Game, request_id: str) -> None:
    response = exact(client, "GET", game.url, {"X-Request-ID": request_id})
    assert response.status_code == 200
    assert response.headers["x-request-id"] == request_id


# --- header: Content-Type of every body route --------------------------------------------------

REVERSI_BOARD = ["BW."]
TICTACTOE_BOARD = ["XO.", "...", "..."]
STATELESS_BODIES = [
    pytest.param(
        "/v1/reversi/check-move",
        {"board": REVERSI_BOARD, "row": 0, "col": 2, "color": "B"},
        id="check-move",
    ),
    pytest.param(
        "/v1/reversi/legal-moves", {"board": REVERSI_BOARD, "color": "B"}, id="legal-moves"
    ),
    pytest.param(
        "/v1/reversi/apply-move",
        {"board": REVERSI_BOARD, "row": 0, "col": 2, "color": "B"},
        id="apply-move",
    ),
    pytest.param(
        "/v1/reversi/check-moves",
        {"board": REVERSI_BOARD, "queries": [{"row": 0, "col": 2, "color": "B"}]},
        id="check-moves",
    ),
    pytest.param("/v1/tictactoe/validate", {"board": TICTACTOE_BOARD}, id="validate"),
    pytest.param(
        "/v1/tictactoe/validate-batch", {"items": [{"board": TICTACTOE_BOARD}]}, id="validate-batch"
    ),
]
BAD_CONTENT_TYPES = [
    pytest.param(b"", id="empty"),
    pytest.param(b"text/plain", id="text-plain"),
    pytest.param(b"application/x-www-form-urlencoded", id="form"),
    pytest.param(b"multipart/form-data; boundary=x", id="multipart"),
    pytest.param(b"application/jsonx", id="json-prefix"),
    pytest.param(b"json", id="no-type"),
    pytest.param(b"application/json\tx", id="inner-tab"),
    pytest.param(b"application/\xb2json", id="latin1-byte"),
    pytest.param("application/jsön".encode(), id="utf8-letter"),
    pytest.param(b"\xff\xfe", id="non-utf8-bytes"),
    pytest.param(b"application/" + b"x" * 10_240, id="10kB"),
]


def json_bytes(body: dict[str, Any]) -> bytes:
    return httpx.Request("POST", "http://x", json=body).content


@pytest.mark.parametrize("content_type", BAD_CONTENT_TYPES)
def test_bad_content_type_on_a_move_is_422(
    client: TestClient, game: Game, content_type: bytes
) -> None:
    # The README: a body "sent as another content type" is a 422 validation_error at ["body"].
    before = state(client, game)
    headers = {**bearer(game.tokens[0]), "Content-Type": content_type}
    response = exact(client, "POST", f"{game.url}/moves", headers, content=MOVE_BYTES)
    assert_validation_error(response, "body")
    assert state(client, game) == before


@pytest.mark.parametrize("content_type", BAD_CONTENT_TYPES)
def test_bad_content_type_on_create_is_422_and_creates_nothing(
    client: TestClient, content_type: bytes
) -> None:
    before = live_games(client)
    response = exact(
        client, "POST", "/v1/games", {"Content-Type": content_type}, content=b'{"n":3}'
    )
    assert_validation_error(response, "body")
    assert live_games(client) == before


# The stateless routes share the body parser with the session routes: a few values each.
@pytest.mark.parametrize(
    "content_type",
    [b"", b"text/plain", b"application/\xb2json", b"application/" + b"x" * 10_240],
    ids=["empty", "text-plain", "latin1-byte", "10kB"],
)
@pytest.mark.parametrize(("path", "body"), STATELESS_BODIES)
def test_bad_content_type_on_a_stateless_body_is_422(
    memory_client: TestClient, path: str, body: dict[str, Any], content_type: bytes
) -> None:
    headers = {"Content-Type": content_type}
    response = exact(memory_client, "POST", path, headers, content=json_bytes(body))
    assert_validation_error(response, "body")


@pytest.mark.parametrize(
    "content_type",
    [b"application/json; charset=utf-8", b"APPLICATION/JSON"],
    ids=["charset", "case"],
)
@pytest.mark.parametrize(("path", "body"), STATELESS_BODIES)
def test_json_content_types_are_accepted(
    memory_client: TestClient, path: str, body: dict[str, Any], content_type: bytes
) -> None:
    headers = {"Content-Type": content_type}
    response = exact(memory_client, "POST", path, headers, content=json_bytes(body))
    assert response.status_code == 200, response.text


# --- header: Content-Length (read by the body-size limit) --------------------------------------


@pytest.mark.parametrize(
    "length",
    [
        pytest.param(b"abc", id="letters"),
        pytest.param(b"", id="empty"),
        pytest.param(b"-1", id="minus-sign"),
        pytest.param(b"+17", id="plus-sign"),
        pytest.param(b"1_7", id="underscore"),
        pytest.param(b"1 7", id="inner-space"),
        pytest.param(b"17.0", id="decimal-point"),
        pytest.param(b"0x11", id="hex"),
        pytest.param(b"\xb2", id="latin1-superscript"),
        pytest.param("١٧".encode(), id="utf8-arabic-indic-17"),
    ],
)
def test_garbage_content_length_is_refused(client: TestClient, game: Game, length: bytes) -> None:
    # Silent in the contract. An HTTP server refuses such a request itself (RFC 9112 §6.3: an
    # invalid Content-Length makes the framing unrecoverable: 400); the app, which any ASGI
    # server may run, must not act on it either: some 4xx problem (400 expected), no move.
    before = state(client, game)
    headers: dict[str, str | bytes] = {**bearer(game.tokens[0]), "Content-Type": "application/json"}
    headers["Content-Length"] = length
    response = exact(client, "POST", f"{game.url}/moves", headers, content=MOVE_BYTES)
    assert_refused(response)
    assert response.headers["connection"] == "close"  # a body of unknown length is not read
    assert state(client, game) == before


@pytest.mark.parametrize("digits", [30, 5000], ids=["30-digits", "5000-digits"])
def test_huge_content_length_is_413(client: TestClient, game: Game, digits: int) -> None:
    before = state(client, game)
    headers = {**bearer(game.tokens[0]), "Content-Type": "application/json"}
    headers["Content-Length"] = "9" * digits
    response = exact(client, "POST", f"{game.url}/moves", headers, content=MOVE_BYTES)
    assert_problem(response, 413, "payload_too_large")
    assert state(client, game) == before


# --- bodies: unknown fields are refused --------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"n": 3, "bogus": 1}, "bogus", id="bogus"),
        pytest.param({"n": 3, "id": "mine"}, "id", id="chosen-id"),
        pytest.param({"n": 3, "tokens": {"1": "a", "2": "b"}}, "tokens", id="chosen-tokens"),
        pytest.param({"n": 3, "N": 4}, "N", id="upper-case-twin"),
    ],
)
def test_unknown_field_on_create_is_422_and_creates_nothing(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    before = live_games(client)
    assert_validation_error(client.post("/v1/games", json=body), "body", field)
    assert live_games(client) == before


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        pytest.param({"colour": "X"}, "colour", id="colour"),
        pytest.param({"seq": 7}, "seq", id="seq"),
        pytest.param({"Row": 1}, "Row", id="upper-case-twin"),
    ],
)
def test_unknown_field_on_a_move_is_422(
    client: TestClient, game: Game, extra: dict[str, Any], field: str
) -> None:
    before = state(client, game)
    response = client.post(
        f"{game.url}/moves", json={**MOVE, **extra}, headers=bearer(game.tokens[0])
    )
    assert_validation_error(response, "body", field)
    assert state(client, game) == before


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        pytest.param(
            "/v1/reversi/check-move",
            {"board": REVERSI_BOARD, "row": 0, "col": 2, "color": "B", "colour": "B"},
            ("body", "colour"),
            id="check-move",
        ),
        pytest.param(
            "/v1/reversi/legal-moves",
            {"board": REVERSI_BOARD, "color": "B", "bogus": 1},
            ("body", "bogus"),
            id="legal-moves",
        ),
        pytest.param(
            "/v1/reversi/apply-move",
            {"board": REVERSI_BOARD, "row": 0, "col": 2, "color": "B", "bogus": 1},
            ("body", "bogus"),
            id="apply-move",
        ),
        pytest.param(
            "/v1/reversi/check-moves",
            {"board": REVERSI_BOARD, "queries": [{"row": 0, "col": 2, "color": "B", "bogus": 1}]},
            ("body", "queries", 0, "bogus"),
            id="check-moves-item",
        ),
        pytest.param(
            "/v1/tictactoe/validate",
            {"board": TICTACTOE_BOARD, "bogus": 1},
            ("body", "bogus"),
            id="validate",
        ),
        pytest.param(
            "/v1/tictactoe/validate-batch",
            {"items": [{"board": TICTACTOE_BOARD, "bogus": 1}]},
            ("body", "items", 0, "bogus"),
            id="validate-batch-item",
        ),
    ],
)
def test_unknown_field_on_a_stateless_body_is_422(
    memory_client: TestClient, path: str, body: dict[str, Any], loc: tuple[str | int, ...]
) -> None:
    assert_validation_error(memory_client.post(path, json=body), *loc)


# --- over a real TCP connection: bytes TestClient would not put on the wire ---------------------


@dataclass
class RawServer:
    port: int
    log: Path
    http: httpx.Client  # for setting up games and reading their state, over one connection

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_size(self) -> int:
        return self.log.stat().st_size

    def log_since(self, offset: int) -> str:
        with self.log.open("rb") as file:
            file.seek(offset)
            return file.read().decode("utf-8", "replace")

    def exchange(self, request: bytes) -> tuple[int, bytes]:
        """Send raw bytes (with ``Connection: close``); the status and the whole answer."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(request)
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        answer = b"".join(chunks)
        status_line = answer.split(b"\r\n", 1)[0]
        assert status_line.startswith(b"HTTP/1.1 "), answer[:300]
        return int(status_line.split()[1]), answer

    def game(self, finished: bool = False) -> Game:
        body = self.http.post("/v1/games", json={"n": 3}).json()
        new = Game(body["id"], (body["tokens"]["1"], body["tokens"]["2"]))
        for turn, (row, col) in enumerate(WIN if finished else []):
            answer = self.http.post(
                f"{new.url}/moves",
                json={"row": row, "col": col},
                headers=bearer(new.tokens[turn % 2]),
            )
            assert answer.status_code == 201, answer.text
        return new

    def state(self, game: Game) -> dict[str, Any]:
        answer = self.http.get(game.url)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body


@pytest.fixture(scope="module")
def raw_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawServer]:
    """One uvicorn process for the raw cases (memory store); its stderr goes to a file."""
    log = tmp_path_factory.mktemp("hostile") / "server.log"
    with uvicorn_server(log=log) as url, httpx.Client(base_url=url) as http:
        yield RawServer(int(url.rsplit(":", 1)[1]), log, http)


def raw_request(head: bytes, *headers: bytes, body: bytes = b"") -> bytes:
    lines = [head, b"Host: 127.0.0.1", b"Connection: close", *headers]
    if body:
        lines += [b"Content-Type: application/json", b"Content-Length: %d" % len(body)]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def raw_move(game: Game, *headers: bytes) -> bytes:
    auth = b"Authorization: Bearer " + game.tokens[0].encode()
    return raw_request(
        b"POST %s/moves HTTP/1.1" % game.url.encode(), auth, *headers, body=MOVE_BYTES
    )


def raw_move_framed(game: Game, content_type: bytes, content_length: bytes) -> bytes:
    """A move whose Content-Type and Content-Length are the given bytes."""
    return (
        raw_request(
            b"POST %s/moves HTTP/1.1" % game.url.encode(),
            b"Authorization: Bearer " + game.tokens[0].encode(),
            b"Content-Type: " + content_type,
            b"Content-Length: " + content_length,
        )
        + MOVE_BYTES
    )


def raw_delete(game: Game, *headers: bytes) -> bytes:
    return raw_request(b"DELETE %s HTTP/1.1" % game.url.encode(), *headers)


def raw_get(path: bytes, *headers: bytes) -> bytes:
    return raw_request(b"GET " + path + b" HTTP/1.1", *headers)


RAW_CASES: list[Any] = [
    pytest.param(
        lambda g: raw_get(b"%s/events" % g.url.encode(), b"Last-Event-ID: \xb2"),
        True, id="last-event-id-obs-text-superscript",
    ),
    pytest.param(
        lambda g: raw_get(b"%s/events" % g.url.encode(), b"Last-Event-ID: 1\x012"),
        True, id="last-event-id-control-byte",
    ),
    pytest.param(
        lambda g: raw_get(b"%s/events?since=%%C2%%B2" % g.url.encode()),
        True, id="events-since-percent-encoded-superscript",
    ),
    pytest.param(
        lambda g: raw_get(b"%s/events?since=\xb2" % g.url.encode()),
        True, id="events-since-raw-obs-text-byte",
    ),
    pytest.param(
        lambda g: raw_get(b"%s/moves?since=" % g.url.encode() + "٣".encode()),
        False, id="moves-since-raw-utf8-digit",
    ),
    pytest.param(
        lambda g: raw_get(b"%s/moves/\xb2" % g.url.encode()),
        False, id="seq-raw-obs-text-byte",
    ),
    pytest.param(lambda g: raw_get(b"/v1/games/\xff\xfe"), False, id="game-id-raw-non-utf8"),
    pytest.param(
        lambda g: raw_get(g.url.encode(), b'If-None-Match: "\x01"'),
        False, id="if-none-match-control-byte",
    ),
    pytest.param(
        lambda g: raw_get(g.url.encode(), b'If-None-Match: "' + g.id.encode() + b'.\xb2"'),
        False, id="if-none-match-obs-text",
    ),
    pytest.param(
        lambda g: raw_move(g, b'If-Match: "' + g.id.encode() + b'.\xb2"'),
        False, id="if-match-obs-text-version",
    ),
    pytest.param(lambda g: raw_move(g, b"If-Match: \x7f"), False, id="if-match-del-byte"),
    pytest.param(
        lambda g: raw_move(g, b"Idempotency-Key: a\x01b"), False, id="idempotency-key-control-byte"
    ),
    pytest.param(
        lambda g: raw_move(g, b"Idempotency-Key: \xe9t\xe9"), False, id="idempotency-key-obs-text"
    ),
    pytest.param(
        lambda g: raw_get(g.url.encode(), b"X-Request-ID: a\x7fb"), False, id="request-id-del-byte"
    ),
    pytest.param(
        lambda g: raw_get(g.url.encode(), b"X-Request-ID: \xff\xfe"),
        False, id="request-id-obs-text",
    ),
    pytest.param(
        lambda g: raw_delete(g, b"Authorization: Bearer a\x00b"),
        False, id="authorization-nul-byte",
    ),
    pytest.param(
        lambda g: raw_delete(g, b"Authorization: Bearer \xff\xfe"),
        False, id="authorization-obs-text",
    ),
    pytest.param(
        lambda g: raw_move_framed(g, b"application/\xb2json", b"%d" % len(MOVE_BYTES)),
        False, id="content-type-obs-text",
    ),
    pytest.param(
        lambda g: raw_move_framed(g, b"application/json", b"1_7"),
        False, id="content-length-underscore",
    ),
    pytest.param(
        lambda g: raw_move_framed(g, b"application/json", b"abc"),
        False, id="content-length-letters",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("build", "finished"), RAW_CASES)
def test_raw_bytes_never_get_a_5xx_or_a_traceback(
    raw_server: RawServer, build: Callable[[Game], bytes], finished: bool
) -> None:
    # The HTTP server may refuse bytes HTTP forbids before the app sees them (uvicorn answers a
    # plain-text 400); what the app sees it must refuse with a 4xx problem. Either way: no 5xx,
    # no traceback in the log, the game unchanged. (The app logs an unexpected error before it
    # answers, so the log is complete once the answer is read.)
    game = raw_server.game(finished=finished)
    before = raw_server.state(game)
    offset = raw_server.log_size()
    status, answer = raw_server.exchange(build(game))
    log = raw_server.log_since(offset)
    assert status < 500, answer[:1000]
    assert "Traceback" not in log, log[-3000:]
    assert raw_server.state(game) == before


@pytest.mark.parametrize(("suffix", "valid"), ACTION_ROUTES)
@pytest.mark.parametrize(
    ("body", "headers"),
    [
        pytest.param({"player": "١"}, {}, id="player-arabic-indic-digit"),
        pytest.param({"player": 10**100}, {}, id="player-huge"),
        pytest.param({"player": "1\x00"}, {}, id="player-nul"),
        pytest.param({"player": 3}, {}, id="player-3"),
        pytest.param({"player": True}, {}, id="player-true"),
        pytest.param({"player": 1.5}, {}, id="player-fraction"),
        pytest.param({}, {"If-Match": '"{id}.١"'}, id="if-match-arabic-indic-digit"),
        pytest.param({}, {"If-Match": '"{id}.' + "9" * 400 + '"'}, id="if-match-huge"),
        pytest.param({}, {"If-Match": '"{id}.1\x01"'}, id="if-match-control"),
        pytest.param({}, {"Idempotency-Key": "k" * 10_000}, id="key-10kB"),
        pytest.param({}, {"Idempotency-Key": "k\x01"}, id="key-control"),
        pytest.param({}, {"Idempotency-Key": "ключ"}, id="key-non-ascii"),
    ],
)
def test_garbage_in_an_action_is_a_4xx_problem_and_changes_nothing(
    client: TestClient, played: Game, suffix: str, valid: dict[str, Any],
    body: dict[str, Any], headers: dict[str, str],
) -> None:  # fmt: skip
    """Every action route (resign, draw offer, abort, takeback offer, give time) refuses a
    garbage ``player`` or a garbage ``If-Match`` or ``Idempotency-Key`` with a 4xx problem,
    before it does anything."""
    before = state(client, played)
    sent = {name: value.replace("{id}", played.id) for name, value in headers.items()}
    response = client.post(
        f"{played.url}{suffix}", json={**valid, **body},
        headers={**bearer(played.tokens[0]), **{k: v.encode("utf-8") for k, v in sent.items()}},
    )  # fmt: skip
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert state(client, played) == before
