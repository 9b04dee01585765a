"""A GameStore on Redis: many service processes, on many hosts, share the same games.

Every unit of work is atomic: a script (``lua/*.lua``, shipped with the package). The store is in
named parts: where things are kept (``keys.py``), what each script takes and answers and
what that means for a game (``wire.py``), the script runner (``scripts.py``), the
move accounting (``accounts.py``) and the push listener (``push.py``); this module
decides what to run. A game's *engine* is chosen when it is created and kept in its meta hash:

* **generic** (any kind): read what the move needs (``read.lua``), let the same ``Session.play``
  the memory store uses decide it in Python, then write the outcome with ``commit.lua`` —
  applied only if the game is still at the version that was read (compare-and-set), with the
  idempotency receipt and the event publish in the same script. On a conflict (another process
  moved in between) the move is read and decided again. Two round trips; one when this process
  wrote the game last (it keeps a copy: ``_decide_on_kept``). The position holds no history:
  the move list does, so a move costs the same at move 60 as at move 2.
* **a fast path** (the games its kind declares ``FastPath`` for: an engine of the store's, the
  line engine, that plays k in a row on an n × n board): one script checks and applies the
  move in O(1) on the server (``line_move.lua``), one round trip;
  the store contract suite runs on both engines.

A page of legal moves is read as its engine keeps the game: a fast path's own script lists it
from the board it keeps (``line_legal.lua``: the cells hash, probed from the page's first
cell on), the generic engine reads the position as a move does and asks the ``Session``.

A refused move changes nothing and is raised here as the same exception the in-memory store
raises. Python never writes a game it has not just compared.

The client does not retry on its own: a move whose reply was lost must not be applied twice, so
any connection failure or timeout is answered 503 ``store_unavailable`` at once.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeVar, cast

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.clock import WAITED_FOR, ClockState, TimeControl
from app.sessions.errors import (
    PRIVATE_GAME,
    CapacityExhausted,
    GameNotFound,
    IdempotencyKeyReused,
    MoveNotFound,
    SeatTaken,
    SpectatorToken,
    StoreUnavailable,
    TooManySpectators,
    Unauthorized,
)
from app.sessions.exchange import (
    ACTION_FLAGS,
    ActionRequest,
    ActionResult,
    GameState,
    JoinResult,
    LegalMovesPage,
    MoveRequest,
    MoveResult,
    Rematch,
    RematchAnswer,
)
from app.sessions.kind import (
    ABORTED,
    GameKind,
    KindRegistry,
    LegalMove,
    LegalMoves,
    Move,
    Pass,
    Placement,
    Played,
    Player,
    Reason,
    board_size,
    other,
)
from app.sessions.lobby import STALE_READS, Filter, filters
from app.sessions.past import result_at, state_at_gift, state_at_takeback
from app.sessions.receipts import (
    ANY_VERSION,
    Answered,
    Receipt,
    join_receipt_key,
    receipt_from,
    receipt_key,
    receipt_text,
)
from app.sessions.session import (
    DEFAULT_GAME_SPECTATORS,
    DEFAULT_GAME_TIME_GIFTS,
    DEFAULT_MAX_MOVES,
    DEFAULT_MAX_REFUSALS,
    NO_TERMS,
    Ending,
    Session,
    Terms,
    player_by_hash,
)
from app.sessions.store import (
    CLIENT_GAMES,
    CLIENT_MOVES,
    CLIENT_OPEN_GAMES,
    DEFAULT_CLIENT_OPEN_GAMES,
    DEFAULT_MAX_TOTAL_MOVES,
    NETWORK_GAMES,
    NETWORK_MOVES,
    NETWORK_OPEN_GAMES,
    UNSTARTED_GAMES,
    BoardShape,
    Changes,
    Client,
    CreatedGame,
    History,
    OpenGames,
    Recipe,
    Seat,
    client_part,
    network_bound,
    network_of,
    network_part,
    opened,
    seats,
)
from app.stores.redis.accounts import MoveAccounts, seconds
from app.stores.redis.cluster import STORE_ERRORS, BoundedCluster, connect, is_cluster
from app.stores.redis.keys import (
    LIVE_GAMES,
    LOBBY_COUNTER,
    LOBBY_NETWORK_OF,
    LOBBY_OWNED,
    LOBBY_OWNER_OF,
    READY,
    READY_MS,
    channel,
    game_keys,
    lobby_index,
    ready_key,
)
from app.stores.redis.push import PushListener
from app.stores.redis.scripts import Call, ScriptRunner, forget_connections
from app.stores.redis.wire import (
    NOT_MOVES,
    REFUSED_AS,
    Accepted,
    ActArgs,
    CapacityFull,
    CellMoveArgs,
    ChangesArgs,
    ChangesReply,
    CommitArgs,
    Conflict,
    CreateArgs,
    DeleteArgs,
    EvictArgs,
    GameArgs,
    HistoryReply,
    JoinArgs,
    JoinedReply,
    LegalArgs,
    LegalReply,
    LinkedReply,
    LobbyAddArgs,
    LobbyAdded,
    LobbyPage,
    LobbyPageArgs,
    LobbyRemoveArgs,
    MovesArgs,
    MovesReply,
    NeededReply,
    NoArgs,
    NotFound,
    OfferedReply,
    Ok,
    ReadArgs,
    ReadReply,
    ReceiptFound,
    Refused,
    RematchArgs,
    Replay,
    ReplayState,
    SeatTakenReply,
    SpectateArgs,
    SpectatorReply,
    TooManySpectatorsReply,
    decode,
    gift_read,
    meta_fields,
    moves_read,
    player_or_none,
    record_read,
    refusal_of,
    state_read,
    status_of,
    winner_of,
)

# Games a creation may ask to give their places (each found moved in meanwhile, or taken by
# another process's creation first), before it is refused.
EVICTIONS = 3


# The scripts of each fast path's engine (``FastPath.engine``): its moves, and the page of legal
# moves it lists from what the first keeps.
ENGINES = {"lines": ("line_move", "line_legal")}
GENERIC = "generic"


@dataclass(frozen=True, slots=True)
class Known:
    """What never changes of a game, once read: its kind and engine, its players' token hashes,
    the client that created it (whose share of the store it holds), and its board's size."""

    kind: str
    engine: str
    hashes: tuple[str, str]
    owner: str
    size: tuple[int, int]  # rows, columns
    private: bool = False  # read only with a player's or a spectator's token


T = TypeVar("T")

# The hash slots of a Redis Cluster.
CLUSTER_SLOTS = 16384
# Reads and decisions of one move on the generic engine before giving up under contention.
MAX_ATTEMPTS = 32
# The last moves' records a takeback on the generic engine reads with the game first (its own
# move and the reply, and more), and how read.lua is asked for all of them.
TAKEBACK_RECORDS = 8
ALL_RECORDS = -1


class _DecideAgain(Exception):
    """The game, or this request's receipt, changed since it was read: read and decide again."""


class _ReadEveryRecord(Exception):
    """The decision reaches past the moves' records read with the game: read them all."""


def _outcome(session: Session, result: MoveResult) -> dict[str, str | int]:
    """What commit.lua writes for an accepted move: the game's new fields, the record (the kind's
    text: commit.lua adds the stamp) and the mover."""
    state, move = result.state, result.move
    return {
        "status": state.status, "winner": state.winner, "next_player": state.next_player or 0,
        "position": session.position.encode(), "facts": json.dumps(dict(state.facts)),
        "record": session.kind.encode_move(move), "reason": state.reason or "",
        "mover": move.player,
    }  # fmt: skip


# The endings the session decides (the others are the kind's, or the move limit's).
SESSION_ENDINGS: tuple[str, ...] = ("timeout", "resignation", "agreement", *ABORTED)


class RedisGameStore:
    """Games in Redis, shared by every service process that points at the same server."""

    def __init__(
        self,
        kinds: KindRegistry,
        url: str,
        *,
        max_games: int,
        idle_seconds: float,
        timeout_seconds: float,
        max_connections: int = 50,
        stream_connections: int = 10,
        kept_games: int = 256,
        clock: Callable[[], float] = time.time,
        caller_time: bool = False,
        fast_paths: bool = True,
        max_moves: int = DEFAULT_MAX_MOVES,
        max_total_moves: int = DEFAULT_MAX_TOTAL_MOVES,
        max_refusals: int = DEFAULT_MAX_REFUSALS,
        unstarted_seconds: float | None = None,
        max_unstarted: int | None = None,
        client_share: float = 1.0,
        network_factor: float = 1.0,
        client_open_games: int = DEFAULT_CLIENT_OPEN_GAMES,
        game_spectators: int = DEFAULT_GAME_SPECTATORS,
        game_time_gifts: int = DEFAULT_GAME_TIME_GIFTS,
    ) -> None:
        """``clock`` is this process's time (the accounting's); the games' clocks run on the
        store's time, or on ``clock``'s with ``caller_time`` (tests: see scripts.py).
        The bounds are the memory store's (``MemoryGameStore``), kept for all processes."""
        self.kinds = kinds
        self.client_open_games = client_open_games
        self.network_open_games = network_bound(client_open_games, network_factor)
        self.game_spectators = game_spectators
        self.game_time_gifts = game_time_gifts
        # Every lobby index a game of the served kinds may be listed in (a game leaves them all).
        self.lobby_indexes = sorted(
            {lobby_index(where) for kind in kinds for where in filters(kind.name, {})}
            | {lobby_index((kind.name, rule)) for kind in kinds for rule in kind.rules}
        )
        self.max_games = max_games
        self.max_refusals = max_refusals
        self.max_moves = max_moves  # each game keeps the limit it was created with
        self.idle_ms = max(1, int(idle_seconds * 1000))
        unstarted = idle_seconds if unstarted_seconds is None else unstarted_seconds
        self.unstarted_ms = max(1, int(unstarted * 1000))
        self.clock = clock
        self.fast_paths = fast_paths  # False: every new game takes the generic engine (tests)
        self.endings: Counter[str] = Counter()  # games this process ended, by reason

        # A request waits (up to the timeout) for a free connection rather than failing when
        # all are busy; connections are reused, so a few dozen carry any one process.
        self.cluster = is_cluster(url)
        self.client = connect(url, max_connections, timeout_seconds)
        # Push streams read on connections of their own (and the process's subscriptions), so
        # that no number of streams can take a connection a move needs.
        self.stream_client = connect(url, stream_connections + 1, timeout_seconds)
        self.scripts = ScriptRunner(
            publish="SPUBLISH" if self.cluster else "PUBLISH", caller_time=caller_time,
            clock=clock, on_flag_fall=self._flag_fell,
        )  # fmt: skip
        self.accounts = MoveAccounts(
            self.scripts, self.client, clock=clock, max_games=max_games,
            max_unstarted=max_games if max_unstarted is None else max_unstarted,
            max_total_moves=max_total_moves, client_games=client_part(max_games, client_share),
            network_games=network_part(max_games, client_share, network_factor),
            client_moves=client_part(max_total_moves, client_share),
            network_moves=network_part(max_total_moves, client_share, network_factor),
            idle_ms=self.idle_ms, unstarted_ms=self.unstarted_ms,
        )  # fmt: skip
        self.push = PushListener(self.stream_client, timeout_seconds, self._version)
        self._known: OrderedDict[str, Known] = OrderedDict()
        # Generic-engine games as this process last wrote them, to decide the next move without
        # reading them first (``_decide_on_kept``); least recently written dropped first.
        self.kept_games = kept_games
        self._kept: OrderedDict[str, tuple[Session, int]] = OrderedDict()

    async def close(self) -> None:
        await self.accounts.close()
        await self.push.close()
        for client in (self.client, self.stream_client):
            await (client.close() if isinstance(client, BoundedCluster) else client.aclose())

    def _flag_fell(self, reason: str) -> None:
        self.endings[reason] += 1

    def _count_ending(self, state: GameState) -> None:
        """Count a change this process made that ended the game."""
        if state.reason is not None:
            self.endings[state.reason] += 1

    async def _run(self, call: Call, *, change: bool = False) -> Any:
        return await self.scripts.run(self.client, call, change=change)

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    # --- creating and reading ---------------------------------------------------------------

    def _engine_for(self, kind: GameKind, params: Mapping[str, object], opened: bool) -> str:
        """The kind's fast path's engine, if it applies to these parameters; the generic engine
        for an opened game (a fast path keeps a board of its own, which only its moves make)."""
        path = kind.fast_path
        if self.fast_paths and path is not None and path.applies(params) and not opened:
            return path.engine
        return GENERIC

    def _scripts(self, kind: str) -> tuple[str, str]:
        """The scripts of a game of ``kind`` on its fast path: its moves', its legal moves'."""
        path = self.kinds.find(kind).fast_path
        assert path is not None, "a game is on a fast path only if its kind has one"
        return ENGINES[path.engine]

    async def create(
        self,
        kind: str,
        params: Mapping[str, object],
        control: TimeControl | None = None,
        owner: str = "",
        opening: Sequence[Played] = (),
        open_seat: Player | None = None,
        terms: Terms = NO_TERMS,
        seated: tuple[str, str] | None = None,
    ) -> CreatedGame:
        game_kind = self.kinds.find(kind)
        game_id = tokens.new_game_id()
        await self._reserve(game_id, owner, len(opening))
        secrets, hashes = seats(open_seat, seated)
        position = opened(game_kind, params, opening)
        session = Session(
            game_id, game_kind, params, hashes, position, self.max_moves,
            version=position.move_count,  # an opening's moves, as if they had been played
            lobby=open_seat is not None, open_seat=open_seat,
        )  # fmt: skip
        state = session.state()
        if control is not None:  # the clocks, stopped (game.lua): Clocks.start
            initial = control.initial_ms
            state = replace(state, clock=ClockState(control, (initial, initial), None, None))
        engine = self._engine_for(game_kind, params, bool(opening))
        fields: dict[str, object] = {
            "kind": kind, "engine": engine, "params": json.dumps(dict(params)),
            "h1": hashes[0], "h2": hashes[1], "status": state.status, "winner": state.winner,
            "next": state.next_player or 0, "version": state.version, "refusals": 0,
            "facts": json.dumps(dict(state.facts)), "reason": state.reason or "",
            "max_moves": self.max_moves, "offer": 0, "pm": 0,
            "opened": position.move_count,  # its opening's moves (a rematch plays them again)
        }  # fmt: skip
        if terms.first_move_seconds is not None:  # create.lua sets its first deadline
            fields["fm"] = terms.first_move_seconds * 1000
        if terms.disabled:
            fields["off"] = ",".join(sorted(terms.disabled))
        if terms.private:
            fields["private"] = 1
        if control is not None:
            fields |= {
                "control": control.encode(), "r1": control.initial_ms, "r2": control.initial_ms,
                "since": 0, "running": 0,
                "moved": 0 if game_kind.clocks_wait(params) else WAITED_FOR,  # game.lua's bits
            }  # fmt: skip
        if engine == GENERIC:
            fields["position"] = session.position.encode()
        else:
            path = game_kind.fast_path
            assert path is not None, "the engine is the kind's fast path's"
            fields |= path.params(params)
        fields["owner"] = owner
        network = network_of(owner)
        if network is not None:
            fields["network"] = network
        if open_seat is not None:  # nobody moves until the seat is taken (join.lua)
            fields |= {"lobby": 1, "open": open_seat, "waits": position.next_player or 0}
        records = [game_kind.encode_move(move) for move in session.moves(0, state.move_count)]
        args = CreateArgs(
            ttl_ms=self.unstarted_ms, fields=meta_fields(fields), records=json.dumps(records)
        )
        keys = game_keys(game_id)
        made_at = await self._run(Call("create", [keys.meta, keys.moves], args))
        state = replace(state, disabled=terms.disabled, private=terms.private, at_ms=int(made_at))
        if terms.first_move_seconds is not None and state.next_player is not None:
            state = await self.state(game_id)  # its deadline, by the store's time
        if state.open_seat is not None and not terms.private:  # listed once it exists
            try:
                await self._list(game_id, kind, params, owner)
            except CapacityExhausted:  # past its owner's most: no game after all
                await self._forget(game_id)  # its reserved place given back
                raise
        size = board_size(game_kind, state.facts)
        self._know(game_id, Known(kind, engine, hashes, owner, size, terms.private))
        return CreatedGame(state, secrets)

    async def _reserve(self, game_id: str, owner: str, opened: int) -> None:
        """A place for a new game of ``owner`` with ``opened`` opening moves (reserve.lua), or
        CapacityExhausted. At the store's most games, or most games nobody has moved in, the
        accounting may name a game that must give its place (``EVICTIONS`` rounds at most: other
        processes make room at once too): gone here unless somebody moved in it meanwhile
        (evict.lua), and the accounting told, with the next ask, what became of it."""
        evicted, started = "", False
        for round_ in range(EVICTIONS + 1):
            reserved = await self.accounts.reserve(
                game_id, owner, opened, evicted, started, may_evict=round_ < EVICTIONS
            )
            if reserved.placed:
                return
            if not reserved.victim:
                break
            evicted = reserved.victim
            started = await self._evict(evicted) == "started"
        limit, what = {
            "moves": (self.accounts.max_total_moves, "stored moves"),
            "client_games": (self.accounts.client_games, CLIENT_GAMES),
            "network_games": (self.accounts.network_games, NETWORK_GAMES),
            "client_moves": (self.accounts.client_moves, CLIENT_MOVES),
            "network_moves": (self.accounts.network_moves, NETWORK_MOVES),
            "unstarted": (self.accounts.max_unstarted, UNSTARTED_GAMES),
        }.get(reserved.why, (self.max_games, "live games"))
        raise CapacityExhausted(limit, seconds(reserved.wait_ms), what)

    async def _evict(self, game_id: str) -> str:
        """evict.lua: the game nobody moved in gives its place ('evicted'; or 'gone' already),
        unless it was moved in ('started'); an open one leaves the lobby too."""
        keys = list(game_keys(game_id))
        outcome = str(await self._run(Call("evict", keys, EvictArgs(channel=channel(game_id)))))
        if outcome != "started":
            self._known.pop(game_id, None)
            self._kept.pop(game_id, None)
            with suppress(StoreUnavailable):  # else a listing drops it, finding it gone
                await self._unlist(game_id)
        return outcome

    async def _list(
        self, game_id: str, kind: str, params: Mapping[str, object], owner: str
    ) -> None:
        """List a new open game in the lobby, or CapacityExhausted: its owner (or its network)
        holds its most. Before refusing, the listed games it names that are no longer open
        (taken, over, or expired: Redis forgets a game, not its entry in the lobby) leave it,
        and the game is listed if that made room: an owner's count never outlives its games."""
        indexes = [lobby_index(where) for where in filters(kind, params)]
        args = LobbyAddArgs(
            game_id=game_id, owner=owner, most=self.client_open_games,
            network=network_of(owner) or "", network_most=self.network_open_games,
        )  # fmt: skip
        keys = [LOBBY_OWNER_OF, LOBBY_OWNED, LOBBY_COUNTER, LOBBY_NETWORK_OF, *indexes]
        for attempt in range(2):
            added = LobbyAdded(*(await self._run(Call("lobby_add", keys, args))))
            if int(added.placed):
                return
            if attempt == 0:
                for held in added.held:
                    if not await self._still_open(held):
                        await self._unlist(held)
        # Its open games go when joined, deleted, or at the end of their unstarted lifetime.
        wait = seconds(self.unstarted_ms)
        if int(added.network):
            raise CapacityExhausted(self.network_open_games, wait, NETWORK_OPEN_GAMES)
        raise CapacityExhausted(self.client_open_games, wait, CLIENT_OPEN_GAMES)

    async def _still_open(self, game_id: str) -> bool:
        try:
            return (await self.state(game_id)).open_seat is not None
        except GameNotFound:
            return False

    async def _unlist(self, game_id: str) -> None:
        keys = [LOBBY_OWNER_OF, LOBBY_OWNED, LOBBY_NETWORK_OF, *self.lobby_indexes]
        await self._run(Call("lobby_remove", keys, LobbyRemoveArgs(game_id=game_id)))

    async def join(self, game_id: str, idempotency_key: str | None, requester: str) -> JoinResult:
        token = tokens.new_token()
        key = "" if idempotency_key is None else join_receipt_key(idempotency_key, requester)
        sealed = "" if idempotency_key is None else tokens.seal(token, idempotency_key)
        args = JoinArgs(
            token_hash=tokens.token_hash(token), sealed=sealed, key=key, channel=channel(game_id),
            ttl_ms=self.unstarted_ms,
        )  # fmt: skip
        keys = game_keys(game_id)
        found = decode(
            await self._run(Call("join", [keys.meta, keys.moves, keys.receipts], args), change=True)
        )
        if isinstance(found, NotFound):
            raise GameNotFound(game_id)
        if isinstance(found, SeatTakenReply):
            raise SeatTaken()
        assert isinstance(found, JoinedReply)
        state = state_read(self.kinds, game_id, found.state)
        self._known.pop(game_id, None)  # its token hashes changed
        if int(found.replayed):
            assert idempotency_key is not None, "only a keyed join is replayed"
            token = tokens.unseal(found.sealed, idempotency_key)
            return JoinResult(player_or_none(found.player) or 1, token, state, replayed=True)
        with suppress(StoreUnavailable):  # else a listing drops it, finding it taken
            await self._unlist(game_id)
        return JoinResult(player_or_none(found.player) or 1, token, state)

    async def rematch(self, game_id: str, token: str, owner: str) -> RematchAnswer:
        """rematch.lua decides; once the other player's offer stands, the rematch is made here
        first (from the game's recipe) and linked then: of racing links one wins, and a game
        made for one that lost is forgotten."""
        made = tokens.new_token()
        sealed = tokens.seal(made, token, tokens.REMATCH_SEAL)
        keys = game_keys(game_id)

        async def call(mode: str, new_id: str = "") -> tuple[Any, ...]:
            args = RematchArgs(
                token_hash=tokens.token_hash(token), mode=mode,
                new_hash=tokens.token_hash(made), sealed=sealed, new_id=new_id,
                channel=channel(game_id),
            )  # fmt: skip
            return decode(
                await self._run(Call("rematch", [keys.meta, keys.moves], args), change=True)
            )

        answer = await call("offer")
        if isinstance(answer, NeededReply):
            player = player_or_none(answer.player) or 1
            recipe = await self._recipe(game_id)
            seated = {player: answer.hash, other(player): tokens.token_hash(made)}
            created = await self.create(
                recipe.kind, recipe.params, recipe.control, owner, recipe.opening,
                terms=recipe.terms, seated=(seated[1], seated[2]),
            )  # fmt: skip
            answer = await call("link", created.state.id)
            if not isinstance(answer, LinkedReply) or answer.id != created.state.id:
                await self._forget(created.state.id)  # another call linked its own first
        if isinstance(answer, OfferedReply):
            return RematchAnswer(None, state_read(self.kinds, game_id, answer.state))
        if isinstance(answer, LinkedReply):
            mine = tokens.unseal(answer.sealed, token, tokens.REMATCH_SEAL)
            rematch = Rematch(answer.id, player_or_none(answer.player) or 1, mine)
            return RematchAnswer(rematch, state_read(self.kinds, game_id, answer.state))
        if type(answer) in NOT_MOVES:
            raise NOT_MOVES[type(answer)](game_id)
        raise REFUSED_AS[type(answer)](answer, ActionRequest("resign"))  # (none is a move's)

    async def _forget(self, game_id: str) -> None:
        """A game made for nothing (nobody was told of it): gone, its place given back."""
        with suppress(StoreUnavailable):  # else it expires as an unstarted game
            await self._run(Call("forget_game", list(game_keys(game_id)), NoArgs()))
            await self.accounts.forget(game_id)
        self._known.pop(game_id, None)

    async def _recipe(self, game_id: str) -> Recipe:
        """How the game was made: its creation parameters, clocks, terms and opening moves
        (its first ``opened`` move records)."""
        meta = self.client.hmget(
            game_keys(game_id).meta, ["kind", "params", "control", "fm", "off", "private", "opened"]
        )
        kind, params, control, first, off, private, count = await self.scripts.guard(
            meta, self.client
        )
        if kind is None:
            raise GameNotFound(game_id)
        game_kind = self.kinds.find(str(kind))
        opening = await self.moves(game_id, 0, int(count or 0)) if int(count or 0) else ([], 0)
        terms = Terms(
            None if first is None else int(first) // 1000,
            frozenset(str(off or "").split(",")) - {""}, str(private) == "1",
        )  # fmt: skip
        return Recipe(
            game_kind.name, json.loads(str(params)),
            None if control is None else TimeControl.decode(str(control)),
            tuple(move.played for move in opening[0]), terms,
        )  # fmt: skip

    async def open_games(self, where: Filter, after: int, limit: int) -> OpenGames:
        """A page of the lobby's index: each listed game's state read (a script a game: on a
        cluster each is in its own slot), and a game no longer open dropped from the lobby;
        at most ``STALE_READS`` entries read per game asked for."""
        games: list[GameState] = []
        cursor, more = after, True
        budget = limit * STALE_READS
        while len(games) < limit and more and budget > 0:
            most = min(limit - len(games), budget)
            args = LobbyPageArgs(after=cursor, most=most)
            page = LobbyPage(*(await self._run(Call("lobby_page", [lobby_index(where)], args))))
            budget -= len(page.ids)
            more = len(page.ids) == most
            for game_id, number in zip(page.ids, page.numbers, strict=True):
                cursor = int(float(number))
                try:
                    state: GameState | None = await self.state(game_id)
                except GameNotFound:
                    state = None
                if state is None or state.open_seat is None:
                    await self._unlist(game_id)
                else:
                    games.append(state)
        return OpenGames(games, cursor if more else None)

    async def state(self, game_id: str) -> GameState:
        keys = game_keys(game_id)
        found = await self._run(Call("state", [keys.meta, keys.moves], GameArgs(channel(game_id))))
        if not found:
            raise GameNotFound(game_id)
        return state_read(self.kinds, game_id, found)

    async def moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        keys = game_keys(game_id)
        first = max(since, 0)
        args = MovesArgs(first=first, last=first + limit - 1, channel=channel(game_id))
        found = await self._run(Call("moves", [keys.meta, keys.moves], args))
        if not found:
            raise GameNotFound(game_id)
        read = MovesReply(*found)
        return moves_read(self.kinds, read.kind, first, read.records), int(read.version)

    async def changes(self, game_id: str, since: int, limit: int) -> Changes:
        after = max(since, 0)
        return await self.push.shared(
            ("changes", game_id, after, limit, self.push.heard(game_id)),
            lambda: self._read_changes(game_id, after, limit),
        )

    async def _read_changes(self, game_id: str, after: int, limit: int) -> Changes:
        keys = game_keys(game_id)
        args = ChangesArgs(after=after, most=limit, channel=channel(game_id))
        found = await self.scripts.run(
            self.stream_client, Call("changes", [keys.meta, keys.moves], args)
        )
        if not found:
            raise GameNotFound(game_id)
        read = ChangesReply(*found)
        now = state_read(self.kinds, game_id, read.state)
        kind = self.kinds.find(now.kind)
        moves = moves_read(self.kinds, now.kind, int(read.first), read.records)
        params = json.loads(read.params) if read.params else {}
        gifts = None
        if read.gifts is not None:
            gifts = tuple(
                state_at_gift(now, *gift_read(kind, entry), kind, params) for entry in read.gifts
            )
        taken_back = None
        if read.tb_version:
            left = int(read.tb_left)
            last = record_read(kind, left, read.tb_last) if left else None
            taken_back = state_at_takeback(
                now, int(read.tb_version), left, last, kind, params, int(read.tb_at or 0) or None
            )
        return Changes(moves, now, int(read.at), taken_back, gifts)

    async def move(self, game_id: str, seq: int) -> Move:
        if seq < 1:
            await self.state(game_id)  # 404 for an unknown game first
            raise MoveNotFound(game_id, seq)
        moves, _ = await self.moves(game_id, seq - 1, 1)
        if not moves:
            raise MoveNotFound(game_id, seq)
        return moves[0]

    async def legal_moves(self, game_id: str, after: int, limit: int) -> LegalMovesPage:
        """A fast path's script lists the page on the server, from the board it keeps (its
        cells); the generic engine reads the game as a move does (read.lua: a position whose
        text does not grow with its moves) and lets the same ``Session`` as the
        memory store answer. One read, so the page is the game's at the version it says."""
        known = await self._known_game(game_id)  # its engine: an unknown game is a 404 here
        keys = game_keys(game_id)
        if known.engine == GENERIC:
            read = Call("read", [keys.meta, keys.receipts, keys.moves], ReadArgs(channel(game_id)))
            found = await self._run(read)
            if not found:
                raise GameNotFound(game_id)
            session, _ = self._session(game_id, ReadReply(*found), None)
            return session.legal_moves(after, limit)
        args = LegalArgs(after=after, most=limit, channel=channel(game_id))
        call = Call(self._scripts(known.kind)[1], [keys.meta, keys.cells], args)
        found = await self._run(call)
        if not found:
            raise GameNotFound(game_id)
        page = LegalReply(*found)
        cells = [int(index) for index in page.cells]
        moves = tuple(LegalMove(Placement(*divmod(index, int(page.n)))) for index in cells)
        next_after = cells[-1] if cells and int(page.more) else None
        return LegalMovesPage(
            game_id, known.kind, int(page.version), player_or_none(page.player),
            LegalMoves(int(page.total), moves, next_after),
        )  # fmt: skip

    async def rows(self, game_id: str) -> list[str]:
        """The board, rebuilt by replaying the moves (the caller bounds the board's size)."""
        history = await self.history(game_id)
        position = self.kinds.find(history.kind).new(history.params)
        for move in history.moves:
            position.play(move.played, move.player)
        return position.rows()

    async def history(self, game_id: str) -> History:
        keys = game_keys(game_id)
        found = await self._run(Call("replay", [keys.meta, keys.moves], NoArgs()))
        if not found:
            raise GameNotFound(game_id)
        read = HistoryReply(*found)
        game_kind = self.kinds.find(read.kind)
        moves = [record_read(game_kind, seq, text) for seq, text in enumerate(read.records, 1)]
        return History(read.kind, json.loads(read.params), moves)

    async def delete(self, game_id: str, token: str) -> None:
        args = DeleteArgs(token_hash=tokens.token_hash(token), channel=channel(game_id))
        outcome = await self._run(Call("delete", list(game_keys(game_id)), args), change=True)
        if outcome != "ok":  # not found, or not authorised
            raise NOT_MOVES[type(decode([outcome]))](game_id)
        self._known.pop(game_id, None)
        self._kept.pop(game_id, None)
        with suppress(StoreUnavailable):  # an open game leaves the lobby (else a listing drops it)
            await self._unlist(game_id)
        # The game is deleted (the answer is 204 whatever follows); were its accounts not told,
        # they give its place back when its expiry instant passes, as for a game that expired.
        with suppress(StoreUnavailable):
            await self.accounts.forget(game_id)

    async def live_games(self) -> int:
        count = self.client.zcount(LIVE_GAMES, self._now_ms(), "+inf")
        return int(await self.scripts.guard(count, self.client))

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
                await forget_connections(error, self.client)
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

    # --- who plays ----------------------------------------------------------------------------

    def _know(self, game_id: str, known: Known) -> None:
        self._known[game_id] = known
        self._known.move_to_end(game_id)
        if len(self._known) > self.max_games:  # what is known of more is of dead games
            self._known.popitem(last=False)

    async def _known_game(self, game_id: str) -> Known:
        """The game's engine, token hashes and size: as this process knows them, else read
        (one round trip, once); GameNotFound for a game that does not exist."""
        known = self._known.get(game_id)
        if known is None:
            fields = ["kind", "engine", "h1", "h2", "owner", "network", "facts", "private"]
            read = self.client.hmget(game_keys(game_id).meta, fields)
            found = await self.scripts.guard(read, self.client)
            kind, engine, first, second, owner, network, facts, private = found
            if engine is None:
                raise GameNotFound(game_id)
            # The facts change with the moves (a score), the board's size never.
            size = board_size(self.kinds.find(str(kind)), json.loads(str(facts)))
            hashes = (str(first), str(second))
            client = Client(str(owner or ""), str(network) if network else None)
            known = Known(str(kind), str(engine), hashes, client, size, private in ("1", b"1"))
        self._know(game_id, known)
        return known

    async def seat(self, game_id: str, token: str) -> Seat:
        known = await self._known_game(game_id)
        try:
            player = await self._player(game_id, known, token)
        except Unauthorized:
            if await self._spectates(game_id, token):
                raise SpectatorToken() from None
            raise
        return Seat(player, known.kind, known.size)

    async def _player(self, game_id: str, known: Known, token: str) -> Player:
        """The player whose token this is, by the hashes known (read again where an open seat
        was known: it may have been taken since), or Unauthorized."""
        try:
            return player_by_hash(known.hashes, token)
        except Unauthorized:
            if "" not in known.hashes:
                raise
            self._known.pop(game_id, None)
            known = await self._known_game(game_id)
            return player_by_hash(known.hashes, token)

    async def _spectates(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is one of the game's spectator tokens (spectate.lua keeps them)."""
        asked = self.client.hexists(game_keys(game_id).meta, f"s:{tokens.token_hash(token)}")
        return bool(await self.scripts.guard(asked, self.client))

    async def viewer(self, game_id: str, token: str | None) -> None:
        known = await self._known_game(game_id)
        if not known.private:
            return
        if token is None:
            raise Unauthorized(PRIVATE_GAME)
        try:
            await self._player(game_id, known, token)
        except Unauthorized:
            if not await self._spectates(game_id, token):
                raise Unauthorized(PRIVATE_GAME) from None

    async def spectate(self, game_id: str, token: str) -> str:
        made = tokens.new_token()
        args = SpectateArgs(
            token_hash=tokens.token_hash(token), new_hash=tokens.token_hash(made),
            most=self.game_spectators,
        )  # fmt: skip
        keys = game_keys(game_id)
        answer = decode(await self._run(Call("spectate", [keys.meta, keys.moves], args)))
        if isinstance(answer, Ok):
            return made
        if isinstance(answer, SpectatorReply):
            raise SpectatorToken()
        if isinstance(answer, TooManySpectatorsReply):
            raise TooManySpectators(self.game_spectators)
        raise NOT_MOVES[type(answer)](game_id)

    async def board_shape(self, game_id: str) -> BoardShape:
        known = await self._known_game(game_id)
        return BoardShape(known.kind, known.size)

    # --- moves ------------------------------------------------------------------------------

    async def play(self, game_id: str, token: str, request: MoveRequest) -> MoveResult:
        known = await self._known_game(game_id)  # an unknown game is a 404 first
        engine, full = known.engine, await self.accounts.full(known.owner)
        if engine == GENERIC:
            move = self._generic_move(game_id, token, request, full)
        else:
            move = self._fast_move(game_id, self._scripts(known.kind)[0], token, request, full)
        return await self.scripts.guard(move, self.client, change=True)

    def _accepted(self, game_id: str, found: list[Any]) -> MoveResult:
        """The answer to a move a script accepted, from the state it answered; the move is
        counted."""
        self.accounts.accepted(game_id, self._known[game_id].owner)
        state = state_read(self.kinds, game_id, found)
        self._count_ending(state)
        move = state.last_move
        assert move is not None, "a move was accepted"
        return MoveResult(winner=state.winner, move=move, state=state)

    async def _fast_move(
        self, game_id: str, script: str, token: str, request: MoveRequest,
        full: CapacityExhausted | None,
    ) -> MoveResult:  # fmt: skip
        played = request.played
        row: int | str
        col: int | str
        if isinstance(played, Placement):
            row, col = played.row, played.col
        else:  # refused by the engine's rules: a pass (where a rule has none), or a choice
            row, col = ("pass" if isinstance(played, Pass) else "choice"), ""
        args = CellMoveArgs(
            token_hash=tokens.token_hash(token), row=row, col=col,
            claimed=request.player or "", ttl_ms=self.idle_ms,
            expected_version="" if request.expected_version is None else request.expected_version,
            key=request.idempotency_key or "", fingerprint=request.fingerprint(),
            most_refusals=self.max_refusals, channel=channel(game_id), full="1" if full else "",
        )  # fmt: skip
        answer = decode(await self.accounts.with_move(Call(script, game_keys(game_id), args)))
        if isinstance(answer, CapacityFull) and full is not None:
            raise full
        if isinstance(answer, Ok):
            return self._accepted(game_id, answer.state)
        if isinstance(answer, Replay):
            now = state_read(self.kinds, game_id, answer.state)
            kind = self.kinds.find(now.kind)
            return result_at(record_read(kind, int(answer.seq), answer.record), now, kind)
        raise refusal_of(game_id, answer, request)

    async def _generic_move(
        self, game_id: str, token: str, request: MoveRequest, full: CapacityExhausted | None
    ) -> MoveResult:
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
            return self._accepted(game_id, answer.state)

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
            session, read_version = self._session(game_id, ReadReply(*found), request)
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
        moves, _ = await self.moves(game_id, answered.seq - 1, 1)
        now = await self.state(game_id)
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
        return self._accepted(game_id, answer.state)

    def _keep(self, game_id: str, session: Session, version: int) -> None:
        """Remember the game as this process wrote it (a bounded number of games), without its
        receipts: a keyed request is checked against the store's (commit.lua) anyway."""
        session.receipts.clear()
        self._kept[game_id] = (session, version)
        if len(self._kept) > self.kept_games:
            self._kept.popitem(last=False)

    def _session(
        self, game_id: str, read: ReadReply, request: MoveRequest | ActionRequest | None
    ) -> tuple[Session, int]:
        """The game as the generic engine read it: a Session holding just the receipts of this
        request's Idempotency-Key (under either player; none without a request), and the
        version read."""
        kind = self.kinds.find(read.kind)
        params = json.loads(read.params)
        session = Session(
            game_id, kind, params, (read.h1, read.h2), kind.decode(params, read.position or ""),
            int(read.max_moves), self.max_refusals, int(read.version),
            draw_offer=player_or_none(read.offer or 0), lobby=read.lobby == "1",
            open_seat=player_or_none(read.open), joined=int(read.joined) or None,
            takeback_offer=player_or_none(read.tbo), untimed=int(read.opened),
            disabled=frozenset(read.off.split(",")) - {""},
        )  # fmt: skip
        if read.records:  # the last moves' records (a takeback's), with their stamps
            first = session.position.move_count - len(read.records) + 1
            session.earlier = {
                first + i: record_read(kind, first + i, record)
                for i, record in enumerate(read.records)
            }
        if read.reason in SESSION_ENDINGS:
            session.ending = Ending(
                status_of(read.status), winner_of(read.winner), cast(Reason, read.reason)
            )
        session.refusals = int(read.refusals or 0)
        key = None if request is None else request.idempotency_key
        for player, text in zip((1, 2), read.receipts, strict=False):  # read only for a keyed one
            if not text or key is None or request is None:
                continue
            fingerprint = text.partition("|")[0]
            if fingerprint == request.fingerprint():
                receipt = receipt_from(text, lambda found: state_read(self.kinds, game_id, found))
            else:  # another request's answer (an action's, kept by act.lua): only reused
                receipt = Receipt(fingerprint, IdempotencyKeyReused())
            session.receipts[receipt_key(cast(Player, player), key)] = receipt
        return session, int(read.version)

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
            **({} if result is None else _outcome(session, result)),
        )  # fmt: skip
        call = Call("commit", [keys.meta, keys.moves, keys.receipts], args)
        answer = decode(await self.accounts.with_move(call))
        if isinstance(answer, (Accepted, Refused, Conflict, ReceiptFound)):
            return answer
        raise refusal_of(session.id, answer, request)  # the game is gone

    # --- resignations and draw offers -------------------------------------------------------

    async def act(self, game_id: str, token: str, request: ActionRequest) -> ActionResult:
        if request.action == "takeback" and (await self._known_game(game_id)).engine == GENERIC:
            return await self._generic_takeback(game_id, token, request)
        keys = game_keys(game_id)
        args = ActArgs(
            token_hash=tokens.token_hash(token), action=request.action,
            claimed=request.player or "",
            expected_version="" if request.expected_version is None else request.expected_version,
            key=request.idempotency_key or "", fingerprint=request.fingerprint(),
            most_refusals=self.max_refusals, channel=channel(game_id),
            flag=ACTION_FLAGS.get(request.action, ""), seconds=request.seconds,
            most_gifts=self.game_time_gifts,
        )  # fmt: skip
        call = Call(
            "act", [keys.meta, keys.moves, keys.receipts, keys.cells, keys.lines, keys.stones], args
        )
        answer = decode(await self._run(call, change=True))
        self._kept.pop(game_id, None)  # its version changed, or will be checked anyway
        if isinstance(answer, Ok):
            state = state_read(self.kinds, game_id, answer.state)
            self._count_ending(state)
            if state.lobby and state.joined is None and state.status != "in_progress":
                with suppress(StoreUnavailable):  # aborted waiting: else a listing drops it
                    await self._unlist(game_id)
            return ActionResult(state)
        if isinstance(answer, ReplayState):
            return ActionResult(
                state_read(self.kinds, game_id, json.loads(answer.state)), replayed=True
            )
        raise refusal_of(game_id, answer, request)

    async def _generic_takeback(
        self, game_id: str, token: str, request: ActionRequest
    ) -> ActionResult:
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
        state = session.state()
        args = CommitArgs(
            version=version, receipt_field=field, receipt_value=value,
            most_refusals=self.max_refusals, ttl_ms=self.idle_ms, channel=channel(session.id),
            outcome=outcome or "refused", position=session.position.encode(),
            facts=json.dumps(dict(state.facts)), left=state.move_count,
            offerer=(state.takeback_offer if outcome == "offered" else state.next_player) or "",
        )  # fmt: skip
        call = Call("commit", [keys.meta, keys.moves, keys.receipts], args)
        answer = decode(await self._run(call, change=True))
        if isinstance(answer, (Accepted, Refused, Conflict, ReceiptFound)):
            return answer
        raise refusal_of(session.id, answer, request)  # the game is gone

    # --- push -------------------------------------------------------------------------------

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        await self.push.wait_for_change(game_id, version, timeout)

    async def _version(self, game_id: str) -> int:
        read = self.stream_client.hget(game_keys(game_id).meta, "version")
        found = await self.scripts.guard(read, self.stream_client)
        if found is None:
            raise GameNotFound(game_id)
        return int(found)
