"""A game's runner (``GameRunner``) with a service the test plays (no server, no engine): a game
its engine cannot play is aborted (or resigned) even when the service is away at that moment,
with one ``Idempotency-Key`` however many times it is asked; a game the bot stopped playing is
said to be left in progress, not "not played"."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from adjudicator_client.bot.game import GameRunner, Options, Outcome


class Away:
    """A service that refuses the first ``away`` connections, then aborts the game."""

    def __init__(self, away: int) -> None:
        self.away = away
        self.calls: list[str] = []

    async def abort_game(self, game_id: str, key: str, *, idempotency_key: str) -> dict[str, Any]:
        self.calls.append(idempotency_key)
        if len(self.calls) <= self.away:
            raise httpx.ConnectError("connection refused")
        return {"id": game_id, "version": 4, "status": "aborted", "move_count": 1}

    async def resign(self, game_id: str, key: str, *, idempotency_key: str) -> dict[str, Any]:
        raise AssertionError("an abort that was not refused needs no resignation")


def test_a_game_given_up_while_the_service_is_away_is_aborted_once_it_is_back() -> None:
    service = Away(away=2)
    api: Any = service  # the calls the runner makes of a client, and nothing more
    options = Options(engine="brain", protocol="gomocup")
    runner = GameRunner(api, "g1", "key", "me", options, seat=1, report=lambda line: None)
    runner.state = {"id": "g1", "version": 3, "status": "in_progress", "move_count": 1}
    asyncio.run(runner._give_up("the brain does not play this board"))
    assert runner.state["status"] == "aborted"
    assert len(service.calls) == 3
    assert len(set(service.calls)) == 1  # the same Idempotency-Key: applied once


def test_a_game_the_bot_stopped_playing_is_said_to_be_left_in_progress() -> None:
    state = {"game": "reversi", "status": "in_progress", "move_count": 7}
    line = Outcome("g1", 2, state, played=True).line()
    assert line == "game g1 reversi seat 2 (W): left in progress after 7 moves: the bot stopped"
    assert Outcome("g2", None, state).line() == "game g2 reversi: not played: stopped"
