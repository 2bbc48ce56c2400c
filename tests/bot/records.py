"""Finished games made up for scoreboard, stats and history tests."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, timedelta

from bot.storage import FinishedGame, FinishedSeat, SavedEvent

GUILD = 100
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def finished(
    table_id: str,
    places: dict[int | None, int],
    *,
    game_id: str = "fishing",
    guild_id: int = GUILD,
    scores: dict[int | None, int] | None = None,
    minute: int = 0,
    left: Collection[int] = (),
) -> FinishedGame:
    """A finished game; ``places`` maps user id (None: an AI seat) to place, in seat order.
    The users in ``left`` left early: the AI finished their seats."""
    seats = [
        FinishedSeat(
            seat=seat,
            user_id=user,
            name="AI" if user is None else f"user {user}",
            is_ai=user is None or user in left,
            score=(scores or {}).get(user, 10 - place),
            place=place,
            left_early=user in left,
        )
        for seat, (user, place) in enumerate(places.items())
    ]
    return FinishedGame(
        table_id=table_id,
        guild_id=guild_id,
        channel_id=10,
        game_id=game_id,
        options={},
        seed=1,
        started_at=START + timedelta(minutes=minute),
        ended_at=START + timedelta(minutes=minute, seconds=30),
        seats=seats,
        record={"game": game_id, "players": len(seats), "seed": 1, "options": {}, "actions": []},
        summary=[SavedEvent(revision=0, text=f"hand 1 of {table_id}", kind="hand_end")],
    )
