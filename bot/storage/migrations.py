"""The schema: numbered SQL scripts in ``data/migrations/``, each applied once, in order.

``data/migrations/NNN_name.sql`` is written once for every dialect (portable SQL: TEXT,
INTEGER, BIGINT for Discord ids, no AUTOINCREMENT); ``data/migrations/<dialect>/NNN_name.sql``
(``sqlite/`` or ``postgresql/``) replaces it for that dialect where the dialects differ. A
dialect's versions must run 1, 2, 3 … with nothing missing. Each script runs in its own
transaction and is recorded in ``schema_migrations`` (and SQLite's ``PRAGMA user_version``).
A database migrated by newer code is refused rather than queried with an older schema's
statements. On PostgreSQL, an advisory lock keeps two processes starting at once from
migrating together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from bot.storage.connection import Database, Dialect, to_text
from bot.storage.errors import StorageError

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "data" / "migrations"
MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
MIGRATION_LOCK = 0x43415244  # "CARD": the advisory lock key held while migrating


class Migration(NamedTuple):
    """One numbered schema script."""

    version: int
    name: str
    sql: str


def load_migrations(
    directory: Path = MIGRATIONS_DIR, dialect: Dialect = "sqlite"
) -> list[Migration]:
    """The scripts of ``directory`` for ``dialect`` in version order: ``NNN_name.sql``, each
    replaced by ``<dialect>/NNN_name.sql`` where there is one; versions run 1, 2, 3 …"""
    found: dict[int, Migration] = {}
    for folder in (directory, directory / dialect):
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            match = MIGRATION_NAME.match(path.name)
            if match:
                version = int(match[1])
                found[version] = Migration(version, match[2], path.read_text(encoding="utf-8"))
    versions = sorted(found)
    if versions != list(range(1, len(found) + 1)):
        raise StorageError(
            f"{dialect} migrations in {directory} must be numbered 1, 2, 3 …: {versions}"
        )
    return [found[version] for version in versions]


async def migrate(
    database: Database, migrations: Sequence[Migration], up_to: int | None = None
) -> None:
    """Apply the migrations not yet recorded (up to version ``up_to``), each in one transaction.

    Raises StorageError for a database migrated by newer code (a version not in
    ``migrations``) rather than run an old schema's queries on it.
    """
    async with database.maintenance() as sql:
        if database.dialect == "postgresql":
            # released with the session's connection at the latest (the pool resets it)
            await sql.execute("SELECT pg_advisory_lock(:key)", {"key": MIGRATION_LOCK})
        try:
            await sql.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            done = {row[0] for row in await sql.fetchall("SELECT version FROM schema_migrations")}
            unknown = done - {migration.version for migration in migrations}
            if unknown:
                raise StorageError(
                    f"the database has schema version {max(unknown)}, newer than this code"
                    f" knows ({len(migrations)}): run a newer Cardroom or use another database"
                )
            for migration in migrations:
                if migration.version in done or (up_to is not None and migration.version > up_to):
                    continue
                script = (
                    f"{migration.sql}\n;INSERT INTO schema_migrations (version, name, applied_at)"
                    f" VALUES ({migration.version}, '{migration.name}',"
                    f" '{to_text(datetime.now(UTC))}');"
                )
                if database.dialect == "sqlite":
                    script += f"\nPRAGMA user_version = {migration.version};"
                await sql.run_script(script)
        finally:
            if database.dialect == "postgresql":
                await sql.execute("SELECT pg_advisory_unlock(:key)", {"key": MIGRATION_LOCK})


async def schema_version(database: Database) -> int:
    """The highest migration applied."""
    async with database.session() as sql:
        row = await sql.fetchone("SELECT MAX(version) FROM schema_migrations")
    return int(row[0] or 0) if row else 0


async def pending(database: Database, migrations: Sequence[Migration]) -> list[Migration]:
    """The migrations ``migrate`` would apply, found without changing anything. Raises
    StorageError for a database migrated by newer code, or whose applied migrations are
    not the ones of the same number here (another branch's)."""
    exists = (
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        if database.dialect == "sqlite"
        else "SELECT to_regclass('schema_migrations')"
    )
    async with database.session() as sql:
        found = await sql.fetchone(exists)
        applied: dict[int, str] = {}
        if found is not None and found[0] is not None:
            rows = await sql.fetchall("SELECT version, name FROM schema_migrations")
            applied = {int(row[0]): str(row[1]) for row in rows}
    known = {migration.version: migration.name for migration in migrations}
    if set(applied) - set(known):
        raise StorageError(
            f"the database has schema version {max(applied)}, newer than this code knows"
            f" ({len(migrations)}): run a newer Cardroom or use another database"
        )
    for version, name in sorted(applied.items()):
        if known[version] != name:
            raise StorageError(
                f"the database's migration {version} is {name!r}, this code's is"
                f" {known[version]!r}: it was migrated by other code"
            )
    return [migration for migration in migrations if migration.version not in applied]
