"""Finished games and what is read from them: seasons, places for ratings, totals, history.

``Results`` is what the bot needs from any backend; ``SqlResults`` keeps them in SQLite or
PostgreSQL (the same statements). It returns rows only: ratings and rankings are computed by
``bot/boards``.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any, Protocol

from pydantic import TypeAdapter, ValidationError

from bot.storage.connection import Database, Sql, dump, from_text, to_text, written_anyway
from bot.storage.errors import RevisionConflictError
from bot.storage.models import (
    FinishedGame,
    FinishedSeat,
    HistoryRow,
    PlacedSeat,
    PlayerTotals,
    RecordedGame,
    ReplayedGame,
    SavedEvent,
    ScoredGame,
)
from bot.storage.running import RunningGames
from engine.registry import games

_HANDS = TypeAdapter(list[SavedEvent | str])
_RECORD = TypeAdapter(dict[str, Any])

# A player's totals per game on a server (``player_totals``): the player's seats first, then
# each one's game (CROSS JOIN keeps that order in SQLite), both read from covering indexes
# (migration 009), not from every seat row and game row.
PLAYER_TOTALS = """
    WITH seats AS (
        SELECT g.game_id, s.place, s.left_early,
            CASE WHEN s.left_early = 1 THEN NULL ELSE s.score END AS played_score
        FROM finished_seats AS s CROSS JOIN finished_games AS g
        WHERE s.user_id = :user_id AND g.table_id = s.table_id AND g.guild_id = :guild_id
    )
    SELECT game_id, COUNT(*), COUNT(*) FILTER (WHERE place = 1 AND left_early = 0),
        MAX(played_score), MIN(played_score), CAST(AVG(played_score) AS DOUBLE PRECISION)
    FROM seats GROUP BY game_id ORDER BY game_id
"""


class Results(Protocol):
    """The finished games of a database, with seasons."""

    async def finish(self, game: FinishedGame, expected: int | None = None) -> None:
        """Record a finished game and delete its running row, all or nothing; with
        ``expected``, only if the running row is at that revision (else
        RevisionConflictError)."""

    async def replay_record(self, table_id: str) -> dict[str, Any] | None:
        """The replay record of a finished game, or None (none stored, or one damaged in
        storage)."""

    async def replayed(self, table_id: str) -> ReplayedGame | None:
        """A finished game's server, seats and replay record, or None (no such finished
        game: a running game has none)."""

    async def current_season(self, guild_id: int, game_id: str) -> int:
        """The season new results of ``game_id`` on this server go to (1 until a reset)."""

    async def reset_season(self, guild_id: int, game_id: str | None = None) -> int:
        """Start a new season of ``game_id`` (None: of every game); returns its number."""

    async def game_ids(self, guild_id: int) -> list[str]:
        """The games with finished games on this server, in id order."""

    async def played(self) -> list[tuple[int, str]]:
        """Every (server, game) with finished games."""

    async def season_places(
        self, guild_id: int, game_id: str, season: int, after: int = 0
    ) -> list[RecordedGame]:
        """The seats with a person of the games of a season recorded after game ``after``, in
        record order (a person who left early placed last)."""

    async def score_places(self, guild_id: int, game_id: str, after: int = 0) -> list[ScoredGame]:
        """(score, place) of every seat of the games of ``game_id`` here recorded after game
        ``after``, in record order."""

    async def player_totals(self, guild_id: int, user_id: int) -> list[PlayerTotals]:
        """A player's totals per game on this server, in game id order."""

    async def history(
        self, guild_id: int, limit: int = 10, offset: int = 0, game_id: str | None = None
    ) -> list[HistoryRow]:
        """This server's finished games, newest first, ``limit`` after the ``offset`` newest."""


class SqlResults:
    """Finished games in the database's ``finished_games``, ``finished_seats``,
    ``replay_records`` and ``seasons``."""

    def __init__(self, database: Database, running: RunningGames) -> None:
        self._db = database
        self._running = running

    async def finish(self, game: FinishedGame, expected: int | None = None) -> None:
        """Write a finished game in ONE transaction, all or nothing.

        Deletes the running row, inserts the game (in its server's current season), one row per
        seat and the replay record: one INSERT into the view ``finish_game``, whose trigger
        (migrations 003, 005) writes the rows. With ``expected``, the running row must be at
        that revision (it is deleted first, only at that revision, which a racing writer cannot
        slip between): RevisionConflictError if another writer saved, finished or removed the
        game first. On any failure nothing is written and the running row stays. A lost
        reply is settled by reading whether the finished game is stored (as for a save).
        """
        try:
            await self._finish(game, expected)
        except RevisionConflictError:
            raise
        except Exception as error:
            if not await written_anyway(
                self._db,
                error,
                f"table {game.table_id}: finishing it",
                "SELECT 1 FROM finished_games WHERE table_id = :table_id"
                " AND ended_at = :ended_at AND NOT EXISTS"
                " (SELECT 1 FROM running_games WHERE table_id = :table_id)",
                {"table_id": game.table_id, "ended_at": to_text(game.ended_at)},
            ):
                raise

    async def _finish(self, game: FinishedGame, expected: int | None) -> None:
        async with self._db.transaction() as sql:
            self._running.forget(game.table_id)
            if expected is not None:
                deleted = await sql.fetchone(
                    "DELETE FROM running_games WHERE table_id = :table_id"
                    " AND revision = :expected RETURNING revision",
                    {"table_id": game.table_id, "expected": expected},
                )
                if deleted is None:
                    raise RevisionConflictError(
                        f"table {game.table_id}: another writer saved or ended this game first"
                        f" (finishing it expected revision {expected})"
                    )
            await sql.execute(
                """
                INSERT INTO finish_game (table_id, guild_id, channel_id, game_id, options, seed,
                    started_at, ended_at, has_ai, summary, seats, record)
                VALUES (:table_id, :guild_id, :channel_id, :game_id, :options, :seed,
                    :started_at, :ended_at, :has_ai, :summary, :seats, :record)
                """,
                {
                    "table_id": game.table_id,
                    "guild_id": game.guild_id,
                    "channel_id": game.channel_id,
                    "game_id": game.game_id,
                    "options": dump(game.options),
                    "seed": game.seed,
                    "started_at": to_text(game.started_at),
                    "ended_at": to_text(game.ended_at),
                    "has_ai": int(game.has_ai),
                    "summary": dump(game.summary),
                    "seats": dump(game.seats),
                    "record": dump(game.record),
                },
            )

    async def replay_record(self, table_id: str) -> dict[str, Any] | None:
        """The replay record of a finished game (for ``python -m engine replay``), or None
        (none stored, or one damaged in storage: ``stored_record``)."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT record FROM replay_records WHERE table_id = :table_id",
                {"table_id": table_id},
            )
        return None if row is None else stored_record(row[0])

    async def replayed(self, table_id: str) -> ReplayedGame | None:
        """A finished game's server, seats and replay record, or None (no such finished
        game: a running game has none)."""
        async with self._db.session() as sql:
            row = await sql.fetchone(
                "SELECT g.guild_id, r.record FROM finished_games g"
                " JOIN replay_records r ON r.table_id = g.table_id WHERE g.table_id = :table_id",
                {"table_id": table_id},
            )
            if row is None:
                return None
            seat_rows = await sql.fetchall(
                "SELECT seat, user_id, name, is_ai, score, place, left_early FROM finished_seats"
                " WHERE table_id = :table_id ORDER BY seat",
                {"table_id": table_id},
            )
        seats = [finished_seat(*seat_row) for seat_row in seat_rows]
        return ReplayedGame(
            table_id=table_id, guild_id=row[0], seats=seats, record=stored_record(row[1])
        )

    # -- seasons -------------------------------------------------------------------------------
    async def current_season(self, guild_id: int, game_id: str) -> int:
        """The season new results of ``game_id`` on this server go to (1 until a reset)."""
        async with self._db.session() as sql:
            return await self._current_season(sql, guild_id, game_id)

    @staticmethod
    async def _current_season(sql: Sql, guild_id: int, game_id: str) -> int:
        row = await sql.fetchone(
            "SELECT COALESCE(MAX(season), 1) FROM seasons"
            " WHERE guild_id = :guild_id AND game_id = :game_id",
            {"guild_id": guild_id, "game_id": game_id},
        )
        return int(row[0]) if row else 1

    async def reset_season(self, guild_id: int, game_id: str | None = None) -> int:
        """Start a new season of ``game_id`` (None: of every game); returns its number.

        Nothing is deleted: older seasons stay queryable. With None every registered or
        recorded game moves on, and the highest new number is returned.
        """
        async with self._db.transaction() as sql:
            if game_id is None:
                rows = await sql.fetchall(
                    "SELECT game_id FROM finished_games WHERE guild_id = :guild_id"
                    " UNION SELECT game_id FROM seasons WHERE guild_id = :guild_id",
                    {"guild_id": guild_id},
                )
                game_ids = sorted({*games(), *(row[0] for row in rows)})
            else:
                game_ids = [game_id]
            started = to_text(datetime.now(UTC))
            newest = 1
            for each in game_ids:
                season = await self._current_season(sql, guild_id, each) + 1
                await sql.execute(
                    "INSERT INTO seasons (guild_id, game_id, season, started_at)"
                    " VALUES (:guild_id, :game_id, :season, :started_at)",
                    {
                        "guild_id": guild_id,
                        "game_id": each,
                        "season": season,
                        "started_at": started,
                    },
                )
                newest = max(newest, season)
        return newest

    # -- what scoreboards, stats and history read -----------------------------------------------
    async def game_ids(self, guild_id: int) -> list[str]:
        """The games with finished games on this server, in id order."""
        async with self._db.session() as sql:
            rows = await sql.fetchall(
                "SELECT DISTINCT game_id FROM finished_games WHERE guild_id = :guild_id"
                " ORDER BY game_id",
                {"guild_id": guild_id},
            )
        return [row[0] for row in rows]

    async def played(self) -> list[tuple[int, str]]:
        """Every (server, game) with finished games."""
        async with self._db.session() as sql:
            rows = await sql.fetchall(
                "SELECT DISTINCT guild_id, game_id FROM finished_games ORDER BY guild_id, game_id"
            )
        return [(row[0], row[1]) for row in rows]

    async def season_places(
        self, guild_id: int, game_id: str, season: int, after: int = 0
    ) -> list[RecordedGame]:
        """The seats with a person of every game of a season recorded after game ``after``
        (0: all), in record order; games without a person are left out. A person who left
        early is placed last, after every seat played to the end."""
        async with self._db.session() as sql:
            rows = await sql.fetchall(
                """
                SELECT g.recorded, s.user_id, s.name, s.place, s.left_early,
                    MAX(s.place) OVER (PARTITION BY g.recorded)
                FROM finished_games AS g JOIN finished_seats AS s ON s.table_id = g.table_id
                WHERE g.guild_id = :guild_id AND g.game_id = :game_id AND g.season = :season
                    AND g.recorded > :after
                ORDER BY g.recorded, s.seat
                """,
                {"guild_id": guild_id, "game_id": game_id, "season": season, "after": after},
            )
        games: dict[int, list[PlacedSeat]] = {}
        for recorded, user_id, name, place, left_early, last in rows:
            seats = games.setdefault(recorded, [])
            if user_id is not None:
                seats.append(PlacedSeat(user_id, name, last + 1 if left_early else place))
        return [RecordedGame(recorded, seats) for recorded, seats in games.items() if seats]

    async def score_places(self, guild_id: int, game_id: str, after: int = 0) -> list[ScoredGame]:
        """(score, place) of every seat of this server's games of ``game_id`` recorded after
        game ``after`` (0: all), in record order."""
        async with self._db.session() as sql:
            rows = await sql.fetchall(
                """
                SELECT g.recorded, s.score, s.place
                FROM finished_games AS g JOIN finished_seats AS s ON s.table_id = g.table_id
                WHERE g.guild_id = :guild_id AND g.game_id = :game_id AND g.recorded > :after
                ORDER BY g.recorded, s.seat
                """,
                {"guild_id": guild_id, "game_id": game_id, "after": after},
            )
        games: dict[int, list[tuple[int, int]]] = {}
        for recorded, score, place in rows:
            games.setdefault(recorded, []).append((score, place))
        return [ScoredGame(recorded, scores) for recorded, scores in games.items()]

    async def player_totals(self, guild_id: int, user_id: int) -> list[PlayerTotals]:
        """A player's games, wins, highest, lowest and average score per game on this server
        (all seasons), in game id order; only games the player played. A game left early is a
        game and no win, and its seat's score is not the player's."""
        async with self._db.session() as sql:
            rows = await sql.fetchall(PLAYER_TOTALS, {"guild_id": guild_id, "user_id": user_id})
        return [PlayerTotals(*row) for row in rows]

    async def history(
        self, guild_id: int, limit: int = 10, offset: int = 0, game_id: str | None = None
    ) -> list[HistoryRow]:
        """This server's finished games (of ``game_id``; None: all), newest first, with every
        seat: ``limit`` of them after skipping the ``offset`` newest."""
        async with self._db.session() as sql:
            games_rows = await sql.fetchall(
                "SELECT table_id, game_id, season, ended_at, has_ai, summary FROM finished_games"
                " WHERE guild_id = :guild_id"
                " AND (CAST(:game_id AS TEXT) IS NULL OR game_id = :game_id)"
                " ORDER BY ended_at DESC, table_id DESC LIMIT :limit OFFSET :offset",
                {"guild_id": guild_id, "game_id": game_id, "limit": limit, "offset": offset},
            )
            ids = {f"id{n}": row[0] for n, row in enumerate(games_rows)}
            seat_rows = (
                await sql.fetchall(
                    "SELECT table_id, seat, user_id, name, is_ai, score, place, left_early"
                    " FROM finished_seats"
                    f" WHERE table_id IN ({', '.join(f':{name}' for name in ids)})"
                    " ORDER BY table_id, seat",
                    ids,
                )
                if ids
                else []
            )
        seats: dict[str, list[FinishedSeat]] = defaultdict(list)
        for table_id, *seat_row in seat_rows:
            seats[table_id].append(finished_seat(*seat_row))
        return [
            HistoryRow(
                table_id=table_id,
                game_id=game_id,
                season=season,
                ended_at=from_text(ended_at),
                seats=seats[table_id],
                has_ai=bool(has_ai),
                summary=stored_hands(summary),
            )
            for table_id, game_id, season, ended_at, has_ai, summary in games_rows
        ]


def stored_hands(column: str | bytes) -> list[SavedEvent | str] | None:
    """A finished game's ``summary`` column read back; None if it is damaged (not a list of
    hands), which the history shows plainly rather than failing the whole page."""
    try:
        return _HANDS.validate_json(column)
    except ValidationError:
        return None


def stored_record(column: str | bytes) -> dict[str, Any] | None:
    """A finished game's replay record read back; None if it is damaged (not a JSON object),
    which ``/game replay`` answers plainly rather than with an apology."""
    try:
        return _RECORD.validate_json(column)
    except ValidationError:
        return None


def finished_seat(
    seat: int, user_id: int | None, name: str, is_ai: int, score: int, place: int, left_early: int
) -> FinishedSeat:
    """A ``finished_seats`` row read back (its columns from ``seat`` on, in order)."""
    return FinishedSeat(
        seat=seat,
        user_id=user_id,
        name=name,
        is_ai=bool(is_ai),
        score=score,
        place=place,
        left_early=bool(left_early),
    )
