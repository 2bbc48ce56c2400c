"""What a session's call may change, taken before the change and put back when its save
fails, so that a failed save leaves nothing of the call: state, revision, replay record, log,
deal count, summaries, deadlines, the out-of-turn window, seats and stale marks."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from bot.storage import ActionRecord
from bot.tables.records import LoggedEvent, Seat
from engine.core import State

if TYPE_CHECKING:
    from bot.tables.session import TableSession


@dataclass(frozen=True)
class Snapshot:
    """A session as it was before a call."""

    state: State  # a deep copy: the engine changes its state in place
    revision: int
    actions: ActionRecord  # immutable: the record as it was
    log: tuple[LoggedEvent, ...]
    summaries: int
    deals: int
    deadlines: dict[int, datetime]
    window_end: datetime | None
    seats: tuple[Seat, ...]
    declined: frozenset[tuple[int, int]]
    options_changed: dict[int, int]

    @classmethod
    def of(cls, session: TableSession) -> Snapshot:
        """What ``session`` holds now (lists that only grow are kept as their lengths)."""
        return cls(
            state=copy.deepcopy(session.state),
            revision=session.revision,
            actions=session.actions,
            log=tuple(session.log),
            summaries=len(session.summaries),
            deals=session.deals,
            deadlines=dict(session.deadlines),
            window_end=session.window_end,
            seats=tuple(replace(seat) for seat in session.seats),
            declined=frozenset(session.declined),
            options_changed=dict(session.options_changed),
        )

    def restore(self, session: TableSession) -> None:
        """Put ``session`` back as it was when this snapshot was taken (once)."""
        session.state = self.state
        session.revision = self.revision
        session.actions = self.actions
        session.log.clear()
        session.log.extend(self.log)
        del session.summaries[self.summaries :]
        session.deals = self.deals
        session.deadlines = dict(self.deadlines)
        session.window_end = self.window_end
        session.seats[:] = [replace(seat) for seat in self.seats]
        session.declined = set(self.declined)
        session.options_changed = dict(self.options_changed)
        session.ended, session.end_reason = False, ""
