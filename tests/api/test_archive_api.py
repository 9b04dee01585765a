"""Games that last, through the HTTP API (contract part 3, "Games that last"): every finished
game is archived with its signed record, listed and read back exactly as the record route
answered it at the end, on SQLite and on a real PostgreSQL server; private games stay private;
an archive that cannot be reached answers 503 on the archive's routes, never holds up play, and
loses no game; a restart keeps every game and every signature verifiable.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prometheus_client.parser import text_string_to_metric_families

from app.main import create_app
from app.records.signing import verify
from app.records.wthor import read_wthor
from app.settings import Settings
from app.stores.archive.archive import Archive
from app.stores.archive.migrate import upgrade
from app.stores.archive.urls import NONE
from tests.api.problems import assert_problem
from tests.api.test_session_kinds import KINDS, Kind, create, send
from tests.conftest import app_settings, fresh_database
from tests.servers import free_port, wait_for

WTHOR_1988 = (Path(__file__).parents[1] / "data" / "WTH_1988.wtb").read_bytes()


def served(archive_url: str, **settings: Any) -> Settings:
    return app_settings(
        archive_url=archive_url, create_rate_per_minute=0, archive_poll_seconds=0.1, **settings
    )


@pytest.fixture
def client(archive_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(served(archive_url)), raise_server_exceptions=False) as made:
        yield made


def played_out(client: TestClient, kind: Kind) -> dict[str, Any]:
    game = create(client, kind)
    for player, row, col in kind.script:
        assert send(client, game, player, row, col).status_code == 201
    return game


def bearer(game: dict[str, Any], seat: str = "1") -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][seat]}"}


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_a_finished_game_is_read_back_as_its_record_route_answered_it(
    client: TestClient, kind: Kind
) -> None:
    game = played_out(client, kind)
    live = {
        wanted: client.get(f"/v1/games/{game['id']}/record", params={"format": wanted})
        for wanted in ("json", "transcript", "ggf", "psq", "sgf")
    }
    for wanted, answered in live.items():
        kept = client.get(f"/v1/archive/games/{game['id']}", params={"format": wanted})
        assert kept.status_code == answered.status_code, (wanted, kept.text)
        if answered.status_code == 200:  # the same bytes, the same media type
            assert kept.content == answered.content
            assert kept.headers["content-type"] == answered.headers["content-type"]
        else:  # the same refusal
            assert kept.json()["errors"] == answered.json()["errors"]
    record = client.get(f"/v1/archive/games/{game['id']}").json()
    keys = client.get("/v1/keys").json()["keys"]
    assert verify(record, keys, "record").typ == "record"
    listed = client.get("/v1/archive/games", params={"game": record["game"]}).json()["games"]
    summary = next(found for found in listed if found["id"] == game["id"])
    state = record["state"]
    assert {name: summary[name] for name in ("status", "winner", "reason", "move_count")} == {
        name: state[name] for name in ("status", "winner", "reason", "move_count")
    }
    assert summary["chain"] == record["chain"]
    assert summary["game"] == record["game"]
    assert summary["created_at"] <= summary["ended_at"]
    if "final_score" in state:
        assert summary["final_score"] == state["final_score"]


ENDINGS = {
    "resign": ("won", "resignation"),
    "abort": ("aborted", "aborted"),
}


@pytest.mark.parametrize("action", sorted(ENDINGS))
def test_every_ending_is_archived(client: TestClient, action: str) -> None:
    game = create(client, KINDS[0])
    answered = client.post(f"/v1/games/{game['id']}/{action}", headers=bearer(game), json={})
    assert answered.status_code == 200, answered.text
    kept = client.get(f"/v1/archive/games/{game['id']}")
    assert kept.status_code == 200
    status, reason = ENDINGS[action]
    assert (kept.json()["state"]["status"], kept.json()["state"]["reason"]) == (status, reason)


def test_an_agreed_draw_is_archived(client: TestClient) -> None:
    game = create(client, KINDS[0])
    for seat in ("1", "2"):
        answered = client.post(f"/v1/games/{game['id']}/draw-offer", headers=bearer(game, seat))
        assert answered.status_code == 200, answered.text
    state = client.get(f"/v1/archive/games/{game['id']}").json()["state"]
    assert (state["status"], state["reason"]) == ("draw", "agreement")


def test_a_flag_that_falls_with_nobody_watching_is_archived(client: TestClient) -> None:
    body = {**KINDS[0].body, "clock": {"initial_seconds": 1, "increment_seconds": 0}}
    game = client.post("/v1/games", json=body).json()
    assert send(client, game, 1, 0, 0).status_code == 201
    assert send(client, game, 2, 1, 1).status_code == 201  # both clocks have run: one falls

    def archived() -> bool:
        return client.get(f"/v1/archive/games/{game['id']}").status_code == 200

    wait_for(archived, "the flag's fall archived", seconds=30)
    state = client.get(f"/v1/archive/games/{game['id']}").json()["state"]
    assert (state["status"], state["reason"], state["winner"]) == ("won", "timeout", 2)


def test_a_private_game_is_never_listed_and_read_only_with_its_tokens(client: TestClient) -> None:
    body = {**KINDS[0].body, "visibility": "private"}
    game = client.post("/v1/games", json=body).json()
    spectator = client.post(f"/v1/games/{game['id']}/spectators", headers=bearer(game)).json()
    for player, row, col in KINDS[0].script:
        assert send(client, game, player, row, col).status_code == 201
    listed = client.get("/v1/archive/games", params={"limit": 1000}).json()["games"]
    assert game["id"] not in {found["id"] for found in listed}
    path = f"/v1/archive/games/{game['id']}"
    assert_problem(client.get(path), 401, "unauthorized")
    assert_problem(client.get(path, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    for token in (game["tokens"]["1"], game["tokens"]["2"], spectator["token"]):
        assert client.get(path, headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_listing_pages_and_filters(client: TestClient) -> None:
    made = [played_out(client, KINDS[0])["id"] for _ in range(5)]
    names: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, "game": "tictactoe"}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/archive/games", params=params).json()
        names += [found["id"] for found in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert names == list(reversed(made))  # newest end first
    assert client.get("/v1/archive/games", params={"status": "draw"}).json()["games"] == []
    assert client.get("/v1/archive/games", params={"game": "reversi"}).json()["games"] == []
    assert client.get("/v1/archive/games", params={"ended_before": "2000-01-01T00:00:00Z"}).json()[
        "games"
    ] == []  # fmt: skip
    after = client.get("/v1/archive/games", params={"ended_after": "2000-01-01T00:00:00+01:00"})
    assert len(after.json()["games"]) == 5


BAD_QUERIES = [
    ("limit", "0"), ("limit", "1001"), ("limit", "ten"), ("cursor", "nope"),
    ("cursor", "x" * 300), ("game", "Tic Tac"), ("status", "x" * 40),
    ("ended_after", "yesterday"), ("ended_after", "2026-02-30T00:00:00Z"),
    ("ended_before", "2026-12-02"), ("name", ""), ("name", "a\u0000b"), ("name", "n" * 65),
    ("player", "not a player!"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "value"), BAD_QUERIES)
def test_a_bad_filter_is_a_422_naming_it(client: TestClient, name: str, value: str) -> None:
    answered = client.get("/v1/archive/games", params={name: value})
    problem = assert_problem(answered, 422, "validation_error")
    assert problem["errors"][0]["loc"] == ["query", name]


def test_a_repeated_filter_is_refused(client: TestClient) -> None:
    answered = client.get("/v1/archive/games?game=reversi&game=gomoku")
    assert_problem(answered, 422, "validation_error")


def test_an_unknown_game_is_404_and_a_bad_format_422(client: TestClient) -> None:
    assert_problem(client.get("/v1/archive/games/nothing"), 404, "game_not_found")
    game = played_out(client, KINDS[0])
    answered = client.get(f"/v1/archive/games/{game['id']}", params={"format": "ggf"})
    assert_problem(answered, 422, "validation_error")


def test_without_an_archive_nothing_is_kept() -> None:
    with TestClient(create_app(served(NONE)), raise_server_exceptions=False) as client:
        game = played_out(client, KINDS[0])
        assert client.get("/v1/archive/games").json() == {"games": [], "next": None}
        assert_problem(client.get(f"/v1/archive/games/{game['id']}"), 404, "game_not_found")


def test_an_unreachable_archive_never_holds_up_play_and_loses_no_game(
    postgres_url: str,
) -> None:
    """The archive's database does not exist yet: play goes on, the archive's routes answer
    503, and every game that ended meanwhile is archived once the database is there."""
    server = postgres_url.rpartition("/")[0]
    url = f"{server}/later_{free_port()}"
    settings = served(url, archive_timeout_seconds=1)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        ended = [played_out(client, KINDS[0])["id"] for _ in range(3)]
        assert_problem(client.get("/v1/archive/games"), 503, "store_unavailable")
        assert_problem(client.get(f"/v1/archive/games/{ended[0]}"), 503, "store_unavailable")
        made = fresh_database(postgres_url)  # a database, migrated; then the same name
        name = made.rpartition("/")[2]
        asyncio.run(_rename(postgres_url, name, url.rpartition("/")[2]))

        def all_archived() -> bool:
            return all(
                client.get(f"/v1/archive/games/{game_id}").status_code == 200 for game_id in ended
            )

        wait_for(all_archived, "the waiting games archived", seconds=90)
        listed = client.get("/v1/archive/games").json()["games"]
        assert sorted(found["id"] for found in listed) == sorted(ended)


async def _rename(server_url: str, old: str, new: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(server_url, timeout=10)
    try:
        await connection.execute(f"ALTER DATABASE {old} RENAME TO {new}")
    finally:
        await connection.close()
    archive = Archive(f"{server_url.rpartition('/')[0]}/{new}")
    try:
        await upgrade(archive)
    finally:
        await archive.close()


def test_a_restart_keeps_every_game_and_every_signature(archive_url: str) -> None:
    with TestClient(create_app(served(archive_url)), raise_server_exceptions=False) as first:
        game = played_out(first, KINDS[0])
        before = first.get(f"/v1/archive/games/{game['id']}").content
    time.sleep(0.01)
    with TestClient(create_app(served(archive_url)), raise_server_exceptions=False) as second:
        after = second.get(f"/v1/archive/games/{game['id']}")
        assert after.content == before
        keys = second.get("/v1/keys").json()["keys"]  # a new ephemeral key, and the old one
        assert verify(after.json(), keys, "record").kid != keys[0]["kid"]
        listed = second.get("/v1/archive/games").json()["games"]
        assert [found["id"] for found in listed] == [game["id"]]


def test_an_ndjson_export_is_every_listed_games_signed_record(client: TestClient) -> None:
    games = [played_out(client, kind)["id"] for kind in KINDS]
    answered = client.get("/v1/archive/export", params={"format": "ndjson"})
    assert answered.status_code == 200
    assert answered.headers["content-type"] == "application/x-ndjson"
    lines = answered.content.splitlines()
    keys = client.get("/v1/keys").json()["keys"]
    exported = [json.loads(line) for line in lines]
    for record in exported:
        verify(record, keys, "record")
    listed = client.get("/v1/archive/games").json()["games"]
    assert [summary["chain"] for summary in listed] == [record["chain"] for record in exported]
    assert len(exported) == len(games)
    only = client.get("/v1/archive/export", params={"format": "ndjson", "game": "reversi"})
    assert [json.loads(line)["game"] for line in only.content.splitlines()] == ["reversi"]


def test_a_wtb_export_of_real_games_audits_back_with_every_stored_score(
    client: TestClient,
) -> None:
    """Forty games of the federation's 1988 base, played through the service (with a resigned
    game and a small board that no WTHOR file holds), exported as a WTHOR file that the audit
    reads back: every game's stored score is the federation's."""
    _, games = read_wthor(WTHOR_1988, 60)
    played = 0
    for game in games:
        if played == 40:
            break
        if len(game.moves) < 40:  # a game whose record stops early: not over on the board
            continue
        made = client.post("/v1/games", json={"game": "reversi"}).json()
        for square in game.moves:
            state = client.get(f"/v1/games/{made['id']}").json()
            seat = str(state["next_player"])
            answered = client.post(
                f"/v1/games/{made['id']}/moves", json={"square": square}, headers=bearer(made, seat)
            )
            assert answered.status_code == 201, answered.text
        played += client.get(f"/v1/games/{made['id']}").json()["reason"] == "no_moves"
    resigned = client.post("/v1/games", json={"game": "reversi"}).json()
    client.post(f"/v1/games/{resigned['id']}/resign", headers=bearer(resigned), json={})
    played_out(client, next(kind for kind in KINDS if kind.name == "reversi"))  # 4 × 4
    exported = client.get("/v1/archive/export", params={"format": "wtb"})
    assert exported.status_code == 200
    header, read = read_wthor(exported.content, 60)
    assert header.games == played == len(list(read))
    audited = client.post(
        "/v1/records/audit-batch", content=exported.content,
        headers={"content-type": "application/octet-stream"},
    )  # fmt: skip
    lines = [json.loads(line) for line in audited.content.splitlines()]
    assert len(lines) == played
    assert all(line["agrees"] and line["verdict"] == "finished" for line in lines), lines


def test_an_export_without_games_is_empty_and_a_bad_format_422(client: TestClient) -> None:
    empty = client.get("/v1/archive/export", params={"format": "wtb"})
    assert read_wthor(empty.content, 60)[0].games == 0
    assert client.get("/v1/archive/export").content == b""
    problem = assert_problem(client.get("/v1/archive/export?format=pgn"), 422, "validation_error")
    assert problem["errors"][0]["loc"] == ["query", "format"]


def test_the_archives_size_and_lag_are_metrics(client: TestClient) -> None:
    played_out(client, KINDS[0])
    families = {
        family.name: family.samples[0].value
        for family in text_string_to_metric_families(client.get("/metrics").text)
        if family.name.startswith("adjudicator_archive")
    }
    assert families == {
        "adjudicator_archive_games": 1.0, "adjudicator_archive_waiting_games": 0.0,
        "adjudicator_archive_lag_seconds": 0.0, "adjudicator_archive_written_games": 1.0,
    }  # fmt: skip


ARCHIVE_PARAMS = ["game", "rule", "player", "name", "status", "reason", "ended_after",
                  "ended_before", "cursor", "limit", "format"]  # fmt: skip


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(ARCHIVE_PARAMS),
        st.text(max_size=80) | st.binary(max_size=40).map(repr),
        max_size=4,
    ),
    st.sampled_from(["/v1/archive/games", "/v1/archive/export", "/v1/archive/games/x"]),
)
def test_no_query_is_a_server_error(client: TestClient, query: dict[str, str], path: str) -> None:
    answered = client.get(path, params=query)
    assert answered.status_code in (200, 404, 422), answered.text
    if answered.status_code == 422:
        assert answered.json()["errors"][0]["loc"][0] == "query"


@pytest.fixture
def on_every_store(store_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """An app on each store (memory, Redis, a Redis Cluster) archiving into SQLite."""
    settings = served(f"sqlite:///{tmp_path / 'archive.sqlite3'}", store_url=store_url)
    with TestClient(create_app(settings), raise_server_exceptions=False) as made:
        yield made


def test_every_ending_on_every_store_is_archived_once(on_every_store: TestClient) -> None:
    client = on_every_store
    won = played_out(client, KINDS[0])
    resigned = create(client, KINDS[0])
    client.post(f"/v1/games/{resigned['id']}/resign", headers=bearer(resigned), json={})
    clocked = client.post(
        "/v1/games", json={**KINDS[0].body, "clock": {"initial_seconds": 1, "increment_seconds": 0}}
    ).json()
    assert send(client, clocked, 1, 0, 0).status_code == 201
    assert send(client, clocked, 2, 1, 1).status_code == 201
    ended = {won["id"], resigned["id"], clocked["id"]}

    def all_listed() -> bool:
        games = client.get("/v1/archive/games").json()["games"]
        return {game["id"] for game in games} == ended

    wait_for(all_listed, "every ending archived", seconds=30)  # the flag falls unwatched
    listed = client.get("/v1/archive/games").json()["games"]
    assert len(listed) == len(ended)  # each once
    reasons = {game["id"]: game["reason"] for game in listed}
    assert reasons == {won["id"]: "line", resigned["id"]: "resignation", clocked["id"]: "timeout"}


def test_a_finished_game_deleted_is_archived_first(client: TestClient) -> None:
    """A player cannot unmake a result: deleting a finished game archives it first."""
    game = played_out(client, KINDS[0])
    deleted = client.delete(f"/v1/games/{game['id']}", headers=bearer(game, "2"))
    assert deleted.status_code == 204
    assert client.get(f"/v1/archive/games/{game['id']}").status_code == 200
    live = create(client, KINDS[0])  # a game that goes on is no result: deleted, not archived
    assert client.delete(f"/v1/games/{live['id']}", headers=bearer(live)).status_code == 204
    assert_problem(client.get(f"/v1/archive/games/{live['id']}"), 404, "game_not_found")
