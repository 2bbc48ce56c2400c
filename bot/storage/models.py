"""What the storage layer takes and gives: pydantic models of saved games, results and rows.

Times are UTC: a naive datetime is read as UTC, an aware one is converted to UTC.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, NamedTuple, overload

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    model_validator,
)
from pydantic_core import to_json

from engine.core import State


def as_utc(moment: datetime) -> datetime:
    """The same moment in UTC (naive datetimes are taken to be UTC already)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


UtcDatetime = Annotated[datetime, AfterValidator(as_utc)]
OptionValues = dict[str, int | bool | None]


class ActionRecord:
    """Every action of a game since its start, (seat, action text) each, kept as the compact
    JSON text it is stored in: one string per game rather than a tuple and two objects per
    move, so a long game's record costs a few KB and a start reads 10,000 of them without
    parsing any. Immutable: ``plus`` makes the record with one more action.

    >>> record = ActionRecord.of([(0, "play 6D")]).plus(1, "play 7C take 7H")
    >>> record.json, len(record), record[-1], record[1:]
    ('[[0,"play 6D"],[1,"play 7C take 7H"]]', 2, (1, 'play 7C take 7H'), [(1, 'play 7C take 7H')])
    """

    __slots__ = ("_last_start", "json", "length")

    def __init__(self, json_text: str = "[]", length: int = 0, last_start: int = -1) -> None:
        self.json = json_text  # a JSON array of [seat, text] arrays
        self.length = length
        self._last_start = last_start  # where the last action's JSON begins (-1: not known)

    @classmethod
    def of(cls, actions: Iterable[tuple[int, str]]) -> ActionRecord:
        """The record of these actions."""
        pairs = list(actions)
        text = to_json(pairs).decode()
        last = len(text) - 1 - len(to_json(pairs[-1]).decode()) if pairs else -1
        return cls(text, len(pairs), last)

    def plus(self, seat: int, text: str) -> ActionRecord:
        """This record with one more action."""
        start = len(self.json) if self.length else 1  # after the comma, or after "["
        head = f"{self.json[:-1]}," if self.length else "["
        return ActionRecord(f"{head}{to_json((seat, text)).decode()}]", self.length + 1, start)

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return iter(self._decoded())

    @overload
    def __getitem__(self, index: int) -> tuple[int, str]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, str]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, str] | list[tuple[int, str]]:
        """An action or a slice; the last action (what a save sends) without decoding the
        rest."""
        if isinstance(index, slice):
            start, stop, step = index.indices(self.length)
            if start >= stop:
                return []
            if (start, stop, step) == (self.length - 1, self.length, 1):
                return [self[-1]]
            return self._decoded()[index]
        if index in (-1, self.length - 1) and self._last_start >= 0:
            seat, text = json.loads(self.json[self._last_start : -1])
            return (seat, text)
        return self._decoded()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionRecord):
            return (self.json, self.length) == (other.json, other.length)
        if isinstance(other, list):
            return self._decoded() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which have no hash

    def __repr__(self) -> str:
        return f"ActionRecord({self.json!r})"

    def _decoded(self) -> list[tuple[int, str]]:
        return [(seat, text) for seat, text in json.loads(self.json)]


_ACTION_PAIRS = TypeAdapter(list[tuple[int, str]])


def _action_record(value: object) -> object:
    """An ActionRecord from a list of (seat, text) pairs (as tests and scripts give them)."""
    if isinstance(value, list):
        return ActionRecord.of(_ACTION_PAIRS.validate_python(value))
    return value


class SeatRecord(BaseModel):
    """One seat of a running table."""

    user_id: int | None  # None for an AI seat
    name: str  # display name at the time of joining
    is_ai: bool  # True for Add-AI seats and seats handed to the AI
    dm_message_id: int | None = None  # the seat's hand DM message (edited as it changes)
    dm_failed: bool = False  # DMs closed: told once in the channel
    timeouts_in_a_row: int = 0
    level: str = "normal"  # how the AI plays the seat (easy, normal, hard)
    language: str | None = None  # the language the person reads (None: not known)


class SavedEvent(BaseModel):
    """A line of a table's log as saved: an engine event (its message id and arguments, read
    later in each reader's language) and the revision it happened at."""

    revision: int = Field(ge=0)
    text: str  # the message id (English text with its arguments filled, saved before args)
    kind: str
    visible_to: list[int] | None = None  # None: a public event
    args: list[list[Any]] = Field(default_factory=list)  # engine.core.args_json


class SavedRoundEnd(BaseModel):
    """A hand or round that ended while the game goes on, held on the table before the next
    deal: its scores (the engine's ``hand_end`` text), the public view of what was turned up
    (None: nothing), the revision it ended at and when the next deal is shown by itself."""

    scores: str  # the hand_end event's message id (English text, saved before args)
    reveal: dict[str, Any] | None
    revision: int = Field(ge=0)
    until: UtcDatetime
    args: list[list[Any]] = Field(default_factory=list)  # the scores' (args_json)


class TableLog(BaseModel):
    """What a running table shows of its past, saved with it so that a restart replays
    nothing: its last events, each hand's summary, the number of deals so far and the round
    end it holds before the next deal (None: none)."""

    events: list[SavedEvent]
    # each hand's scores: an event, or (saved before events) its English text, names filled
    summaries: list[SavedEvent | str]
    deals: int = Field(ge=0)
    round_end: SavedRoundEnd | None = None
    language: str = "en"  # the language the table speaks in public


class SavedGame(BaseModel):
    """A running game, saved with every accepted move."""

    model_config = ConfigDict(arbitrary_types_allowed=True)  # the ActionRecord

    table_id: str  # short unique id (also in button custom_ids)
    guild_id: int
    channel_id: int  # where the table plays: its thread, when it has one
    host_id: int
    game_id: str  # engine game id, e.g. "fishing"
    options: OptionValues
    seed: int
    seats: list[SeatRecord]
    state: dict[str, Any]  # engine State.to_json()
    revision: int = Field(ge=0)  # increases by one with every accepted action
    # [seat, action text] since the start (the replay record)
    actions: Annotated[ActionRecord, BeforeValidator(_action_record)]
    table_message_id: int | None
    deadline: UtcDatetime | None  # the current decision's turn timer
    started_at: UtcDatetime
    table_log: TableLog | None = None  # None: saved before migration 008 (replayed at start)
    # when its channel closed to the bot (None: not paused); kept by ``set_paused``, not saves
    paused_since: UtcDatetime | None = None
    turn_seconds: int | None = None  # each turn's time (None: the server's TURN_SECONDS)
    # the channel whose thread ``channel_id`` is (None: the table plays in that channel)
    parent_channel_id: int | None = None


class SavedLobby(BaseModel):
    """An open lobby, saved with every change so that it survives a restart."""

    lobby_id: str
    guild_id: int
    channel_id: int
    host_id: int
    game_id: str
    options: OptionValues
    seats: list[SeatRecord]
    message_id: int | None  # the lobby message, once posted
    turn_seconds: int | None = None  # each turn's time (None: the server's TURN_SECONDS)
    language: str | None = None  # what it speaks in public (None: saved before it was kept)


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A running game read back: its saved record and its state, parsed once by storage."""

    saved: SavedGame
    state: State  # the engine's state, read from ``saved.state``


class BrokenGame(BaseModel):
    """A saved game that could not be read back (reported, never restored)."""

    table_id: str
    guild_id: int | None
    channel_id: int | None
    error: str


class FinishedSeat(BaseModel):
    """One seat's result in a finished game."""

    seat: int = Field(ge=0)
    user_id: int | None
    name: str
    is_ai: bool
    score: int
    place: int = Field(ge=1)  # 1 = winner(s); equal places for ties
    # The person (user_id) left and the AI finished the seat: for that person the game is a
    # loss in last place, and the seat's score is not theirs.
    left_early: bool = False

    @model_validator(mode="after")
    def _a_leaver_is_a_person(self) -> FinishedSeat:
        if self.left_early and (self.user_id is None or not self.is_ai):
            raise ValueError("a seat left early names its person and was finished by the AI")
        return self


class ReplayedGame(BaseModel):
    """A finished game as a replay needs it: where it was played, its seats, its record."""

    table_id: str
    guild_id: int
    seats: list[FinishedSeat]
    record: dict[str, Any] | None  # None: damaged in storage (not a JSON object)


class FinishedGame(BaseModel):
    """A finished game, written once with its seats and its replay record."""

    table_id: str
    guild_id: int
    channel_id: int
    game_id: str
    options: OptionValues
    seed: int
    started_at: UtcDatetime
    ended_at: UtcDatetime
    seats: list[FinishedSeat]
    record: dict[str, Any]  # the replay record: {"game","players","seed","options","actions"}
    # each hand's or round's scores (its hand_end event), read in the history's language
    summary: list[SavedEvent]

    @property
    def has_ai(self) -> bool:
        """Whether any seat was played by the AI."""
        return any(seat.is_ai for seat in self.seats)


class HistoryRow(BaseModel):
    """A finished game as listed in a server's history."""

    table_id: str
    game_id: str
    season: int
    ended_at: UtcDatetime
    seats: list[FinishedSeat]
    has_ai: bool
    # each hand's scores: an event, or (stored before events) its English text, names filled;
    # None: stored damaged, not a list of hands
    summary: list[SavedEvent | str] | None


class PlacedSeat(NamedTuple):
    """A person's seat in a finished game, as ratings need it (a leaver's place is last)."""

    user_id: int
    name: str
    place: int


class RecordedGame(NamedTuple):
    """What ratings read of one finished game: its number in the order games were recorded
    and its seats (with a person, for ratings; every seat's (score, place) for scores)."""

    recorded: int
    seats: list[PlacedSeat]


class ScoredGame(NamedTuple):
    """Every seat's (score, place) of one finished game, with its number in record order."""

    recorded: int
    scores: list[tuple[int, int]]


class PlayerTotals(NamedTuple):
    """A player's totals over one game's finished games on a server (all seasons).

    Games left early count in ``games`` (as losses) but not in the scores, which are None when
    the player finished no game of it."""

    game_id: str
    games: int
    wins: int
    highest_score: int | None
    lowest_score: int | None
    average_score: float | None
