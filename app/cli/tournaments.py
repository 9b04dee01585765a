"""``adjudicator tournament``: a client of a running service's tournaments (a service that keeps
an archive), beside ``adjudicator player``.

* ``tournament new --name … --system … [--rounds N] --game JSON [--player ID …] [--rated]
  --key KEY`` makes a tournament organised by the player of ``KEY`` and prints its document.
* ``tournament show ID`` prints its document (players, rounds, standings), ``--trf`` its FIDE
  TRF-16 report.
* ``tournament enter ID PLAYER``, ``withdraw ID PLAYER`` and ``pair ID`` are the organiser's
  (``--key``, or ``ADJUDICATOR_KEY``): each prints the document, a paired round's games in its
  last round (each played by its players with their keys, as ``adjudicator game`` plays).
* ``tournament follow ID`` prints its events as they come, one JSON line each (``{"id",
  "event", "data"}``: ``round``, ``result``, then ``end``, where it stops); a dropped stream is
  resumed after the last event printed (``--after N``: start after event N).

As ``adjudicator player`` does, each prints the service's answer to stdout, and a problem to
stderr with exit status 1; the service is ``--url`` (or ``ADJUDICATOR_URL``). Nothing of the
service is imported here, httpx only when a request is sent.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import click

from app.cli.players import URL, _path, _send, follow_stream, json_object

SYSTEMS = ("round_robin", "double_round_robin", "swiss")
KEY = click.option(
    "--key",
    required=True,
    envvar="ADJUDICATOR_KEY",
    help="The organiser's player key (or ADJUDICATOR_KEY).",
)


@click.group()
def tournament() -> None:
    """Tournaments on a running service (--url, or ADJUDICATOR_URL; the service keeps them in
    its archive): make one (new), read it (show), enter or withdraw a player, pair the next
    round (pair) with the organiser's key, and follow its events. Prints the service's answer;
    a problem goes to stderr, with exit status 1."""


@tournament.command("new")
@click.option("--name", required=True, help="The tournament's name.")
@click.option("--system", required=True, type=click.Choice(SYSTEMS), help="How it is paired.")
@click.option("--rounds", type=click.IntRange(1), default=None, help="A Swiss's rounds.")
@click.option(
    "--game",
    "game",
    required=True,
    help='Each game\'s creation body, JSON (e.g. \'{"game": "reversi"}\').',
)
@click.option(
    "--player",
    "players",
    multiple=True,
    help="An entrant's player id, repeated in the seeding order.",
)
@click.option("--rated", is_flag=True, help="Its games rate their players.")
@KEY
@URL
def new(
    name: str,
    system: str,
    rounds: int | None,
    game: str,
    players: tuple[str, ...],
    rated: bool,
    key: str,
    url: str,
) -> None:
    """Make a tournament organised by the player of --key: prints its document."""
    body: dict[str, Any] = {"name": name, "system": system, "game": json_object(game),
                            "players": list(players), "rated": rated}  # fmt: skip
    if rounds is not None:
        body["rounds"] = rounds
    _send(url, "POST", "createTournament", body=body, token=key)


@tournament.command("show")
@click.argument("tournament_id", metavar="ID")
@click.option("--trf", is_flag=True, help="Its FIDE TRF-16 report instead of its document.")
@URL
def show(tournament_id: str, trf: bool, url: str) -> None:
    """A tournament: its players, rounds (each board's players, game and result) and standings;
    with --trf its TRF-16 report."""
    query = {"format": "trf"} if trf else None
    _send(url, "GET", "getTournament", path={"tournament_id": tournament_id}, query=query)


@tournament.command("enter")
@click.argument("tournament_id", metavar="ID")
@click.argument("player_id", metavar="PLAYER")
@KEY
@URL
def enter(tournament_id: str, player_id: str, key: str, url: str) -> None:
    """Enter PLAYER last in the seeding order, before round 1 (the organiser's --key)."""
    path = {"tournament_id": tournament_id}
    _send(url, "POST", "enterPlayer", path=path, body={"player": player_id}, token=key)


@tournament.command("withdraw")
@click.argument("tournament_id", metavar="ID")
@click.argument("player_id", metavar="PLAYER")
@KEY
@URL
def withdraw(tournament_id: str, player_id: str, key: str, url: str) -> None:
    """Withdraw PLAYER: not paired in later rounds (the organiser's --key)."""
    path = {"tournament_id": tournament_id, "player_id": player_id}
    _send(url, "DELETE", "withdrawPlayer", path=path, token=key)


@tournament.command("pair")
@click.argument("tournament_id", metavar="ID")
@KEY
@URL
def pair(tournament_id: str, key: str, url: str) -> None:
    """Pair the next round and make all its games (the organiser's --key): prints the document,
    the new round last."""
    _send(url, "POST", "pairRound", path={"tournament_id": tournament_id}, token=key)


@tournament.command("follow")
@click.argument("tournament_id", metavar="ID")
@click.option("--after", type=click.IntRange(0), default=None, help="Start after event N.")
@URL
def follow(tournament_id: str, after: int | None, url: str) -> None:
    """Print the tournament's events as they come, one JSON line each ({"id", "event",
    "data"}), until its `end`; a dropped stream is resumed after the last event printed."""
    path = _path("tournamentEvents").replace("{tournament_id}", quote(tournament_id, safe=""))
    follow_stream(url.rstrip("/") + path, after, last="end")
