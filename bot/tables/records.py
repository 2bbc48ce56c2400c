"""The plain records of a table session: its seats, its log entries, what a committed call
changed, and what every session shares (storage, settings, the clock)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.settings import Settings
from bot.storage import SavedEvent, SeatRecord, Storage
from bot.tables.thinking import AiPlayers
from engine.core import Event

Clock = Callable[[], datetime]


@dataclass
class Seat:
    """One seat: a person (by user id) or an AI."""

    user_id: int | None
    name: str
    is_ai: bool = False
    dm_message_id: int | None = None
    dm_failed: bool = False
    dm_deal: int = -1  # the deal the hand DM shows (a new deal gets a new DM)
    timeouts_in_a_row: int = 0
    level: str = "normal"  # how the AI plays the seat (a seat handed over plays normal)

    @property
    def shown(self) -> str:
        """The seat as people see it in a list: an AI seat marked and with its level,
        ``🤖 Ada (hard)``."""
        return f"🤖 {self.name} ({self.level})" if self.is_ai else self.name

    @property
    def is_human(self) -> bool:
        """A person plays this seat (not the AI, not handed to the AI)."""
        return not self.is_ai and self.user_id is not None

    @classmethod
    def from_record(cls, record: SeatRecord) -> Seat:
        """A stored seat back (the inverse of ``record``)."""
        return cls(
            record.user_id,
            record.name,
            record.is_ai,
            record.dm_message_id,
            record.dm_failed,
            timeouts_in_a_row=record.timeouts_in_a_row,
            level=record.level,
        )

    def record(self) -> SeatRecord:
        """The stored form."""
        return SeatRecord(
            user_id=self.user_id,
            name=self.name,
            is_ai=self.is_ai,
            dm_message_id=self.dm_message_id,
            dm_failed=self.dm_failed,
            timeouts_in_a_row=self.timeouts_in_a_row,
            level=self.level,
        )


@dataclass(slots=True)
class LoggedEvent:
    """An event in the table log with the revision it happened at."""

    event: Event
    revision: int

    def record(self) -> SavedEvent:
        """The stored form."""
        seen = self.event.visible_to
        return SavedEvent(
            revision=self.revision,
            text=self.event.text,
            kind=self.event.kind,
            visible_to=None if seen is None else sorted(seen),
        )

    @classmethod
    def from_record(cls, saved: SavedEvent) -> LoggedEvent:
        """The event of a stored log line."""
        seen = None if saved.visible_to is None else frozenset(saved.visible_to)
        return cls(Event(saved.text, saved.kind, seen), saved.revision)


@dataclass(frozen=True)
class Change:
    """What one committed call changed, for the Discord side to show."""

    events: tuple[Event, ...] = ()
    views: frozenset[int] = frozenset()  # seats whose private view changed
    notices: tuple[str, ...] = ()  # to say in the table's channel
    ended: bool = False  # the game ended (over, stopped, or no players left)


@dataclass(frozen=True)
class SessionContext:
    """What every session uses: storage, settings, the clock and the AI players."""

    storage: Storage
    settings: Settings
    clock: Clock
    ai: AiPlayers
    # told the id of a table that stopped because its game was saved elsewhere first
    on_moved: Callable[[str], None] = lambda _table_id: None
