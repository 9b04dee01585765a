"""The archive's database on SQLite and on a real PostgreSQL server: the migrations make exactly
the declared tables, a game is written once however often and however concurrently it is
offered, and the listing pages exactly as a slow reference (filter every game, sort, cut) says.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import given
from hypothesis import strategies as st

from app.sessions.errors import StoreUnavailable
from app.stores.archive.archive import Archive, ArchivedRecord, Cursor, Finished, Where
from app.stores.archive.migrate import current, head, upgrade
from app.stores.archive.tables import metadata
from tests.servers import free_port

pytestmark = pytest.mark.anyio


@pytest.fixture
async def archive(archive_url: str) -> AsyncIterator[Archive]:
    made = Archive(archive_url)
    await upgrade(made)
    yield made
    await made.close()


def finished(game_id: str, ended_ms: int, **fields: Any) -> Finished:
    values: dict[str, Any] = {
        "game": "tictactoe", "rule": None, "status": "won", "winner": 1, "reason": "line",
        "move_count": 5, "created_ms": ended_ms - 1000, "private": False,
        "records": [ArchivedRecord("json", "application/json", f'{{"id":"{game_id}"}}'.encode())],
        **fields,
    }  # fmt: skip
    summary = {"id": game_id, "ended": ended_ms}
    return Finished(id=game_id, ended_ms=ended_ms, summary=summary, **values)


async def test_the_migrations_make_exactly_the_declared_tables(archive: Archive) -> None:
    assert await current(archive) == head()
    await upgrade(archive)  # again: nothing to do

    def differences(connection: Any) -> list[Any]:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))

    async with archive.engine.connect() as connection:
        assert await connection.run_sync(differences) == []


async def test_a_game_is_written_once_however_often_it_is_offered(archive: Archive) -> None:
    game = finished("g1", 5000, names={1: "Ann"})
    assert await archive.put(game, 6000)
    assert not await archive.put(game, 7000)
    assert await archive.count() == 1
    kept = await archive.kept("g1", "json")
    assert kept is not None
    assert kept.record.body == b'{"id":"g1"}'
    assert await archive.kept("g1", "ggf") is None
    assert await archive.kept("nope", "json") is None


async def test_archivers_racing_on_one_game_write_it_once(archive_url: str) -> None:
    archives = [Archive(archive_url) for _ in range(4)]
    await upgrade(archives[0])
    try:
        for round_ in range(5):
            game = finished(f"race{round_}", 1000 + round_)
            wrote = await asyncio.gather(*(archive.put(game, 2000) for archive in archives))
            assert sum(wrote) == 1
        assert await archives[0].count() == 5
    finally:
        for archive in archives:
            await archive.close()


async def test_a_write_that_finds_sqlite_locked_waits_off_the_event_loop(tmp_path: Path) -> None:
    """A SQLite write is made on the event loop only when the write lock is free at once: held
    by another connection, the write waits for it in a thread while the loop goes on, and is
    made when it is released; the log it leaves is checkpointed into the file."""
    path = tmp_path / "locked.sqlite3"
    archive = Archive(f"sqlite:///{path}")
    await upgrade(archive)
    try:
        await archive.checkpoint()  # the tables in the file
        assert await archive.put(finished("free", 1000), 2000)  # the lock free: made at once
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # the write lock, held
        writing = asyncio.ensure_future(archive.put(finished("locked", 1001), 2000))
        turns = 0
        while turns < 20:  # the loop goes on while the write waits
            await asyncio.sleep(0)
            turns += 1
        assert not writing.done()
        other.execute("COMMIT")
        assert await writing
        other.close()
        listed = (await archive.page(Where(), None, 10)).games
        assert sorted(game["id"] for game in listed) == ["free", "locked"]

        def in_the_file() -> list[str]:  # the file alone, without its log
            copy = tmp_path / "copy.sqlite3"
            shutil.copyfile(path, copy)
            with contextlib.closing(sqlite3.connect(copy)) as reading:
                return sorted(row[0] for row in reading.execute("SELECT id FROM games"))

        assert in_the_file() == []  # written to the log only, so far
        await archive.checkpoint()
        assert in_the_file() == ["free", "locked"]
    finally:
        await archive.close()


def reference(games: list[Finished], where: Where) -> list[str]:
    """The ids a listing of ``where`` must give, in order: every public game that matches,
    newest end first (then the greater id)."""

    def matches(game: Finished) -> bool:
        if game.private:
            return False
        for column in ("game", "rule", "status", "reason"):
            wanted = getattr(where, column)
            if wanted is not None and getattr(game, column) != wanted:
                return False
        if where.name is not None and where.name not in game.names.values():
            return False
        if where.player is not None and where.player not in game.players.values():
            return False
        if where.ended_after is not None and not game.ended_ms > where.ended_after:
            return False
        return where.ended_before is None or game.ended_ms < where.ended_before

    chosen = sorted(filter(matches, games), key=lambda game: (game.ended_ms, game.id))
    return [game.id for game in reversed(chosen)]


async def listed(archive: Archive, where: Where, limit: int) -> list[str]:
    """Every id of the listing, page by page."""
    ids: list[str] = []
    after: Cursor | None = None
    while True:
        page = await archive.page(where, after, limit)
        assert len(page.games) <= limit
        ids += [str(game["id"]) for game in page.games]
        if page.next is None:
            return ids
        assert len(page.games) == limit  # a page short of its limit is the last
        after = Cursor.decode(page.next.encode())


async def test_pages_walk_exactly_what_the_filters_select(archive: Archive) -> None:
    chance = random.Random(48)
    names, players = ["Ann", "Bo", "Cy", "Dee"], ["p1", "p2", "p3"]
    games = []
    for index in range(300):
        seats = [chance.choice(names), chance.choice(names)]  # at times one name on both
        game = finished(
            f"g{index:03d}", 10_000 + chance.randrange(60),  # many ends at one instant
            game=chance.choice(["tictactoe", "reversi", "gomoku"]),
            rule=chance.choice([None, "renju", "freestyle"]),
            status=chance.choice(["won", "draw", "aborted"]),
            reason=chance.choice(["line", "timeout", "resignation"]),
            private=chance.random() < 0.2,
            names={1: seats[0], 2: seats[1]} if chance.random() < 0.8 else {1: seats[0]},
            players={seat: chance.choice(players) for seat in (1, 2) if chance.random() < 0.5},
        )  # fmt: skip
        games.append(game)
        await archive.put(game, 0)
    filters = [
        Where(), Where(game="reversi"), Where(status="draw", reason="timeout"),
        Where(rule="renju", game="gomoku"), Where(name="Ann"), Where(name="Bo", status="won"),
        Where(player="p2"), Where(name="Cy", player="p1"), Where(ended_after=10_020),
        Where(ended_before=10_010, game="tictactoe"),
        Where(ended_after=10_010, ended_before=10_030),
        Where(game="connect4"), Where(name="Nobody"),
    ]  # fmt: skip
    for where in filters:
        for limit in (1, 7, 100, 1000):
            assert await listed(archive, where, limit) == reference(games, where), (where, limit)


async def test_a_private_game_is_never_listed_but_is_kept(archive: Archive) -> None:
    readers = frozenset({"hash1", "hash2"})
    await archive.put(finished("secret", 1000, private=True, readers=readers, names={1: "Ann"}), 0)
    assert (await archive.page(Where(), None, 10)).games == []
    assert (await archive.page(Where(name="Ann"), None, 10)).games == []
    kept = await archive.kept("secret", "json")
    assert kept is not None
    assert kept.private
    assert kept.readers == readers


async def test_signing_keys_are_kept_once_each(archive: Archive) -> None:
    first = {"kty": "OKP", "crv": "Ed25519", "x": "AAAA", "kid": "k1"}
    second = {"kty": "OKP", "crv": "Ed25519", "x": "BBBB", "kid": "k2"}
    await archive.keep_key(first, 1)
    await archive.keep_key(second, 2)
    await archive.keep_key(first, 3)
    assert await archive.keys() == [first, second]


async def test_retention_removes_only_the_games_that_ended_before(archive: Archive) -> None:
    for index in range(6):
        await archive.put(finished(f"old{index}", 1000 + index, names={1: "Ann"}), 0)
    assert await archive.forget_before(1003) == 3
    assert await listed(archive, Where(), 10) == ["old5", "old4", "old3"]
    assert await listed(archive, Where(name="Ann"), 10) == ["old5", "old4", "old3"]
    assert await archive.kept("old0", "json") is None


@pytest.mark.parametrize("scheme", ["postgresql", "sqlite"])
async def test_an_archive_that_cannot_be_reached_is_unavailable(scheme: str) -> None:
    url = (
        f"postgresql://nobody@127.0.0.1:{free_port()}/none" if scheme == "postgresql"
        else "sqlite:////nonexistent/directory/archive.sqlite3"
    )  # fmt: skip
    archive = Archive(url, timeout_seconds=1)
    try:
        with pytest.raises(StoreUnavailable):
            await archive.page(Where(), None, 10)
        with pytest.raises(StoreUnavailable):
            await archive.put(finished("g", 1), 0)
    finally:
        await archive.close()


@given(st.text(max_size=300))
def test_a_cursor_is_one_the_listing_wrote_or_refused(text: str) -> None:
    try:
        cursor = Cursor.decode(text)
    except ValueError:
        return
    assert Cursor.decode(cursor.encode()) == cursor


@given(st.integers(0, 2**62), st.text(st.characters(codec="ascii"), min_size=1, max_size=64))
def test_a_cursor_reads_back_what_it_wrote(ended: int, game_id: str) -> None:
    cursor = Cursor(ended, game_id)
    if game_id.isprintable():
        assert Cursor.decode(cursor.encode()) == cursor
