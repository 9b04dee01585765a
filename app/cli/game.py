"""``adjudicator game``: a client of a running service, one command a game route (create,
join, list, move, abort, rematch, spectators, events, …), made from the service's OpenAPI
document, so a new route is a new command with nothing to add here.

The document is the one committed as ``openapi/openapi.json`` (exactly what the service serves;
a test keeps them equal), shipped inside the package as ``app/openapi.json``: reading it takes
milliseconds, where building the app to ask it takes a second. Nothing of the service is
imported here, and httpx only when a request is sent.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any
from urllib.parse import quote

import click

GAME_TAG = "Game sessions"
DEFAULT_URL = "http://127.0.0.1:8000"
SPEC = "openapi.json"  # in the package: a link to openapi/openapi.json in a checkout


def _game_operations() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """The game routes' operations, by command name (``makeMove`` -> ``make-move``): method,
    path, operation."""
    spec = json.loads(resources.files("app").joinpath(SPEC).read_bytes())
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
        import httpx  # here, not above: a command's --help needs no HTTP client

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


@click.group(cls=GameCommands)
def game() -> None:
    """Play and read games on a running service (--url, or ADJUDICATOR_URL): one command a
    game route, named after its operation (create-game, join-game, list-games, make-move,
    abort-game, rematch, add-spectator, game-events, …). Prints the service's answer (an
    event stream line by line); a problem goes to stderr, with exit status 1."""
