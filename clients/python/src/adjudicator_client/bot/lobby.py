"""The bot's player, as the service sees it: its event stream followed (``GET
/v1/players/{id}/events``: ``game`` — a game of the player began, from a seek, a challenge or a
tournament —, ``challenge``, ``challenge_declined``), its seeks posted (``POST /v1/seeks``, one
for each ``--seek``) and posted again after each game they made, the challenges made to it
accepted when asked to (``POST /v1/challenges/{id}/accept``), and every game it is seated in
played, each by a ``GameRunner`` with an engine of its own.

``--games N``: once N games were begun the bot seeks and accepts no more, withdraws its seeks,
and stops when its games are over. Without it, it plays until it is stopped.

A seek's game holds the bot's seek until it ends (one game at a time from each ``--seek``); a
challenge's or a tournament's game is played whenever it comes. The player's stream is read
from its start, so a bot started again finds the games it was playing and resumes them. A seek
that expired unanswered (``seek_expired``) is posted again while the bot wants games.

After a game's end the bot looks for its opponent's rematch offer for ``rematch_seconds``
(every ``REMATCH_POLL_SECONDS``: a game's stream ends with the game) while it wants games: the
offer is accepted and the rematch played — with the token its answer gives, a rematch being
held by no player's key. Else the offer is left to stand: the contract has no way to decline
one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, TypeVar

import httpx

from adjudicator_client._async_client import AsyncClient
from adjudicator_client._events import PlayerEvent
from adjudicator_client._problem import ProblemError
from adjudicator_client._schema import PostedSeekOut
from adjudicator_client.bot.game import BUSY, GameRunner, Options, Outcome, answered
from adjudicator_client.bot.positions import PROTOCOL_GAMES

log = logging.getLogger("adjudicator_client.bot")
T = TypeVar("T")

BACKOFF_CAP_SECONDS = 30.0  # the longest wait before the player's stream is opened again
REMATCH_POLL_SECONDS = 1.0  # how often an ended game is read for its opponent's rematch offer
# Games first read at once: a bot started again is told every game of its stream's past (up to
# the service's player_events_kept), most of them over, and reads each before it plays any.
FIRST_READS = 8


class Bot:
    """The bot: its player (the ``key``'s), its engine (``options``), what it seeks
    (``seeks``: bodies of ``POST /v1/seeks``), whether it accepts challenges, how many games it
    plays (``games``; None: until stopped), games to play by id (``game_ids``), and how long
    after a game's end its opponent's rematch offer is waited for (``rematch_seconds``; 0:
    none is)."""

    def __init__(
        self,
        api: AsyncClient,
        key: str,
        options: Options,
        *,
        seeks: Sequence[Mapping[str, Any]] = (),
        accept_challenges: bool = False,
        games: int | None = None,
        game_ids: Sequence[str] = (),
        report: Callable[[str], None] = print,
        rematch_seconds: float = 0.0,
    ) -> None:
        self.api, self.key, self.options = api, key, options
        self.rematch_seconds = rematch_seconds
        self.seeks = list(seeks)
        self.accept_challenges, self.games = accept_challenges, games
        self.game_ids = list(game_ids)
        self.report = report
        self.player_id = ""
        self.begun: set[str] = set()  # games seen: each is played once
        self.running: dict[str, asyncio.Task[Outcome]] = {}
        self.played = 0  # games played from their start or resumed, to their end
        self.started = 0  # games begun while the bot followed them (counted against ``games``)
        self.standing: dict[int, str] = {}  # each --seek's index → its seek's id, while it waits
        self.seeking: dict[str, int] = {}  # a seek's id → its --seek's index
        self.holding: dict[str, int] = {}  # a game made by a seek → its --seek's index
        self.early: dict[str, str] = {}  # a seek's id told on the stream before it was posted
        self.idle = asyncio.Event()
        self.stopping = asyncio.Event()  # set when run ends: nothing is asked again
        self.chores: set[asyncio.Task[None]] = set()
        self.tokens: dict[str, str] = {}  # a rematch → the bot's token in it (not its key)
        self.rematching: dict[str, asyncio.Task[None]] = {}  # an ended game → its offer looked for
        self.first_reads = asyncio.Semaphore(FIRST_READS)

    @property
    def enough(self) -> bool:
        return self.games is not None and self.started >= self.games

    @property
    def lobby(self) -> bool:
        """Whether the bot follows its player's stream: it seeks, accepts challenges, or was
        given no game to play (it plays the games it is seated in: tournaments')."""
        return bool(self.seeks or self.accept_challenges or not self.game_ids)

    @property
    def wants_more(self) -> bool:
        """Whether the bot would play another game: it follows its player's stream, or was told
        how many games to play, and has not begun ``games`` yet."""
        return not self.enough and (self.lobby or self.games is not None)

    async def run(self) -> None:
        """Play until ``games`` were played (or, given only games by id, until they are over);
        the seeks withdrawn and every engine stopped when it returns."""
        me = await self.api.get_me(self.key)
        self.player_id = me["id"]
        following: asyncio.Task[None] | None = None
        try:
            for game_id in self.game_ids:
                await self._begin(game_id, None)
            if self.lobby:
                following = asyncio.create_task(self._follow())
                following.add_done_callback(lambda _: self.idle.set())
                for index in range(len(self.seeks)):
                    await self._seek(index)
            while not self._finished():
                self.idle.clear()
                if following is not None and following.done():
                    following.result()  # its failure is the bot's
                await self.idle.wait()
        finally:
            self.stopping.set()
            if following is not None:
                following.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await following
            await asyncio.gather(*self.chores, return_exceptions=True)  # a seek in flight
            await self._withdraw()
            tasks = [*self.rematching.values(), *self.running.values()]
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def _finished(self) -> bool:
        if self.running or self.rematching:
            return False
        return self.enough or not self.lobby

    # --- games -----------------------------------------------------------------------------

    async def _begin(self, game_id: str, seat: int | None, seek: int | None = None) -> None:
        """Play the game, unless it is played already (or over: a game of the stream's past);
        ``seek``: the index of the ``--seek`` that made it, posted again when it is over. A
        rematch is played with its own token (``tokens``), every other game with the key."""
        if game_id in self.begun:
            if seek is not None:
                self._hold(game_id, seek)
            return
        self.begun.add(game_id)
        if seek is not None:
            self.holding[game_id] = seek
        token = self.tokens.get(game_id, self.key)
        runner = GameRunner(
            self.api, game_id, token, self.player_id, self.options, seat=seat,
            report=self.report, on_start=self._started, tell_past=game_id in self.game_ids,
            first_read=self.first_reads,
        )  # fmt: skip
        task = asyncio.create_task(runner.run())
        self.running[game_id] = task
        task.add_done_callback(functools.partial(self._ended, game_id))

    def _hold(self, game_id: str, seek: int) -> None:
        """The ``seek``-th seek made ``game_id``, learnt after the game was begun (its stream's
        event came before the seek's own answer): posted again when the game is over — now, if
        it is over already."""
        if game_id in self.running:
            self.holding[game_id] = seek
        else:
            self._chore(self._seek(seek))

    def _chore(self, work: Coroutine[Any, Any, None]) -> None:
        """Work done beside the games (a seek posted again, seeks withdrawn); its failure is
        said, and stops nothing."""
        task = asyncio.create_task(work)
        self.chores.add(task)
        task.add_done_callback(self._chore_done)

    def _chore_done(self, task: asyncio.Task[None]) -> None:
        self.chores.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s", task.exception())

    def _started(self) -> None:
        """A game begun: counted; at ``games``, the seeks that wait are withdrawn."""
        self.started += 1
        if self.enough:
            self._chore(self._withdraw())

    def _ended(self, game_id: str, task: asyncio.Task[Outcome]) -> None:
        self.running.pop(game_id, None)
        if not task.cancelled() and task.exception() is None and task.result().played:
            self.played += 1
            self._look_for_rematch(task.result())
        elif not task.cancelled() and task.exception() is not None:
            log.error("game %s: %s", game_id, task.exception())
        seek = self.holding.pop(game_id, None)
        if seek is not None and not self.enough:
            self._chore(self._seek(seek))
        self.idle.set()

    # --- rematches ---------------------------------------------------------------------------

    def _look_for_rematch(self, outcome: Outcome) -> None:
        """After a game the engine played to its end: its opponent's rematch offer looked for,
        if the bot would play on and the game allows one."""
        state = outcome.state or {}
        if (
            self.rematch_seconds <= 0 or not self.wants_more or outcome.gave_up
            or outcome.seat is None or not outcome.over
            or str(state.get("game")) not in PROTOCOL_GAMES[self.options.protocol]
            or (state.get("rules") or {}).get("rematch") is False or state.get("tournament")
        ):  # fmt: skip
            return
        task = asyncio.create_task(self._rematch(outcome.game_id, outcome.seat))
        self.rematching[outcome.game_id] = task
        task.add_done_callback(functools.partial(self._rematch_done, outcome.game_id))

    def _rematch_done(self, game_id: str, task: asyncio.Task[None]) -> None:
        self.rematching.pop(game_id, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("game %s: its rematch: %s", game_id, task.exception())
        self.idle.set()

    async def _rematch(self, game_id: str, seat: int) -> None:
        """The ended game read every ``REMATCH_POLL_SECONDS`` (its ETag: an unchanged game is
        a 304) for ``rematch_seconds`` while the bot wants games: the opponent's rematch offer,
        accepted, and the rematch begun."""
        token = self.tokens.get(game_id, self.key)
        loop = asyncio.get_running_loop()
        until, etag = loop.time() + self.rematch_seconds, None
        while self.wants_more and loop.time() < until:
            try:
                polled = await self.api.poll_game(game_id, etag, token=token)
            except httpx.TransportError as error:
                log.warning("game %s: cannot reach the service (%s)", game_id, error)
            except ProblemError as problem:
                if problem.status not in BUSY:
                    return  # gone (expired, deleted)
            else:
                etag = polled.etag
                state: Mapping[str, Any] = polled.state or {}
                if state.get("rematch"):
                    return  # made already: not with the bot, which never offers first
                if state.get("rematch_offer") == 3 - seat:
                    await self._accept_rematch(game_id, token)
                    return
            await asyncio.sleep(REMATCH_POLL_SECONDS)

    async def _accept_rematch(self, game_id: str, token: str) -> None:
        """The rematch made (asked until the service answers: asking again is safe, a rematch
        made is answered again, so one whose answer was lost is not), and begun."""
        answer = await answered(game_id, lambda: self.api.rematch(game_id, token))
        made = answer["rematch"]
        if made is not None:
            log.info("game %s: the opponent's rematch offer accepted: %s", game_id, made["id"])
            self.tokens[made["id"]] = made["token"]
            await self._begin(made["id"], made["player"])

    # --- the player's stream ---------------------------------------------------------------

    async def _follow(self) -> None:
        """The player's events, from the stream's start, until the bot stops: the stream opened
        again after the last event seen whenever it keeps dropping (the service restarting)."""
        seen: int | None = None
        wait = self.api.retries.backoff
        while True:
            try:
                async for event in self.api.player_events(self.player_id, key=self.key, after=seen):
                    seen, wait = event.id, self.api.retries.backoff
                    try:
                        await self._told(event)
                    except (ProblemError, httpx.TransportError) as error:
                        log.warning("event %s %s: %s", event.id, event.event, error)
            except (ConnectionError, httpx.TransportError) as error:
                log.warning("the player's stream dropped (%s): opening it again", error)
            except ProblemError as problem:
                if problem.status not in (429, 503):
                    raise
            await asyncio.sleep(wait)
            wait = min(BACKOFF_CAP_SECONDS, wait * 2)

    async def _told(self, event: PlayerEvent) -> None:
        data = event.data if isinstance(event.data, dict) else {}
        if event.event == "game":
            game_id, seat = str(data.get("game")), data.get("seat")
            seek = None
            if data.get("via") == "seek":
                seek_id = str(data.get("seek"))
                seek = self.seeking.pop(seek_id, None)
                # A seek whose answer is not read yet (or of the past); not one whose answer
                # named its game, begun already (kept, it was never taken back: one a game).
                if seek is None and game_id not in self.begun:
                    self.early[seek_id] = game_id
            if seek is not None:
                self.standing.pop(seek, None)
            await self._begin(game_id, seat if seat in (1, 2) else None, seek)
        elif event.event == "challenge":
            await self._challenged(data)
        elif event.event == "challenge_declined":
            log.info("challenge %s declined", data.get("challenge"))
        elif event.event == "seek_expired":
            self._expired(str(data.get("seek")))

    def _expired(self, seek_id: str) -> None:
        """One of the bot's seeks expired unanswered: posted again while the bot wants games (a
        seek of the stream's past, or of another program of the player, is not the bot's)."""
        index = self.seeking.pop(seek_id, None)
        if index is None:
            return
        if self.standing.get(index) == seek_id:
            del self.standing[index]
        log.info("seek %s expired: posted again", seek_id)
        self._chore(self._seek(index))

    async def _challenged(self, challenge: Mapping[str, Any]) -> None:
        """A challenge to the player: accepted (``--accept-challenges``) when its game is one
        the engine plays and the bot still plays games; declined when the engine does not play
        it; else left for its player to answer."""
        to = challenge.get("to") or {}
        if not self.accept_challenges or to.get("id") != self.player_id:
            return
        challenge_id = str(challenge.get("id"))
        kind = str((challenge.get("game") or {}).get("game", "tictactoe"))
        try:
            if kind not in PROTOCOL_GAMES[self.options.protocol]:
                await self.api.decline_challenge(challenge_id, key=self.key)
                return
            made = await self._while_wanted(
                f"challenge {challenge_id}",
                lambda: self.api.accept_challenge(challenge_id, key=self.key),
            )
        except ProblemError as refused:  # taken or withdrawn meanwhile (or a stream's past)
            log.info("challenge %s: %s", challenge_id, refused.code)
            return
        if made is not None:
            await self._begin(made["game"], made["seat"])

    # --- seeks ------------------------------------------------------------------------------

    async def _seek(self, index: int) -> None:
        """Post the ``index``-th seek (unless it stands, or enough games were begun); a game it
        makes at once is played."""
        if self.enough or index in self.standing or index in self.holding.values():
            return
        posted = await self._posted(self.seeks[index])
        if posted is None:
            return
        told = self.early.pop(posted["id"], None)
        made = posted["game"] or told
        if made is not None:  # at once, or told on the stream before this answer was read
            await self._begin(made, posted["seat"], index)
        else:
            self.standing[index] = posted["id"]
            self.seeking[posted["id"]] = index

    async def _posted(self, body: Mapping[str, Any]) -> PostedSeekOut | None:
        """``body`` posted as a seek (None: enough games were begun first). A connection lost
        after it was sent may leave it standing beside the one posted again: its game is
        played all the same, told on the stream."""
        answer_range = body.get("rating_range")
        try:
            return await self._while_wanted(
                f"seek {json.dumps(body)}",
                lambda: self.api.create_seek(
                    body.get("game") or {}, key=self.key, rated=body.get("rated"),
                    rating_range=None if answer_range is None else tuple(answer_range),
                ),
            )  # fmt: skip
        except ProblemError as refused:
            log.error("seek %s refused: %s", json.dumps(body), refused)
            raise

    async def _while_wanted(self, what: str, call: Callable[[], Awaitable[T]]) -> T | None:
        """``call``'s answer, asked again while the service is away or busy (429, 503: a seek
        and an acceptance are game creations, charged to the client's rate) until enough games
        were begun or the bot stops (None); a refusal that is not for a while is raised. (A
        seek posted again after a game, or a challenge accepted, that failed once was given up:
        that ``--seek`` never posted again — a bot with ``--games`` waited forever —, that
        challenge never accepted.)"""
        wait = self.api.retries.backoff
        while not self.enough and not self.stopping.is_set():
            try:
                return await call()
            except httpx.TransportError as error:
                log.warning("%s: cannot reach the service (%s)", what, error)
            except ProblemError as refused:
                if refused.status not in BUSY:
                    raise
                log.warning("%s: %s, asked again", what, refused)
                wait = max(wait, refused.retry_after or 0)
            with contextlib.suppress(TimeoutError):  # or the bot stops
                await asyncio.wait_for(self.stopping.wait(), wait)
            wait = min(BACKOFF_CAP_SECONDS, wait * 2)
        return None

    async def _withdraw(self) -> None:
        """Withdraw the seeks that wait (a seek that made a game meanwhile is gone already)."""
        for index, seek_id in list(self.standing.items()):
            self.standing.pop(index, None)
            self.seeking.pop(seek_id, None)
            with contextlib.suppress(ProblemError, httpx.TransportError):
                await self.api.withdraw_seek(seek_id, key=self.key)
