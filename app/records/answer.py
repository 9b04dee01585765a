"""The answer to an audit, unsigned: the verdict, the accepted moves as a session records them,
the position after them as a game's state shows it, the record's hash chain, and the first
refusal as the problem a session's move would get; and a WTHOR file's game, audited, as a line
of the batch's answer (``wthor_line``)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice
from typing import cast

from app.contract.games import Kind
from app.contract.problems import ProblemTable, problem_body
from app.contract.render import Json, move_json, names_of, position_json
from app.contract.squares import Squares
from app.records.audit import (
    CELLS_STEP,
    Audit,
    CellReplay,
    MoveRecords,
    Refused,
    Submitted,
    replay,
)
from app.records.bodies import FULL, SUMMARY, Detail
from app.records.canonical import Chain, canonical_array
from app.records.steps import Steps, completed
from app.records.wthor import WthorGame
from app.rules.reversi import federation_score
from app.sessions.kind import Placement, board_size


def audit_answer(audit: Audit, problems: ProblemTable, detail: Detail = FULL) -> Json:
    """The answer to an audit, unsigned: the verdict, the moves as a session records them
    (unless ``detail`` is ``summary``), the state after them, and the record's hash chain."""
    answer, _ = completed(answering(audit, problems, detail))
    return answer


def answering(
    audit: Audit, problems: ProblemTable, detail: Detail = FULL
) -> Steps[tuple[Json, dict[str, bytes]]]:
    """``audit_answer``, a move a step; with the canonical JSON of its moves, written as they
    were chained, for its signature (``SigningKey.sign``'s ``written``). A summary chains the
    same move records, and keeps neither them nor their JSON. Records that render and write
    themselves (``MoveRecords``) are chained from their canonical JSON, ``CELLS_STEP`` a step."""
    kind, position = audit.kind, audit.position
    names = names_of(kind, board_size(kind, position.facts()))
    chained = Chain({"game": kind.name, **audit.params})
    moves: list[Json] = []
    written: list[bytes] = []
    themselves = cast(MoveRecords, audit.moves) if hasattr(audit.moves, "canonical") else None
    records = None if themselves is None else themselves.canonical(names)
    if records is not None:
        while piece := list(islice(records, CELLS_STEP)):
            chained.add_written(piece)
            if detail != SUMMARY:
                written += piece
            yield
        rendered = None if detail == SUMMARY or themselves is None else themselves.shown(names)
        if rendered is not None:
            moves = rendered
        elif detail != SUMMARY:
            for index, move in enumerate(audit.moves, 1):
                moves.append(move_json(move, names))
                if not index % CELLS_STEP:
                    yield
    elif detail == SUMMARY:
        add = chained.add
        for move in audit.moves:
            add(move_json(move, names))
            yield
    else:
        for move in audit.moves:
            shown_move = move_json(move, names)
            moves.append(shown_move)
            written.append(chained.add(shown_move))
            yield
    count = position.move_count
    last = audit.moves[-1] if audit.moves else (position.move(count) if count else None)
    shown = position_json(kind, position, last, names)
    illegal: Json | None = None
    if audit.refused is not None:
        error = audit.refused.error
        problem = problems.problem_of(type(error))
        named = None if names is None else names.squares.name
        refusal = problem_body(problem, error.described(named), error.details())
        illegal = {"ply": audit.refused.ply, "move": audit.refused.given, **refusal}
    answer: Json = {"verdict": audit.verdict, "plies": audit.plies, "illegal": illegal}
    if detail == SUMMARY:
        answer |= {"state": shown, "chain": chained.hex()}
    else:
        answer |= {"moves": moves, "state": shown, "chain": chained.hex()}
    if audit.assumed:
        answer["assumed"] = dict(audit.assumed)
    return answer, {} if detail == SUMMARY else {"moves": canonical_array(written)}


WTHOR_SQUARES = Squares(8, 8, from_bottom=False)  # a WTHOR game is Othello on 8 × 8
# Each square a WTHOR move can name, as the move the audit is given: the file reader yields
# only these names, so a game's moves are looked up (a parse and two objects a move were a
# fifth of an audited file's time). The values are immutable: one serves every game.
WTHOR_CELLS = {
    WTHOR_SQUARES.name(row, col): Placement(row, col) for row in range(8) for col in range(8)
}
WTHOR_MOVES = {name: Submitted(cell, name) for name, cell in WTHOR_CELLS.items()}


WTHOR_PARAMS = {"height": 8, "width": 8}


def wthor_line(game: WthorGame, kind: Kind) -> Json:
    """One game of a WTHOR file, audited: the file's own facts, the verdict, and whether the
    score the file stores for Black is the federation's score of the game as replayed. The
    line needs no move record: the cells are replayed at once where the position can
    (``CellReplay``), and only the end is read."""
    position = kind.new(WTHOR_PARAMS)
    cell_replay = getattr(position, "cell_replay", None)
    refused: Refused | None = None
    if cell_replay is not None:  # a WTHOR game has at most 60 moves: one step
        played: CellReplay = cell_replay()
        stop = played.play(list(map(WTHOR_CELLS.__getitem__, game.moves)))
        if stop is not None:
            refused = Refused(stop[0] + 1, game.moves[stop[0]], stop[1])
        position, plies = played.position(), len(game.moves) if stop is None else stop[0]
    else:
        audit = replay(kind, WTHOR_PARAMS, map(WTHOR_MOVES.__getitem__, game.moves))
        position, plies, refused = audit.position, audit.plies, audit.refused
    verdict = "illegal" if refused else "unfinished" if position.next_player else "finished"
    final: tuple[int, int] | None = None  # Black's and White's
    if verdict == "finished":
        score = cast(Mapping[str, int], position.facts()["score"])
        final = federation_score(score["1"], score["2"], 64)
    illegal = None
    if refused is not None:
        error = refused.error
        illegal = {"ply": refused.ply, "move": refused.given, "code": error.code,
                   "detail": str(error), **error.details()}  # fmt: skip
    return {
        "index": game.index,
        "tournament": game.tournament,
        "black": game.black,
        "white": game.white,
        "stored_score": game.stored_score,
        "verdict": verdict,
        "plies": plies,
        "illegal": illegal,
        "final_score": None if final is None else {"B": final[0], "W": final[1]},
        "agrees": final is not None and final[0] == game.stored_score,
    }
