"""A takeback at the kind's level (``Position.undo``), for every kind and rule: random games
are played, their last moves taken back, and the position is compared with the oracle — a new
position that replays the shorter move list from the start — in everything it shows (state,
board, legal moves, the detectors' counters and the early-draw windows), then both play on
alike. The same holds for a position a store rebuilt from its text (``GameKind.decode``), which
knows only its last move and is handed the move before those taken back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.kinds import REGISTRY
from app.rules.dead import Liveness
from app.rules.errors import DomainError
from app.sessions.kind import GameKind, Move, Position

GAMES: list[tuple[str, Mapping[str, object]]] = [
    ("tictactoe", {"n": 3, "k": 3}),
    ("tictactoe", {"n": 4, "k": 4, "early_draw": True}),
    ("tictactoe", {"n": 6, "k": 3}),
    ("tictactoe", {"n": 7, "k": 4, "early_draw": True}),
    ("tictactoe", {"n": 5, "k": 4, "early_draw": True}),
    ("reversi", {"height": 4, "width": 4}),
    ("reversi", {"height": 6, "width": 8}),
    ("gomoku", {"rule": "freestyle", "size": 7}),
    ("gomoku", {"rule": "freestyle", "size": 6, "early_draw": True}),
    ("gomoku", {"rule": "standard", "size": 8, "early_draw": True}),
    ("gomoku", {"rule": "caro", "size": 7}),
    ("gomoku", {"rule": "renju", "size": 15}),
    ("gomoku", {"rule": "freestyle", "size": 9, "opening": "swap2"}),
]


def seen(kind: GameKind, position: Position) -> dict[str, Any]:
    """Everything a position shows, and the counters it keeps."""
    legal = position.legal_moves(-1, 10_000)
    shown: dict[str, Any] = {
        "facts": dict(
            kind.ended(position.facts(), position.status, position.winner, position.reason)
        ),
        "status": (position.status, position.winner, position.reason, position.next_player),
        "count": position.move_count,
        "rows": position.rows(),
        "legal": (legal.count, [(m.played, m.facts) for m in legal.moves]),
        "last": position.move(position.move_count) if position.move_count else None,
    }
    lines = getattr(position, "lines", None)
    if lines is not None:
        # (A line's counter at 0 reads as none: a line may hold one stone of each player.)
        shown["lines"] = {
            name: {k: v for k, v in found.items() if v} if isinstance(found, dict) else found
            for name in ("rows", "columns", "diagonal", "anti_diagonal", "ends")
            if (found := getattr(lines, name, None)) is not None
        }
    liveness: Liveness | None = getattr(position, "liveness", None)
    if liveness is not None:  # the misses counted where not yet kept: as the shorter game's
        shown["windows"] = (
            liveness.open, dict(liveness.lines or {}), dict(liveness.stones or {}),
            [liveness.by_misses(player) for player in (1, 2)],
        )  # fmt: skip
    passes = getattr(position, "passes", None)
    if passes is not None:
        shown["passes"] = passes
    return shown


def replayed(kind: GameKind, params: Mapping[str, object], moves: list[Move]) -> Position:
    position = kind.new(params)
    for move in moves:
        position.play(move.played, move.player)
    return position


def play_randomly(data: st.DataObject, kind: GameKind, position: Position, most: int) -> None:
    """Up to ``most`` moves (and swap2 choices) drawn from what the position allows."""
    for _ in range(most):
        player = position.next_player
        if player is None:
            return
        choices = getattr(kind.face, "choices", ())
        opening = position.facts().get("opening")
        if choices and isinstance(opening, dict) and opening["step"].startswith("choose"):
            option = data.draw(st.sampled_from(["B", "W", "place_two"]))
            body = {"place_two": True} if option == "place_two" else {"color": option}
            model = next(c for c in choices if set(body) <= set(c.model_fields))
            try:
                position.play(model.model_validate(body).played(), player)
            except DomainError:  # a choice out of step: try another draw
                continue
            continue
        legal = position.legal_moves(-1, 10_000)
        if not legal.moves:
            return
        pick = data.draw(st.sampled_from(legal.moves))
        position.play(pick.played, player)


@settings(max_examples=120, deadline=None)
@given(game=st.sampled_from(GAMES), data=st.data())
def test_a_takeback_leaves_the_position_the_shorter_game_leaves(
    game: tuple[str, Mapping[str, object]], data: st.DataObject
) -> None:
    name, params = game
    kind = REGISTRY.find(name)
    position = kind.new(params)
    play_randomly(data, kind, position, data.draw(st.integers(1, 30)))
    for _ in range(data.draw(st.integers(1, 3))):  # takebacks and play again, in turn
        if position.status != "in_progress":
            return
        count = position.move_count
        moves = [position.move(seq) for seq in range(1, count + 1)]
        undoable = 0
        while undoable < count and kind.takes_back(moves[count - undoable - 1]):
            undoable += 1
        if not undoable:
            return
        taken = data.draw(st.integers(1, min(undoable, 4)))
        kept = moves[: count - taken]
        before = kept[-1] if kept else None
        rebuilt = kind.decode(params, position.encode())  # as a store keeps it

        position.undo(moves[count - taken :], before)
        rebuilt.undo(moves[count - taken :], before)
        oracle = replayed(kind, params, kept)
        assert seen(kind, position) == seen(kind, oracle)
        rebuilt_seen, oracle_seen = seen(kind, rebuilt), seen(kind, oracle)
        for part in ("lines", "windows"):  # a rebuilt position counts afresh
            rebuilt_seen.pop(part, None)
            oracle_seen.pop(part, None)
        assert rebuilt_seen == oracle_seen
        assert seen(kind, kind.decode(params, position.encode())) == seen(
            kind, kind.decode(params, oracle.encode())
        )
        play_randomly(data, kind, position, data.draw(st.integers(0, 6)))
