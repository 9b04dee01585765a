"""The answer to an audit, unsigned: the verdict, the accepted moves as a session records them,
the position after them as a game's state shows it, the record's hash chain, and the first
refusal as the problem a session's move would get; and a WTHOR file's game, audited, as a line
of the batch's answer (``wthor_line``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from app.contract.games import Kind
from app.contract.problems import ProblemTable, problem_body
from app.contract.render import Json, move_json, names_of, position_json
from app.contract.squares import Squares
from app.records.audit import CELLS_STEP, Audit, CanonicalRecords, Submitted, replay
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
    same move records, and keeps neither them nor their JSON. Records that write their own
    canonical JSON (``CanonicalRecords``) are chained from it, ``CELLS_STEP`` a step."""
    kind, position = audit.kind, audit.position
    names = names_of(kind, board_size(kind, position.facts()))
    chained = Chain({"game": kind.name, **audit.params})
    moves: list[Json] = []
    written: list[bytes] = []
    canonical = getattr(audit.moves, "canonical", None)
    records = None if canonical is None else cast(CanonicalRecords, audit.moves).canonical(names)
    if records is not None:
        add_written = chained.add_written
        for index, record in enumerate(records, 1):
            add_written(record)
            if detail != SUMMARY:
                written.append(record)
            if not index % CELLS_STEP:
                yield
        if detail != SUMMARY:
            for move in audit.moves:
                moves.append(move_json(move, names))
                yield
    elif detail == SUMMARY:
        add = chained.add
        for move in audit.moves:
            add(move_json(move, names))
            yield
    else:
        for move in audit.moves:
            shown = move_json(move, names)
            moves.append(shown)
            written.append(chained.add(shown))
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
WTHOR_MOVES = {
    WTHOR_SQUARES.name(row, col): Submitted(Placement(row, col), WTHOR_SQUARES.name(row, col))
    for row in range(8)
    for col in range(8)
}


def wthor_line(game: WthorGame, kind: Kind) -> Json:
    """One game of a WTHOR file, audited: the file's own facts, the verdict, and whether the
    score the file stores for Black is the federation's score of the game as replayed."""
    facts = {
        "index": game.index,
        "tournament": game.tournament,
        "black": game.black,
        "white": game.white,
        "stored_score": game.stored_score,
    }
    audit = replay(kind, {"height": 8, "width": 8}, map(WTHOR_MOVES.__getitem__, game.moves))
    position = audit.position
    final: tuple[int, int] | None = None  # Black's and White's
    if audit.verdict == "finished":
        score = cast(Mapping[str, int], position.facts()["score"])
        final = federation_score(score["1"], score["2"], 64)
    illegal = None
    if audit.refused is not None:
        error = audit.refused.error
        illegal = {"ply": audit.refused.ply, "move": audit.refused.given, "code": error.code,
                   "detail": str(error), **error.details()}  # fmt: skip
    return {
        **facts,
        "verdict": audit.verdict,
        "plies": audit.plies,
        "illegal": illegal,
        "final_score": None if final is None else {"B": final[0], "W": final[1]},
        "agrees": final is not None and final[0] == game.stored_score,
    }
