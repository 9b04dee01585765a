"""Takebacks (API.md part 2, "The lobby, spectators and the game's lifecycle"), through the HTTP
API, for every kind (tic-tac-toe and five in a row on the Redis fast path, renju and Reversi on
its generic engine), on the memory store, one Redis and a Redis Cluster.

A player offers to take back moves so that it moves again: its last move, and the reply if
there was one. The offer stands until the next move; the other player accepts by offering too.
After it the game is compared with the oracle — a new game that replays the shorter move list —
in its board, its legal moves and its state, and play goes on. Around it: the offer that a move
declines, the player with nothing to take back, the rule flag, the end, a keyed move retried
after it was taken back, the stream that sends ``event: takeback`` and the moves that replace
those taken back, and the clocks, which are not rolled back.

(The Python and Lua sides are held to one policy by tests/sessions/test_stores_agree.py, and
each kind's undo by tests/sessions/test_takeback_positions.py.)
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.stores.redis import generic as redis_generic
from tests.api.problems import assert_problem
from tests.api.test_endings import events
from tests.api.test_games_api import parse_events
from tests.api.test_lifecycle import client, create, kind
from tests.api.test_session_kinds import Kind
from tests.conftest import shared_settings
from tests.timeless import timeless

__all__ = ["client", "kind"]  # the fixtures, shared with test_lifecycle.py


def auth(game: dict[str, Any], player: int, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][str(player)]}", **headers}


def move(client: TestClient, game: dict[str, Any], player: int, row: int, col: int,
         **headers: str) -> Any:  # fmt: skip
    return client.post(
        f"/v1/games/{game['id']}/moves", json={"row": row, "col": col},
        headers=auth(game, player, **headers),
    )  # fmt: skip


def play(client: TestClient, game: dict[str, Any], script: list[tuple[int, int, int]]) -> None:
    for player, row, col in script:
        answer = move(client, game, player, row, col)
        assert answer.status_code == 201, answer.text


def offer(client: TestClient, game: dict[str, Any], player: int, **headers: str) -> Any:
    return client.post(
        f"/v1/games/{game['id']}/takeback-offer", headers=auth(game, player, **headers)
    )


def state(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/games/{game['id']}").json()
    return answer


def shown(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """What a game shows of its position: its state but the id, version and last move's
    version-dependent fields, its board, and its legal moves."""
    seen = timeless(state(client, game))
    for field in ("id", "version", "tokens", "last_takeback"):
        seen.pop(field, None)
    last = seen.get("last_move")
    board = client.get(f"/v1/games/{game['id']}/board").json()
    legal = client.get(f"/v1/games/{game['id']}/legal-moves", params={"limit": 1000}).json()
    legal.pop("version")
    legal.pop("id")
    return {"state": seen, "last": last, "board": board, "legal": legal}


def oracle(client: TestClient, kind: Kind, script: list[tuple[int, int, int]]) -> dict[str, Any]:
    """What a new game shows after the script's moves: a takeback's oracle."""
    game = create(client, kind)
    play(client, game, script)
    return shown(client, game)


def moves_of(client: TestClient, game: dict[str, Any]) -> list[tuple[int, int, int]]:
    moves = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
    return [(m["player"], m["row"], m["col"]) for m in moves]


def takes_back(script: list[tuple[int, int, int]], player: int) -> int:
    """How many of the script's last moves a takeback for ``player`` takes back: back to its
    own last move (the reference)."""
    for count, (mover, _, _) in enumerate(reversed(script), start=1):
        if mover == player:
            return count
    raise AssertionError("the player has not moved")


@pytest.mark.parametrize("made", [2, 3, 4])
@pytest.mark.parametrize("offerer", [1, 2])
def test_an_accepted_takeback_leaves_the_shorter_game_and_the_offerer_moves_again(
    client: TestClient, kind: Kind, made: int, offerer: int
) -> None:
    script = kind.script[:made]
    game = create(client, kind)
    play(client, game, script)
    before = state(client, game)

    offered = offer(client, game, offerer)
    assert offered.status_code == 200, offered.text
    standing = offered.json()
    assert standing["takeback_offer"] == offerer
    assert (standing["version"], standing["move_count"]) == (before["version"] + 1, made)
    assert standing["next_player"] == before["next_player"]  # nothing taken back yet
    again = offer(client, game, offerer)  # its own offer stands already: nothing changes
    assert again.status_code == 200
    assert again.json() == standing

    accepted = offer(client, game, 3 - offerer)
    assert accepted.status_code == 200, accepted.text
    after = accepted.json()
    left = made - takes_back(script, offerer)
    assert after["takeback_offer"] is None
    assert (after["move_count"], after["next_player"]) == (left, offerer)
    assert after["version"] == standing["version"] + 1  # the version still only grows
    assert accepted.headers["etag"] == f'"{game["id"]}.{after["version"]}"'
    assert state(client, game) == after
    assert moves_of(client, game) == script[:left]
    assert shown(client, game) == oracle(client, kind, script[:left])

    # Play goes on, the numbers of the moves taken back used again: the same move, then the
    # script's next one, as in a game that never had them.
    _, row, col = script[left]
    moved = move(client, game, offerer, row, col)
    assert moved.status_code == 201, moved.text
    assert moved.json()["move"]["seq"] == left + 1
    assert moved.headers["location"].endswith(f"/moves/{left + 1}")
    assert moved.json()["state"]["version"] == after["version"] + 1
    play(client, game, kind.script[left + 1 : made + 1])
    assert shown(client, game) == oracle(client, kind, kind.script[: made + 1])


def test_a_takeback_reaching_past_the_records_read_with_the_game_reads_them_all(
    client: TestClient, kind: Kind, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Redis store's generic engine reads a game's last few records with it for a takeback
    # (``TAKEBACK_RECORDS``), and all of them when the takeback reaches further (a Reversi
    # player's replies after its passes). With one record read first, every takeback of a move
    # and its reply reaches further.
    monkeypatch.setattr(redis_generic, "TAKEBACK_RECORDS", 1)
    script = kind.script[:3]
    game = create(client, kind)
    play(client, game, script)
    assert offer(client, game, 2).status_code == 200
    accepted = offer(client, game, 1)
    assert accepted.status_code == 200, accepted.text
    left = len(script) - takes_back(script, 2)
    assert left == 1  # player 2's move and player 1's reply
    assert (accepted.json()["move_count"], accepted.json()["next_player"]) == (left, 2)
    assert shown(client, game) == oracle(client, kind, script[:left])


def test_a_move_declines_a_takeback_offer_and_a_draw_offer_stands_no_longer(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind)
    play(client, game, kind.script[:2])
    client.post(f"/v1/games/{game['id']}/draw-offer", headers=auth(game, 2))
    offered = offer(client, game, 2).json()
    assert (offered["takeback_offer"], offered["draw_offer"]) == (2, 2)
    player, row, col = kind.script[2]
    moved = move(client, game, player, row, col).json()["state"]
    assert (moved["takeback_offer"], moved["draw_offer"]) == (None, None)
    # A takeback declines a standing draw offer (the position it was offered in is gone).
    client.post(f"/v1/games/{game['id']}/draw-offer", headers=auth(game, 1))
    offer(client, game, 1)
    taken = offer(client, game, 2).json()
    assert (taken["takeback_offer"], taken["draw_offer"], taken["move_count"]) == (None, None, 2)


def test_a_player_with_no_move_of_its_own_has_nothing_to_take_back(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind)
    for who in (1, 2):
        refused = offer(client, game, who)
        assert assert_problem(refused, 409, "nothing_to_take_back")["player"] == who
    player = kind.script[0][0]
    play(client, game, kind.script[:1])
    before = state(client, game)
    other = 3 - player
    assert_problem(offer(client, game, other), 409, "nothing_to_take_back")
    assert state(client, game) == before  # a refusal changes nothing
    # The one who moved may, and its move alone is taken back.
    offer(client, game, player)
    after = offer(client, game, other).json()
    assert (after["move_count"], after["next_player"], after["last_move"]) == (0, player, None)


def test_takebacks_left_out_of_a_game_and_after_its_end_are_refused(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind, rules={"takeback": False})
    play(client, game, kind.script[:2])
    assert assert_problem(offer(client, game, 1), 409, "action_not_allowed")["action"] == (
        "takeback"
    )
    ended = create(client, kind)
    play(client, ended, kind.script[:2])
    offer(client, ended, 1)  # stands until the end, which declines it
    client.post(f"/v1/games/{ended['id']}/resign", headers=auth(ended, 2))
    final = state(client, ended)
    assert final["takeback_offer"] is None
    assert_problem(offer(client, ended, 2), 409, "game_over")
    assert state(client, ended) == final


def test_a_keyed_move_taken_back_is_answered_again_as_it_was_and_applied_nothing(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind)
    play(client, game, kind.script[:2])
    player, row, col = kind.script[2]
    first = move(client, game, player, row, col, **{"Idempotency-Key": "the-third"})
    assert first.status_code == 201
    offer(client, game, player)
    taken = offer(client, game, 3 - player).json()
    assert taken["move_count"] == 2
    retried = move(client, game, player, row, col, **{"Idempotency-Key": "the-third"})
    assert (retried.status_code, retried.headers["idempotent-replayed"]) == (201, "true")
    assert retried.json()["move"] == first.json()["move"]
    assert state(client, game) == taken  # nothing applied again
    # The number is used again by the next move; the old answer stays the old one.
    again = move(client, game, player, row, col, **{"Idempotency-Key": "the-third-again"})
    assert again.json()["move"]["seq"] == 3
    assert again.json()["state"]["version"] > first.json()["state"]["version"]
    replay = move(client, game, player, row, col, **{"Idempotency-Key": "the-third"})
    assert replay.json()["move"] == first.json()["move"]
    offered = offer(client, game, 3 - player, **{"Idempotency-Key": "offer"})
    assert offered.json()["takeback_offer"] == 3 - player
    replayed = offer(client, game, 3 - player, **{"Idempotency-Key": "offer"})
    assert (replayed.json(), replayed.headers["idempotent-replayed"]) == (offered.json(), "true")


def test_a_stream_sends_the_takeback_then_the_moves_that_replace_those_taken_back(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind)
    play(client, game, kind.script[:4])
    seen = state(client, game)["version"]  # a stream read up to here
    offer(client, game, 2)
    offer(client, game, 1)  # back to 2 or 3 moves
    left = state(client, game)["move_count"]
    play(client, game, kind.script[left:5])
    if state(client, game)["status"] == "in_progress":  # the stream is read to the end
        client.post(f"/v1/games/{game['id']}/resign", headers=auth(game, 1))
    stream = events(client, game, since=seen)
    names = [event["event"] for event in stream]
    assert names == ["takeback"] + ["move"] * (5 - left) + ["end"], names
    taken = stream[0]
    data = json.loads(taken["data"])
    assert (data["move_count"], data["takeback_offer"], data["next_player"]) == (left, None, 2)
    assert int(taken["id"]) == data["version"] == seen + 2
    replacing = [json.loads(event["data"])["move"]["seq"] for event in stream[1:-1]]
    assert replacing == list(range(left + 1, 6))
    ids = [int(event["id"]) for event in stream if "id" in event]
    assert ids == sorted(ids)


def test_a_stream_sends_a_standing_takeback_offer(client: TestClient, kind: Kind) -> None:
    game = create(client, kind)
    play(client, game, kind.script[:2])
    offered = offer(client, game, 1).json()
    path = f"/v1/games/{game['id']}/events"
    with client.stream("GET", path, params={"since": offered["version"] - 1}) as response:
        buffer = ""
        for chunk in response.iter_text():
            buffer += chunk
            if parse_events(buffer):
                break
    stream = parse_events(buffer)
    assert [(event["event"], event["id"]) for event in stream] == [
        ("takeback", str(offered["version"]))
    ]
    assert json.loads(stream[0]["data"]) == offered


def test_the_clocks_are_not_rolled_back(client: TestClient, kind: Kind) -> None:
    game = create(client, kind, clock={"initial_seconds": 600, "increment_seconds": 5})
    play(client, game, kind.script[:3])
    before = state(client, game)["clock"]
    mover = kind.script[2][0]
    offer(client, game, mover)
    after = offer(client, game, 3 - mover).json()["clock"]
    assert after["running"] == mover  # the player who moves again has its clock run
    # Its clock stood still meanwhile (its increment is not taken back); the other's ran on
    # until the takeback (its time is not given back).
    assert after["remaining_ms"][str(mover)] == before["remaining_ms"][str(mover)]
    other = str(3 - mover)
    assert after["remaining_ms"][other] <= before["remaining_ms"][other]


def followed(stream: list[dict[str, str]]) -> list[tuple[int, int, int]]:
    """The moves a client holds after following ``stream`` from the start: each move event
    sets its number, each takeback drops the moves after its ``move_count``."""
    held: dict[int, tuple[int, int, int]] = {}
    for event in stream:
        data = json.loads(event["data"])
        if event["event"] == "move":
            move = data["move"]
            held[move["seq"]] = (move["player"], move["row"], move["col"])
        elif event["event"] == "takeback" and data["takeback_offer"] is None:
            held = {seq: move for seq, move in held.items() if seq <= data["move_count"]}
    return [held[seq] for seq in sorted(held)]


def test_a_stream_from_the_start_sends_every_change_in_order_once(
    client: TestClient, kind: Kind
) -> None:
    """Takebacks among many moves (two of them before a stream's first read, one leaving
    fewer moves than the other): a stream from the start sends each in its place, its ids
    growing, and a client that follows it holds the game's moves."""
    game = create(client, kind)
    play(client, game, kind.script[:4])
    mover = kind.script[3][0]
    offer(client, game, mover)
    offer(client, game, 3 - mover)  # back to 3 moves
    play(client, game, kind.script[3:4])
    offer(client, game, 3 - mover)
    offer(client, game, mover)  # back to 2 (or 1) moves
    left = state(client, game)["move_count"]
    play(client, game, kind.script[left:5])
    if state(client, game)["status"] == "in_progress":
        client.post(f"/v1/games/{game['id']}/resign", headers=auth(game, 1))
    for since in range(state(client, game)["version"]):
        stream = events(client, game, since=since)
        ids = [int(event["id"]) for event in stream if "id" in event]
        assert ids == sorted(set(ids)), (since, ids)  # in order, each change once
        assert all(number > since for number in ids)
    stream = events(client, game, since=0)
    assert followed(stream) == moves_of(client, game)
    assert [e["event"] for e in stream].count("takeback") == 1  # the one that left fewest


def test_a_takeback_to_the_start_is_sent_as_the_start_and_noted_in_the_state(
    client: TestClient, kind: Kind
) -> None:
    game = create(client, kind)
    first = kind.script[0][0]
    play(client, game, kind.script[:1])
    offer(client, game, first)
    back = offer(client, game, 3 - first).json()
    assert (back["move_count"], back["next_player"], back["last_takeback"]) == (
        0, first, back["version"],
    )  # fmt: skip
    play(client, game, kind.script[:2])
    now = state(client, game)
    assert now["last_takeback"] == back["version"]  # a poller that knew less reads again
    client.post(f"/v1/games/{game['id']}/resign", headers=auth(game, 1))  # the stream ends
    stream = events(client, game, since=1)
    taken = json.loads(stream[0]["data"])
    assert stream[0]["event"] == "takeback"
    fresh = create(client, kind)
    for field in ("id", "version", "last_takeback"):
        taken.pop(field, None)
        fresh.pop(field, None)
    fresh.pop("tokens")
    assert timeless(taken) == timeless(fresh)  # as a new game stands


def test_takeback_answers_are_kept_past_the_bound_of_kept_refusals(
    module_store_url: str, kind: Kind
) -> None:
    """Every takeback answer that changed the game is kept under its key as a move's is: with
    the game's kept refusals spent, a retried acceptance is its first answer, never an offer."""
    app = create_app(shared_settings(store_url=module_store_url, max_refusals_per_game=1))
    with TestClient(app, raise_server_exceptions=False) as limited:
        game = create(limited, kind)
        play(limited, game, kind.script[:2])
        player, row, col = kind.script[0]
        spent = move(limited, game, player, row, col, **{"Idempotency-Key": "refused"})
        assert spent.status_code == 409  # the one refusal kept
        mover = kind.script[1][0]
        offered = offer(limited, game, mover, **{"Idempotency-Key": "offer"})
        accepted = offer(limited, game, 3 - mover, **{"Idempotency-Key": "accept"})
        assert accepted.json()["move_count"] == 1
        again = offer(limited, game, 3 - mover, **{"Idempotency-Key": "accept"})
        assert (again.json(), again.headers["idempotent-replayed"]) == (accepted.json(), "true")
        retried = offer(limited, game, mover, **{"Idempotency-Key": "offer"})
        assert retried.json() == offered.json()
        assert state(limited, game) == accepted.json()  # nothing applied again
