"""The client against a real server: every operation, one exception class per problem code,
retried moves applied once, ETag polling, event streams that resume where they broke off, sync
and async."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import adjudicator_client as client_module
from adjudicator_client import (
    AbortEvent,
    AsyncClient,
    Client,
    ClockEvent,
    CreateGameAnswer,
    EndEvent,
    MakeMoveAnswer,
    MoveEvent,
    OfferEvent,
    RematchEvent,
    Retries,
    TakebackEvent,
    token_for,
)
from adjudicator_client._events import Following
from adjudicator_client._operations import etag
from tests.servers import uvicorn_server
from tests.timeless import timeless


@pytest.fixture
def api(server: str) -> Iterator[Client]:
    with Client(server) as client:
        yield client


def play(api: Client, game: CreateGameAnswer, cells: list[tuple[int, int]]) -> MakeMoveAnswer:
    """Moves on ``cells``, by players 1 and 2 in turn; the last one's answer."""
    answers = [
        api.make_move(game["id"], token_for(game, 2 if i % 2 else 1), row, col)
        for i, (row, col) in enumerate(cells)
    ]
    return answers[-1]


def test_a_whole_game_and_its_refusals(api: Client) -> None:
    game = api.create_game(n=3)
    game_id, tokens = game["id"], game["tokens"]
    with pytest.raises(client_module.NotYourTurn) as refused:
        api.make_move(game_id, tokens["2"], 0, 0)
    assert (refused.value.status, refused.value.body["code"]) == (409, "not_your_turn")
    assert refused.value.detail
    with pytest.raises(client_module.OutOfBounds):
        api.make_move(game_id, tokens["1"], 3, 0)
    with pytest.raises(client_module.Unauthorized):
        api.make_move(game_id, "not-a-token", 0, 0)
    answer = play(api, game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    assert answer["winner"] == 1
    assert answer["state"]["reason"] == "line"
    with pytest.raises(client_module.GameOver):
        api.make_move(game_id, tokens["2"], 2, 2)
    assert [m["seq"] for m in api.list_moves(game_id, since=2)["moves"]] == [3, 4, 5]
    assert api.get_move(game_id, 5) == answer["move"]
    assert api.get_board(game_id)["rows"] == ["XXX", "OO.", "..."]
    api.delete_game(game_id, tokens["1"])
    with pytest.raises(client_module.GameNotFound):
        api.get_game(game_id)


def test_each_kind_is_created_with_its_own_state_and_tokens(api: Client) -> None:
    reversi = api.create_game(game="reversi", height=6, width=6)
    assert (reversi["game"], reversi["height"]) == ("reversi", 6)
    assert reversi["score"] == {"1": 2, "2": 2}
    posted = api.create_game(game="reversi", board=["....", ".WB.", ".BW.", "...."], next="W")
    assert (posted["width"], posted["next_player"]) == (4, 2)
    gomoku = api.create_game(game="tictactoe", n=15, k=5)
    assert (gomoku["game"], gomoku["n"], gomoku["k"]) == ("tictactoe", 15, 5)
    assert token_for(gomoku, 1) == gomoku["tokens"]["1"]
    assert token_for(gomoku, 2) == gomoku["tokens"]["2"]
    with pytest.raises(ValueError, match="players 1 and 2"):
        token_for(gomoku, 3)  # type: ignore[arg-type]
    moved = api.make_move(reversi["id"], token_for(reversi, 1), 1, 2)
    assert timeless(moved["move"]) == {
        "seq": 1, "row": 1, "col": 2, "square": "c2", "player": 1, "flips": [[2, 2]],
        "flip_squares": ["c3"], "passed": False,
    }  # fmt: skip
    state = moved["state"]
    assert state["game"] == "reversi"
    assert state["score"] == {"1": 4, "2": 1}  # a Reversi state, to the type checker too


def test_moves_by_square(api: Client) -> None:
    """A cell by its square name: Othello's rows from the top, tic-tac-toe's from the bottom;
    the answers name every cell they hold."""
    reversi = api.create_game(game="reversi")
    moved = api.make_move(reversi["id"], token_for(reversi, 1), square="F5")
    move = moved["move"]
    assert (move["row"], move["col"], move.get("square")) == (4, 5, "f5")
    assert move.get("flip_squares") == ["e5"]  # a Reversi record
    legal = api.list_legal_moves(reversi["id"])  # White's three answers, row by row
    assert [m.get("square") for m in legal["moves"]] == ["f4", "d6", "f6"]
    gomoku = api.create_game(game="tictactoe", n=15, k=5)
    centre = api.make_move(gomoku["id"], token_for(gomoku, 1), square="h8")["move"]
    assert (centre["row"], centre["col"]) == (7, 7)
    corner = api.make_move(gomoku["id"], token_for(gomoku, 2), square="a1")["move"]
    assert (corner["row"], corner["col"], corner.get("square")) == (14, 0, "a1")
    with pytest.raises(client_module.ValidationError) as refused:
        api.make_move(gomoku["id"], token_for(gomoku, 1), square="p1")  # 15 columns: a to o
    assert refused.value.body["errors"][0]["loc"] == ["body", "square"]
    with pytest.raises(client_module.ValidationError):
        api.make_move(gomoku["id"], token_for(gomoku, 1), 0, 0, square="a15")  # not both
    assert api.get_game(gomoku["id"])["version"] == 2  # refused: nothing changed
    opening = ["....", ".WB.", ".BW.", "...."]
    checked = api.check_moves(opening, [{"square": "b1", "color": "B"}])["results"][0]
    assert (checked["legal"], checked.get("flip_squares")) == (True, ["b2"])


def test_a_swap2_opening_to_its_colours(api: Client) -> None:
    game = api.create_game(game="gomoku", opening="swap2")
    assert game["game"] == "gomoku"
    assert (game["colors"], game["opening"]) == (
        {"1": None, "2": None}, {"rule": "swap2", "step": "place_three", "to_act": 1},
    )  # fmt: skip
    first, second = token_for(game, 1), token_for(game, 2)
    for square in ("h8", "h9", "i9"):
        api.make_move(game["id"], first, square=square)
    with pytest.raises(client_module.WrongStep) as refused:
        api.make_move(game["id"], second, square="a1")
    assert refused.value.body["step"] == "choose"
    with pytest.raises(client_module.NotYourTurn):
        api.make_choice(game["id"], first, color="W")
    chosen = api.make_choice(game["id"], second, color="B", idempotency_key="choice-1")
    assert timeless(chosen["move"]) == {"seq": 4, "choice": "color", "player": 2, "color": "B"}
    state = chosen["state"]
    assert state["game"] == "gomoku"
    assert (state["colors"], state["opening"], state["next_player"]) == (
        {"1": "W", "2": "B"}, None, 1,
    )  # fmt: skip
    again = api.make_choice(game["id"], second, color="B", idempotency_key="choice-1")
    assert again == chosen
    with pytest.raises(client_module.WrongStep):
        api.make_choice(game["id"], first, place_two=True)
    sgf = api.get_record_text(game["id"], "sgf")
    assert sgf.startswith("(;FF[4]GM[4]")
    assert sgf.count(";B[") == 2  # the stones, not the choice
    psq = api.get_record_text(game["id"], "psq")
    audited = api.audit_record(record=psq, format="psq")
    assert (audited["verdict"], audited["plies"]) == ("unfinished", 3)
    summary = api.audit_record(record=psq, format="psq", detail="summary")
    assert "moves" not in summary
    assert {k: v for k, v in audited.items() if k not in ("moves", "signature")} == {
        k: v for k, v in summary.items() if k != "signature"
    }


def test_an_open_game_is_listed_joined_once_and_played(api: Client) -> None:
    game = api.create_game(n=3, open=True)
    assert list(game["tokens"]) == ["1"]
    listed = api.list_games(game="tictactoe", limit=100)
    assert game["id"] in [open_game["id"] for open_game in listed["games"]]
    creator = client_module.token_for(game, 1)
    with pytest.raises(client_module.ProblemError) as waiting:
        api.make_move(game["id"], creator, 0, 0)
    assert waiting.value.code == "waiting_for_opponent"
    joined = api.join_game(game["id"], idempotency_key="join-1")
    assert (joined["player"], joined["state"]["open_seat"]) == (2, None)
    assert api.join_game(game["id"], idempotency_key="join-1")["token"] == joined["token"]
    with pytest.raises(client_module.ProblemError) as taken:
        api.join_game(game["id"])
    assert taken.value.code == "seat_taken"
    api.make_move(game["id"], creator, 0, 0)
    assert api.make_move(game["id"], joined["token"], 1, 1)["state"]["move_count"] == 2


def test_the_stateless_questions(api: Client) -> None:
    opening = ["....", ".WB.", ".BW.", "...."]
    assert api.check_move(opening, 0, 1, "B")["legal"]
    assert api.legal_moves(opening, "B")["count"] == 4
    assert api.apply_move(opening, 0, 1, "B")["board"][1] == ".BB."
    assert len(api.check_moves(opening, [{"row": 0, "col": 0, "color": "B"}])["results"]) == 1
    played = api.apply_moves("f5 d6 c3")
    assert (played["next"], played["score"]) == ("W", {"B": 5, "W": 2})
    assert api.apply_moves(["b1"], board=opening, color="B")["board"][1] == ".BB."
    four = ["." * 15] * 7 + ["...BBBB........"] + ["." * 15] * 7
    assert api.gomoku_check_move(four, 7, 7, "B", "renju")["wins"]
    assert (
        api.gomoku_check_moves(four, [{"square": "d8", "color": "W"}])["results"][0]["reason"]
        == "occupied"
    )
    assert api.gomoku_forbidden_points(four)["count"] == 0
    assert api.validate_position(["XO.", "...", "..."])["next"] == "X"
    assert api.validate_positions([{"board": ["X"]}])["results"][0]["winner"] == "X"
    with pytest.raises(client_module.ValidationError) as refused:
        api.validate_position(["XO", "X"])
    assert refused.value.body["errors"]
    assert api.get_problem_type("game_over")["code"] == "game_over"
    assert api.get_health() == {"status": "ok"}
    assert api.get_readiness() == {"status": "ready"}
    assert "adjudicator_" in api.get_metrics()


class LosesAnswers(httpx.HTTPTransport):
    """Forwards every request to the server; loses the answer of the first ``drops`` POSTs to a
    path of this ``ending`` (moves by default: the server applied them), as a connection cut
    after the request left would."""

    def __init__(self, drops: int, ending: str = "/moves") -> None:
        super().__init__()
        self.drops, self.ending = drops, ending
        self.keys: list[str] = []  # each send's Idempotency-Key ("" without one)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.method == "POST" and request.url.path.endswith(self.ending):
            self.keys.append(request.headers.get("Idempotency-Key", ""))
            if self.drops:
                self.drops -= 1
                response.read()
                response.close()
                raise httpx.ReadError("connection lost after the request was sent", request=request)
        return response


def test_a_move_whose_answer_was_lost_is_sent_again_and_applied_once(server: str) -> None:
    transport = LosesAnswers(drops=2)
    http = httpx.Client(base_url=server, transport=transport)
    with Client(http=http, retries=Retries(attempts=3, backoff=0)) as api:
        game = api.create_game(n=3)
        answer = api.make_move(game["id"], game["tokens"]["1"], 1, 1)
        assert answer["move"]["seq"] == 1
        assert len(transport.keys) == 3
        assert len(set(transport.keys)) == 1  # one key for the three sends
        state = api.get_game(game["id"])
        assert (state["move_count"], state["version"]) == (1, 1)
        assert api.make_move(game["id"], game["tokens"]["2"], 0, 0)["move"]["seq"] == 2


def test_retries_are_bounded(server: str) -> None:
    transport = LosesAnswers(drops=5)
    http = httpx.Client(base_url=server, transport=transport)
    with Client(http=http, retries=Retries(attempts=2, backoff=0)) as api:
        game = api.create_game(n=3)
        with pytest.raises(httpx.ReadError):
            api.make_move(game["id"], game["tokens"]["1"], 1, 1)
        assert len(transport.keys) == 2
        assert api.get_game(game["id"])["move_count"] == 1  # applied once, answered never


def test_a_creation_whose_answer_was_lost_is_not_sent_again(server: str) -> None:
    """Each send would make a game: the document sends it again only when it never left."""
    transport = LosesAnswers(drops=1, ending="/v1/games")
    http = httpx.Client(base_url=server, transport=transport)
    with Client(http=http, retries=Retries(attempts=3, backoff=0)) as api:
        with pytest.raises(httpx.ReadError):
            api.create_game(n=3)
        assert len(transport.keys) == 1


class BusyOnce(httpx.HTTPTransport):
    """Answers the first move with 503 and Retry-After: 1 (as a store outage would), without
    passing it on; then forwards everything."""

    def __init__(self) -> None:
        super().__init__()
        self.busy = 1

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.busy and request.method == "POST" and request.url.path.endswith("/moves"):
            self.busy -= 1
            problem = {
                "type": "/problems/store_unavailable", "title": "Game store unavailable",
                "status": 503, "detail": "try again", "code": "store_unavailable",
            }  # fmt: skip
            return httpx.Response(503, headers={"Retry-After": "1"}, json=problem)
        return super().handle_request(request)


def test_a_503_with_retry_after_is_waited_out(server: str) -> None:
    with Client(http=httpx.Client(base_url=server, transport=BusyOnce())) as api:
        game = api.create_game(n=3)
        assert api.make_move(game["id"], game["tokens"]["1"], 0, 0)["move"]["seq"] == 1
    with Client(http=httpx.Client(base_url=server, transport=BusyOnce()),
                retries=Retries(max_wait=0.5)) as api:  # fmt: skip
        game = api.create_game(n=3)
        with pytest.raises(client_module.StoreUnavailable) as refused:
            api.make_move(game["id"], game["tokens"]["1"], 0, 0)
        assert refused.value.retry_after == 1


def test_polling_with_etags(api: Client) -> None:
    game = api.create_game(n=3)
    first = api.poll_game(game["id"])
    assert first.state is not None
    assert first.state["version"] == 0
    assert api.poll_game(game["id"], first.etag).state is None  # 304: unchanged
    api.make_move(game["id"], game["tokens"]["1"], 0, 0)
    changed = api.poll_game(game["id"], first.etag)
    assert changed.state is not None
    assert changed.state["version"] == 1
    assert changed.etag != first.etag
    assert changed.etag == etag(game["id"], 1)  # what ``if_match=1`` sends
    with pytest.raises(client_module.PreconditionFailed):
        api.make_move(game["id"], game["tokens"]["2"], 1, 1, if_match=0)
    assert api.make_move(game["id"], game["tokens"]["2"], 1, 1, if_match=1)["move"]["seq"] == 2


def test_the_legal_moves_of_a_live_game_page_by_page(api: Client) -> None:
    game = api.create_game(n=3)
    play(api, game, [(1, 1)])
    first = api.list_legal_moves(game["id"], limit=5)
    assert (first["player"], first["count"], first["version"]) == (2, 8, 1)
    rest = api.list_legal_moves(game["id"], after=first["next_after"])
    assert rest["next_after"] is None
    cells = [(m["row"], m["col"]) for m in [*first["moves"], *rest["moves"]]]
    assert cells == [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    reversi = api.create_game(game="reversi")
    page = api.list_legal_moves(reversi["id"])
    assert page["game"] == "reversi"
    assert {(m["row"], m["col"]) for m in page["moves"]} == {(2, 3), (3, 2), (4, 5), (5, 4)}
    assert all(len(m["flips"]) == 1 for m in page["moves"])
    with pytest.raises(client_module.GameNotFound):
        api.list_legal_moves("nope")


def test_resignation_and_draw_offers(api: Client) -> None:
    game = api.create_game(game="reversi", height=4, width=4, clock=(60, 1))
    assert game["clock"]["initial_seconds"] == 60
    tokens = game["tokens"]
    offered = api.offer_draw(game["id"], tokens["1"])
    assert offered["draw_offer"] == 1
    drawn = api.offer_draw(game["id"], tokens["2"])
    assert (drawn["status"], drawn["reason"]) == ("draw", "agreement")
    other = api.create_game(n=3)
    resigned = api.resign(other["id"], other["tokens"]["2"])
    assert (resigned["winner"], resigned["reason"]) == (1, "resignation")
    with pytest.raises(client_module.GameOver):
        api.resign(other["id"], other["tokens"]["1"])


def test_a_game_is_aborted_until_both_players_have_moved(api: Client) -> None:
    game = api.create_game(n=3)
    aborted = api.abort_game(game["id"], token_for(game, 2), idempotency_key="abort-1")
    assert (aborted["status"], aborted["winner"], aborted["reason"]) == ("aborted", 0, "aborted")
    assert api.abort_game(game["id"], token_for(game, 2), idempotency_key="abort-1") == aborted
    assert api.get_game(game["id"])["status"] == "aborted"
    events = list(api.game_events(game["id"]))
    assert [type(event) for event in events] == [AbortEvent, EndEvent]
    assert isinstance(events[0], AbortEvent)
    assert (events[0].id, events[0].state["status"]) == (aborted["version"], "aborted")
    with pytest.raises(client_module.GameOver):
        api.make_move(game["id"], token_for(game, 1), 0, 0)

    one_move = api.create_game(n=3)
    play(api, one_move, [(1, 1)])  # only player 1 has moved: still abortable, with If-Match
    with pytest.raises(client_module.PreconditionFailed):
        api.abort_game(one_move["id"], token_for(one_move, 1), if_match=0)
    assert (
        api.abort_game(one_move["id"], token_for(one_move, 1), player=1, if_match=1)["status"]
        == "aborted"
    )

    both_moved = api.create_game(n=3)
    play(api, both_moved, [(1, 1), (0, 0)])
    with pytest.raises(client_module.TooLateToAbort) as refused:
        api.abort_game(both_moved["id"], token_for(both_moved, 1))
    assert (refused.value.status, refused.value.code) == (409, "too_late_to_abort")
    assert api.get_game(both_moved["id"])["status"] == "in_progress"  # refused: nothing changed

    no_abort = api.create_game(n=3, rules={"abort": False})
    with pytest.raises(client_module.ActionNotAllowed) as left_out:
        api.abort_game(no_abort["id"], token_for(no_abort, 1))
    assert (left_out.value.code, left_out.value.body.get("action")) == (
        "action_not_allowed",
        "abort",
    )


def test_a_takeback_offer_is_accepted_by_the_other_player_offering_too(api: Client) -> None:
    game = api.create_game(n=3)
    with pytest.raises(client_module.NothingToTakeBack) as nothing:
        api.offer_takeback(game["id"], token_for(game, 1))
    assert (nothing.value.status, nothing.value.body.get("player")) == (409, 1)
    played = play(api, game, [(1, 1), (0, 0), (2, 2)])
    seen = played["state"]["version"]
    offered = api.offer_takeback(game["id"], token_for(game, 2), idempotency_key="back-1")
    assert (offered["takeback_offer"], offered["move_count"]) == (2, 3)
    assert api.offer_takeback(game["id"], token_for(game, 2), idempotency_key="back-1") == offered
    taken = api.offer_takeback(game["id"], token_for(game, 1), player=1)
    # Player 2's move and player 1's reply are taken back: player 2 moves again.
    assert (taken["takeback_offer"], taken["move_count"], taken["next_player"]) == (None, 1, 2)
    assert [m["seq"] for m in api.list_moves(game["id"])["moves"]] == [1]
    again = api.make_move(game["id"], token_for(game, 2), 0, 2)
    assert again["move"]["seq"] == 2
    api.resign(game["id"], token_for(game, 1))
    events = list(api.game_events(game["id"], since=seen))
    # The offer that stood is history once accepted: the takeback, then the moves replacing.
    assert [type(event).__name__ for event in events] == ["TakebackEvent", "MoveEvent", "EndEvent"]
    first = events[0]
    assert isinstance(first, TakebackEvent)
    assert (first.id, first.state["move_count"], first.state["takeback_offer"]) == (
        taken["version"], 1, None,
    )  # fmt: skip

    no_takeback = api.create_game(n=3, rules={"takeback": False})
    play(api, no_takeback, [(1, 1)])
    with pytest.raises(client_module.ActionNotAllowed):
        api.offer_takeback(no_takeback["id"], token_for(no_takeback, 1))


def test_time_given_goes_on_the_other_players_clock(api: Client) -> None:
    game = api.create_game(
        n=3, clock={"initial_seconds": 60, "increment_seconds": 5, "mode": "delay"}
    )
    given = api.give_time(game["id"], token_for(game, 1), 15, idempotency_key="g-1")
    clock = given["clock"]
    assert clock is not None
    assert (clock["mode"], clock["remaining_ms"]) == ("delay", {"1": 60_000, "2": 75_000})
    assert api.give_time(game["id"], token_for(game, 1), 15, idempotency_key="g-1") == given
    stream = api.game_events(game["id"], since=0)
    first = next(stream)
    stream.close()
    assert isinstance(first, ClockEvent)
    assert (first.id, first.state["clock"]) == (given["version"], clock)
    untimed = api.create_game(n=3)
    with pytest.raises(client_module.ActionNotAllowed) as refused:
        api.give_time(untimed["id"], token_for(untimed, 1), 15)
    assert refused.value.body.get("why") == "no_clock"


def test_a_rematch_is_made_once_both_players_offered(api: Client) -> None:
    game = api.create_game(n=3)
    with pytest.raises(client_module.GameNotOver):
        api.rematch(game["id"], token_for(game, 1))
    api.resign(game["id"], token_for(game, 1))
    offered = api.rematch(game["id"], token_for(game, 1))
    assert (offered["rematch"], offered["state"].get("rematch_offer")) == (None, 1)
    accepted = api.rematch(game["id"], token_for(game, 2))["rematch"]
    assert accepted is not None
    mine = api.rematch(game["id"], token_for(game, 1))["rematch"]
    assert mine is not None
    assert (accepted["player"], mine["player"], mine["id"]) == (1, 2, accepted["id"])
    moved = api.make_move(accepted["id"], accepted["token"], 0, 0)  # the old player 2 opens
    assert moved["move"]["player"] == 1
    ended = offered["state"]["version"] - 1
    events = list(api.game_events(game["id"], since=ended))  # opened after the end
    assert [type(event) for event in events] == [RematchEvent]
    assert events[0].state.get("rematch") == accepted["id"]


def test_a_private_game_is_read_only_with_a_player_or_spectator_token(api: Client) -> None:
    game = api.create_game(n=3, visibility="private")
    game_id, first = game["id"], token_for(game, 1)
    with pytest.raises(client_module.Unauthorized) as refused:
        api.get_game(game_id)
    assert (refused.value.status, refused.value.code) == (401, "unauthorized")
    for read in (
        lambda: api.poll_game(game_id),
        lambda: api.list_moves(game_id),
        lambda: api.list_legal_moves(game_id),
        lambda: api.get_board(game_id),
        lambda: api.get_record(game_id),
        lambda: api.get_record_text(game_id, "transcript"),
        lambda: next(api.game_events(game_id)),
    ):
        with pytest.raises(client_module.Unauthorized):
            read()
    assert api.get_game(game_id, token=first).get("visibility") == "private"
    api.make_move(game_id, first, 1, 1)
    with pytest.raises(client_module.Unauthorized):
        api.get_move(game_id, 1)
    assert api.get_move(game_id, 1, token=token_for(game, 2))["seq"] == 1
    with pytest.raises(client_module.Unauthorized):
        api.add_spectator(game_id, "not-a-token")

    spectator = api.add_spectator(game_id, first)["token"]
    assert spectator not in game["tokens"].values()
    state = api.get_game(game_id, token=spectator)
    assert (state["version"], state["move_count"]) == (1, 1)
    polled = api.poll_game(game_id, token=spectator)
    assert polled.state == state
    assert api.poll_game(game_id, polled.etag, token=spectator).state is None
    assert [m["seq"] for m in api.list_moves(game_id, token=spectator)["moves"]] == [1]
    assert api.get_move(game_id, 1, token=spectator)["square"] == "b2"
    assert api.list_legal_moves(game_id, token=spectator)["count"] == 8
    assert api.get_board(game_id, token=spectator)["rows"] == ["...", ".X.", "..."]
    assert api.get_record(game_id, token=spectator)["moves"] == ["b2"]
    assert api.get_record_text(game_id, "transcript", token=spectator) == "b2"
    stream = api.game_events(game_id, token=spectator)
    first_event = next(stream)
    stream.close()
    assert isinstance(first_event, MoveEvent)
    assert first_event.move["seq"] == 1

    with pytest.raises(client_module.WrongPlayer) as acted:
        api.make_move(game_id, spectator, 0, 0)
    assert (acted.value.status, acted.value.code) == (403, "wrong_player")
    with pytest.raises(client_module.WrongPlayer):
        api.abort_game(game_id, spectator)
    with pytest.raises(client_module.WrongPlayer):
        api.add_spectator(game_id, spectator)
    assert api.get_game(game_id, token=spectator)["version"] == 1  # refused: nothing changed

    public = api.create_game(n=3)
    assert api.get_game(public["id"])["status"] == "in_progress"  # a public game: no token
    watcher = api.add_spectator(public["id"], token_for(public, 2))["token"]
    assert api.get_board(public["id"], token=watcher)["rows"] == ["...", "...", "..."]


class CutsStreams(httpx.HTTPTransport):
    """Forwards every request; the first event stream is cut after its first chunk of events."""

    def __init__(self) -> None:
        super().__init__()
        self.streams: list[dict[str, str]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if not request.url.path.endswith("/events"):
            return response
        self.streams.append(dict(request.headers))
        if len(self.streams) > 1:
            return response
        upstream = response.iter_raw()

        def cut() -> Iterator[bytes]:
            for chunk in upstream:
                yield chunk
                if b"event:" in chunk:  # after the first chunk of events (not the retry: field)
                    response.close()
                    raise httpx.ReadError("stream cut", request=request)

        return httpx.Response(
            response.status_code, headers=response.headers, stream=Chunks(cut()), request=request
        )


class Chunks(httpx.SyncByteStream):
    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        return self.chunks


def test_a_private_game_s_stream_resumes_with_its_token(server: str) -> None:
    transport = CutsStreams()
    with Client(http=httpx.Client(base_url=server, transport=transport)) as api:
        game = api.create_game(n=3, visibility="private")
        play(api, game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
        spectator = api.add_spectator(game["id"], token_for(game, 1))["token"]
        events = list(api.game_events(game["id"], token=spectator))
    assert [event.move["seq"] for event in events if isinstance(event, MoveEvent)] == [
        1, 2, 3, 4, 5,
    ]  # fmt: skip
    assert isinstance(events[-1], EndEvent)
    assert len(transport.streams) == 2  # cut once, resumed once: both with the token
    assert [stream["authorization"] for stream in transport.streams] == [f"Bearer {spectator}"] * 2
    assert "last-event-id" in transport.streams[1]


def test_events_resume_after_a_cut_without_loss_or_repeat(server: str) -> None:
    transport = CutsStreams()
    with Client(http=httpx.Client(base_url=server, transport=transport)) as api:
        game = api.create_game(n=3)
        play(api, game, [(0, 0), (1, 0), (0, 1), (1, 1)])
        api.offer_draw(game["id"], token_for(game, 1))
        api.make_move(game["id"], token_for(game, 1), 0, 2)  # declines the offer, and wins
        events = list(api.game_events(game["id"]))
    moves = [event for event in events if isinstance(event, MoveEvent)]
    assert [event.move["seq"] for event in moves] == [1, 2, 3, 4, 5]
    assert not any(isinstance(event, OfferEvent) for event in events)  # declined: not replayed
    assert isinstance(events[-1], EndEvent)
    assert events[-1].state["winner"] == 1
    assert len(transport.streams) == 2  # cut once, resumed once
    assert "last-event-id" not in transport.streams[0]
    assert transport.streams[1]["last-event-id"] in {str(event.id) for event in events}


# A short keep-alive, so that "several intervals" pass in a second or two.
QUICK_KEEP_ALIVE = 0.2


class CountsStreams(httpx.HTTPTransport):
    """Forwards every request, counting the event streams opened."""

    def __init__(self) -> None:
        super().__init__()
        self.streams = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.streams += request.url.path.endswith("/events")
        return super().handle_request(request)


def test_a_stream_waits_on_a_quiet_game_past_many_keep_alives() -> None:
    # The server speaks every 0.2 s on a quiet game; the client, told so, waits three intervals
    # for a line. Its stream stays open while nobody moves for ten or more intervals (a client
    # whose read timeout were shorter than the interval would reconnect every time and, with no
    # event between, give up), then hears the move.
    env = {"ADJUDICATOR_STORE_URL": "memory://",
           "ADJUDICATOR_EVENT_KEEP_ALIVE_SECONDS": str(QUICK_KEEP_ALIVE)}  # fmt: skip
    transport = CountsStreams()
    with uvicorn_server(env) as url, Client(
        http=httpx.Client(base_url=url, transport=transport, timeout=QUICK_KEEP_ALIVE)
    ) as api:  # fmt: skip
        game = api.create_game(n=3)
        stream = api.game_events(game["id"], reconnects=0, keep_alive=QUICK_KEEP_ALIVE)
        mover = threading.Timer(
            12 * QUICK_KEEP_ALIVE,
            lambda: api.make_move(game["id"], game["tokens"]["1"], 1, 1),
        )
        mover.start()
        try:
            event = next(stream)
        finally:
            mover.join()
            stream.close()
    assert isinstance(event, MoveEvent)
    assert (event.move["row"], event.move["col"]) == (1, 1)
    assert transport.streams == 1


def test_keep_alives_give_back_the_reconnect_budget() -> None:
    following = Following("g", None, 1, 0.0, QUICK_KEEP_ALIVE)
    for _ in range(5):  # a drop, a keep-alive on the new stream, a drop, ...
        following.dropped()
        assert following.event(": keep-alive") is None
    following.dropped()
    with pytest.raises(ConnectionError):  # two drops in a row with no line between
        following.dropped()


def test_a_stream_resumed_at_the_end_stops_without_reconnecting(server: str) -> None:
    transport = CountsStreams()
    with Client(http=httpx.Client(base_url=server, transport=transport)) as api:
        game = api.create_game(n=3)
        play(api, game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
        assert list(api.game_events(game["id"], since=5)) == []  # 204: nothing more
        with httpx.stream("GET", f"{server}/v1/games/{game['id']}/events") as opened:
            first = next(opened.iter_raw())
    assert transport.streams == 1
    assert first.startswith(b"retry: 3000\n"), first  # the EventSource's reconnection delay


def test_a_standing_offer_is_an_event(api: Client) -> None:
    game = api.create_game(n=3)
    api.make_move(game["id"], game["tokens"]["1"], 0, 0)
    api.offer_draw(game["id"], game["tokens"]["1"])
    stream = api.game_events(game["id"])
    first, second = next(stream), next(stream)
    stream.close()
    assert isinstance(first, MoveEvent)
    assert isinstance(second, OfferEvent)
    assert (second.id, second.state["draw_offer"]) == (2, 1)


@pytest.mark.anyio
async def test_the_async_client_plays_and_streams(server: str) -> None:
    async with AsyncClient(server) as api:
        game = await api.create_game(n=3)
        for i, (row, col) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]):
            await api.make_move(game["id"], token_for(game, 2 if i % 2 else 1), row, col)
        with pytest.raises(client_module.GameOver):
            await api.make_move(game["id"], token_for(game, 2), 2, 2)
        events = [event async for event in api.game_events(game["id"], since=3)]
        assert [e.move["seq"] for e in events if isinstance(e, MoveEvent)] == [4, 5]
        assert isinstance(events[-1], EndEvent)
        polled = await api.poll_game(game["id"])
        assert polled.state is not None
        assert (await api.poll_game(game["id"], polled.etag)).state is None
        private = await api.create_game(n=3, visibility="private", rules={"abort": True})
        with pytest.raises(client_module.Unauthorized):
            await api.get_game(private["id"])
        spectator = (await api.add_spectator(private["id"], token_for(private, 1)))["token"]
        aborted = await api.abort_game(private["id"], token_for(private, 1))
        assert aborted["status"] == "aborted"
        watched = await api.poll_game(private["id"], token=spectator)
        assert watched.state is not None
        assert watched.state["status"] == "aborted"
        streamed = [event async for event in api.game_events(private["id"], token=spectator)]
        assert [type(event) for event in streamed] == [AbortEvent, EndEvent]


def test_the_archive_lists_reads_and_exports_finished_games(tmp_path: Path) -> None:
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url, Client(url) as api:
        game = api.create_game(n=3, open=True, names={"1": "Ann"})
        joined = api.join_game(game["id"], name="Bo")
        assert joined["state"]["names"] == {"1": "Ann", "2": "Bo"}
        game["tokens"]["2"] = joined["token"]
        play(api, game, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
        page = api.list_archived_games(game="tictactoe", status="won", name="Bo")
        assert [found["id"] for found in page["games"]] == [game["id"]]
        assert page["next"] is None
        assert api.get_archived_game(game["id"]) == api.get_record(game["id"])
        # Row 1 is the bottom row.
        assert api.get_archived_game_text(game["id"], "transcript") == "a3a2b3b2c3"
        exported = api.export_archive("ndjson", game="tictactoe")
        assert [json.loads(line)["chain"] for line in exported.splitlines()] == [
            page["games"][0]["chain"]
        ]
        with pytest.raises(client_module.GameNotFound):
            api.get_archived_game("nothing")


def test_players_play_rated_games_with_their_keys_and_are_rated(tmp_path: Path) -> None:
    """Players made, read and found by their keys; a rated open game made and joined with keys,
    played with the keys as the seats' tokens, rating both in its pool; the pool's ratings a
    page at a time; the players' problems as their classes."""
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url, Client(url) as api:
        ann, bo = api.create_player("Ann"), api.create_player("Bo")
        assert set(ann) == {"id", "name", "key"}
        assert ann["name"] == "Ann"
        me = api.get_me(ann["key"])
        assert (me["id"], me["name"], me["ratings"]) == (ann["id"], "Ann", {})
        assert api.get_player(bo["id"]) == api.get_me(bo["key"])
        game = api.create_game(n=3, open=True, rated=True, key=ann["key"])
        pool = game["pool"]
        assert pool == "tictactoe/3x3/k3/correspondence"
        with pytest.raises(client_module.Unauthorized):
            api.join_game(game["id"])  # a rated game's seat is a player's
        with pytest.raises(client_module.SeatTaken):
            api.join_game(game["id"], key=ann["key"])  # never both seats
        joined = api.join_game(game["id"], key=bo["key"])
        assert joined["state"]["players"] == {"1": ann["id"], "2": bo["id"]}
        assert joined["state"]["names"] == {"1": "Ann", "2": "Bo"}
        keys = [ann["key"], bo["key"]]
        for i, (row, col) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1)]):
            api.make_move(game["id"], keys[i % 2], row, col)  # a key acts as its seat's token
        with pytest.raises(client_module.NotYourTurn):
            api.make_move(game["id"], bo["key"], 2, 2)
        assert api.make_move(game["id"], ann["key"], 0, 2)["winner"] == 1
        page = api.list_ratings(pool)
        assert [(row["id"], row["name"], row["games"]) for row in page["players"]] == [
            (ann["id"], "Ann", 1), (bo["id"], "Bo", 1)
        ]  # fmt: skip
        assert page["players"][0]["rating"] > 1500 > page["players"][1]["rating"]
        assert all(row["provisional"] for row in page["players"])
        assert page["next"] is None
        first = api.list_ratings(pool, limit=1)
        assert [row["id"] for row in first["players"]] == [ann["id"]]
        assert first["next"] is not None
        second = api.list_ratings(pool, cursor=first["next"], limit=1)
        assert [row["id"] for row in second["players"]] == [bo["id"]]
        rated = api.get_player(ann["id"])["ratings"][pool]
        assert (rated["rating"], rated["rd"]) == tuple(
            page["players"][0][member] for member in ("rating", "rd")
        )
        assert rated["games"] == 1
        assert api.list_ratings("reversi/8x8/blitz") == {"players": [], "next": None}
        with pytest.raises(client_module.PlayerNotFound):
            api.get_player("nobody")
        with pytest.raises(client_module.Unauthorized):
            api.get_me(f"{ann['id']}.not-its-secret")
        with pytest.raises(client_module.ValidationError):
            api.create_player("")

        async def as_a_player() -> None:
            async with AsyncClient(url) as aio:
                cy = await aio.create_player("Cy")
                assert (await aio.get_me(cy["key"]))["name"] == "Cy"
                made = await aio.create_game(n=3, open=True, rated=True, key=cy["key"])
                await aio.join_game(made["id"], key=ann["key"])
                await aio.resign(made["id"], cy["key"])
                ratings = await aio.list_ratings(pool)
                assert {row["name"]: row["games"] for row in ratings["players"]} == {
                    "Ann": 2, "Bo": 1, "Cy": 1
                }  # fmt: skip
                assert (await aio.get_player(cy["id"]))["ratings"][pool]["games"] == 1

        asyncio.run(as_a_player())
