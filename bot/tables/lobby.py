"""A lobby: a table being gathered in a channel, before the game is dealt.

The rules of gathering live here (who may join, leave, add an AI, start or cancel); the
service keeps the open lobbies, their idle expiry and the step from lobby to session.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.errors import UserError
from bot.tables.records import Seat
from engine.core import Game, OptionValue
from engine.errors import SetupError


@dataclass
class Lobby:
    """A table being gathered in a channel."""

    lobby_id: str
    guild_id: int
    channel_id: int
    host_id: int
    game: Game
    options: dict[str, OptionValue]
    seats: list[Seat]
    message_id: int | None = None
    expiry: asyncio.Task[None] | None = None
    closed: bool = False

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or None."""
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    def join(self, user_id: int, name: str) -> None:
        """Take a seat."""
        if self.seat_of(user_id) is not None:
            raise UserError("You are already seated at this table.")
        self._check_room()
        self.seats.append(Seat(user_id, name))

    def leave(self, user_id: int) -> None:
        """Leave (the host cancels instead)."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        if user_id == self.host_id:
            raise UserError("You are the host: use Cancel to close the lobby.")
        del self.seats[seat]

    def add_ai(self, user_id: int) -> None:
        """Add an AI seat (anyone seated may)."""
        if self.seat_of(user_id) is None:
            raise UserError("Only players seated at this table can add an AI.")
        self._check_room()
        number = sum(seat.is_ai for seat in self.seats) + 1
        self.seats.append(Seat(None, f"AI {number}", is_ai=True))

    def check_host(self, user_id: int, doing: str) -> None:
        """Raise UserError unless ``user_id`` hosts this lobby."""
        if user_id != self.host_id:
            raise UserError(f"Only the host can {doing}.")

    def check_start(self, user_id: int) -> None:
        """Raise UserError unless ``user_id`` may start the game now (the host, with a
        player count the game allows)."""
        self.check_host(user_id, "start the game")
        try:
            self.game.check_players(len(self.seats))
        except SetupError as error:
            raise UserError(f"Cannot start: {error}.") from None

    def _check_room(self) -> None:
        most = max(self.game.player_counts)
        if len(self.seats) >= most:
            raise UserError(f"The table is full ({most} seats).")
