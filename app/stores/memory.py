"""The embedded default store: games in a dict of this process.

It is atomic because its methods never ``await`` between reading and writing: on one event
loop, each call runs to completion before the next starts. It lives in one process, so the
service must run with a single worker when using it.
"""

from __future__ import annotations

import asyncio
import heapq
import math
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice

from app.sessions import tokens
from app.sessions.clock import Clocks
from app.sessions.errors import CapacityExhausted, GameNotFound, MoveNotFound
from app.sessions.exchange import (
    ActionRequest,
    ActionResult,
    GameState,
    JoinResult,
    LegalMovesPage,
    MoveRequest,
    MoveResult,
    RematchAnswer,
)
from app.sessions.kind import KindRegistry, Move, other
from app.sessions.lobby import Filter, Lobby, filters
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
    CLIENT_OPEN_GAMES,
    DEFAULT_CLIENT_OPEN_GAMES,
    NETWORK_GAMES,
    NETWORK_MOVES,
    NETWORK_OPEN_GAMES,
    UNSTARTED_GAMES,
    BoardShape,
    Changes,
    CreatedGame,
    History,
    NewGame,
    OpenGames,
    Seat,
    client_part,
    holder_of,
    network_bound,
    network_of,
    network_part,
    opened,
    recipe_of,
    seats,
)
from app.sessions.unstarted import Unstarted
from app.sessions.watchers import Watchers

Clock = Callable[[], float]
# The endings by time: the game lives ``idle_seconds`` from its deadline (as a Redis game's
# keys, which live that long past it), however long ago its last move was.
BY_TIME = ("timeout", "no_first_move")


def _count(counts: Counter[str], owner: str, change: int) -> None:
    """Change the count of ``owner``, and of its network, by ``change`` (none kept at zero)."""
    for name in (owner, network_of(owner)):
        if name is not None and change:
            left = counts[name] + change
            if left > 0:
                counts[name] = left
            else:
                counts.pop(name, None)


@dataclass(slots=True)
class _Entry:
    session: Session
    owner: str  # the client that created it, whose share of the store it holds
    expires: float  # when it disappears (``clock``) unless a move comes first
    listed: bool = False  # in the lobby: open, and counted in its owner's open games
    waiting: bool = False  # ended, in the outbox until archived (an archiving store)
    archived: bool = False  # ended, and archived: it expires as a finished game


def _due_ms(session: Session) -> int | None:
    """When the game ends by itself unless a player acts first (its running clock's flag, a
    first move's deadline: ``GameState.deadline_ms``), or None."""
    if session.over:
        return None
    clocks, first = session.clocks, session.first_due
    flag = None if clocks is None else clocks.deadline_ms
    if flag is None or first is None:
        return first if flag is None else flag
    return min(flag, first)


class MemoryGameStore:
    """Games in a dict in this process. Bounded in count, and each client to its share; idle
    games expire.

    A game lives ``unstarted_seconds`` from its creation until its first move, then
    ``idle_seconds`` from its last; reads do not extend its life, so a poller cannot keep an
    abandoned game alive. Games nobody moved in and games with moves are kept in two queues in
    the order they expire, so expired games are always at their fronts and are purged in
    amortised O(1) per call.

    A client (``owner``: whoever created the game) may hold at most ``client_share`` of the
    games and of the stored moves (those of the games it created), so that no one client can
    fill the store for everyone; the clients of one network (``store.Client.network``) hold
    ``network_factor`` times as much together, and as many open games.

    Games nobody has moved in hold at most ``max_unstarted`` places of the ``max_games``: when
    either is full, a new game takes the place of the oldest such game of the network (or
    client) that holds the most of them, if that holds more than the newcomer's
    (``unstarted.Unstarted``); else it is refused. A game's first move takes it out of that
    pool: a started game never gives its place, and no number of unstarted ones refuses it.

    Games' clocks run on ``wall_clock`` (seconds since the epoch); a flag that is due falls
    whenever its game is touched by any request, and at the latest when the store's timer
    wakes: one ``loop.call_later`` for the earliest deadline of all games (a heap of deadlines,
    by game; not a task per game), armed by every change that sets or moves a deadline.

    A game whose deadline is pending (``_due_ms``), or that waits in the outbox, is held: when
    its turn to expire comes, it goes to the back of its queue with a new lifetime instead
    (``idle_seconds``, or ``unstarted_seconds``), so the queues stay in the order they expire
    and a held game costs O(1) once a lifetime. With ``archive``, a game that ends is put in
    the outbox (``_outbox``, in the order of the endings) in the same synchronous step that
    ends it (``_changed``), and leaves the pool of games nobody moved in (it never gives its
    place); ``archived`` takes it out, and it expires ``idle_seconds`` later.
    """

    def __init__(
        self,
        kinds: KindRegistry,
        max_games: int,
        idle_seconds: float,
        clock: Clock = time.monotonic,
        *,
        wall_clock: Clock = time.time,
        max_moves: int = DEFAULT_MAX_MOVES,
        max_total_moves: int | None = None,
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
        self.kinds = kinds
        self.archive = archive
        self.ended = asyncio.Event()  # set when a game of this store ends (``GameStore``)
        self._outbox: OrderedDict[str, None] = OrderedDict()  # waiting games, oldest end first
        # The timer: each game's pending deadline (ms, ``wall_clock``), a heap of them (with
        # stale entries, dropped as they come up), and the one wakeup for the earliest.
        self._deadlines: dict[str, int] = {}
        self._heap: list[tuple[int, str]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: int | None = None
        self._timer_loop: asyncio.AbstractEventLoop | None = None
        self.game_spectators = game_spectators
        self.game_time_gifts = game_time_gifts
        self.client_open_games = client_open_games
        self.network_open_games = network_bound(client_open_games, network_factor)
        self._lobby = Lobby()
        # By owner and by network: their games in the lobby.
        self._open_owned: Counter[str] = Counter()
        self.max_games = max_games
        # Places games nobody has moved in may hold (None: every place).
        self.max_unstarted = max_games if max_unstarted is None else max_unstarted
        self.max_refusals = max_refusals
        self.idle_seconds = idle_seconds
        self.unstarted_seconds = idle_seconds if unstarted_seconds is None else unstarted_seconds
        self.max_moves = max_moves
        # Moves held in all games at most (None: only max_games × max_moves bounds them).
        self.max_total_moves = max_total_moves
        self.client_games = client_part(max_games, client_share)
        self.network_games = network_part(max_games, client_share, network_factor)
        self.client_moves = self.network_moves = None
        if max_total_moves is not None:
            self.client_moves = client_part(max_total_moves, client_share)
            self.network_moves = network_part(max_total_moves, client_share, network_factor)
        self._moves = 0  # moves held in all live games
        # By owner and by network (their keys never meet: ``store.Client``): live games, and
        # the moves of those games.
        self._owned_games: Counter[str] = Counter()
        self._owned_moves: Counter[str] = Counter()
        self._held_unstarted = Unstarted()  # by holder (``store.holder_of``)
        self.clock = clock
        self.wall_clock = wall_clock
        self.endings: Counter[str] = Counter()  # games this process ended, by reason
        self._unstarted: OrderedDict[str, _Entry] = OrderedDict()  # nobody moved yet
        self._started: OrderedDict[str, _Entry] = OrderedDict()  # by their last move
        self._watchers = Watchers()

    def __len__(self) -> int:
        self._expire()
        return len(self._unstarted) + len(self._started)

    def _expire(self) -> None:
        now, held = self.clock(), []
        for queue, life in (
            (self._unstarted, self.unstarted_seconds),
            (self._started, self.idle_seconds),
        ):
            kept = []
            while queue:
                entry = next(iter(queue.values()))
                if entry.expires > now:
                    break
                game_id, gone = queue.popitem(last=False)
                if gone.waiting or _due_ms(gone.session) is not None:
                    kept.append((game_id, gone))  # held: a new lifetime, at the back
                    continue
                self._forget(gone)
                self._watchers.notify(game_id)
            for game_id, entry in kept:
                entry.expires = now + life
                queue[game_id] = entry
            held += kept
        now_ms = self._now_ms()
        for _, entry in held:  # a deadline the timer has not come to yet (or no loop runs)
            due = _due_ms(entry.session)
            if due is not None and due <= now_ms and entry.session.settle(now_ms):
                self._changed(entry.session)

    def _unlist(self, entry: _Entry) -> None:
        """The game leaves the lobby (its seat taken, or the game gone)."""
        if entry.listed:
            entry.listed = False
            self._lobby.remove(entry.session.id)
            _count(self._open_owned, entry.owner, -1)

    def _forget(self, entry: _Entry) -> None:
        """Give back what a game held of the store's bounds and of its owner's share."""
        self._unlist(entry)
        self._held_unstarted.remove(holder_of(entry.owner), entry.session.id)
        self._deadlines.pop(entry.session.id, None)
        self._outbox.pop(entry.session.id, None)
        moves = entry.session.held_moves
        self._moves -= moves
        _count(self._owned_games, entry.owner, -1)
        _count(self._owned_moves, entry.owner, -moves)

    def _entry(self, game_id: str) -> _Entry:
        self._expire()
        entry = self._started.get(game_id) or self._unstarted.get(game_id)
        if entry is None:
            raise GameNotFound(game_id)
        return entry

    def _now_ms(self) -> int:
        return int(self.wall_clock() * 1000)

    def _session(self, game_id: str, now_ms: int | None = None) -> Session:
        """The game, with an ending by time that is due at ``now_ms`` (default: now) applied;
        a request that changes the game passes the one instant it decides at."""
        session = self._entry(game_id).session
        if session.settle(self._now_ms() if now_ms is None else now_ms):
            self._changed(session)
        return session

    def _changed(self, session: Session) -> None:
        """The game just changed: wake its streams, and count the ending if it ended by this
        change (not one of a rematch's, after it); an open game that ended leaves the lobby,
        and with ``archive`` waits in the outbox. Its deadline, if any, is the timer's."""
        state = session.state()
        if state.reason is not None and state.version == state.ended_version:
            self.endings[state.reason] += 1
            entry = self._started.get(session.id) or self._unstarted.get(session.id)
            if entry is not None:
                self._unlist(entry)
            if state.reason in BY_TIME:  # its idle time from then
                for queue, life in (
                    (self._started, self.idle_seconds),
                    (self._unstarted, self.unstarted_seconds),
                ):
                    if session.id in queue:
                        queue[session.id].expires = self.clock() + life
                        queue.move_to_end(session.id)
        if self.archive and session.over:
            self._to_outbox(session.id)
        self._watch(session)
        self._watchers.notify(session.id)

    def _to_outbox(self, game_id: str) -> None:
        """The game ended: it waits in the outbox (once), and never gives its place."""
        entry = self._started.get(game_id)
        if entry is None:
            entry = self._unstarted.pop(game_id, None)
            if entry is None:
                return
            self._held_unstarted.remove(holder_of(entry.owner), game_id)
            entry.expires = self.clock() + self.idle_seconds
            self._started[game_id] = entry  # at the back: the newest lifetime
        if entry.waiting or entry.archived:
            return
        entry.waiting = True
        self._outbox[game_id] = None
        self.ended.set()

    # --- the timer ---------------------------------------------------------------------------

    def _watch(self, session: Session) -> None:
        """Keep the game's pending deadline (if any) for the timer, armed for the earliest."""
        due = _due_ms(session)
        if due is None:
            self._deadlines.pop(session.id, None)
            return
        if self._deadlines.get(session.id) == due:
            return
        self._deadlines[session.id] = due
        if len(self._heap) > 2 * len(self._deadlines) + 64:  # stale entries: rebuilt
            self._heap = [(at, game_id) for game_id, at in self._deadlines.items()]
            heapq.heapify(self._heap)
        else:
            heapq.heappush(self._heap, (due, session.id))
        self._arm()

    def _arm(self) -> None:
        """One wakeup, at the earliest pending deadline (none without a running event loop:
        the deadlines then fall when their games are touched)."""
        heap = self._heap
        while heap and self._deadlines.get(heap[0][1]) != heap[0][0]:
            heapq.heappop(heap)
        if not heap:
            return
        at = heap[0][0]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._timer is not None:
            # (A timer of another loop, one that has stopped, is no timer: armed again here.)
            if self._timer_loop is loop and self._timer_at is not None and self._timer_at <= at:
                return
            self._timer.cancel()
        delay = max(0.0, (at - self._now_ms()) / 1000)
        self._timer, self._timer_at = loop.call_later(delay, self._fire), at
        self._timer_loop = loop

    def _fire(self) -> None:
        """The timer: every game whose deadline came ends now, as a touch would end it."""
        self._timer = self._timer_at = None
        now, heap = self._now_ms(), self._heap
        while heap and heap[0][0] <= now:
            due, game_id = heapq.heappop(heap)
            if self._deadlines.get(game_id) != due:
                continue  # stale: moved, or gone
            del self._deadlines[game_id]
            entry = self._started.get(game_id) or self._unstarted.get(game_id)
            if entry is None:
                continue
            if entry.session.settle(now):
                self._changed(entry.session)
            else:
                self._watch(entry.session)
        self._arm()

    # --- the outbox --------------------------------------------------------------------------

    async def unarchived(self, limit: int) -> list[str]:
        return list(islice(self._outbox, max(0, limit)))

    async def archived(self, game_ids: Sequence[str]) -> None:
        for game_id in game_ids:
            if game_id not in self._outbox:
                continue
            del self._outbox[game_id]
            entry = self._started.get(game_id)
            if entry is not None:
                entry.waiting, entry.archived = False, True
                entry.expires = self.clock() + self.idle_seconds
                self._started.move_to_end(game_id)

    def _retry_after(self) -> int:
        """Seconds until the next game expires and frees its place and moves."""
        fronts = [next(iter(q.values())).expires for q in (self._unstarted, self._started) if q]
        return max(1, math.ceil(min(fronts, default=self.clock() + 1) - self.clock()))

    def _check_moves_room(self, owner: str) -> None:
        if self.max_total_moves is not None and self._moves >= self.max_total_moves:
            raise CapacityExhausted(self.max_total_moves, self._retry_after(), "stored moves")
        if self.client_moves is not None and self._owned_moves[owner] >= self.client_moves:
            raise CapacityExhausted(self.client_moves, self._retry_after(), CLIENT_MOVES)
        network = network_of(owner)
        if (
            self.network_moves is not None
            and network is not None
            and self._owned_moves[network] >= self.network_moves
        ):
            raise CapacityExhausted(self.network_moves, self._retry_after(), NETWORK_MOVES)

    def _check_games_room(self, owner: str, listed: bool) -> None:
        """CapacityExhausted if ``owner`` (or its network) holds its share of the games, or of
        the open games (for an open game: ``listed``), or of the moves."""
        network = network_of(owner)
        if self._owned_games[owner] >= self.client_games:
            raise CapacityExhausted(self.client_games, self._retry_after(), CLIENT_GAMES)
        if network is not None and self._owned_games[network] >= self.network_games:
            raise CapacityExhausted(self.network_games, self._retry_after(), NETWORK_GAMES)
        if listed and self._open_owned[owner] >= self.client_open_games:
            raise CapacityExhausted(self.client_open_games, self._retry_after(), CLIENT_OPEN_GAMES)
        if listed and network is not None and self._open_owned[network] >= self.network_open_games:
            raise CapacityExhausted(
                self.network_open_games, self._retry_after(), NETWORK_OPEN_GAMES
            )
        self._check_moves_room(owner)

    def _make_room(self, owner: str) -> None:
        """A place for a new game of ``owner``: free, or made by the game nobody moved in that
        gives its place to it (``unstarted.Unstarted.victim``); else CapacityExhausted."""
        full = len(self._unstarted) + len(self._started) >= self.max_games
        if not full and len(self._unstarted) < self.max_unstarted:
            return
        victim = self._held_unstarted.victim(holder_of(owner))
        if victim is None:
            if full:
                raise CapacityExhausted(self.max_games, self._retry_after())
            raise CapacityExhausted(self.max_unstarted, self._retry_after(), UNSTARTED_GAMES)
        self._forget(self._unstarted.pop(victim))
        self._watchers.notify(victim)  # its streams find it gone

    async def create(self, game: NewGame) -> CreatedGame:
        kind, params, owner, open_seat = game.kind, game.params, game.owner, game.open_seat
        control, terms = game.control, game.terms
        self._expire()
        if game.id is not None and (game.id in self._started or game.id in self._unstarted):
            return CreatedGame(self._session(game.id).state(), game.given)  # made already
        self._check_games_room(owner, open_seat is not None)
        game_kind = self.kinds.find(kind)
        secrets, hashes = seats(open_seat, game.seated, game.given)
        position = opened(game_kind, params, game.opening)
        session = Session(
            game.id or tokens.new_game_id(), game_kind, params, hashes, position, self.max_moves,
            self.max_refusals, version=position.move_count,  # an opening's moves: played,
            untimed=position.move_count,  # and untimed
            lobby=open_seat is not None, open_seat=open_seat, max_gifts=self.game_time_gifts,
        )  # fmt: skip
        self._make_room(owner)  # the last refusal: a game that gives its place is gone
        self._moves += position.move_count
        _count(self._owned_moves, owner, position.move_count)
        session.changed_ms = session.created_ms = self._now_ms()
        session.names, session.players = game.names, game.players
        if control is not None:
            wait = game_kind.clocks_wait(params)
            session.clocks = Clocks.start(control, session.changed_ms, wait)
        terms.onto(session, self._now_ms())
        entry = _Entry(session, owner, self.clock() + self.unstarted_seconds)
        self._unstarted[session.id] = entry
        self._watch(session)  # a first move's deadline
        self._held_unstarted.add(holder_of(owner), session.id)
        _count(self._owned_games, owner, 1)
        state = session.state()
        if state.open_seat is not None and not terms.private:  # never a private one
            entry.listed = True
            self._lobby.add(session.id, filters(kind, params))
            _count(self._open_owned, owner, 1)
        return CreatedGame(state, secrets)

    async def join(
        self, game_id: str, idempotency_key: str | None, requester: str, name: str | None = None,
        player: str | None = None, token: str | None = None,
    ) -> JoinResult:  # fmt: skip
        entry = self._entry(game_id)
        now = self._now_ms()
        session = self._session(game_id, now)
        result = session.join(idempotency_key, requester, now, name, player, token)
        if not result.replayed:
            self._unlist(entry)
            if game_id in self._unstarted:  # its players are seated now: its life starts again
                entry.expires = self.clock() + self.unstarted_seconds
                self._unstarted.move_to_end(game_id)
            self._changed(session)
        return result

    async def rematch(self, game_id: str, token: str, owner: str) -> RematchAnswer:
        session = self._session(game_id)
        player, offer = session.rematch_step(token)
        # Accepted: made now, once (``create`` awaits nothing: no other request runs meanwhile).
        if session.rematch is None and offer == other(player):
            made = tokens.new_token()
            clocks = session.clocks
            recipe = recipe_of(session, None if clocks is None else clocks.control)
            created = await self.create(recipe.rematch(owner, session.rematch_seats(player, made)))
            session.rematched(player, token, made, created.state.id, self._now_ms())
            self._changed(session)
        elif session.rematch is None:
            version = session.version
            session.offer_rematch(player, token, tokens.new_token(), self._now_ms())
            if session.version != version:
                self._changed(session)
        return RematchAnswer(session.rematch_of(player, token), session.state())

    async def open_games(self, where: Filter, after: int, limit: int) -> OpenGames:
        self._expire()
        listed, more = self._lobby.page(where, after, limit)
        games = [self._session(game_id).state() for _, game_id in listed]
        return OpenGames(games, listed[-1][0] if listed and more else None)

    async def state(self, game_id: str) -> GameState:
        return self._session(game_id).state()

    async def readers(self, game_id: str) -> frozenset[str]:
        session = self._entry(game_id).session
        return frozenset(session.token_hashes) - {""} | session.spectators

    async def viewer(self, game_id: str, token: str | None) -> None:
        self._entry(game_id).session.check_viewer(token)

    async def spectate(self, game_id: str, token: str) -> str:
        return self._session(game_id).spectate(token, self.game_spectators)

    async def seat(self, game_id: str, token: str) -> Seat:
        session = self._session(game_id)
        return Seat(session.player_of(token), session.kind.name, session.board_size())

    async def board_shape(self, game_id: str) -> BoardShape:
        session = self._session(game_id)
        return BoardShape(session.kind.name, session.board_size())

    async def play(self, game_id: str, token: str, request: MoveRequest) -> MoveResult:
        now = self._now_ms()
        session = self._session(game_id, now)
        entry = self._entry(game_id)
        if not session.answered(request, token):  # a replay is answered even at the bound
            self._check_moves_room(entry.owner)
        result = session.play(request, token, now)
        if not result.replayed:
            self._moves += 1
            _count(self._owned_moves, entry.owner, 1)
            if self._unstarted.pop(game_id, None) is not None:  # its first move: started
                self._held_unstarted.remove(holder_of(entry.owner), game_id)
            self._started[game_id] = entry
            self._started.move_to_end(game_id)
            entry.expires = self.clock() + self.idle_seconds
            self._changed(session)
        return result

    async def act(self, game_id: str, token: str, request: ActionRequest) -> ActionResult:
        now = self._now_ms()
        session = self._session(game_id, now)
        version = session.version
        result = session.act(request, token, now)
        if session.version != version:
            self._changed(session)
        return result

    async def moves(self, game_id: str, since: int, limit: int) -> tuple[list[Move], int]:
        session = self._session(game_id)
        return session.moves(since, limit), session.version

    async def changes(self, game_id: str, since: int, limit: int) -> Changes:
        session = self._session(game_id)
        first = session.moves_before(since)
        taken_back = session.taken_back_after(since)
        if taken_back is not None:
            first = min(first, taken_back[1])
        return Changes(
            session.moves(first, limit), session.state(), self._now_ms(),
            None if taken_back is None else session.takeback_state(taken_back),
            session.gifts_after(since, first, limit),
        )  # fmt: skip

    async def move(self, game_id: str, seq: int) -> Move:
        session = self._session(game_id)
        if not 1 <= seq <= session.position.move_count:
            raise MoveNotFound(game_id, seq)
        return session.move(seq)

    async def legal_moves(self, game_id: str, after: int, limit: int) -> LegalMovesPage:
        return self._session(game_id).legal_moves(after, limit)

    async def rows(self, game_id: str) -> list[str]:
        return self._session(game_id).position.rows()

    async def history(self, game_id: str) -> History:
        session = self._session(game_id)
        count = session.position.move_count
        return History(session.kind.name, session.params, session.moves(0, count))

    async def delete(self, game_id: str, token: str) -> None:
        entry = self._entry(game_id)
        entry.session.player_of(token)
        self._forget(entry)
        self._started.pop(game_id, None) or self._unstarted.pop(game_id, None)
        self._watchers.notify(game_id)

    async def wait_for_change(self, game_id: str, version: int, timeout: float) -> None:
        if self._session(game_id).version > version:
            return
        await self._watchers.wait(game_id, timeout)

    async def ready(self) -> bool:
        return True

    async def live_games(self) -> int:
        return len(self)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = self._timer_at = None
