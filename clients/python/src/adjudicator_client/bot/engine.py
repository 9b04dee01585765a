"""The engine's process: a program on the bot author's machine, spoken to a line at a time on
its standard input and output (both protocols are so). ``Lines`` is what a protocol's adapter
needs of it (a scripted engine in the tests is one too); ``EngineProcess`` is the real one,
spawned from the ``--engine`` command line, stopped or killed, and watched for dying.

Its standard error is the bot's own: what an engine says there is for its author.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, Protocol, TypeVar

log = logging.getLogger("adjudicator_client.bot")

# The longest line read from an engine; a longer one is an engine out of its protocol.
LINE_LIMIT = 1 << 20
# How long a stopped engine is given to exit after its protocol's last word, before it is killed.
EXIT_SECONDS = 2.0


class EngineGone(Exception):
    """The engine cannot be spoken to any more: it exited, closed its output, or said nothing
    within the time it was given. The bot restarts it."""


class BadAnswer(Exception):
    """The engine answered something its protocol does not allow here (or refused the request:
    ``ERROR``, ``UNKNOWN``). The bot tells it the position again, and asks again."""


class Lines(Protocol):
    """A program spoken to a line at a time."""

    async def send(self, line: str) -> None:
        """Write one line (the line ending is added)."""

    async def receive(self, timeout: float | None) -> str:
        """The next line, without its ending; EngineGone if none comes within ``timeout``
        seconds (None: no limit) or the program is gone."""


class EngineProcess:
    """One run of the engine's command line, in a process group of its own (a wrapper script's
    children go with it)."""

    def __init__(self, process: asyncio.subprocess.Process, command: Sequence[str]) -> None:
        self.process = process
        self.command = tuple(command)

    @classmethod
    async def spawn(cls, command: str) -> EngineProcess:
        """Start ``command`` (a command line, split as a POSIX shell splits it)."""
        argv = shlex.split(command)
        if not argv:
            raise EngineGone("the engine's command line is empty")
        try:
            process = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                limit=LINE_LIMIT, start_new_session=True,
            )  # fmt: skip
        except OSError as error:
            raise EngineGone(f"cannot start {argv[0]}: {error}") from error
        return cls(process, argv)

    @property
    def pid(self) -> int:
        return self.process.pid

    async def send(self, line: str) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        if stdin.is_closing() or self.process.returncode is not None:
            raise EngineGone(f"the engine exited ({self.process.returncode})")
        log.debug("engine %s < %s", self.pid, line)
        try:
            stdin.write(line.encode() + b"\n")
            await stdin.drain()
        except (ConnectionError, RuntimeError) as error:  # a closed pipe
            raise EngineGone(f"the engine stopped reading: {error}") from error

    async def receive(self, timeout: float | None) -> str:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            raw = await asyncio.wait_for(stdout.readline(), timeout)
        except TimeoutError:
            raise EngineGone(f"the engine said nothing for {timeout:.1f} s") from None
        except ValueError as error:  # a line over LINE_LIMIT
            raise BadAnswer(f"the engine wrote a line too long to read: {error}") from error
        if not raw:
            raise EngineGone(f"the engine closed its output (exit status {await self._exit()})")
        line = raw.decode(errors="replace").rstrip("\r\n").replace("\r", "")
        log.debug("engine %s > %s", self.pid, line)
        return line

    async def _exit(self) -> int | None:
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self.process.wait(), EXIT_SECONDS)
        return None

    async def stop(self, last_words: Sequence[str] = ()) -> None:
        """Say the protocol's goodbye (if the engine still listens), wait a moment for it to
        exit, then kill whatever of it is left."""
        if self.process.returncode is None:
            with contextlib.suppress(EngineGone):
                for line in last_words:
                    await self.send(line)
            if self.process.stdin is not None:
                self.process.stdin.close()
            if await self._exit() is None:
                self.kill()
        await self.process.wait()

    def kill(self) -> None:
        """Kill the engine's process group at once (an engine that thinks on after its game
        ended, or that stopped answering)."""
        if self.process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if hasattr(os, "killpg"):
                os.killpg(self.process.pid, signal.SIGKILL)
            else:  # pragma: no cover - Windows has no process groups to kill
                self.process.kill()


class CannotPlay(Exception):
    """The engine cannot play this game on: it kept dying, its answers kept being refused, or
    it does not take the game's board. The bot resigns the game (aborts it, before the second
    move)."""


A = TypeVar("A")
T = TypeVar("T")


class Restarting(Generic[A]):
    """The engine of one game: its process and the protocol's adapter over it (``adapt``),
    started when first asked, and started again — a new process, a new adapter that knows
    nothing of the game — when it is gone, at most ``restarts`` times (then CannotPlay)."""

    def __init__(
        self,
        command: str,
        adapt: Callable[[Lines], A],
        last_words: Sequence[str],
        restarts: int,
    ) -> None:
        self.command, self.adapt, self.last_words = command, adapt, tuple(last_words)
        self.most = restarts
        self.restarts = 0
        self.process: EngineProcess | None = None
        self.adapter: A | None = None

    async def ask(self, question: Callable[[A], Awaitable[T]]) -> T:
        """The adapter's answer to ``question``, from a new engine if the one asked is gone."""
        while True:
            try:
                if self.process is None or self.adapter is None:
                    self.process = await EngineProcess.spawn(self.command)
                    self.adapter = self.adapt(self.process)
                return await question(self.adapter)
            except EngineGone as gone:
                await self.abandon()
                self.restarts += 1
                if self.restarts > self.most:
                    raise CannotPlay(f"the engine is gone again ({gone})") from gone
                log.warning("engine gone (%s): starting it again", gone)

    async def abandon(self) -> None:
        """Kill the engine now (it thinks on a move that will not be played, or stopped
        answering); the next question starts a new one."""
        process, self.process, self.adapter = self.process, None, None
        if process is not None:
            process.kill()
            await process.process.wait()

    async def close(self) -> None:
        """End the engine as its protocol ends one."""
        process, self.process, self.adapter = self.process, None, None
        if process is not None:
            await process.stop(self.last_words)
