"""What the storage layer raises, whatever the database behind it."""

from __future__ import annotations


class StorageError(Exception):
    """Something the storage layer refuses or cannot do."""


class StaleRevisionError(StorageError):
    """A save of a game older than the one already stored (a late or repeated save)."""
