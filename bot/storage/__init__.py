"""Cardroom's storage: running games, finished games, scoreboards (SQLite via aiosqlite)."""

from bot.storage.database import StaleRevisionError, Storage, StorageError
from bot.storage.models import (
    BrokenGame,
    FinishedGame,
    FinishedSeat,
    HistoryRow,
    SavedGame,
    ScoreRow,
    SeatRecord,
    StatsRow,
)

__all__ = [
    "BrokenGame",
    "FinishedGame",
    "FinishedSeat",
    "HistoryRow",
    "SavedGame",
    "ScoreRow",
    "SeatRecord",
    "StaleRevisionError",
    "StatsRow",
    "Storage",
    "StorageError",
]
