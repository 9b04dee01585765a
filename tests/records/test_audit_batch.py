"""``POST /v1/records/audit-batch``: JSON batches, and a real WTHOR file (1988) streamed back as
NDJSON, every game's line checked against the independent replay of ``test_wthor.py``."""

from __future__ import annotations

import gc
import json
import struct
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.bodies import batch_items
from app.contract.bodies import DEFAULT_MAX_BATCH, BodyInvalid
from app.main import create_app
from app.records.steps import completed
from app.records.wthor import read_wthor
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.records.test_wthor import MAX, YEAR_1988, federation_score, replay
from tests.rules.reference import reversi_moves

WTHOR = {"content-type": "application/octet-stream"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    settings = Settings(client_cpu_ms_per_minute=0, max_batch=5)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def lines(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/x-ndjson"
    return [json.loads(line) for line in response.text.splitlines()]


def test_every_game_of_a_real_wthor_file_is_audited_as_the_reference_replays_it(
    client: TestClient,
) -> None:
    answered = lines(client.post("/v1/records/audit-batch", content=YEAR_1988, headers=WTHOR))
    _, games = read_wthor(YEAR_1988, MAX)
    expected = list(games)
    assert [line["index"] for line in answered] == [game.index for game in expected]
    for line, game in zip(answered, expected, strict=True):
        grid = replay(game.moves)
        assert grid is not None
        over = not (reversi_moves(grid, "B") or reversi_moves(grid, "W"))
        assert (line["tournament"], line["black"], line["white"], line["stored_score"]) == (
            game.tournament, game.black, game.white, game.stored_score
        )  # fmt: skip
        assert line["verdict"] == ("finished" if over else "unfinished")
        assert line["plies"] == len(game.moves)
        assert line["illegal"] is None
        if over:
            black = federation_score(grid)
            assert line["final_score"]["B"] == black
            assert line["agrees"] is (black == game.stored_score)
        else:
            assert (line["final_score"], line["agrees"]) == (None, False)
    assert sum(line["agrees"] for line in answered) == 1815  # every finished game of 1988


def with_move(data: bytes, game: int, ply: int, square: int) -> bytes:
    at = 16 + 68 * (game - 1) + 8 + (ply - 1)
    return data[:at] + bytes([square]) + data[at + 1 :]


def test_a_planted_illegal_move_is_named_in_its_games_line(client: TestClient) -> None:
    small = YEAR_1988[:4] + struct.pack("<I", 3) + YEAR_1988[8 : 16 + 3 * 68]
    planted = with_move(small, 2, 1, 11)  # a1 as the second game's first move
    answered = lines(client.post("/v1/records/audit-batch", content=planted, headers=WTHOR))
    assert [line["verdict"] for line in answered] == ["finished", "illegal", "finished"]
    illegal = answered[1]["illegal"]
    assert (illegal["ply"], illegal["move"], illegal["code"]) == (1, "a1", "illegal_move")
    assert answered[1]["agrees"] is False


def test_a_wthor_header_that_disagrees_with_the_body_is_422(client: TestClient) -> None:
    response = client.post("/v1/records/audit-batch", content=YEAR_1988[:-1], headers=WTHOR)
    assert "byte" in assert_problem(response, 422, "validation_error")["detail"]
    garbage = client.post("/v1/records/audit-batch", content=b"\x00\xff" * 40, headers=WTHOR)
    assert_problem(garbage, 422, "validation_error")


def test_a_broken_game_ends_the_stream_with_its_problem(client: TestClient) -> None:
    small = YEAR_1988[:4] + struct.pack("<I", 3) + YEAR_1988[8 : 16 + 3 * 68]
    broken = with_move(small, 2, 5, 99)  # 99 names no square
    answered = lines(client.post("/v1/records/audit-batch", content=broken, headers=WTHOR))
    assert answered[0]["verdict"] == "finished"
    assert answered[1]["index"] == 2
    assert answered[1]["problem"]["code"] == "validation_error"
    assert len(answered) == 2


def test_a_json_batch_answers_each_record_in_order_and_a_bad_one_alone(
    client: TestClient,
) -> None:
    records = [
        {"n": 3, "transcript": "b2a1c3b2"},
        {"n": 3, "moves": ["z9"]},
        {"game": "reversi", "transcript": "f5d6c3"},
    ]
    response = client.post("/v1/records/audit-batch", json={"records": records})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert results[0]["verdict"] == "illegal"
    assert results[0]["illegal"]["ply"] == 4
    assert results[1]["problem"]["code"] == "validation_error"
    assert results[1]["problem"]["errors"][0]["loc"][:4] == ["body", "records", 1, "moves"]
    assert results[2]["verdict"] == "unfinished"
    alone = client.post("/v1/records/audit", json=records[2]).json()
    assert results[2]["chain"] == alone["chain"]
    assert results[2]["signature"]["kid"] == alone["signature"]["kid"]


@pytest.mark.parametrize(
    "body",
    [{"records": []}, {"records": [{"n": 3, "moves": []}] * 6}, {"record": []}, [], {"records": 3}],
)
def test_a_batch_that_is_not_one_is_422(client: TestClient, body: Any) -> None:
    assert_problem(client.post("/v1/records/audit-batch", json=body), 422, "validation_error")


def test_a_full_json_batch_of_records_is_answered_whole() -> None:
    """``max_batch`` records (the default: 1,000), each of several members (a swap2 game with
    its choice): the members of records validated one by one are the body's own, not a surplus
    to refuse (they were, from 1,024 members on)."""
    record = {"game": "gomoku", "opening": "swap2", "moves": ["h8", "h9", "i9", {"color": "W"}]}
    app = create_app(Settings(client_cpu_ms_per_minute=0))
    with TestClient(app, raise_server_exceptions=False) as full:
        answer = full.post(
            "/v1/records/audit-batch", json={"records": [record] * DEFAULT_MAX_BATCH}
        )
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert len(results) == DEFAULT_MAX_BATCH
    assert {(r["verdict"], r["plies"]) for r in results} == {("unfinished", 4)}


def test_a_batchs_records_are_held_as_their_json_text_until_each_is_audited() -> None:
    """A megabyte of records read as objects would be walked by every collection of the
    garbage collector while the batch is audited: each is kept as text, read when its turn
    comes, and the answer is the one its objects would have had."""
    app = create_app(Settings())
    records = [{"game": "reversi", "moves": ["f5", "d6"]}, {"n": 3, "moves": [[1, 1]]}]
    body = json.dumps({"records": records}).encode()
    parsed = app.state.audits.batch.validate(body, app.state.validation_context)
    assert all(isinstance(record, bytes) for record in parsed.records)
    assert [json.loads(record) for record in parsed.records] == records


def test_a_refused_body_leaves_the_garbage_collector_as_it_was() -> None:
    """Bodies are read with the collector held off; a refused one turns it back on too."""
    app = create_app(Settings())
    assert gc.isenabled()
    with TestClient(app) as client:
        assert_problem(client.post("/v1/records/audit-batch", content=b'{"records": [1'), 422,
                       "validation_error")  # fmt: skip
        assert (
            client.post("/v1/records/audit-batch", json={"records": [{"n": 3}]}).status_code == 200
        )
    assert gc.isenabled()


NUMBERS = st.integers() | st.floats(allow_nan=False, allow_infinity=False)  # JSON's own
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
SPACES = st.text(alphabet=" \t\n\r", max_size=2)
BATCH_APP = create_app(Settings(max_batch=5))


def full_parse(body: bytes) -> list[Any] | None:
    """The batch's records as the whole body's validation reads them; None for a 422."""
    try:
        parsed = BATCH_APP.state.audits.batch.validate(body, BATCH_APP.state.validation_context)
    except BodyInvalid:
        return None
    return [json.loads(record) for record in parsed.records]


def split(body: bytes) -> list[Any] | None:
    items = completed(batch_items(body, "records", 5))
    return None if items is None else [json.loads(item) for item in items]


@settings(max_examples=300, deadline=None)
@given(st.lists(JSON_VALUES, max_size=6), st.lists(SPACES, min_size=8, max_size=8),
       st.booleans())  # fmt: skip
def test_a_batch_split_an_item_a_step_reads_what_the_whole_body_reads(
    records: list[Any], spaces: list[str], bom: bool
) -> None:
    """Each item's text, as the split reads it, is the item the whole body's validation
    reads, whatever the whitespace between the tokens; a body the split cannot vouch for
    (here: an empty batch or more than ``max_batch`` items) is left to the whole parse."""
    a, b, c, d, e, f, g, h = spaces
    inner = f"{e},{f}".join(json.dumps(record, separators=(",", ":")) for record in records)
    body = f'{a}{{{b}"records"{c}:{d}[{g}{inner}{g}]{h}}}{a}'.encode()
    body = b"\xef\xbb\xbf" + body if bom else body
    whole, items = full_parse(body), split(body)
    if items is not None:
        assert items == whole == records
    else:
        assert not records or len(records) > 5


@pytest.mark.parametrize(
    "body",
    [b'{"records": [1, 2', b'{"records": [1,]}', b'{"records": [NaN]}', b'{"records": [Infinity]}',
     b'{"records": [1], "x": 2}', b'{"x": 2, "records": [1]}', b'{"records": [1]} []',
     b'{"records": [1]}\xff', b'{"records": ["\x01"]}',
     b'{"records": [01]}', b'{"records": [' + b"[" * 5000 + b"]" * 5000 + b"]}",
     b'{"records": []}', b'{"records": {}}', b'{"records": 1}', b'[{"records": [1]}]',
     b'{"records": [1, 2, 3, 4, 5, 6]}', b'{"Records": [1]}', b'{"records": [1]}}'],
)  # fmt: skip
def test_a_batch_the_split_cannot_vouch_for_is_read_whole(body: bytes) -> None:
    """Anything but ``{"records": [...]}`` of well-formed JSON goes to the whole parse, whose
    errors say what is wrong (or, for members the split does not take, what it reads)."""
    assert split(body) is None


def test_an_item_only_pythons_reader_takes_is_its_own_problem(client: TestClient) -> None:
    body = b'{"records": [{"n": 3, "moves": ["\\ud800"]}, {"n": 3, "moves": []}]}'
    assert split(body) is not None
    results = client.post("/v1/records/audit-batch", content=body).json()["results"]
    assert results[0]["problem"]["errors"][0]["loc"][:3] == ["body", "records", 0]
    assert results[1]["verdict"] == "unfinished"


def test_a_batch_is_read_an_item_a_step() -> None:
    """The event loop is served between two items, so a megabyte of records is not one
    stretch of work: one step between each two."""
    records = [{"n": 3, "moves": [[i % 3, i // 3 % 3]]} for i in range(5)]
    steps = batch_items(json.dumps({"records": records}).encode(), "records", 5)
    taken = sum(1 for _ in iter(lambda: next(steps, "done"), "done"))
    assert taken == len(records) - 1
    items = completed(batch_items(json.dumps({"records": records}).encode(), "records", 5))
    assert [json.loads(item) for item in items or []] == records


@pytest.mark.parametrize("content_type", ["application/json", "application/problem+json", None])
def test_a_spaced_out_batch_is_answered_as_a_compact_one(
    client: TestClient, content_type: str | None
) -> None:
    records = [{"n": 3, "transcript": "b2a1"}, {"n": 3, "moves": ["z9"]}]
    spaced = (
        b'\xef\xbb\xbf\n{ "records" :\t[ '
        + b" ,\r\n".join(json.dumps(record, indent=2).encode() for record in records)
        + b" ] }\n"
    )
    headers = {} if content_type is None else {"content-type": content_type}
    answer = client.post("/v1/records/audit-batch", content=spaced, headers=headers)
    compact = client.post("/v1/records/audit-batch", json={"records": records})
    assert answer.status_code == compact.status_code == 200, answer.text
    assert answer.json() == compact.json()


def test_a_batch_of_another_media_type_is_still_refused(client: TestClient) -> None:
    body = json.dumps({"records": [{"n": 3, "moves": []}]})
    answer = client.post("/v1/records/audit-batch", content=body,
                         headers={"content-type": "text/plain"})  # fmt: skip
    assert_problem(answer, 422, "validation_error")
