"""Names on seats (contract part 3, "Games that last: Names"): given at creation and by who joins,
carried by states and records (JSON `names`, GGF and SGF `PB` / `PW`), following each player
into a rematch; a bad name is a 422 naming it and changes nothing. On every store.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.api.problems import assert_problem
from tests.conftest import shared_settings


@pytest.fixture(scope="module")
def client(module_store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(shared_settings(store_url=module_store_url))) as made:
        yield made


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_names_given_at_creation_and_by_who_joins(client: TestClient) -> None:
    made = client.post(
        "/v1/games", json={"game": "reversi", "open": True, "names": {"1": "Ann Émilie"}}
    ).json()
    assert made["names"] == {"1": "Ann Émilie"}
    joined = client.post(f"/v1/games/{made['id']}/join", json={"name": "Bo 🎲"}).json()
    assert joined["state"]["names"] == {"1": "Ann Émilie", "2": "Bo 🎲"}
    assert client.get(f"/v1/games/{made['id']}").json()["names"] == joined["state"]["names"]
    client.post(f"/v1/games/{made['id']}/resign", headers=bearer(joined["token"]), json={})
    record = client.get(f"/v1/games/{made['id']}/record").json()
    assert record["names"] == {"1": "Ann Émilie", "2": "Bo 🎲"}
    ggf = client.get(f"/v1/games/{made['id']}/record", params={"format": "ggf"}).text
    assert "PB[Ann Émilie]PW[Bo 🎲]" in ggf


def test_an_unnamed_game_says_no_names_and_a_join_without_a_body_keeps_them(
    client: TestClient,
) -> None:
    plain = client.post("/v1/games", json={"game": "tictactoe", "n": 3}).json()
    assert "names" not in plain
    assert "names" not in client.get(f"/v1/games/{plain['id']}/record").json()
    named = client.post(
        "/v1/games", json={"game": "tictactoe", "n": 3, "open": True, "names": {"2": "Cy"}}
    ).json()
    joined = client.post(f"/v1/games/{named['id']}/join")
    assert joined.status_code == 200
    assert joined.json()["state"]["names"] == {"2": "Cy"}


def test_sgf_names_black_and_white(client: TestClient) -> None:
    made = client.post(
        "/v1/games", json={"game": "gomoku", "names": {"1": "Black stones", "2": "White"}}
    ).json()
    client.post(f"/v1/games/{made['id']}/resign", headers=bearer(made["tokens"]["2"]), json={})
    sgf = client.get(f"/v1/games/{made['id']}/record", params={"format": "sgf"}).text
    assert "PB[Black stones]PW[White]" in sgf


def test_each_name_follows_its_player_into_the_rematch(client: TestClient) -> None:
    made = client.post(
        "/v1/games", json={"game": "tictactoe", "n": 3, "names": {"1": "Ann", "2": "Bo"}}
    ).json()
    first, second = made["tokens"]["1"], made["tokens"]["2"]
    client.post(f"/v1/games/{made['id']}/resign", headers=bearer(first), json={})
    client.post(f"/v1/games/{made['id']}/rematch", headers=bearer(first))
    answer = client.post(f"/v1/games/{made['id']}/rematch", headers=bearer(second)).json()
    rematch = client.get(f"/v1/games/{answer['rematch']['id']}").json()
    assert rematch["names"] == {"1": "Bo", "2": "Ann"}  # seats swapped, each name with its player


BAD_NAMES: list[Any] = ["", "x" * 65, "tab\there", "nul\u0000", "del\u007f", "c1\u0085", 7, None]


@pytest.mark.parametrize("name", BAD_NAMES, ids=repr)
def test_a_bad_name_is_a_422_naming_it(client: TestClient, name: Any) -> None:
    created = client.post("/v1/games", json={"game": "tictactoe", "n": 3, "names": {"1": name}})
    if name is None:  # a seat left unnamed
        assert created.status_code == 201
        return
    problem = assert_problem(created, 422, "validation_error")
    assert problem["errors"][0]["loc"] == ["body", "names", "1"]
    made = client.post("/v1/games", json={"game": "tictactoe", "n": 3, "open": True}).json()
    joined = client.post(f"/v1/games/{made['id']}/join", json={"name": name})
    problem = assert_problem(joined, 422, "validation_error")
    assert problem["errors"][0]["loc"] == ["body", "name"]
    assert client.get(f"/v1/games/{made['id']}").json()["open_seat"] == 2  # still free


@pytest.mark.parametrize("names", [{"3": "x"}, {"1": "a", "extra": "b"}, ["Ann"], "Ann"], ids=repr)
def test_names_is_an_object_of_seats(client: TestClient, names: Any) -> None:
    created = client.post("/v1/games", json={"game": "tictactoe", "n": 3, "names": names})
    problem = assert_problem(created, 422, "validation_error")
    assert problem["errors"][0]["loc"][:2] == ["body", "names"]
