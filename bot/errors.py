"""Errors a player or admin can act on, raised anywhere below the Discord side.

Plain exceptions with no Discord in them, so sessions and services can raise them;
``bot.answers`` turns them into private answers. A message is translated where the error is
raised: that is inside the click or command it answers, in its clicker's language.
"""

from __future__ import annotations

from engine.words import N_, _


class UserError(Exception):
    """Something the user can fix or should know; the message is shown to them as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleMove(UserError):
    """A click made at an older revision (another move came first, or a double click)."""

    def __init__(self) -> None:
        super().__init__(_("That move is no longer possible."))


class NoSuchMove(UserError):
    """Cards (or other members) chosen together in one step that make no legal move."""


class GameMovedElsewhere(UserError):
    """Another writer saved, finished or removed the game first (another bot process now
    drives it, or it was changed outside this one): this process stops driving it."""

    def __init__(self) -> None:
        super().__init__(_(GAME_MOVED))


GAME_MOVED = N_(
    "This game stopped: its saved copy was changed from somewhere else, so this move and any"
    " later one could not be saved here."
)
# the same, for everyone at the table (in the channel and the hand DMs), who made no move
TABLE_MOVED = N_(
    "This game stopped: its saved copy was changed from somewhere else, so this table can save"
    " no more moves. Start a new game with /game start."
)


class SaveFailed(UserError):
    """The change could not be saved, so it was not made (the table is as it was)."""

    def __init__(self) -> None:
        super().__init__(
            _("That could not be saved just now, so nothing changed. Please try again.")
        )
