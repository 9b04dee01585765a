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

from app.main import create_app
from app.records.wthor import read_wthor
from app.settings import DEFAULT_MAX_BATCH, Settings
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
