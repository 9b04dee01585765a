"""One game, played by the bot for its player until it ends: the game followed on its event
stream (read again after a drop, and every ``POLL_SECONDS`` whatever the stream says), the
engine asked for a move whenever the player is to move, each answer sent as the player's move
with the player's key, and a line said when the game is over.

The service decides. An answer the service refuses is never taken for played: the engine is
told the whole position again and asked again — ``refusals`` times in a row at most (a random
mover that hits a renju forbidden point now and then finds another cell; an engine stuck on an
illegal answer does not), and then the game is resigned. An engine that dies or stops
answering is started again and told the whole position (``restarts`` times at most). A move
whose answer was lost with the connection is sent again with the same ``Idempotency-Key`` (the
service applies it once), or read back from the game. When the game ends while the engine
thinks (a flag fall, a resignation), the engine is stopped.

The opponent's offers, as the game's stream tells them: neither protocol can ask its engine
about a draw or a takeback, and the contract declines an offer with the next accepted move. So
a draw offer is accepted at once with ``accept_draws`` (its own offer sent back, at that
version only: ``If-Match``), else declined by the bot's next move, as a takeback offer always is;
each said once (``-v``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import httpx

from adjudicator_client._async_client import AsyncClient
from adjudicator_client._problem import ProblemError
from adjudicator_client.bot.engine import BadAnswer, CannotPlay, Lines, Restarting
from adjudicator_client.bot.gomocup import Gomocup, Limits, Position, Stone, Swap2Answer
from adjudicator_client.bot.nboard import NBoard
from adjudicator_client.bot.positions import (
    PROTOCOL_GAMES,
    Protocol,
    Record,
    State,
    answer_seconds,
    gomocup_position,
    limits,
    mark_of,
    nboard_moves,
    outcome_word,
    seat_of,
    stones,
)

log = logging.getLogger("adjudicator_client.bot")

POLL_SECONDS = 30.0  # the game's state is read again after this long without an event
BACKOFF_CAP_SECONDS = 30.0  # the longest wait between two tries to reach the service
PAGE = 10_000  # move records asked for at once (the most the service answers)
# Refusals that say the game moved on, not that the engine's answer was wrong.
MOVED_ON = frozenset({"not_your_turn", "game_over", "wrong_step", "precondition_failed"})
# Answers that say the service is busy or away for a while: the move is sent again later.
BUSY = frozenset({429, 503})
# Answers that say the game is not the player's to play (or is gone).
NOT_OURS = frozenset({401, 403, 404})

T = TypeVar("T")


async def answered(game_id: str, call: Callable[[], Awaitable[T]]) -> T:
    """``call``'s answer, asked again until the service answers (it may be away, restarting
    or busy: waits doubling up to ``BACKOFF_CAP_SECONDS``); a refusal that is not for a while
    is raised."""
    wait = 0.5
    while True:
        try:
            return await call()
        except httpx.TransportError as error:
            log.warning("game %s: cannot reach the service (%s)", game_id, error)
        except ProblemError as problem:
            if problem.status not in BUSY:
                raise
            wait = max(wait, problem.retry_after or 0)
        await asyncio.sleep(wait)
        wait = min(BACKOFF_CAP_SECONDS, wait * 2)


@dataclass(frozen=True)
class Options:
    """How the bot plays: its engine's command line and protocol, the seconds a move of a game
    without a clock may take, how many times in a game an engine may be started again and its
    answers refused, an NBoard engine's depth, the seconds an engine has to answer what is not
    a move, and whether the opponent's draw offers are accepted."""

    engine: str
    protocol: Protocol
    turn_seconds: float = 10.0
    restarts: int = 3
    refusals: int = 5
    depth: int = 10
    wait: float = 60.0
    accept_draws: bool = False


@dataclass
class Outcome:
    """What happened in a game, said in one line (``line``)."""

    game_id: str
    seat: int | None = None
    state: State | None = None
    restarts: int = 0
    refusals: int = 0
    gave_up: str | None = None  # why the engine could not play on, if it could not
    note: str | None = None  # why the game was not played, if it was not
    played: bool = False  # the bot followed it while it went on

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.get("status") != "in_progress"

    def line(self) -> str:
        state = self.state or {}
        kind = str(state.get("game", "?"))
        if state.get("rule"):
            kind += f"/{state['rule']}"
        if self.seat is not None and self.played and not self.over:
            why = self.note or "the bot stopped"
            return (
                f"game {self.game_id} {kind} seat {self.seat} ({mark_of(state, self.seat)}): left "
                f"in progress after {state.get('move_count')} moves: {why}"
            )
        if self.seat is None or not self.over or not self.played:
            return f"game {self.game_id} {kind}: not played: {self.note or 'stopped'}"
        words = [
            f"game {self.game_id} {kind} seat {self.seat} ({mark_of(state, self.seat)}):",
            f"{outcome_word(state, self.seat)} by {state.get('reason')}",
            f"after {state.get('move_count')} moves;",
            f"engine restarts {self.restarts}, refused answers {self.refusals}",
        ]
        if self.gave_up:
            words.append(f"(gave up: {self.gave_up})")
        return " ".join(words)


@dataclass(frozen=True)
class Action:
    """One step of a swap2 opening the engine answered: a stone placed, a colour chosen, or the
    two more stones chosen (``place_two``)."""

    cell: tuple[int, int] | None = None
    color: str | None = None
    place_two: bool = False

    @property
    def label(self) -> str:
        if self.cell is not None:
            return f"{self.cell[0]},{self.cell[1]}"
        return self.color or "place_two"


def swap2_plan(step: str, placed: int, answer: Swap2Answer) -> list[Action]:
    """What to do at a swap2 ``step`` with ``placed`` stones down, as the brain answered
    ``SWAP2BOARD``: ``SWAP`` takes Black (the colour that placed last; White moves next), one
    stone takes White and plays it, two stones (at ``choose``) place two more; three stones
    (at ``place_three``) open the game. BadAnswer for an answer the step has no use for."""
    cells = [Action(cell=spot) for spot in answer.stones]
    if step == "place_three" and not answer.swap and len(cells) == 3:
        return cells[placed:]
    if step in ("choose", "choose_color") and answer.swap:
        return [Action(color="B")]
    if step in ("choose", "choose_color") and len(cells) == 1:
        return [Action(color="W"), *cells]
    if step == "choose" and len(cells) == 2:
        return [Action(place_two=True), *cells]
    if step == "place_two" and not answer.swap and len(cells) == 2:
        return cells[placed - 3 :]
    shown = "SWAP" if answer.swap else " ".join(f"{x},{y}" for x, y in answer.stones)
    raise BadAnswer(f"swap2's step {step} has no use for the answer {shown!r}")


class GameRunner:
    """Plays the game ``game_id`` for the player whose ``key`` it holds (``player_id``), with a
    new engine of ``options``; ``report`` is given the game's line at its end (``on_start``
    called when the game turns out to be one to play: the player's, going on; a game over before
    it was read is reported only with ``tell_past``). ``first_read``: the places of the games'
    first reads, taken one each (a bot started again reads its stream's past games at once)."""

    def __init__(
        self,
        api: AsyncClient,
        game_id: str,
        key: str,
        player_id: str,
        options: Options,
        *,
        seat: int | None = None,
        report: Callable[[str], None] = print,
        on_start: Callable[[], None] | None = None,
        tell_past: bool = True,
        first_read: asyncio.Semaphore | None = None,
    ) -> None:
        self.api, self.game_id, self.key, self.player_id = api, game_id, key, player_id
        self.options, self.report = options, report
        self.on_start, self.tell_past = on_start, tell_past
        self.first_read = first_read
        self.outcome = Outcome(game_id, seat)
        self.state: State = {}
        self.changed = asyncio.Event()
        self.plan: list[Action] = []
        self.refused_in_a_row = 0
        self.offers_seen: set[tuple[str, int]] = set()  # (offer, move_count) answered or said
        self.gomocup: Restarting[Gomocup] | None = None
        self.nboard: Restarting[NBoard] | None = None
        if options.protocol == "gomocup":
            self.gomocup = Restarting(
                options.engine, self._gomocup, Gomocup.LAST_WORDS, options.restarts
            )
        else:
            self.nboard = Restarting(
                options.engine, self._nboard, NBoard.LAST_WORDS, options.restarts
            )

    def _gomocup(self, engine: Lines) -> Gomocup:
        return Gomocup(engine, wait=self.options.wait)

    def _nboard(self, engine: Lines) -> NBoard:
        return NBoard(engine, depth=self.options.depth, wait=self.options.wait)

    @property
    def engine(self) -> Restarting[Any]:
        engine = self.gomocup or self.nboard
        assert engine is not None
        return engine

    @property
    def seat(self) -> int:
        assert self.outcome.seat is not None
        return self.outcome.seat

    # --- the game, followed ----------------------------------------------------------------

    async def run(self) -> Outcome:
        """Play the game to its end (or until it turns out not to be the player's); report and
        answer what happened."""
        try:
            await self._play()
        except ProblemError as problem:
            self.outcome.note = f"{problem.code}: {problem.detail or problem.title}"
        finally:
            self.outcome.restarts = self.engine.restarts
            await self.engine.close()
            if self.outcome.played or self.tell_past:
                self.report(self.outcome.line())
        return self.outcome

    async def _play(self) -> None:
        async with self.first_read or contextlib.nullcontext():
            self._update(await self._read())
        if self.outcome.seat is None:
            self.outcome.seat = seat_of(self.state, self.player_id)
        if self.outcome.seat is None:
            self.outcome.note = "the player holds no seat in it"
            return
        if self.state.get("status") != "in_progress":
            self.outcome.note = "it was over before the bot read it"
            return
        self.outcome.played = True
        if self.on_start is not None:
            self.on_start()
        watching = asyncio.create_task(self._watch())
        try:
            kind = str(self.state.get("game"))
            if kind not in PROTOCOL_GAMES[self.options.protocol]:
                await self._give_up(f"{self.options.protocol} engines do not play {kind}")
            while self.state.get("status") == "in_progress" and not self.outcome.gave_up:
                self.changed.clear()
                if self.state.get("next_player") == self.seat:
                    try:
                        await self._turn(self.state)
                    except CannotPlay as why:
                        await self._give_up(str(why))
                else:
                    await self._changed()
        finally:
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching

    def _update(self, state: State) -> None:
        """A newer state of the game (versions only grow)."""
        if not self.state or int(state["version"]) >= int(self.state["version"]):
            self.state = state
            self.outcome.state = state
            self.changed.set()

    async def _changed(self) -> None:
        """Until the game changes, or ``POLL_SECONDS`` went by (then it is read again)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), POLL_SECONDS)
            return
        self._update(await self._read())
        await self._answer_offers()

    async def _answer_offers(self) -> None:
        """The opponent's offers that stand: a draw accepted (``accept_draws``) while the game
        is as it was when the offer was read, else declined by playing on, as a takeback is."""
        state = self.state
        if state.get("status") != "in_progress" or self.outcome.seat is None:
            return
        other, moves = 3 - self.seat, int(state.get("move_count", 0))
        for offer, what in (("draw_offer", "a draw"), ("takeback_offer", "a takeback")):
            if state.get(offer) != other or (offer, moves) in self.offers_seen:
                continue
            self.offers_seen.add((offer, moves))
            if offer == "draw_offer" and self.options.accept_draws:
                await self._accept_draw(int(state["version"]))
            elif state.get("next_player") == self.seat:
                log.info("game %s: the opponent offers %s: declined by the bot's next move",
                         self.game_id, what)  # fmt: skip
            else:  # the opponent's own next move declines it: the contract has no other way
                log.info("game %s: the opponent offers %s on its own turn: left to its move",
                         self.game_id, what)  # fmt: skip

    async def _accept_draw(self, version: int) -> None:
        """The opponent's draw offer accepted (the bot's own offer, at ``version`` only: a move
        made meanwhile declined it, and the bot does not offer a draw of its own); asked until
        the service answers, with one Idempotency-Key."""
        key = f"bot-{self.game_id}-{version}-draw"
        accept = functools.partial(self.api.offer_draw, self.game_id, self.key, if_match=version,
                                   idempotency_key=key)  # fmt: skip
        try:
            answer = await answered(self.game_id, accept)
        except ProblemError as refused:  # the game moved on meanwhile
            log.info("game %s: the draw offer was gone (%s)", self.game_id, refused.code)
            return
        log.info("game %s: the opponent's draw offer accepted", self.game_id)
        self._update(answer)

    async def _read(self) -> State:
        """The game's state, read until the service answers (it may be restarting)."""
        return await answered(self.game_id, lambda: self.api.get_game(self.game_id, token=self.key))

    async def _watch(self) -> None:
        """The game's events, each one's state kept, until its end; the stream opened again
        (from the last version seen) after it dropped, the state read again meanwhile."""
        while True:
            try:
                since = int(self.state["version"])
                async for event in self.api.game_events(self.game_id, since=since, token=self.key):
                    self._update(event.state)
                    await self._answer_offers()
            except (ConnectionError, httpx.HTTPError, ProblemError) as error:
                log.warning("game %s: its event stream dropped (%s)", self.game_id, error)
                await asyncio.sleep(1.0)
            with contextlib.suppress(ProblemError):
                self._update(await self._read())
                await self._answer_offers()
            if self.state.get("status") != "in_progress":
                return

    async def _moves(self) -> list[Record]:
        """Every move record of the game, in order."""
        moves: list[Record] = []
        while True:
            page = await self.api.list_moves(self.game_id, len(moves), PAGE, token=self.key)
            moves.extend(page["moves"])
            if len(page["moves"]) < PAGE:
                return moves

    # --- a turn ----------------------------------------------------------------------------

    async def _turn(self, state: State) -> None:
        """The player is to move: the engine's answer, sent; a refusal or a lost connection
        handled (the loop asks again while the player is still to move)."""
        try:
            if self.plan:
                await self._follow_plan()
                return
            moves = await self._moves()
            if self.nboard is not None:
                await self._nboard_move(self.nboard, state, moves)
            elif state.get("opening"):
                await self._opening(self.gomocup_engine, state, moves)
            else:
                await self._gomocup_move(self.gomocup_engine, state, moves)
        except BadAnswer as bad:
            self._refused(str(bad))
        except (httpx.TransportError, ConnectionError) as error:
            log.warning("game %s: %s; reading the game again", self.game_id, error)
            self._lost()
            self._update(await self._read())
        except ProblemError as problem:
            if problem.status not in BUSY:
                raise
            log.warning("game %s: the service is busy (%s)", self.game_id, problem.code)
            await asyncio.sleep(problem.retry_after or 1.0)
            self._update(await self._read())

    @property
    def gomocup_engine(self) -> Restarting[Gomocup]:
        assert self.gomocup is not None
        return self.gomocup

    async def _gomocup_move(
        self, engine: Restarting[Gomocup], state: State, moves: Sequence[Record]
    ) -> None:
        position = gomocup_position(state, moves, self.seat)
        clock = self._clock(state)
        timeout = answer_seconds(clock(), self.options.turn_seconds)
        answer = await self._think(engine.ask(lambda brain: brain.move(position, clock, timeout)))
        if answer is not None:
            x, y = answer
            await self._post(f"{x},{y}", lambda key: self.api.make_move(
                self.game_id, self.key, y, x, idempotency_key=key
            ))  # fmt: skip

    def _clock(self, state: State) -> Callable[[], Limits]:
        """The player's time, read when the brain is told it (after a START, a restart)."""
        return functools.partial(limits, state, self.seat, self.options.turn_seconds)

    async def _opening(
        self, engine: Restarting[Gomocup], state: State, moves: Sequence[Record]
    ) -> None:
        """A swap2 step the player acts at: the brain's ``SWAP2BOARD`` answer, played."""
        step = str(state["opening"]["step"])
        placed = gomocup_position(state, moves, self.seat)
        opening = Position(
            placed.width, placed.height, placed.rule,
            tuple(Stone(stone.x, stone.y, mine=False) for stone in placed.stones),
        )  # fmt: skip
        clock = self._clock(state)
        timeout = answer_seconds(clock(), self.options.turn_seconds)
        answer = await self._think(engine.ask(lambda brain: brain.swap2(opening, clock, timeout)))
        if answer is not None:
            self.plan = swap2_plan(step, len(stones(moves)), answer)
            await self._follow_plan()

    async def _follow_plan(self) -> None:
        """The swap2 actions the brain answered, one after another while the player is to act
        (a refused one ends the plan: the brain is asked again)."""
        while self.plan:
            if self.state.get("next_player") != self.seat:
                self.plan.clear()
                return
            action = self.plan.pop(0)
            sent = await self._post(action.label, self._action(action))
            if not sent:
                self.plan.clear()

    def _action(self, action: Action) -> Callable[[str], Awaitable[Any]]:
        """The call that makes a swap2 action, given its Idempotency-Key."""
        cell = action.cell
        color: Literal["B", "W"] = "B" if action.color == "B" else "W"

        def send(key: str) -> Awaitable[Any]:
            if cell is not None:
                return self.api.make_move(self.game_id, self.key, cell[1], cell[0],
                                          idempotency_key=key)  # fmt: skip
            if action.place_two:
                return self.api.make_choice(self.game_id, self.key, place_two=True,
                                            idempotency_key=key)  # fmt: skip
            return self.api.make_choice(self.game_id, self.key, color=color, idempotency_key=key)

        return send

    async def _nboard_move(
        self, engine: Restarting[NBoard], state: State, moves: Sequence[Record]
    ) -> None:
        played = nboard_moves(moves)
        timeout = answer_seconds(limits(state, self.seat, self.options.turn_seconds),
                                 self.options.turn_seconds)  # fmt: skip
        answer = await self._think(engine.ask(lambda board: board.move(played, self._ggf, timeout)))
        if answer is not None:
            await self._post(answer, lambda key: self.api.make_move(
                self.game_id, self.key, square=answer, idempotency_key=key
            ))  # fmt: skip

    async def _ggf(self) -> str:
        """The game's GGF record, as the service writes it."""
        try:
            return await self.api.get_record_text(self.game_id, "ggf", token=self.key)
        except ProblemError as problem:
            if problem.status in BUSY or problem.status in NOT_OURS:
                raise
            raise CannotPlay(f"no GGF record of this game ({problem.detail})") from problem

    async def _think(self, answer: Awaitable[T]) -> T | None:
        """The engine's answer; None if the player is no longer to move before it comes (the
        game ended, or the move was made elsewhere): the engine is then stopped."""
        asked = self.state
        thinking = asyncio.ensure_future(answer)
        try:
            while not thinking.done():
                self.changed.clear()
                if not self._awaits(asked):
                    return None
                waiting = asyncio.ensure_future(self.changed.wait())
                done, _ = await asyncio.wait(
                    {thinking, waiting}, timeout=POLL_SECONDS,
                    return_when=asyncio.FIRST_COMPLETED,
                )  # fmt: skip
                waiting.cancel()
                if not done:
                    self._update(await self._read())
            return thinking.result()
        finally:
            if not thinking.done():
                thinking.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await thinking
                await self.engine.abandon()

    def _awaits(self, asked: State) -> bool:
        """The game still waits for the player's move it waited for when the engine was asked."""
        now = self.state
        return (
            now.get("status") == "in_progress"
            and now.get("next_player") == self.seat
            and now.get("move_count") == asked.get("move_count")
        )

    async def _post(self, label: str, send: Callable[[str], Awaitable[Any]]) -> bool:
        """Send the engine's answer as the player's action (``send`` given the action's
        Idempotency-Key: the same for the same answer at the same version, so a retry, even
        by a bot started again, is applied once); whether the service accepted it."""
        key = f"bot-{self.game_id}-{self.state['version']}-{label}"
        try:
            answer = await send(key)
        except ProblemError as refused:
            if refused.code in MOVED_ON or refused.status in BUSY:
                self._lost()
                await asyncio.sleep(refused.retry_after or 0)
                self._update(await self._read())
                return False
            if refused.status in NOT_OURS:
                raise
            self._refused(f"{label} refused: {refused.code} ({refused.detail})")
            return False
        self._update(answer["state"])
        self.refused_in_a_row = 0
        return True

    def _lost(self) -> None:
        """The engine's idea of the game may be wrong: it is told the whole of it next time."""
        adapter = self.engine.adapter
        if adapter is not None:
            adapter.lost()

    def _refused(self, why: str) -> None:
        """An answer of the engine that is not a legal move here: counted, and the engine told
        the whole position next time; past ``refusals`` in a row, CannotPlay."""
        self.outcome.refusals += 1
        self.refused_in_a_row += 1
        self._lost()
        log.warning("game %s: %s", self.game_id, why)
        if self.refused_in_a_row > self.options.refusals:
            raise CannotPlay(f"{self.refused_in_a_row} answers refused in a row, the last: {why}")

    async def _give_up(self, why: str) -> None:
        """The engine cannot play this game: abort it while that is allowed (before the second
        move), else resign it."""
        self.outcome.gave_up = why
        log.warning("game %s: giving up: %s", self.game_id, why)
        self.plan.clear()
        actions = [self.api.resign]
        if int(self.state.get("move_count", 0)) < 2:
            actions.insert(0, self.api.abort_game)
        for action in actions:
            key = f"bot-{self.game_id}-{self.state.get('version')}-{action.__name__}"
            try:  # the same Idempotency-Key until answered: applied once
                answer = await answered(
                    self.game_id, functools.partial(action, self.game_id, self.key,
                                                    idempotency_key=key),
                )  # fmt: skip
            except ProblemError as refused:
                log.info("game %s: %s refused: %s", self.game_id, action.__name__, refused.code)
                continue
            self._update(answer)
            return
        self._update(await self._read())
