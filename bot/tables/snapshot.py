"""What a session's call may change, taken before the change and put back when its save
fails, so that a failed save leaves nothing of the call: state, revision, replay record, log,
deal count, summaries, deadlines, the out-of-turn window, the round end held, seats and
stale marks."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from datetime import datetime

from bot.storage import ActionRecord
from bot.tables.records import LoggedEvent, RoundEnd, Seat, TableData
from engine.core import State


@dataclass(frozen=True)
class Snapshot:
    """A table's data as it was before a call."""

    state: State  # a deep copy: the engine changes its state in place
    revision: int
    actions: ActionRecord  # immutable: the record as it was
    log: tuple[LoggedEvent, ...]
    summaries: int
    deals: int
    deadlines: dict[int, datetime]
    window_end: datetime | None
    round_end: RoundEnd | None
    seats: tuple[Seat, ...]
    declined: frozenset[tuple[int, int]]
    options_changed: dict[int, int]

    @classmethod
    def of(cls, table: TableData) -> Snapshot:
        """What ``table`` holds now (lists that only grow are kept as their lengths)."""
        return cls(
            state=copy.deepcopy(table.state),
            revision=table.revision,
            actions=table.actions,
            log=tuple(table.log),
            summaries=len(table.summaries),
            deals=table.deals,
            deadlines=dict(table.deadlines),
            window_end=table.window_end,
            round_end=table.round_end,
            seats=tuple(replace(seat) for seat in table.seats),
            declined=frozenset(table.declined),
            options_changed=dict(table.options_changed),
        )

    def restore(self, table: TableData) -> None:
        """Put ``table`` back as it was when this snapshot was taken (once)."""
        table.state = self.state
        table.revision = self.revision
        table.actions = self.actions
        table.log.clear()
        table.log.extend(self.log)
        del table.summaries[self.summaries :]
        table.deals = self.deals
        table.deadlines = dict(self.deadlines)
        table.window_end = self.window_end
        table.round_end = self.round_end
        table.seats[:] = [replace(seat) for seat in self.seats]
        table.declined = set(self.declined)
        table.options_changed = dict(self.options_changed)
        table.ending = None
