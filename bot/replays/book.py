"""A finished game's replay, read from storage (no Discord): its steps and its seats' names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.storage import FinishedSeat, Results
from engine.errors import SetupError
from engine.replay import Replay
from engine.words import _


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


async def load_replay(
    results: Results, table_id: str, guild_id: int | None, user_id: int
) -> ReplayedGame:
    """The replay of the finished game ``table_id`` for ``user_id`` asking in server
    ``guild_id`` (None: a DM); UserError when there is none here (a running game has no record
    until it ends), it was another server's (outside a server, only its players may open it),
    or its record was damaged in storage or no longer replays."""
    found = await results.replayed(table_id)
    if found is None:
        raise UserError(
            _(
                "There is no finished game `{table}` (a game can be replayed once it is over); "
                "table ids are in `/game history`."
            ).format(table=table_id)
        )
    if guild_id is not None and found.guild_id != guild_id:
        raise UserError(_("That game was played on another server."))
    if guild_id is None and all(seat.user_id != user_id for seat in found.seats):
        raise UserError(_("Outside its server, only the people who played a game can replay it."))
    if found.record is None:
        raise UserError(_("This game cannot be replayed: its record could not be read back."))
    try:
        replay = Replay.of(found.record)
    except SetupError:
        raise UserError(
            _("This game cannot be replayed: its moves no longer fit the game's rules.")
        ) from None
    return ReplayedGame(table_id, found.record, replay, found.seats)
