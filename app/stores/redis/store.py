"""A GameStore on Redis: many service processes, on many hosts, share the same games.

Every unit of work is atomic: a script (``lua/*.lua``, shipped with the package). The store is in
rooms of one idea each: where things are kept (``keys.py``), what each script takes and answers
(``wire.py``), what a game's stored fields mean (``codec.py``), the script runner
(``scripts.py``), the move accounting (``accounts.py``), the push listener (``push.py``), what
this process knows of who plays (``known.py``), the lobby (``lobby.py``), readiness
(``ready.py``), and the two kinds of engine; this module is the ``GameStore``, and routes each
request to what runs it. A game's *engine* is chosen when it is created and kept in its meta
hash:

* **generic** (any kind, ``generic.py``): read what the move needs, let the same
  ``Session.play`` the memory store uses decide it in Python, then write the outcome applied
  only if the game is still at the version that was read (compare-and-set).
* **a fast path** (``fast.py``: the games its kind declares ``FastPath`` for): one script checks
  and applies the move in O(1) on the server, one round trip.

A refused move changes nothing and is raised as the same exception the in-memory store
raises. Python never writes a game it has not just compared.

The client does not retry on its own: a move whose reply was lost must not be applied twice, so
any connection failure or timeout is answered 503 ``store_unavailable`` at once.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import replace
from typing import Any, TypeVar

from app.sessions import tokens
from app.sessions.clock import ClockState
from app.sessions.errors import (
    OWN_GAME,
    PLAYER_NEEDED,
    PRIVATE_GAME,
    CapacityExhausted,
    GameNotFound,
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
    GameKind,
    KindRegistry,
    Move,
    board_size,
    other,
)
from app.sessions.lobby import Filter
from app.sessions.past import state_at_gift, state_at_takeback
from app.sessions.receipts import join_receipt_key
from app.sessions.session import (
    DEFAULT_GAME_SPECTATORS,
    DEFAULT_GAME_TIME_GIFTS,
    DEFAULT_MAX_MOVES,
    DEFAULT_MAX_REFUSALS,
    Session,
)
from app.sessions.store import (
    CLIENT_GAMES,
    CLIENT_MOVES,
    DEFAULT_CLIENT_OPEN_GAMES,
    DEFAULT_MAX_TOTAL_MOVES,
    NETWORK_GAMES,
    NETWORK_MOVES,
    UNSTARTED_GAMES,
    BoardShape,
    Changes,
    CreatedGame,
    History,
    NewGame,
    OpenGames,
    Seat,
    client_part,
    network_bound,
    network_part,
    opened,
    seats,
)
from app.stores.redis.accounts import MoveAccounts, seconds
from app.stores.redis.cluster import BoundedCluster, connect, is_cluster
from app.stores.redis.codec import (
    GENERIC,
    Known,
    created_fields,
    gift_read,
    moves_read,
    opening_moves,
    player_or_none,
    recipe_of,
    record_read,
    state_read,
)
from app.stores.redis.fast import FastPaths
from app.stores.redis.generic import GenericEngine
from app.stores.redis.keys import (
    LIVE_GAMES,
    channel,
    game_keys,
    slot_keys,
    slot_of,
)
from app.stores.redis.known import KnownGames
from app.stores.redis.life import Life
from app.stores.redis.lobby import Lobby
from app.stores.redis.push import PushListener
from app.stores.redis.ready import takes_writes
from app.stores.redis.scripts import Call, ScriptRunner
from app.stores.redis.wire import (
    NOT_MOVES,
    REFUSED_AS,
    ActArgs,
    ChangesArgs,
    ChangesReply,
    CreateArgs,
    DeleteArgs,
    EvictArgs,
    GameArgs,
    HistoryReply,
    JoinArgs,
    JoinedReply,
    LinkedReply,
    MovesArgs,
    MovesReply,
    NeededReply,
    NoArgs,
    NotFound,
    OfferedReply,
    Ok,
    RecipeFields,
    RematchArgs,
    ReplayState,
    SeatTakenReply,
    SpectateArgs,
    SpectatorReply,
    TooManySpectatorsReply,
    decode,
    refusal_of,
)

# Games a creation may ask to give their places (each found moved in meanwhile, or taken by
# another process's creation first), before it is refused.
EVICTIONS = 3


T = TypeVar("T")


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
        archive: bool = False,
    ) -> None:
        """``clock`` is this process's time (the accounting's); the games' clocks run on the
        store's time, or on ``clock``'s with ``caller_time`` (tests: see scripts.py).
        The bounds are the memory store's (``MemoryGameStore``), kept for all processes.
        ``archive``: every ended game waits in the outbox until archived (``life.py``)."""
        self.kinds = kinds
        self.archive = archive
        self.game_spectators = game_spectators
        self.game_time_gifts = game_time_gifts
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
            life_keys=lambda meta: self.life.keys_of(meta),
            on_life=lambda meta, ended, due: self.life.seen(meta, ended, due),
            archive=archive, idle_ms=self.idle_ms,
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
        # Deadlines swept with nobody looking, and the archive's outbox.
        self.life = Life(
            self.client, self.scripts, self.accounts, cluster=self.cluster, archive=archive,
            idle_ms=self.idle_ms, clock=clock, caller_time=caller_time, settle=self.state,
        )  # fmt: skip
        self.ended = self.life.ended  # the port's: set when a game this process ends waits
        self.push = PushListener(self.stream_client, timeout_seconds, self._version)
        self.known = KnownGames(kinds, self.client, self.scripts, max_games)
        self.generic = GenericEngine(
            kinds, self.client, self.scripts, self.accounts, max_refusals=max_refusals,
            idle_ms=self.idle_ms, kept_games=kept_games, accepted=self._accepted,
            read_state=self.state, read_moves=self.moves,
        )  # fmt: skip
        self.lobby = Lobby(
            kinds, self._run, self.state, client_open_games=client_open_games,
            network_open_games=network_bound(client_open_games, network_factor),
            unstarted_ms=self.unstarted_ms,
        )  # fmt: skip
        self.fast = FastPaths(
            kinds, self.client, self.scripts, self.accounts, max_refusals=max_refusals,
            idle_ms=self.idle_ms, accepted=self._accepted,
        )  # fmt: skip

    async def close(self) -> None:
        await self.life.close()
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
        self.life.start()  # the sweep runs in every process the store is used in
        try:
            return await self.scripts.run(self.client, call, change=change)
        finally:
            await self.life.told()

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

    async def create(self, game: NewGame) -> CreatedGame:
        kind, params, control, owner, terms = (
            game.kind,
            game.params,
            game.control,
            game.owner,
            game.terms,
        )
        game_kind = self.kinds.find(kind)
        game_id = game.id or tokens.new_game_id()
        await self._reserve(game_id, owner, len(game.opening))
        secrets, hashes = seats(game.open_seat, game.seated, game.given)
        position = opened(game_kind, params, game.opening)
        session = Session(
            game_id, game_kind, params, hashes, position, self.max_moves,
            version=position.move_count,  # an opening's moves, as if they had been played
            lobby=game.open_seat is not None, open_seat=game.open_seat, names=game.names,
            players=game.players, pool=terms.pool, tournament=terms.tournament,
        )  # fmt: skip
        state = session.state()
        if control is not None:  # the clocks, stopped (game.lua): Clocks.start
            initial = control.initial_ms
            state = replace(state, clock=ClockState(control, (initial, initial), None, None))
        engine = self._engine_for(game_kind, params, bool(game.opening))
        records = [game_kind.encode_move(move) for move in session.moves(0, state.move_count)]
        fast = None if engine == GENERIC else game_kind.fast_path
        fields = created_fields(session, engine, fast, owner, control, terms)
        args = CreateArgs(ttl_ms=self.unstarted_ms, fields=fields, records=json.dumps(records))
        keys = game_keys(game_id)
        made_at = await self._run(Call("create", [keys.meta, keys.moves], args))
        if not int(made_at):  # there already: made once by its id (``GameStore.create``)
            return CreatedGame(await self.state(game_id), game.given)
        state = replace(
            state, disabled=terms.disabled, private=terms.private, at_ms=int(made_at),
            created_ms=int(made_at),
        )  # fmt: skip
        if terms.first_move_seconds is not None and state.next_player is not None:
            state = await self.state(game_id)  # its deadline, by the store's time
        if state.open_seat is not None and not terms.private:  # listed once it exists
            try:
                await self.lobby.add(game_id, kind, params, owner)
            except CapacityExhausted:  # past its owner's most: no game after all
                await self._forget(game_id)  # its reserved place given back
                raise
        size = board_size(game_kind, state.facts)
        self.known.know(game_id, Known(kind, engine, hashes, owner, size, terms.private))
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
            self.known.forget(game_id)
            self.generic.forget(game_id)
            with suppress(StoreUnavailable):  # else a listing drops it, finding it gone
                await self.lobby.remove(game_id)
        return outcome

    async def join(
        self, game_id: str, idempotency_key: str | None, requester: str, name: str | None = None,
        player: str | None = None, token: str | None = None,
    ) -> JoinResult:  # fmt: skip
        token = token or tokens.new_token()
        key = "" if idempotency_key is None else join_receipt_key(idempotency_key, requester)
        sealed = "" if idempotency_key is None else tokens.seal(token, idempotency_key)
        args = JoinArgs(
            token_hash=tokens.token_hash(token), sealed=sealed, key=key, channel=channel(game_id),
            ttl_ms=self.unstarted_ms, name=name or "", player=player or "",
        )  # fmt: skip
        keys = game_keys(game_id)
        found = decode(
            await self._run(Call("join", [keys.meta, keys.moves, keys.receipts], args), change=True)
        )
        if isinstance(found, NotFound):
            raise GameNotFound(game_id)
        if isinstance(found, SeatTakenReply):
            if found.why == "player_needed":
                raise Unauthorized(PLAYER_NEEDED)
            raise SeatTaken(OWN_GAME) if found.why else SeatTaken()
        assert isinstance(found, JoinedReply)
        state = state_read(self.kinds, game_id, found.state)
        self.known.forget(game_id)  # its token hashes changed
        if int(found.replayed):
            assert idempotency_key is not None, "only a keyed join is replayed"
            token = tokens.unseal(found.sealed, idempotency_key)
            return JoinResult(player_or_none(found.player) or 1, token, state, replayed=True)
        with suppress(StoreUnavailable):  # else a listing drops it, finding it taken
            await self.lobby.remove(game_id)
        return JoinResult(player_or_none(found.player) or 1, token, state)

    async def rematch(self, game_id: str, token: str, owner: str) -> RematchAnswer:
        return await self._told(game_id, token, self._rematch(game_id, token, owner))

    async def _rematch(self, game_id: str, token: str, owner: str) -> RematchAnswer:
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
            created = await self.create(recipe.rematch(owner, (seated[1], seated[2])))
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
        self.known.forget(game_id)

    async def _recipe(self, game_id: str) -> NewGame:
        """How the game was made: its creation parameters, clocks, terms and opening moves
        (its first ``opened`` move records)."""
        read = self.client.hmget(game_keys(game_id).meta, list(RecipeFields._fields))
        found = RecipeFields(*await self.scripts.guard(read, self.client))
        if found.kind is None:
            raise GameNotFound(game_id)
        count = opening_moves(found)
        opening = (await self.moves(game_id, 0, count))[0] if count else []
        return recipe_of(self.kinds, found, opening)

    async def open_games(self, where: Filter, after: int, limit: int) -> OpenGames:
        return await self.lobby.page(where, after, limit)

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
        """A page of legal moves, read as the game's engine keeps it."""
        known = await self.known.game(game_id)  # its engine: an unknown game is a 404 here
        if known.engine == GENERIC:
            return await self.generic.legal_moves(game_id, after, limit)
        return await self.fast.legal_moves(game_id, known.kind, after, limit)

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
        keys = [*game_keys(game_id), *slot_keys(slot_of(game_id, self.cluster))]
        outcome = await self._run(Call("delete", keys, args), change=True)
        if outcome != "ok":  # not found, or not authorised
            raise NOT_MOVES[type(decode([outcome]))](game_id)
        self.known.forget(game_id)
        self.generic.forget(game_id)
        with suppress(StoreUnavailable):  # an open game leaves the lobby (else a listing drops it)
            await self.lobby.remove(game_id)
        # The game is deleted (the answer is 204 whatever follows); were its accounts not told,
        # they give its place back when its expiry instant passes, as for a game that expired.
        with suppress(StoreUnavailable):
            await self.accounts.forget(game_id)

    async def live_games(self) -> int:
        count = self.client.zcount(LIVE_GAMES, self._now_ms(), "+inf")
        return int(await self.scripts.guard(count, self.client))

    async def ready(self) -> bool:
        self.life.start()
        return await takes_writes(self.client, self._now_ms)

    # --- the archive's outbox (``life.py``) -------------------------------------------------

    async def unarchived(self, limit: int) -> list[str]:
        return await self.life.unarchived(limit)

    async def archived(self, game_ids: Sequence[str]) -> None:
        await self.life.archived(game_ids)

    # --- who plays ----------------------------------------------------------------------------

    async def seat(self, game_id: str, token: str) -> Seat:
        known = await self.known.game(game_id)
        player = await self._told(game_id, token, self.known.player(game_id, known, token))
        return Seat(player, known.kind, known.size)

    async def _told(self, game_id: str, token: str, work: Awaitable[T]) -> T:
        """What ``work`` answers; a spectator's token, refused as no player's, is told it is one
        (SpectatorToken), as the session tells it whatever it asks."""
        try:
            return await work
        except Unauthorized:
            if await self.known.spectates(game_id, token):
                raise SpectatorToken() from None
            raise

    async def readers(self, game_id: str) -> frozenset[str]:
        known = await self.known.game(game_id)
        spectators = await self.known.spectators(game_id)
        return frozenset(known.hashes) - {""} | spectators

    async def viewer(self, game_id: str, token: str | None) -> None:
        known = await self.known.game(game_id)
        if not known.private:
            return
        if token is None:
            raise Unauthorized(PRIVATE_GAME)
        try:
            await self.known.player(game_id, known, token)
        except Unauthorized:
            if not await self.known.spectates(game_id, token):
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
        known = await self.known.game(game_id)
        return BoardShape(known.kind, known.size)

    # --- moves ------------------------------------------------------------------------------

    async def play(self, game_id: str, token: str, request: MoveRequest) -> MoveResult:
        self.life.start()
        known = await self.known.game(game_id)  # an unknown game is a 404 first
        engine, full = known.engine, await self.accounts.full(known.owner)
        if engine == GENERIC:
            move = self.generic.move(game_id, token, request, full)
        else:
            move = self.fast.move(game_id, known.kind, token, request, full)
        try:
            return await self._told(
                game_id, token, self.scripts.guard(move, self.client, change=True)
            )
        finally:
            await self.life.told()

    def _accepted(self, game_id: str, found: list[Any]) -> MoveResult:
        """The answer to a move a script accepted, from the state it answered; the move is
        counted."""
        self.accounts.accepted(game_id, self.known.known(game_id).owner)
        state = state_read(self.kinds, game_id, found)
        self._count_ending(state)
        move = state.last_move
        assert move is not None, "a move was accepted"
        return MoveResult(winner=state.winner, move=move, state=state)

    # --- resignations and draw offers -------------------------------------------------------

    async def act(self, game_id: str, token: str, request: ActionRequest) -> ActionResult:
        return await self._told(game_id, token, self._act(game_id, token, request))

    async def _act(self, game_id: str, token: str, request: ActionRequest) -> ActionResult:
        if request.action == "takeback" and (await self.known.game(game_id)).engine == GENERIC:
            return await self.generic.takeback(game_id, token, request)
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
        self.generic.forget(game_id)  # its version changed, or will be checked anyway
        if isinstance(answer, Ok):
            state = state_read(self.kinds, game_id, answer.state)
            self._count_ending(state)
            if state.lobby and state.joined is None and state.status != "in_progress":
                with suppress(StoreUnavailable):  # aborted waiting: else a listing drops it
                    await self.lobby.remove(game_id)
            return ActionResult(state)
        if isinstance(answer, ReplayState):
            return ActionResult(
                state_read(self.kinds, game_id, json.loads(answer.state)), replayed=True
            )
        raise refusal_of(game_id, answer, request)

    # --- push -------------------------------------------------------------------------------

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        await self.push.wait_for_change(game_id, version, timeout)

    async def _version(self, game_id: str) -> int:
        read = self.stream_client.hget(game_keys(game_id).meta, "version")
        found = await self.scripts.guard(read, self.stream_client)
        if found is None:
            raise GameNotFound(game_id)
        return int(found)
