"""The Redis store's script runner: each script's text, built once, and every call of it.

A script's text is its prelude (``PUBLISH``: ``SPUBLISH`` on a cluster, the game's own slot;
the time, ``now_ms``; its arguments and answers by name, from ``wire.py``), then
``game.lua`` (and ``cells.lua`` for one that changes a fast path's cells) for a script that
reads or changes a game (run as the function ``answer``, whose
answer comes back as ``REPLY.settled``: whether a flag fell in it, and the answer) or
``accounts.lua`` for the store's accounting, then the script itself.

Scripts are called by SHA (computed here, not asked of the server) and loaded when the server
answers ``NOSCRIPT`` (after a restart, or on a replica that took over: the script did not run).
Every failure of the store is raised as ``StoreUnavailable``; for a call that changes a game,
saying whether the change may have been applied all the same. Nothing is sent twice: a move
whose reply was lost must not be applied twice.

The time: by default the store's own (``TIME``: one clock for every process). A store built
with ``caller_time`` sends its own clock's time with every game script instead, so that a test
drives the Lua clocks with the same injected time as the Python ones.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, TypeVar

import redis.asyncio as redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.sessions.errors import StoreUnavailable
from app.stores.redis.cluster import STORE_ERRORS, Client, may_have_run
from app.stores.redis.wire import SCRIPTS, Script, Settled, Wire, check_script, lua_prelude

logger = logging.getLogger("app.sessions.redis")

T = TypeVar("T")

# Redis < 7 needs effects replication for writes after TIME.
STORE_TIME = """if redis.replicate_commands then redis.replicate_commands() end
local function now_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
"""
# The caller's time, in ms, sent before the script's arguments.
CALLER_TIME = """local CALLER_NOW = tonumber(table.remove(ARGV, 1))
local function now_ms() return CALLER_NOW end
"""


def _lua(name: str) -> str:
    return files("app.stores.redis").joinpath("lua", f"{name}.lua").read_text(encoding="utf-8")


def script_text(script: Script, publish: str = "PUBLISH", caller_time: bool = False) -> str:
    """The text Redis runs for ``script`` (ValueError if it names what its record does not)."""
    body = _lua(script.name)
    if script.game:
        lib = _lua("game") + (_lua("cells") if script.cells else "")
        body = (
            f"{lib}local function answer()\n{body}\nend\n"
            "local answered = answer()\n"
            "return REPLY.settled{fell = settled or 0, answer = answered}\n"
        )
    elif script.accounts:
        body = _lua("accounts") + body
    check_script(script, body)
    time = (CALLER_TIME if caller_time else STORE_TIME) if script.game else ""
    return f"local PUBLISH = '{publish}'\n{time}{lua_prelude(script)}{body}"


@dataclass(frozen=True, slots=True)
class Call:
    """One call of a script: its keys, its arguments (the script's record) and their tail."""

    script: str
    keys: Sequence[str]
    args: tuple[Wire, ...]
    tail: Sequence[Wire] = ()


class ScriptRunner:
    """Every script of the store, run by name on the store's clients."""

    def __init__(
        self,
        *,
        publish: str,
        caller_time: bool = False,
        clock: Callable[[], float],
        on_flag_fall: Callable[[str], None],
    ) -> None:
        self.caller_time = caller_time
        self.clock = clock
        self.on_flag_fall = on_flag_fall
        self.texts = {name: script_text(s, publish, caller_time) for name, s in SCRIPTS.items()}
        self.shas = {
            name: hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()
            for name, text in self.texts.items()
        }

    def _argv(self, call: Call) -> list[Wire]:
        script = SCRIPTS[call.script]
        if not isinstance(call.args, script.args):
            raise TypeError(f"{call.script}.lua takes {script.args.__name__}, not {call.args!r}")
        argv: list[Wire] = [*call.args, *call.tail]
        if self.caller_time and script.game:
            argv.insert(0, int(self.clock() * 1000))
        return argv

    def answer(self, call: Call, answer: Any) -> Any:
        """A script's own answer: the ending a game script applied by itself (a flag fall, a
        first move's deadline) counted, its answer handed on."""
        if not SCRIPTS[call.script].game:
            return answer
        settled = Settled(*answer)
        if settled.fell:
            self.on_flag_fall(str(settled.fell))
        return settled.answer

    async def run(self, client: Client, call: Call, *, change: bool = False) -> Any:
        """The script's answer (a game script's own: see ``answer``)."""
        return self.answer(call, await self.guard(self._evalsha(client, call), client, change))

    async def _evalsha(self, client: Client, call: Call) -> Any:
        argv = self._argv(call)
        for _ in range(2):
            try:
                return await client.evalsha(
                    self.shas[call.script], len(call.keys), *call.keys, *argv
                )
            except NoScriptError:  # the server restarted, or a replica took over: did not run
                await client.script_load(self.texts[call.script])
        raise StoreUnavailable("the store keeps forgetting its scripts")

    async def pipelined(self, client: redis.Redis, first: Call, then: Call) -> list[Any]:
        """Two scripts in one round trip (one Redis), unguarded: each one's answer, or the
        exception it failed with (not raised: the caller decides what each failure means). A
        script the server did not know (``NoScriptError``: it did not run) is loaded for the
        next call."""
        calls = (first, then)
        async with client.pipeline(transaction=False) as pipe:
            for call in calls:
                pipe.evalsha(self.shas[call.script], len(call.keys), *call.keys, *self._argv(call))
            answers = await pipe.execute(raise_on_error=False)
        for call, answer in zip(calls, answers, strict=True):
            if isinstance(answer, NoScriptError):
                await client.script_load(self.texts[call.script])
        return [
            answer if isinstance(answer, Exception) else self.answer(call, answer)
            for call, answer in zip(calls, answers, strict=True)
        ]

    async def guard(self, work: Awaitable[T], client: Client, change: bool = False) -> T:
        """The work's answer, or StoreUnavailable for any failure of the store; for work that
        ``change``s a game, saying whether the change may have been applied all the same."""
        try:
            return await work
        except STORE_ERRORS as error:
            logger.warning("game store unavailable: %s", error)
            await forget_connections(error, client)
            raise StoreUnavailable(
                may_have_applied=may_have_run(error) if change else None
            ) from error


async def forget_connections(error: Exception, client: Client) -> None:
    """After a connection failure the pool's idle connections lead to the Redis that failed:
    drop them, so that the next request does not spend itself on one of them. (The cluster
    client does so itself, for the failed node only, and asks the cluster where the slots are
    before its next command.)"""
    if isinstance(client, redis.Redis) and isinstance(
        error, (RedisConnectionError, RedisTimeoutError)
    ):
        with suppress(*STORE_ERRORS):
            await client.connection_pool.disconnect(inuse_connections=False)
