"""Move reviews kept per finished game and seat (``move_reviews``), so a review asked for
again is shown at once; a review made with another seed or budget is made anew."""

from __future__ import annotations

import logging
from typing import Protocol

from pydantic import TypeAdapter, ValidationError

from bot.storage.connection import Database, dump
from engine.review import Judgement

log = logging.getLogger(__name__)

_REVIEW = TypeAdapter(list[Judgement])


class Reviews(Protocol):
    """The stored move reviews of a database."""

    async def review(
        self, table_id: str, seat: int, seed: int, worlds: int
    ) -> list[Judgement] | None:
        """The stored review of ``seat`` made with ``seed`` and ``worlds`` (None: none, or
        one damaged in storage)."""

    async def keep(
        self, table_id: str, seat: int, seed: int, worlds: int, review: list[Judgement]
    ) -> None:
        """Store a review (replacing the seat's older one)."""


class SqlReviews:
    """Reviews in the ``move_reviews`` table."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def review(
        self, table_id: str, seat: int, seed: int, worlds: int
    ) -> list[Judgement] | None:
        """The stored review of ``seat`` made with ``seed`` and ``worlds`` (None: none, or
        one damaged in storage, logged)."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT review FROM move_reviews WHERE table_id = :table_id AND seat = :seat"
                " AND seed = :seed AND worlds = :worlds",
                {"table_id": table_id, "seat": seat, "seed": seed, "worlds": worlds},
            )
        if row is None:
            return None
        return stored_review(row[0], table_id, seat)

    async def keep(
        self, table_id: str, seat: int, seed: int, worlds: int, review: list[Judgement]
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


def stored_review(column: str | bytes, table_id: str, seat: int) -> list[Judgement] | None:
    """A stored review read back; None if it is damaged (not a list of judgements), as if
    none were kept: the reviewer makes it anew and stores it over the damaged one, rather
    than failing with an apology."""
    try:
        return _REVIEW.validate_json(column)
    except ValidationError as error:
        log.warning(
            "table %s: seat %d's stored move review could not be read back (%d errors);"
            " read as none kept",
            table_id,
            seat,
            error.error_count(),
        )
        return None
