"""``adjudicator audit`` and ``adjudicator verify``: the records endpoints offline — the same
audit, answer and signature as ``POST /v1/records/audit``, and the check anyone can make of a
signed record."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import IO, Any

import click
import httpx
from pydantic_core import to_json

from app.cli.settings import load_settings
from app.contract.bodies import BodyInvalid, BodyParser
from app.contract.problems import ProblemTable, problem_json, validation_problem_body
from app.kinds import REGISTRY
from app.records.answer import audit_answer, wthor_line
from app.records.bodies import DEFAULT_MAX_RECORD_MOVES, audit_body
from app.records.canonical import DuplicateMember, read_json
from app.records.errors import RecordError
from app.records.formats import FORMATS
from app.records.reading import audit_of, detail_of, record_problem
from app.records.signing import AUDIT, TYPES, KeyRing, NotVerified
from app.records.signing import verify as verify_signature
from app.records.text import decode
from app.records.transcript import read_transcript
from app.records.wthor import read_wthor


def _offline_audits() -> BodyParser[Any]:
    """The audit body of the kinds the service serves, parsed as the endpoint parses it."""
    return BodyParser(audit_body(REGISTRY), tag="game")


def _problem_line(error: BodyInvalid) -> bytes:
    """The 422 the endpoint would answer, as its JSON (compact, UTF-8)."""
    return problem_json(validation_problem_body(error.errors()))


def _audit_body(name: str, data: bytes, params: Mapping[str, Any]) -> bytes:
    """The audit body a file stands for: a JSON body or record as it is (a record's state,
    chain and signature left out), a record in a format its name ends with, else a transcript
    of a game of ``params``; a BodyInvalid for a text that is not UTF-8."""
    ending = os.path.splitext(name)[1].lower()
    if ending == ".json":
        try:
            document = json.loads(data)
        except ValueError:
            return data  # the body's parser says what is wrong, as the endpoint would
        if isinstance(document, dict):
            for written in ("state", "chain", "signature"):
                document.pop(written, None)
        return json.dumps(document).encode()
    written = ending.removeprefix(".")
    field = "record" if written in FORMATS else "transcript"
    try:
        text = decode(data)  # UTF-8, or the line, column and byte where it is not
    except RecordError as error:
        raise record_problem(field, error) from None
    if written in FORMATS:  # with what ``params`` gives that the format cannot carry (a rule)
        named = (*FORMATS[written].given, "detail")  # and how much the answer says
        beside = {name: params[name] for name in named if name in params}
        return json.dumps({"record": text, "format": written, **beside}).encode()
    return json.dumps({**params, "transcript": text}).encode()


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--params",
    default='{"game": "reversi"}',
    show_default=True,
    help="The creation parameters (JSON) of the games of transcript files; of PSQ and SGF "
    "files, those the format does not carry (rule, foul, early_draw).",
)
def audit(files: tuple[str, ...], params: str) -> None:
    """Audit games offline with the service's code: each FILE is an audit body or a game's
    record as JSON (.json), a record in a community format (.ggf; .psq and .sgf, whose rule
    --params may give), a WTHOR database (.wtb) or a transcript (anything else; - is stdin).
    Prints POST /v1/records/audit's answer, signed with ADJUDICATOR_SIGNING_KEY_FILE's key
    (else an ephemeral one, said on stderr), one JSON document a line; a WTHOR file prints
    POST /v1/records/audit-batch's lines. Exit status 1 if a game is illegal or a file cannot
    be read (its problem on stderr)."""
    try:
        creation = json.loads(params)
        if not isinstance(creation, dict):
            raise ValueError("not a JSON object")
    except ValueError as error:
        raise click.BadParameter(f"{error}", param_hint="--params") from None
    settings = load_settings({})
    keys = KeyRing.load(settings.signing_key_file, settings.signing_previous_key_files)
    if keys.current.ephemeral:
        click.echo("adjudicator: no ADJUDICATOR_SIGNING_KEY_FILE: signed with an ephemeral key",
                   err=True)  # fmt: skip
    bodies, problems = _offline_audits(), ProblemTable.of(kind.face for kind in REGISTRY)
    context = {"settings": settings}
    failed = False
    for name in files:
        with click.open_file(name, "rb") as file:
            data = file.read()
        if name.lower().endswith(".wtb"):
            failed |= _audit_wthor_file(data, settings.max_record_moves)
            continue
        try:
            parsed = bodies.validate(_audit_body(name, data, creation), context)
            audit = audit_of(REGISTRY, parsed, settings.max_record_moves)
            answer = audit_answer(audit, problems, detail_of(parsed))
        except BodyInvalid as error:
            click.echo(f"{name}: ".encode() + _problem_line(error), err=True)
            failed = True
            continue
        failed |= answer["verdict"] == "illegal"
        for parameter, value in answer.get("assumed", {}).items():
            click.echo(f"{name}: the record names no {parameter}: checked under {parameter} "
                       f"{value} (--params gives another)", err=True)  # fmt: skip
        click.echo(to_json(keys.current.signed(answer, AUDIT)))
    if failed:
        raise click.exceptions.Exit(1)


def _audit_wthor_file(data: bytes, max_moves: int) -> bool:
    """Print the lines of a WTHOR file's games; whether one was illegal or unreadable."""
    try:
        _, games = read_wthor(data, max_moves)
        failed = False
        for game in games:
            line = wthor_line(game, REGISTRY.find("reversi"))
            failed |= line["verdict"] == "illegal"
            click.echo(to_json(line))
    except RecordError as error:
        click.echo(f"adjudicator: {error}", err=True)
        return True
    return failed


def _published_keys(source: str | None) -> list[dict[str, Any]]:
    """The JWKs to verify with: a JWK Set file, a URL that serves one (GET /v1/keys), or the
    keys of this machine's settings."""
    if source is None:
        settings = load_settings({})
        if settings.signing_key_file is None:
            raise click.UsageError("no keys: give --keys (a file or URL of GET /v1/keys), or "
                                   "set ADJUDICATOR_SIGNING_KEY_FILE")  # fmt: skip
        ring = KeyRing.load(settings.signing_key_file, settings.signing_previous_key_files)
        return list(ring.jwks()["keys"])
    try:
        if source.startswith(("http://", "https://")):
            text = httpx.get(source, timeout=10, follow_redirects=True).raise_for_status().text
        else:
            with open(source, encoding="utf-8") as file:
                text = file.read()
        keys = json.loads(text)["keys"]
        if not isinstance(keys, list):
            raise TypeError("keys is not a list")
    except (OSError, httpx.HTTPError, ValueError, KeyError, TypeError) as error:
        raise click.UsageError(f"--keys {source}: not a JWK Set ({error})") from None
    return keys


@click.command()
@click.argument("file", type=click.File("rb"))
@click.option("--keys", "source", help="A JWK Set file, or the URL of GET /v1/keys.")
@click.option(
    "--as",
    "expected",
    type=click.Choice(list(TYPES)),
    help="Verify only a document signed as this: a game's record, or an audit's answer.",
)
def verify(file: IO[bytes], source: str | None, expected: str | None) -> None:
    """Check a signed record (GET /v1/games/{id}/record) or audit answer offline: its Ed25519
    signature with the published keys, that it is what its signature says it is (a record, or
    an audit answer: --as asks for one), and a record's hash chain, recomputed by replaying its
    moves. One line: verified and what it is, or why not (exit status 1)."""
    keys = _published_keys(source)
    data = file.read()
    try:
        try:
            document = read_json(data)
        except DuplicateMember as error:
            raise NotVerified(str(error)) from None
        except ValueError:
            raise NotVerified(_not_json(data)) from None
        if not isinstance(document, dict):
            raise NotVerified("the file is not a JSON object")
        kid, typ = verify_signature(document, keys, expected)
        checked = _checked_as(typ, document)
    except (ValueError, NotVerified) as error:
        click.echo(f"not verified: {error}")
        raise click.exceptions.Exit(1) from None
    click.echo(f"verified: {TYPES[typ]}, signed by key {kid}{checked}")


def _not_json(data: bytes) -> str:
    """Why a file that is not JSON cannot be verified: a game's text export (a transcript, GGF,
    PSQ, SGF: ``GET /v1/games/{id}/record?format=…``) carries no signature; only the JSON
    record and audit answers do."""
    try:
        written = _export_of(decode(data))
    except RecordError:  # not UTF-8: no export of the service's
        written = None
    if written is None:
        return "the file is not JSON: only a JSON record or audit answer carries a signature"
    return (
        f"the file is a text export ({written}), which carries no signature: verify the game's "
        "JSON record (GET /v1/games/{id}/record) or its audit answer"
    )


def _export_of(text: str) -> str | None:
    """The text export ``text`` reads as (a format's name, or ``transcript``), if any."""
    for name, format in FORMATS.items():
        try:
            format.read(text, DEFAULT_MAX_RECORD_MOVES)
        except RecordError:
            continue
        return name.upper()
    try:
        return "transcript" if read_transcript(text, DEFAULT_MAX_RECORD_MOVES) else None
    except RecordError:
        return None


def _checked_as(typ: str, document: dict[str, Any]) -> str:
    """That a document is what its signature says (an audit answer has a verdict, a record
    none), and for a record (its creation parameters and moves) its chain recomputed by
    auditing its moves; NotVerified if either fails. An audit answer's chain is covered by its
    signature."""
    if ("verdict" in document) != (typ == AUDIT):
        raise NotVerified(f"its signature says it is {TYPES[typ]}, which it is not")
    if typ == AUDIT:
        return "; its chain is part of what is signed"
    body = {k: v for k, v in document.items() if k not in ("state", "chain", "signature")}
    bodies, problems = _offline_audits(), ProblemTable.of(kind.face for kind in REGISTRY)
    try:
        parsed = bodies.validate(json.dumps(body).encode(), {})
        replayed = audit_answer(audit_of(REGISTRY, parsed, DEFAULT_MAX_RECORD_MOVES), problems)
    except BodyInvalid as error:
        raise NotVerified(f"its moves cannot be replayed: {error.errors()[0]['msg']}") from None
    if replayed["chain"] != document.get("chain"):
        raise NotVerified("its hash chain is not the chain of its moves: a move was changed")
    return f"; chain recomputed from its {len(replayed['moves'])} moves"
