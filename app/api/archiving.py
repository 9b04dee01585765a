"""The archiver: every finished game, from its live store into the archive, once.

A store built to archive keeps each ended game in an outbox, written by the same atomic step
that ends it (``GameStore.unarchived``), and does not let it go until it is told the game is in
the archive (``GameStore.archived``). The archiver of each process takes games from there: the
one a request of this process just ended at once, before that request is answered
(``settle``), and every other (a flag that fell with nobody looking, a game another process
ended, one left waiting while the archive was down) from its loop (``run``), woken by the store
when a game ends here and every ``poll_seconds`` for those that end elsewhere. Writing a game is
idempotent by its id (``Archive.put``), so two archivers that take the same game, or one that
dies between the write and telling the store, archive it once.

A game is archived as the record route answered it at its end, in every format, signed, with
the listing's summary of it (``finished_of``).

The loop is the process's periodic work on the archive's database: each turn (the first at
start, once the schema is the newest) it runs its ``chores`` too — the pending games of offers
made and the expired seeks gone (``app.api.matches``) — and an archive that is down is tried
again for them as for the games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence

from app.contract.games import Kind
from app.contract.render import instant, names_json, players_json
from app.league.events import Result
from app.records.signing import KeyRing
from app.records.written import every_format
from app.records.wthor import WTHOR, WTHOR_MEDIA_TYPE, game_bytes, recorded_game
from app.sessions.errors import GameNotFound, StoreUnavailable
from app.sessions.exchange import GameState
from app.sessions.kind import Kinds
from app.sessions.store import GameStore, History
from app.stores.archive.archive import Archive, ArchivedRecord, Finished, Rated
from app.stores.archive.boards import BoardResult
from app.stores.archive.migrate import current, head, upgrade
from app.stores.archive.urls import shown

log = logging.getLogger("adjudicator.archive")

# Games taken from the outbox at a time.
BATCH = 100
# How long a request that ended a game waits for its archiving before it is answered anyway
# (the loop archives it later): an archive that is slow or down never holds up play for long.
SETTLE_SECONDS = 1.0
# How often the keys kept in the archive are read again (other processes' keys), and its games
# counted.
KEYS_SECONDS = 30.0
# How long the loop, woken by an ending, lets the request that ended it archive it first.
WAKE_SECONDS = 0.05
# How long a stopping process archives what waits before it goes (the rest waits in a live
# store that outlives it, for the next process; a memory store's go with it).
STOP_SECONDS = 2.0
# How often games past the retention are removed.
RETENTION_SECONDS = 3600.0
# The most waiting games the metrics count (a count past it says "at least").
WAITING_COUNTED = 10_000


def finished_of(
    kind: Kind, history: History, state: GameState, keys: KeyRing, readers: frozenset[str]
) -> Finished:
    """A finished game as the archive keeps it: its record in every format, and its summary
    (``GET /v1/archive/games``): its id, creation parameters, names, players, result, moves,
    times and hash chain (and the final score where its state has one: Reversi's)."""
    record, formats = every_format(kind, history, state, keys)
    written = [
        ArchivedRecord(name, kept.media_type, kept.body, kept.refused)
        for name, kept in formats.items()
    ]
    wthor = recorded_game(record)
    if wthor is not None:  # its 68 bytes in a WTHOR file, for the archive's .wtb export
        written.append(ArchivedRecord(WTHOR, WTHOR_MEDIA_TYPE, game_bytes(wthor)))
    now = record["state"]
    ended_ms = state.at_ms or 0
    created_ms = state.created_ms or ended_ms
    names = names_json(state.names)
    players = {seat: player for seat, player in players_json(state.players).items() if player}
    summary: dict[str, object] = {
        "id": state.id, **{k: v for k, v in record.items() if k not in ("moves", "state", "chain")},
        "names": names, "players": players, "status": state.status, "winner": state.winner,
        "reason": state.reason, "move_count": state.move_count,
        "created_at": instant(created_ms), "ended_at": instant(ended_ms), "chain": record["chain"],
    }  # fmt: skip
    if "final_score" in now:
        summary["final_score"] = now["final_score"]
    if state.pool is not None:
        summary["rated"], summary["pool"] = True, state.pool
    rule = history.params.get("rule")
    return Finished(
        id=state.id, game=kind.name, rule=None if rule is None else str(rule),
        status=state.status, winner=state.winner, reason=state.reason,
        move_count=state.move_count, created_ms=created_ms, ended_ms=ended_ms,
        private=state.private, summary=summary, records=written, readers=readers,
        names={seat: name for seat, name in enumerate(state.names, 1) if name is not None},
        players={int(seat): player for seat, player in players.items()},
        rated=rated_of(state), board=board_of(state, now),
    )  # fmt: skip


def board_of(state: GameState, now: Mapping[str, object]) -> tuple[str, BoardResult] | None:
    """A tournament's finished game's result as its board takes it: won, drawn, or — aborted,
    which only its first move's deadline does to a tournament's game — lost by the player whose
    move it was (a forfeit); with Reversi's final discs (``final_score``)."""
    if state.tournament is None:
        return None
    result: Result
    if state.status == "draw":
        result = "½-½"
    elif state.status == "won":
        result = "1-0" if state.winner == 1 else "0-1"
    else:  # aborted: the player to move never moved
        last = state.last_move
        result = "1-0" if last is not None and last.player == 1 else "0-1"
    score = now.get("final_score")
    discs = None
    if isinstance(score, Mapping):
        discs = (int(score["1"]), int(score["2"]))
    return state.tournament, BoardResult(result, discs)


def rated_of(state: GameState) -> Rated | None:
    """A finished rated game's result as its ratings see it; None for a game that is not
    rated, or ended with no result (aborted)."""
    first, second = state.players
    if state.pool is None or first is None or second is None:
        return None
    if state.status == "draw":
        return Rated(state.pool, (first, second), 0.5)
    if state.status == "won" and state.winner in (1, 2):
        return Rated(state.pool, (first, second), 1.0 if state.winner == 1 else 0.0)
    return None


class Archiver:
    """Archives the finished games of ``store`` into ``archive`` (see the module)."""

    def __init__(
        self,
        store: GameStore,
        archive: Archive,
        kinds: Kinds[Kind],
        keys: KeyRing,
        *,
        poll_seconds: float = 1.0,
        migrate: bool = True,
        retention_days: float = 0,
        clock: Callable[[], float] = time.time,
        chores: Sequence[Callable[[], Awaitable[None]]] = (),
    ) -> None:
        self.store, self.archive, self.kinds, self.keys = store, archive, kinds, keys
        self.chores = chores  # run each turn of the loop, after the games
        self.poll_seconds = poll_seconds
        self.migrate = migrate
        self.retention_days = retention_days
        self.size = 0  # games in the archive when last counted (``publish``)
        self.removed = 0  # games this process removed from it (retention)
        self._retained_at = -math.inf
        self.ready = False  # the archive's schema is the newest (``open``)
        self.clock = clock
        # The public keys of every key that signed a record in the archive (``publish``), for
        # ``GET /v1/keys``: records signed by a process that is gone still verify.
        self.published: list[dict[str, str]] = []
        self._published_at = -math.inf
        self.written = 0  # games this process wrote into the archive
        self.failures = 0  # attempts that found the archive or the store unavailable
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        # The games being archived by this process now: one archiving a game, whoever asks
        # (the request that ended it, the loop woken by its end).
        self._taking: dict[str, asyncio.Future[bool]] = {}
        # The archivings requests started and no longer wait for (``settle``): kept till done.
        self._settling: set[asyncio.Future[bool]] = set()

    async def open(self) -> None:
        """Bring the archive to the newest schema (SQLite always: the file is this process's
        own; PostgreSQL if ``migrate``, else check it is there: ``adjudicator db upgrade``
        makes it), or say why not: the loop tries again while finished games wait in the live
        store."""
        url = shown(self.archive.url)
        try:
            if self.archive.sqlite or self.migrate:
                await upgrade(self.archive)
            elif await current(self.archive) != head():
                log.error("archive: %s is not at the newest schema (%s): run `adjudicator db "
                          "upgrade`", url, head())  # fmt: skip
                return
        except StoreUnavailable:
            log.warning("archive: %s cannot be reached now; finished games wait until it can",
                        url)  # fmt: skip
            return
        self.ready = True
        log.info("archive: %s", url)
        with contextlib.suppress(StoreUnavailable):  # else the loop publishes it
            await self.publish()

    async def publish(self) -> None:
        """Keep this process's signing key in the archive (before it signs a record kept there),
        and read every key kept, at most every ``KEYS_SECONDS``."""
        now = self.clock()
        if now - self._published_at < KEYS_SECONDS:
            return
        await self.archive.keep_key(self.keys.current.jwk, int(now * 1000))
        self.published = await self.archive.keys()
        self.size = await self.archive.count()
        self._published_at = now

    async def retain(self) -> None:
        """Remove the games that ended more than ``retention_days`` ago, at most every
        ``RETENTION_SECONDS`` (none removed with 0: every game is kept)."""
        now = self.clock()
        if not self.retention_days or now - self._retained_at < RETENTION_SECONDS:
            return
        self._retained_at = now
        oldest = int((now - self.retention_days * 86_400) * 1000)
        removed = await self.archive.forget_before(oldest)
        if removed:
            self.removed += removed
            self.size = max(0, self.size - removed)
            log.info("archive: %d games that ended before %s removed", removed, instant(oldest))

    async def lag(self) -> tuple[int, float]:
        """What waits in the store's outbox: how many games (at most ``WAITING_COUNTED``), and
        how long the one that waited longest has waited, in seconds (0 for none)."""
        waiting = await self.store.unarchived(WAITING_COUNTED)
        if not waiting:
            return 0, 0.0
        try:
            oldest = await self.store.state(waiting[0])
        except GameNotFound:
            return len(waiting), 0.0
        ended = oldest.at_ms or int(self.clock() * 1000)
        return len(waiting), max(0.0, self.clock() - ended / 1000)

    async def archive_one(self, game_id: str) -> bool:
        """Archive the finished game ``game_id`` (if the store still has it) and let the store
        forget it: True if it is archived now (by this call or before). A game this process is
        archiving already is waited for, not archived again."""
        taking = self._taking.get(game_id)
        if taking is not None:
            try:
                return await asyncio.shield(taking)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():  # this call was cancelled
                    raise
                # The one archiving it was (the process is stopping): not archived by it.
                raise StoreUnavailable(may_have_applied=None) from None
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._taking[game_id] = future
        try:
            done = await self._archive(game_id)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a waiter may never come
            raise
        finally:
            del self._taking[game_id]
        future.set_result(done)
        return done

    async def _archive(self, game_id: str) -> bool:
        if not self.ready:
            raise StoreUnavailable(may_have_applied=False)
        try:
            state = await self.store.state(game_id)
        except GameNotFound:  # gone: archived and expired already
            await self.store.archived([game_id])
            return True
        if state.status == "in_progress":  # a takeback? never: a game's end is its last change
            return False
        await self.publish()
        history = await self.store.history(game_id)
        readers = await self.store.readers(game_id) if state.private else frozenset()
        kind = self.kinds.find(state.kind)
        finished = finished_of(kind, history, state, self.keys, readers)
        if await self.archive.put(finished, int(self.clock() * 1000)):
            self.written += 1
            self.size += 1
        await self.store.archived([game_id])
        return True

    async def settle(self, state: GameState) -> None:
        """Archive the game a request just ended, before it is answered, if that takes less than
        ``SETTLE_SECONDS`` (past it, the archiving goes on without the request); not while the
        archive is known to be down (``ready`` false since its last failure: the loop tries it
        again), so that an archive that is down never holds up a move."""
        if state.status == "in_progress" or not self.ready:
            return
        archiving = asyncio.ensure_future(self.archive_one(state.id))
        self._settling.add(archiving)
        archiving.add_done_callback(self._settled)
        await asyncio.wait({archiving}, timeout=SETTLE_SECONDS)

    def _settled(self, archiving: asyncio.Future[bool]) -> None:
        self._settling.discard(archiving)
        if archiving.cancelled():
            return
        if isinstance(archiving.exception(), StoreUnavailable):
            self.failures += 1
            self.ready = False  # the loop opens it again, and archives what waits

    async def drain(self) -> int:
        """Archive every game waiting in the store's outbox now: how many."""
        done = 0
        while True:
            waiting = await self.store.unarchived(BATCH)
            if not waiting:
                return done
            for game_id in waiting:
                done += await self.archive_one(game_id)
            if len(waiting) < BATCH:
                return done

    async def run(self) -> None:
        """Archive what waits, whenever a game ends here and every ``poll_seconds``; an archive
        or store that is down is tried again, waiting longer each time (up to a minute)."""
        pause = self.poll_seconds
        while not self._stopping:  # (a cancellation a store's client swallows ends it too)
            self.store.ended.clear()  # before the read: an ending after it sets it again
            try:
                if not self.ready:
                    await self.open()
                if self.ready:
                    await self.publish()
                    await self.drain()
                    await self.archive.checkpoint()  # the log of what requests wrote
                    await self.retain()
                    for chore in self.chores:
                        await chore()
                pause = self.poll_seconds
            except StoreUnavailable:
                self.failures += 1
                self.ready = False  # opened again first: requests do not wait for it meanwhile
                pause = min(60.0, pause * 2)
                log.warning("archive: unavailable, trying again in %.1f s", pause)
            except Exception:  # never let the loop die: log, and try again later
                self.failures += 1
                log.exception("archive: a game could not be archived")
                pause = min(60.0, pause * 2)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.store.ended.wait(), pause)
                # Woken by an ending: the request that ended it is archiving it (``settle``);
                # the loop comes after, not beside it on the answer's path.
                await asyncio.sleep(WAKE_SECONDS)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run(), name="archiver")

    async def stop(self) -> None:
        """Stop the loop; archive what waits, if that takes little (a live store that
        outlives this process keeps the rest for the next)."""
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            # Bounded: a store's client may swallow the cancellation (as a connection error)
            # in the middle of a round; the loop then ends at its next turn, or is left.
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._task), STOP_SECONDS)
        with contextlib.suppress(StoreUnavailable, TimeoutError):
            await asyncio.wait_for(self.drain(), STOP_SECONDS)
