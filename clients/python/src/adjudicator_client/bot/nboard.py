"""The NBoard protocol, as the NBoard Othello GUI speaks it to an engine (Chris Welty's
"NBoard Protocol", which Edax, NTest and most Othello programs read).

The GUI writes one command a line:

* ``nboard 2`` first (the protocol's version), ``set depth n`` (the engine's midgame depth:
  required before ``go``) and ``set game <GGF>`` (all further commands are about the position at
  the end of that game, a GGF record on one line: its clock ``TI`` and each move's time);
* ``move f5`` (or ``move f5/eval/time``): the position after one more move — the engine's own
  too: ``go`` does not play the move it answers;
* ``ping n`` → ``pong n``: the engine stops thinking and answers, so every line before the pong
  is about what came before it;
* ``go`` → ``=== f5`` (or ``=== f5/eval/time``): the move the engine would play;
* ``quit``: the engine exits (NTest's and Edax's word; the protocol's page names none).

The engine may write ``set myname <name>``, ``status …``, ``nodestats …``, ``search …`` and
``book …`` lines at any time: read, never taken for an answer. Squares are Othello's: ``a1`` the
top-left corner, as the service names them; a pass is never asked for (the service passes for a
player with no move).

The adapter knows which of the game's moves the engine was told. The next ``go`` follows
``move`` lines for the moves since (the engine's own accepted move among them) when the game
still begins with the moves it was told and none of those since made a pass; else a whole
``set game`` with the service's own GGF record of the game (``GET
/v1/games/{id}/record?format=ggf``): a new engine, a refused answer, a pass, a takeback (even
one whose moves were replaced by as many others).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from adjudicator_client.bot.engine import BadAnswer, Lines

log = logging.getLogger("adjudicator_client.bot")

_SQUARE = re.compile(r"[a-z][1-9][0-9]?")


@dataclass(frozen=True)
class Played:
    """One of the game's moves: its square, the seconds its mover's clock ran for it (a clocked
    game's), and whether the other colour had to pass after it."""

    square: str
    seconds: float | None = None
    passed: bool = False


class NBoard:
    """An Othello engine, spoken to as the NBoard GUI speaks to it. ``wait``: the seconds the
    engine has to answer a ping."""

    LAST_WORDS = ("quit",)  # what ends an engine: for ``EngineProcess.stop``

    def __init__(self, engine: Lines, *, depth: int, wait: float = 60.0) -> None:
        self.engine = engine
        self.depth, self.wait = depth, wait
        self.started = False
        self.known: tuple[Played, ...] | None = None  # the game's moves the engine was told
        self.pings = 0
        self.name: str | None = None

    async def start(self) -> None:
        """``nboard 2`` and ``set depth``, then a ping answered: the engine listens."""
        await self.engine.send("nboard 2")
        await self.engine.send(f"set depth {self.depth}")
        await self._ping(self.wait)
        self.started = True

    def lost(self) -> None:
        """The engine's position is no longer the game's: the next move sends the whole game."""
        self.known = None

    async def move(
        self,
        moves: Sequence[Played],
        record: Callable[[], Awaitable[str]],
        timeout: float | None,
    ) -> str:
        """The engine's move after ``moves`` (the game's, in order), answered within
        ``timeout`` seconds; ``record`` reads the game's GGF record, when the whole game is
        sent."""
        if not self.started:
            await self.start()
        known = self.known
        news = None if known is None or tuple(moves[: len(known)]) != known else moves[len(known) :]
        if news is None or any(played.passed for played in news):
            text = " ".join((await record()).split())  # one line, as the command is
            await self.engine.send(f"set game {text}")
        else:
            for played in news:
                time = "" if played.seconds is None else f"//{played.seconds:.2f}"
                await self.engine.send(f"move {played.square}{time}")
        self.known = tuple(moves)
        await self._ping(self.wait)
        await self.engine.send("go")
        answer = await self._line_starting("===", timeout)
        square = answer[3:].strip().partition("/")[0].strip().lower()
        if not _SQUARE.fullmatch(square):
            raise BadAnswer(f"go answered {answer!r}")
        return square

    async def _ping(self, timeout: float) -> None:
        """``ping n``, and every line until ``pong n`` (a stale answer of a search stopped by
        the ping among them) passed over — all within ``timeout`` seconds, however many stale
        pongs come first."""
        self.pings += 1
        await self.engine.send(f"ping {self.pings}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            line = await self._line_starting("pong", max(0.0, deadline - loop.time()))
            if line.split()[1:2] == [str(self.pings)]:
                return

    async def _line_starting(self, word: str, timeout: float | None) -> str:
        """The engine's next line that begins with ``word``, within ``timeout`` seconds; the
        lines before it are its notes (its name kept)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            line = (await self.engine.receive(left)).strip()
            if line.startswith(word):
                return line
            if line.startswith("set myname"):
                self.name = line[len("set myname") :].strip() or self.name
            elif line:
                log.debug("engine: %s", line)
