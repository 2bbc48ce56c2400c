"""The plain records of a table session: its data (``TableData``), its seats, its log
entries, what a committed call changed, and what every session shares (storage, settings,
the clock)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from functools import lru_cache
from string import Formatter
from typing import Any

from bot.errors import TABLE_MOVED
from bot.i18n import catalog
from bot.settings import Settings
from bot.storage import ActionRecord, SavedEvent, SavedRoundEnd, SeatRecord, Storage
from bot.tables.thinking import AiPlayers
from engine.choices import Step
from engine.core import Arg, Event, Game, OptionValue, State, View, args_from_json, args_json
from engine.errors import SavedStateError
from engine.words import N_, _, speaking

log = logging.getLogger(__name__)

# An AI seat as people see it in a list, by its level (each level's word inside its sentence)
AI_SEAT = {
    "easy": N_("🤖 {name} (easy)"),
    "normal": N_("🤖 {name} (normal)"),
    "hard": N_("🤖 {name} (hard)"),
}

# what a stored line (a log line, a hand's scores) damaged in storage reads as, in its place
UNREADABLE = N_("⚠ This line could not be read back.")

LOG_LENGTH = 40  # the table log's latest entries kept (and saved)
Clock = Callable[[], datetime]
Spawn = Callable[[Coroutine[Any, Any, None], str], "asyncio.Task[None]"]
"""Runs a coroutine in the background under a name (``TableService.spawn``)."""


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
    # the language the person reads, as they joined (None: not known; the table's then)
    language: str | None = None

    @property
    def shown(self) -> str:
        """The seat as people see it in a list: an AI seat marked and with its level,
        ``🤖 Ada (hard)``."""
        if not self.is_ai:
            return self.name
        return _(AI_SEAT.get(self.level, "🤖 {name} (" + self.level + ")")).format(name=self.name)

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
            language=record.language,
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
            language=self.language,
        )


@dataclass(slots=True)
class LoggedEvent:
    """An event in the table log with the revision it happened at."""

    event: Event
    revision: int

    def record(self) -> SavedEvent:
        """The stored form: the event's message id and arguments, so that it is read later
        in its reader's language."""
        seen = self.event.visible_to
        return SavedEvent(
            revision=self.revision,
            text=self.event.message,
            kind=self.event.kind,
            visible_to=None if seen is None else sorted(seen),
            args=args_json(self.event.args),
        )

    @classmethod
    def from_record(
        cls, saved: SavedEvent, table_id: str, unreadable: UnreadableLines
    ) -> LoggedEvent:
        """The event of a stored log line of ``table_id`` (one saved as English text, without
        arguments, reads as it was written; a damaged one as ``UNREADABLE``, reported to
        ``unreadable``)."""
        seen = None if saved.visible_to is None else frozenset(saved.visible_to)
        event = read_back(unreadable, table_id, "log", saved.text, saved.kind, saved.args, seen)
        return cls(event, saved.revision)


def _event_of(
    message: str,
    kind: str,
    args: list[list[Any]],
    visible_to: frozenset[int] | None = None,
) -> Event:
    """A stored event back from its message id and its arguments (``args_json``);
    SavedStateError, saying what is wrong without its words, if it cannot be read back."""
    try:
        event = Event(message, kind, visible_to, args_from_json(args))
    except SavedStateError:
        raise SavedStateError("its arguments are malformed") from None
    # checked once here, so that a line read back never fails where it is shown
    if not _fills_in(message) or not _args_fill_in(event.args):
        raise SavedStateError("its text cannot be filled in")
    return event


def _args_fill_in(args: tuple[tuple[str, Arg], ...]) -> bool:
    for _name, value in args:  # a loop: a restart reads tens of thousands of lines
        if isinstance(value, str):
            continue
        if not _fills_in(value.message) or not _args_fill_in(value.args):
            return False
        if value.plural is not None and not _fills_in(value.plural):
            return False
    return True


@lru_cache(maxsize=4096)  # a few hundred message ids make nearly every stored line
def _fills_in(text: str) -> bool:
    """Whether a message's text fills in as every message does, in any language (the
    catalogs keep each one's placeholders): named placeholders only, nothing after a name."""
    try:
        fields = list(Formatter().parse(text))
    except ValueError:  # a brace left open or alone
        return False
    return all(
        name is None or (name.isidentifier() and not spec and conversion is None)
        for _, name, spec, conversion in fields
    )


class UnreadableLines:
    """The parts of tables (their log, their hands …) whose stored lines could not be read
    back, each logged once: a page read again does not log it again. Each ``TableService``
    has its own (in its ``SessionContext``), so two bots in one process (tests, shards) log
    each their own."""

    def __init__(self) -> None:
        self._reported: set[tuple[str, str]] = set()

    def report(self, table_id: str, part: str, why: str) -> None:
        """Tell the host, once per table and part, that stored lines of it could not be read
        back (``why`` names no card: a damaged line may hold one nobody saw)."""
        if (table_id, part) in self._reported:
            return
        self._reported.add((table_id, part))
        log.warning(
            "table %s: a stored line of its %s could not be read back (%s); shown as unreadable",
            table_id,
            part,
            why,
        )


def read_back(
    unreadable: UnreadableLines,
    table_id: str,
    part: str,
    message: str,
    kind: str,
    args: list[list[Any]],
    visible_to: frozenset[int] | None = None,
) -> Event:
    """A stored event of ``table_id``'s ``part`` (its log, its hands …) back; one damaged in
    storage reads as ``UNREADABLE`` where it stood, reported to ``unreadable``."""
    try:
        return _event_of(message, kind, args, visible_to)
    except SavedStateError as error:
        unreadable.report(table_id, part, str(error))
        return Event(UNREADABLE, kind, visible_to)


def summary_of(saved: SavedEvent | str, table_id: str, unreadable: UnreadableLines) -> Event:
    """A stored hand's scores of ``table_id`` back; one saved as English text (names filled
    in) reads as it was written, a damaged one as ``UNREADABLE`` (reported to
    ``unreadable``)."""
    if isinstance(saved, str):
        return Event(saved.replace("{", "{{").replace("}", "}}"), "hand_end")
    return read_back(unreadable, table_id, "hands", saved.text, saved.kind, saved.args)


def saved_summary(event: Event) -> SavedEvent:
    """A hand's scores (a ``hand_end`` event) as the table log stores them."""
    return SavedEvent(revision=0, text=event.message, kind=event.kind, args=args_json(event.args))


@dataclass(frozen=True)
class RoundEnd:
    """A hand or round that ended while the game goes on: its scores (the engine's
    ``hand_end`` event), the public view of the cards turned up at its end (``reveal``; None
    when the game turns none up), the revision it ended at, and until when the table shows
    it before the next deal (the break; a Next round click or a move ends it sooner)."""

    scores: Event
    reveal: View | None
    revision: int
    until: datetime

    def record(self) -> SavedRoundEnd:
        """The stored form."""
        return SavedRoundEnd(
            scores=self.scores.message,
            args=args_json(self.scores.args),
            reveal=self.reveal,
            revision=self.revision,
            until=self.until,
        )

    @classmethod
    def from_record(
        cls, saved: SavedRoundEnd, table_id: str, unreadable: UnreadableLines
    ) -> RoundEnd:
        """A stored round end of ``table_id`` back (one saved as English text reads as it
        was written, damaged scores as ``UNREADABLE``, reported to ``unreadable``)."""
        scores = read_back(unreadable, table_id, "round end", saved.scores, "hand_end", saved.args)
        return cls(scores, saved.reveal, saved.revision, saved.until)


@dataclass(frozen=True)
class Change:
    """What one committed call changed, for the Discord side to show."""

    events: tuple[Event, ...] = ()
    views: frozenset[int] = frozenset()  # seats whose private view changed
    # to say in the table's channel (in its language; seats and arguments filled when said)
    notices: tuple[Event, ...] = ()
    ended: bool = False  # the game ended (over, stopped, or no players left)
    rounds: tuple[RoundEnd, ...] = ()  # round ends the table moved on from: kept in the channel


class EndKind(Enum):
    """Why a table ended."""

    FINISHED = "finished"  # the game is over: its result is stored
    STOPPED = "stopped"  # the host (or someone with Manage Server) stopped it
    NO_PLAYERS = "no players"  # every person left, or their seats went to the AI
    CHANNEL_LOST = "channel lost"  # its channel or server is gone, or closed too long
    MOVED = "moved"  # another process saved the game first: not saved here any more
    SHARD_LOST = "shard lost"  # this process lost its hold on the game's server


@dataclass(frozen=True)
class Ending:
    """How a table ended: why (``kind``), and what its channel and hand DMs are told (the
    message id ``message`` filled from ``args``, in their reader's language: ``render``; a
    finished game shows its results instead)."""

    kind: EndKind
    message: str = ""
    args: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """Why, in English (for the operators' log and the stored record)."""
        return self.message.format(**dict(self.args))

    def render(self) -> str:
        """Why, in the active language."""
        return _(self.message).format(**dict(self.args)) if self.message else ""

    @property
    def finished(self) -> bool:
        """The game was played to its end (it has a result)."""
        return self.kind is EndKind.FINISHED

    @property
    def stored_here(self) -> bool:
        """Whether this process stores the end (the result, or the game as unfinished): not
        when the game may be another process's now."""
        return self.kind not in (EndKind.MOVED, EndKind.SHARD_LOST)


FINISHED = Ending(EndKind.FINISHED)
NO_PLAYERS_LEFT = Ending(
    EndKind.NO_PLAYERS, N_("No players are left at the table, so the game ends.")
)
MOVED_ELSEWHERE = Ending(EndKind.MOVED, TABLE_MOVED)


@dataclass(frozen=True)
class Chosen:
    """What a step chosen in a hand led to: the seat that chose it, and the next step to offer
    there or the committed move it completed (the hand is drawn from this, nothing resolved
    again)."""

    seat: int
    outcome: Step | Change


@dataclass(frozen=True)
class SessionContext:
    """What every session uses: storage, settings, the clock and the AI players; and which
    stored lines of the tables could not be read back (``unreadable``)."""

    storage: Storage
    settings: Settings
    clock: Clock
    ai: AiPlayers
    # told the id and the end of a table that ended outside any call (its game was saved
    # elsewhere first while it saved the ids of what was posted)
    on_ended: Callable[[str, Change], None] = lambda _table_id, _change: None
    unreadable: UnreadableLines = field(default_factory=UnreadableLines)


@dataclass(eq=False)
class TableData:
    """A running game's data, plain: what it is, where, its state, seats, deadlines, log and
    how it ended. The ``TableSession`` built on it is the only writer; the stored forms
    (``bot.tables.results``) and the undo snapshot (``bot.tables.snapshot``) read it."""

    table_id: str
    guild_id: int
    channel_id: int  # where the table plays: its thread, when it has one
    host_id: int
    game: Game
    options: dict[str, OptionValue]
    seed: int
    seats: list[Seat]
    state: State
    started_at: datetime
    revision: int = 0
    actions: ActionRecord = field(default_factory=ActionRecord)
    table_message_id: int | None = None
    table_posted_at: datetime | None = None
    deadlines: dict[int, datetime] = field(default_factory=dict)
    window_end: datetime | None = None
    deals: int = 0  # "deal" events so far: the number of the current hand or round
    log: deque[LoggedEvent] = field(default_factory=lambda: deque(maxlen=LOG_LENGTH))
    summaries: list[Event] = field(default_factory=list)  # each hand's scores (hand_end)
    ending: Ending | None = None  # how it ended (None: running)
    # since when the bot may not post in the table's channel (None: it may): no move, timeout
    # or AI move is made until it may again (or the pause runs out and the game ends)
    paused_since: datetime | None = None
    declined: set[tuple[int, int]] = field(default_factory=set)  # (revision, seat) AI passes
    # seat -> the revision at which its legal actions last changed: a click drawn before that
    # is stale; one drawn after it is not, whatever other seats did since (DESIGN: "Bot")
    options_changed: dict[int, int] = field(default_factory=dict)
    # The revision of the stored row as this session last saved or loaded it (None: not saved
    # yet). Every save expects it: a game another writer saved since is never overwritten.
    stored_revision: int | None = None
    turn_seconds: int | None = None  # each turn's time (None: the server's TURN_SECONDS)
    # the round end the table shows before the next deal (None: it shows the game): nobody's
    # clock runs and no AI moves until it is over
    round_end: RoundEnd | None = None
    # the channel whose thread ``channel_id`` is: its lobby was there, its result goes there
    # (None: the table plays in its lobby's channel)
    parent_channel_id: int | None = None
    # the language the table speaks in public (its server's, or its opener's where there is
    # none), fixed when it opens
    language: str = "en"

    def in_its_language(self) -> AbstractContextManager[None]:
        """Speak the table's language inside the block: for what everyone at it reads (the
        table, its results, what is said in its channel), whoever's click or task shows it."""
        return speaking(catalog(self.language))

    def in_seats_language(self, seat: int) -> AbstractContextManager[None]:
        """Speak the language of the seat's person inside the block (as they joined;
        the table's when not known): for what they alone read outside any click of theirs
        (their hand DM, a DM about the table)."""
        return speaking(catalog(self.seats[seat].language or self.language))

    @property
    def ended(self) -> bool:
        """Whether the game ended (for whatever reason: ``ending``)."""
        return self.ending is not None
