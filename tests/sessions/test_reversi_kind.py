"""The Reversi session kind against the reference rules: random playouts on every even size from
4 to 32 (Hypothesis), passes and wipe-outs included, its legal moves (and their flips) at every
move, paged, and its records' text round trip."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.kinds.reversi import KIND
from app.sessions.kind import LegalMoves, Placement
from tests.rules import reference

EVEN = st.sampled_from(range(4, 33, 2))
Cell = tuple[int, int]


def listed(page: LegalMoves) -> list[tuple[Cell, list[Cell]]]:
    """Each move of a page of legal moves: its cell, and the stones it would flip."""
    moves = []
    for move in page.moves:
        cell, flips = Placement.of(move.played), (move.facts or {})["flips"]
        assert isinstance(flips, list)
        moves.append(((cell.row, cell.col), [(r, c) for r, c in flips]))
    return moves


@settings(max_examples=20, deadline=None)
@given(height=EVEN, width=EVEN, data=st.data())
def test_random_playouts_match_the_reference(height: int, width: int, data: st.DataObject) -> None:
    position = KIND.new({"height": height, "width": width})
    grid = position.rows()
    color = {1: "B", 2: "W"}
    while position.next_player is not None:
        player = position.next_player
        legal = reference.reversi_moves(grid, color[player])
        assert legal
        # Its legal moves are the reference's, each with exactly the stones it flips, on one
        # page or on pages of any size.
        flips_of = {cell: reference.reversi_flips(grid, *cell, color[player]) for cell in legal}
        assert listed(position.legal_moves(-1, height * width)) == list(flips_of.items())
        limit = data.draw(st.integers(1, len(legal)))
        paged: list[tuple[Cell, list[Cell]]] = []
        after: int | None = -1
        while after is not None:
            page = position.legal_moves(after, limit)
            assert page.count == len(legal)
            paged += listed(page)
            after = page.next_after
        assert paged == list(flips_of.items())
        r, c = data.draw(st.sampled_from(legal))
        flips = reference.reversi_flips(grid, r, c, color[player])
        grid = reference.reversi_play(grid, r, c, color[player])
        move = position.play(Placement(r, c), player)
        mover_can, other_can = (
            bool(reference.reversi_moves(grid, color[p])) for p in (player, 3 - player)
        )
        assert move.facts == {
            "flips": [list(f) for f in flips],
            "passed": mover_can and not other_can,
        }
        assert position.next_player == (3 - player if other_can else player if mover_can else None)
        assert position.rows() == grid
        # The record as a store keeps it reads back as the same move.
        assert KIND.decode_move(move.seq, KIND.encode_move(move)) == move
    black, white = (sum(row.count(m) for row in grid) for m in "BW")
    assert position.reason == "no_moves"
    assert position.legal_moves(-1, 1024).count == 0
    assert (position.status, position.winner) == (
        ("draw", 0) if black == white else ("won", 1 if black > white else 2)
    )
    # The game as a store keeps it (its moves in a list of their own) is the same game.
    kept = KIND.decode({"height": height, "width": width}, position.encode())
    assert kept.rows() == grid
    assert (kept.move_count, kept.next_player) == (position.move_count, None)
    assert kept.move(kept.move_count) == position.move(position.move_count)


def test_a_kept_position_is_the_same_size_at_every_move() -> None:
    position, sizes = KIND.new({"height": 8, "width": 8}), []
    grid, color = position.rows(), {1: "B", 2: "W"}
    while position.next_player is not None:
        player = position.next_player
        r, c = reference.reversi_moves(grid, color[player])[0]
        grid = reference.reversi_play(grid, r, c, color[player])
        position.play(Placement(r, c), player)
        kept = KIND.decode({"height": 8, "width": 8}, position.encode())
        sizes.append(len(position.encode()))
        # Rebuilt from its text, it plays on as the position itself does.
        assert (kept.rows(), kept.next_player, kept.move_count) == (
            position.rows(), position.next_player, position.move_count)  # fmt: skip
    # The text holds the board and the last move: it grows with the flips' text, not the moves.
    assert max(sizes) - min(sizes) < 40, sizes
