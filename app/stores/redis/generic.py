"""The Redis store's generic engine: a move or a takeback offer decided in Python, on any kind.

It reads what the decision needs (``read.lua``), lets the same ``Session.play`` / ``Session.act``
the memory store runs decide on it, then writes the outcome with ``commit.lua`` — applied only
if the game is still at the version that was read (compare-and-set), with the idempotency
receipt and the event publish in the same script. On a conflict (another process moved in
between) the request is read and decided again. Two round trips; one when this process wrote
the game last (it keeps a copy: ``_decide_on_kept``). The position holds no history: the move
list does, so a move costs the same at move 60 as at move 2.

A refusal changes nothing and is raised as the same exception the in-memory store raises;
Python never writes a game it has not just compared.
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

from app.rules.errors import DomainError
from app.sessions.errors import CapacityExhausted, GameNotFound, MoveNotFound, StoreUnavailable
from app.sessions.exchange import (
    ActionRequest,
    ActionResult,
    GameState,
    LegalMovesPage,
    MoveRequest,
    MoveResult,
)
from app.sessions.kind import KindRegistry, Move
from app.sessions.past import result_at
from app.sessions.receipts import ANY_VERSION, Answered, receipt_key, receipt_text
from app.sessions.session import Session
from app.stores.redis.accounts import MoveAccounts
from app.stores.redis.cluster import Client
from app.stores.redis.codec import (
    outcome_fields,
    record_read,
    session_read,
    state_read,
    takeback_fields,
)
from app.stores.redis.keys import channel, game_keys
from app.stores.redis.scripts import Call, ScriptRunner
from app.stores.redis.wire import (
    Accepted,
    CommitArgs,
    Conflict,
    ReadArgs,
    ReadReply,
    ReceiptFound,
    Refused,
    decode,
    refusal_of,
)

T = TypeVar("T")

# Reads and decisions of one move before giving up under contention.
MAX_ATTEMPTS = 32
# The last moves' records a takeback reads with the game first (its own move and the reply,
# and more), and how read.lua is asked for all of them.
TAKEBACK_RECORDS = 8
ALL_RECORDS = -1


class _DecideAgain(Exception):
    """The game, or this request's receipt, changed since it was read: read and decide again."""


class _ReadEveryRecord(Exception):
    """The decision reaches past the moves' records read with the game: read them all."""


class GenericEngine:
    """The generic engine of one store: its moves, takeback offers and pages of legal moves, and
    the games this process last wrote (a bounded number), to decide their next move on."""

    def __init__(
        self,
        kinds: KindRegistry,
        client: Client,
        scripts: ScriptRunner,
        accounts: MoveAccounts,
        *,
        max_refusals: int,
        idle_ms: int,
        kept_games: int,
        accepted: Callable[[str, list[Any]], MoveResult],
        read_state: Callable[[str], Awaitable[GameState]],
        read_moves: Callable[[str, int, int], Awaitable[tuple[list[Move], int]]],
    ) -> None:
        """``accepted`` answers a move a script accepted (the store counts it); ``read_state``
        and ``read_moves`` are the store's reads, for a replay."""
        self.kinds = kinds
        self.client = client
        self.scripts = scripts
        self.accounts = accounts
        self.max_refusals = max_refusals
        self.idle_ms = idle_ms
        self.accepted = accepted
        self.read_state = read_state
        self.read_moves = read_moves
        # Games as this process last wrote them, to decide the next move without reading them
        # first (``_decide_on_kept``); least recently written dropped first.
        self.kept_games = kept_games
        self._kept: OrderedDict[str, tuple[Session, int]] = OrderedDict()

    def forget(self, game_id: str) -> None:
        """The game changed by other means (or is gone): its copy is no longer this process's."""
        self._kept.pop(game_id, None)

    async def legal_moves(self, game_id: str, after: int, limit: int) -> LegalMovesPage:
        """The game read as a move reads it (read.lua: a position whose text does not grow with
        its moves), and the page the same ``Session`` as the memory store answers."""
        keys = game_keys(game_id)
        read = Call("read", [keys.meta, keys.receipts, keys.moves], ReadArgs(channel(game_id)))
        found = await self.scripts.run(self.client, read)
        if not found:
            raise GameNotFound(game_id)
        session, _ = session_read(self.kinds, game_id, ReadReply(*found), self.max_refusals, None)
        return session.legal_moves(after, limit)

    async def move(
        self, game_id: str, token: str, request: MoveRequest, full: CapacityExhausted | None
    ) -> MoveResult:
        """A move: decided on this process's copy of the game when it wrote it last, else on
        the game as read; at the store's most moves (``full``) only a replay is answered."""
        if full is None:
            decided = await self._decide_on_kept(game_id, token, request)
            if decided is not None:
                return decided

        async def decide(session: Session, version: int) -> MoveResult:
            if full is not None and not session.answered(request, token):
                raise full  # only a replay is answered at the bound
            answered = session.answered_seq(request, token)
            if answered is not None:  # rebuilt from the move's record, its version and clocks
                return await self._replay(game_id, answered)
            refusals = session.refusals
            try:
                result = session.play(request, token)
            except DomainError:
                refused = partial(self._commit, session, token, version, request, None)
                await self._remember(session, refusals, refused)
                raise
            answer = await self._commit(session, token, version, request, result)
            if not isinstance(answer, Accepted):
                raise _DecideAgain
            self._keep(game_id, session, version + 1)
            return self.accepted(game_id, answer.state)

        return await self._read_and_decide(game_id, request, decide, "move")

    async def _read_and_decide(
        self, game_id: str, request: MoveRequest | ActionRequest,
        decide: Callable[[Session, int], Awaitable[T]], what: str, records: int = 0,
    ) -> T:  # fmt: skip
        """The generic engine's loop: read the game (read.lua: with this request's receipts
        and, for a takeback, its last ``records`` moves' records), let ``decide`` decide on it
        and commit what it decided — commit.lua writes only if the game is still at the version
        read — and read and decide again if it was not (``_DecideAgain``), or if ``decide``
        needs every record (``_ReadEveryRecord``)."""
        keys = game_keys(game_id)
        key = request.idempotency_key
        fields = [f"1:{key}", f"2:{key}"] if key is not None else []
        for attempt in range(MAX_ATTEMPTS):
            if attempt:  # another process changed the game in between: let it finish
                await asyncio.sleep(random.uniform(0, 0.001 * attempt))
            read_call = Call(
                "read", [keys.meta, keys.receipts, keys.moves],
                ReadArgs(channel(game_id), records), fields,
            )  # fmt: skip
            found = await self.scripts.run(self.client, read_call)
            if not found:
                raise GameNotFound(game_id)
            session, read_version = session_read(
                self.kinds, game_id, ReadReply(*found), self.max_refusals, request
            )
            try:
                return await decide(session, read_version)
            except _ReadEveryRecord:
                records = ALL_RECORDS
            except _DecideAgain:
                pass
        raise StoreUnavailable(f"the game changed too often while this {what} was decided; retry")

    @staticmethod
    async def _remember(
        session: Session, refusals: int, commit: Callable[[], Awaitable[tuple[Any, ...]]]
    ) -> None:
        """A refusal the session decided: written by ``commit`` if the session remembers it
        (its receipt, under the request's key), and to decide again if the game or the
        receipt changed since the read; nothing to write otherwise (the caller re-raises)."""
        if session.refusals == refusals:
            return  # not remembered: nothing to write
        answer = await commit()
        if isinstance(answer, (Conflict, ReceiptFound)):
            raise _DecideAgain  # the game, or this request's receipt, changed

    async def _replay(self, game_id: str, answered: Answered) -> MoveResult:
        """The answer a move got, again: its record is in the move list, or (taken back since)
        kept by the takeback in the receipts hash."""
        moves, _ = await self.read_moves(game_id, answered.seq - 1, 1)
        now = await self.read_state(game_id)
        kind = self.kinds.find(now.kind)
        if not moves or answered.version not in (moves[0].changed, ANY_VERSION):
            read = self.client.hget(game_keys(game_id).receipts, f"t:{answered.version}")
            kept = await self.scripts.guard(read, self.client)
            if kept is None:  # a receipt written before takebacks, its move since taken back
                raise MoveNotFound(game_id, answered.seq)
            moves = [record_read(kind, answered.seq, str(kept))]  # (the client decodes)
        return result_at(moves[0], now, kind)

    async def _decide_on_kept(
        self, game_id: str, token: str, request: MoveRequest
    ) -> MoveResult | None:
        """The common move in one round trip: decided on this process's copy of the game as it
        last wrote it, and committed only if the game is still at that version (and, for a keyed
        request, has no receipt under its key). Anything else — a refusal (which may come from
        a copy another process has outdated), a replay, a conflict — is None: decide again on
        a fresh read."""
        kept = self._kept.pop(game_id, None)
        if kept is None:
            return None
        session, version = kept
        try:
            result = session.play(request, token)
        except DomainError:
            return None
        if result.replayed:
            return None
        answer = await self._commit(session, token, version, request, result)
        if not isinstance(answer, Accepted):
            return None
        self._keep(game_id, session, version + 1)
        return self.accepted(game_id, answer.state)

    def _keep(self, game_id: str, session: Session, version: int) -> None:
        """Remember the game as this process wrote it (a bounded number of games), without its
        receipts: a keyed request is checked against the store's (commit.lua) anyway."""
        session.receipts.clear()
        self._kept[game_id] = (session, version)
        if len(self._kept) > self.kept_games:
            self._kept.popitem(last=False)

    async def _commit(
        self, session: Session, token: str, version: int, request: MoveRequest,
        result: MoveResult | None,
    ) -> tuple[Any, ...]:  # fmt: skip
        """commit.lua's answer to the move ``result`` (None: its refusal, to remember)."""
        keys = game_keys(session.id)
        field = value = ""
        if request.idempotency_key is not None:
            player = session.player_of(token)
            kept = session.receipts.get(receipt_key(player, request.idempotency_key))
            if kept is not None:  # the store's receipts are under the key itself
                field, value = f"{player}:{request.idempotency_key}", receipt_text(kept)
        args = CommitArgs(
            version=version, receipt_field=field, receipt_value=value,
            most_refusals=self.max_refusals, ttl_ms=self.idle_ms, channel=channel(session.id),
            outcome="refused" if result is None else "accepted",
            **({} if result is None else outcome_fields(session, result)),
        )  # fmt: skip
        call = Call("commit", [keys.meta, keys.moves, keys.receipts], args)
        answer = decode(await self.accounts.with_move(call))
        if isinstance(answer, (Accepted, Refused, Conflict, ReceiptFound)):
            return answer
        raise refusal_of(session.id, answer, request)  # the game is gone

    async def takeback(self, game_id: str, token: str, request: ActionRequest) -> ActionResult:
        """A takeback offer in a generic-engine game: decided in Python by the same
        ``Session.act`` the memory store runs, on the game as read with its last moves'
        records (all of them when those were too few: a player's replies after its
        passes), and written by commit.lua only if the game is still at the version read."""

        async def decide(session: Session, version: int) -> ActionResult:
            standing, refusals = session.takeback_offer, session.refusals
            try:
                result = session.act(request, token)
            except LookupError:  # it reaches past the records read: read them all
                raise _ReadEveryRecord from None
            except DomainError:
                refused = partial(self._commit_takeback, session, token, version, request, "")
                await self._remember(session, refusals, refused)
                raise
            if result.replayed:
                return result
            player = session.player_of(token)
            outcome = "stands" if standing == player else "offered" if standing is None else "taken"
            answer = await self._commit_takeback(session, token, version, request, outcome)
            if not isinstance(answer, Accepted):
                raise _DecideAgain
            self._kept.pop(game_id, None)
            return ActionResult(state_read(self.kinds, game_id, answer.state))

        return await self._read_and_decide(game_id, request, decide, "takeback", TAKEBACK_RECORDS)

    async def _commit_takeback(
        self, session: Session, token: str, version: int, request: ActionRequest, outcome: str
    ) -> tuple[Any, ...]:
        """commit.lua's answer to a takeback offer's ``outcome`` (``CommitArgs.outcome``;
        '': its refusal, to remember)."""
        keys = game_keys(session.id)
        field = value = ""
        if request.idempotency_key is not None:
            player = session.player_of(token)
            field, value = f"{player}:{request.idempotency_key}", request.fingerprint()
            kept = session.receipts.get(receipt_key(player, request.idempotency_key))
            if not outcome and kept is not None:
                value = receipt_text(kept)
        args = CommitArgs(
            version=version, receipt_field=field, receipt_value=value,
            most_refusals=self.max_refusals, ttl_ms=self.idle_ms, channel=channel(session.id),
            outcome=outcome or "refused", **takeback_fields(session, outcome),
        )  # fmt: skip
        call = Call("commit", [keys.meta, keys.moves, keys.receipts], args)
        answer = decode(await self.scripts.run(self.client, call, change=True))
        if isinstance(answer, (Accepted, Refused, Conflict, ReceiptFound)):
            return answer
        raise refusal_of(session.id, answer, request)  # the game is gone
