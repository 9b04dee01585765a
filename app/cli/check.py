"""``adjudicator check``: a stateless question answered offline, with the request models and
answers of the HTTP routes: the same JSON on stdout, or the same problem on stderr and exit
status 1. It reads no setting (none bounds its questions), so a malformed variable meant for the
server does not stop it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click
from pydantic import BaseModel
from starlette.responses import Response

from app.api.bodies import json_response
from app.api.problems import validation_problem
from app.contract.bodies import BodyInvalid, BodyParser
from app.kinds.reversi.questions import (
    CHECK_MOVE,
    LEGAL_MOVES,
)
from app.kinds.tictactoe import VALIDATE

ModelT = TypeVar("ModelT", bound=BaseModel)


@click.group()
def check() -> None:
    """Answer a stateless question offline: QUESTION is a file holding the JSON body the HTTP
    endpoint takes, or - (the default) for stdin. The answer is the endpoint's JSON on stdout;
    a bad question is its problem (422) on stderr, and exit status 1."""


# The validation context of ``check``'s questions: no settings. The settings a body's validators
# may read bound batches and live games (``max_batch``, ``max_n``), never one move or one
# position; without them a validator applies the default.
OFFLINE: dict[str, Any] = {}


def _answer(body: BodyParser[ModelT], respond: Callable[[ModelT], object], data: bytes) -> None:
    try:
        response: Response = json_response(respond(body.validate(data, OFFLINE)))
    except BodyInvalid as error:
        response = validation_problem(error.errors())
    failed = response.status_code != 200
    click.echo(response.body, err=failed)
    if failed:
        raise click.exceptions.Exit(1)


def _has_cell(data: bytes) -> bool:
    try:
        question = json.loads(data)
    except ValueError:  # not JSON: the model says so, as the endpoint would
        return False
    return isinstance(question, dict) and any(key in question for key in ("row", "col", "square"))


@check.command("reversi")
@click.argument("question", type=click.File("rb"), default="-")
def check_reversi(question: IO[bytes]) -> None:
    """A Reversi board and a colour: its legal moves and their flips (POST
    /v1/reversi/legal-moves); with a row and a col (or a square), whether that move is legal
    and what it flips (POST /v1/reversi/check-move)."""
    data = question.read()
    if _has_cell(data):
        _answer(BodyParser(CHECK_MOVE.body), CHECK_MOVE.answer, data)
    else:
        _answer(BodyParser(LEGAL_MOVES.body), LEGAL_MOVES.answer, data)


@check.command("tictactoe")
@click.argument("question", type=click.File("rb"), default="-")
def check_tictactoe(question: IO[bytes]) -> None:
    """A tic-tac-toe board (and k): can it occur in a legal game, whose turn is it (POST
    /v1/tictactoe/validate)."""
    _answer(BodyParser(VALIDATE.body), VALIDATE.answer, question.read())
