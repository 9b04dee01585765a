"""``adjudicator check <kind>``: a stateless question a kind declares on its face
(``Face.questions``, ``app.kinds``), answered offline with the body model and the answer its
HTTP route uses: the same JSON on stdout, or the same problem on stderr and exit status 1.

A kind has a command if it declares questions ``offline`` (``Question.offline``); a body asks
the one whose members it has (a move's cell: Reversi's ``row``, ``col`` or ``square`` ask
check-move), else the one that takes none (legal-moves; tic-tac-toe's only question,
validate). It reads no setting (none bounds its questions), so a malformed variable meant for
the server does not stop it; and it imports nothing of the HTTP edge (``tests/test_layout.py``):
a body is parsed by the contract's parser, as a route's is, and a refusal rendered as the edge
renders it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

import click
from pydantic_core import to_json

from app.contract.bodies import BodyInvalid, BodyParser
from app.contract.games import Kind, Question
from app.contract.problems import ProblemTable, problem_body, problem_json, validation_problem_body
from app.kinds import REGISTRY
from app.rules.errors import DomainError


@click.group()
def check() -> None:
    """Answer a stateless question offline: QUESTION is a file holding the JSON body the HTTP
    endpoint takes, or - (the default) for stdin. The answer is the endpoint's JSON on stdout;
    a bad question is its problem (422) on stderr, and exit status 1."""


# The validation context of ``check``'s questions: no settings. The settings a body's validators
# may read bound batches and live games (``max_batch``, ``max_n``), never one move or one
# position; without them a validator applies the default.
OFFLINE: dict[str, Any] = {}


def answer(asked: Question, data: bytes) -> tuple[bytes, bool]:
    """The endpoint's answer to the body ``data`` (as ``pydantic_core.to_json`` writes it, as
    the edge does), or its problem; and whether it is a problem."""
    try:
        return to_json(asked.answer(BodyParser(asked.body).validate(data, OFFLINE))), False
    except BodyInvalid as error:
        return problem_json(validation_problem_body(error.errors())), True
    except DomainError as error:  # a question's ``refused``: the problem the edge answers
        problem = ProblemTable.of(kind.face for kind in REGISTRY).problem_of(type(error))
        return problem_json(problem_body(problem, str(error), error.details())), True


def members(data: bytes) -> frozenset[str]:
    """The members of a body that is a JSON object (none of anything else: its model says what
    is wrong with it, as the endpoint would)."""
    try:
        question = json.loads(data)
    except ValueError:
        return frozenset()
    return frozenset(question) if isinstance(question, dict) else frozenset()


def asked_by(questions: Sequence[Question], data: bytes) -> Question:
    """The question a body asks: the first whose ``offline`` members it has, else the one that
    takes none (or, if none does, the first)."""
    has = members(data)
    for question in questions:
        if has.intersection(question.offline or ()):
            return question
    return next((question for question in questions if not question.offline), questions[0])


def offline_questions(kind: Kind) -> list[Question]:
    """The questions ``adjudicator check <kind>`` asks (``Question.offline``)."""
    return [question for question in kind.face.questions if question.offline is not None]


def described(kind: Kind, questions: Sequence[Question]) -> str:
    """A kind's command's help: which endpoint answers which body."""
    said = []
    for question in questions:
        route = f"POST /v1/{kind.name}{question.path} ({question.summary})"
        if question.offline:
            said.append(f"with {_either(question.offline)}, {route}")
        else:
            said.append(f"otherwise {route}" if len(questions) > 1 else route)
    return f"A {kind.face.title} question, answered as its endpoint does: {'; '.join(said)}."


def _either(names: Sequence[str]) -> str:
    """``row, col or square``."""
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def kind_command(kind: Kind, questions: Sequence[Question]) -> click.Command:
    """``adjudicator check <kind> [QUESTION]``."""

    def asking(question: IO[bytes]) -> None:
        data = question.read()
        written, failed = answer(asked_by(questions, data), data)
        click.echo(written, err=failed)
        if failed:
            raise click.exceptions.Exit(1)

    return click.Command(
        kind.name,
        callback=asking,
        params=[click.Argument(["question"], type=click.File("rb"), default="-")],
        help=described(kind, questions),
        short_help=f"A {kind.face.title} question: "
        + _either([question.path.removeprefix("/") for question in questions]),
    )


def kind_commands(kinds: Iterable[Kind]) -> Iterator[click.Command]:
    """A command for each kind that declares questions offline."""
    for kind in kinds:
        questions = offline_questions(kind)
        if questions:
            yield kind_command(kind, questions)


for command in kind_commands(REGISTRY):
    check.add_command(command)
