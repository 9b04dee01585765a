"""A GameStore on Redis: many service processes, on many hosts, share the same games.

Every unit of work is atomic (the keys: ``redis_keys.py``; the scripts: ``lua/*.lua``, shipped
with the package). A game's *engine* is chosen when it is created and kept in its meta hash:

* **generic** (any kind): read what the move needs (``read.lua``), let the same ``Session.play``
  the memory store uses decide it in Python, then write the outcome with ``commit.lua`` —
  applied only if the game is still at the version that was read (compare-and-set), with the
  idempotency receipt and the event publish in the same script. On a conflict (another process
  moved in between) the move is read and decided again. Two round trips.
* **a fast path** (a kind that has one for these parameters: n × n tic-tac-toe): one script
  checks and applies the move in O(1) on the server (``tictactoe_move.lua``), one round trip;
  the store contract suite runs on both engines.

A refused move changes nothing and is raised here as the same exception the in-memory store
raises. Python never writes a game it has not just compared.

The client does not retry on its own: a move whose reply was lost must not be applied twice, so
any connection failure or timeout is answered 503 ``store_unavailable`` at once. Scripts are
called by SHA and loaded again after a Redis restart (``NOSCRIPT``: the script did not run).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from importlib.resources import files
from typing import Any, TypeVar, cast, get_args

import redis.asyncio as redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.clock import ClockState, TimeControl
from app.sessions.errors import (
    CapacityExhausted,
    CellOccupied,
    GameNotFound,
    GameOver,
    IdempotencyKeyReused,
    MoveNotFound,
    NotYourTurn,
    OutOfBounds,
    PreconditionFailed,
    StoreUnavailable,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.kind import (
    ClockReading,
    GameKind,
    Move,
    Placement,
    Player,
    Reason,
    Status,
    Winner,
)
from app.sessions.kinds import REGISTRY, Kinds
from app.sessions.receipts import receipt_from, receipt_text
from app.sessions.redis_cluster import (
    CLOSED_UNDER,
    STORE_ERRORS,
    BoundedCluster,
    Client,
    ShardedListener,
    connect,
    is_cluster,
    may_have_run,
)
from app.sessions.redis_keys import (
    ACCOUNTS,
    CHANNELS,
    LIVE_GAMES,
    READY,
    READY_MS,
    channel,
    game_keys,
    game_of,
    ready_key,
)
from app.sessions.session import (
    ActionRequest,
    ActionResult,
    Ending,
    GameState,
    MoveRequest,
    MoveResult,
    Receipt,
    Session,
    player_by_hash,
    receipt_key,
    result_at,
)
from app.sessions.store import (
    CLIENT_GAMES,
    CLIENT_MOVES,
    Changes,
    CreatedGame,
    Seat,
    client_part,
)
from app.sessions.watchers import SharedReads, Watchers, until
from app.settings import DEFAULT_MAX_MOVES, DEFAULT_MAX_REFUSALS, DEFAULT_MAX_TOTAL_MOVES

logger = logging.getLogger("app.sessions.redis")

T = TypeVar("T")


def _lua(name: str) -> str:
    return files("app.sessions").joinpath("lua", f"{name}.lua").read_text(encoding="utf-8")


# Scripts that read or change a game run after game.lua (its clocks, flag falls and state), as
# a function whose answer comes back as {1 if a flag fell in the script else 0, the answer}:
# ``RedisGameStore._settled`` counts the ending and hands on the answer.
GAME_SCRIPTS = {"state", "changes", "moves", "read", "commit", "act", "tictactoe_move"}
# Scripts of the store's accounting run after accounts.lua (forgetting a game, expiring games).
ACCOUNT_SCRIPTS = {"reserve", "touch", "forget"}


def _script(name: str, publish: str = "PUBLISH") -> str:
    """A script's text, after the command that announces a change: ``PUBLISH`` on one Redis,
    ``SPUBLISH`` (sharded, in the game's own slot) on a cluster."""
    head = f"local PUBLISH = '{publish}'\n"
    if name in ACCOUNT_SCRIPTS:
        return head + _lua("accounts") + _lua(name)
    if name not in GAME_SCRIPTS:
        return head + _lua(name)
    return (
        f"{head}{_lua('game')}local function answer()\n{_lua(name)}\nend\n"
        "local answered = answer()\nreturn {settled and 1 or 0, answered}\n"
    )


@dataclass(frozen=True)
class FastPath:
    """A kind's O(1) script: for which parameters it applies, and the meta fields it reads."""

    script: str
    applies: Callable[[Mapping[str, object]], bool]
    fields: Callable[[Mapping[str, object]], dict[str, object]]


# Fast paths by kind name; every other game takes the generic engine.
FAST_PATHS = {
    "tictactoe": FastPath(
        "tictactoe_move", lambda params: True, lambda p: {"n": p["n"], "k": p.get("k", p["n"])}
    ),
}
GENERIC = "generic"

# The refusals of the tic-tac-toe script and of act.lua (their answers, and their receipts) by
# code: the exception, rebuilt for the request that is asked (again: same key and body).
Decode = Callable[[list[str], MoveRequest | ActionRequest], DomainError]


def _cell(request: MoveRequest | ActionRequest) -> Placement:
    assert isinstance(request, MoveRequest), "only a move has a cell"
    return Placement.of(request.played)


SCRIPT_REFUSALS: dict[str, Decode] = {
    "wrong_player": lambda a, r: WrongPlayer(int(a[0]), r.player or 0),
    "precondition_failed": lambda a, r: PreconditionFailed(int(a[0])),
    "out_of_bounds": lambda a, r: OutOfBounds(_cell(r).row, _cell(r).col, int(a[0])),
    "game_over": lambda a, r: GameOver(a[0], int(a[1]), a[2] if len(a) > 2 else None),
    "not_your_turn": lambda a, r: NotYourTurn(3 - int(a[0]), int(a[0])),
    "cell_occupied": lambda a, r: CellOccupied(_cell(r).row, _cell(r).col),
}
# Answers of every move script that are no refusal of the move itself.
NOT_MOVES: dict[str, Callable[[str], DomainError]] = {
    "game_not_found": GameNotFound,
    "unauthorized": lambda _: Unauthorized("the token is not valid for this game"),
    "idempotency_key_reused": lambda _: IdempotencyKeyReused(),
}


def _refusal(answer: list[str], request: MoveRequest | ActionRequest) -> DomainError:
    """The exception a script's refusal answer stands for."""
    code, *arguments = answer
    decode = SCRIPT_REFUSALS.get(code)
    if decode is None:
        raise StoreUnavailable(f"unexpected answer from the store: {answer!r}")
    return decode(arguments, request)


def _status(value: str) -> Status:
    if value not in get_args(Status):
        raise StoreUnavailable(f"the store holds an unknown game status {value!r}")
    return cast(Status, value)


def _winner(value: Any) -> Winner:
    winner = int(value)
    if winner not in (0, 1, 2):
        raise StoreUnavailable(f"the store holds an unknown winner {winner!r}")
    return cast(Winner, winner)


def _next(value: Any) -> Player | None:
    return None if int(value) == 0 else (1 if int(value) == 1 else 2)


def _reason(value: str) -> Reason | None:
    if value and value not in get_args(Reason):
        raise StoreUnavailable(f"the store holds an unknown reason {value!r}")
    return cast(Reason, value) if value else None


def _record(kind: GameKind, seq: int, text: str) -> Move:
    """Move number ``seq`` from its record: the kind's text, then the stamp game.lua's ``moved``
    wrote — the game's version after it, and with clocks their reading — if any."""
    record, *stamp = text.split("|")
    move = kind.decode_move(seq, record)
    if not stamp:
        return move
    version = int(stamp[0])
    reading = None
    if len(stamp) == 5:
        at, first, second, running = (int(value) for value in stamp[1:])
        reading = ClockReading(at, (first, second), _next(running))
    return replace(move, version=None if version == seq else version, clock=reading)


def _state_read(kinds: Kinds, game_id: str, found: list[Any]) -> GameState:
    """The state from game.lua's ``state_of`` answer."""
    (
        kind_name, facts, status, winner, reason, next_player, version, last, count, offer,
        control, first, second, since, running,
    ) = found  # fmt: skip
    kind = kinds.find(kind_name)
    moves = int(count)
    clock = None
    if control:
        left = (int(first), int(second))
        runs = _next(running)
        deadline = None if runs is None else int(since) + left[runs - 1]
        clock = ClockState(TimeControl.decode(control), left, runs, deadline)
    return GameState(
        game_id, kind_name, json.loads(facts), _status(status), _winner(winner), _reason(reason),
        _next(next_player), int(version), moves, _record(kind, moves, last) if last else None,
        _next(offer), clock,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Known:
    """What never changes of a game, once read: its kind and engine, its players' token hashes,
    and the client that created it (whose share of the store it holds)."""

    kind: str
    engine: str
    hashes: tuple[str, str]
    owner: str


# The hash slots of a Redis Cluster.
CLUSTER_SLOTS = 16384
# Reads and decisions of one move on the generic engine before giving up under contention.
MAX_ATTEMPTS = 32


def _moves_read(kinds: Kinds, kind_name: str, first: int, records: list[Any]) -> list[Move]:
    """Move records read from index ``first`` (0-based) on, as moves."""
    kind = kinds.find(kind_name)
    return [_record(kind, first + 1 + i, record) for i, record in enumerate(records)]


def _seconds(milliseconds: object) -> int:
    """A Retry-After: whole seconds, at least one."""
    return max(1, math.ceil(int(str(milliseconds)) / 1000))


def _outcome(session: Session, result: MoveResult) -> list[str | int]:
    """What commit.lua writes for an accepted move: the game's new fields, the record (the kind's
    text: commit.lua adds the stamp) and the mover."""
    state, move = result.state, result.move
    return [
        state.status, state.winner, state.next_player or 0, session.position.encode(),
        json.dumps(dict(state.facts)), session.kind.encode_move(move), state.reason or "",
        move.player,
    ]  # fmt: skip


# The endings the session decides (the others are the kind's, or the move limit's).
SESSION_ENDINGS = ("timeout", "resignation", "agreement")


class RedisGameStore:
    """Games in Redis, shared by every service process that points at the same server."""

    def __init__(
        self,
        url: str,
        *,
        max_games: int,
        idle_seconds: float,
        timeout_seconds: float,
        max_connections: int = 50,
        stream_connections: int = 10,
        kept_games: int = 256,
        clock: Callable[[], float] = time.time,
        fast_paths: bool = True,
        max_moves: int = DEFAULT_MAX_MOVES,
        max_total_moves: int = DEFAULT_MAX_TOTAL_MOVES,
        max_refusals: int = DEFAULT_MAX_REFUSALS,
        unstarted_seconds: float | None = None,
        client_share: float = 1.0,
        kinds: Kinds = REGISTRY,
    ) -> None:
        self.kinds = kinds
        self.max_games = max_games
        self.max_refusals = max_refusals
        self.client_games = client_part(max_games, client_share)
        self.client_moves = client_part(max_total_moves, client_share)
        # Owners' moves as the accounting last said: those at their share, and the counts of
        # the owners of games this process moved in (at most max_games of them: an owner has
        # a live game).
        self._heavy: set[str] = set()
        self._owned: OrderedDict[str, int] = OrderedDict()
        self._unreported_owned: Counter[str] = Counter()  # by owner: moves not yet reported
        self.max_total_moves = max_total_moves
        # Moves of all processes are counted in the accounting slot (redis_keys): each process
        # reports the moves it had accepted with its next move (or within a second), and knows
        # the total as of its last report or creation. So the bound holds within the moves in
        # flight between reports.
        self._unreported: Counter[str] = Counter()  # game id -> accepted moves not yet counted
        self._total_moves = 0  # as last read
        # When this process last read the total ("") or an owner's moves, to let moves on.
        self._recounted: OrderedDict[str, float] = OrderedDict()
        self._reporter: asyncio.Task[None] | None = None
        self.max_moves = max_moves  # each game keeps the limit it was created with
        self.idle_ms = max(1, int(idle_seconds * 1000))
        unstarted = idle_seconds if unstarted_seconds is None else unstarted_seconds
        self.unstarted_ms = max(1, int(unstarted * 1000))
        self.clock = clock
        self.fast_paths = fast_paths  # False: every new game takes the generic engine (tests)

        # A request waits (up to the timeout) for a free connection rather than failing when
        # all are busy; connections are reused, so a few dozen carry any one process.
        self.cluster = is_cluster(url)
        self.client = connect(url, max_connections, timeout_seconds)
        # Push streams read on connections of their own (and the process's subscriptions), so
        # that no number of streams can take a connection a move needs; their identical reads
        # are shared (``SharedReads``).
        self.stream_client = connect(url, stream_connections + 1, timeout_seconds)
        publish = "SPUBLISH" if self.cluster else "PUBLISH"
        self._changes = self.stream_client.register_script(_script("changes", publish))
        self._shared = SharedReads()
        self.scripts: dict[str, AsyncScript] = {
            name: self.client.register_script(_script(name, publish))
            for name in ("create", "reserve", "state", "moves", "replay", "delete", "read",
                         "commit", "touch", "forget", "act")
        }  # fmt: skip
        # On one Redis, moves are sent in a pipeline with the refresh of the game's place among
        # the live ones (another slot, so not in the script); ``register_script`` would precede
        # such a pipeline with a SCRIPT EXISTS round trip, so move scripts are called by SHA by
        # hand. On a cluster that slot is one node's: each process reports its moves to it in
        # the background (``_report_soon``), never in a move's round trip.
        self._move_scripts = {
            path.script: _script(path.script, publish) for path in FAST_PATHS.values()
        } | {"commit": _script("commit", publish), "touch": _script("touch", publish)}
        self._sha: dict[str, str] = {}
        self._known: OrderedDict[str, Known] = OrderedDict()
        # Generic-engine games as this process last wrote them, to decide the next move without
        # reading them first (``_decide_on_kept``); least recently written dropped first.
        self.kept_games = kept_games
        self._kept: OrderedDict[str, tuple[Session, int]] = OrderedDict()
        self._watchers = Watchers()
        self._listener: asyncio.Task[None] | None = None
        self._sharded = (
            ShardedListener(self.stream_client, self._watchers.notify, timeout_seconds)
            if isinstance(self.stream_client, RedisCluster)
            else None
        )
        self.endings: Counter[str] = Counter()  # games this process ended, by reason

    async def close(self) -> None:
        for task in (self._listener, self._reporter):
            if task is not None:
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
        with suppress(StoreUnavailable):
            await self._report()  # the moves accepted since the last report
        if self._sharded is not None:
            await self._sharded.close()
        for client in (self.client, self.stream_client):
            await (client.close() if isinstance(client, BoundedCluster) else client.aclose())

    async def _guard(
        self, work: Awaitable[T], client: Client | None = None, *, change: bool = False
    ) -> T:
        """The work's answer, or StoreUnavailable for any failure of the store; for work that
        ``change``s a game, saying whether the change may have been applied all the same."""
        try:
            return await work
        except STORE_ERRORS as error:
            logger.warning("game store unavailable: %s", error)
            await self._forget_connections(error, client or self.client)
            raise StoreUnavailable(
                may_have_applied=may_have_run(error) if change else None
            ) from error

    async def _forget_connections(self, error: Exception, client: Client | None = None) -> None:
        """After a connection failure the pool's idle connections lead to the Redis that
        failed: drop them, so that the next request does not spend itself on one of them.
        (The cluster client does so itself, for the failed node only, and asks the cluster
        where the slots are before its next command.)"""
        client = client or self.client
        if isinstance(client, redis.Redis) and isinstance(
            error, (RedisConnectionError, RedisTimeoutError)
        ):
            with suppress(*STORE_ERRORS):
                await client.connection_pool.disconnect(inuse_connections=False)

    async def _run(self, name: str, keys: list[str], args: list[Any], change: bool = False) -> Any:
        answer = await self._guard(self.scripts[name](keys=keys, args=args), change=change)
        return self._settled(answer) if name in GAME_SCRIPTS else answer

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    # --- creating and reading ---------------------------------------------------------------

    def _engine_for(self, kind: str, params: Mapping[str, object]) -> str:
        path = FAST_PATHS.get(kind)
        if self.fast_paths and path is not None and path.applies(params):
            return path.script
        return GENERIC

    async def create(
        self,
        kind: str,
        params: Mapping[str, object],
        control: TimeControl | None = None,
        owner: str = "",
    ) -> CreatedGame:
        game_kind = self.kinds.find(kind)
        game_id = tokens.new_game_id()
        placed, retry_ms, _, why = await self._reserve(game_id, owner)
        if not placed:
            limit, what = {
                "moves": (self.max_total_moves, "stored moves"),
                "client_games": (self.client_games, CLIENT_GAMES),
                "client_moves": (self.client_moves, CLIENT_MOVES),
            }.get(why, (self.max_games, "live games"))
            raise CapacityExhausted(limit, _seconds(retry_ms), what)
        secrets = (tokens.new_token(), tokens.new_token())
        hashes = (tokens.token_hash(secrets[0]), tokens.token_hash(secrets[1]))
        session = Session(game_id, game_kind, params, hashes, game_kind.new(params), self.max_moves)
        state = session.state()
        if control is not None:  # the clocks, stopped until each player has moved (game.lua)
            initial = control.initial_ms
            state = replace(state, clock=ClockState(control, (initial, initial), None, None))
        engine = self._engine_for(kind, params)
        fields: dict[str, object] = {
            "kind": kind, "engine": engine, "params": json.dumps(dict(params)),
            "h1": hashes[0], "h2": hashes[1], "status": state.status, "winner": state.winner,
            "next": state.next_player or 0, "version": 0, "refusals": 0,
            "facts": json.dumps(dict(state.facts)), "reason": state.reason or "",
            "max_moves": self.max_moves, "offer": 0,
        }  # fmt: skip
        if control is not None:
            fields |= {
                "control": control.encode(), "r1": control.initial_ms, "r2": control.initial_ms,
                "since": 0, "running": 0, "moved": 0,
            }  # fmt: skip
        if engine == GENERIC:
            fields["position"] = session.position.encode()
        else:
            fields |= FAST_PATHS[kind].fields(params)
        fields["owner"] = owner
        texts = json.dumps({name: str(value) for name, value in fields.items()})
        await self._run("create", [game_keys(game_id).meta], [self.unstarted_ms, texts])
        self._know(game_id, Known(kind, engine, hashes, owner))
        return CreatedGame(state, secrets)

    def _settled(self, answer: list[Any]) -> Any:
        """A game script's own answer; a flag fall it applied is counted (see ``_script``)."""
        fell, answered = answer
        if fell:
            self.endings["timeout"] += 1
        return answered

    def _count_ending(self, state: GameState) -> None:
        """Count a change this process made that ended the game."""
        if state.reason is not None:
            self.endings[state.reason] += 1

    async def state(self, game_id: str) -> GameState:
        keys = game_keys(game_id)
        found = await self._run("state", [keys.meta, keys.moves], [channel(game_id)])
        if not found:
            raise GameNotFound(game_id)
        return _state_read(self.kinds, game_id, found)

    async def moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        keys = game_keys(game_id)
        first = max(since, 0)
        found = await self._run(
            "moves", [keys.meta, keys.moves], [first, first + limit - 1, channel(game_id)]
        )
        if not found:
            raise GameNotFound(game_id)
        kind, version, records = found
        return _moves_read(self.kinds, kind, first, records), int(version)

    async def changes(self, game_id: str, since: int, limit: int) -> Changes:
        after = max(since, 0)
        heard = self._watchers.changes(game_id)
        return await self._shared.read(
            ("changes", game_id, after, limit, heard),
            lambda: self._read_changes(game_id, after, limit),
        )

    async def _read_changes(self, game_id: str, after: int, limit: int) -> Changes:
        keys = game_keys(game_id)
        read = self._changes(keys=[keys.meta, keys.moves], args=[after, limit, channel(game_id)])
        found = self._settled(await self._guard(read, self.stream_client))
        if not found:
            raise GameNotFound(game_id)
        at, first, state, *records = found  # see changes.lua
        now = _state_read(self.kinds, game_id, state)
        return Changes(_moves_read(self.kinds, now.kind, int(first), records), now, int(at))

    async def move(self, game_id: str, seq: int) -> Move:
        if seq < 1:
            await self.state(game_id)  # 404 for an unknown game first
            raise MoveNotFound(game_id, seq)
        moves, _ = await self.moves(game_id, seq - 1, 1)
        if not moves:
            raise MoveNotFound(game_id, seq)
        return moves[0]

    async def rows(self, game_id: str) -> list[str]:
        """The board, rebuilt by replaying the moves (the caller bounds the board's size)."""
        keys = game_keys(game_id)
        found = await self._run("replay", [keys.meta, keys.moves], [])
        if not found:
            raise GameNotFound(game_id)
        kind, params, records = found
        game_kind = self.kinds.find(kind)
        position = game_kind.new(json.loads(params))
        for seq, record in enumerate(records, start=1):
            move = _record(game_kind, seq, record)
            position.play(move.played, move.player)
        return position.rows()

    async def delete(self, game_id: str, token: str) -> None:
        outcome = await self._run(
            "delete", list(game_keys(game_id)), [tokens.token_hash(token), channel(game_id)],
            change=True,
        )  # fmt: skip
        if outcome != "ok":
            raise NOT_MOVES[outcome](game_id)
        self._known.pop(game_id, None)
        self._kept.pop(game_id, None)
        self._unreported.pop(game_id, None)
        # The game is deleted (the answer is 204 whatever follows); were its accounts not told,
        # they give its place back when its expiry instant passes, as for a game that expired.
        with suppress(StoreUnavailable):
            self._counted(await self._run("forget", ACCOUNTS, [game_id, self.client_moves]))

    async def live_games(self) -> int:
        return int(await self._guard(self.client.zcount(LIVE_GAMES, self._now_ms(), "+inf")))

    async def ready(self) -> bool:
        """The store takes writes: one write of its own (``READY``), which a Redis that refuses
        writes (out of memory, read-only, paused) refuses or leaves unanswered; after a
        connection failure, once more on a fresh connection (the write changes nothing of a
        game, so sending it again is safe). On a cluster: every slot is served by a primary
        that says so, and every primary takes such a write (the topology asked again after a
        failure)."""
        if isinstance(self.client, RedisCluster):
            return await self._cluster_ready(self.client)
        for _ in range(2):
            try:
                return bool(await self.client.set(READY, self._now_ms(), px=READY_MS))
            except RedisError as error:
                if not isinstance(error, (RedisConnectionError, RedisTimeoutError)):
                    return False
                await self._forget_connections(error)
        return False

    async def _cluster_ready(self, cluster: RedisCluster) -> bool:
        """Every slot has a primary, every primary answers that it serves (its cluster state
        is ``ok``: a node back from an outage is not, until the others know it again), and
        takes a write."""
        for _ in range(2):
            try:
                await cluster.initialize()
                primaries = cluster.get_primaries()
                ranges = await cluster.cluster_slots(target_nodes=primaries[0])
                served = sum(end - start + 1 for start, end in ranges)
                states = [
                    await cluster.execute_command("CLUSTER INFO", target_nodes=primary)
                    for primary in primaries
                ]
                if served != CLUSTER_SLOTS or any(s["cluster_state"] != "ok" for s in states):
                    return False
                for start, end in ranges:  # a write in each primary's slots
                    await cluster.set(ready_key(start, end), self._now_ms(), px=READY_MS)
                return True
            except STORE_ERRORS:
                with suppress(*STORE_ERRORS):
                    await cluster.nodes_manager.initialize()  # ask where the slots are now
        return False

    # --- moves ------------------------------------------------------------------------------

    def _know(self, game_id: str, known: Known) -> None:
        self._known[game_id] = known
        self._known.move_to_end(game_id)
        if len(self._known) > self.max_games:  # what is known of more is of dead games
            self._known.popitem(last=False)

    async def _known_game(self, game_id: str) -> Known:
        """The game's engine and token hashes: as this process knows them, else read (one
        round trip, once); GameNotFound for a game that does not exist."""
        known = self._known.get(game_id)
        if known is None:
            fields = ["kind", "engine", "h1", "h2", "owner"]
            kind, engine, first, second, owner = await self._guard(
                self.client.hmget(game_keys(game_id).meta, fields)
            )
            if engine is None:
                raise GameNotFound(game_id)
            known = Known(str(kind), str(engine), (str(first), str(second)), str(owner or ""))
        self._know(game_id, known)
        return known

    async def seat(self, game_id: str, token: str) -> Seat:
        known = await self._known_game(game_id)
        return Seat(player_by_hash(known.hashes, token), known.kind)

    # --- accounting of stored moves ---------------------------------------------------------

    async def _reserve(self, game_id: str, owner: str = "") -> list[Any]:
        """reserve.lua: the moves accepted since the last report counted (this process's own
        moves count before its own creations), expired games forgotten, then a place for
        ``game_id`` (``''``: only recount)."""
        reports = self._take_reports()
        args = [
            self._now_ms(), self.unstarted_ms, self.max_games, game_id, self.max_total_moves,
            owner, self.client_games, self.client_moves, self.idle_ms, *reports,
        ]  # fmt: skip
        try:
            answer: list[Any] = await self._run("reserve", ACCOUNTS, args)
        except StoreUnavailable:
            self._restore_reports(reports)
            raise
        self._counted([answer[2], answer[4]])
        return answer[:4]

    async def _full(self, owner: str) -> CapacityExhausted | None:
        """The refusal of a new move while the store holds its most moves, or the game's owner
        its share of them (as last read; read again at most once a second while at the bound,
        the total and each owner's share on its own, so that expired games free their moves),
        or None. The engines still answer a replay
        before refusing with it."""

        def full() -> bool:
            return self._total_moves + self._unreported.total() >= self.max_total_moves

        def over_share() -> bool:
            owned = self._owned.get(owner, 0) + self._unreported_owned[owner]
            return owner in self._heavy or owned >= self.client_moves

        if not over_share() and not full():
            return None
        retry = 1
        which, now = owner if over_share() else "", self.clock()  # at most once a second each
        since = now - self._recounted.get(which, -math.inf)
        if not 0 <= since < 1:  # (a clock set back is no reason to wait)
            self._recounted.pop(which, None)
            self._recounted[which] = now
            while len(self._recounted) > self.max_games:
                self._recounted.popitem(last=False)
            with suppress(StoreUnavailable):  # the counts as last read decide, the move may fail
                _, retry_ms, _, _ = await self._reserve("", owner)
                retry = _seconds(retry_ms)
        if over_share():
            return CapacityExhausted(self.client_moves, retry, CLIENT_MOVES)
        if full():
            return CapacityExhausted(self.max_total_moves, retry, "stored moves")
        return None

    def _accepted(self, game_id: str) -> None:
        self._unreported[game_id] += 1
        self._unreported_owned[self._owner_of(game_id)] += 1
        if self._reporter is None or self._reporter.done():
            self._reporter = asyncio.create_task(self._report_soon())

    async def _report_soon(self) -> None:
        """Report within a second the moves no later move of this process reported."""
        await asyncio.sleep(1)
        with suppress(StoreUnavailable):
            await self._report()

    async def _report(self) -> None:
        if self._unreported:
            reports = self._take_reports()
            try:
                self._counted(await self._run("touch", ACCOUNTS, self._touch_args(reports)))
            except StoreUnavailable:
                self._restore_reports(reports)
                raise

    def _touch_args(self, reports: list[str | int]) -> list[str | int]:
        return [self._now_ms(), self.idle_ms, self.client_moves, *reports]

    def _counted(self, answer: list[Any]) -> None:
        """What an accounting script answered: the total of moves held, and the owners' shares
        (those at their share, and the moves of the owners asked)."""
        total, (heavy, owned) = answer
        self._total_moves = int(total)
        self._heavy = {str(owner) for owner in heavy}
        for owner, count in zip(owned[::2], owned[1::2], strict=True):
            self._owned[str(owner)] = int(count)
            self._owned.move_to_end(str(owner))
        while len(self._owned) > self.max_games:
            self._owned.popitem(last=False)

    def _owner_of(self, game_id: str) -> str:
        known = self._known.get(game_id)
        return "" if known is None else known.owner

    def _take_reports(self) -> list[str | int]:
        reports = [item for pair in self._unreported.items() for item in pair]
        self._unreported.clear()
        self._unreported_owned.clear()
        return reports

    def _restore_reports(self, reports: list[str | int]) -> None:
        for game_id, count in zip(reports[::2], reports[1::2], strict=True):
            self._unreported[str(game_id)] += int(count)
            self._unreported_owned[self._owner_of(str(game_id))] += int(count)

    # --- moves ------------------------------------------------------------------------------

    async def play(self, game_id: str, token: str, request: MoveRequest) -> MoveResult:
        known = await self._known_game(game_id)  # an unknown game is a 404 first
        engine, full = known.engine, await self._full(known.owner)
        if engine == GENERIC:
            move = self._generic_move(game_id, token, request, full)
        else:
            move = self._fast_move(game_id, engine, token, request, full)
        return await self._guard(move, change=True)

    async def _sha_of(self, script: str) -> str:
        sha = self._sha.get(script) or await self.client.script_load(self._move_scripts[script])
        self._sha[script] = sha
        return sha

    async def _moving(self, script: str, keys: list[str], args: list[Any]) -> Any:
        """Run a move script by SHA, pipelined with the accounting of the moves accepted since
        the last report (touch.lua: their games' places among the live ones, and the counts);
        the accounting's own failure does not undo or hide the move's answer."""
        if self.cluster:
            return self._settled(await self._alone(script, keys, args))
        for _ in range(2):
            sha, touch = await self._sha_of(script), await self._sha_of("touch")
            reports = self._take_reports()
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    pipe.evalsha(sha, len(keys), *keys, *args)
                    pipe.evalsha(touch, len(ACCOUNTS), *ACCOUNTS, *self._touch_args(reports))
                    answer, total = await pipe.execute(raise_on_error=False)
            except BaseException:
                self._restore_reports(reports)
                raise
            if isinstance(total, Exception):
                self._restore_reports(reports)
                if isinstance(total, NoScriptError):
                    self._sha.pop("touch", None)
            else:
                self._counted(total)
            if isinstance(answer, NoScriptError):  # Redis restarted: the script did not run
                self._sha.pop(script, None)
                continue
            if isinstance(answer, Exception):
                raise answer
            return self._settled(answer)
        raise StoreUnavailable("the store keeps forgetting its scripts")

    async def _alone(self, script: str, keys: list[str], args: list[Any]) -> Any:
        """Run a move script by SHA on its own (on a cluster: on the node of the game's slot)."""
        for _ in range(2):
            try:
                return await self.client.evalsha(
                    await self._sha_of(script), len(keys), *keys, *args
                )
            except NoScriptError:  # the node restarted, or a replica took over: did not run
                self._sha.pop(script, None)
        raise StoreUnavailable("the store keeps forgetting its scripts")

    async def _fast_move(
        self, game_id: str, script: str, token: str, request: MoveRequest,
        full: CapacityExhausted | None,
    ) -> MoveResult:  # fmt: skip
        keys, cell = game_keys(game_id), Placement.of(request.played)
        args: list[str | int] = [
            tokens.token_hash(token), cell.row, cell.col,
            request.player or "", self.idle_ms,
            "" if request.expected_version is None else request.expected_version,
            request.idempotency_key or "", request.fingerprint(), self.max_refusals,
            channel(game_id), "1" if full else "",
        ]  # fmt: skip
        answer = await self._moving(script, list(keys), args)
        outcome = answer[0]
        if outcome == "capacity_exhausted" and full is not None:
            raise full
        if outcome == "ok":
            self._accepted(game_id)
            return self._accepted_move(game_id, answer[1])
        if outcome == "replay":
            _, seq, record, found = answer
            now = _state_read(self.kinds, game_id, found)
            kind = self.kinds.find(now.kind)
            return result_at(_record(kind, int(seq), record), now, kind)
        if outcome in NOT_MOVES:
            raise NOT_MOVES[outcome](game_id)
        if outcome == "replayed":  # a refusal remembered under the request's key
            raise _refusal(answer[1:], request).copy(replayed=True)
        raise _refusal(answer, request)

    def _accepted_move(self, game_id: str, found: list[Any]) -> MoveResult:
        """The answer to a move a script accepted, from the state it answered."""
        state = _state_read(self.kinds, game_id, found)
        self._count_ending(state)
        move = state.last_move
        assert move is not None, "a move was accepted"
        return MoveResult(winner=state.winner, move=move, state=state)

    async def _generic_move(
        self, game_id: str, token: str, request: MoveRequest, full: CapacityExhausted | None
    ) -> MoveResult:
        if full is None:
            decided = await self._decide_on_kept(game_id, token, request)
            if decided is not None:
                return decided
        keys = game_keys(game_id)
        key = request.idempotency_key
        fields = [channel(game_id)] + ([f"1:{key}", f"2:{key}"] if key is not None else [])
        for attempt in range(MAX_ATTEMPTS):
            if attempt:  # another process changed the game in between: let it finish
                await asyncio.sleep(random.uniform(0, 0.001 * attempt))
            found = self._settled(
                await self.scripts["read"](keys=[keys.meta, keys.receipts], args=fields)
            )
            if not found:
                raise GameNotFound(game_id)
            session, read_version = self._session(game_id, found, request)
            if full is not None and not session.answered(request, token):
                raise full  # only a replay is answered at the bound
            seq = session.answered_seq(request, token)
            if seq is not None:  # rebuilt from the move's record, with its version and clocks
                return await self._replay(game_id, seq)
            refusals = session.refusals
            try:
                result = session.play(request, token)
            except DomainError:
                if session.refusals == refusals:
                    raise  # not remembered: nothing to write
                answer = await self._commit(session, token, read_version, request, "refused", [])
                if answer[0] in ("conflict", "receipt"):
                    continue  # the game, or this request's receipt, changed: decide again
                raise
            outcome = _outcome(session, result)
            answer = await self._commit(session, token, read_version, request, "accepted", outcome)
            if answer[0] in ("conflict", "receipt"):
                continue
            self._keep(game_id, session, read_version + 1)
            self._accepted(game_id)
            return self._accepted_move(game_id, answer[1])
        raise StoreUnavailable("the game changed too often while this move was decided; retry")

    async def _replay(self, game_id: str, seq: int) -> MoveResult:
        """The answer move ``seq`` got, again (its record is in the move list)."""
        moves, _ = await self.moves(game_id, seq - 1, 1)
        now = await self.state(game_id)
        return result_at(moves[0], now, self.kinds.find(now.kind))

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
        outcome = _outcome(session, result)
        answer = await self._commit(session, token, version, request, "accepted", outcome)
        if answer[0] != "accepted":
            return None
        self._keep(game_id, session, version + 1)
        self._accepted(game_id)
        return self._accepted_move(game_id, answer[1])

    def _keep(self, game_id: str, session: Session, version: int) -> None:
        """Remember the game as this process wrote it (a bounded number of games), without its
        receipts: a keyed request is checked against the store's (commit.lua) anyway."""
        session.receipts.clear()
        self._kept[game_id] = (session, version)
        if len(self._kept) > self.kept_games:
            self._kept.popitem(last=False)

    def _session(self, game_id: str, found: list[Any], request: MoveRequest) -> tuple[Session, int]:
        """The game as the generic engine read it: a Session holding just the receipts of this
        request's Idempotency-Key (under either player), and the version read."""
        (
            kind_name, params_text, h1, h2, version, refusals, max_moves, position, status, winner,
            reason, offer, *receipts,
        ) = found  # fmt: skip
        kind = self.kinds.find(kind_name)
        params = json.loads(params_text)
        position_now = kind.decode(params, position or "")
        session = Session(
            game_id, kind, params, (h1, h2), position_now, int(max_moves), self.max_refusals,
            int(version), draw_offer=_next(offer or 0),
        )  # fmt: skip
        if reason in SESSION_ENDINGS:
            session.ending = Ending(_status(status), _winner(winner), cast(Reason, reason))
        session.refusals = int(refusals or 0)
        key = request.idempotency_key
        for player, text in zip((1, 2), receipts, strict=False):  # read only for a keyed one
            if not text or key is None:
                continue
            fingerprint = text.partition("|")[0]
            if fingerprint == request.fingerprint():
                receipt = receipt_from(text, lambda found: _state_read(self.kinds, game_id, found))
            else:  # another request's answer (an action's, kept by act.lua): only reused
                receipt = Receipt(fingerprint, IdempotencyKeyReused())
            session.receipts[receipt_key(cast(Player, player), key)] = receipt
        return session, int(version)

    async def _commit(
        self, session: Session, token: str, version: int, request: MoveRequest, outcome: str,
        fields: list[str | int],
    ) -> list[Any]:  # fmt: skip
        keys = game_keys(session.id)
        field = value = ""
        if request.idempotency_key is not None:
            player = session.player_of(token)
            kept = session.receipts.get(receipt_key(player, request.idempotency_key))
            if kept is not None:  # the store's receipts are under the key itself
                field, value = f"{player}:{request.idempotency_key}", receipt_text(kept)
        args: list[str | int] = [
            version, field, value, self.max_refusals, self.idle_ms, channel(session.id),
            outcome, *fields,
        ]  # fmt: skip
        answer: list[Any] = await self._moving(
            "commit", [keys.meta, keys.moves, keys.receipts], args
        )
        if answer[0] == "game_not_found":
            raise GameNotFound(session.id)
        return answer

    # --- resignations and draw offers -------------------------------------------------------

    async def act(self, game_id: str, token: str, request: ActionRequest) -> ActionResult:
        keys = game_keys(game_id)
        args: list[str | int] = [
            tokens.token_hash(token), request.action, request.player or "",
            "" if request.expected_version is None else request.expected_version,
            request.idempotency_key or "", request.fingerprint(), self.max_refusals,
            channel(game_id),
        ]  # fmt: skip
        answer = await self._run("act", [keys.meta, keys.moves, keys.receipts], args, change=True)
        self._kept.pop(game_id, None)  # its version changed, or will be checked anyway
        outcome = answer[0]
        if outcome == "ok":
            state = _state_read(self.kinds, game_id, answer[1])
            self._count_ending(state)
            return ActionResult(state)
        if outcome == "replay":
            return ActionResult(
                _state_read(self.kinds, game_id, json.loads(answer[1])), replayed=True
            )
        if outcome in NOT_MOVES:
            raise NOT_MOVES[outcome](game_id)
        if outcome == "replayed":
            raise _refusal(answer[1:], request).copy(replayed=True)
        raise _refusal(answer, request)

    # --- push -------------------------------------------------------------------------------

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        if self._sharded is not None:
            await self._sharded.hold(game_id)  # subscribed before the read below
            try:
                await self._wait(game_id, version, timeout)
            finally:
                self._sharded.release(game_id)
            return
        if self._listener is None or self._listener.done():
            self._listener = asyncio.create_task(self._listen())
        await self._wait(game_id, version, timeout)

    async def _wait(self, game_id: str, version: int, timeout: float) -> None:
        changed = self._watchers.watch(game_id)  # before the read: no change falls between
        heard = self._watchers.changes(game_id)
        read = self._shared.read(("version", game_id, heard), lambda: self._version(game_id))
        if await read > version:
            return
        await until(changed, timeout)

    async def _version(self, game_id: str) -> int:
        read = self.stream_client.hget(game_keys(game_id).meta, "version")
        found = await self._guard(read, self.stream_client)
        if found is None:
            raise GameNotFound(game_id)
        return int(found)

    async def _listen(self) -> None:
        """On one Redis: one subscription per process, to every game's channel; wakes local
        waiters.

        If it is lost (a killed connection, Redis restarting), it is made again at once (then
        every second while that fails), and every waiter then reads its game again, so that a
        change announced while nobody listened is not waited for: a push stream is late by the
        time the subscription takes to come back, never wrong.
        """
        pause = 0.1  # before subscribing again: at once, then a second while it keeps failing
        while True:
            pubsub = self.stream_client.pubsub()
            try:
                await pubsub.psubscribe(CHANNELS)
                while True:
                    message = await pubsub.get_message(timeout=5)
                    kind = message and message.get("type")
                    if kind == "pmessage":
                        self._watchers.notify(game_of(message["channel"]))
                    elif kind == "psubscribe":  # subscribed (again): what was missed, read
                        self._watchers.notify_all()
                        pause = 0.1
            except (*STORE_ERRORS, *CLOSED_UNDER) as error:
                logger.warning("move notifications interrupted: %s", error)
                await asyncio.sleep(pause)
                pause = 1.0
            finally:
                with suppress(*STORE_ERRORS):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py: untyped
