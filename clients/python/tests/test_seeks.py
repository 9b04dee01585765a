"""Seeks, challenges and a player's stream through the Python client, sync and async, against a
real server with a SQLite archive: two seeks that fit make a game told on both streams, played
with the players' keys; a challenge declined, one withdrawn, one accepted; refusals raised as
their problems' classes."""

from __future__ import annotations

import asyncio
from itertools import islice
from pathlib import Path

import pytest

import adjudicator_client as client_module
from adjudicator_client import AsyncClient, Client, PlayerEvent
from tests.servers import uvicorn_server

GAME = {"game": "tictactoe", "n": 3}
WIN = [(1, 0, 0), (2, 1, 0), (1, 0, 1), (2, 1, 1), (1, 0, 2)]  # seat 1 wins tic-tac-toe


def test_seeks_and_challenges_make_games_told_on_the_players_streams(tmp_path: Path) -> None:
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url, Client(url) as api:
        ann, bo = api.create_player("Ann"), api.create_player("Bo")
        waiting = api.create_seek(GAME, key=ann["key"], rating_range=(1000, 2000))
        assert waiting["game"] is None
        assert [s["id"] for s in api.list_seeks(game="tictactoe")["seeks"]] == [waiting["id"]]
        made = api.create_seek({"n": 3}, key=bo["key"])
        game_id, seat = made["game"], made["seat"]
        assert game_id is not None
        assert seat is not None
        assert api.list_seeks()["seeks"] == []
        (told,) = islice(api.player_events(ann["id"], key=ann["key"]), 1)
        assert isinstance(told, PlayerEvent)
        assert (told.event, told.data["game"], told.data["seat"]) == ("game", game_id, 3 - seat)
        keys = {seat: bo["key"], 3 - seat: ann["key"]}
        for mover, row, col in WIN:
            api.make_move(game_id, keys[mover], row, col)
        assert api.get_game(game_id)["winner"] == 1

        with pytest.raises(client_module.SeekNotFound):
            api.withdraw_seek(waiting["id"], key=ann["key"])  # matched: gone
        mine = api.create_seek(GAME, key=ann["key"], rated=True)
        with pytest.raises(client_module.WrongPlayer):
            api.withdraw_seek(mine["id"], key=bo["key"])
        api.withdraw_seek(mine["id"], key=ann["key"])

        declined = api.create_challenge(bo["id"], GAME, key=ann["key"])
        assert declined["to"]["id"] == bo["id"]
        assert api.list_challenges(key=bo["key"])["incoming"] == [declined]
        assert api.get_challenge(declined["id"], key=ann["key"]) == declined
        api.decline_challenge(declined["id"], key=bo["key"])
        withdrawn = api.create_challenge(bo["id"], GAME, key=ann["key"], rated=True)
        api.withdraw_challenge(withdrawn["id"], key=ann["key"])
        with pytest.raises(client_module.ChallengeNotFound):
            api.accept_challenge(withdrawn["id"], key=bo["key"])
        seen = list(islice(api.player_events(ann["id"], key=ann["key"], after=told.id), 1))
        assert [(e.event, e.data["challenge"]) for e in seen] == [
            ("challenge_declined", declined["id"])
        ]

        async def accepted() -> None:
            async with AsyncClient(url) as aio:
                offered = await aio.create_challenge(ann["id"], GAME, key=bo["key"])
                stream = aio.player_events(ann["id"], key=ann["key"], after=seen[-1].id)
                first = await anext(stream)
                assert (first.event, first.data) == ("challenge", offered)
                game = await aio.accept_challenge(offered["id"], key=ann["key"])
                second = await anext(stream)
                await stream.aclose()
                assert second.data == {
                    "game": game["game"], "seat": game["seat"], "via": "challenge",
                    "challenge": offered["id"],
                }  # fmt: skip
                state = await aio.get_game(game["game"])
                assert state["players"][str(game["seat"])] == ann["id"]

        asyncio.run(accepted())
