"""Gomocup's brain protocol, as the manager speaks it (Petr Laštovička's "Gomoku AI protocol",
the protocol of Piskvork and of the Gomocup's judge, with the Gomocup's ``SWAP2BOARD``).

The manager writes one command a line; the brain answers where the protocol says it does:

* ``START n`` (or ``RECTSTART w,h``) → ``OK`` or ``ERROR …``: a new, empty board;
  ``RESTART`` → ``OK`` (an empty board again; a brain that answers ``UNKNOWN`` is started anew);
* ``INFO key value`` → nothing: ``timeout_turn`` (milliseconds a move may take; 0: as fast as
  possible), ``timeout_match`` (the whole game's; 0: no limit), ``time_left`` (what is left of
  it, sent before every move; 2147483647 when unlimited) and ``rule`` (a sum of 1 exactly five,
  2 continuous game, 4 renju, 8 caro);
* ``BEGIN`` (play first on the empty board), ``TURN x,y`` (the opponent played x,y), and
  ``BOARD`` then ``x,y,1`` (the brain's own stone) or ``x,y,2`` (the opponent's) a line each, in
  the order they were played, then ``DONE`` (a whole position, after START or RESTART) → the
  brain's move ``x,y``; a brain may answer ``SUGGEST x,y`` instead, which the manager confirms
  with ``PLAY x,y`` (and the brain answers ``x,y``);
* ``SWAP2BOARD`` then the opening's stones a line each (none, three or five) then ``DONE`` →
  three stones (``x,y x,y x,y``), or ``SWAP`` (the brain takes the colour that moved last, so
  the other side moves now), one stone (the brain keeps the colour to move, and moves), or two
  stones (after three: the brain places two more and lets the other player choose);
* ``ABOUT`` → ``name="…", version="…", …``; ``END`` → nothing: the brain exits.

While it thinks a brain may write ``MESSAGE …`` and ``DEBUG …`` lines: they are read and
passed on, never taken for an answer. ``x`` is the column and ``y`` the row, both from 0, the
row counted from the top as the service lists its boards.

The adapter knows what the brain holds: after it answered a move, the position it answered in
and its own stone. So the next move is a ``TURN`` when the opponent's one move is all that is
new, and a whole ``BOARD`` otherwise (a new brain, a refused answer, a pass, a takeback).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from adjudicator_client.bot.engine import BadAnswer, CannotPlay, EngineGone, Lines

log = logging.getLogger("adjudicator_client.bot")

# ``INFO rule``'s bits for each rule of the service's gomoku ("freestyle": none of them).
RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}
ABOUT_SECONDS = 3.0  # how long a brain's name is waited for
UNLIMITED_MS = 2147483647  # ``time_left`` of a game without a clock, as the protocol writes it
_CELL = re.compile(r"\s*(\d{1,7})\s*,\s*(\d{1,7})\s*")
_NOTES = ("MESSAGE", "DEBUG")


@dataclass(frozen=True)
class Stone:
    """A stone on the board: its column ``x``, its row ``y``, and whether it is the brain's."""

    x: int
    y: int
    mine: bool


@dataclass(frozen=True)
class Limits:
    """The time the brain is given, in milliseconds: for this move (``turn``), for the whole
    game (``match``; 0 without a limit) and left of it now (``left``)."""

    turn: int
    match: int = 0
    left: int = UNLIMITED_MS


@dataclass(frozen=True)
class Position:
    """What the brain is asked to move in: the board's size, the rule's bits, the stones in the
    order they were played."""

    width: int
    height: int
    rule: int
    stones: tuple[Stone, ...]


@dataclass(frozen=True)
class Swap2Answer:
    """A brain's answer to ``SWAP2BOARD``: ``swap`` (it takes the colour that moved last), or
    the stones it places, in order."""

    swap: bool
    stones: tuple[tuple[int, int], ...] = ()


def cell(text: str, width: int, height: int) -> tuple[int, int] | None:
    """``x,y`` as a cell of the board, or None if it is not one."""
    found = _CELL.fullmatch(text)
    if found is None:
        return None
    x, y = int(found[1]), int(found[2])
    return (x, y) if x < width and y < height else None


class Gomocup:
    """A brain, spoken to as Gomocup's manager speaks to it. ``wait``: the seconds the brain has
    to answer a command that is not a move (START, RESTART, ABOUT)."""

    LAST_WORDS = ("END",)  # what ends a brain: for ``EngineProcess.stop``

    def __init__(self, engine: Lines, *, wait: float = 60.0) -> None:
        self.engine = engine
        self.wait = wait
        self.size: tuple[int, int] | None = None
        self.known: tuple[Stone, ...] | None = None  # the brain's board, if the bot knows it
        self.fresh = False  # its board is empty, after START, RESTART or SWAP2BOARD
        self.name: str | None = None
        self.asked_about = False

    async def start(self, width: int, height: int) -> None:
        """``START`` (``RECTSTART`` for a board that is not square): CannotPlay if the brain
        does not take the size; then, the first time, ``ABOUT``."""
        command = f"START {width}" if width == height else f"RECTSTART {width},{height}"
        await self.engine.send(command)
        answer = await self._reply(self.wait)
        if answer.upper() != "OK":
            raise CannotPlay(f"the brain does not play this board ({command}: {answer})")
        self.size, self.known, self.fresh = (width, height), (), True
        if not self.asked_about:
            await self.about()

    async def about(self) -> str | None:
        """The brain's name (``ABOUT``), if it says one within ``ABOUT_SECONDS`` (a brain need
        not know the command: it answers ``UNKNOWN``, or nothing)."""
        self.asked_about = True
        await self.engine.send("ABOUT")
        try:
            answer = await self._reply(min(self.wait, ABOUT_SECONDS))
        except EngineGone:
            return None
        found = re.search(r'name\s*=\s*"([^"]*)"', answer)
        if found is None and answer.split(" ")[0].upper() not in ("UNKNOWN", "ERROR"):
            found = re.match(r"(.*)", answer)
        self.name = found[1] if found else None
        log.debug("brain: %s", answer)
        return self.name

    def lost(self) -> None:
        """The brain's board is no longer the game's (its answer was refused, or it thinks on a
        move that will not be played): the next move tells it the whole position."""
        self.known = None

    async def move(
        self, position: Position, limits: Limits | Callable[[], Limits], timeout: float | None
    ) -> tuple[int, int]:
        """The brain's move in ``position``, answered within ``timeout`` seconds; ``limits``
        (or the clock that reads them) told once the brain is ready to hear them."""
        stones, known = position.stones, self.known
        if self.size != (position.width, position.height):
            await self.start(position.width, position.height)
            known = self.known
        begin = known == () and not stones
        turn = (
            known is not None
            and len(stones) == len(known) + 1
            and stones[: len(known)] == known
            and not stones[-1].mine
        )
        if not (begin or turn or self.fresh):
            await self._restart()
        await self._limits(position, limits)
        if begin:
            await self.engine.send("BEGIN")
        elif turn:
            await self.engine.send(f"TURN {stones[-1].x},{stones[-1].y}")
        else:
            await self.engine.send("BOARD")
            for stone in stones:
                await self.engine.send(f"{stone.x},{stone.y},{1 if stone.mine else 2}")
            await self.engine.send("DONE")
        played = await self._move(position, timeout)
        self.known = (*stones, Stone(*played, mine=True))
        self.fresh = False
        return played

    async def swap2(
        self, position: Position, limits: Limits | Callable[[], Limits], timeout: float | None
    ) -> Swap2Answer:
        """The brain's answer to ``SWAP2BOARD`` with the opening's stones (``Stone.mine`` does
        not matter: no colour is anybody's yet)."""
        if self.size != (position.width, position.height):
            await self.start(position.width, position.height)
        elif not self.fresh:
            await self._restart()
        await self._limits(position, limits)
        self.known, self.fresh = None, True  # after the opening, the game goes on from BOARD
        await self.engine.send("SWAP2BOARD")
        for stone in position.stones:
            await self.engine.send(f"{stone.x},{stone.y}")
        await self.engine.send("DONE")
        answer = await self._reply(timeout)
        if answer.strip().upper() == "SWAP":
            return Swap2Answer(swap=True)
        cells = [cell(word, position.width, position.height) for word in answer.split()]
        placed = tuple(found for found in cells if found is not None)
        taken = {(stone.x, stone.y) for stone in position.stones}
        if (
            not placed or len(placed) != len(cells) or len(placed) > 3
            or len(set(placed)) != len(placed) or taken & set(placed)
        ):  # fmt: skip  # a stone twice, or on a stone: the plan would stop half-way
            raise BadAnswer(f"SWAP2BOARD answered {answer!r}")
        return Swap2Answer(swap=False, stones=placed)

    async def _limits(self, position: Position, limits: Limits | Callable[[], Limits]) -> None:
        """``INFO``: the time limits — read now, when given as a clock (a running clock's time
        left after a brain's START, however long that took) — and the rule."""
        told = limits() if callable(limits) else limits
        for key, value in (
            ("timeout_turn", told.turn),
            ("timeout_match", told.match),
            ("time_left", told.left),
            ("rule", position.rule),
        ):
            await self.engine.send(f"INFO {key} {value}")

    async def _restart(self) -> None:
        """An empty board for a brain that has played: RESTART; a brain that does not know it
        is started again (the protocol's manager starts a new process; START does as much)."""
        await self.engine.send("RESTART")
        answer = await self._reply(self.wait)
        if answer.upper() != "OK":
            assert self.size is not None
            await self.start(*self.size)
        self.known, self.fresh = (), True

    async def _move(self, position: Position, timeout: float | None) -> tuple[int, int]:
        answer = await self._reply(timeout)
        word, _, rest = answer.partition(" ")
        if word.upper() == "SUGGEST":  # the manager plays what it suggests
            await self.engine.send(f"PLAY {rest.strip()}")
            answer = await self._reply(timeout)
        played = cell(answer, position.width, position.height)
        if played is None:
            raise BadAnswer(f"a move was asked for; the brain answered {answer!r}")
        return played

    async def _reply(self, timeout: float | None) -> str:
        """The brain's next line that is not a note (MESSAGE, DEBUG) nor empty, within
        ``timeout`` seconds however many notes come first."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            line = (await self.engine.receive(left)).strip()
            word = line.partition(" ")[0].upper()
            if word in _NOTES:
                log.debug("brain %s: %s", word.lower(), line[len(word) :].strip())
            elif line:
                return line
