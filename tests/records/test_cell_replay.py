"""An Othello record replayed at once (``CellReplay``) answers what a ``play`` a move answers:
the same bytes — verdict, plies, refusal, state, move records (their members in the same
order), canonical JSON of each record, hash chain and signature — on every game of a real
WTHOR file, and on random games of every board shape (with passes, without square names,
refused for each reason, played past the end).

The slow path is ``played_one_by_one``: ``Position.play`` a move, each record rendered by
``move_json`` and written by ``canonical_json`` — the implementation every audit had before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from pydantic_core import to_json

from app.contract.problems import ProblemTable
from app.contract.render import move_json, names_of
from app.kinds.reversi import KIND
from app.kinds.reversi.replay import ReversiMoves, record_writer
from app.records.answer import WTHOR_MOVES, answering, wthor_line
from app.records.audit import Audit, Submitted, played_one_by_one, replay
from app.records.canonical import canonical_json
from app.records.signing import AUDIT, SigningKey
from app.records.steps import completed
from app.records.wthor import read_wthor
from app.rules.reversi import federation_score
from app.sessions.kind import Placement
from app.sessions.store import opened

WTHOR = Path(__file__).resolve().parents[1] / "data" / "WTH_1988.wtb"
PROBLEMS = ProblemTable.of([KIND.face])
KEY = SigningKey.from_seed(bytes(range(32)))  # Ed25519 signs deterministically


def one_by_one(params: dict[str, Any], moves: list[Submitted]) -> Audit:
    return completed(played_one_by_one(KIND, params, opened(KIND, params, ()), moves))


def answered(audit: Audit, detail: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    answer, written = completed(answering(audit, PROBLEMS, detail))  # type: ignore[arg-type]
    return KEY.signed(answer, AUDIT, written), written


def assert_same(params: dict[str, Any], moves: list[Submitted]) -> Audit:
    """The audit at once and a move at a time: the same answers, bytes and signatures."""
    fast, slow = replay(KIND, params, moves), one_by_one(params, moves)
    assert isinstance(fast.moves, ReversiMoves)  # the fast path was taken
    assert (fast.verdict, fast.plies) == (slow.verdict, slow.plies)
    assert list(fast.moves) == list(slow.moves)
    for detail in ("full", "summary"):
        (fast_answer, fast_written), (slow_answer, slow_written) = (
            answered(fast, detail),
            answered(slow, detail),
        )
        assert to_json(fast_answer) == to_json(slow_answer)  # byte for byte, members in order
        assert fast_written == slow_written
    return fast


@pytest.fixture(scope="module")
def games() -> list[list[Submitted]]:
    return [[WTHOR_MOVES[square] for square in game.moves] for game in read_wthor(
        WTHOR.read_bytes(), 60)[1]]  # fmt: skip


def test_every_real_game_is_audited_alike_at_once_and_a_move_at_a_time(
    games: list[list[Submitted]],
) -> None:
    verdicts = set()
    for moves in games:
        verdicts.add(assert_same({"height": 8, "width": 8}, moves).verdict)
    assert "finished" in verdicts


def test_every_real_move_record_is_written_as_canonical_json_writes_its_rendering(
    games: list[list[Submitted]],
) -> None:
    names = names_of(KIND, (8, 8))
    assert names is not None
    for moves in games:
        audit = replay(KIND, {"height": 8, "width": 8}, moves)
        assert isinstance(audit.moves, ReversiMoves)
        written = audit.moves.canonical(names)
        assert written is not None  # the writer agreed with the general path
        slow = [canonical_json(move_json(move, names)) for move in audit.moves]
        assert list(written) == slow


def test_every_wthor_line_says_what_a_move_at_a_time_says() -> None:
    _, read = read_wthor(WTHOR.read_bytes(), 60)
    for game in read:
        line = wthor_line(game, KIND)
        slow = one_by_one({"height": 8, "width": 8}, [WTHOR_MOVES[s] for s in game.moves])
        assert (line["verdict"], line["plies"]) == (slow.verdict, slow.plies)
        final = None
        if slow.verdict == "finished":
            score = slow.position.facts()["score"]
            black, white = federation_score(score["1"], score["2"], 64)
            final = {"B": black, "W": white}
        assert line["final_score"] == final
        assert line["agrees"] == (final is not None and final["B"] == game.stored_score)


def _random_record(rng: random.Random, height: int, width: int) -> list[Submitted]:
    """A random legal game of ``height`` × ``width``, cut short or played out, then perhaps a
    move that is refused (outside, occupied, bracketing nothing, after the end) and more."""
    position = KIND.new({"height": height, "width": width})
    moves: list[Submitted] = []
    while position.next_player is not None and rng.random() > 0.01:
        legal = position.legal_moves(-1, height * width).moves
        played = rng.choice(legal).played
        moves.append(Submitted(played, "legal"))
        position.play(played, position.next_player)
    for _ in range(rng.choice([0, 0, 1, 3])):
        cell = Placement(rng.randint(-1, height), rng.randint(-1, width))
        moves.append(Submitted(cell, [cell.row, cell.col]))
    return moves


@pytest.mark.parametrize(("height", "width"), [(4, 4), (4, 6), (6, 6), (8, 8), (4, 28), (10, 32)])
def test_random_games_are_audited_alike_at_once_and_a_move_at_a_time(
    height: int, width: int
) -> None:
    rng = random.Random(height * 100 + width)
    seen: set[str] = set()
    passes = 0
    for _ in range(60 if height * width <= 64 else 8):
        audit = assert_same({"height": height, "width": width}, _random_record(rng, height, width))
        seen.add(audit.verdict if audit.refused is None else audit.refused.error.code)
        passes += sum(bool((move.facts or {})["passed"]) for move in audit.moves)
    if height * width <= 24:  # small boards: every outcome, and passes
        assert seen >= {"finished", "out_of_bounds", "cell_occupied", "game_over"}
        assert passes


def test_a_writer_that_disagrees_with_the_general_path_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.kinds.reversi import replay as module

    names = names_of(KIND, (6, 6))
    assert names is not None
    geometry = KIND.new({"height": 6, "width": 6}).board.geometry
    monkeypatch.setattr(module, "_WRITERS", {})
    monkeypatch.setattr(module.RecordWriter, "agrees", lambda self, geometry, names: False)
    assert record_writer(geometry, names) is None
    moves = _random_record(random.Random(7), 6, 6)
    assert_same({"height": 6, "width": 6}, moves)  # rendered and written one by one


def test_games_from_posted_boards_are_audited_alike_either_colour_first() -> None:
    rng = random.Random(11)
    for _ in range(30):
        position = KIND.new({"height": 6, "width": 8})
        for _ in range(rng.randint(0, 12)):
            player = position.next_player
            if player is None:
                break
            position.play(rng.choice(position.legal_moves(-1, 48).moves).played, player)
        if position.next_player is None:
            continue
        params = {"board": position.rows(), "next": "B" if position.next_player == 1 else "W"}
        moves = []
        while position.next_player is not None and rng.random() > 0.05:
            played = rng.choice(position.legal_moves(-1, 48).moves).played
            moves.append(Submitted(played, "legal"))
            position.play(played, position.next_player)
        moves.append(Submitted(Placement(0, 0), "a1"))  # refused, or played
        assert_same(params, moves)
