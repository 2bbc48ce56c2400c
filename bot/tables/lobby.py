"""A lobby: a table being gathered in a channel, before the game is dealt.

The rules of gathering live here (who may join, leave, add an AI, start or cancel); the
service keeps the open lobbies, their idle expiry and the step from lobby to session.

A lobby is a small state machine: open → starting → started, or open → cancelled, and
starting → open again when the start fails. Only an open lobby changes: a click that lands
while it is being dealt is refused (``DEALING``) and changes nothing, so the seats dealt are
the seats that Start saw.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from enum import StrEnum

from bot.errors import UserError
from bot.i18n import LANGUAGES, catalog, language_of
from bot.storage import SavedLobby
from bot.tables.records import Seat
from engine.core import Game, OptionValue
from engine.errors import SetupError
from engine.registry import get_game
from engine.words import N_, _, speaking

ServerLanguage = Callable[[int], str | None]
"""The language an admin chose for a server's tables (None: none chosen): ``of_server``."""

# AI seats are named like people, never "AI 1", which runs into the scores beside it.
DEALING = N_("The table is being dealt: wait a moment, then use the table's buttons.")

AI_NAMES = ("Ada", "Alan", "Grace", "Kurt", "Emmy", "Hedy", "Edsger", "Ida", "Niels", "Rosa")


def ai_seat_name(taken: Iterable[str]) -> str:
    """The first AI name no seat at the table uses yet (any case).

    A table has at most six seats, so five names at most are taken and one of the ten is free.

    >>> ai_seat_name(["ann", "Ada"])
    'Alan'
    """
    used = {name.casefold() for name in taken}
    return next(name for name in AI_NAMES if name.casefold() not in used)


class LobbyStatus(StrEnum):
    """Where a lobby is in its life."""

    OPEN = "open"
    STARTING = "starting"  # Start was clicked: the game is being dealt and saved
    STARTED = "started"
    CANCELLED = "cancelled"  # cancelled, expired, or its channel or host gone


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
    status: LobbyStatus = LobbyStatus.OPEN
    turn_seconds: int | None = None  # each turn's time (None: the server's TURN_SECONDS)
    # the language its messages and its table speak in public (its server's, or its opener's
    # where there is none); kept across a restart (``restored_language``)
    language: str = "en"
    # held by every saved change and by a start: a start waits for changes in flight, so
    # none lands after the game took the seats (nor saves the lobby's row again)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)

    def in_its_language(self) -> AbstractContextManager[None]:
        """Speak the lobby's language inside the block: for its message, everyone's."""
        return speaking(catalog(self.language))

    @property
    def closed(self) -> bool:
        """Whether the lobby ended (started or cancelled)."""
        return self.status in (LobbyStatus.STARTED, LobbyStatus.CANCELLED)

    def check_open(self) -> None:
        """Raise UserError unless the lobby may change now (open, not being dealt)."""
        if self.status is LobbyStatus.STARTING:
            raise UserError(_(DEALING))
        if self.closed:
            raise UserError(_("This lobby is closed."))

    def begin_start(self, user_id: int) -> None:
        """open → starting, for the host with a player count the game allows; a second Start
        (or any change) is refused from now on."""
        self.check_open()
        self.check_start(user_id)
        self.status = LobbyStatus.STARTING

    def start_failed(self) -> None:
        """starting → open: nothing was dealt, the lobby goes on."""
        if self.status is LobbyStatus.STARTING:
            self.status = LobbyStatus.OPEN

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or None."""
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    def join(self, user_id: int, name: str, language: str | None = None) -> None:
        """Take a seat (its person reads ``language``, None: not known)."""
        self.check_open()
        if self.seat_of(user_id) is not None:
            raise UserError(_("You are already seated at this table."))
        self._check_room()
        self.seats.append(Seat(user_id, name, language=language))

    def leave(self, user_id: int) -> None:
        """Leave (the host cancels instead)."""
        self.check_open()
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError(_("You are not seated at this table."))
        if user_id == self.host_id:
            raise UserError(_("You are the host: use Cancel to close the lobby."))
        del self.seats[seat]

    def add_ai(self, user_id: int, level: str) -> Seat:
        """Add an AI seat playing at ``level`` (anyone seated may)."""
        self.check_open()
        if self.seat_of(user_id) is None:
            raise UserError(_("Only players seated at this table can add an AI."))
        self._check_room()
        seat = Seat(None, ai_seat_name(s.name for s in self.seats), is_ai=True, level=level)
        self.seats.append(seat)
        return seat

    def set_ai_level(self, user_id: int, name: str, level: str) -> Seat:
        """Make the AI seat called ``name`` play at ``level`` (anyone seated may)."""
        self.check_open()
        if self.seat_of(user_id) is None:
            raise UserError(_("Only players seated at this table can choose an AI's level."))
        seat = next((s for s in self.seats if s.is_ai and s.name == name), None)
        if seat is None:
            raise UserError(_("{player} is no longer at this table.").format(player=name))
        seat.level = level
        return seat

    def check_host(self, user_id: int, refusal: str) -> None:
        """Raise UserError (saying ``refusal``, a message id) unless ``user_id`` hosts this
        lobby."""
        if user_id != self.host_id:
            raise UserError(_(refusal))

    def check_start(self, user_id: int) -> None:
        """Raise UserError unless ``user_id`` may start the game now (the host, with a
        player count the game allows)."""
        self.check_host(user_id, N_("Only the host can start the game."))
        try:
            self.game.check_players(len(self.seats))
        except SetupError as error:
            raise UserError(_("Cannot start: {reason}.").format(reason=error)) from None

    def saved(self) -> SavedLobby:
        """The stored form (saved with every change)."""
        return SavedLobby(
            lobby_id=self.lobby_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            game_id=self.game.id,
            options=dict(self.options),
            seats=[seat.record() for seat in self.seats],
            message_id=self.message_id,
            turn_seconds=self.turn_seconds,
            language=self.language,
        )

    @classmethod
    def from_saved(cls, saved: SavedLobby, server_language: ServerLanguage) -> Lobby:
        """A stored lobby back, in its language (``restored_language``); raises SetupError
        when its game or options are no longer known."""
        game = get_game(saved.game_id)
        seats = [Seat.from_record(record) for record in saved.seats]
        return cls(
            saved.lobby_id,
            saved.guild_id,
            saved.channel_id,
            saved.host_id,
            game,
            game.resolve_options(saved.options),
            seats,
            saved.message_id,
            turn_seconds=saved.turn_seconds,
            language=restored_language(
                saved.language, server_language(saved.guild_id), seats, saved.host_id
            ),
        )

    def _check_room(self) -> None:
        most = max(self.game.player_counts)
        if len(self.seats) >= most:
            raise UserError(_("The table is full ({count} seats).").format(count=most))


def restored_language(
    saved: str | None, server: str | None, seats: Sequence[Seat], host_id: int
) -> str:
    """The language a restored lobby or table speaks in public. A live one keeps the language
    it opened in whatever an admin chooses later, and so does a restored one saved with it.
    One saved before its language was kept, or in one Cardroom no longer ships, speaks what
    a lobby opened now would: the language an admin chose for its server (``server``), else
    its host's (the language ``host_id`` joined ``seats`` with), else English (its server's
    own locale is not known before the gateway says it). Said here, not left to the
    catalogs' fallback, so that its table stores a language it speaks."""
    if saved is not None and saved in LANGUAGES:
        return saved
    host = next((seat.language for seat in seats if seat.user_id == host_id), None)
    return server or language_of(host)
