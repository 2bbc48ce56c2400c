"""What a session's call may change: state, revision, replay record, log, deal count,
summaries, deadlines, the out-of-turn window, the round end held, seats, stale marks and the
ending. A call takes one before it changes anything and one of the position it made; while
the save is pending the session shows the first again, and the second only once the save
committed, so that nothing reads a position that a failed save would undo."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from datetime import datetime

from bot.storage import ActionRecord
from bot.tables.records import Ending, LoggedEvent, RoundEnd, Seat, TableData
from engine.core import Event, State


@dataclass(frozen=True)
class Snapshot:
    """A table's data at one moment of a call: before it, or the position it made."""

    state: State  # a deep copy, or the state itself when nothing changes it meanwhile
    revision: int
    actions: ActionRecord  # immutable: the record as it was
    log: tuple[LoggedEvent, ...]
    summaries: tuple[Event, ...]
    deals: int
    deadlines: dict[int, datetime]
    window_end: datetime | None
    round_end: RoundEnd | None
    seats: tuple[Seat, ...]
    declined: frozenset[tuple[int, int]]
    options_changed: dict[int, int]
    ending: Ending | None

    @classmethod
    def of(cls, table: TableData, *, copy_state: bool = True) -> Snapshot:
        """What ``table`` holds now; its state shared (not copied) when ``copy_state`` is
        false: the engine changes a state in place, so only for one that is set aside."""
        return cls(
            state=copy.deepcopy(table.state) if copy_state else table.state,
            revision=table.revision,
            actions=table.actions,
            log=tuple(table.log),
            summaries=tuple(table.summaries),
            deals=table.deals,
            deadlines=dict(table.deadlines),
            window_end=table.window_end,
            round_end=table.round_end,
            seats=tuple(replace(seat) for seat in table.seats),
            declined=frozenset(table.declined),
            options_changed=dict(table.options_changed),
            ending=table.ending,
        )

    def restore(self, table: TableData) -> None:
        """Make ``table`` hold what it held when this snapshot was taken (once: the state
        goes back itself, not a copy)."""
        table.state = self.state
        table.revision = self.revision
        table.actions = self.actions
        table.log.clear()
        table.log.extend(self.log)
        table.summaries[:] = self.summaries
        table.deals = self.deals
        table.deadlines = dict(self.deadlines)
        table.window_end = self.window_end
        table.round_end = self.round_end
        table.seats[:] = [replace(seat) for seat in self.seats]
        table.declined = set(self.declined)
        table.options_changed = dict(self.options_changed)
        table.ending = self.ending
