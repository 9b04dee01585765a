"""The Redis store's script runner: each script's text, built once, and every call of it.

A script's text is its prelude (``PUBLISH``: ``SPUBLISH`` on a cluster, the game's own slot;
the time, ``now_ms``; its arguments and answers by name, from ``wire.py``), then
``game.lua`` (and ``cells.lua`` for one that changes a fast path's cells) for a script that
reads or changes a game (run as the function ``answer``, then game.lua's ``lived``: the game's
deadline and outbox entry kept in its slot's sorted sets, the last two KEYS the runner adds to
the script's own, ``keys.slot_keys``; the answer comes back as ``REPLY.settled``: whether a flag
fell in it, the answer, and ``lived``'s hints) or ``accounts.lua`` for the store's accounting,
then the script itself.

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


def script_text(
    script: Script,
    publish: str = "PUBLISH",
    caller_time: bool = False,
    *,
    archive: bool = False,
    idle_ms: int = 3_600_000,
) -> str:
    """The text Redis runs for ``script`` (ValueError if it names what its record does not);
    a game script's keeps its game's life as a store that ``archive``s or not, whose games
    live ``idle_ms`` past their deadlines, keeps it (game.lua's ``lived``)."""
    body = _lua(script.name)
    if script.game:
        lib = _lua("game") + (_lua("cells") if script.cells else "")
        life = (
            "local OUTBOX = table.remove(KEYS)\nlocal DEADLINES = table.remove(KEYS)\n"
            f"local ARCHIVE = {'true' if archive else 'false'}\nlocal IDLE_MS = {int(idle_ms)}\n"
        )
        body = (
            f"{life}{lib}local function answer()\n{body}\nend\n"
            "local answered = answer()\n"
            "local ended, due = lived(KEYS[1], now_ms())\n"
            "return REPLY.settled{fell = settled or 0, answer = answered, ended = ended,"
            " due = due}\n"
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
        life_keys: Callable[[str], Sequence[str]] = lambda game_meta: (),
        on_life: Callable[[str, int, int], None] = lambda game_meta, ended, due: None,
        archive: bool = False,
        idle_ms: int = 3_600_000,
    ) -> None:
        """``life_keys``: the deadlines and outbox keys of the slot of the game whose meta key
        is given; ``on_life``: told, after each game script, of its meta key, the instant it
        went into the outbox (0: it did not now) and its deadline if that changed (0: it did
        not, or it has none)."""
        self.caller_time = caller_time
        self.clock = clock
        self.on_flag_fall = on_flag_fall
        self.life_keys, self.on_life = life_keys, on_life
        self.texts = {
            name: script_text(s, publish, caller_time, archive=archive, idle_ms=idle_ms)
            for name, s in SCRIPTS.items()
        }
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

    def _keys(self, call: Call) -> list[str]:
        """The script's keys; a game script's, and its game's slot's deadlines and outbox."""
        keys = list(call.keys)
        if SCRIPTS[call.script].game:
            keys += self.life_keys(keys[0])
        return keys

    def answer(self, call: Call, answer: Any) -> Any:
        """A script's own answer: the ending a game script applied by itself (a flag fall, a
        first move's deadline) counted, its answer handed on."""
        if not SCRIPTS[call.script].game:
            return answer
        settled = Settled(*answer)
        if settled.fell:
            self.on_flag_fall(str(settled.fell))
        if settled.ended or settled.due:
            self.on_life(call.keys[0], int(settled.ended), int(settled.due))
        return settled.answer

    async def run(self, client: Client, call: Call, *, change: bool = False) -> Any:
        """The script's answer (a game script's own: see ``answer``)."""
        return self.answer(call, await self.guard(self._evalsha(client, call), client, change))

    async def _evalsha(self, client: Client, call: Call) -> Any:
        argv, keys = self._argv(call), self._keys(call)
        for _ in range(2):
            try:
                return await client.evalsha(self.shas[call.script], len(keys), *keys, *argv)
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
                keys = self._keys(call)
                pipe.evalsha(self.shas[call.script], len(keys), *keys, *self._argv(call))
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
