"""The Redis store's side of games that last: deadlines that fall with nobody looking, and the
archive's outbox, on one Redis and on a cluster.

**Where it is kept.** Every game script ends with game.lua's ``lived``, in the game's own slot:
its pending deadline (a running clock's flag fall, a first move's deadline) in the slot's
``{T}:deadlines`` sorted set, and — in an archiving store — a game that has ended, whatever
ended it, in the slot's ``{T}:outbox`` once, by the same script that ended it (``keys.py``:
``T`` is a tag whose hash slot is the game's; on one Redis there is one slot, 0). The outbox
entry is therefore atomic with the ending: a process that dies right after a script ended a
game, before or after it answered, leaves the game in the outbox all the same.

Why per-slot sets, and not one global set: on a cluster a script may touch the keys of one slot
only, and the accounting's slot (``{adjudicator}``) is another node's, so an entry written
"after" the ending would be lost with a process that dies in between. Keeping the entry in the
game's own meta hash alone would be atomic too, but then finding the waiting games would mean a
SCAN of every key of every node; per-slot sets make the full search 16,384 small reads, and the
usual one a handful.

**Finding the slots that hold any.** A script answers what it changed (``wire.Settled``: the
instant the game went into the outbox, its new deadline), and the process that ran it writes a
hint to the accounting's slot soon after (``DUE_SLOTS``: slot -> the earliest deadline it may
hold; ``OUTBOX_SLOTS``: slot -> the oldest ending it may hold; ``ZADD LT``): an ending's
before the request that ended the game is answered (``told``), so that every process lists it
from then on; a deadline's at the sweep's next tick, within a quarter of a second. A hint
lost with a process that died in between is found by a pass over every slot, a few slots each
tick (every slot within ``FULL_PASS_SECONDS``).
A slot's hint is rewritten after its set changed by another process's removal, then the set
read again, so that an addition racing with it is never lost.

**The sweep** (a task of every store process, started with its first use): each tick, the
slots whose earliest deadline has come, by this process's clock (a deadline the store's clock
has not reached yet is looked at again next tick), and in each the games due, each read
through the store's ordinary state script: its ``settle`` ends the game exactly as a request
would (counted in ``endings``, announced to its streams), and ``lived`` puts it in the outbox.
Several processes may sweep one game at once: the script ends it once.

**The accounting.** A game's instant in the accounting's live games (``accounts.py``) follows
it: its deadline plus the idle time while one is pending, ``FAR_MS`` while it waits in the
outbox (so a waiting game keeps counting against ``max_games`` and its owner's share), the idle
time from its archiving after. So the outbox is bounded by the games the store already bounds.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from typing import Any

from app.sessions.errors import GameNotFound, StoreUnavailable
from app.stores.redis.accounts import FAR_MS, MoveAccounts
from app.stores.redis.cluster import Client
from app.stores.redis.keys import (
    CLUSTER_SLOTS,
    DUE_SLOTS,
    OUTBOX_SLOTS,
    game_keys,
    slot_keys,
    slot_of,
    slot_tag,
)
from app.stores.redis.scripts import Call, ScriptRunner
from app.stores.redis.wire import ArchivedArgs

logger = logging.getLogger("app.sessions.redis")

TICK_SECONDS = 0.25  # how often each process looks for deadlines that came
FULL_PASS_SECONDS = 60.0  # every slot is read within this, for hints a dead process lost
DUE_PER_TICK = 64  # slots, and games of a slot, settled per tick at most (the rest: next tick)
SLOTS_PER_READ = 16  # outbox slots read in one round trip
META_PREFIX, META_SUFFIX = "{game:", "}:meta"
STORE_TIME = "return redis.call('TIME')"  # on the node of its one key's slot


def game_of_meta(meta_key: str) -> str:
    return meta_key[len(META_PREFIX) : -len(META_SUFFIX)]


class Life:
    """This process's side of the deadlines and the outbox of a Redis store."""

    def __init__(
        self,
        client: Client,
        runner: ScriptRunner,
        accounts: MoveAccounts,
        *,
        cluster: bool,
        archive: bool,
        idle_ms: int,
        clock: Callable[[], float],
        caller_time: bool = False,
        settle: Callable[[str], Awaitable[object]],
    ) -> None:
        """``settle``: read the game through a game script (its deadline, if due, falls);
        ``caller_time``: the games' clocks run on ``clock`` (scripts.py: tests), else on the
        store's time, which the sweep then asks the store for. On the caller's time the sweep
        writes hints and keeps the outbox's pass, but ends no game itself: that clock moves
        only as the caller's requests say, and a game's deadline falls when a request reads
        it, as the memory store's does under the same clock (the stores' differential test)."""
        self.caller_time = caller_time
        self.client, self.runner, self.accounts = client, runner, accounts
        self.cluster, self.archive, self.idle_ms = cluster, archive, idle_ms
        self.clock, self.settle = clock, settle
        self.slots = CLUSTER_SLOTS if cluster else 1
        slot_tag(0)  # the slots' tags, found once (some 0.1 s), before any request waits
        self.per_tick = max(1, math.ceil(self.slots * TICK_SECONDS / FULL_PASS_SECONDS))
        self.ended = asyncio.Event()
        self._due_hints: dict[int, int] = {}
        self._outbox_hints: dict[int, int] = {}
        self._flushing = asyncio.Lock()  # one flush at a time: a reader waits for the one on
        self._next_slot = 0  # the full pass's
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    # --- what the scripts said ---------------------------------------------------------------

    def keys_of(self, meta_key: str) -> list[str]:
        """The deadlines and outbox of the slot of the game whose meta key this is (the last
        KEYS of every game script)."""
        return list(slot_keys(slot_of(game_of_meta(meta_key), self.cluster)))

    def seen(self, meta_key: str, ended: int, due: int) -> None:
        """A game script's ``lived``: the game went into the outbox at ``ended`` (ms; 0: it did
        not), its deadline is now ``due`` (0: unchanged)."""
        game_id = game_of_meta(meta_key)
        slot = slot_of(game_id, self.cluster)
        if due:
            self._due_hints[slot] = min(due, self._due_hints.get(slot, due))
            self.accounts.lives_until(game_id, due + self.idle_ms)
        if ended:
            self._outbox_hints[slot] = min(ended, self._outbox_hints.get(slot, ended))
            self.accounts.lives_until(game_id, FAR_MS)
            self.ended.set()
        self.start()

    async def told(self) -> None:
        """After a request's script: an ending it put in the outbox is hinted before the
        request is answered (one round trip, once a game), so that every process's
        ``unarchived`` lists it from then on. A failure leaves the hint to the sweep's next
        tick (the ending is stored all the same)."""
        if self._outbox_hints:
            with suppress(StoreUnavailable):
                await self.flush()

    # --- the sweep ---------------------------------------------------------------------------

    def start(self) -> None:
        """The sweep runs (from the first use of the store on a running event loop)."""
        if self._closed:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = self._task
        if task is not None and not task.done() and task.get_loop() is loop:
            return  # (one of another loop, which has stopped, is replaced)
        self._task = asyncio.create_task(self._sweeping())

    async def close(self) -> None:
        self._closed = True
        task = self._task
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        with suppress(StoreUnavailable):
            await self.flush()

    async def _sweeping(self) -> None:
        # Until closed: a cancellation a client swallows (turned into a connection error)
        # still ends it at the next tick.
        while not self._closed:
            try:
                await self.sweep()
            except StoreUnavailable:
                pass  # logged by the guard; the next tick tries again
            except Exception:  # the sweep must outlive any one failure
                logger.exception("the deadline sweep failed (it goes on)")
            await asyncio.sleep(TICK_SECONDS)

    async def _guard(self, work: Awaitable[Any]) -> Any:
        return await self.runner.guard(work, self.client)

    async def flush(self) -> None:
        """The hints of this process's scripts, written (``ZADD LT``: earlier ones win); once
        this returns, every hint taken before it was called is written."""
        async with self._flushing:
            await self._flush()

    async def _flush(self) -> None:
        due, outbox = self._due_hints, self._outbox_hints
        if not due and not outbox:
            return
        self._due_hints, self._outbox_hints = {}, {}
        try:
            for slot, at in due.items():
                await self._guard(self.client.zadd(DUE_SLOTS, {str(slot): at}, lt=True))
            for slot, at in outbox.items():
                await self._guard(self.client.zadd(OUTBOX_SLOTS, {str(slot): at}, lt=True))
        except StoreUnavailable:
            for slot, at in due.items():
                self._due_hints[slot] = min(at, self._due_hints.get(slot, at))
            for slot, at in outbox.items():
                self._outbox_hints[slot] = min(at, self._outbox_hints.get(slot, at))
            raise

    async def sweep(self) -> None:
        """One tick: the hints written, the games whose deadline came ended, a few slots of the
        full pass read."""
        await self.flush()
        if not self.caller_time:  # (see __init__)
            now = await self._store_now_ms()
            slots = await self._guard(
                self.client.zrange(DUE_SLOTS, "-inf", now, byscore=True, offset=0, num=DUE_PER_TICK)
            )
            for slot in slots:
                await self._sweep_slot(int(slot), now)
        await self._pass_some()

    async def _store_now_ms(self) -> int:
        """The time the games' clocks run on: the store's (asked of the accounting slot's node,
        so that a process whose own clock is off sweeps neither early nor late), or the
        caller's."""
        if self.caller_time:
            return self._now_ms()
        seconds, micros = await self._guard(self.client.eval(STORE_TIME, 1, DUE_SLOTS))
        return int(seconds) * 1000 + int(micros) // 1000

    async def _sweep_slot(self, slot: int, now: int) -> None:
        deadlines = slot_keys(slot).deadlines
        due = await self._guard(
            self.client.zrange(deadlines, "-inf", now, byscore=True, offset=0, num=DUE_PER_TICK)
        )
        for game_id in due:
            try:
                await self.settle(game_id)
            except GameNotFound:  # gone (deleted, evicted): its deadline with it
                await self._guard(self.client.zrem(deadlines, game_id))
            except StoreUnavailable:  # logged; this game next tick, the others now
                continue
        await self._rehint(DUE_SLOTS, deadlines, slot)

    async def _rehint(self, hints: str, entries: str, slot: int) -> None:
        """The slot's hint anew from its set's first entry (or none), then the set read again:
        an entry another process added meanwhile is hinted (``ZADD LT``), never lost."""
        head = await self._guard(self.client.zrange(entries, 0, 0, withscores=True))
        if head:
            await self._guard(self.client.zadd(hints, {str(slot): head[0][1]}))
        else:
            await self._guard(self.client.zrem(hints, str(slot)))
        again = await self._guard(self.client.zrange(entries, 0, 0, withscores=True))
        if again and (not head or again[0][1] < head[0][1]):
            await self._guard(self.client.zadd(hints, {str(slot): again[0][1]}, lt=True))

    async def _pass_some(self) -> None:
        """The full pass's next slots: each one's earliest deadline and oldest ending hinted."""
        first = self._next_slot
        slots = range(first, min(first + self.per_tick, self.slots))
        self._next_slot = slots.stop % self.slots
        async with self.client.pipeline(transaction=False) as pipe:
            for slot in slots:
                keys = slot_keys(slot)
                pipe.zrange(keys.deadlines, 0, 0, withscores=True)
                pipe.zrange(keys.outbox, 0, 0, withscores=True)
            heads = await self._guard(pipe.execute())
        for slot, deadline, ending in zip(slots, heads[::2], heads[1::2], strict=True):
            if deadline:
                await self._guard(self.client.zadd(DUE_SLOTS, {str(slot): deadline[0][1]}, lt=True))
            if ending and self.archive:
                await self._guard(
                    self.client.zadd(OUTBOX_SLOTS, {str(slot): ending[0][1]}, lt=True)
                )

    # --- the outbox --------------------------------------------------------------------------

    async def unarchived(self, limit: int) -> list[str]:
        """The oldest endings waiting, at most ``limit``: the slots read in the order of their
        hints (each at most its oldest ending: ``_rehint``, ``ZADD LT``), a few at a time, until
        the next slot's hint is later than the ``limit``-th oldest ending read (no slot after it
        can hold an older one). Only the first ``limit`` slots can hold one of the ``limit``
        oldest, so at most those are read."""
        if not self.archive or limit < 1:
            return []
        self.start()
        await self.flush()
        hinted = await self._guard(self.client.zrange(OUTBOX_SLOTS, 0, limit - 1, withscores=True))
        waiting: list[tuple[float, str]] = []
        for first in range(0, len(hinted), SLOTS_PER_READ):
            batch = [int(slot) for slot, _ in hinted[first : first + SLOTS_PER_READ]]
            async with self.client.pipeline(transaction=False) as pipe:
                for slot in batch:
                    pipe.zrange(slot_keys(slot).outbox, 0, limit - 1, withscores=True)
                found = await self._guard(pipe.execute())
            for slot, entries in zip(batch, found, strict=True):
                if not entries:
                    await self._rehint(OUTBOX_SLOTS, slot_keys(slot).outbox, slot)
                waiting += [(score, game_id) for game_id, score in entries]
            waiting = sorted(waiting)[:limit]
            following = first + SLOTS_PER_READ
            if len(waiting) == limit and (
                following >= len(hinted) or waiting[-1][0] <= hinted[following][1]
            ):
                break
        return [game_id for _, game_id in waiting]

    async def archived(self, game_ids: Sequence[str]) -> None:
        """Each game leaves its slot's outbox and expires ``idle_ms`` from now (archived.lua);
        the accounting and the slots' hints are told."""
        if not self.archive:
            return
        self.start()
        slots: set[int] = set()
        for game_id in dict.fromkeys(game_ids):
            slot = slot_of(game_id, self.cluster)
            keys = [*game_keys(game_id), slot_keys(slot).outbox]
            call = Call("archived", keys, ArchivedArgs(idle_ms=self.idle_ms))
            if int(await self.runner.run(self.client, call)):
                self.accounts.lives_until(game_id, self._now_ms() + self.idle_ms, exact=True)
            slots.add(slot)
        with suppress(StoreUnavailable):  # else with the next report, within a second
            await self.accounts.report()
        for slot in slots:
            await self._rehint(OUTBOX_SLOTS, slot_keys(slot).outbox, slot)
