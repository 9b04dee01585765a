"""A game's move list is read in pages, other requests served between them, and each client may
read its share of moves a minute (429 beyond, before its next read)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.games import routes
from app.main import create_app
from tests.api.problems import assert_problem
from tests.conftest import app_settings, empty_store
from tests.fakes import FakeClock


@pytest.fixture(params=["memory", "redis"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    settings = app_settings(
        store_url=empty_store(request, request.param),
        create_rate_per_minute=0,
        history_moves_per_minute=60,  # a move a second
        history_moves_burst=30,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def played(client: TestClient, moves: int) -> str:
    game: dict[str, Any] = client.post("/v1/games", json={"n": 100}).json()
    for i in range(moves):
        token = game["tokens"][str(1 + i % 2)]
        answer = client.post(
            f"/v1/games/{game['id']}/moves",
            json={"row": i // 100, "col": i % 100},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 201
    return str(game["id"])


@pytest.mark.parametrize(("since", "limit"), [(0, 1000), (0, 7), (3, 10), (6, 8), (25, 5)])
def test_a_move_list_read_in_pages_is_the_moves_asked_for(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, since: int, limit: int
) -> None:
    game = played(client, 23)
    monkeypatch.setattr(routes, "HISTORY_PAGE", 3)
    page = client.get(f"/v1/games/{game}/moves", params={"since": since, "limit": limit}).json()
    expected = list(range(since + 1, min(23, since + limit) + 1))
    assert [move["seq"] for move in page["moves"]] == expected
    assert [(move["row"], move["col"]) for move in page["moves"]] == [
        ((seq - 1) // 100, (seq - 1) % 100) for seq in expected
    ]
    assert page["version"] == 23


def test_a_client_reads_its_share_of_moves(client: TestClient) -> None:
    clock = FakeClock()
    client.app.state.history_reads.clock = clock  # type: ignore[attr-defined]
    game = played(client, 20)
    assert len(client.get(f"/v1/games/{game}/moves").json()["moves"]) == 20
    assert len(client.get(f"/v1/games/{game}/moves", params={"limit": 5}).json()["moves"]) == 5
    let_in = client.get(f"/v1/games/{game}/moves")  # 25 of 30 read: 5 left, the next is let in
    assert let_in.status_code == 200
    refused = client.get(f"/v1/games/{game}/moves")  # in debt now
    problem = assert_problem(refused, 429, "rate_limited")
    assert "moves read" in problem["detail"]
    waited = int(refused.headers["retry-after"])
    assert 1 <= waited <= 30
    assert client.get(f"/v1/games/{game}").status_code == 200  # the game's state is no history
    clock.now += waited
    assert client.get(f"/v1/games/{game}/moves", params={"limit": 1}).status_code == 200


def before_each_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, page: int, what: Callable[[int], None]
) -> None:
    """Pages of ``page`` moves, and ``what(count)`` run as the store is asked for ``count``."""
    monkeypatch.setattr(routes, "HISTORY_PAGE", page)
    store = client.app.state.store  # type: ignore[attr-defined]
    read = store.moves

    async def moves(game_id: str, since: int, count: int) -> Any:
        what(count)
        return await read(game_id, since, count)

    monkeypatch.setattr(store, "moves", moves)


def test_each_page_asks_the_store_for_no_more_than_is_left_to_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = played(client, 23)
    asked: list[int] = []
    before_each_read(client, monkeypatch, 3, asked.append)
    page = client.get(f"/v1/games/{game}/moves", params={"since": 2, "limit": 7}).json()
    assert [move["seq"] for move in page["moves"]] == list(range(3, 10))
    assert asked == [3, 3, 1]


def test_a_read_ends_early_when_the_clients_other_reads_use_its_share(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    reads = client.app.state.history_reads  # type: ignore[attr-defined]
    reads.clock = clock
    game = played(client, 23)
    # Another read of the same client's, at the same time, spends its whole share.
    before_each_read(client, monkeypatch, 3, lambda _: reads.spend("testclient", 30))
    page = client.get(f"/v1/games/{game}/moves").json()
    assert [move["seq"] for move in page["moves"]] == [1, 2, 3]  # the moves read so far
    assert page["version"] == 23
    assert_problem(client.get(f"/v1/games/{game}/moves"), 429, "rate_limited")


def test_a_pages_moves_are_taken_from_the_share_before_they_are_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    reads = client.app.state.history_reads  # type: ignore[attr-defined]
    reads.clock = clock
    game = played(client, 23)
    left_meanwhile: list[int] = []

    def left(_: int) -> None:  # what another read of the same client's could take now
        could = reads.take_up_to("testclient", 1000, refuse=False)
        reads.refund("testclient", could)
        left_meanwhile.append(could)

    before_each_read(client, monkeypatch, 10, left)
    page = client.get(f"/v1/games/{game}/moves").json()
    assert len(page["moves"]) == 23
    assert left_meanwhile == [20, 10, 0]  # 30 at first: each page's 10 taken before its read
    # The last page asked for 10 and found 3: the 7 it did not read are given back.
    assert reads.take_up_to("testclient", 1000, refuse=False) == 7
