"""What ``ADJUDICATOR_ARCHIVE_URL`` may say, and the SQLAlchemy URL each means.

``sqlite:///PATH`` (a file, relative to the working directory; ``sqlite:////abs/path`` for an
absolute one) is read with aiosqlite, ``postgresql://user:pass@host:port/db`` with asyncpg, and
``none`` keeps no archive.
"""

from __future__ import annotations

from sqlalchemy.engine import URL, make_url

NONE = "none"
# The settings' pattern: what a URL must look like before it is tried.
PATTERN = r"^(none|sqlite:///.+|postgres(ql)?://.+)$"
DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg",
           "postgres": "postgresql+asyncpg"}  # fmt: skip


def engine_url(url: str) -> URL:
    """The SQLAlchemy URL of an archive URL (``sqlite:///…`` or ``postgresql://…``), with its
    asyncio driver."""
    parsed = make_url(url)
    return parsed.set(drivername=DRIVERS[parsed.get_backend_name()])


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite:")


def shown(url: str) -> str:
    """The URL as logs may show it: without its password."""
    return engine_url(url).render_as_string(hide_password=True)
