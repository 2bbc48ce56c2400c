"""Each person's own choices (today: the deck style of their private pictures).

``Preferences`` is what the bot needs from any backend; ``SqlPreferences`` keeps them in
SQLite or PostgreSQL. Styles are stored by name ('standard', 'four_colour'), so storage needs
no drawing code.
"""

from __future__ import annotations

from typing import Protocol

from bot.storage.connection import Database


class Preferences(Protocol):
    """The people's preferences of a database."""

    async def deck_styles(self) -> dict[int, str]:
        """Every stored deck style, by user id."""

    async def deck_style(self, user_id: int) -> str | None:
        """``user_id``'s stored deck style (None: never chosen)."""

    async def set_deck_style(self, user_id: int, style: str) -> None:
        """Store ``user_id``'s deck style (replacing the one stored)."""


class SqlPreferences:
    """Preferences in the ``player_preferences`` table."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def deck_styles(self) -> dict[int, str]:
        """Every stored deck style, by user id."""
        async with self._db.session() as sql:
            rows = await sql.fetchall("SELECT user_id, deck_style FROM player_preferences")
        return {int(row["user_id"]): str(row["deck_style"]) for row in rows}

    async def deck_style(self, user_id: int) -> str | None:
        """``user_id``'s stored deck style (None: never chosen)."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT deck_style FROM player_preferences WHERE user_id = :user_id",
                {"user_id": user_id},
            )
        return None if row is None else str(row["deck_style"])

    async def set_deck_style(self, user_id: int, style: str) -> None:
        """Store ``user_id``'s deck style (one statement: its own transaction)."""
        async with self._db.session() as sql:
            await sql.execute(
                "INSERT INTO player_preferences (user_id, deck_style) VALUES (:user_id, :style)"
                " ON CONFLICT (user_id) DO UPDATE SET deck_style = excluded.deck_style",
                {"user_id": user_id, "style": style},
            )
