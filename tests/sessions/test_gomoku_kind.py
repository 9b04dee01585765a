"""The gomoku kind as stores keep it: a position rebuilt from its text (``encode``, what the Redis
store's generic engine keeps) is the position — its board, its counters, its last move, and the
answers it gives to the next moves, its facts — at every point of random games under every rule,
swap2 openings and their choices, and early draws, included; a move record's text gives the
move back."""

from __future__ import annotations

import random

import pytest

from app.kinds.gomoku import KIND
from app.kinds.gomoku.position import Gomoku
from app.kinds.gomoku.swap2 import Swap2Choice, opening_facts
from app.rules.errors import RuleError
from app.sessions.kind import Move, Pass, Placement, Played, Player

RULES = ["freestyle", "standard", "renju", "caro"]


def seen(position: Gomoku) -> tuple[object, ...]:
    count = position.move_count
    last = position.move(count) if count else None
    return (
        position.rows(), position.status, position.winner, position.reason,
        position.next_player, count, last, position.legal_moves(-1, 30), position.facts(),
    )  # fmt: skip


def answer(position: Gomoku, played: Played, player: Player) -> Move | str:
    try:
        return position.play(played, player)
    except RuleError as error:
        return f"{error.code}: {error}"


@pytest.mark.parametrize("rule", RULES)
def test_a_position_rebuilt_from_its_text_is_the_position(rule: str) -> None:
    rng = random.Random(rule)
    for _ in range(12):
        size = 15 if rule == "renju" else rng.choice([5, 7, 15])
        params: dict[str, object] = {"rule": rule, "size": size}
        if rule == "renju" and rng.random() < 0.3:
            params["foul"] = "lose"
        if rng.random() < 0.5:
            params["opening"] = "swap2"
        if rule in ("freestyle", "standard") and rng.random() < 0.5:
            params["early_draw"] = True  # its windows are rebuilt from the stones
        position = KIND.new(params)
        span = range(max(0, size // 2 - 3), min(size, size // 2 + 4))
        for _ in range(80):  # tries: most are moves, some refusals
            if position.next_player is None:
                break
            rebuilt = KIND.decode(params, position.encode())
            assert seen(rebuilt) == seen(position)
            player = position.next_player
            tries: list[tuple[Played, Player]] = [
                (Placement(rng.choice(span), rng.choice(span)), player),
                (Placement(rng.choice(span), rng.choice(span)), 3 - player),  # type: ignore[list-item]
            ]
            if rng.random() < 0.1:
                tries.append((Pass(), player))
            if rng.random() < 0.3:  # a swap2 choice: due now, out of step, or in no swap2 game
                tries.append((Swap2Choice(rng.choice(["B", "W", "place_two"])), player))
            for played, mover in tries:  # the same answers, and the same positions after them
                assert answer(rebuilt, played, mover) == answer(position, played, mover)
                assert seen(rebuilt) == seen(position)


@pytest.mark.parametrize(
    "move",
    [
        Move(1, Placement(7, 7), 1, {"color": "B"}),
        Move(2, Pass(), 2, {"color": "W"}),
        Move(999, Placement(999_999, 0), 1, {"color": "B"}),
        Move(3, Placement(0, 0), 1, {"color": "B"}, opening_facts("choose", None)),
        Move(4, Swap2Choice("place_two"), 2, {}, opening_facts("place_two", None)),
        Move(7, Swap2Choice("W"), 1, {"color": "W"}, opening_facts(None, ("W", "B"))),
        Move(4, Swap2Choice("B"), 2, {"color": "B"}, opening_facts(None, ("W", "B"))),
    ],
)
def test_a_move_record_s_text_is_the_move(move: Move) -> None:
    assert KIND.decode_move(move.seq, KIND.encode_move(move)) == move
