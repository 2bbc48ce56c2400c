"""Move reviews kept per finished game and seat (``move_reviews``), so a review asked for
again is shown at once; a review made with another seed or budget is made anew."""

from __future__ import annotations

import json
from typing import Any, Protocol

from bot.storage.connection import Database, dump


class Reviews(Protocol):
    """The stored move reviews of a database."""

    async def review(
        self, table_id: str, seat: int, seed: int, worlds: int
    ) -> list[dict[str, Any]] | None:
        """The stored review of ``seat`` made with ``seed`` and ``worlds`` (None: none)."""

    async def keep(
        self, table_id: str, seat: int, seed: int, worlds: int, review: list[dict[str, Any]]
    ) -> None:
        """Store a review (replacing the seat's older one)."""


class SqlReviews:
    """Reviews in the ``move_reviews`` table."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def review(
        self, table_id: str, seat: int, seed: int, worlds: int
    ) -> list[dict[str, Any]] | None:
        """The stored review of ``seat`` made with ``seed`` and ``worlds`` (None: none)."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT review FROM move_reviews WHERE table_id = :table_id AND seat = :seat"
                " AND seed = :seed AND worlds = :worlds",
                {"table_id": table_id, "seat": seat, "seed": seed, "worlds": worlds},
            )
        if row is None:
            return None
        found: list[dict[str, Any]] = json.loads(row[0])
        return found

    async def keep(
        self, table_id: str, seat: int, seed: int, worlds: int, review: list[dict[str, Any]]
    ) -> None:
        """Store a review, replacing the seat's older one (one statement)."""
        async with self._db.session() as sql:
            await sql.execute(
                "INSERT INTO move_reviews (table_id, seat, seed, worlds, review)"
                " VALUES (:table_id, :seat, :seed, :worlds, :review)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET seed = excluded.seed,"
                " worlds = excluded.worlds, review = excluded.review",
                {
                    "table_id": table_id,
                    "seat": seat,
                    "seed": seed,
                    "worlds": worlds,
                    "review": dump(review),
                },
            )
