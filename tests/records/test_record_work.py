"""Audits, game records and legal moves cost the client that asks, and no one else.

Their CPU time is charged to the client's share (``app.api.work``, measured by a fake CPU clock
here): a client that has used its share is refused 429 before any of the work, and a record whose
moves are reckoned to cost more than the share has left (``record_move_cpu_us`` a move) before
it is replayed or written. Long work is done a slice at a time, other requests answered between
slices. A finished game's record is written once, kept, and answered the same bytes with its
ETag on every store.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.api import records, work
from app.api.kept_records import ENTRY_BYTES, KeptRecords
from app.api.work import WorkBudget
from app.main import create_app
from app.records import reading
from app.records.written import WrittenRecord
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.fakes import FakeClock, FakeCpu

CLIENT = "testclient"  # the TestClient's address, whose share the tests spend
OTHER = ("192.0.2.7", 50000)  # another client: the players, whose work is not the reader's

# A tic-tac-toe game on a board too large to be won in a few hundred moves (k = n).
BIG = {"n": 1000}


def row_moves(count: int) -> list[list[int]]:
    return [[i // 1000, i % 1000] for i in range(count)]


class Calls:
    """A module function replaced by one that counts its calls, then calls it. (Made after the
    app: making one audits its OpenAPI examples.)"""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> None:
        self.count = 0
        original: Callable[..., Any] = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


def budgeted(step: float = 0.0, **settings: Any) -> tuple[TestClient, WorkBudget, FakeClock]:
    """An app whose clients may spend 600 ms of CPU a minute (10 ms a second), 500 ms at once,
    where every metered stretch of work takes ``step`` seconds (none: only what a test spends)."""
    app = create_app(
        Settings(
            client_cpu_ms_per_minute=600, client_cpu_burst_ms=500, create_rate_per_minute=0,
            **settings,
        )
    )  # fmt: skip
    budget: WorkBudget = app.state.work_budget
    budget.cpu_clock = FakeCpu(step)
    clock = FakeClock()
    budget.limiter.clock = clock
    return TestClient(app), budget, clock


def play(client: TestClient, game: dict[str, Any], cells: list[tuple[int, int]]) -> None:
    for i, (row, col) in enumerate(cells):
        answer = client.post(
            f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {game['tokens'][str(1 + i % 2)]}"},
        )  # fmt: skip
        assert answer.status_code == 201, answer.text


# A tic-tac-toe game X wins on the top row.
TOP_ROW_WIN = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]


# --- audits -----------------------------------------------------------------------------------


def test_an_audit_from_a_client_whose_share_is_used_is_429_before_it_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, budget, _ = budgeted()
    replays = Calls(monkeypatch, reading, "replaying")
    body = {**BIG, "moves": row_moves(10)}
    with client:
        budget.limiter.spend(CLIENT, 1.0)  # its other requests used it
        batch = {"records": [body]}
        for path, sent in [("/v1/records/audit", body), ("/v1/records/audit-batch", batch)]:
            refused = client.post(path, json=sent)
            problem = assert_problem(refused, 429, "rate_limited")
            assert "CPU time" in problem["detail"]
            assert int(refused.headers["retry-after"]) >= 1
            # Refused before its body is read: a body that is no JSON at all is 429 too.
            assert client.post(path, content=b"{not json").status_code == 429
    assert replays.count == 0


def test_a_record_reckoned_to_cost_more_than_the_share_left_is_429_before_its_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, budget, clock = budgeted(record_move_cpu_us=1000)  # a move reckoned at 1 ms
    replays = Calls(monkeypatch, reading, "replaying")
    long, short = {**BIG, "moves": row_moves(200)}, {**BIG, "moves": row_moves(20)}
    with client:
        budget.limiter.spend(CLIENT, 0.4)  # 100 ms left: 200 moves are reckoned at 200 ms
        refused = client.post("/v1/records/audit", json=long)
        assert_problem(refused, 429, "rate_limited")
        assert replays.count == 0
        assert client.post("/v1/records/audit", json=short).json()["plies"] == 20  # 20 ms: in
        clock.now += int(refused.headers["retry-after"])
        assert client.post("/v1/records/audit", json=long).json()["plies"] == 200
    assert replays.count == 2


def test_a_record_reckoned_to_cost_more_than_a_whole_share_is_audited_from_a_full_one() -> None:
    client, _, _ = budgeted(record_move_cpu_us=1000)  # 1,000 moves: a second, twice the burst
    with client:
        answer = client.post("/v1/records/audit", json={**BIG, "moves": row_moves(1000)})
    assert answer.status_code == 200, answer.text
    assert answer.json()["plies"] == 1000


def test_a_batch_is_429_before_a_record_reckoned_to_cost_more_than_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, budget, _ = budgeted(record_move_cpu_us=1000)
    replays = Calls(monkeypatch, reading, "replaying")
    batch = {"records": [{**BIG, "moves": row_moves(20)}, {**BIG, "moves": row_moves(200)}]}
    with client:
        budget.limiter.spend(CLIENT, 0.4)  # 100 ms left: the first fits, the second does not
        assert_problem(client.post("/v1/records/audit-batch", json=batch), 429, "rate_limited")
    assert replays.count == 1


async def _concurrently(app: Any, *requests: tuple[str, dict[str, Any]]) -> list[httpx.Response]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return list(
            await asyncio.gather(*(client.post(path, json=body) for path, body in requests))
        )


def _replayed_moves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The moves replayed, as each audit's replay takes them: each named by its game's ``n``."""
    log: list[int] = []
    original = reading.replaying

    def logged(kind: Any, params: Any, moves: Any, opening: Any = ()) -> Any:
        def taken() -> Iterator[Any]:
            for move in moves:
                log.append(params["n"])
                yield move

        return original(kind, params, taken(), opening)

    monkeypatch.setattr(reading, "replaying", logged)
    return log


@pytest.mark.parametrize("path", ["/v1/records/audit", "/v1/records/audit-batch"])
def test_a_long_audit_is_replayed_in_slices_with_other_requests_answered_between(
    monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    monkeypatch.setattr(work, "SLICE_SECONDS", 0.0)  # a slice a step: a move
    app = create_app(Settings(client_cpu_ms_per_minute=0))
    log = _replayed_moves(monkeypatch)
    one = {"n": 1000, "moves": row_moves(50)}
    sent = {"records": [one]} if path.endswith("batch") else one  # in a batch: one record
    other = {"n": 999, "moves": row_moves(50)}
    answers = asyncio.run(_concurrently(app, (path, sent), ("/v1/records/audit", other)))
    assert [answer.status_code for answer in answers] == [200, 200]
    assert sorted(log) == [999] * 50 + [1000] * 50
    # Neither audit ran whole while the other waited: their moves were replayed in turns.
    first_of_other, last_of_one = log.index(999), len(log) - 1 - log[::-1].index(1000)
    assert first_of_other < last_of_one
    assert log.index(1000) < len(log) - 1 - log[::-1].index(999)


def test_an_audit_is_charged_between_its_slices_and_refused_once_the_share_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(work, "SLICE_SECONDS", 0.0)
    client, _, _ = budgeted(step=0.1)  # every slice 100 ms: the share (500 ms) is a few moves
    log = _replayed_moves(monkeypatch)
    with client:
        refused = client.post("/v1/records/audit", json={**BIG, "moves": row_moves(100)})
    assert_problem(refused, 429, "rate_limited")
    assert 1 <= len(log) <= 6  # stopped after its share's worth of slices, not at the end


# --- game records -----------------------------------------------------------------------------


@pytest.fixture(params=["memory", "redis"])
def store_url(request: pytest.FixtureRequest) -> str:
    from tests.conftest import empty_store

    return empty_store(request, request.param)


def test_a_finished_games_record_is_written_once_and_answered_the_same_bytes(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes = Calls(monkeypatch, records, "written_record")
    app = create_app(Settings(store_url=store_url, create_rate_per_minute=0))
    with TestClient(app) as client:
        game = client.post("/v1/games", json={"n": 3}).json()
        play(client, game, TOP_ROW_WIN)
        path = f"/v1/games/{game['id']}/record"
        for format in ("json", "transcript"):
            first = client.get(path, params={"format": format})
            assert first.status_code == 200, first.text
            again = client.get(path, params={"format": format})
            assert again.content == first.content
            assert again.headers["etag"] == first.headers["etag"]
            unchanged = client.get(
                path, params={"format": format}, headers={"If-None-Match": first.headers["etag"]}
            )
            assert unchanged.status_code == 304
        assert json.loads(client.get(path).content)["signature"] is not None
        assert client.get(path, params={"format": "transcript"}).text == "a3a2b3b2c3"
    assert writes.count == 2  # once a format


def test_a_rematch_offer_changes_the_record_and_its_etag(store_url: str) -> None:
    app = create_app(Settings(store_url=store_url, create_rate_per_minute=0))
    with TestClient(app) as client:
        game = client.post("/v1/games", json={"n": 3}).json()
        play(client, game, TOP_ROW_WIN)
        path = f"/v1/games/{game['id']}/record"
        before = client.get(path)
        offered = client.post(
            f"/v1/games/{game['id']}/rematch",
            headers={"Authorization": f"Bearer {game['tokens']['2']}"},
        )
        assert offered.status_code == 200, offered.text
        after = client.get(path)
        assert after.headers["etag"] != before.headers["etag"]
        assert after.json()["state"]["rematch_offer"] == 2
        assert "rematch_offer" not in before.json()["state"]


def test_a_live_games_record_is_written_at_each_read_and_charged_to_the_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(work, "SLICE_SECONDS", 3600.0)  # a small record: one slice
    writes = Calls(monkeypatch, records, "written_record")
    client, budget, _ = budgeted()
    with client, TestClient(client.app, client=OTHER) as players:
        game = players.post("/v1/games", json=BIG).json()
        play(players, game, [(0, 0), (5, 5)])
        budget.cpu_clock = FakeCpu(1.0)  # now a read's work puts its reader in debt
        path = f"/v1/games/{game['id']}/record"
        assert client.get(path).status_code == 200
        assert_problem(client.get(path), 429, "rate_limited")
        assert_problem(client.get(path, params={"format": "transcript"}), 429, "rate_limited")
        assert writes.count == 1
        assert players.get(path).status_code == 200  # the players' share is theirs
    assert writes.count == 2


def test_a_live_record_reckoned_to_cost_more_than_the_share_left_is_429_before_it_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    writes = Calls(monkeypatch, records, "written_record")
    client, budget, clock = budgeted(record_move_cpu_us=50_000)  # 50 ms a move
    with client, TestClient(client.app, client=OTHER) as players:
        game = players.post("/v1/games", json=BIG).json()
        play(players, game, [(0, col) for col in range(6)])  # 300 ms
        budget.limiter.spend(CLIENT, 0.3)  # 200 ms left
        refused = client.get(f"/v1/games/{game['id']}/record")
        assert_problem(refused, 429, "rate_limited")
        assert writes.count == 0
        clock.now += int(refused.headers["retry-after"])
        assert client.get(f"/v1/games/{game['id']}/record").json()["moves"] == [
            [0, col] for col in range(6)
        ]


def test_a_format_that_cannot_write_the_game_is_422_before_its_moves_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = create_app(Settings(create_rate_per_minute=0))

    async def unread(game_id: str) -> None:
        raise AssertionError("the game's moves were read")

    with TestClient(app) as client:
        wide = client.post("/v1/games", json={"n": 30, "k": 5}).json()
        small = client.post("/v1/games", json={"n": 3}).json()
        play(client, wide, [(0, 0)])
        monkeypatch.setattr(app.state.store, "history", unread)
        for game, format in [(wide, "transcript"), (small, "ggf"), (small, "psq")]:
            refused = client.get(f"/v1/games/{game['id']}/record", params={"format": format})
            problem = assert_problem(refused, 422, "validation_error")
            assert problem["errors"][0]["loc"] == ["query", "format"]


def test_a_transcript_of_a_game_with_a_pass_is_422_and_so_is_every_read_of_it(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes = Calls(monkeypatch, records, "written_record")
    app = create_app(Settings(store_url=store_url, create_rate_per_minute=0))
    with TestClient(app) as client:
        game = client.post("/v1/games", json={"game": "gomoku", "rule": "renju"}).json()
        auth = {"Authorization": f"Bearer {game['tokens']['1']}"}
        assert client.post(f"/v1/games/{game['id']}/moves", json={"pass": True},
                           headers=auth).status_code == 201  # fmt: skip
        auth = {"Authorization": f"Bearer {game['tokens']['2']}"}
        assert client.post(f"/v1/games/{game['id']}/moves", json={"pass": True},
                           headers=auth).status_code == 201  # fmt: skip
        assert client.get(f"/v1/games/{game['id']}").json()["reason"] == "passes"
        for _ in range(2):
            refused = client.get(f"/v1/games/{game['id']}/record?format=transcript")
            assert "pass" in assert_problem(refused, 422, "validation_error")["detail"]
    assert writes.count == 1  # the game is over: its refusal is kept too


# --- legal moves ------------------------------------------------------------------------------


def test_legal_moves_of_a_client_whose_share_is_used_are_429_before_the_game_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, budget, _ = budgeted()
    with client, TestClient(client.app, client=OTHER) as players:
        game = players.post("/v1/games", json={"game": "gomoku", "rule": "renju"}).json()
        reads = Calls(monkeypatch, client.app.state.store, "legal_moves")  # type: ignore[attr-defined]
        path = f"/v1/games/{game['id']}/legal-moves"
        assert client.get(path).status_code == 200
        budget.limiter.spend(CLIENT, 1.0)
        problem = assert_problem(client.get(path), 429, "rate_limited")
        assert "CPU time" in problem["detail"]
        assert reads.count == 1
        assert players.get(path).status_code == 200


def test_legal_moves_are_charged_to_their_reader() -> None:
    client, budget, _ = budgeted()
    with client, TestClient(client.app, client=OTHER) as players:
        game = players.post("/v1/games", json={"game": "gomoku", "rule": "renju"}).json()
        budget.cpu_clock = FakeCpu(1.0)  # now a read puts its reader in debt
        path = f"/v1/games/{game['id']}/legal-moves"
        assert client.get(path).json()["count"] == 225
        assert_problem(client.get(path), 429, "rate_limited")


# --- the kept records -------------------------------------------------------------------------


def written(size: int) -> WrittenRecord:
    return WrittenRecord(b"x" * (size - ENTRY_BYTES), "text/plain")


def test_kept_records_are_bounded_and_the_least_recently_read_go_first() -> None:
    kept = KeptRecords(3 * 1000)
    for game in "abc":
        kept.keep(game, 1, "json", written(1000))
    assert kept.get("a", 1, "json") is not None  # read: now the most recent
    kept.keep("d", 1, "json", written(1000))
    assert kept.get("b", 1, "json") is None
    assert all(kept.get(game, 1, "json") is not None for game in "acd")
    assert kept.bytes == 3000
    kept.keep("e", 1, "json", written(2500))  # room made for it: two go
    assert [game for game in "acde" if kept.get(game, 1, "json")] == ["e"]
    assert kept.get("e", 2, "json") is None  # another version is another record
    assert kept.get("e", 1, "transcript") is None


def test_a_record_larger_than_the_room_is_not_kept_and_none_are_at_zero() -> None:
    kept = KeptRecords(1000)
    kept.keep("a", 1, "json", written(800))
    kept.keep("b", 1, "json", written(1001))
    assert kept.get("a", 1, "json") is not None
    assert kept.get("b", 1, "json") is None
    nothing = KeptRecords(0)
    nothing.keep("a", 1, "json", WrittenRecord(b"", "text/plain"))
    assert nothing.get("a", 1, "json") is None
    assert nothing.bytes == 0


def test_legal_moves_and_records_declare_their_429() -> None:
    document = create_app(Settings()).openapi()
    for path in ("/v1/games/{game_id}/legal-moves", "/v1/games/{game_id}/record"):
        assert "429" in document["paths"][path]["get"]["responses"]


def test_a_board_of_a_client_whose_share_is_used_is_429_before_the_game_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, budget, _ = budgeted()
    with client, TestClient(client.app, client=OTHER) as players:
        game = players.post("/v1/games", json={"n": 100}).json()
        play(players, game, [(0, 0), (99, 99)])
        rows = Calls(monkeypatch, client.app.state.store, "rows")  # type: ignore[attr-defined]
        path = f"/v1/games/{game['id']}/board"
        assert client.get(path).json()["rows"][0].startswith("X.")
        budget.limiter.spend(CLIENT, 1.0)
        assert_problem(client.get(path), 429, "rate_limited")
        assert rows.count == 1
        assert players.get(path).status_code == 200
