"""Tournaments through the Python client, sync and async, against a real server with a SQLite
archive: made, entered and withdrawn from with the organiser's key, paired round by round, each
game played by its players with their keys, the document, its TRF-16 report and its stream."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import adjudicator_client as client_module
from adjudicator_client import AsyncClient, Client, TournamentEvent
from tests.servers import uvicorn_server

WIN = [(1, 0, 0), (2, 1, 0), (1, 0, 1), (2, 1, 1), (1, 0, 2)]  # seat 1 wins tic-tac-toe


def play_round(api: Client, document: dict[str, Any], keys: dict[str, str]) -> None:
    """Seat 1 wins every game of the document's last round."""
    for pairing in document["rounds"][-1]["pairings"]:
        if pairing["game"] is None:
            continue
        seats = {seat: keys[pairing["players"][str(seat)]] for seat in (1, 2)}
        for seat, row, col in WIN:
            api.make_move(pairing["game"], seats[seat], row, col)


def test_a_round_robin_is_made_paired_played_and_followed(tmp_path: Path) -> None:
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url, Client(url) as api:
        org = api.create_player("Org")
        ann, bo, cy, di = (api.create_player(name) for name in ("Ann", "Bo", "Cy", "Di"))
        keys = {p["id"]: p["key"] for p in (ann, bo, cy, di)}
        made = api.create_tournament(
            "Club", "round_robin", {"n": 3}, key=org["key"], players=[ann["id"], bo["id"]]
        )
        assert (made["name"], made["system"], made["status"]) == (
            "Club",
            "round_robin",
            "registering",
        )
        assert made["organiser"] == org["id"]
        entered = api.enter_player(made["id"], cy["id"], key=org["key"])
        assert [p["id"] for p in entered["players"]] == [ann["id"], bo["id"], cy["id"]]
        api.enter_player(made["id"], di["id"], key=org["key"])
        withdrawn = api.withdraw_player(made["id"], di["id"], key=org["key"])
        assert {p["id"]: p.get("withdrawn") for p in withdrawn["players"]}[
            di["id"]
        ] == 0  # after 0 rounds
        with pytest.raises(client_module.NotOrganiser):
            api.pair_round(made["id"], key=ann["key"])
        with pytest.raises(client_module.TournamentRefused):
            api.enter_player(made["id"], cy["id"], key=org["key"])  # entered already
        with pytest.raises(client_module.TournamentNotFound):
            api.get_tournament("nothing")
        planned = withdrawn["rounds_planned"]
        assert planned == 3  # four entrants' Berger table; the withdrawn one's opponents get byes
        for number in range(1, planned + 1):
            paired = api.pair_round(made["id"], key=org["key"])
            assert paired["rounds"][-1]["number"] == number
            with pytest.raises(client_module.TournamentRefused):
                api.pair_round(made["id"], key=org["key"])  # its games are unfinished
            play_round(api, paired, keys)
        done = api.get_tournament(made["id"])
        assert done["status"] == "finished"
        assert "signature" in done
        assert sum(row["points"] for row in done["standings"]) == sum(
            1 for r in done["rounds"] for p in r["pairings"] if p["result"] in ("1-0", "bye")
        )
        assert api.get_tournament_text(made["id"]).startswith("012 Club")
        events = list(api.tournament_events(made["id"]))
        assert all(isinstance(event, TournamentEvent) for event in events)
        assert [event.id for event in events] == sorted(event.id for event in events)
        assert events[-1].event == "end"
        rounds = [event.data["round"] for event in events if event.event == "round"]
        assert rounds == list(range(1, planned + 1))
        results = [event.data for event in events if event.event == "result"]
        played = [
            {"round": r["number"], "board": p["board"], "game": p["game"], "result": p["result"]}
            for r in done["rounds"]
            for p in r["pairings"]
            if p["game"] is not None
        ]
        assert sorted(results, key=str) == sorted(played, key=str)
        middle = events[len(events) // 2].id
        assert list(api.tournament_events(made["id"], after=middle)) == [
            event for event in events if event.id > middle
        ]
        assert list(api.tournament_events(made["id"], after=events[-1].id)) == []  # 204

        async def organised() -> None:
            async with AsyncClient(url) as aio:
                swiss = await aio.create_tournament(
                    "Swiss", "swiss", {"n": 3}, key=org["key"], rounds=1,
                    players=[ann["id"], bo["id"]],
                )  # fmt: skip
                paired = await aio.pair_round(swiss["id"], key=org["key"])
                (pairing,) = paired["rounds"][0]["pairings"]
                await aio.resign(pairing["game"], keys[pairing["players"]["2"]])
                seen = [event async for event in aio.tournament_events(swiss["id"])]
                assert [event.event for event in seen] == ["round", "result", "end"]
                assert seen[1].data["result"] == "1-0"
                assert (await aio.get_tournament(swiss["id"]))["status"] == "finished"
                assert (await aio.get_tournament_text(swiss["id"])).startswith("012 Swiss")

        asyncio.run(organised())
