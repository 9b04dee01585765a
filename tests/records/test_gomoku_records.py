"""Gomoku sessions exported as PSQ and SGF, and those records audited back, on every store.

Random games are played through the API under every rule (stones that line up, a renju pass
now and then, some resigned, some left unfinished, renju fouls refused or lost). Each export is
read here with a few lines written from the formats' words (PSQ: ``x,y,ms`` from 1 at the top-left
corner, Black's engine named first, ``result,division`` after ``-1``; SGF: two letters from the
top-left, ``B[]`` a pass, ``RE`` ``B+`` / ``W+R`` / ``0``) and compared with the session's own move
records; then ``POST /v1/records/audit`` of the export must give back the session's moves, state
and hash chain. A swap2 game's stones say the game by colour; a parameter a format cannot carry
is given beside the record, and one both give must agree.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.problems import assert_problem
from tests.api.test_gomoku_sessions import client, create
from tests.timeless import timeless

__all__ = ["client"]  # the module's store client fixture, shared with the sessions' tests

RULES = ["freestyle", "standard", "renju", "caro"]
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]
DIVISION = {"freestyle": "Freestyle", "standard": "Standard", "renju": "Renju", "caro": "Caro"}
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def act(client: TestClient, game: dict[str, Any], player: int, path: str, body: Any) -> Any:
    return client.post(
        f"/v1/games/{game['id']}/{path}", json=body,
        headers={"Authorization": f"Bearer {game['tokens'][str(player)]}"},
    )  # fmt: skip


def state(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/v1/games/{game['id']}").json()
    return answer


def play(
    client: TestClient, game: dict[str, Any], rng: random.Random, plies: int,
    pass_at: int | None = None, spread: bool = False,
) -> None:  # fmt: skip
    """Random stones that tend to line up (each beside one of the mover's own, else anywhere;
    with ``spread``, anywhere), a pass as move ``pass_at`` (renju), until the game ends or
    ``plies`` moves were made."""
    size = game["size"]
    stones: dict[str, list[tuple[int, int]]] = {"B": [], "W": []}
    taken: set[tuple[int, int]] = set()
    for ply in range(1, plies + 1):
        now = state(client, game)
        player = now["next_player"]
        if player is None:
            return
        color = now["colors"][str(player)]
        if ply == pass_at:
            assert act(client, game, player, "moves", {"pass": True}).status_code == 201
            continue
        refused: set[tuple[int, int]] = set()
        while True:
            cell = _near(rng, [] if spread else stones[color], taken | refused, size)
            answer = act(client, game, player, "moves", {"row": cell[0], "col": cell[1]})
            if answer.status_code == 201:
                break
            assert answer.json()["code"] == "forbidden_move", answer.text
            refused.add(cell)
        stones[color].append(cell)
        taken.add(cell)


def _near(
    rng: random.Random, own: list[tuple[int, int]], taken: set[tuple[int, int]], size: int
) -> tuple[int, int]:
    for _ in range(8):
        if not own:
            break
        row, col = rng.choice(own)
        dr, dc = rng.choice(DIRECTIONS)
        step = rng.choice((1, -1))
        cell = (row + dr * step, col + dc * step)
        if 0 <= cell[0] < size and 0 <= cell[1] < size and cell not in taken:
            return cell
    free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken]
    return rng.choice(free)


def record(client: TestClient, game: dict[str, Any], format: str = "json") -> Any:
    response = client.get(f"/v1/games/{game['id']}/record?format={format}")
    assert response.status_code == 200, response.text
    if format == "json":
        return response.json()
    assert response.headers["content-type"].startswith("text/plain")
    return response.text


def audit(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/v1/records/audit", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def session_moves(client: TestClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = client.get(f"/v1/games/{game['id']}/moves").json()["moves"]
    return moves


def black_seat(final: dict[str, Any]) -> int:
    return 2 if final["colors"]["2"] == "B" else 1


# --- what the formats say, read here from their own words --------------------------------------


def psq_lines(text: str) -> tuple[str, list[tuple[int, int]], list[str]]:
    """The header, the ``x,y`` of each move line, and the lines after the moves."""
    lines = text.splitlines()
    moves = []
    at = 1
    while at < len(lines) and re.fullmatch(r"\d+,\d+,\d+", lines[at]):
        x, y, _ = lines[at].split(",")
        moves.append((int(x), int(y)))
        at += 1
    return lines[0], moves, lines[at:]


def sgf_moves(text: str) -> list[tuple[str, str]]:
    return re.findall(r";([BW])\[([a-zA-Z]{2}|)\]", text)


def sgf_property(text: str, name: str) -> str | None:
    found = re.search(rf"(?<![A-Z]){name}\[([^\]]*)\]", text)
    return None if found is None else found.group(1)


def expected_result(final: dict[str, Any]) -> tuple[int | None, str | None]:
    """(PSQ's result, SGF's RE) of a final state: from Black's side."""
    if final["status"] == "in_progress":
        return None, None
    if final["status"] == "draw":
        return 0, "0"
    color = final["colors"][str(final["winner"])]
    how = {"resignation": "R", "timeout": "T", "foul": "F"}.get(final["reason"], "")
    return (1 if color == "B" else 2), f"{color}+{how}"


def check_exports(client: TestClient, game: dict[str, Any]) -> None:
    """The PSQ and SGF of a session say its stones and result, and audit back to it."""
    json_record = record(client, game)
    final = json_record["state"]
    moves = session_moves(client, game)
    stones = [m for m in moves if "row" in m]
    size, rule = game["size"], game["rule"]
    psq_result, sgf_result = expected_result(final)
    beside = {} if game["foul"] == "refuse" else {"foul": game["foul"]}
    if game.get("early_draw"):
        beside["early_draw"] = True
    # A record writes the moves: an ending no move decides (a resignation, an agreed draw, a
    # flag fall, the move limit) is not in it, and the audit finds the game unfinished there.
    by_move = final["reason"] not in ("resignation", "agreement", "timeout", "move_limit")
    verdict = "finished" if final["status"] != "in_progress" and by_move else "unfinished"

    sgf = record(client, game, "sgf")
    assert sgf.startswith("(;FF[4]GM[4]")
    assert sgf_property(sgf, "SZ") == str(size)
    assert sgf_property(sgf, "RU") == DIVISION[rule]
    assert sgf_property(sgf, "RE") == sgf_result
    black = black_seat(final)
    assert sgf_property(sgf, "PB") == f"player {black}"
    placed = [m for m in moves if "row" in m or m.get("pass")]
    assert sgf_moves(sgf) == [
        (m["color"], "" if m.get("pass") else LETTERS[m["col"]] + LETTERS[m["row"]]) for m in placed
    ]
    audited = audit(client, record=sgf, format="sgf", **beside)
    assert audited["moves"] == timeless(moves)
    assert audited["chain"] == json_record["chain"]
    assert audited["verdict"] == verdict
    if by_move:
        for name in ("status", "winner", "reason", "next_player", "move_count"):
            assert audited["state"][name] == final[name], name

    if any(m.get("pass") for m in moves):
        response = client.get(f"/v1/games/{game['id']}/record?format=psq")
        assert_problem(response, 422, "validation_error")
        assert "no pass" in response.json()["errors"][0]["msg"]
        return
    psq = record(client, game, "psq")
    header, written, tail = psq_lines(psq)
    assert header == f"Piskvorky {size}x{size}, 11:11, 0"
    assert written == [(m["col"] + 1, m["row"] + 1) for m in stones]
    assert tail[:3] == [f"player {black}", f"player {3 - black}", "-1"]
    assert tail[3:] == ([] if psq_result is None else [f"{psq_result},{DIVISION[rule]}"])
    # PSQ carries no rule (a finished game's division names it): the audit is told it.
    audited = audit(client, record=psq, format="psq", rule=rule, **beside)
    assert audited["chain"] == json_record["chain"]
    if psq_result is not None:
        assert audit(client, record=psq, format="psq", **beside)["chain"] == audited["chain"]
    assert audited["moves"] == timeless(moves)


# --- sessions ----------------------------------------------------------------------------------


# How each game of a rule's random sessions goes on and ends.
PLAYED_OUT, PASSED, RESIGNED, AGREED, UNFINISHED, EARLY_DRAW = range(6)
EARLY_DRAW_RULES = ("freestyle", "standard")


@pytest.mark.parametrize("rule", RULES)
def test_random_sessions_export_psq_and_sgf_that_audit_back(client: TestClient, rule: str) -> None:
    """Games played out to a line (or a foul, a full board, a dead position), a renju game with
    a pass, one resigned, one drawn by agreement, one left unfinished: each one's PSQ and SGF."""
    rng = random.Random(f"records-{rule}")
    endings = []
    for how in (PLAYED_OUT, PASSED, RESIGNED, AGREED, UNFINISHED, EARLY_DRAW):
        if how == EARLY_DRAW and rule not in EARLY_DRAW_RULES:
            continue
        size = 15 if rule == "renju" else rng.choice([7, 9, 15, 19])
        params: dict[str, Any] = {"rule": rule, "size": size}
        if rule == "renju" and how in (PLAYED_OUT, PASSED):
            params["foul"] = "lose" if how == PASSED else "refuse"
        if how == EARLY_DRAW:
            params.update(size=5, early_draw=True)  # a five on 5 × 5 needs a whole line
        game = create(client, **params)
        long = how in (PLAYED_OUT, PASSED, EARLY_DRAW)
        passing = 3 if how == PASSED and rule == "renju" else None
        play(client, game, rng, 200 if long else 8, passing, spread=how == EARLY_DRAW)
        if how == RESIGNED:
            assert act(client, game, 2, "resign", None).status_code in (200, 201)
        elif how == AGREED:
            for player in (1, 2):
                assert act(client, game, player, "draw-offer", None).status_code in (200, 201)
        endings.append(state(client, game)["reason"])
        check_exports(client, game)
    assert {"resignation", "agreement", None} <= set(endings)
    if rule in EARLY_DRAW_RULES:
        assert "dead_position" in endings


def test_a_resigned_game_is_won_by_resignation_in_sgf(client: TestClient) -> None:
    game = create(client, rule="standard")
    assert act(client, game, 1, "moves", {"square": "h8"}).status_code == 201
    assert act(client, game, 1, "resign", None).status_code in (200, 201)
    sgf = record(client, game, "sgf")
    assert sgf_property(sgf, "RE") == "W+R"
    assert psq_lines(record(client, game, "psq"))[2][3] == "2,Standard"


def test_a_renju_foul_that_loses_is_a_forfeit_and_audits_only_as_one(client: TestClient) -> None:
    game = create(client, rule="renju", foul="lose")
    # Black's h8, h10 (column h) and i9, j9 (row 9), White's stones far off on column a:
    for player, square in [(1, "h8"), (2, "a1"), (1, "i9"), (2, "a3"), (1, "h10"), (2, "a5"),
                           (1, "j9")]:  # fmt: skip
        assert act(client, game, player, "moves", {"square": square}).status_code == 201
    # h9 makes two open threes for Black (h8-h9-h10 and h9-i9-j9): a double three, which loses.
    assert act(client, game, 2, "moves", {"square": "a7"}).status_code == 201
    assert act(client, game, 1, "moves", {"square": "h9"}).status_code == 201
    final = state(client, game)
    assert (final["status"], final["winner"], final["reason"]) == ("won", 2, "foul")
    sgf = record(client, game, "sgf")
    assert sgf_property(sgf, "RE") == "W+F"
    lost = audit(client, record=sgf, format="sgf", foul="lose")
    assert (lost["state"]["winner"], lost["state"]["reason"]) == (2, "foul")
    refused = audit(client, record=sgf, format="sgf")
    assert refused["verdict"] == "illegal"
    assert refused["illegal"]["code"] == "forbidden_move"
    assert refused["illegal"]["ply"] == 9


def test_a_swap2_games_stones_say_the_game_by_colour(client: TestClient) -> None:
    game = create(client, rule="freestyle", opening="swap2")
    for square in ("h8", "h9", "i8"):
        assert act(client, game, 1, "moves", {"square": square}).status_code == 201
    assert act(client, game, 2, "choice", {"color": "B"}).status_code == 201
    # Player 2 is Black now; White (player 1) moves, then Black makes five on row 8.
    for player, square in [(1, "a1"), (2, "j8"), (1, "a2"), (2, "k8"), (1, "a3"), (2, "g8")]:
        assert act(client, game, player, "moves", {"square": square}).status_code == 201
    final = state(client, game)
    assert (final["status"], final["winner"], final["colors"]["2"]) == ("won", 2, "B")
    psq = record(client, game, "psq")
    _, written, tail = psq_lines(psq)
    assert len(written) == 9  # the stones; the choice is no stone
    assert tail == ["player 2", "player 1", "-1", "1,Freestyle"]
    audited = audit(client, record=psq, format="psq")
    assert audited["verdict"] == "finished"
    assert audited["state"]["winner"] == 1  # Black's seat of a game without swap2
    sgf = record(client, game, "sgf")
    assert sgf_property(sgf, "RE") == "B+"
    assert audit(client, record=sgf, format="sgf")["state"]["reason"] == "line"


def test_a_renju_pass_is_sgfs_empty_move_and_no_psq(client: TestClient) -> None:
    game = create(client, rule="renju")
    assert act(client, game, 1, "moves", {"square": "h8"}).status_code == 201
    assert act(client, game, 2, "moves", {"pass": True}).status_code == 201
    check_exports(client, game)
    assert sgf_moves(record(client, game, "sgf")) == [("B", "hh"), ("W", "")]


# --- what may and may not be given beside a record ---------------------------------------------


def test_psq_takes_its_rule_from_the_body_or_its_division(client: TestClient) -> None:
    text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n"
    assert audit(client, record=text, format="psq")["state"]["rule"] == "freestyle"
    assert audit(client, record=text, format="psq", rule="caro")["state"]["rule"] == "caro"
    named = text + "a\nb\n-1\n0,Renju\n"
    assert audit(client, record=named, format="psq")["state"]["rule"] == "renju"
    conflict = client.post("/v1/records/audit",
                           json={"record": named, "format": "psq", "rule": "standard"})  # fmt: skip
    assert_problem(conflict, 422, "validation_error")
    assert "the record says rule renju" in conflict.json()["errors"][0]["msg"]


def test_a_record_that_names_no_rule_says_the_rule_it_was_checked_under(
    client: TestClient,
) -> None:
    """PSQ has no rule and an SGF may leave out RU: the answer says the rule the game was
    replayed under (the default), and says nothing where the record or the body gave one."""
    psq = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n"
    sgf = "(;FF[4]GM[4]SZ[15];B[hh];W[ii])"
    for text, written in ((psq, "psq"), (sgf, "sgf")):
        unsaid = audit(client, record=text, format=written)
        assert unsaid["assumed"] == {"rule": unsaid["state"]["rule"]} == {"rule": "freestyle"}
        assert "assumed" not in audit(client, record=text, format=written, rule="caro")
    assert "assumed" not in audit(client, record=psq + "a\nb\n-1\n0,Renju\n", format="psq")
    assert "assumed" not in audit(client, record="(;FF[4]GM[4]SZ[15]RU[1];B[hh])", format="sgf")


def test_sgf_rule_given_beside_must_agree_with_ru(client: TestClient) -> None:
    text = "(;FF[4]GM[4]SZ[15]RU[1];B[hh];W[ii])"
    assert audit(client, record=text, format="sgf", rule="standard")["state"]["rule"] == "standard"
    conflict = client.post("/v1/records/audit",
                           json={"record": text, "format": "sgf", "rule": "caro"})  # fmt: skip
    assert_problem(conflict, 422, "validation_error")
    plain = "(;FF[4]GM[4]SZ[15];B[hh];W[ii])"
    assert audit(client, record=plain, format="sgf", rule="caro")["state"]["rule"] == "caro"


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"size": 15}, "give no size"),
        ({"opening": "swap2"}, "give no opening"),
        ({"moves": ["h8"]}, "one way"),
        ({"rule": "renju", "size": 19}, "give no size"),
    ],
)
def test_parameters_a_record_carries_are_not_given_beside_it(
    client: TestClient, extra: dict[str, Any], words: str
) -> None:
    body = {"record": "Piskvorky 15x15, 11:11, 0\n8,8,0\n", "format": "psq", **extra}
    response = client.post("/v1/records/audit", json=body)
    assert_problem(response, 422, "validation_error")
    assert words in response.text


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"record": "Piskvorky 20x20, 11:11, 0\n8,8,0\n", "format": "psq", "rule": "renju"},
         "renju is played on 15"),
        ({"record": "Piskvorky 4x4, 11:11, 0\n", "format": "psq"}, "size"),
        ({"record": "(;GM[4]SZ[15];B[hh];B[ii])", "format": "sgf"}, None),
        ({"record": "(;GM[4]SZ[15];W[hh])", "format": "sgf"}, None),
        ({"record": "(;GM[4]SZ[15];B[hh];W[hh])", "format": "sgf"}, None),
    ],
)  # fmt: skip
def test_a_record_the_rules_refuse_is_illegal_or_422(
    client: TestClient, body: dict[str, Any], words: str | None
) -> None:
    response = client.post("/v1/records/audit", json=body)
    if words is not None:
        assert_problem(response, 422, "validation_error")
        assert words in response.text
        return
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["verdict"] == "illegal"
    assert answer["illegal"]["code"] in ("not_your_turn", "cell_occupied")


def test_othello_has_no_psq_and_gomoku_no_ggf(client: TestClient) -> None:
    othello = client.post("/v1/games", json={"game": "reversi"}).json()
    response = client.get(f"/v1/games/{othello['id']}/record?format=psq")
    assert_problem(response, 422, "validation_error")
    gomoku = create(client)
    response = client.get(f"/v1/games/{gomoku['id']}/record?format=ggf")
    assert_problem(response, 422, "validation_error")
    body = {"game": "reversi", "record": "(;GM[4]SZ[15])", "format": "sgf"}
    assert_problem(client.post("/v1/records/audit", json=body), 422, "validation_error")


@pytest.mark.parametrize(
    ("name", "value"),
    [("rule", "r\u0435nju"), ("rule", "renju\u0000"), ("rule", 10**30), ("rule", "x" * 100_000),
     ("foul", "\uff4cose"), ("early_draw", "\u0661"), ("early_draw", 1)],
)  # fmt: skip
def test_garbage_beside_a_record_is_422_naming_it(
    client: TestClient, name: str, value: object
) -> None:
    body = {"record": "(;FF[4]GM[4]SZ[15];B[hh])", "format": "sgf", name: value}
    response = client.post("/v1/records/audit", json=body)
    assert_problem(response, 422, "validation_error")
    assert response.json()["errors"][0]["loc"][:2] == ["body", name]
    assert len(response.text) < 2_000  # the value is not echoed back
