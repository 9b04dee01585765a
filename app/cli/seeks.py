"""``adjudicator seek`` and ``adjudicator challenge``: clients of a running service's seeks and
challenges (a service that keeps an archive), beside ``adjudicator player``.

* ``seek new --game JSON [--rated] [--range LO HI] --key KEY`` posts a seek: it prints the
  answer, the game made at once when it fit a waiting seek (``game``, ``seat``), else ``game``
  null; ``seek list [--game KIND]`` prints the waiting seeks; ``seek withdraw ID --key KEY``.
* ``challenge new PLAYER --game JSON [--rated] --key KEY`` challenges a player; ``challenge
  list --key KEY`` prints one's open challenges (``incoming``, ``outgoing``); ``challenge
  accept ID``, ``decline ID`` (the challenged player's key) and ``withdraw ID`` (the
  challenger's).

A game made is played with the players' keys as ``adjudicator game``'s ``--token``; ``adjudicator
player follow ID --key KEY`` prints a player's events (the games made for it, the challenges
made to it). Each command prints the service's answer to stdout, and a problem to stderr with
exit status 1; the service is ``--url`` (or ``ADJUDICATOR_URL``).
"""

from __future__ import annotations

from typing import Any

import click

from app.cli.players import FINITE, URL, _send, json_object

KEY = click.option(
    "--key", required=True, envvar="ADJUDICATOR_KEY", help="The player's key (or ADJUDICATOR_KEY)."
)
GAME = click.option(
    "--game", "game", required=True, help="The game's creation body, JSON (e.g. '{\"n\": 3}')."
)
RATED = click.option("--rated", is_flag=True, help="The game rates its players.")


@click.group()
def seek() -> None:
    """Seeks on a running service (--url, or ADJUDICATOR_URL; the service keeps them in its
    archive): post one (new), list the waiting ones (list), withdraw one's own (withdraw). Two
    seeks that fit make a game at once. Prints the service's answer; a problem goes to stderr,
    with exit status 1."""


@seek.command("new")
@GAME
@RATED
@click.option(
    "--range", "bounds", type=(FINITE, FINITE), default=None,
    help="LO HI: only an opponent rated within them in the game's pool.",
)  # fmt: skip
@KEY
@URL
def new_seek(
    game: str, rated: bool, bounds: tuple[float, float] | None, key: str, url: str
) -> None:
    """Seek a game as the player of --key: prints {"id", "game", "seat"} (game null: it waits
    for a seek that fits)."""
    body: dict[str, Any] = {"game": json_object(game), "rated": rated}
    if bounds is not None:
        body["rating_range"] = list(bounds)
    _send(url, "POST", "createSeek", body=body, token=key)


@seek.command("list")
@click.option("--game", "kind", default=None, help="Only seeks of this kind of game.")
@click.option("--limit", type=click.IntRange(1, 100), default=None, help="At most this many.")
@click.option("--cursor", default=None, help="Where the page starts: the last page's `next`.")
@URL
def list_seeks(kind: str | None, limit: int | None, cursor: str | None, url: str) -> None:
    """The waiting seeks, oldest first, with their players and ratings."""
    _send(url, "GET", "listSeeks", query={"game": kind, "limit": limit, "cursor": cursor})


@click.group()
def challenge() -> None:
    """Challenges on a running service (--url, or ADJUDICATOR_URL): challenge a player (new),
    list one's own (list), accept or decline one made to you, withdraw one you made. Prints the
    service's answer; a problem goes to stderr, with exit status 1."""


@challenge.command("new")
@click.argument("to", metavar="PLAYER")
@GAME
@RATED
@KEY
@URL
def new_challenge(to: str, game: str, rated: bool, key: str, url: str) -> None:
    """Challenge PLAYER (an id) as the player of --key: prints the challenge."""
    body = {"to": to, "game": json_object(game), "rated": rated}
    _send(url, "POST", "createChallenge", body=body, token=key)


@challenge.command("list")
@KEY
@URL
def list_challenges(key: str, url: str) -> None:
    """The open challenges made to the player of --key (incoming) and by it (outgoing)."""
    _send(url, "GET", "listChallenges", token=key)


# The commands that act on one seek or challenge, named by its id, as the player of --key:
# group, command, method, operation, the operation's path parameter, what the command does.
BY_ID: tuple[tuple[click.Group, str, str, str, str, str], ...] = (
    (seek, "withdraw", "DELETE", "withdrawSeek", "seek_id", "Withdraw one's own seek."),
    (
        challenge, "accept", "POST", "acceptChallenge", "challenge_id",
        'Accept a challenge made to the player of --key: prints {"game", "seat"}.',
    ),
    (
        challenge, "decline", "POST", "declineChallenge", "challenge_id",
        "Decline a challenge made to the player of --key.",
    ),
    (
        challenge, "withdraw", "DELETE", "withdrawChallenge", "challenge_id",
        "Withdraw a challenge the player of --key made.",
    ),
)  # fmt: skip


def _by_id(method: str, operation: str, parameter: str, does: str) -> click.Command:
    """A command that sends ``operation`` for the id it is given, with the player's key."""

    @click.command(help=does)
    @click.argument("object_id", metavar="ID")
    @KEY
    @URL
    def command(object_id: str, key: str, url: str) -> None:
        _send(url, method, operation, path={parameter: object_id}, token=key)

    return command


for _group, _name, *_sent in BY_ID:
    _group.add_command(_by_id(*_sent), _name)
