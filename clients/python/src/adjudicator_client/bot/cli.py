"""The ``adjudicator-bot`` command line::

    adjudicator-bot --server URL --key KEY --engine "CMD ARGS" --protocol gomocup|nboard
                    [--seek JSON]... [--accept-challenges] [--games N] [--game ID]...
                    [--accept-draws] [--rematch-seconds S]

``--key`` is read from ``ADJUDICATOR_KEY`` when not given. Each game's line is written on the
standard output; what the bot has to say besides (an engine started again, an answer refused,
a connection dropped) on the standard error. Stopped by Ctrl-C (SIGINT) or SIGTERM, it
withdraws its seeks and stops its engines first (exit status 130, 143).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Sequence
from typing import Any

import httpx

from adjudicator_client._async_client import AsyncClient
from adjudicator_client._problem import ProblemError
from adjudicator_client.bot.game import Options
from adjudicator_client.bot.gomocup import UNLIMITED_MS
from adjudicator_client.bot.lobby import Bot

KEY_VARIABLE = "ADJUDICATOR_KEY"
SEEK_MEMBERS = frozenset({"game", "rated", "rating_range"})  # POST /v1/seeks's body


def seek_body(text: str) -> dict[str, Any]:
    """A ``--seek``: a JSON object, as ``POST /v1/seeks`` takes it."""
    try:
        body = json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(body, dict):
        raise argparse.ArgumentTypeError('a seek is a JSON object: {"game": {…}, …}')
    unknown = sorted(set(body) - SEEK_MEMBERS)
    if unknown or not isinstance(body.get("game"), dict):
        raise argparse.ArgumentTypeError(
            f"a seek has a game (its creation body) and may have rated and rating_range, not "
            f"{', '.join(unknown) or 'a game that is not an object'}"
        )
    bounds = body.get("rating_range")
    if bounds is not None and not (
        isinstance(bounds, list) and len(bounds) == 2
        and all(isinstance(bound, int | float) and not isinstance(bound, bool) for bound in bounds)
    ):  # fmt: skip
        raise argparse.ArgumentTypeError("a seek's rating_range is [lo, hi]: two numbers")
    return body


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be at least 0")
    return value


def seconds(text: str) -> float:
    """A number of seconds: finite, at least 0."""
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError("must be a number of seconds, at least 0")
    return value


def turn_seconds(text: str) -> float:
    """A move's seconds, as Gomocup's ``timeout_turn`` tells them: milliseconds a 32-bit
    integer holds."""
    value = seconds(text)
    if value * 1000 > UNLIMITED_MS:
        raise argparse.ArgumentTypeError(f"must be at most {UNLIMITED_MS // 1000} seconds")
    return value


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="adjudicator-bot",
        description="Play an engine on this machine through the adjudication service: Gomocup "
        "brains (gomoku, renju, k in a row) and NBoard engines (Othello).",
    )
    parse.add_argument("--server", required=True, help="the service's URL")
    parse.add_argument(
        "--key", default=os.environ.get(KEY_VARIABLE),
        help=f"the bot's player key (POST /v1/players); default ${KEY_VARIABLE}",
    )  # fmt: skip
    parse.add_argument("--engine", required=True, help='the engine\'s command line: "CMD ARGS"')
    parse.add_argument("--protocol", required=True, choices=["gomocup", "nboard"])
    parse.add_argument(
        "--seek", action="append", type=seek_body, default=[], metavar="JSON",
        help="a seek, as POST /v1/seeks takes it (repeatable): posted again after each game",
    )  # fmt: skip
    parse.add_argument(
        "--accept-challenges", action="store_true",
        help="accept the challenges made to the player whose game the engine plays",
    )  # fmt: skip
    parse.add_argument(
        "--games", type=positive, metavar="N",
        help="stop after N games (default: play until stopped)",
    )  # fmt: skip
    parse.add_argument(
        "--game", action="append", default=[], metavar="ID",
        help="also play this game by its id (the player's seat in it); repeatable",
    )  # fmt: skip
    parse.add_argument(
        "--accept-draws", action="store_true",
        help="accept the opponent's draw offers (default: declined by playing on)",
    )  # fmt: skip
    parse.add_argument(
        "--rematch-seconds", type=seconds, default=15.0, metavar="S",
        help="how long after a game's end the opponent's rematch offer is looked for, and "
        "accepted while the bot would play more games (default 15; 0: never)",
    )  # fmt: skip
    parse.add_argument(
        "--turn-seconds", type=turn_seconds, default=10.0, metavar="S",
        help="the time a move may take in a game without a clock (default 10)",
    )  # fmt: skip
    parse.add_argument(
        "--restarts", type=count, default=3, metavar="N",
        help="times a game's engine is started again after it died (default 3)",
    )  # fmt: skip
    parse.add_argument(
        "--refusals", type=count, default=5, metavar="N",
        help="answers of the engine the service may refuse in a row before the game is "
        "resigned (default 5)",
    )  # fmt: skip
    parse.add_argument(
        "--depth", type=positive, default=10, metavar="N",
        help="an NBoard engine's search depth (set depth; default 10)",
    )  # fmt: skip
    parse.add_argument("-v", "--verbose", action="store_true", help="say everything on stderr")
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if not arguments.key:
        parser().error(f"--key or ${KEY_VARIABLE} is needed: the bot plays as a player")
    program = (shlex.split(arguments.engine) or [""])[0]
    if not shutil.which(program) and not os.access(program, os.X_OK):
        parser().error(f"--engine: cannot run {program!r}")
    logging.basicConfig(
        level=logging.DEBUG if arguments.verbose else logging.WARNING, stream=sys.stderr,
        format="adjudicator-bot: %(message)s",
    )  # fmt: skip
    logging.getLogger("httpx").setLevel(logging.WARNING)
    options = Options(
        engine=arguments.engine, protocol=arguments.protocol,
        turn_seconds=arguments.turn_seconds, restarts=arguments.restarts,
        refusals=arguments.refusals, depth=arguments.depth, accept_draws=arguments.accept_draws,
    )  # fmt: skip

    def report(line: str) -> None:
        print(line, flush=True)

    async def play() -> None:
        async with AsyncClient(arguments.server) as api:
            bot = Bot(
                api, arguments.key, options, seeks=arguments.seek,
                accept_challenges=arguments.accept_challenges, games=arguments.games,
                game_ids=arguments.game, report=report, rematch_seconds=arguments.rematch_seconds,
            )  # fmt: skip
            playing = asyncio.current_task()
            assert playing is not None
            with contextlib.suppress(NotImplementedError):  # a loop without signals (Windows)
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, playing.cancel)
            await bot.run()

    try:
        asyncio.run(play())
    except KeyboardInterrupt:
        return 130
    except asyncio.CancelledError:  # SIGTERM: stopped as Ctrl-C stops it
        return 128 + signal.SIGTERM
    except (ProblemError, httpx.HTTPError, ConnectionError) as error:
        print(f"adjudicator-bot: {error}", file=sys.stderr)
        return 1
    return 0
