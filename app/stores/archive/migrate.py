"""The archive's schema brought to its newest revision by Alembic's migrations
(``migrations/versions``), on the connection the archive uses: ``adjudicator db upgrade``, and
at start on SQLite (an embedded file is its process's own)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncConnection

from app.stores.archive.archive import Archive

MIGRATIONS = Path(__file__).parent / "migrations"
# A PostgreSQL advisory lock's key: two processes upgrading at once take turns.
UPGRADE_LOCK = 0x61646A75  # "adju"


def config() -> Config:
    found = Config()
    found.set_main_option("script_location", str(MIGRATIONS))
    return found


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
    migrations = config()
    migrations.attributes["connection"] = connection
    command.upgrade(migrations, "head")


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def upgrade(archive: Archive) -> None:
    """Apply every migration the archive's database has not had (StoreUnavailable if it
    cannot be reached)."""

    async def apply(connection: AsyncConnection) -> None:
        await connection.run_sync(_upgrade)

    await archive.run(apply, write=True)


async def current(archive: Archive) -> str | None:
    """The database's revision (None: none applied; StoreUnavailable if it cannot be
    reached)."""

    async def read(connection: AsyncConnection) -> str | None:
        return await connection.run_sync(_current)

    return await archive.run(read, write=False)
