"""``adjudicator player`` and ``adjudicator ratings``: clients of a running service's players and
ratings (a service that keeps an archive), beside ``adjudicator game``.

* ``player new NAME`` makes a player and prints the answer, its key in it; the key is shown only
  this once (stderr says so), and is the ``--token`` of ``adjudicator game create-game`` and
  ``join-game`` (which then seat the player) and of every action in the player's games.
* ``player show ID`` prints a player and its ratings; ``player me`` the player of a key;
  ``player follow ID --key KEY`` prints the player's events (``game``, ``challenge``,
  ``challenge_declined``) as they come, one JSON line each.
* ``ratings POOL`` prints a page of the pool's players by rating (``--limit``, ``--cursor``).

As ``adjudicator game``'s commands do, each prints the service's answer (JSON) to stdout, and a
problem to stderr with exit status 1; the service is ``--url`` (or ``ADJUDICATOR_URL``). The
routes' paths come from the OpenAPI document shipped with the package, and nothing of the
service is imported here, httpx only when a request is sent.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Iterator
from importlib import resources
from typing import Any
from urllib.parse import quote

import click

from app.cli.game import DEFAULT_URL, SPEC

KEY_SHOWN_ONCE = (
    "The key is shown only this once (the service keeps a hash of it): keep it. It acts as the "
    "player: --token of `adjudicator game create-game` and `join-game` seats the player, and it "
    "is the player's token in every game it plays; `adjudicator player me --key KEY`."
)

URL = click.option(
    "--url",
    default=DEFAULT_URL,
    show_default=True,
    envvar="ADJUDICATOR_URL",
    help="The service.",
)


def _path(operation_id: str) -> str:
    """The path of the document's operation ``operation_id``."""
    spec = json.loads(resources.files("app").joinpath(SPEC).read_bytes())
    for path, methods in spec["paths"].items():
        for operation in methods.values():
            if operation.get("operationId") == operation_id:
                return str(path)
    raise click.ClickException(f"the OpenAPI document has no operation {operation_id}")


def _send(
    url: str,
    method: str,
    operation_id: str,
    *,
    path: dict[str, str] | None = None,
    body: Any = None,
    token: str | None = None,
    query: dict[str, Any] | None = None,
) -> Any:
    """Send one request; the answer's text to stdout, and its JSON (a text answer's text, as
    a tournament's report); a problem to stderr and
    exit status 1; a connection that fails, one line and exit status 1."""
    filled = _path(operation_id)
    for name, value in (path or {}).items():
        filled = filled.replace(f"{{{name}}}", quote(value, safe=""))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    params = {name: value for name, value in (query or {}).items() if value is not None}
    address = url.rstrip("/") + filled
    import httpx  # here, not above: a command's --help needs no HTTP client

    try:
        answer = httpx.request(
            method, address, params=params, headers=headers, json=body, timeout=30.0
        )
    except httpx.HTTPError as error:
        raise click.ClickException(f"{address}: {error}") from None
    click.echo(answer.text, err=answer.is_error)
    if answer.is_error:
        raise click.exceptions.Exit(1)
    return answer.json() if "json" in answer.headers.get("content-type", "") else answer.text


@click.group()
def player() -> None:
    """Players on a running service (--url, or ADJUDICATOR_URL; the service keeps them in its
    archive): make one (new), read one (show), or the player of a key (me). Prints the
    service's answer; a problem goes to stderr, with exit status 1."""


@player.command("new")
@click.argument("name")
@URL
def new(name: str, url: str) -> None:
    """Make a player called NAME: prints its id, name and key. The key is shown only this once."""
    _send(url, "POST", "createPlayer", body={"name": name})
    click.echo(KEY_SHOWN_ONCE, err=True)


@player.command("show")
@click.argument("player_id", metavar="ID")
@URL
def show(player_id: str, url: str) -> None:
    """A player: its name, when it was made, and its rating in each pool it played."""
    _send(url, "GET", "getPlayer", path={"player_id": player_id})


@player.command("me")
@URL
@click.option(
    "--key", required=True, envvar="ADJUDICATOR_KEY", help="The player's key (or ADJUDICATOR_KEY)."
)
def me(url: str, key: str) -> None:
    """The player whose key this is."""
    _send(url, "GET", "getMe", token=key)


@player.command("follow")
@click.argument("player_id", metavar="ID")
@click.option("--after", type=click.IntRange(0), default=None, help="Start after event N.")
@click.option("--count", type=click.IntRange(1), default=None, help="Stop after N events.")
@URL
@click.option(
    "--key", required=True, envvar="ADJUDICATOR_KEY", help="The player's key (or ADJUDICATOR_KEY)."
)
def follow(player_id: str, after: int | None, count: int | None, url: str, key: str) -> None:
    """Print the player's events as they come, one JSON line each ({"id", "event", "data"}:
    `game`, a game of the player began; `challenge`; `challenge_declined`), until interrupted
    (or --count of them); a dropped stream is resumed after the last event printed. The
    player's own --key."""
    path = _path("playerEvents").replace("{player_id}", quote(player_id, safe=""))
    follow_stream(url.rstrip("/") + path, after, token=key, count=count)


@click.command(short_help="A page of a pool's players by rating.")
@click.argument("pool")
@click.option("--limit", type=click.IntRange(1), default=None, help="At most this many players.")
@click.option("--cursor", default=None, help="Where the page starts: the last page's `next`.")
@URL
def ratings(pool: str, limit: int | None, cursor: str | None, url: str) -> None:
    """A page of POOL's players by rating, highest first (POOL: a rated game's state names it,
    e.g. tictactoe/3x3/k3/correspondence or reversi/8x8/blitz); `next` is the --cursor of the
    next page (null after the last). Prints the service's answer."""
    _send(url, "GET", "listRatings", query={"pool": pool, "limit": limit, "cursor": cursor})


def _no_constant(name: str) -> Any:
    raise click.BadParameter(f"not JSON: {name} is not a JSON number")


def json_object(value: str) -> dict[str, Any]:
    """A JSON object given on the command line (a game's creation body). NaN and Infinity,
    which Python's reader takes, are refused: the body could not be sent (a traceback)."""
    try:
        parsed = json.loads(value, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}") from None
    if not isinstance(parsed, dict):
        raise click.BadParameter("a JSON object, e.g. '{\"n\": 3}'")
    return parsed


class Finite(click.ParamType[float]):
    """A finite number (a JSON body's): ``nan`` and ``inf``, which ``float`` reads, could not
    be sent (a traceback)."""

    name = "number"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


FINITE = Finite()


# Drops of an event stream in a row (no event between them) before ``follow_stream`` gives up.
RECONNECTS = 5


def follow_stream(
    address: str,
    after: int | None,
    *,
    last: str | None = None,
    token: str | None = None,
    count: int | None = None,
) -> None:
    """Print the events of the stream at ``address`` (with the bearer ``token``, if given) as
    they come, one JSON line each (``{"id", "event", "data"}``), until one named ``last`` or
    the ``count``-th (a stream with neither goes on until interrupted); a dropped stream is
    resumed after the last event printed (``after``: start after event N)."""
    import httpx  # here, not above: a command's --help needs no HTTP client

    since = None if after is None else str(after)
    failures = 0
    while True:
        headers = {"Accept": "text/event-stream"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if since is not None:
            headers["Last-Event-ID"] = since
        try:
            with httpx.stream("GET", address, headers=headers, timeout=60.0) as answer:
                if answer.status_code == 204:
                    return  # resumed at or past the end
                if answer.status_code != 200:
                    answer.read()
                    click.echo(answer.text, err=True)
                    raise click.exceptions.Exit(1)
                for event in _events(answer.iter_lines()):
                    failures = 0
                    since = str(event["id"])
                    click.echo(json.dumps(event, ensure_ascii=False, separators=(",", ":")))
                    if count is not None:
                        count -= 1
                    if event["event"] == last or count == 0:
                        return
            why = "the stream ended"
        except httpx.TransportError as error:
            why = str(error)
        failures += 1  # dropped: resumed after the last event printed
        if failures > RECONNECTS:
            raise click.ClickException(f"{address}: {why}")
        time.sleep(0.5 * failures)


def _events(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The events of a stream's lines: ``{"id", "event", "data"}`` each (comments skipped)."""
    kind, data, number = "message", list[str](), None
    for line in lines:
        if not line:
            if data:
                yield {"id": number, "event": kind, "data": json.loads("\n".join(data))}
            kind, data, number = "message", [], None
        elif not line.startswith(":"):  # a comment is a keep-alive
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                kind = value
            elif name == "data":
                data.append(value)
            elif name == "id":
                number = int(value) if value.isdigit() else value
