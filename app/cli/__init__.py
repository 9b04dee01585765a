"""The ``adjudicator`` command: ``serve`` (the default), ``openapi``, ``check``, ``audit``,
``verify``, ``db``, ``game``, ``player``, ``ratings``, ``tournament``, ``seek`` and
``challenge``.

Each subcommand lives in a module of its own and is imported only when it runs (or when the
top-level help lists it): ``adjudicator game …`` is a small HTTP client and must not pay for
building the service (FastAPI, Pydantic and the app take about a second to import), and
``check`` needs no server.

* ``serve`` (``app.cli.serve``) takes every setting of ``app.settings.Settings`` as a flag;
  ``openapi`` prints the document the service serves.
* ``check`` (``app.cli.check``) answers the stateless questions the kinds declare, offline.
* ``audit`` and ``verify`` (``app.cli.records``) are the records endpoints offline.
* ``db`` (``app.cli.db``) migrates the archive's database (``db upgrade``).
* ``game`` (``app.cli.game``) is a client of a running service, one command a game route, made
  from the OpenAPI document shipped with the package.
* ``player`` and ``ratings`` (``app.cli.players``) are clients of its players and ratings:
  ``player new NAME`` (the key shown once), ``player show ID``, ``player me``, ``ratings POOL``.
* ``tournament`` (``app.cli.tournaments``) is a client of its tournaments: ``tournament new``,
  ``show ID [--trf]``, the organiser's ``enter``, ``withdraw`` and ``pair``, and ``follow ID``.
* ``seek`` and ``challenge`` (``app.cli.seeks``) are clients of its seeks and challenges: ``seek
  new``, ``list``, ``withdraw``; ``challenge new``, ``list``, ``accept``, ``decline``,
  ``withdraw``; ``player follow ID`` prints a player's events.
"""

from __future__ import annotations

import importlib

import click

# Each subcommand: the module that declares it, and its name there.
COMMANDS = {
    "serve": ("app.cli.serve", "serve"),
    "openapi": ("app.cli.serve", "openapi"),
    "check": ("app.cli.check", "check"),
    "audit": ("app.cli.records", "audit"),
    "verify": ("app.cli.records", "verify"),
    "game": ("app.cli.game", "game"),
    "player": ("app.cli.players", "player"),
    "ratings": ("app.cli.players", "ratings"),
    "tournament": ("app.cli.tournaments", "tournament"),
    "seek": ("app.cli.seeks", "seek"),
    "challenge": ("app.cli.seeks", "challenge"),
    "db": ("app.cli.db", "db"),
}


class Commands(click.Group):
    """The subcommands, each imported when it is asked for; ``serve`` when none is named:
    ``adjudicator`` serves, and ``adjudicator --port 9000`` is ``adjudicator serve --port
    9000``."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = COMMANDS.get(cmd_name)
        if found is None:
            return None
        module, name = found
        command: click.Command = getattr(importlib.import_module(module), name)
        return command

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        own = {opt for param in self.get_params(ctx) for opt in param.opts + param.secondary_opts}
        if not args or (args[0].startswith("-") and args[0].partition("=")[0] not in own):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="adjudicator")
def main() -> None:
    """Referee board-game moves: serve the HTTP API (the default command), print its OpenAPI
    document, answer one question or audit a game offline, or play on a running service.

    Every setting is a flag of `serve` and an ADJUDICATOR_* environment variable; see
    `adjudicator serve --help`.
    """
