"""``./run backup`` and ``./run restore``: a consistent copy of the live database, and
putting one back.

SQLite: the backup API copies the database page by page as one consistent snapshot while the
bot goes on writing (a file copy of a WAL database may miss the commits still in its -wal
file, or catch one half written). PostgreSQL: ``pg_dump``'s custom format, put back with
``pg_restore --clean``. A backup holds every running game's hidden cards: it is written
readable by its owner only. Restore refuses a SQLite database a bot has open.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.settings import SettingsError, load_settings
from bot.storage import DatabaseLock, StorageError
from bot.storage.connection import DatabaseUrl, parse_database_url

BACKUPS = Path("backups")
OWNER_ONLY = 0o600


def default_backup(where: DatabaseUrl, now: datetime) -> Path:
    """backups/cardroom-20260101T000000Z.db (SQLite) or .dump (PostgreSQL)."""
    suffix = ".db" if where.dialect == "sqlite" else ".dump"
    return BACKUPS / f"cardroom-{now.strftime('%Y%m%dT%H%M%SZ')}{suffix}"


def backup(where: DatabaseUrl, target: Path) -> Path:
    """Copy the database at ``where`` to ``target`` (a new file); returns it."""
    if target.exists():
        raise StorageError(f"{target} already exists: give another file")
    target.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))
    try:
        if where.dialect == "sqlite":
            if not where.sqlite_path.exists():
                raise StorageError(f"there is no database at {where.sqlite_path}")
            _copy(f"file:{where.sqlite_path}?mode=ro", str(target))
        else:
            _run(_tool("pg_dump"), "--format=custom", f"--file={target}", where.target)
    except BaseException:
        target.unlink()
        raise
    return target


def restore(source: Path, where: DatabaseUrl) -> None:
    """Put the backup ``source`` back as the database at ``where`` (its games resume at the
    bot's next start). A SQLite database must not be open in a bot."""
    if not source.is_file():
        raise StorageError(f"there is no backup at {source}")
    if where.dialect == "postgresql":
        _run(_tool("pg_restore"), "--clean", "--if-exists", "--no-owner",
             f"--dbname={where.target}", str(source))  # fmt: skip
        return
    path = where.sqlite_path
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = DatabaseLock.acquire(path)  # DatabaseInUseError while a bot has it
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, OWNER_ONLY))
        _copy(f"file:{source}?mode=ro", str(path))
    finally:
        lock.release()


def _copy(source: str, target: str) -> None:
    """SQLite's online backup from the ``source`` URI into the file ``target``."""
    reading = sqlite3.connect(source, uri=True)
    try:
        writing = sqlite3.connect(target)
        try:
            reading.backup(writing)
        finally:
            writing.close()
    finally:
        reading.close()


def _tool(name: str) -> str:
    """A PostgreSQL client program: on PATH, or PG_BIN's."""
    folder = os.environ.get("PG_BIN")
    found = str(Path(folder) / name) if folder else shutil.which(name)
    if found is None:
        raise StorageError(f"{name} is not installed: sudo apt-get install postgresql-client")
    return found


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise StorageError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def main(arguments: list[str]) -> int:
    """``backup [FILE]`` or ``restore FILE``, on the database of DATABASE_URL."""
    if not arguments or arguments[0] not in ("backup", "restore") or len(arguments) > 2:
        print("usage: ./run backup [FILE] | ./run restore FILE", file=sys.stderr)
        return 2
    try:
        where = parse_database_url(load_settings().database_url)
        if arguments[0] == "backup":
            given = Path(arguments[1]) if len(arguments) == 2 else None
            made = backup(where, given or default_backup(where, datetime.now(UTC)))
            print(f"backed up to {made}")
        elif len(arguments) == 2:
            restore(Path(arguments[1]), where)
            print(f"restored {arguments[1]}; start the bot to resume its games")
        else:
            print("usage: ./run restore FILE", file=sys.stderr)
            return 2
    except (SettingsError, StorageError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
