"""Clicks on hand DMs handed from the process that received them (Discord sends every DM
interaction to shard 0) to the process that runs the game (``forwarded_clicks``).

The receiving process stores the click for the shard of the game's server and, on
PostgreSQL, wakes the owner of that shard at once (``NOTIFY``); the owner takes its clicks
(deleting them, so each is taken once) when woken and, should a wake-up be lost, at every
poll. A click is kept no longer than its interaction token lives (15 minutes). On SQLite one
process runs every shard, so nothing is ever forwarded.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import asyncpg

from bot.storage.connection import Database
from bot.storage.postgresql import PostgresDatabase
from bot.storage.shards import SHARD_LOCKS, Shards

log = logging.getLogger(__name__)

WAKE_CHANNEL = "cardroom_forwarded_clicks"
"""The NOTIFY channel; its payload is the shard id of the click."""
SHARD_HELD = (
    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND classid = :locks AND objid = :shard AND objsubid = 2)"
)


@dataclass(frozen=True)
class ForwardedClick:
    """One click for the owner of ``shard_id``: the interaction as received (JSON text, with
    its token) and when the token expires (Unix seconds)."""

    interaction_id: int
    shard_id: int
    table_id: str
    interaction: str
    expires_at: int


class ClickWakeUps:
    """A connection listening for forwarded clicks (PostgreSQL); ``close()`` ends it."""

    def __init__(self, connection: asyncpg.Connection | None) -> None:
        self._connection = connection

    @property
    def listening(self) -> bool:
        """Whether wake-ups still arrive (else only the poll finds clicks)."""
        return self._connection is not None and not self._connection.is_closed()

    async def close(self) -> None:
        """Stop listening."""
        if self._connection is not None and not self._connection.is_closed():
            with contextlib.suppress(Exception):
                await self._connection.close(timeout=5)


class ForwardedClicks:
    """The ``forwarded_clicks`` table, and PostgreSQL's wake-ups for it."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def game_guild(self, table_id: str) -> int | None:
        """The server of a running game stored by any process (None: no such game)."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT guild_id FROM running_games WHERE table_id = :table_id",
                {"table_id": table_id},
            )
        return None if row is None else int(row[0])

    async def shard_held(self, shard: int) -> bool:
        """Whether some process holds ``shard`` (its advisory lock; SQLite: always, the one
        process holds them all)."""
        if not isinstance(self._db, PostgresDatabase):
            return True
        async with self._db.session() as sql:
            row = await sql.fetchone(SHARD_HELD, {"locks": SHARD_LOCKS, "shard": shard})
        return row is not None and bool(row[0])

    async def forward(self, click: ForwardedClick) -> None:
        """Store a click for its shard's owner and wake it (one transaction: the wake-up is
        sent when the row is there to take)."""
        async with self._db.transaction() as sql:
            await sql.execute(
                "INSERT INTO forwarded_clicks"
                " (interaction_id, shard_id, table_id, interaction, expires_at)"
                " VALUES (:interaction_id, :shard_id, :table_id, :interaction, :expires_at)"
                " ON CONFLICT (interaction_id) DO NOTHING",
                {
                    "interaction_id": click.interaction_id,
                    "shard_id": click.shard_id,
                    "table_id": click.table_id,
                    "interaction": click.interaction,
                    "expires_at": click.expires_at,
                },
            )
            if isinstance(self._db, PostgresDatabase):
                await sql.execute(
                    "SELECT pg_notify(:channel, :shard)",
                    {"channel": WAKE_CHANNEL, "shard": str(click.shard_id)},
                )

    async def take(self, shards: Shards, now: int) -> Sequence[ForwardedClick]:
        """The unexpired clicks for ``shards``, oldest first, deleted as they are read (each
        taken by one process once); expired ones are dropped."""
        ids = ", ".join(str(int(shard)) for shard in shards.ids)
        async with self._db.transaction() as sql:
            await sql.execute(
                f"DELETE FROM forwarded_clicks WHERE shard_id IN ({ids}) AND expires_at <= :now",
                {"now": now},
            )
            rows = await sql.fetchall(
                "DELETE FROM forwarded_clicks"
                f" WHERE shard_id IN ({ids})"
                " RETURNING interaction_id, shard_id, table_id, interaction, expires_at"
            )
        clicks = [
            ForwardedClick(int(r[0]), int(r[1]), str(r[2]), str(r[3]), int(r[4])) for r in rows
        ]
        return sorted(clicks, key=lambda click: click.interaction_id)

    async def wake_ups(self, shards: Shards, wake: Callable[[], None]) -> ClickWakeUps:
        """Call ``wake`` whenever a click is forwarded to one of ``shards`` (PostgreSQL:
        LISTEN on a connection of its own; SQLite: never, nothing is forwarded there). A
        connection that cannot be made only leaves the poll."""
        if not isinstance(self._db, PostgresDatabase):
            return ClickWakeUps(None)
        mine = {str(shard) for shard in shards.ids}

        def heard(_: object, __: int, ___: str, payload: object) -> None:
            if payload in mine:
                wake()

        try:
            connection = await self._db.connect()
            await connection.add_listener(WAKE_CHANNEL, heard)
        except Exception as error:
            log.warning("forwarded clicks: no wake-ups (%r); found by polling only", error)
            return ClickWakeUps(None)
        return ClickWakeUps(connection)
