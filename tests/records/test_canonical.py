"""Canonical JSON's two writers agree: the standard library's encoder, in C, whose text is kept
where it is provably what RFC 8785 writes, and the general writer (``_write``, checked against
the RFC's own examples in ``test_signing.py``) — on values of every kind hypothesis makes (floats,
huge integers, names beyond the Basic Multilingual Plane, members named by what is no string,
what is not JSON, half points and hundredths, floats either side of where Python starts writing
an exponent), and on every record shape the service writes: each kind's creation
parameters, move records (placements, Othello's flips and passes, a renju refusal, a swap2
choice, Connect Four's drops), states and whole answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from app.main import create_app
from app.records.canonical import _canonical_as_written, _write, canonical_json, chain
from app.records.signing import SIGNATURE, verify
from app.settings import Settings


def general(value: object) -> bytes | type[BaseException]:
    """What the general writer writes of ``value``, or the class of what it raises."""
    try:
        return "".join(_write(value)).encode("utf-8")
    except (ValueError, RecursionError) as error:
        return type(error)


def written(value: object) -> bytes | type[BaseException]:
    """What ``canonical_json`` writes of ``value``, or the class of what it raises."""
    try:
        return canonical_json(value)
    except (ValueError, RecursionError) as error:
        return type(error)


def agree(value: object) -> None:
    fast, slow = written(value), general(value)
    if isinstance(slow, type):  # not JSON: refused by both, a ValueError (its kind) either way
        assert isinstance(fast, type), (value, fast)
        assert issubclass(fast, ValueError) == issubclass(slow, ValueError), (fast, slow)
    else:
        assert fast == slow, value


names = st.text(max_size=6) | st.sampled_from(["\U0001f600", "\ufb33", "€", "a", "1", "true"])
leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.sampled_from([0.0, -0.0, 1.0, 1e21, 1e-7, 5e-324, 1e16, 2.5, float("nan")])
    | st.floats(-1e17, 1e17)  # where Python writes no exponent, and past it on both sides
    | st.integers(-(10**6), 10**6).map(lambda n: n / 2)  # standings' points and tie-breaks
    | st.integers(-(10**6), 10**6).map(lambda n: n / 100)
    | st.sampled_from([1e-4, 9.999999999999999e-05, 1e15 + 0.5, 9999999999999998.0, 0.1 + 0.2])
    | st.text()
    | st.sampled_from(["1.5", "e+", "e-mail", "{", '"1":', "\U0001f600", "\ud800", "\x1f\x7f"])
)
any_names = names | st.integers(-5, 5) | st.booleans() | st.none() | st.floats(0, 2)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(names, inner, max_size=4)
        | st.dictionaries(any_names, inner, max_size=3)
    ),
    max_leaves=20,
)


@given(values)
def test_both_writers_write_the_same_or_refuse_alike(value: object) -> None:
    agree(value)


@pytest.mark.parametrize(
    "value",
    [
        {1: "a"},  # a member named by an integer: json writes "1", RFC 8785 has no such name
        {"a": {None: 1}},
        [{"b": 1}, {True: 2}],
        {"a": 1.0},  # ECMAScript writes 1
        {"a": [4.5, -0.0]},  # ECMAScript writes 0
        [0.5, 100.0, "1.0"],
        {"a": [1e21]},
        {"\U0001f600": 1, "\ufb33": 2},  # code point and UTF-16 orders differ
        {"a": b"x"},
        {"a": {1, 2}},
        float("inf"),
    ],
)
def test_what_the_encoder_would_write_otherwise_goes_the_general_way(value: object) -> None:
    agree(value)


# --- every record shape the service writes ----------------------------------------------------

BODIES: dict[str, dict[str, Any]] = {
    "othello": {"game": "reversi", "transcript": "f5d6c3d3c4f4f6f3e6e7d7"},
    # A real game with an inferred pass (WTHOR 1988): Othello's "passed" true.
    "othello-pass": {
        "game": "reversi",
        "transcript": "f5f6e6f4g5d6e7e8d7d8c5c6c4c3c8b8c7g4f7h5b6g6b5a4g8a5h3h4h6h7h8g7f8"
        "g3h2h1b4g2f3e3a8b7a6a7a3b3e2f2g1b2a2a1b1d3c2c1",
    },
    "othello-ggf": {
        "record": "(;GM[Othello]PC[GGS/os]BO[8 -------- -------- -------- ---O*--- ---*O--- "
        "-------- -------- -------- *]B[d3//0.01]W[c5//0.01]B[e6//0.01]W[d2//0.01];)",
        "format": "ggf",
    },
    "othello-illegal": {"game": "reversi", "transcript": "f5f5"},
    "tictactoe": {"n": 3, "moves": [[1, 1], [0, 1], [0, 0], [2, 1], [2, 2]]},
    "tictactoe-wide": {"n": 30, "k": 5, "moves": [[0, 0], [1, 1], [0, 29]]},
    "tictactoe-illegal": {"n": 3, "transcript": "b2a1c3b2"},
    "gomoku-psq": {
        "record": "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,0\n11,10,812\n12,10,640\n"
        "10,11,1210\n9,12,977\n-1\n",
        "format": "psq",
    },
    "renju-forbidden": {
        "record": "(;FF[4]GM[4]SZ[15]RU[Renju];B[hh];W[ob];B[ig];W[mb];B[hf];W[kb];"
        "B[jg];W[ib];B[hg])",
        "format": "sgf",
    },
    "gomoku-swap2": {
        "game": "gomoku",
        "opening": "swap2",
        "moves": ["h8", "h9", "i9", {"color": "W"}, "j10"],
    },
    "connect4": {"game": "connect4", "moves": [3, 3, 4, 4, 5, 5, 6]},
    "connect4-illegal": {"game": "connect4", "moves": [0, 0, 0, 0, 0, 0, 0]},
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(create_rate_per_minute=0))) as test_client:
        yield test_client


def shapes_of(answer: dict[str, Any]) -> Iterator[object]:
    """Every value an audit answer's chain and signature write as canonical JSON."""
    yield from answer["moves"]
    yield answer["state"]
    yield answer.get("illegal")
    yield {k: v for k, v in answer.items() if k != SIGNATURE}
    yield answer


@pytest.mark.parametrize("name", sorted(BODIES))
def test_every_record_shape_is_written_alike_and_its_moves_in_c(
    client: TestClient, name: str
) -> None:
    response = client.post("/v1/records/audit", json=BODIES[name])
    assert response.status_code == 200, response.text
    answer = response.json()
    assert (answer["verdict"] == "illegal") == name.endswith(("illegal", "forbidden")), answer
    if name == "othello-pass":
        assert any(move["passed"] for move in answer["moves"])
    for value in shapes_of(answer):
        agree(value)
    for move in answer["moves"]:  # the values records hold take the fast way
        assert _canonical_as_written(move, json.dumps(move, sort_keys=True, separators=(",", ":")))
    published = client.get("/v1/keys").json()["keys"]
    assert verify(answer, published, "audit")


def test_a_tournaments_standings_take_the_fast_way() -> None:
    """Half points and their sums (points, Buchholz, Sonneborn–Berger) are written by Python
    as ECMAScript writes them: a 500-player tournament's signed document is written in C."""
    standings = [
        {"rank": 1, "player": "p1", "points": 4.5, "tiebreaks": {"buchholz": 21.5,
                                                                 "sonneborn_berger": 12.25}},
        {"rank": 2, "player": "p2", "points": 4, "tiebreaks": {"buchholz": 0.5,
                                                               "sonneborn_berger": 0}},
    ]  # fmt: skip
    document = {"name": "Club 1.5", "standings": standings}
    agree(document)
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert _canonical_as_written(document, text)
    whole = {"standings": [{"points": 4.0}]}
    assert not _canonical_as_written(whole, json.dumps(whole, separators=(",", ":")))
    agree(whole)


def test_a_sessions_record_is_written_alike(client: TestClient) -> None:
    created = client.post("/v1/games", json={"game": "reversi"}).json()
    token = created["tokens"]["1"]
    client.post(
        f"/v1/games/{created['id']}/moves",
        json={"square": "f5"},
        headers={"Authorization": f"Bearer {token}"},
    )
    record = client.get(f"/v1/games/{created['id']}/record").json()
    agree(record)
    params = {"game": "reversi", "height": 8, "width": 8}
    agree(params)
    audited = client.post("/v1/records/audit", json={"game": "reversi", "moves": record["moves"]})
    assert record["chain"] == audited.json()["chain"] == chain(params, audited.json()["moves"])
