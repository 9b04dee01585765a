"""``adjudicator db``: the archive's database. ``upgrade`` applies the migrations it has not had
(``ADJUDICATOR_ARCHIVE_URL``, or ``--url``); ``current`` prints its revision."""

from __future__ import annotations

import asyncio

import click

from app.settings import Settings
from app.stores.archive.archive import Archive
from app.stores.archive.migrate import current, head, upgrade
from app.stores.archive.urls import NONE, shown


def _archive(url: str | None) -> Archive:
    chosen = url or Settings().archive_url
    if chosen == NONE:
        raise click.ClickException("no archive: ADJUDICATOR_ARCHIVE_URL is none")
    return Archive(chosen)


async def _upgrade(archive: Archive) -> str | None:
    try:
        await upgrade(archive)
        return await current(archive)
    finally:
        await archive.close()


async def _current(archive: Archive) -> str | None:
    try:
        return await current(archive)
    finally:
        await archive.close()


URL = click.option("--url", help="The archive's URL (default: ADJUDICATOR_ARCHIVE_URL).")


@click.group()
def db() -> None:
    """The archive's database: its schema's migrations."""


@db.command("upgrade")
@URL
def db_upgrade(url: str | None) -> None:
    """Apply every migration the archive's database has not had (safe to run again, and from
    many processes at once on PostgreSQL)."""
    archive = _archive(url)
    revision = asyncio.run(_upgrade(archive))
    click.echo(f"{shown(archive.url)}: at revision {revision} (newest: {head()})")


@db.command("current")
@URL
def db_current(url: str | None) -> None:
    """Print the revision the archive's database is at (none: not made yet)."""
    archive = _archive(url)
    click.echo(asyncio.run(_current(archive)) or "none")
