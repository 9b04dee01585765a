"""An audit body, parsed, read into the game to replay (``reading``: its kind, its creation
parameters — a record's own, checked with those given beside it — and its moves as the kind
plays them), a step every few hundred moves; a record that cannot be read is the 422 that names
where it broke (``record_problem``). ``audit_of`` reads and replays at once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, RootModel, ValidationError

from app.contract.bodies import BodyInvalid
from app.contract.games import CreateIn, Kind, MoveBody, Notation, PassIn
from app.contract.moves import played_by, shape_for
from app.contract.squares import SquareError, Squares
from app.records.audit import Audit, Submitted, replaying
from app.records.bodies import PASS, Detail, RecordSource
from app.records.errors import RecordError
from app.records.formats import read_record
from app.records.steps import Steps, completed
from app.records.transcript import read_transcript
from app.sessions.kind import Kinds, Pass, Placement, Played, Player, board_size

# Moves read between two steps of ``submitting`` (about 1 µs each).
READ_STEP = 256


def submitting(
    written: Sequence[object],
    squares: Squares | None,
    has_pass: bool,
    players: Sequence[Player | None] = (),
    choices: tuple[type[MoveBody], ...] = (),
) -> Steps[list[Submitted]]:
    """The moves a record wrote (squares, ``[row, col]`` pairs, ``pass``, the kind's
    ``choices``' bodies; for the ``players`` it names, if it does) as the kind plays them, a
    step every ``READ_STEP`` moves; a RecordError naming the first that is none of the board's."""
    named = _named_moves(squares) if squares is not None else {}
    if named and not players:  # a record of square names (a transcript): looked up at once
        try:
            return [named[given] for given in written]  # type: ignore[index]
        except (KeyError, TypeError):  # not only names of this board's squares: one by one
            pass
    moves = []
    for index, given in enumerate(written, 1):
        if not index % READ_STEP:
            yield
        player = players[index - 1] if players else None
        if player is None and type(given) is str:  # a square as its board names it: looked up
            move = named.get(given)
            if move is not None:
                moves.append(move)
                continue
        if isinstance(given, dict):
            chosen, claimed = _chosen(given, choices, index)
            moves.append(Submitted(chosen, given, claimed or player))
        elif isinstance(given, tuple | list):
            moves.append(Submitted(Placement(*given), list(given), player))
        elif given == PASS:
            if not has_pass:
                raise RecordError("this game has no passes", move=index)
            moves.append(Submitted(Pass(), given, player))
        else:
            assert isinstance(given, str)
            if squares is None:
                raise RecordError(
                    "this board is wider than 26 columns and has no square names: write "
                    "[row, col] pairs",
                    move=index,
                )
            try:
                moves.append(Submitted(Placement(*squares.parse(given)), given, player))
            except SquareError as error:
                raise RecordError(str(error), move=index) from None
    return moves


@lru_cache(maxsize=64)
def _named_moves(squares: Squares) -> dict[str, Submitted]:
    """Each square of a board with names, as the move that plays it, written as its name, for
    no player in particular: a record's squares are looked up (reading each name was a third
    of a transcript's audit, before its replay). The values are immutable, so one serves every
    record; a board whose names are not kept (``Squares.table``) has none (each is read)."""
    return {
        name: Submitted(Placement(row, col), name)
        for row, names in enumerate(squares.table)
        for col, name in enumerate(names)
    }


def _chosen(
    given: dict[str, Any], choices: tuple[type[MoveBody], ...], index: int
) -> tuple[Played, Player | None]:
    """A choice a record wrote, read by the body of the kind's choice it names (its key), and
    the player it claims (``player``: a choice by the player not to act is ``not_your_turn``,
    as a GGF move written for the colour not to move is)."""
    if not choices:
        raise RecordError("this game has no choices: a move is a square or a pair", move=index)
    try:
        return played_by(shape_for(choices, given).model_validate(given))
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise RecordError(f"a choice: {where}: {first['msg']}", move=index) from None


def record_problem(field: str, error: RecordError) -> BodyInvalid:
    """A record that cannot be read, as the 422 that names where it broke."""
    loc: tuple[str | int, ...] = ("body", field)
    if "move" in error.where and field == "moves":
        loc = (*loc, error.where["move"] - 1)
    return BodyInvalid([{"loc": loc, "type": "record", "msg": str(error)}])


def detail_of(parsed: BaseModel) -> Detail:
    """How much the answer to a parsed audit body is to say (its ``detail``)."""
    body = parsed.root if isinstance(parsed, RootModel) else parsed
    assert isinstance(body, RecordSource)
    return body.detail


def audit_of(kinds: Kinds[Kind], parsed: BaseModel, max_moves: int) -> Audit:
    """The audit of a parsed body (of one of ``kinds``); a BodyInvalid for moves it
    cannot read."""
    return completed(completed(reading(kinds, parsed, max_moves)).replaying())


def noted(
    written: Sequence[object], notation: Notation, facts: Mapping[str, object]
) -> Steps[list[Submitted]]:
    """The moves a record wrote in its kind's ``notation`` (a column), as the kind
    plays them, a step every ``READ_STEP`` moves; a RecordError naming the first that is none
    of the board's."""
    moves = []
    for index, given in enumerate(written, 1):
        if not index % READ_STEP:
            yield
        try:
            moves.append(Submitted(notation.read(given, facts), given))
        except ValueError as error:
            raise RecordError(str(error), move=index) from None
    return moves


def reading(
    kinds: Kinds[Kind],
    parsed: BaseModel,
    max_moves: int,
    afford: Callable[[int], None] | None = None,
) -> Steps[ToReplay]:
    """The game of a parsed body, read (its moves as the kind plays them), to replay, a
    step every few hundred moves; a BodyInvalid for moves it cannot read.
    ``afford`` is told how many moves were written before they are read (``Meter.afford``:
    429 for more than the client has left)."""
    body = parsed.root if isinstance(parsed, RootModel) else parsed
    assert isinstance(body, CreateIn)
    assert isinstance(body, RecordSource)
    kind = kinds.find(body.kind)
    field = "moves" if body.moves is not None else "transcript" if body.transcript else "record"
    try:
        if body.record is not None:
            assert body.format is not None, "checked by the body's model"
            recorded = read_record(body.format, body.record, max_moves)
            params = _params_of(kind, recorded.params, body._beside)
            written: Sequence[object] = recorded.moves
            players: Sequence[Player | None] = recorded.players
            unsaid = recorded.unsaid - body._beside.keys()
        else:
            params = body.params()
            players, unsaid = (), frozenset()
        facts = kind.new(params).facts()
        notation = kind.face.notation
        if body.record is None:
            transcript = body.transcript or ""
            written = body.moves or (
                read_transcript(transcript, max_moves)
                if notation is None
                else notation.read_transcript(transcript, facts, max_moves)
            )
        if afford is not None:
            afford(len(written))
        if notation is not None:  # its moves are not cells: read as its notation reads them
            moves = yield from noted(written, notation, facts)
        else:
            squares = kind.face.squares(*board_size(kind, facts))
            has_pass = kind.face.inferred_pass is not None or PassIn in kind.face.moves
            choices = kind.face.choices
            moves = yield from submitting(written, squares, has_pass, players, choices)
    except RecordError as error:
        raise record_problem(field, error) from None
    opening = [] if body.record is not None else body.opening_moves()
    assumed = {name: params[name] for name in sorted(unsaid) if name in params}
    return ToReplay(kind, params, moves, opening, assumed)


@dataclass(frozen=True, slots=True)
class ToReplay:
    """An audit body's game, read: its kind, its creation parameters, its moves as the kind
    plays them, its opening's moves, and the parameters it was assumed to have
    (``Audit.assumed``)."""

    kind: Kind
    params: dict[str, object]
    moves: list[Submitted]
    opening: list[Played]
    assumed: dict[str, object]

    def replaying(self) -> Steps[Audit]:
        """The audit, a move a step (``replaying``)."""
        audit = yield from replaying(self.kind, self.params, self.moves, self.opening)
        return replace(audit, assumed=self.assumed)


def _params_of(
    kind: Kind, read: Mapping[str, object], beside: Mapping[str, object] = {}
) -> dict[str, object]:
    """The creation parameters a record gives, with those its body gives ``beside`` it, checked
    together by the kind's creation body as a client's would be: a RecordError saying what the
    body refused in the record's, or where both give one and differ (one game is not played
    under both); a BodyInvalid naming a parameter given beside that is refused (its
    value checked before it is compared: a refusal never echoes it)."""
    try:
        create = kind.face.create.model_validate({"game": kind.name, **read, **beside})
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        if first["loc"] and first["loc"][0] in beside:
            raise BodyInvalid([{**first, "loc": ("body", *first["loc"])}]) from None
        where = ".".join(str(part) for part in first["loc"]) or "the game"
        raise RecordError(
            f"the record's game is not one this service plays: {where}: {first['msg']}"
        ) from None
    for name in beside:
        if name in read and read[name] != getattr(create, name):
            raise RecordError(
                f"the record says {name} {read[name]}, the body {name} {getattr(create, name)}: "
                "give the record's, or none"
            )
    return create.params()
