"""What the stores need from a database, whatever its dialect, and how values cross into SQL.

A ``Database`` (``bot/storage/sqlite.py`` or ``bot/storage/postgresql.py``) hands out ``Sql``
runners: ``session()`` for statements that each commit on their own, ``transaction()`` for
statements that commit together or not at all. Statements are written once, with named
parameters (``:name``); the PostgreSQL runner numbers them (``$1``) for asyncpg. Where the two
dialects differ, a store picks its statement by ``database.dialect``.
Values cross into SQL as text: times as ISO 8601 in UTC, JSON columns as compact JSON.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, Protocol, overload

from pydantic_core import to_json

from bot.storage.errors import StorageError
from bot.storage.models import as_utc

log = logging.getLogger(__name__)

Dialect = Literal["sqlite", "postgresql"]
Synchronous = Literal["normal", "full"]
Parameters = Mapping[str, Any]
NO_PARAMETERS: Parameters = MappingProxyType({})
Row = Any  # aiosqlite.Row or asyncpg.Record: both read by position and by column name

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


@overload
def to_text(moment: datetime) -> str: ...
@overload
def to_text(moment: None) -> None: ...
@overload
def to_text(moment: datetime | None) -> str | None: ...
def to_text(moment: datetime | None) -> str | None:
    """A time as stored: ISO 8601 in UTC with microseconds (so text order is time order)."""
    return None if moment is None else as_utc(moment).isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    """A stored time back."""
    return datetime.fromisoformat(text)


def dump(value: object) -> str:
    """Compact JSON text (pydantic's fast encoder; models become objects, tuples arrays)."""
    return to_json(value).decode()


class DatabaseUrl(NamedTuple):
    """Where the database is: a SQLite file, or a PostgreSQL server's connection string."""

    dialect: Dialect
    target: str  # the SQLite file's path, or the PostgreSQL URL as given

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file (StorageError for a PostgreSQL URL)."""
        if self.dialect != "sqlite":
            raise StorageError("a PostgreSQL database has no file")
        return Path(self.target)


def parse_database_url(value: Path | str) -> DatabaseUrl:
    """``data/cardroom.db`` or ``sqlite:///data/cardroom.db`` (a SQLite file) or
    ``postgresql://user@host/name`` (PostgreSQL); StorageError for another scheme.

    >>> parse_database_url("sqlite:////var/lib/cardroom.db").sqlite_path
    PosixPath('/var/lib/cardroom.db')
    >>> parse_database_url("postgresql://bot@db/cardroom").dialect
    'postgresql'
    """
    text = str(value).strip()
    if text.startswith(POSTGRESQL_SCHEMES):
        return DatabaseUrl("postgresql", text)
    if text.startswith(SQLITE_SCHEME):
        text = text.removeprefix(SQLITE_SCHEME)
    elif "://" in text:
        raise StorageError(
            f"DATABASE_URL {text.split('://')[0]}://… is not supported: use a SQLite file"
            " (data/cardroom.db, sqlite:///data/cardroom.db) or postgresql://…"
        )
    if not text:
        raise StorageError("DATABASE_URL is empty: give a SQLite file or postgresql://…")
    return DatabaseUrl("sqlite", text)


class Sql(Protocol):
    """Runs statements with named parameters on one connection."""

    async def execute(self, sql: str, parameters: Parameters = ...) -> None:
        """Run one statement, discarding any rows."""

    async def fetchall(self, sql: str, parameters: Parameters = ...) -> Sequence[Row]:
        """Every row of one statement."""

    async def fetchone(self, sql: str, parameters: Parameters = ...) -> Row | None:
        """The first row of one statement, or None."""

    async def run_script(self, script: str) -> None:
        """Run a script of several statements (no parameters) as one transaction."""


class Database(Protocol):
    """One database: a connection (SQLite) or a pool of them (PostgreSQL)."""

    dialect: Dialect

    def session(self) -> AbstractAsyncContextManager[Sql]:
        """A connection for the block's statements, each committed on its own."""

    def transaction(self) -> AbstractAsyncContextManager[Sql]:
        """A connection whose statements in the block commit together, or roll back if it
        raises."""

    def maintenance(self) -> AbstractAsyncContextManager[Sql]:
        """A session for schema work, without the time limits of the others."""

    async def pragma(self, name: str) -> Any:
        """A SQLite pragma's value, for checks (StorageError on PostgreSQL)."""

    async def close(self) -> None:
        """Close every connection (saved work is already committed)."""


async def written_anyway(
    database: Database, error: Exception, what: str, query: str, parameters: Parameters
) -> bool:
    """Whether a write that failed with ``error`` was committed all the same, its reply lost
    (the connection dropped, or the answer came too late, after the COMMIT): ``query`` finds
    a row only if the write is stored. False, and the write counts as failed, when the
    database cannot be read either. ``what`` names the write in the log."""
    try:
        async with database.session() as sql:
            found = await sql.fetchone(query, parameters)
    except Exception as reading:
        log.warning("%s failed (%s); what is stored cannot be read: %s", what, error, reading)
        return False
    if found is not None:
        log.warning("%s lost its reply (%s), but it is stored: it counts as done", what, error)
    return found is not None
