"""Tables where the bot is not a member (``anywhere_tables``): the interaction tokens that
show each one and whether it is asleep (every token expired), so that a restart goes on
showing it through a token still alive, or waits for a click to bring it back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.connection import Database


@dataclass(frozen=True)
class TokenRow:
    """An interaction token and when it expires (Unix seconds)."""

    token: str
    expires: int


@dataclass(frozen=True)
class AnywhereRow:
    """One table's stored tokens: the one that owns its message (with that message's id),
    the freshest of its channel, and whether the table is asleep."""

    table_id: str
    channel_id: int
    message_id: int | None
    message_token: TokenRow | None
    fresh_token: TokenRow | None
    asleep: bool


UPSERT = """
INSERT INTO anywhere_tables (table_id, channel_id, message_id, message_token, message_expires,
                             fresh_token, fresh_expires, asleep)
VALUES (:table_id, :channel_id, :message_id, :message_token, :message_expires, :fresh_token,
        :fresh_expires, :asleep)
ON CONFLICT (table_id) DO UPDATE SET
    channel_id = excluded.channel_id, message_id = excluded.message_id,
    message_token = excluded.message_token, message_expires = excluded.message_expires,
    fresh_token = excluded.fresh_token, fresh_expires = excluded.fresh_expires,
    asleep = excluded.asleep
"""


def _token(token: str | None, expires: int | None) -> TokenRow | None:
    return None if token is None or expires is None else TokenRow(token, int(expires))


class AnywhereTables:
    """The stored tokens of the tables played where the bot is not a member."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def save(self, row: AnywhereRow) -> None:
        """Store the table's tokens as they are now."""
        message, fresh = row.message_token, row.fresh_token
        async with self._db.session() as sql:
            await sql.execute(
                UPSERT,
                {
                    "table_id": row.table_id,
                    "channel_id": row.channel_id,
                    "message_id": row.message_id,
                    "message_token": message.token if message else None,
                    "message_expires": message.expires if message else None,
                    "fresh_token": fresh.token if fresh else None,
                    "fresh_expires": fresh.expires if fresh else None,
                    "asleep": int(row.asleep),
                },
            )

    async def all(self) -> Sequence[AnywhereRow]:
        """Every stored table's tokens."""
        async with self._db.session() as sql:
            rows = await sql.fetchall(
                "SELECT table_id, channel_id, message_id, message_token, message_expires,"
                " fresh_token, fresh_expires, asleep FROM anywhere_tables",
                {},
            )
        return [
            AnywhereRow(
                str(row[0]),
                int(row[1]),
                None if row[2] is None else int(row[2]),
                _token(row[3], row[4]),
                _token(row[5], row[6]),
                bool(row[7]),
            )
            for row in rows
        ]

    async def drop(self, table_id: str) -> None:
        """Forget an ended table's tokens."""
        async with self._db.session() as sql:
            await sql.execute(
                "DELETE FROM anywhere_tables WHERE table_id = :table_id", {"table_id": table_id}
            )
