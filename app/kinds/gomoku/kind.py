"""The gomoku kind (``KIND``): makes positions, encodes them and their moves for stores,
declares its face and its fast path (the store's line engine, for the rules a run's length and
its ends decide, without an opening)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import get_args

from app.contract.games import Face, MoveIn, PassIn
from app.contract.problems import CELL_REFUSALS
from app.kinds.gomoku.answers import CreatedGomokuOut, GomokuBoardOut, GomokuGameOut, GomokuMoveOut
from app.kinds.gomoku.creation import CreateGomokuIn
from app.kinds.gomoku.moves import array_row, decode_move, encode_move
from app.kinds.gomoku.position import STONE, Gomoku, new_game
from app.kinds.gomoku.refusals import FORBIDDEN_MOVE, NO_PASSES
from app.kinds.gomoku.swap2 import (
    FIXED_COLORS,
    SWAP2,
    TO_ACT,
    ColorChoiceIn,
    PlaceTwoIn,
    Swap2Choice,
    flip,
    holder,
)
from app.rules.dead import Liveness
from app.rules.gomoku import FIVE, Rule
from app.sessions.kind import FastPath, Move, Player, Reason, Status, Winner, early_draw_param

# The rules whose wins a run's length and its ends decide: a store's line engine plays them.
LINE_RULES = ("freestyle", "standard", "caro")


class GomokuKind:
    """The kind: makes positions, and encodes them and their moves for stores."""

    name = "gomoku"
    dimensions = ("size",)
    # The store's line engine plays five in a row under the rules a run's length and its ends
    # decide (not renju: Black's forbidden points need the windows around a point, read in
    # Python), without an opening (swap2's stones and choice are the generic session's).
    rules: tuple[str, ...] = get_args(Rule)
    fast_path = FastPath(
        "lines", lambda p: p["rule"] in LINE_RULES and p.get("opening") != SWAP2,
        lambda p: {"n": p["size"], "k": FIVE, "rule": p["rule"], **early_draw_param(p)},
    )  # fmt: skip
    face = Face(
        title="Gomoku",
        create=CreateGomokuIn,
        examples={
            "gomoku": {"summary": "Gomoku, freestyle, 15 × 15", "value": {"game": "gomoku"}},
            "renju": {
                "summary": "Renju: Black's forbidden points refused",
                "value": {"game": "gomoku", "rule": "renju"},
            },
            "renju-foul-loses": {
                "summary": "Renju where Black's forbidden move loses the game",
                "value": {"game": "gomoku", "rule": "renju", "foul": "lose"},
            },
            "standard-19": {
                "summary": "Standard gomoku (exactly five) on 19 × 19, with clocks",
                "value": {
                    "game": "gomoku",
                    "rule": "standard",
                    "size": 19,
                    "clock": {"initial_seconds": 300, "increment_seconds": 5},
                },
            },
            "caro-opening": {
                "summary": "Caro from a three-stone opening",
                "value": {
                    "game": "gomoku",
                    "rule": "caro",
                    "opening": {"stones": ["h8", "i9", "g9"]},
                },
            },
            "swap2": {
                "summary": "Freestyle with a swap2 opening",
                "value": {"game": "gomoku", "opening": "swap2"},
            },
        },
        state=GomokuGameOut,
        created=CreatedGomokuOut,
        record=GomokuMoveOut,
        board=GomokuBoardOut,
        known_as="gomoku and renju",
        row_one="bottom",  # as gomoku's and renju's players write it (RIF): h8 is the centre
        formats=("psq", "sgf"),  # Gomocup's and Piskvork's files; SGF FF[4] GM[4]
        moves=(MoveIn, PassIn),
        choices=(ColorChoiceIn, PlaceTwoIn),
        refusals=(*CELL_REFUSALS, FORBIDDEN_MOVE, NO_PASSES),
        page={"marks": {"1": "B", "2": "W"}, "empty": ".", "names": {"1": "Black", "2": "White"}},
    )

    def new(self, params: Mapping[str, object]) -> Gomoku:
        return new_game(params)

    def decode(self, params: Mapping[str, object], text: str) -> Gomoku:
        position = self.new(params)
        if not text:
            return position
        kept = json.loads(text)
        cells = position.board.cells
        for stone in filter(None, kept["stones"].split(",")):
            row, col = stone[:-1].split(".")
            cells[int(row), int(col)] = "B" if stone[-1] == "B" else "W"
        position.passes = int(kept["passes"])
        position.status, position.winner = kept["status"], kept["winner"]
        position.ended = kept["reason"]
        count = int(kept.get("count", 0))
        # A text written before swap2 has no turn: Black's after an even number of moves.
        position.turn = "W" if kept.get("turn", "BW"[count % 2]) == "W" else "B"
        if position.liveness is not None:
            stones = ((r, c, STONE[color]) for (r, c), color in cells.items())
            position.liveness = Liveness.of(
                position.size, FIVE, position.rule == "standard", stones
            )
        if "step" in kept:
            position.step = kept["step"]
            colors = kept["colors"]
            position.colors = None if not colors else (colors[0], colors[1])
        if "last" in kept:
            last = self.decode_move(count, kept["last"])
            position.first = count
            position.played.extend(array_row(last))
            if last.state_facts is not None:
                position.opened[count] = last.state_facts
        return position

    def encode_move(self, move: Move) -> str:
        return encode_move(move)

    def decode_move(self, seq: int, text: str) -> Move:
        return decode_move(seq, text)

    def takes_back(self, move: Move) -> bool:
        """Not a swap2 opening's stone or choice (the moves that record the step they left)."""
        return move.state_facts is None and not isinstance(move.played, Swap2Choice)

    def clocks_wait(self, params: Mapping[str, object]) -> bool:
        return params.get("opening") != SWAP2  # swap2's clocks run from the first stone

    def after(
        self, move: Move, facts_now: Mapping[str, object]
    ) -> tuple[Player, Mapping[str, object]]:
        """The seat holding the other colour moves; in a swap2 opening, the move says who
        acted next and how the opening stood (after the choice that fixed the colours, White
        moves: three or five stones are down)."""
        then = move.state_facts
        if then is not None:
            opening = then["opening"]
            facts = {**facts_now, **then}
            if isinstance(opening, dict):
                return TO_ACT[opening["step"]], facts
            colors = then["colors"]
            assert isinstance(colors, dict)
            return holder(colors, "W"), facts
        colors = facts_now.get("colors", FIXED_COLORS)  # (a game kept from before swap2)
        assert isinstance(colors, dict)
        return holder(colors, flip((move.facts or {})["color"])), facts_now  # type: ignore[arg-type]

    def ended(
        self, facts: Mapping[str, object], status: Status, winner: Winner, reason: Reason | None
    ) -> Mapping[str, object]:
        """The facts as they are (a gomoku result is its winner: nothing to count), but a game
        over has no opening step pending, whoever ended it; and a game a store kept from before
        swap2 gets the colours it was played with."""
        if "colors" not in facts:
            facts = {**facts, "colors": FIXED_COLORS, "opening": None}
        if status != "in_progress" and facts["opening"] is not None:
            facts = {**facts, "opening": None}
        return facts


KIND = GomokuKind()
