"""The ``adjudicator`` command: ``serve`` (the default), ``openapi``, ``check``, ``audit``,
``verify`` and ``game``.

``serve`` takes every setting of ``app.settings.Settings`` as a flag, generated from the model
(name, type, default, bounds, description, environment variable), so a new setting is a new
flag with nothing to add here. A flag wins over its ``ADJUDICATOR_*`` variable. A bad setting,
from either, is one line on stderr naming both, and exit status 2 (click's status for usage
errors), before anything starts.

``check`` answers the stateless questions offline, with the request models and answers of the
HTTP routes: the same JSON on stdout, or the same problem on stderr and exit status 1. It reads
no setting (none bounds its questions), so a malformed variable meant for the server does not
stop it.

``audit`` and ``verify`` are the records endpoints offline: the same audit, answer and
signature as ``POST /v1/records/audit``, and the check anyone can make of a signed record.

``game`` is a client of a running service: one command a game route (create, join, list, move,
abort, rematch, spectators, events, …), made from the service's OpenAPI document.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, Literal, TypeVar, get_args, get_origin
from urllib.parse import quote

import click
import httpx
import uvicorn
from click.core import ParameterSource
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import to_json
from pydantic_settings import SettingsError
from starlette.responses import Response
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import Multiprocess

from app.api import reversi, tictactoe
from app.api.bodies import JsonBody, json_response
from app.api.games.schemas import GameShapes
from app.api.problems import validation_problem
from app.api.records import AuditShapes, audit_answer, record_problem, wthor_line
from app.contract.problems import ProblemTable
from app.main import create_app
from app.records.errors import RecordError
from app.records.formats import FORMATS
from app.records.signing import KeyRing, NotVerified
from app.records.signing import verify as verify_signature
from app.records.text import decode
from app.records.wthor import read_wthor
from app.server import protocol_for
from app.sessions.kinds import REGISTRY
from app.settings import DEFAULT_MAX_RECORD_MOVES, Settings

ModelT = TypeVar("ModelT", bound=BaseModel)

# Settings

METAVARS: dict[Any, str] = {int: "INTEGER", float: "NUMBER", str: "TEXT"}


def flag_of(name: str) -> str:
    return "--" + name.replace("_", "-")


def env_var_of(name: str) -> str:
    return Settings.model_config.get("env_prefix", "") + name.upper()


def env_text(value: object) -> str:
    """A setting's value as its environment variable is written (complex values in JSON)."""
    return value if isinstance(value, str) else json.dumps(value)


def _bounds(field: FieldInfo) -> str:
    """A numeric field's bounds as click writes a range: ``0<=x<=65535``, ``0<x``."""
    bounds = {
        name: getattr(constraint, name)
        for constraint in field.metadata
        for name in ("ge", "gt", "le", "lt")
        if hasattr(constraint, name)
    }
    low = next((f"{bounds[n]}{op}" for n, op in (("ge", "<="), ("gt", "<")) if n in bounds), "")
    high = next((f"{op}{bounds[n]}" for n, op in (("le", "<="), ("lt", "<")) if n in bounds), "")
    return f"{low}x{high}" if low or high else ""


def _metavar(kind: Any) -> str:
    if get_origin(kind) is Literal:
        return "[" + "|".join(str(choice) for choice in get_args(kind)) + "]"
    return METAVARS.get(kind, "TEXT")


def setting_option(name: str, field: FieldInfo) -> click.Option:
    """The flag of one setting. Its value stays text (or a bool, or a tuple of texts): the
    model alone converts and checks it, as it does the environment variable's."""
    default = env_text(field.get_default(call_default_factory=True))
    extras = [f"env var: {env_var_of(name)}", f"default: {default}", _bounds(field)]
    kind, flag = field.annotation, flag_of(name)
    repeat = " Repeat the flag for each." if get_origin(kind) is list else ""
    help_text = f"{field.description}{repeat}  [{'; '.join(filter(None, extras))}]"
    if kind is bool:
        return click.Option([name, f"{flag}/--no-{flag[2:]}"], default=None, help=help_text)
    if repeat:
        return click.Option([name, flag], multiple=True, metavar="TEXT", help=help_text)
    return click.Option([name, flag], metavar=_metavar(kind), help=help_text)


class BadSetting(click.ClickException):
    """Settings the model refused: one line each, naming the flag and the variable."""

    exit_code = 2


def _named(name: str) -> str:
    return f"{flag_of(name)} / {env_var_of(name)}"


def _complaint(error: Mapping[str, Any], flags: Mapping[str, object]) -> str:
    if not error["loc"]:  # a rule across settings: name those its message mentions
        reason = str(error["ctx"]["error"]) if "ctx" in error else error["msg"]
        named = [_named(n) for n in Settings.model_fields if re.search(rf"\b{n}\b", reason)]
        return f"{', '.join(named) or 'settings'}: {reason}"
    name = str(error["loc"][0])
    source = flag_of(name) if name in flags else "the environment"
    return f"{_named(name)}: {error['msg']} (got {error['input']!r} from {source})"


@contextmanager
def _hidden(variables: Iterable[str]) -> Iterator[None]:
    """The environment without ``variables`` while the block runs."""
    hidden = {name: os.environ.pop(name) for name in variables if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(hidden)


def load_settings(flags: Mapping[str, Any]) -> Settings:
    """The settings, from ``flags`` over the environment, or ``BadSetting``. A variable that a
    flag overrides is not read at all: a flag mends a malformed one, as it overrides a good one."""
    try:
        with _hidden(env_var_of(name) for name in flags):
            return Settings(**flags)
    except ValidationError as error:
        complaints = [_complaint(e, flags) for e in error.errors(include_url=False)]
        raise BadSetting("\nError: ".join(complaints)) from None  # click prefixes the first
    except SettingsError as error:  # a variable that is not even JSON, e.g. a list's
        found = re.search(r'field "(\w+)"', str(error))
        named = _named(found[1]) if found else "settings"
        raise BadSetting(f"{named}: the variable is not JSON ({error.__cause__})") from None


# The command


class ServeByDefault(click.Group):
    """A group whose command is ``serve`` when none is named: ``adjudicator`` serves, and
    ``adjudicator --port 9000`` is ``adjudicator serve --port 9000``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        own = {opt for param in self.get_params(ctx) for opt in param.opts + param.secondary_opts}
        if not args or (args[0].startswith("-") and args[0].partition("=")[0] not in own):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


@click.group(cls=ServeByDefault, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="adjudicator")
def main() -> None:
    """Referee board-game moves: serve the HTTP API (the default command), print its OpenAPI
    document, or answer one question offline.

    Every setting is a flag of `serve` and an ADJUDICATOR_* environment variable; see
    `adjudicator serve --help`.
    """


@main.command(params=[setting_option(n, f) for n, f in Settings.model_fields.items()])
@click.pass_context
def serve(ctx: click.Context, /, **values: object) -> None:
    """Serve the API with uvicorn over the bounded HTTP/1.1 protocol of app.server (the
    default command). Each flag overrides its environment variable."""
    flags = {
        name: value
        for name, value in values.items()
        if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    }
    run(uvicorn_config(load_settings(flags)))


def uvicorn_config(settings: Settings) -> uvicorn.Config:
    """uvicorn's configuration for ``settings``: the app and the bounded protocol are made from
    them, in this process and in each worker process (the configuration is pickled into those,
    settings and all), so nothing reads the environment again."""
    return uvicorn.Config(
        functools.partial(create_app, settings),
        factory=True,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        workers=settings.workers,
        timeout_graceful_shutdown=int(max(1, settings.shutdown_grace_seconds)),
        http=protocol_for(settings),  # type: ignore[arg-type]  # a class's partial: uvicorn calls it
        ws="none",  # no WebSocket routes: an Upgrade request is answered as plain HTTP
        timeout_keep_alive=settings.keep_alive_seconds,  # type: ignore[arg-type]
        # The app reads forwarding headers itself (ADJUDICATOR_FORWARDED_ALLOW_IPS,
        # app.api.clients): under any server, and with Forwarded as well as X-Forwarded-For.
        proxy_headers=False,
        server_header=False,  # no `server: uvicorn`: nothing to fingerprint
    )


def run(config: uvicorn.Config) -> None:
    """Serve ``config`` as ``uvicorn.run`` does, but with an app that is not an import string:
    ``uvicorn.run`` refuses one for several workers, though its supervisor pickles the whole
    configuration into each worker, and the app factory with it. (``Multiprocess(config,
    sockets)`` is uvicorn 0.51's signature: tests/test_server_hooks.py checks it.)"""
    if config.workers > 1:
        Multiprocess(config, sockets=[config.bind_socket()]).run()
        return
    server = uvicorn.Server(config)
    server.run()
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


def openapi_document(settings: Settings) -> str:
    """The OpenAPI document the app serves, as committed in openapi/openapi.json."""
    return json.dumps(create_app(settings).openapi(), indent=2, ensure_ascii=False) + "\n"


@main.command()
def openapi() -> None:
    """Print the OpenAPI document the service serves (openapi/openapi.json is this output)."""
    click.echo(openapi_document(load_settings({})).encode(), nl=False)


@main.group()
def check() -> None:
    """Answer a stateless question offline: QUESTION is a file holding the JSON body the HTTP
    endpoint takes, or - (the default) for stdin. The answer is the endpoint's JSON on stdout;
    a bad question is its problem (422) on stderr, and exit status 1."""


# The validation context of ``check``'s questions: no settings. The settings a body's validators
# may read bound batches and live games (``max_batch``, ``max_n``), never one move or one
# position; without them a validator applies the default.
OFFLINE: dict[str, Any] = {}


def _answer(body: JsonBody[ModelT], respond: Callable[[ModelT], object], data: bytes) -> None:
    try:
        response: Response = json_response(respond(body.validate(data, OFFLINE)))
    except RequestValidationError as error:
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
        _answer(reversi.MOVE_BODY, reversi.check_move_answer, data)
    else:
        _answer(reversi.LEGAL_MOVES_BODY, reversi.legal_moves_answer, data)


@check.command("tictactoe")
@click.argument("question", type=click.File("rb"), default="-")
def check_tictactoe(question: IO[bytes]) -> None:
    """A tic-tac-toe board (and k): can it occur in a legal game, whose turn is it (POST
    /v1/tictactoe/validate)."""
    _answer(tictactoe.VALIDATE_BODY, tictactoe.validate_answer, question.read())


# Records


def _offline_audits() -> AuditShapes:
    """The audit bodies of the kinds the service serves, built as the app builds them."""
    return AuditShapes.of(GameShapes.of(REGISTRY))


def _problem_line(error: RequestValidationError) -> bytes:
    return bytes(validation_problem(error.errors()).body)


def _audit_body(name: str, data: bytes, params: Mapping[str, Any]) -> bytes:
    """The audit body a file stands for: a JSON body or record as it is (a record's state,
    chain and signature left out), a record in a format its name ends with, else a transcript
    of a game of ``params``; a RequestValidationError for a text that is not UTF-8."""
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
        beside = {name: params[name] for name in FORMATS[written].given if name in params}
        return json.dumps({"record": text, "format": written, **beside}).encode()
    return json.dumps({**params, "transcript": text}).encode()


@main.command()
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
    shapes, problems = _offline_audits(), ProblemTable.of(kind.face for kind in REGISTRY)
    context = {"settings": settings}
    failed = False
    for name in files:
        with click.open_file(name, "rb") as file:
            data = file.read()
        if name.lower().endswith(".wtb"):
            failed |= _audit_wthor_file(data, settings.max_record_moves)
            continue
        try:
            parsed = shapes.body.validate(_audit_body(name, data, creation), context)
            answer = audit_answer(shapes.audit(parsed, settings.max_record_moves), problems)
        except RequestValidationError as error:
            click.echo(f"{name}: ".encode() + _problem_line(error), err=True)
            failed = True
            continue
        failed |= answer["verdict"] == "illegal"
        click.echo(to_json(keys.current.signed(answer)))
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


@main.command()
@click.argument("file", type=click.File("rb"))
@click.option("--keys", "source", help="A JWK Set file, or the URL of GET /v1/keys.")
def verify(file: IO[bytes], source: str | None) -> None:
    """Check a signed record (GET /v1/games/{id}/record) or audit answer offline: its Ed25519
    signature with the published keys, and a record's hash chain, recomputed by replaying its
    moves. One line: verified, or why not (exit status 1)."""
    keys = _published_keys(source)
    try:
        document = json.loads(file.read())
        if not isinstance(document, dict):
            raise NotVerified("the file is not a JSON object")
        kid = verify_signature(document, keys)
        checked = _recomputed_chain(document)
    except (ValueError, NotVerified) as error:
        click.echo(f"not verified: {error}")
        raise click.exceptions.Exit(1) from None
    click.echo(f"verified: signed by key {kid}{checked}")


def _recomputed_chain(document: dict[str, Any]) -> str:
    """For a record (its creation parameters and moves), its chain recomputed by auditing its
    moves; NotVerified if it differs. An audit answer's chain is covered by its signature."""
    if "verdict" in document:
        return "; its chain is part of what is signed"
    body = {k: v for k, v in document.items() if k not in ("state", "chain", "signature")}
    shapes, problems = _offline_audits(), ProblemTable.of(kind.face for kind in REGISTRY)
    try:
        parsed = shapes.body.validate(json.dumps(body).encode(), OFFLINE)
        replayed = audit_answer(shapes.audit(parsed, DEFAULT_MAX_RECORD_MOVES), problems)
    except RequestValidationError as error:
        raise NotVerified(f"its moves cannot be replayed: {error.errors()[0]['msg']}") from None
    if replayed["chain"] != document.get("chain"):
        raise NotVerified("its hash chain is not the chain of its moves: a move was changed")
    return f"; chain recomputed from its {len(replayed['moves'])} moves"


if __name__ == "__main__":
    main()


# Games: the game routes of a running service, one command an operation, made from its OpenAPI
# document (so a new route is a new command with nothing to add here).

GAME_TAG = "Game sessions"
DEFAULT_URL = "http://127.0.0.1:8000"


def _game_operations() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """The game routes' operations, by command name (``makeMove`` -> ``make-move``): method,
    path, operation."""
    spec = create_app(load_settings({})).openapi()
    found: dict[str, tuple[str, str, dict[str, Any]]] = {}
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            if GAME_TAG in operation.get("tags", ()):
                name = re.sub(r"(?<!^)(?=[A-Z])", "-", operation["operationId"]).lower()
                found[name] = (method.upper(), path, operation)
    return found


class GameCommands(click.Group):
    """One command a game route, made when asked for (the document is built once)."""

    @functools.cached_property
    def operations(self) -> dict[str, tuple[str, str, dict[str, Any]]]:
        return _game_operations()

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.operations)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = self.operations.get(cmd_name)
        if found is None:
            return None
        method, path, operation = found
        return _game_command(cmd_name, method, path, operation)


def _game_command(name: str, method: str, path: str, operation: dict[str, Any]) -> click.Command:
    """The command of one operation: its path parameters as arguments, its query parameters
    and headers as ``--param NAME=VALUE``, its body as ``--body`` (JSON, or - for stdin), its
    bearer token as ``--token``."""
    in_path = re.findall(r"{(\w+)}", path)
    takes_body = "requestBody" in operation
    params: list[click.Parameter] = [click.Argument([p.replace("_", "-")]) for p in in_path]
    if takes_body:
        params.append(click.Option(["--body"], default=None, help="The JSON body, or - for stdin."))

    def call(**values: Any) -> None:
        filled = path
        for parameter in in_path:
            value = quote(str(values[parameter.replace("-", "_")]), safe="")
            filled = filled.replace(f"{{{parameter}}}", value)
        headers: dict[str, str] = {}
        query: dict[str, str] = {}
        declared = {p["name"].lower(): p["in"] for p in operation.get("parameters", ())}
        for pair in values["param"]:
            key, sep, value = pair.partition("=")
            if not sep:
                raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--param")
            if declared.get(key.lower()) == "header":
                headers[key] = value
            else:
                query[key] = value
        if values["token"]:
            headers["Authorization"] = f"Bearer {values['token']}"
        body: str | None = values.get("body")
        if body == "-":
            with click.open_file("-") as stdin:
                body = str(stdin.read())
        if body is None and takes_body:
            body = "{}"  # an action's optional body
        if body is not None:
            headers["Content-Type"] = "application/json"
        url = values["url"].rstrip("/") + filled
        try:
            timeout = None if name == "game-events" else 30.0  # a stream lasts the game
            with httpx.stream(
                method, url, params=query, headers=headers, content=body, timeout=timeout
            ) as answer:
                for line in answer.iter_lines():
                    click.echo(line, err=answer.is_error)
        except httpx.HTTPError as error:
            raise click.ClickException(f"{url}: {error}") from None
        if answer.is_error:
            raise click.exceptions.Exit(1)

    return click.Command(
        name,
        callback=call,
        params=[
            *params,
            click.Option(
                ["--url"],
                default=DEFAULT_URL,
                show_default=True,
                envvar="ADJUDICATOR_URL",
                help="The service.",
            ),
            click.Option(
                ["--token"],
                default=None,
                envvar="ADJUDICATOR_TOKEN",
                help="A player's (or, to read a private game, a spectator's) token.",
            ),
            click.Option(
                ["--param", "param"],
                multiple=True,
                metavar="NAME=VALUE",
                help="A query parameter or header the route takes (Idempotency-Key, "
                "If-Match, open, since, …).",
            ),
        ],
        help=f"{operation.get('summary', name)}: {method} {path}.",
        short_help=operation.get("summary", name),
    )


@main.group(cls=GameCommands)
def game() -> None:
    """Play and read games on a running service (--url, or ADJUDICATOR_URL): one command a
    game route, named after its operation (create-game, join-game, list-games, make-move,
    abort-game, rematch, add-spectator, game-events, …). Prints the service's answer (an
    event stream line by line); a problem goes to stderr, with exit status 1."""
