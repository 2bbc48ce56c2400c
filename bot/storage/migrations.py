"""The schema: numbered SQL scripts in ``data/migrations/``, each applied once, in order.

Each script runs in its own transaction and is recorded in ``schema_migrations`` (and
``PRAGMA user_version``). A database migrated by newer code is refused rather than queried
with an older schema's statements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from bot.storage.connection import Database, to_text
from bot.storage.errors import StorageError

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "data" / "migrations"
MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


class Migration(NamedTuple):
    """One numbered schema script."""

    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The scripts ``NNN_name.sql`` of ``directory`` in version order; versions run 1, 2, 3 …"""
    found = []
    for path in directory.iterdir():
        match = MIGRATION_NAME.match(path.name)
        if match:
            found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    found.sort()
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations in {directory} must be numbered 1, 2, 3 …: {versions}")
    return found


async def migrate(
    database: Database, migrations: Sequence[Migration], up_to: int | None = None
) -> None:
    """Apply the migrations not yet recorded (up to version ``up_to``), each in one transaction.

    Raises StorageError for a database migrated by newer code (a version not in
    ``migrations``) rather than run an old schema's queries on it.
    """
    async with database.lock:
        await database.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        done = {row[0] for row in await database.fetchall("SELECT version FROM schema_migrations")}
        unknown = done - {migration.version for migration in migrations}
        if unknown:
            raise StorageError(
                f"the database has schema version {max(unknown)}, newer than this code knows"
                f" ({len(migrations)}): run a newer Cardroom or use another file"
            )
        connection = database.connection
        for migration in migrations:
            if migration.version in done or (up_to is not None and migration.version > up_to):
                continue
            # executescript runs the whole script; BEGIN/COMMIT make it all or nothing.
            script = (
                f"BEGIN IMMEDIATE;\n{migration.sql}\n;"
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES "
                f"({migration.version}, '{migration.name}', '{to_text(datetime.now(UTC))}');"
                f"\nPRAGMA user_version = {migration.version};\nCOMMIT;"
            )
            try:
                await connection.executescript(script)
            except BaseException:
                if connection.in_transaction:
                    await connection.execute("ROLLBACK")
                raise


async def schema_version(database: Database) -> int:
    """The highest migration applied."""
    async with database.lock:
        row = await database.fetchone("SELECT MAX(version) FROM schema_migrations")
    return int(row[0] or 0) if row else 0
