"""The gomoku kind as stores keep it: a position rebuilt from its text (``encode``, what the Redis
store's generic engine keeps) is the position — its board, its counters, its last move, and the
answers it gives to the next moves — at every point of random games under every rule; a move
record's text gives the move back."""

from __future__ import annotations

import random

import pytest

from app.rules.errors import RuleError
from app.sessions.kind import Move, Pass, Placement, Played, Player
from app.sessions.kinds.gomoku import KIND, Gomoku

RULES = ["freestyle", "standard", "renju", "caro"]


def seen(position: Gomoku) -> tuple[object, ...]:
    count = position.move_count
    last = position.move(count) if count else None
    return (
        position.rows(), position.status, position.winner, position.reason,
        position.next_player, count, last, position.legal_moves(-1, 30),
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
        params = {"rule": rule, "size": size} | ({"foul": "lose"} if rng.random() < 0.3 else {})
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
            for played, mover in tries:  # the same answers, and the same positions after them
                assert answer(rebuilt, played, mover) == answer(position, played, mover)
                assert seen(rebuilt) == seen(position)


@pytest.mark.parametrize(
    "move",
    [
        Move(1, Placement(7, 7), 1, {"color": "B"}),
        Move(2, Pass(), 2, {"color": "W"}),
        Move(999, Placement(999_999, 0), 1, {"color": "B"}),
    ],
)
def test_a_move_record_s_text_is_the_move(move: Move) -> None:
    assert KIND.decode_move(move.seq, KIND.encode_move(move)) == move
