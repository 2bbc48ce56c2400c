"""What the storage layer takes and gives: pydantic models of saved games, results and rows.

Times are UTC: a naive datetime is read as UTC, an aware one is converted to UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, NamedTuple

from pydantic import AfterValidator, BaseModel, Field, model_validator

from engine.core import State


def as_utc(moment: datetime) -> datetime:
    """The same moment in UTC (naive datetimes are taken to be UTC already)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


UtcDatetime = Annotated[datetime, AfterValidator(as_utc)]
OptionValues = dict[str, int | bool | None]


class SeatRecord(BaseModel):
    """One seat of a running table."""

    user_id: int | None  # None for an AI seat
    name: str  # display name at the time of joining
    is_ai: bool  # True for Add-AI seats and seats handed to the AI
    dm_message_id: int | None = None  # the seat's hand DM message (edited as it changes)
    dm_failed: bool = False  # DMs closed: told once in the channel
    timeouts_in_a_row: int = 0
    level: str = "normal"  # how the AI plays the seat (easy, normal, hard)


class SavedGame(BaseModel):
    """A running game, saved with every accepted move."""

    table_id: str  # short unique id (also in button custom_ids)
    guild_id: int
    channel_id: int
    host_id: int
    game_id: str  # engine game id, e.g. "fishing"
    options: OptionValues
    seed: int
    seats: list[SeatRecord]
    state: dict[str, Any]  # engine State.to_json()
    revision: int = Field(ge=0)  # increases by one with every accepted action
    actions: list[tuple[int, str]]  # [seat, action text] since the start (replay record)
    table_message_id: int | None
    deadline: UtcDatetime | None  # the current decision's turn timer
    started_at: UtcDatetime


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
    summary: list[str]  # one line per hand/round (hand_end events), for history

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
    summary: list[str]


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
