"""One process per database: an exclusive lock on a file next to the database file.

Two bots on one database would both drive the same games and overwrite each other's saves.
The lock is ``filelock``'s (``flock`` on Unix): it belongs to the open file and goes away with
the process, so a killed bot never leaves a stale lock behind. The soft (marker file) fallback
is off: a marker left by a killed process would keep the bot from starting.
"""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock, Timeout

from bot.storage.errors import StorageError


class DatabaseInUseError(StorageError):
    """Another process holds the database."""


def lock_path(database: Path) -> Path:
    """The lock file of a database file: ``cardroom.db`` → ``cardroom.db.lock``."""
    return database.with_name(database.name + ".lock")


class DatabaseLock:
    """The held lock of one database file; ``release()`` lets another process have it."""

    def __init__(self, lock: FileLock) -> None:
        self._lock = lock

    @classmethod
    def acquire(cls, database: Path) -> DatabaseLock:
        """Take the lock of ``database`` (its folder must exist) or raise DatabaseInUseError."""
        lock = FileLock(lock_path(database), timeout=0, mode=0o600, fallback_to_soft=False)
        try:
            lock.acquire()
        except Timeout:
            raise DatabaseInUseError(
                f"{database} is in use by another Cardroom process: stop it first, or set"
                " DATABASE_URL to another file"
            ) from None
        return cls(lock)

    @property
    def held(self) -> bool:
        """Whether this process still holds the lock."""
        return self._lock.is_locked

    def release(self) -> None:
        """Let go of the lock (again: nothing)."""
        self._lock.release(force=True)
