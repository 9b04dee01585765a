"""The Redis store's move accounting: how many moves all processes hold, and each client's share.

Moves of all processes are counted in the accounting slot (``keys.ACCOUNTS``): each process
reports the moves it accepted with its next move (on one Redis, pipelined with it: ``touch.lua``)
or within a second (on a cluster that slot is one node's, so always in the background), and knows
the total, and the counts of the owners it moved for, as of its last report or creation
(``reserve.lua``). So the bounds hold within the moves in flight between reports; the accounting's
own failure never undoes or hides a move's answer.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter, OrderedDict
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import redis.asyncio as redis
from redis.exceptions import NoScriptError

from app.sessions.errors import CapacityExhausted, StoreUnavailable
from app.sessions.store import CLIENT_MOVES, NETWORK_MOVES, network_of
from app.stores.redis.cluster import Client
from app.stores.redis.keys import ACCOUNTS
from app.stores.redis.scripts import Call, ScriptRunner
from app.stores.redis.wire import (
    AccountsReply,
    ForgetArgs,
    ReserveArgs,
    ReserveReply,
    Shares,
    TouchArgs,
)

# A report: game id -> (moves accepted since the last one, the game's owner, the instant it
# lives until: '' for the idle time from the report, ms, or minus ms for an exact instant that
# may end a wait in the outbox: accounts.lua's ``report``).
Reports = dict[str, tuple[int, str, str]]
# The instant a game waiting in the archive's outbox lives until (ms): never, in practice
# (accounts.lua's FAR).
FAR_MS = 9_000_000_000_000_000


def seconds(milliseconds: object) -> int:
    """A Retry-After: whole seconds, at least one."""
    return max(1, math.ceil(int(str(milliseconds)) / 1000))


class MoveAccounts:
    """This process's side of the accounting."""

    def __init__(
        self,
        runner: ScriptRunner,
        client: Client,
        *,
        clock: Callable[[], float],
        max_games: int,
        max_unstarted: int,
        max_total_moves: int,
        client_games: int,
        network_games: int,
        client_moves: int,
        network_moves: int,
        idle_ms: int,
        unstarted_ms: int,
    ) -> None:
        self.runner, self.client, self.clock = runner, client, clock
        self.max_games = max_games
        self.max_unstarted = max_unstarted
        self.max_total_moves = max_total_moves
        self.client_games, self.network_games = client_games, network_games
        self.client_moves, self.network_moves = client_moves, network_moves
        self.idle_ms = idle_ms
        self.unstarted_ms = unstarted_ms
        self._unreported: Reports = {}
        # By owner and by network: moves not yet reported.
        self._unreported_owned: Counter[str] = Counter()
        self._total_moves = 0  # as last read
        # Owners' and networks' moves as the accounting last said: those at their share, and
        # the counts of the owners (and networks) of games this process moved in (at most
        # max_games of each: an owner has a live game).
        self._heavy: set[str] = set()
        self._owned: OrderedDict[str, int] = OrderedDict()
        # When this process last read the total ("") or an owner's moves, to let moves on.
        self._recounted: OrderedDict[str, float] = OrderedDict()
        self._reporter: asyncio.Task[None] | None = None

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def close(self) -> None:
        if self._reporter is not None:
            self._reporter.cancel()
            with suppress(asyncio.CancelledError):
                await self._reporter
        with suppress(StoreUnavailable):
            await self.report()  # the moves accepted since the last report

    # --- places and counts -----------------------------------------------------------------

    async def reserve(
        self,
        game_id: str,
        owner: str = "",
        moves: int = 0,
        evicted: str = "",
        evicted_started: bool = False,
        may_evict: bool = False,
    ) -> ReserveReply:
        """reserve.lua: the moves accepted since the last report counted (this process's own
        moves count before its own creations), the game ``evicted`` (named by the last answer)
        forgotten — or kept as a started one, ``evicted_started`` — expired games forgotten,
        then a place for ``game_id`` (``''``: only recount) and its opening's ``moves``; or,
        ``may_evict``, the game that must give its place first (``ReserveReply.victim``)."""
        reports = self._take_reports()
        args = ReserveArgs(
            now=self._now_ms(), unstarted_ms=self.unstarted_ms, max_games=self.max_games,
            max_unstarted=self.max_unstarted, game_id=game_id, moves=moves,
            max_total_moves=self.max_total_moves, owner=owner, network=network_of(owner) or "",
            client_games=self.client_games, network_games=self.network_games,
            client_moves=self.client_moves, network_moves=self.network_moves,
            idle_ms=self.idle_ms, evicted=evicted, evicted_started="1" if evicted_started else "",
            may_evict="1" if may_evict else "",
        )  # fmt: skip
        try:
            found = await self.runner.run(
                self.client, Call("reserve", ACCOUNTS, args, self._tail(reports))
            )
        except StoreUnavailable:
            self._restore_reports(reports)
            raise
        answer = ReserveReply(*found)
        self._counted(answer.total, answer.shares)
        return answer

    async def forget(self, game_id: str) -> None:
        """A deleted game's place and moves given back (forget.lua)."""
        self._unreported.pop(game_id, None)
        args = ForgetArgs(
            game_id=game_id, client_moves=self.client_moves, network_moves=self.network_moves
        )
        answer = AccountsReply(*await self.runner.run(self.client, Call("forget", ACCOUNTS, args)))
        self._counted(answer.total, answer.shares)

    async def full(self, owner: str) -> CapacityExhausted | None:
        """The refusal of a new move while the store holds its most moves, or the game's owner
        (or its network) its share of them (as last read; read again at most once a second
        while at the bound, the total and each owner's share on its own, so that expired games
        free their moves), or None. The engines still answer a replay before refusing with
        it."""
        network = network_of(owner)

        def full() -> bool:
            unreported = sum(count for count, _, _ in self._unreported.values())
            return self._total_moves + unreported >= self.max_total_moves

        def over(name: str | None, share: int) -> bool:
            if name is None:
                return False
            owned = self._owned.get(name, 0) + self._unreported_owned[name]
            return name in self._heavy or owned >= share

        def over_share() -> CapacityExhausted | None:
            if over(owner, self.client_moves):
                return CapacityExhausted(self.client_moves, retry, CLIENT_MOVES)
            if over(network, self.network_moves):
                return CapacityExhausted(self.network_moves, retry, NETWORK_MOVES)
            return None

        retry = 1
        if over_share() is None and not full():
            return None
        which, now = owner if over_share() else "", self.clock()  # at most once a second each
        since = now - self._recounted.get(which, -math.inf)
        if not 0 <= since < 1:  # (a clock set back is no reason to wait)
            self._recounted.pop(which, None)
            self._recounted[which] = now
            while len(self._recounted) > self.max_games:
                self._recounted.popitem(last=False)
            with suppress(StoreUnavailable):  # the counts as last read decide, the move may fail
                retry = seconds((await self.reserve("", owner)).wait_ms)
        refusal = over_share()
        if refusal is not None:
            return refusal
        if full():
            return CapacityExhausted(self.max_total_moves, retry, "stored moves")
        return None

    # --- reports of accepted moves ---------------------------------------------------------

    def accepted(self, game_id: str, owner: str) -> None:
        count, _, expires = self._unreported.get(game_id, (0, owner, ""))
        self._unreported[game_id] = (count + 1, owner, expires)
        self._owe(owner, 1)
        self._soon()

    def lives_until(self, game_id: str, expires_ms: int, exact: bool = False) -> None:
        """The game lives until ``expires_ms`` at least (its deadline's, plus the idle time;
        ``FAR_MS``: it waits in the outbox), or, ``exact``, until then (it was archived): told
        with the next report."""
        count, owner, known = self._unreported.get(game_id, (0, "", ""))
        if not exact and known and abs(int(known)) >= expires_ms:
            return
        self._unreported[game_id] = (count, owner, str(-expires_ms if exact else expires_ms))
        self._soon()

    def _soon(self) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._reporter is None or self._reporter.done():
            self._reporter = asyncio.create_task(self._report_soon())

    async def _report_soon(self) -> None:
        """Report within a second the moves no later move of this process reported."""
        await asyncio.sleep(1)
        with suppress(StoreUnavailable):
            await self.report()

    async def report(self) -> None:
        if self._unreported:
            reports = self._take_reports()
            try:
                found = await self.runner.run(self.client, self._touch(reports))
            except StoreUnavailable:
                self._restore_reports(reports)
                raise
            answer = AccountsReply(*found)
            self._counted(answer.total, answer.shares)

    async def with_move(self, move: Call) -> Any:
        """A move script's answer, run in one round trip with the report of the moves accepted
        so far (one Redis: in a pipeline, since the accounting is another slot) or alone (a
        cluster: the report follows in the background). A failure is the move's: on a
        cluster, whether it may have been applied all the same (``change``); on one Redis, the
        pipeline's error, raised for the move's caller to say it."""
        if not isinstance(self.client, redis.Redis):
            return await self.runner.run(self.client, move, change=True)
        for _ in range(2):
            reports = self._take_reports()
            try:
                answer, total = await self.runner.pipelined(self.client, move, self._touch(reports))
            except BaseException:
                self._restore_reports(reports)
                raise
            if isinstance(total, Exception):
                self._restore_reports(reports)
            else:
                counted = AccountsReply(*total)
                self._counted(counted.total, counted.shares)
            if isinstance(answer, NoScriptError):  # the server restarted: the move did not run
                continue
            if isinstance(answer, Exception):
                raise answer
            return answer
        raise StoreUnavailable("the store keeps forgetting its scripts")

    def _owe(self, owner: str, count: int) -> None:
        """Moves not yet reported, of ``owner`` and of its network."""
        self._unreported_owned[owner] += count
        network = network_of(owner)
        if network is not None:
            self._unreported_owned[network] += count

    def _touch(self, reports: Reports) -> Call:
        args = TouchArgs(
            now=self._now_ms(), idle_ms=self.idle_ms, client_moves=self.client_moves,
            network_moves=self.network_moves,
        )  # fmt: skip
        return Call("touch", ACCOUNTS, args, self._tail(reports))

    @staticmethod
    def _tail(reports: Reports) -> list[str | int]:
        return [
            item
            for game_id, (count, _, expires) in reports.items()
            for item in (game_id, count, expires)
        ]

    def _counted(self, total: int, shares: list[Any]) -> None:
        """What an accounting script answered: the total of moves held, and the owners' shares
        (those at their share, and the moves of the owners asked)."""
        heavy, owned = Shares(*shares)
        self._total_moves = int(total)
        self._heavy = {str(owner) for owner in heavy}
        for owner, count in zip(owned[::2], owned[1::2], strict=True):
            self._owned[str(owner)] = int(count)
            self._owned.move_to_end(str(owner))
        while len(self._owned) > 2 * self.max_games:  # owners and networks
            self._owned.popitem(last=False)

    def _take_reports(self) -> Reports:
        reports, self._unreported = self._unreported, {}
        self._unreported_owned.clear()
        return reports

    def _restore_reports(self, reports: Reports) -> None:
        for game_id, (count, owner, expires) in reports.items():
            kept, _, later = self._unreported.get(game_id, (0, owner, ""))
            self._unreported[game_id] = (kept + count, owner, later or expires)
            self._owe(owner, count)
