"""Each person's own choices (today: the deck style of their private pictures).

``Preferences`` is what the bot needs from any backend; ``SqlitePreferences`` is the SQLite
one. Styles are stored by name ('standard', 'four_colour'), so storage needs no drawing code.
"""

from __future__ import annotations

from typing import Protocol

from bot.storage.connection import Database


class Preferences(Protocol):
    """The people's preferences of a database."""

    async def deck_styles(self) -> dict[int, str]:
        """Every stored deck style, by user id."""

    async def set_deck_style(self, user_id: int, style: str) -> None:
        """Store ``user_id``'s deck style (replacing the one stored)."""


class SqlitePreferences:
    """Preferences in SQLite's ``player_preferences``."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def deck_styles(self) -> dict[int, str]:
        """Every stored deck style, by user id."""
        async with self._db.lock:
            rows = await self._db.fetchall("SELECT user_id, deck_style FROM player_preferences")
        return {int(row[0]): str(row[1]) for row in rows}

    async def set_deck_style(self, user_id: int, style: str) -> None:
        """Store ``user_id``'s deck style (one statement: its own transaction)."""
        async with self._db.lock:
            await self._db.execute(
                "INSERT INTO player_preferences (user_id, deck_style) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET deck_style = excluded.deck_style",
                (user_id, style),
            )
