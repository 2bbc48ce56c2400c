"""Each person's own choices (the deck style of their private pictures, how they are told
it is their turn, their language), each server's default for the turn ping, whether a
server's tables play in threads, and the language of its tables.

``Preferences`` is what the bot needs from any backend; ``SqlPreferences`` keeps them in
SQLite or PostgreSQL. Styles are stored by name ('standard', 'four_colour') and turn pings as
a name and a delay ('later', 30), so storage needs no drawing or Discord code.
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

    async def turn_pings(self) -> dict[int, tuple[str, int]]:
        """Every person's stored turn ping (its name and delay), by user id."""

    async def server_turn_pings(self) -> dict[int, tuple[str, int]]:
        """Every server's default turn ping, by server id."""

    async def set_turn_ping(self, user_id: int, ping: str, delay_seconds: int) -> None:
        """Store ``user_id``'s turn ping (replacing the one stored)."""

    async def set_server_turn_ping(self, guild_id: int, ping: str, delay_seconds: int) -> None:
        """Store ``guild_id``'s default turn ping (replacing the one stored)."""

    async def server_table_threads(self) -> dict[int, bool]:
        """Whether each server that chose plays its tables in threads, by server id."""

    async def set_server_table_threads(self, guild_id: int, threads: bool) -> None:
        """Store whether ``guild_id``'s tables play in threads (replacing the choice stored)."""

    async def languages(self) -> dict[int, str]:
        """Every person's chosen language, by user id."""

    async def language(self, user_id: int) -> str | None:
        """``user_id``'s chosen language (None: never chosen, or back to Discord's)."""

    async def set_language(self, user_id: int, language: str | None) -> None:
        """Store ``user_id``'s language (None: forget it, their Discord client's again)."""

    async def server_languages(self) -> dict[int, str]:
        """Every server's chosen language for its tables, by server id."""

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """Store ``guild_id``'s language (None: forget it, the server's own locale again)."""


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

    async def turn_pings(self) -> dict[int, tuple[str, int]]:
        """Every person's stored turn ping (its name and delay), by user id."""
        return await self._pings("SELECT user_id AS id, ping, delay_seconds FROM turn_pings")

    async def server_turn_pings(self) -> dict[int, tuple[str, int]]:
        """Every server's default turn ping, by server id."""
        return await self._pings(
            "SELECT guild_id AS id, ping, delay_seconds FROM server_turn_pings"
        )

    async def _pings(self, query: str) -> dict[int, tuple[str, int]]:
        async with self._db.session() as sql:
            rows = await sql.fetchall(query)
        return {int(row["id"]): (str(row["ping"]), int(row["delay_seconds"])) for row in rows}

    async def set_turn_ping(self, user_id: int, ping: str, delay_seconds: int) -> None:
        """Store ``user_id``'s turn ping (one statement: its own transaction)."""
        async with self._db.session() as sql:
            await sql.execute(
                "INSERT INTO turn_pings (user_id, ping, delay_seconds)"
                " VALUES (:id, :ping, :delay) ON CONFLICT (user_id) DO UPDATE"
                " SET ping = excluded.ping, delay_seconds = excluded.delay_seconds",
                {"id": user_id, "ping": ping, "delay": delay_seconds},
            )

    async def set_server_turn_ping(self, guild_id: int, ping: str, delay_seconds: int) -> None:
        """Store ``guild_id``'s default turn ping (one statement: its own transaction)."""
        async with self._db.session() as sql:
            await sql.execute(
                "INSERT INTO server_turn_pings (guild_id, ping, delay_seconds)"
                " VALUES (:id, :ping, :delay) ON CONFLICT (guild_id) DO UPDATE"
                " SET ping = excluded.ping, delay_seconds = excluded.delay_seconds",
                {"id": guild_id, "ping": ping, "delay": delay_seconds},
            )

    async def server_table_threads(self) -> dict[int, bool]:
        """Whether each server that chose plays its tables in threads, by server id."""
        async with self._db.session() as sql:
            rows = await sql.fetchall("SELECT guild_id, threads FROM server_table_threads")
        return {int(row["guild_id"]): bool(row["threads"]) for row in rows}

    async def set_server_table_threads(self, guild_id: int, threads: bool) -> None:
        """Store whether ``guild_id``'s tables play in threads (one statement)."""
        async with self._db.session() as sql:
            await sql.execute(
                "INSERT INTO server_table_threads (guild_id, threads) VALUES (:id, :threads)"
                " ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
                {"id": guild_id, "threads": int(threads)},
            )

    async def languages(self) -> dict[int, str]:
        """Every person's chosen language, by user id."""
        async with self._db.session() as sql:
            rows = await sql.fetchall("SELECT user_id, language FROM player_languages")
        return {int(row["user_id"]): str(row["language"]) for row in rows}

    async def language(self, user_id: int) -> str | None:
        """``user_id``'s chosen language (None: never chosen, or back to Discord's)."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT language FROM player_languages WHERE user_id = :user_id",
                {"user_id": user_id},
            )
        return None if row is None else str(row["language"])

    async def set_language(self, user_id: int, language: str | None) -> None:
        """Store ``user_id``'s language, or forget it (one statement: its own transaction)."""
        await self._choose_language("player_languages", "user_id", user_id, language)

    async def server_languages(self) -> dict[int, str]:
        """Every server's chosen language for its tables, by server id."""
        async with self._db.session() as sql:
            rows = await sql.fetchall("SELECT guild_id, language FROM server_languages")
        return {int(row["guild_id"]): str(row["language"]) for row in rows}

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """Store ``guild_id``'s language, or forget it (one statement: its own transaction)."""
        await self._choose_language("server_languages", "guild_id", guild_id, language)

    async def _choose_language(
        self, table: str, key: str, owner_id: int, language: str | None
    ) -> None:
        # table and key are one of the two pairs above, never anyone's input
        async with self._db.session() as sql:
            if language is None:
                await sql.execute(f"DELETE FROM {table} WHERE {key} = :id", {"id": owner_id})
                return
            await sql.execute(
                f"INSERT INTO {table} ({key}, language) VALUES (:id, :language)"
                f" ON CONFLICT ({key}) DO UPDATE SET language = excluded.language",
                {"id": owner_id, "language": language},
            )
