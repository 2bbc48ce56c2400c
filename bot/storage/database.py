"""The Storage object: one database, with a store per kind of thing it keeps.

``storage.running`` keeps running games (and those that ended without a result),
``storage.lobbies`` open lobbies, ``storage.results`` finished games and seasons; the
schema is migrated when the database is opened. SQL lives only in ``bot/storage``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.connection import Database, Synchronous
from bot.storage.lobbies import OpenLobbies, SqliteOpenLobbies
from bot.storage.migrations import MIGRATIONS_DIR, load_migrations, migrate, schema_version
from bot.storage.results import Results, SqliteResults
from bot.storage.running import RunningGames, SqliteRunningGames


class Storage:
    """Cardroom's database. Open with ``await Storage.open(path)``; close with ``close()``."""

    def __init__(self, database: Database) -> None:
        self._database = database
        # Held until close(); the system lets go of it when the process dies (tests that stand
        # for a killed bot release it themselves).
        self.file_lock = database.file_lock
        running = SqliteRunningGames(database)
        self.running: RunningGames = running
        self.results: Results = SqliteResults(database, running)
        self.lobbies: OpenLobbies = SqliteOpenLobbies(database)

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        migrations: Path = MIGRATIONS_DIR,
        up_to: int | None = None,
        synchronous: Synchronous = "normal",
    ) -> Storage:
        """Open (creating the directory and file) and migrate to the latest, or ``up_to``.

        Raises DatabaseInUseError when another process has the database open.
        """
        database = await Database.open(path, synchronous)
        try:
            await migrate(database, load_migrations(migrations), up_to)
        except BaseException:
            await database.close()
            raise
        return cls(database)

    async def close(self) -> None:
        """Close the database (saved work is already committed)."""
        await self._database.close()

    async def schema_version(self) -> int:
        """The highest migration applied."""
        return await schema_version(self._database)

    async def pragma(self, name: str) -> Any:
        """A pragma's value (``journal_mode``, ``foreign_keys`` …), for checks."""
        return await self._database.pragma(name)
