"""Tournaments through the HTTP API (contract part 3, "Tournaments"), on SQLite and on a real
PostgreSQL server: made by an organiser, entered and withdrawn from, paired round by round as
FIDE's Berger tables say (all of a round's games made at once, a racing request pairing it once),
each game played by its players with their keys, results taken as the games end, standings
recomputed from the results, a finished tournament signed, a TRF-16 report, and its stream.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.league.berger import berger_round, table_size
from app.main import create_app
from app.records.signing import verify
from tests.api.problems import assert_problem
from tests.api.test_players import WIN, bearer, make_player, move, served
from tests.api.test_session_kinds import reversi_script

DRAW = [(1, 0, 0), (2, 0, 1), (1, 0, 2), (2, 1, 1), (1, 1, 0), (2, 1, 2), (1, 2, 1), (2, 2, 0),
        (1, 2, 2)]  # fmt: skip
SEAT2_WINS = [(1, 0, 0), (2, 1, 0), (1, 2, 2), (2, 1, 1), (1, 0, 2), (2, 1, 2)]


@pytest.fixture
def client(archive_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(served(archive_url)), raise_server_exceptions=False) as made:
        yield made


def make_tournament(
    client: TestClient, organiser: dict[str, Any], entrants: list[dict[str, Any]], **body: Any
) -> dict[str, Any]:
    wanted = {"name": "Club", "system": "round_robin", "game": {"n": 3},
              "players": [p["id"] for p in entrants], **body}  # fmt: skip
    made = client.post("/v1/tournaments", json=wanted, headers=bearer(organiser["key"]))
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    assert made.headers["location"] == f"/v1/tournaments/{answer['id']}"
    return answer


def pair(client: TestClient, organiser: dict[str, Any], tournament_id: str) -> dict[str, Any]:
    paired = client.post(
        f"/v1/tournaments/{tournament_id}/rounds", headers=bearer(organiser["key"])
    )
    assert paired.status_code == 201, paired.text
    answer: dict[str, Any] = paired.json()
    return answer


def play_out(
    client: TestClient, pairing: dict[str, Any], keys: dict[str, str], script: list[Any]
) -> None:
    seats = {1: keys[pairing["players"]["1"]], 2: keys[pairing["players"]["2"]]}
    for seat, row, col in script:
        answer = move(client, pairing["game"], seats[seat], row, col)
        assert answer.status_code == 201, answer.text


@pytest.mark.parametrize("count", [4, 5])
def test_a_round_robin_is_paired_as_the_berger_tables_and_finishes_signed(
    client: TestClient, count: int
) -> None:
    organiser = make_player(client, "Org")
    entrants = [make_player(client, f"P{number}") for number in range(1, count + 1)]
    keys = {p["id"]: p["key"] for p in entrants}
    number_of = {p["id"]: index for index, p in enumerate(entrants, 1)}
    made = make_tournament(client, organiser, entrants)
    assert made["status"] == "registering"
    assert made["rounds"] == []
    assert made["rounds_planned"] == table_size(count) - 1
    results: dict[tuple[int, int], str] = {}
    scripts = [(WIN, "1-0"), (DRAW, "½-½"), (SEAT2_WINS, "0-1")]
    for round_number in range(1, table_size(count)):
        answer = pair(client, organiser, made["id"])
        shown = answer["rounds"][-1]
        assert shown["number"] == round_number
        expected = berger_round(table_size(count), round_number)
        games = [(w, b) for w, b in expected if w <= count and b <= count]
        byes = [w if b > count else b for w, b in expected if (w > count) != (b > count)]
        paired_games = [
            (number_of[p["players"]["1"]], number_of[p["players"]["2"]])
            for p in shown["pairings"] if p["players"]["2"] is not None
        ]  # fmt: skip
        assert paired_games == games
        assert [number_of[p["players"]["1"]] for p in shown["pairings"]
                if p["players"]["2"] is None] == byes  # fmt: skip
        # The round before is unfinished: no next round yet.
        refused = client.post(
            f"/v1/tournaments/{made['id']}/rounds", headers=bearer(organiser["key"])
        )
        if games:
            assert_problem(refused, 409, "tournament_refused")
        for index, pairing in enumerate(shown["pairings"]):
            if pairing["players"]["2"] is None:
                assert pairing["result"] == "bye"
                assert pairing["game"] is None
                continue
            state = client.get(f"/v1/games/{pairing['game']}").json()
            assert state["tournament"] == made["id"]
            assert state["players"] == pairing["players"]
            script, result = scripts[(round_number + index) % 3]
            play_out(client, pairing, keys, script)
            results[round_number, pairing["board"]] = result
    final = client.get(f"/v1/tournaments/{made['id']}").json()
    assert final["status"] == "finished"
    for shown in final["rounds"]:
        for pairing in shown["pairings"]:
            if pairing["players"]["2"] is not None:
                assert pairing["result"] == results[shown["number"], pairing["board"]]
    # Standings: points recomputed from the results, highest first.
    points = dict.fromkeys(keys, 0.0)
    for shown in final["rounds"]:
        for pairing in shown["pairings"]:
            first, second = pairing["players"]["1"], pairing["players"]["2"]
            gained = {"1-0": (1, 0), "0-1": (0, 1), "½-½": (0.5, 0.5), "bye": (1, 0)}
            one, two = gained[pairing["result"]]
            points[first] += one
            if second is not None:
                points[second] += two
    table = final["standings"]
    assert {row["player"]: row["points"] for row in table} == points
    assert [row["points"] for row in table] == sorted(points.values(), reverse=True)
    assert all(set(row["tiebreaks"]) == {"sonneborn_berger"} for row in table)
    keys_published = client.get("/v1/keys").json()["keys"]
    assert verify(final, keys_published, "tournament").typ == "tournament"
    assert_problem(
        client.post(f"/v1/tournaments/{made['id']}/rounds", headers=bearer(organiser["key"])),
        409, "tournament_refused",
    )  # fmt: skip
    report = client.get(f"/v1/tournaments/{made['id']}", params={"format": "trf"})
    assert report.status_code == 200
    assert report.text.startswith("012 Club")
    assert sum(line.startswith("001") for line in report.text.splitlines()) == count


def test_only_the_organiser_pairs_enters_and_withdraws(client: TestClient) -> None:
    organiser, other = make_player(client, "Org"), make_player(client, "Other")
    entrants = [make_player(client, f"P{n}") for n in range(3)]
    made = make_tournament(client, organiser, entrants[:2])
    path = f"/v1/tournaments/{made['id']}"
    for method, url, body in (
        ("POST", f"{path}/rounds", None),
        ("POST", f"{path}/players", {"player": entrants[2]["id"]}),
        ("DELETE", f"{path}/players/{entrants[0]['id']}", None),
    ):
        answer = client.request(method, url, json=body, headers=bearer(other["key"]))
        assert_problem(answer, 403, "not_organiser")
        assert_problem(client.request(method, url, json=body), 401, "unauthorized")
    entered = client.post(
        f"{path}/players", json={"player": entrants[2]["id"]}, headers=bearer(organiser["key"])
    )
    assert entered.status_code == 201, entered.text
    assert [p["id"] for p in entered.json()["players"]] == [p["id"] for p in entrants]
    again = client.post(
        f"{path}/players", json={"player": entrants[2]["id"]}, headers=bearer(organiser["key"])
    )
    assert_problem(again, 409, "tournament_refused")
    pair(client, organiser, made["id"])
    late = make_player(client, "Late")
    assert_problem(
        client.post(f"{path}/players", json={"player": late["id"]},
                    headers=bearer(organiser["key"])),
        409, "tournament_refused",
    )  # fmt: skip
    gone = client.delete(f"{path}/players/{entrants[1]['id']}", headers=bearer(organiser["key"]))
    assert gone.status_code == 200, gone.text
    assert gone.json()["players"][1]["withdrawn"] == 1


@pytest.mark.parametrize("pairing_cpu", [0.0, 1.0], ids=["free", "dear"])
def test_a_pairing_s_cpu_time_is_charged_to_its_client(
    archive_url: str, pairing_cpu: float
) -> None:
    """Pairing runs in a worker thread (a large Swiss takes seconds): the thread's CPU time is
    the organiser's client's, as the event loop's is. Here the loop's work costs nothing and a
    pairing ``pairing_cpu`` seconds, against a burst of 0.5 s: a dear one leaves the client in
    debt, refused (429) before its next request is looked at; a free one does not."""
    loop_thread = threading.get_ident()
    ticks = itertools.count()

    def cpu_clock() -> float:  # each call in a worker thread: pairing_cpu seconds later
        return 0.0 if threading.get_ident() == loop_thread else next(ticks) * pairing_cpu

    settings = served(archive_url, client_cpu_ms_per_minute=600, client_cpu_burst_ms=500)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        client.app.state.work_budget.cpu_clock = cpu_clock  # type: ignore[attr-defined]
        client.app.state.work_budget.thread_clock = cpu_clock  # type: ignore[attr-defined]
        loop_thread = client.portal.call(threading.get_ident)  # type: ignore[union-attr]
        organiser = make_player(client, "Org")
        made = make_tournament(client, organiser, [make_player(client, f"P{n}") for n in range(3)])
        pair(client, organiser, made["id"])
        again = client.post(
            f"/v1/tournaments/{made['id']}/rounds", headers=bearer(organiser["key"])
        )
        if pairing_cpu:
            assert_problem(again, 429, "rate_limited")
        else:
            assert_problem(again, 409, "tournament_refused")  # round 1 goes on


def test_reading_a_tournament_is_charged_to_its_reader(archive_url: str) -> None:
    """The CPU time of reading a tournament (its rows read into objects, ranked, signed) is the
    reader's: here each stretch of it costs a second against a burst of 0.5 s, so the first
    read leaves the client in debt and the next is refused (429) before anything is read."""
    settings = served(archive_url, client_cpu_ms_per_minute=600, client_cpu_burst_ms=500)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        organiser = make_player(client, "Org")
        made = make_tournament(client, organiser, [make_player(client, f"P{n}") for n in range(3)])
        ticks = itertools.count()
        client.app.state.work_budget.cpu_clock = lambda: float(next(ticks))  # type: ignore[attr-defined]
        assert client.get(f"/v1/tournaments/{made['id']}").status_code == 200
        problem = assert_problem(client.get(f"/v1/tournaments/{made['id']}"), 429, "rate_limited")
        assert "CPU time" in problem["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"name": "x", "system": "swiss", "game": {"n": 3}},  # a swiss without rounds
        {"name": "x", "system": "round_robin", "rounds": 3, "game": {"n": 3}},
        {"name": "x", "system": "league", "game": {"n": 3}},
        {"name": "x", "system": "round_robin", "game": {"n": 3, "open": True}},
        {"name": "x", "system": "round_robin", "game": {"game": "chess"}},
        {"name": "x", "system": "round_robin", "game": {"n": 3}, "players": ["a", "a"]},
        {"name": "x", "system": "round_robin", "game": {"n": 3}, "players": ["nobody"]},
        {"name": "x", "system": "swiss", "rounds": 10_000, "game": {"n": 3}},
        {"name": "", "system": "round_robin", "game": {"n": 3}},
        {"name": "x", "system": "round_robin", "game": {"n": 3}, "openings": [{"n": "x"}]},
        {"name": "x", "system": "round_robin", "game": {"n": 3}, "rated": "yes"},
        [],
    ],
)
def test_a_tournament_body_is_checked(client: TestClient, body: Any) -> None:
    organiser = make_player(client, "Org")
    answer = client.post("/v1/tournaments", json=body, headers=bearer(organiser["key"]))
    assert_problem(answer, 422, "validation_error")


def test_unknown_tournaments_are_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/tournaments/nope"), 404, "tournament_not_found")
    assert_problem(client.get("/v1/tournaments/" + "x" * 300), 404, "tournament_not_found")
    assert_problem(client.get("/v1/tournaments/nope/events"), 404, "tournament_not_found")


def test_racing_round_requests_pair_one_round(archive_url: str) -> None:
    """Many requests for the next round at once, through a real server's event loop: one pairs
    it, the others are refused, and the round has its games once."""
    app = create_app(served(archive_url))

    async def race() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://test") as http,
        ):
            made = [(await http.post("/v1/players", json={"name": f"P{n}"})).json()
                    for n in range(7)]  # fmt: skip
            organiser, entrants = made[0], made[1:]
            body = {"name": "Race", "system": "round_robin", "game": {"n": 3},
                    "players": [p["id"] for p in entrants]}  # fmt: skip
            tournament = (
                await http.post("/v1/tournaments", json=body, headers=bearer(organiser["key"]))
            ).json()
            url = f"/v1/tournaments/{tournament['id']}/rounds"
            answers = await asyncio.gather(
                *(http.post(url, headers=bearer(organiser["key"])) for _ in range(8))
            )
            final = (await http.get(f"/v1/tournaments/{tournament['id']}")).json()
            assert len(final["rounds"]) == 1
            boards = final["rounds"][0]["pairings"]
            assert len(boards) == 3  # six players: three games
            for board in boards:
                assert (await http.get(f"/v1/games/{board['game']}")).status_code == 200
            return sorted(answer.status_code for answer in answers)

    statuses = asyncio.run(race())
    assert statuses == [201] + [409] * 7


def test_a_reversi_double_round_robin_on_every_store(store_url: str, tmp_path: Any) -> None:
    """A double round robin of 4 × 4 Othello games on each live store: the second cycle is the
    first with seats swapped, each board keeps its game's final discs, the standings' Brightwell
    and discs equal a recomputation from the boards, and the stream tells every round, every
    result and the end, resumable after any event."""
    settings = served(f"sqlite:///{tmp_path / 'archive.sqlite3'}", store_url=store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        organiser = make_player(client, "Org")
        entrants = [make_player(client, f"P{n}") for n in range(1, 4)]
        keys = {p["id"]: p["key"] for p in entrants}
        body = {"game": {"game": "reversi", "height": 4, "width": 4},
                "system": "double_round_robin"}  # fmt: skip
        made = make_tournament(client, organiser, entrants, **body)
        assert made["rounds_planned"] == 6  # three players: three rounds (a bye each), twice
        seed = 0
        for _ in range(6):
            shown = pair(client, organiser, made["id"])["rounds"][-1]
            for pairing in shown["pairings"]:
                if pairing["game"] is not None:
                    seed += 1
                    play_out(client, pairing, keys, reversi_script(4, seed))
        final = client.get(f"/v1/tournaments/{made['id']}").json()
    assert final["status"] == "finished"
    rounds = final["rounds"]
    first_cycle = [[(p["players"]["1"], p["players"]["2"]) for p in r["pairings"]]
                   for r in rounds[:3]]  # fmt: skip
    second_cycle = [
        [(p["players"]["2"], p["players"]["1"]) if p["players"]["2"] else
         (p["players"]["1"], None) for p in r["pairings"]]
        for r in rounds[3:]
    ]  # fmt: skip
    assert second_cycle == first_cycle
    points = dict.fromkeys(keys, 0.0)
    discs = dict.fromkeys(keys, 0)
    faced: dict[str, list[str]] = {player: [] for player in keys}
    gained = {"1-0": (1, 0), "0-1": (0, 1), "½-½": (0.5, 0.5), "bye": (1, 0)}
    for shown in rounds:
        for pairing in shown["pairings"]:
            first, second = pairing["players"]["1"], pairing["players"]["2"]
            one, two = gained[pairing["result"]]
            points[first] += one
            if second is None:
                discs[first] += 32  # a bye counts 32 discs
                continue
            points[second] += two
            discs[first] += pairing["discs"]["1"]
            discs[second] += pairing["discs"]["2"]
            faced[first].append(second)
            faced[second].append(first)
    for row in final["standings"]:
        player = row["player"]
        assert row["points"] == points[player]
        assert row["tiebreaks"]["discs"] == discs[player]
        brightwell = discs[player] + 6 * sum(points[other] for other in faced[player])
        assert row["tiebreaks"]["brightwell"] == brightwell
    assert list(final["standings"][0]["tiebreaks"]) == ["sonneborn_berger", "brightwell", "discs"]


def test_a_tournaments_stream_tells_rounds_results_and_the_end(client: TestClient) -> None:
    organiser = make_player(client, "Org")
    entrants = [make_player(client, f"P{n}") for n in range(2)]
    keys = {p["id"]: p["key"] for p in entrants}
    made = make_tournament(client, organiser, entrants)
    shown = pair(client, organiser, made["id"])["rounds"][-1]
    play_out(client, shown["pairings"][0], keys, WIN)
    stream = client.get(f"/v1/tournaments/{made['id']}/events")
    assert stream.status_code == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    events = [block for block in stream.text.split("\n\n") if block.startswith("id:")]
    names = [block.split("\n")[1].removeprefix("event: ") for block in events]
    assert names == ["round", "result", "end"]
    assert '"result": "1-0"' in events[1]
    resumed = client.get(
        f"/v1/tournaments/{made['id']}/events", headers={"Last-Event-ID": "1"}
    ).text
    assert [b.split("\n")[1] for b in resumed.split("\n\n") if b.startswith("id:")] == [
        "event: result",
        "event: end",
    ]
    done = client.get(f"/v1/tournaments/{made['id']}/events", headers={"Last-Event-ID": "3"})
    assert done.status_code == 204


def test_a_rated_swiss_is_paired_round_by_round_and_rates_its_games(client: TestClient) -> None:
    """A rated Swiss of nine players, four rounds: each round pairs everyone still playing (a
    bye for the odd one out, never twice to one player), nobody meets twice, a withdrawn player
    is paired no more, and every game's result is rated in its pool."""
    organiser = make_player(client, "Org")
    entrants = [make_player(client, f"P{n}") for n in range(1, 10)]
    keys = {p["id"]: p["key"] for p in entrants}
    made = make_tournament(client, organiser, entrants, system="swiss", rounds=4, rated=True)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    scripts = [WIN, DRAW, SEAT2_WINS]
    withdrawn = entrants[-1]["id"]
    for round_number in range(1, 5):
        if round_number == 3:
            gone = client.delete(
                f"/v1/tournaments/{made['id']}/players/{withdrawn}",
                headers=bearer(organiser["key"]),
            )
            assert gone.status_code == 200, gone.text
        shown = pair(client, organiser, made["id"])["rounds"][-1]
        seated = [p for pairing in shown["pairings"] for p in pairing["players"].values() if p]
        playing = [p for p in keys if round_number < 3 or p != withdrawn]
        assert sorted(seated) == sorted(playing)
        for index, pairing in enumerate(shown["pairings"]):
            first, second = pairing["players"]["1"], pairing["players"]["2"]
            if second is None:
                byes.append(first)
                continue
            assert frozenset((first, second)) not in met
            met.add(frozenset((first, second)))
            state = client.get(f"/v1/games/{pairing['game']}").json()
            assert state["pool"] == "tictactoe/3x3/k3/correspondence"
            play_out(client, pairing, keys, scripts[(round_number + index) % 3])
    assert len(byes) == len(set(byes))
    final = client.get(f"/v1/tournaments/{made['id']}").json()
    assert final["status"] == "finished"
    assert list(final["standings"][0]["tiebreaks"]) == ["buchholz", "sonneborn_berger"]
    games_played = {p: sum(1 for pair_ in met if p in pair_) for p in keys}
    for player, played in games_played.items():
        rated = client.get(f"/v1/players/{player}").json()["ratings"]
        got = rated.get("tictactoe/3x3/k3/correspondence", {"games": 0})["games"]
        assert got == played
