"""Cardroom's storage: running games, open lobbies, finished games and seasons, people's
preferences (SQLite via aiosqlite, or PostgreSQL via asyncpg).

``Storage`` composes one store per kind of thing kept (``running``, ``results``,
``preferences``, ``reviews``); the only SQL of the project is in this package.
"""

from bot.storage.anywhere import AnywhereRow, AnywhereTables, TokenRow
from bot.storage.clicks import ClickWakeUps, ForwardedClick, ForwardedClicks
from bot.storage.database import Storage
from bot.storage.errors import RevisionConflictError, StorageError
from bot.storage.lobbies import OpenLobbies
from bot.storage.lock import DatabaseInUseError, DatabaseLock
from bot.storage.models import (
    ActionRecord,
    BrokenGame,
    FinishedGame,
    FinishedSeat,
    HistoryRow,
    LoadedGame,
    PlacedSeat,
    PlayerTotals,
    RecordedGame,
    ReplayedGame,
    SavedEvent,
    SavedGame,
    SavedLobby,
    SavedRoundEnd,
    ScoredGame,
    SeatRecord,
    TableLog,
)
from bot.storage.preferences import Preferences
from bot.storage.results import Results
from bot.storage.reviews import Reviews
from bot.storage.running import READ_IN_TURNS, RunningGames
from bot.storage.shards import Heartbeat, ShardInUseError, Shards

__all__ = [
    "READ_IN_TURNS",
    "ActionRecord",
    "AnywhereRow",
    "AnywhereTables",
    "BrokenGame",
    "ClickWakeUps",
    "DatabaseInUseError",
    "DatabaseLock",
    "FinishedGame",
    "FinishedSeat",
    "ForwardedClick",
    "ForwardedClicks",
    "Heartbeat",
    "HistoryRow",
    "LoadedGame",
    "OpenLobbies",
    "PlacedSeat",
    "PlayerTotals",
    "Preferences",
    "RecordedGame",
    "ReplayedGame",
    "Results",
    "Reviews",
    "RevisionConflictError",
    "RunningGames",
    "SavedEvent",
    "SavedGame",
    "SavedLobby",
    "SavedRoundEnd",
    "ScoredGame",
    "SeatRecord",
    "ShardInUseError",
    "Shards",
    "Storage",
    "StorageError",
    "TableLog",
    "TokenRow",
]
