"""Open lobbies: saved with every change, read back at start, deleted when they close.

``OpenLobbies`` is what the bot needs from any backend; ``SqlOpenLobbies`` keeps them in
SQLite or PostgreSQL. A started lobby's row goes in the game's first save
(``RunningGames.save``), in the same transaction.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Protocol

from bot.storage.connection import Database, dump, to_text
from bot.storage.models import SavedLobby, SeatRecord
from bot.storage.running import describe_error, on_shards
from bot.storage.shards import Shards


class OpenLobbies(Protocol):
    """The open lobbies of a database."""

    async def save(self, lobby: SavedLobby) -> None:
        """Store a lobby (a new one, or its latest seats and message), the channel's only
        one."""

    async def load(self, shards: Shards | None = None) -> tuple[list[SavedLobby], list[str]]:
        """Every open lobby (of the servers on ``shards``; None: all), oldest first, and what
        was wrong with the rows that could not be read back (those are deleted)."""

    async def delete(self, lobby_id: str) -> None:
        """Forget a closed lobby (nothing if it is not there)."""


class SqlOpenLobbies:
    """Open lobbies in the ``open_lobbies`` table."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def save(self, lobby: SavedLobby) -> None:
        """Insert the lobby, or replace its seats, options and message id. A channel holds
        one lobby: the row of another lobby there (closed, its row not yet forgotten: a new
        lobby can be opened at once) goes in the same transaction."""
        async with self._db.transaction() as sql:
            await sql.execute(
                "DELETE FROM open_lobbies WHERE channel_id = :channel_id AND lobby_id <> :lobby_id",
                {"channel_id": lobby.channel_id, "lobby_id": lobby.lobby_id},
            )
            await sql.execute(
                "INSERT INTO open_lobbies (lobby_id, guild_id, channel_id, host_id, game_id,"
                " options, seats, message_id, saved_at, turn_seconds, language) VALUES"
                " (:lobby_id, :guild_id, :channel_id, :host_id, :game_id, :options, :seats,"
                " :message_id, :saved_at, :turn_seconds, :language)"
                " ON CONFLICT (lobby_id) DO UPDATE SET options = excluded.options,"
                " seats = excluded.seats, message_id = excluded.message_id,"
                " saved_at = excluded.saved_at",
                {
                    **lobby.model_dump(exclude={"options", "seats"}),
                    "options": dump(lobby.options),
                    "seats": dump(lobby.seats),
                    "saved_at": to_text(datetime.now(UTC)),
                },
            )

    async def load(self, shards: Shards | None = None) -> tuple[list[SavedLobby], list[str]]:
        """Every open lobby (of the servers on ``shards``; None: all), oldest first; a row
        that cannot be read back is deleted (a lobby holds no cards and nothing recorded: its
        people start a new one)."""
        where, parameters = on_shards(shards)
        async with self._db.session() as sql:
            rows = await sql.fetchall(
                f"SELECT * FROM open_lobbies{where} ORDER BY saved_at, lobby_id", parameters
            )
        lobbies: list[SavedLobby] = []
        problems: list[str] = []
        for row in rows:
            try:
                lobbies.append(
                    SavedLobby(
                        lobby_id=row["lobby_id"],
                        guild_id=row["guild_id"],
                        channel_id=row["channel_id"],
                        host_id=row["host_id"],
                        game_id=row["game_id"],
                        options=json.loads(row["options"]),
                        seats=[SeatRecord.model_validate(s) for s in json.loads(row["seats"])],
                        message_id=row["message_id"],
                        turn_seconds=row["turn_seconds"],
                        language=row["language"],
                    )
                )
            except Exception as error:  # one bad row must not stop the others
                problems.append(f"lobby {row['lobby_id']}: {describe_error(error)}")
                await self.delete(str(row["lobby_id"]))
        return lobbies, problems

    async def delete(self, lobby_id: str) -> None:
        """Forget a closed lobby."""
        async with self._db.session() as sql:
            await sql.execute(
                "DELETE FROM open_lobbies WHERE lobby_id = :lobby_id", {"lobby_id": lobby_id}
            )
