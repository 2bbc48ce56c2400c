"""What the storage layer raises, whatever the database behind it."""

from __future__ import annotations


class StorageError(Exception):
    """Something the storage layer refuses or cannot do."""


class RevisionConflictError(StorageError):
    """A save found the stored game not at the revision it expected: another writer (another
    process, or a late or repeated save) saved, finished or removed it first."""
