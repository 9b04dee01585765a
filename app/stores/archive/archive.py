"""Finished games in a database: written once, listed by an index, read back as they were.

A game is archived in one transaction (its row, its seats, its records) that does nothing if the
game is there already (``put``): archivers in many processes may offer the same game, and an
archiver that died after the write and before telling the live store offers it again; the
database keeps one. A page of the listing (``page``) walks one index from a cursor, newest end
first, and an export (``exported``) reads the same order in batches, each its own short query, so
that neither holds a database's worth of rows in memory nor a transaction open for long.

An archive that cannot be reached raises ``StoreUnavailable``: the routes answer 503, and the
archiver leaves the game waiting in its live store and tries again.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import asyncpg
from sqlalchemy import (
    Connection,
    Engine,
    Insert,
    and_,
    create_engine,
    event,
    exists,
    func,
    literal,
    select,
    tuple_,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from app.sessions.errors import StoreUnavailable
from app.stores.archive.boards import BoardResult, result_steps
from app.stores.archive.ratings import TEMPLATES, Rated, Steps, drive, drive_async, rating_steps
from app.stores.archive.tables import games, records, seats, signing_keys
from app.stores.archive.urls import engine_url, is_sqlite

T = TypeVar("T")
# What asyncpg raises when the server refuses, fails or is gone (``_PostgresWrites``).
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError)


@dataclass(frozen=True, slots=True)
class ArchivedRecord:
    """A finished game's record in one ``format``: the bytes answered and their media type, or
    why the format cannot write the game (``refused``)."""

    format: str
    media_type: str
    body: bytes
    refused: str | None = None


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game as the archive keeps it: the columns it is found by, its ``summary`` as
    listed (JSON), the token hashes that may read it if it is private (``readers``), its seats'
    names and players (by seat: 1, 2) and its records. Times are ms since the epoch."""

    id: str
    game: str
    rule: str | None
    status: str
    winner: int | None
    reason: str | None
    move_count: int
    created_ms: int
    ended_ms: int
    private: bool
    summary: Mapping[str, object]
    records: Sequence[ArchivedRecord]
    readers: frozenset[str] = frozenset()
    names: Mapping[int, str] = field(default_factory=dict)
    players: Mapping[int, str] = field(default_factory=dict)
    rated: Rated | None = None  # a rated game's result: its players' ratings change with it
    # A tournament's game: the tournament, and the result its board takes.
    board: tuple[str, BoardResult] | None = None


@dataclass(frozen=True, slots=True)
class Where:
    """A listing's filters (None: any): exact values, and the end strictly after
    ``ended_after`` and strictly before ``ended_before`` (ms since the epoch)."""

    game: str | None = None
    rule: str | None = None
    player: str | None = None
    name: str | None = None
    status: str | None = None
    reason: str | None = None
    ended_after: int | None = None
    ended_before: int | None = None


@dataclass(frozen=True, slots=True, order=True)
class Cursor:
    """Where a page ends: the last game listed (its end, its id). Listed newest end first, the
    next page holds the games before it in that order."""

    ended_ms: int
    id: str

    def encode(self) -> str:
        text = f"{self.ended_ms}:{self.id}".encode()
        return base64.urlsafe_b64encode(text).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Cursor:
        """The cursor ``encode`` wrote; ValueError for anything else."""
        if not 0 < len(text) <= 200:
            raise ValueError("not a cursor of this listing")
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("ascii")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise ValueError("not a cursor of this listing") from None
        ended, colon, game_id = raw.partition(":")
        if not colon or not ended.isdigit() or not game_id or not game_id.isprintable():
            raise ValueError("not a cursor of this listing")
        return cls(int(ended), game_id)


@dataclass(frozen=True, slots=True)
class Page:
    """A page of summaries, newest end first, and the cursor to the next (None: no more)."""

    games: list[Mapping[str, Any]]
    next: Cursor | None


@dataclass(frozen=True, slots=True)
class Kept:
    """A game's record in one format as archived, and who may read it: whether it is private,
    and the token hashes that may read it then."""

    record: ArchivedRecord
    private: bool
    readers: frozenset[str]


def _sqlite_pragmas(connection: Any, _: Any) -> None:
    """Each SQLite connection: write-ahead logging (readers do not wait for the archiver; a
    process that dies loses no committed game), waits up to 5 s for another's write, and keeps
    foreign keys."""
    cursor = connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=5000",
                   "foreign_keys=ON"):  # fmt: skip
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


class Archive:
    """The archive at ``url`` (``app.stores.archive.urls``). ``timeout_seconds`` bounds a
    connection's making and each statement on PostgreSQL; ``connections`` the pool."""

    def __init__(self, url: str, *, timeout_seconds: float = 5.0, connections: int = 5) -> None:
        self.url = url
        self.sqlite = is_sqlite(url)
        options: dict[str, Any] = {}
        if self.sqlite:  # a file: no connection to find broken before use
            options["connect_args"] = {"timeout": timeout_seconds}
        else:
            options |= {
                "pool_pre_ping": True,  # a server restarted meanwhile: a new connection
                "pool_size": connections,
                "max_overflow": 0,
                "pool_timeout": timeout_seconds,
                "connect_args": {"timeout": timeout_seconds, "command_timeout": timeout_seconds},
            }
        self.engine: AsyncEngine = create_async_engine(engine_url(url), **options)
        # SQLite's reads (``read``): as many threads as the pool's connections.
        self._readers = ThreadPoolExecutor(connections, thread_name_prefix="archive-read")
        self.inserts = self._inserts()
        # SQLite's writes: on the driver, through a synchronous engine over the same file (``put``).
        self.writer: Engine | None = None
        self.writes: _SqliteWrites | None = None
        # PostgreSQL's writes of a game and its ratings: on the driver too.
        self.driven: _PostgresWrites | None = None
        if self.sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            self.writer = create_engine(
                make_url(url),
                connect_args={"timeout": timeout_seconds, "check_same_thread": False},
            )
            event.listen(self.writer, "connect", _sqlite_pragmas)
            self.writes = _SqliteWrites(self.writer, self.inserts)
        else:
            self.driven = _PostgresWrites([*self.inserts, *TEMPLATES[True]], self.engine.dialect)

    async def close(self) -> None:
        self._readers.shutdown(wait=False)
        await self.engine.dispose()
        if self.writes is not None:
            self.writes.close()
        if self.writer is not None:
            self.writer.dispose()

    async def checkpoint(self) -> None:
        """On SQLite, copy the write-ahead log of the writes made on the event loop into the
        file (``_SqliteWrites``), in a worker thread; nothing elsewhere."""
        if self.writes is not None:
            try:
                await asyncio.to_thread(self.writes.checkpoint)
            except (DBAPIError, SQLAlchemyError, OSError, sqlite3.Error) as error:
                raise StoreUnavailable(may_have_applied=False) from error

    async def run(self, work: Callable[[AsyncConnection], Awaitable[T]], write: bool) -> T:
        """``work`` on a connection (in a transaction when it writes); StoreUnavailable when the
        database cannot be reached or fails."""
        try:
            if write:
                async with self.engine.begin() as connection:
                    return await work(connection)
            async with self.engine.connect() as connection:
                return await work(connection)
        except (DBAPIError, SQLAlchemyError, OSError, TimeoutError) as error:
            raise StoreUnavailable(may_have_applied=None if write else False) from error

    async def read(self, work: Callable[[Connection], T]) -> T:
        """``work``, a read made of several statements, on a synchronous connection: on SQLite
        in a worker thread over the file's synchronous engine (one hop to a thread and back for
        the whole read; through aiosqlite every statement's every call is a hop: a
        500-player tournament's four queries took 14 ms that way, 6 ms this way), elsewhere on
        the event loop's driver (``run_sync``). ``work`` only reads rows: what is built of them is
        built by the caller, on the event loop, where its CPU time is its client's.
        StoreUnavailable when the database cannot be reached or fails."""
        try:
            if self.writer is not None:
                writer = self.writer

                def in_thread() -> T:
                    with writer.connect() as connection:
                        return work(connection)

                # Threads of their own: the loop's default ones also wait for SQLite's write
                # lock (``put``) and pair Swiss rounds for seconds, which no read waits behind.
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._readers, in_thread)
            async with self.engine.connect() as connection:
                return await connection.run_sync(work)
        except (DBAPIError, SQLAlchemyError, OSError, TimeoutError, sqlite3.Error) as error:
            raise StoreUnavailable(may_have_applied=False) from error

    # --- writing ------------------------------------------------------------------------------

    def _insert(self, table: Any) -> Any:
        dialect = sqlite if self.sqlite else postgresql
        return dialect.insert(table)

    def _inserts(self) -> list[Any]:
        """The statements that archive a game, in order (``_rows``): its row first, which does
        nothing if the game is there already (then nothing else is written), its seats, its
        records."""
        return [
            self._insert(games).on_conflict_do_nothing(index_elements=["id"]),
            seats.insert(),
            records.insert(),
        ]

    async def put(self, game: Finished, archived_ms: int) -> bool:
        """Archive ``game`` unless it is archived already: True if this call wrote it.

        On SQLite the statements are compiled once and run straight on the driver
        (``_SqliteWrites``): through aiosqlite each statement's every call is a hop to its
        thread and back (2 ms a game), through SQLAlchemy's execution each is bound anew
        (0.5 ms); on the driver the whole transaction takes about 0.2 ms. It runs here, on the
        event loop, when the file's write lock is free at once (a hop to a thread and back
        costs as much again as the write), and in a worker thread, waiting for the lock, when
        it is not: another game's move never waits for a lock."""
        rows = self._rows(game, archived_ms)
        if self.writes is not None and game.rated is None and game.board is None:
            try:
                try:
                    return self.writes.put(rows, wait=False)
                except _Busy:
                    return await asyncio.to_thread(self.writes.put, rows, wait=True)
            except (DBAPIError, SQLAlchemyError, OSError, sqlite3.Error) as error:
                raise StoreUnavailable(may_have_applied=None) from error

        if self.writer is not None:  # SQLite, a rated or a tournament's game: in a thread
            writer = self.writer

            def write_here() -> bool:
                with writer.begin() as connection:
                    return drive(self._steps(game, rows, archived_ms), connection.execute)

            try:
                return await asyncio.to_thread(write_here)
            except (DBAPIError, SQLAlchemyError, OSError) as error:
                raise StoreUnavailable(may_have_applied=None) from error

        if self.driven is not None and game.board is None:
            try:
                return await self.driven.put(self.engine, self._steps(game, rows, archived_ms))
            except (DBAPIError, SQLAlchemyError, OSError, TimeoutError, *DRIVER_ERRORS) as error:
                raise StoreUnavailable(may_have_applied=None) from error

        async def write(connection: AsyncConnection) -> bool:  # a tournament's game
            return await drive_async(self._steps(game, rows, archived_ms), connection.execute)

        return await self.run(write, write=True)

    def _steps(self, game: Finished, rows: list[Any], archived_ms: int) -> Steps:
        """The statements that archive ``game`` (``_inserts`` with ``rows``), and a rated
        game's ratings (``rating_steps``), a tournament's game's board (``result_steps``):
        nothing past the first if it is there already."""
        (first, row), *rest = zip(self.inserts, rows, strict=True)
        if (yield (first, row)).rowcount != 1:  # there already
            return False
        for statement, more in rest:
            if more:
                yield (statement, more)
        if game.rated is not None:
            yield from rating_steps(game.id, game.rated, archived_ms, postgres=not self.sqlite)
        if game.board is not None:
            tournament, taken = game.board
            yield from result_steps(game.id, tournament, taken, archived_ms, not self.sqlite)
        return True

    @staticmethod
    def _rows(game: Finished, archived_ms: int) -> list[Any]:
        """The rows that archive ``game``, one entry per statement of ``_inserts``: its row,
        its seats' rows, its records' rows."""
        row = {
            "id": game.id, "game": game.game, "rule": game.rule, "status": game.status,
            "winner": game.winner, "reason": game.reason, "move_count": game.move_count,
            "created_at": game.created_ms, "ended_at": game.ended_ms,
            "private": game.private, "summary": json.dumps(game.summary),
            "readers": json.dumps(sorted(game.readers)), "archived_at": archived_ms,
        }  # fmt: skip
        seated = [
            {"game_id": game.id, "seat": seat, "name": game.names.get(seat),
             "player": game.players.get(seat), "private": game.private,
             "ended_at": game.ended_ms}
            for seat in (1, 2)
        ]  # fmt: skip
        kept = [
            {"game_id": game.id, "format": record.format, "body": record.body,
             "media_type": record.media_type, "refused": record.refused}
            for record in game.records
        ]  # fmt: skip
        return [row, seated, kept]

    # --- reading ------------------------------------------------------------------------------

    def _listing(
        self, where: Where, after: Cursor | None, format: str | None = None, below: int = 0
    ) -> Any:
        """The public games of ``where`` before ``after``, newest end first (their summary, end
        and id; and their record in ``format``, if asked, those that have one; archived at or
        before ``below``, a ``seq``, if given): walked
        down the seats' index when a seat's name or player is asked, else the games'
        (``tables``). A game both of whose seats match is listed once: the first seat stands
        for it."""
        query: Any  # a Select
        picked: tuple[Any, ...] = (games.c.summary, games.c.ended_at, games.c.id)
        if format is not None:
            picked += (records.c.body,)
        conditions: list[Any] = []
        driver = where.name if where.name is not None else where.player
        if driver is not None:
            column = "name" if where.name is not None else "player"
            seat, first = seats.alias("seat"), seats.alias("first")
            query = select(*picked).select_from(seat).join(games, games.c.id == seat.c.game_id)
            conditions += [
                seat.c.private == literal(False), seat.c[column] == driver,
                ~exists().where(first.c.game_id == seat.c.game_id, first.c.seat < seat.c.seat,
                                first.c[column] == driver),
            ]  # fmt: skip
            if where.name is not None and where.player is not None:
                other = seats.alias("other")
                conditions.append(
                    exists().where(other.c.game_id == seat.c.game_id,
                                   other.c.player == where.player)
                )  # fmt: skip
            order = (seat.c.ended_at, seat.c.game_id)
        else:
            query = select(*picked)
            conditions.append(games.c.private == literal(False))
            order = (games.c.ended_at, games.c.id)
        for name in ("game", "rule", "status", "reason"):
            value = getattr(where, name)
            if value is not None:
                conditions.append(games.c[name] == value)
        if where.ended_after is not None:
            conditions.append(order[0] > where.ended_after)
        if where.ended_before is not None:
            conditions.append(order[0] < where.ended_before)
        if after is not None:
            conditions.append(tuple_(*order) < tuple_(literal(after.ended_ms), literal(after.id)))
        if below:
            conditions.append(games.c.seq <= below)
        if format is not None:
            query = query.join(
                records, and_(records.c.game_id == games.c.id, records.c.format == format)
            )
            conditions.append(records.c.refused.is_(None))
        return query.where(and_(*conditions)).order_by(order[0].desc(), order[1].desc())

    async def page(self, where: Where, after: Cursor | None, limit: int) -> Page:
        """At most ``limit`` summaries of ``where``'s public games after the cursor ``after``."""

        async def read(connection: AsyncConnection) -> Page:
            rows = (await connection.execute(self._listing(where, after).limit(limit + 1))).all()
            more = len(rows) > limit
            rows = rows[:limit]
            listed = [json.loads(row.summary) for row in rows]
            last = Cursor(rows[-1].ended_at, rows[-1].id) if more else None
            return Page(listed, last)

        return await self.run(read, write=False)

    async def newest(self) -> int:
        """The ``seq`` of the game archived last (0: none): an export reads the archive as it
        was then (``below``)."""

        async def read(connection: AsyncConnection) -> int:
            found = await connection.execute(select(func.max(games.c.seq)))
            return int(found.scalar_one() or 0)

        return await self.run(read, write=False)

    async def counted(self, where: Where, format: str, below: int) -> int:
        """How many games ``exported`` gives."""

        async def read(connection: AsyncConnection) -> int:
            listed = self._listing(where, None, format, below).order_by(None).subquery()
            found = await connection.execute(select(func.count()).select_from(listed))
            return int(found.scalar_one())

        return await self.run(read, write=False)

    async def exported(
        self, where: Where, format: str, after: Cursor | None, below: int, limit: int
    ) -> tuple[list[bytes], Cursor | None]:
        """The records in ``format`` of at most ``limit`` public games of ``where`` after the
        cursor ``after`` (archived at or before ``below``), newest end first; and the cursor
        after them (None: no more)."""

        async def read(connection: AsyncConnection) -> tuple[list[bytes], Cursor | None]:
            query = self._listing(where, after, format, below).limit(limit + 1)
            rows = (await connection.execute(query)).all()
            more = len(rows) > limit
            rows = rows[:limit]
            last = Cursor(rows[-1].ended_at, rows[-1].id) if more else None
            return [bytes(row.body) for row in rows], last

        return await self.run(read, write=False)

    async def kept(self, game_id: str, format: str) -> Kept | None:
        """The game's record in ``format``, and who may read it; None: no such game archived
        (or none in that format)."""

        async def read(connection: AsyncConnection) -> Kept | None:
            found = (
                await connection.execute(
                    select(
                        records.c.format,
                        records.c.media_type,
                        records.c.body,
                        records.c.refused,
                        games.c.private,
                        games.c.readers,
                    )
                    .join(games, games.c.id == records.c.game_id)
                    .where(records.c.game_id == game_id, records.c.format == format)
                )
            ).first()
            if found is None:
                return None
            record = ArchivedRecord(found.format, found.media_type, found.body, found.refused)
            return Kept(record, found.private, frozenset(json.loads(found.readers)))

        return await self.run(read, write=False)

    async def keep_key(self, jwk: Mapping[str, str], added_ms: int) -> None:
        """Keep a signing key's public JWK (by its ``kid``), once."""

        async def write(connection: AsyncConnection) -> None:
            row = {"kid": jwk["kid"], "jwk": json.dumps(dict(jwk)), "added_at": added_ms}
            await connection.execute(
                self._insert(signing_keys)
                .values(row)
                .on_conflict_do_nothing(index_elements=["kid"])
            )

        await self.run(write, write=True)

    async def keys(self) -> list[dict[str, str]]:
        """The public JWKs of every key kept, oldest first."""

        async def read(connection: AsyncConnection) -> list[dict[str, str]]:
            query = select(signing_keys.c.jwk).order_by(signing_keys.c.added_at)
            return [json.loads(row.jwk) for row in await connection.execute(query)]

        return await self.run(read, write=False)

    async def exists(self, game_id: str) -> bool:
        async def read(connection: AsyncConnection) -> bool:
            query = select(games.c.seq).where(games.c.id == game_id)
            return (await connection.execute(query)).first() is not None

        return await self.run(read, write=False)

    async def count(self) -> int:
        """The games archived."""

        async def read(connection: AsyncConnection) -> int:
            return int(
                (await connection.execute(select(func.count()).select_from(games))).scalar_one()
            )

        return await self.run(read, write=False)

    async def forget_before(self, ended_ms: int) -> int:
        """Remove the games that ended before ``ended_ms`` (retention), their seats and records:
        how many."""

        async def write(connection: AsyncConnection) -> int:
            old = select(games.c.id).where(games.c.ended_at < ended_ms)
            for table in (records, seats):
                await connection.execute(table.delete().where(table.c.game_id.in_(old)))
            removed = await connection.execute(games.delete().where(games.c.ended_at < ended_ms))
            return int(removed.rowcount)

        return await self.run(write, write=True)


def _compiled(statement: Any, dialect: Any) -> tuple[str, tuple[str, ...], dict[str, Any], bool]:
    """A statement built once, compiled for ``dialect``: its SQL, the names of its parameters in
    order, the values it binds itself, and whether it returns rows. An insert with no values of
    its own takes a row of each of its table's columns but the one the database numbers."""
    keys = None
    if isinstance(statement, Insert) and statement._values is None and not statement._multi_values:
        table: Any = statement.table
        numbered = table.autoincrement_column
        keys = [column.key for column in table.columns if column is not numbered]
    compiled = statement.compile(dialect=dialect, column_keys=keys)
    returns = bool(compiled.effective_returning)
    return compiled.string, tuple(compiled.positiontup or ()), dict(compiled.params), returns


class _Done(list[Any]):
    """What a statement run on asyncpg gave: the rows it returned, and how many rows it
    wrote (``rowcount``, as a SQLAlchemy result says it)."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        super().__init__(rows)
        self.rowcount = rowcount


class _PostgresWrites:
    """A PostgreSQL archive's writes of a game and its ratings, straight on asyncpg:
    ``statements`` (every one the steps yield, each built once) compiled once, run in one
    transaction of a pooled connection. SQLAlchemy's execution costs about 0.1 ms a statement,
    three times a round trip on loopback: a rated game's nine statements took 3 ms, 1 ms here
    (``bench.league``). The values the rows hold are the driver's own types."""

    def __init__(self, statements: list[Any], dialect: Any) -> None:
        self.compiled = {id(statement): (statement, *_compiled(statement, dialect))
                         for statement in statements}  # fmt: skip

    async def put(self, engine: AsyncEngine, steps: Steps) -> bool:
        async with engine.connect() as connection:
            driver = (await connection.get_raw_connection()).driver_connection
            assert driver is not None
            async with driver.transaction():
                return await drive_async(steps, lambda *step: self._execute(driver, *step))

    async def _execute(self, driver: Any, statement: Any, params: Any = None) -> Any:
        _, sql, names, bound, returns = self.compiled[id(statement)]
        if isinstance(params, list):
            await driver.executemany(sql, [[{**bound, **row}[name] for name in names]
                                           for row in params])  # fmt: skip
            return None
        given = {**bound, **(params or {})}
        arguments = [given[name] for name in names]
        if returns:
            rows = await driver.fetch(sql, *arguments)
            return _Done(rows, len(rows))
        status = await driver.execute(sql, *arguments)  # "INSERT 0 1", "UPDATE 2"
        return _Done([], int(status.rsplit(" ", 1)[-1]))


class _Busy(Exception):
    """The SQLite file's write lock is held by another connection (``_SqliteWrites.put``)."""


class _SqliteWrites:
    """An archive's writes on SQLite, straight on the driver: ``inserts`` compiled once for its
    dialect (their SQL and the order of their parameters), executed in one transaction (the
    values the rows hold — text, integers, bytes, booleans — are the driver's own types: nothing
    to convert).

    A write that must not wait (``wait=False``, on the event loop) runs on a connection of its
    own that gives up at once when another holds the write lock (``_Busy``) and never
    checkpoints the write-ahead log (copying it into the file and syncing it takes
    milliseconds): ``checkpoint``, in a worker thread, does. A write that may wait runs on a
    pooled connection of ``engine``, which waits for the lock."""

    def __init__(self, engine: Engine, inserts: list[Any]) -> None:
        self.engine = engine
        self.compiled = [_compiled(statement, engine.dialect)[:2] for statement in inserts]
        self._now: Any = None  # the connection that never waits, made at its first write

    def put(self, rows: list[Any], wait: bool) -> bool:
        connection = self.engine.raw_connection() if wait else self._unwaiting()
        try:
            return self._write(connection, rows)
        except sqlite3.OperationalError as error:
            if not wait and error.sqlite_errorcode == sqlite3.SQLITE_BUSY:
                raise _Busy from error
            raise
        finally:
            if wait:
                connection.close()  # back to the pool

    def _write(self, connection: Any, rows: list[Any]) -> bool:
        (first, row), *rest = zip(self.compiled, rows, strict=True)
        try:
            cursor = connection.cursor()
            sql, names = first
            cursor.execute(sql, [row[name] for name in names])
            if cursor.rowcount != 1:  # there already
                connection.rollback()
                return False
            for (sql, names), more in rest:
                if more:
                    cursor.executemany(sql, [[each[name] for name in names] for each in more])
            connection.commit()
            return True
        except BaseException:
            connection.rollback()
            raise

    def _unwaiting(self) -> Any:
        if self._now is None:
            connection = self.engine.raw_connection()
            connection.detach()  # its own: never back in the pool with these settings
            cursor = connection.cursor()
            cursor.execute("PRAGMA busy_timeout=0")
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()
            self._now = connection
        return self._now

    def checkpoint(self) -> None:
        """Copy what the write-ahead log holds into the file, without waiting for readers
        (``PASSIVE``)."""
        connection = self.engine.raw_connection()
        try:
            connection.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            connection.close()

    def close(self) -> None:
        if self._now is not None:
            self._now.close()
            self._now = None


__all__ = ["Archive", "ArchivedRecord", "Cursor", "Finished", "Kept", "Page", "Rated", "Where"]
