"""A finished game's replay, read from storage (no Discord): its steps and its seats' names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.storage import FinishedSeat, Storage
from engine.errors import SetupError
from engine.replay import Replay


@dataclass(frozen=True)
class ReplayedGame:
    """A finished game ready to step through: its table id, record, steps and seats."""

    table_id: str
    record: dict[str, Any]
    replay: Replay
    seats: list[FinishedSeat]

    @property
    def names(self) -> list[str]:
        """The seats' names, seat 0 first."""
        return [seat.name for seat in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` played (None: they did not play this game)."""
        return next((seat.seat for seat in self.seats if seat.user_id == user_id), None)


async def load_replay(storage: Storage, table_id: str, guild_id: int | None) -> ReplayedGame:
    """The replay of the finished game ``table_id``; UserError when there is none here (a
    running game has no record until it ends) or its record no longer replays."""
    found = await storage.results.replayed(table_id)
    if found is None:
        raise UserError(
            f"There is no finished game `{table_id}` (a game can be replayed once it is over); "
            "table ids are in `/game history`."
        )
    if guild_id is not None and found.guild_id != guild_id:
        raise UserError("That game was played on another server.")
    try:
        replay = Replay.of(found.record)
    except SetupError:
        raise UserError(
            "This game cannot be replayed: its moves no longer fit the game's rules."
        ) from None
    return ReplayedGame(table_id, found.record, replay, found.seats)
