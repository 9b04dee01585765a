"""The bot's books of its seeks, with a service the test plays (no server, no engine): the
player's stream may tell a seek's game before the seek's own answer is read, and a game may be
over before that; either way the seek is posted again after its game, and the bot stops after
``--games`` games with nothing left standing. A seek that expired is posted again; a bot started
again reads the past games of its stream a few at a time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import httpx
import pytest

from adjudicator_client import PlayerEvent, ProblemError, Retries
from adjudicator_client.bot import lobby
from adjudicator_client.bot.game import Options, Outcome
from adjudicator_client.bot.lobby import Bot


class Service:
    """Seeks answered ``waiting`` whose game the player's stream tells first (``early``), or
    made at once; each game over as soon as it is played."""

    def __init__(self, early: bool) -> None:
        self.early = early
        self.retries = Retries()
        self.events: asyncio.Queue[PlayerEvent] = asyncio.Queue()
        self.posted: list[str] = []
        self.withdrawn: list[str] = []

    async def get_me(self, key: str) -> dict[str, str]:
        return {"id": "me", "name": "Bot"}

    async def player_events(
        self, player_id: str, *, key: str, after: int | None = None
    ) -> AsyncGenerator[PlayerEvent, None]:
        while True:
            yield await self.events.get()

    async def create_seek(self, game: Mapping[str, Any], **_: Any) -> dict[str, Any]:
        seek_id = f"s{len(self.posted)}"
        self.posted.append(seek_id)
        game_id = f"g{len(self.posted)}"
        told = {"game": game_id, "seat": 1, "via": "seek", "seek": seek_id}
        await self.events.put(PlayerEvent(len(self.posted), "game", told))
        if self.early:  # the stream's event is read before this answer
            for _turn in range(10):
                await asyncio.sleep(0)
            return {"id": seek_id, "game": None, "seat": None}
        return {"id": seek_id, "game": game_id, "seat": 1}

    async def withdraw_seek(self, seek_id: str, *, key: str) -> None:
        self.withdrawn.append(seek_id)


class Runner:
    """A game played at once: begun (``on_start``) and over."""

    def __init__(self, api: Any, game_id: str, *_: Any, on_start: Any = None, **__: Any) -> None:
        self.game_id, self.on_start = game_id, on_start

    async def run(self) -> Outcome:
        self.on_start()
        await asyncio.sleep(0)
        return Outcome(self.game_id, 1, {"status": "won"}, played=True)


@pytest.mark.parametrize("early", [True, False], ids=["told-first", "answered-first"])
def test_a_seek_is_posted_again_after_its_game_however_its_game_was_learnt(
    early: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby, "GameRunner", Runner)
    service = Service(early)
    options = Options(engine="brain", protocol="gomocup")

    async def play() -> None:
        api: Any = service  # the calls the bot makes of a client, and nothing more
        seeks = [{"game": {"game": "gomoku"}}]
        bot = Bot(api, "key", options, seeks=seeks, games=3, report=lambda line: None)
        await asyncio.wait_for(bot.run(), 10)
        assert bot.started == 3
        assert (bot.standing, bot.early) == ({}, {})  # nothing kept of the games' seeks

    asyncio.run(play())
    assert len(service.posted) == 3  # one seek a game, none left over
    assert service.withdrawn == []


class Expiring(Service):
    """Seeks that wait, each told nothing of until the test tells the stream something."""

    async def create_seek(self, game: Mapping[str, Any], **_: Any) -> dict[str, Any]:
        seek_id = f"s{len(self.posted)}"
        self.posted.append(seek_id)
        return {"id": seek_id, "game": None, "seat": None}


async def settled(condition: Any) -> None:
    """Until ``condition()`` holds (the bot's tasks run meanwhile)."""
    for _turn in range(1000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the bot did not get there")


def test_a_seek_that_expired_is_posted_again_and_one_not_the_bots_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lobby, "GameRunner", Runner)
    service = Expiring(early=False)
    options = Options(engine="brain", protocol="gomocup")

    async def play() -> None:
        api: Any = service
        seeks = [{"game": {"game": "gomoku"}}]
        bot = Bot(api, "key", options, seeks=seeks, games=1, report=lambda line: None)
        running = asyncio.create_task(bot.run())
        await settled(lambda: bot.standing == {0: "s0"})
        await service.events.put(PlayerEvent(1, "seek_expired", {"seek": "elsewhere"}))
        await service.events.put(PlayerEvent(2, "seek_expired", {"seek": "s0"}))
        await settled(lambda: bot.standing == {0: "s1"})
        game = {"game": "g1", "seat": 2, "via": "seek", "seek": "s1"}
        await service.events.put(PlayerEvent(3, "game", game))
        await asyncio.wait_for(running, 10)
        assert (bot.started, bot.standing, bot.seeking) == (1, {}, {})

    asyncio.run(play())
    assert service.posted == ["s0", "s1"]  # the expired one again; "elsewhere" was not the bot's
    assert service.withdrawn == []


class Past(Service):
    """A player's stream that tells ``count`` games of its past, each over when it is read (its
    reads counted: how many at once)."""

    def __init__(self, count: int) -> None:
        super().__init__(early=False)
        self.reading = self.most = self.read = 0
        for number in range(count):
            told = {"game": f"g{number}", "seat": 1, "via": "challenge"}
            self.events.put_nowait(PlayerEvent(number, "game", told))

    async def get_game(self, game_id: str, *, token: str) -> dict[str, Any]:
        self.reading += 1
        self.most = max(self.most, self.reading)
        for _turn in range(5):
            await asyncio.sleep(0)
        self.reading -= 1
        self.read += 1
        return {"id": game_id, "version": 9, "status": "won", "players": {"1": "me"}}


def test_a_bot_started_again_reads_its_streams_past_games_a_few_at_a_time() -> None:
    service = Past(count=60)
    options = Options(engine="brain", protocol="gomocup")

    async def play() -> None:
        api: Any = service
        bot = Bot(api, "key", options, report=lambda line: None)  # its stream's games only
        running = asyncio.create_task(bot.run())
        await settled(lambda: service.read == 60)
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        assert bot.started == 0  # all over before they were read: none played

    asyncio.run(play())
    assert service.most <= lobby.FIRST_READS


class Busy(Service):
    """Seeks made at once, but the second post is refused as too many (429, no Retry-After)
    and the third cannot reach the service, each once."""

    def __init__(self) -> None:
        super().__init__(early=False)
        self.retries = Retries(backoff=0.01)
        self.refusals = [
            ProblemError(429, {"code": "rate_limited", "status": 429}, {}),
            httpx.ConnectError("refused"),
        ]
        self.sent = 0

    async def create_seek(self, game: Mapping[str, Any], **more: Any) -> dict[str, Any]:
        self.sent += 1
        if self.sent in (2, 4):
            raise self.refusals.pop(0)
        return await super().create_seek(game, **more)


def test_a_seek_refused_for_a_while_or_unsent_is_posted_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seek posted again after its game, refused as too many or not sent: posted again until
    the service takes it (it was never posted again, and a bot with --games waited forever)."""
    monkeypatch.setattr(lobby, "GameRunner", Runner)
    service = Busy()
    options = Options(engine="brain", protocol="gomocup")

    async def play() -> None:
        api: Any = service
        bot = Bot(api, "key", options, seeks=[{"game": {"game": "gomoku"}}], games=3,
                  report=lambda line: None)  # fmt: skip
        await asyncio.wait_for(bot.run(), 10)
        assert (bot.started, bot.standing) == (3, {})

    asyncio.run(play())
    assert (len(service.posted), service.sent, service.refusals) == (3, 5, [])


class Challenged(Service):
    """A challenge told on the stream, whose acceptance is refused once as busy (503) and once
    not sent, then made."""

    def __init__(self) -> None:
        super().__init__(early=False)
        self.retries = Retries(backoff=0.01)
        self.refusals: list[Exception] = [
            ProblemError(503, {"code": "store_unavailable", "status": 503}, {}),
            httpx.ConnectError("refused"),
        ]
        self.accepted = 0

    async def accept_challenge(self, challenge_id: str, *, key: str) -> dict[str, Any]:
        self.accepted += 1
        if self.refusals:
            raise self.refusals.pop(0)
        return {"game": "g1", "seat": 2}


def test_a_challenge_whose_acceptance_was_refused_for_a_while_is_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(It was given up at the first refusal: the challenger waited for ever.)"""
    monkeypatch.setattr(lobby, "GameRunner", Runner)
    service = Challenged()
    options = Options(engine="brain", protocol="gomocup")

    async def play() -> None:
        api: Any = service
        bot = Bot(api, "key", options, accept_challenges=True, games=1, report=lambda line: None)
        challenge = {"id": "c1", "to": {"id": "me"}, "game": {"game": "gomoku"}}
        await service.events.put(PlayerEvent(1, "challenge", challenge))
        await asyncio.wait_for(bot.run(), 10)
        assert (bot.started, bot.begun) == (1, {"g1"})

    asyncio.run(play())
    assert (service.accepted, service.refusals) == (3, [])
