"""The Storage object: one database, with a store per kind of thing it keeps.

``storage.running`` keeps running games (and those that ended without a result),
``storage.lobbies`` open lobbies, ``storage.results`` finished games and seasons,
``storage.preferences`` each person's own choices, ``storage.clicks`` hand DM clicks handed
to the process that runs their game, ``storage.anywhere`` the interaction tokens of tables
where the bot is not a member; the schema is migrated when the database
is opened. The database is a SQLite file (the default: one process per file) or a PostgreSQL
database (several processes, one per range of shards), chosen by its URL; the stores' callers
never know which. SQL lives only in ``bot/storage``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.storage.anywhere import AnywhereTables
from bot.storage.clicks import ForwardedClicks
from bot.storage.connection import Database, DatabaseUrl, Synchronous, parse_database_url
from bot.storage.errors import StorageError
from bot.storage.lobbies import OpenLobbies, SqlOpenLobbies
from bot.storage.lock import DatabaseLock
from bot.storage.migrations import (
    MIGRATIONS_DIR,
    Migration,
    load_migrations,
    migrate,
    pending,
    schema_version,
)
from bot.storage.postgresql import DEFAULT_LIMITS, POOL_SIZE, PostgresDatabase, SessionLimits
from bot.storage.preferences import Preferences, SqlPreferences
from bot.storage.results import Results, SqlResults
from bot.storage.reviews import Reviews, SqlReviews
from bot.storage.running import RunningGames, SqlRunningGames
from bot.storage.shards import Heartbeat, ShardLocks, Shards
from bot.storage.sqlite import SqliteDatabase


class Storage:
    """Cardroom's database. Open with ``await Storage.open(url)``; close with ``close()``."""

    def __init__(self, database: Database, url: DatabaseUrl) -> None:
        self._database = database
        self.url = url
        # SQLite's: held until close(); the system lets go of it when the process dies (tests
        # that stand for a killed bot release it themselves). PostgreSQL has none.
        self.file_lock: DatabaseLock | None = (
            database.file_lock if isinstance(database, SqliteDatabase) else None
        )
        # PostgreSQL's hold on this process's shards, from claim_shards() until close() (tests
        # that stand for a killed bot release it themselves, as the server does for a dead one)
        self.shard_locks: ShardLocks | None = None
        running = SqlRunningGames(database)
        self.running: RunningGames = running
        self.results: Results = SqlResults(database, running)
        self.lobbies: OpenLobbies = SqlOpenLobbies(database)
        self.preferences: Preferences = SqlPreferences(database)
        self.reviews: Reviews = SqlReviews(database)
        self.clicks = ForwardedClicks(database)
        self.anywhere = AnywhereTables(database)

    @classmethod
    async def open(
        cls,
        url: Path | str,
        *,
        migrations: Path = MIGRATIONS_DIR,
        up_to: int | None = None,
        synchronous: Synchronous = "normal",
        pool_size: int = POOL_SIZE,
        limits: SessionLimits = DEFAULT_LIMITS,
    ) -> Storage:
        """Open the database at ``url`` (a SQLite file, created with its directory, or
        ``postgresql://…``, with a pool of up to ``pool_size`` connections whose sessions
        have the time ``limits``) and migrate it to the latest version, or ``up_to``.

        Raises DatabaseInUseError when another process has the SQLite file open, StorageError
        when the PostgreSQL server cannot be reached.
        """
        where = parse_database_url(url)
        database = await _connect(where, synchronous, pool_size, limits)
        try:
            await migrate(database, load_migrations(migrations, where.dialect), up_to)
        except BaseException:
            await database.close()
            raise
        return cls(database, where)

    @staticmethod
    async def pending_migrations(
        url: Path | str, *, migrations: Path = MIGRATIONS_DIR
    ) -> list[Migration]:
        """The migrations opening the database at ``url`` would apply, applying none (a
        SQLite file must exist and not be open in a bot). StorageError when the database
        cannot be reached, or was migrated by other code."""
        where = parse_database_url(url)
        if where.dialect == "sqlite" and not where.sqlite_path.is_file():
            raise StorageError(f"there is no database at {where.sqlite_path}")
        database = await _connect(where, "normal", 1, DEFAULT_LIMITS)
        try:
            return await pending(database, load_migrations(migrations, where.dialect))
        finally:
            await database.close()

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._database.dialect

    async def claim_shards(
        self,
        shards: Shards,
        on_lost: Callable[[Shards], None],
        heartbeat: Heartbeat,
    ) -> None:
        """Hold ``shards`` for this process until ``close()``.

        On PostgreSQL: an advisory lock per shard on a connection of its own; ShardInUseError
        if another process holds one of them; ``on_lost`` is called if that connection drops
        or stops answering its ``heartbeat`` (the shards are then no longer this process's).
        On SQLite the file lock taken at open already keeps every other process out: nothing
        to do.
        """
        if isinstance(self._database, PostgresDatabase):
            self.shard_locks = await ShardLocks.claim(
                self._database.connect, shards, on_lost, heartbeat
            )

    @property
    def holds_its_shards(self) -> bool:
        """Whether this process still holds its shards: its shard locks (PostgreSQL, once
        claimed) or the database file's lock (SQLite, which keeps every other process out)."""
        if self.file_lock is not None:
            return self.file_lock.held
        return self.shard_locks is not None and self.shard_locks.held

    async def close(self) -> None:
        """Close the database (saved work is already committed); let go of its shards."""
        if self.shard_locks is not None:
            await self.shard_locks.release()
        await self._database.close()

    async def schema_version(self) -> int:
        """The highest migration applied."""
        return await schema_version(self._database)

    async def pragma(self, name: str) -> Any:
        """A SQLite pragma's value (``journal_mode``, ``foreign_keys`` …), for checks."""
        return await self._database.pragma(name)


async def _connect(
    where: DatabaseUrl, synchronous: Synchronous, pool_size: int, limits: SessionLimits
) -> Database:
    """The database at ``where``, opened but not migrated."""
    if where.dialect == "postgresql":
        return await PostgresDatabase.open(where.target, pool_size, limits)
    return await SqliteDatabase.open(where.sqlite_path, synchronous)
