"""The stored forms of a table's data (``TableData``): the running game saved with every
move, and a finished game's record (places from scores)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from bot.storage import FinishedGame, FinishedSeat, SavedGame, TableLog
from bot.tables.records import TableData, saved_summary


def places_of(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Places by score: winners first (1); the rest ranked in the winners' direction.

    >>> places_of([10, 25, 25, 3], [1, 2])
    [3, 1, 1, 4]
    >>> places_of([4, -1, 9], [1])
    [2, 1, 3]
    """
    if not scores:
        return []
    winner_scores = [scores[seat] for seat in winners] or [max(scores)]
    others = [s for i, s in enumerate(scores) if i not in winners]
    high_wins = not others or min(winner_scores) >= max(others)
    key: Callable[[int], int] = (lambda s: -s) if high_wins else (lambda s: s)
    places: list[int] = []
    for seat, score in enumerate(scores):
        if seat in winners:
            places.append(1)
            continue
        better = len(winners) + sum(
            1 for i, s in enumerate(scores) if i not in winners and key(s) < key(score)
        )
        places.append(better + 1)
    return places


def finished_game(table: TableData, ended_at: datetime) -> FinishedGame:
    """The stored result of a game that is over: seats with scores and places, the replay
    record and the hand-by-hand summaries."""
    state = table.state
    scores = state.scores()
    places = places_of(scores, state.winners())
    return FinishedGame(
        table_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        game_id=table.game.id,
        options=dict(table.options),
        seed=table.seed,
        started_at=table.started_at,
        ended_at=ended_at,
        seats=[
            FinishedSeat(
                seat=index,
                user_id=seat.user_id,
                name=seat.name,
                is_ai=seat.is_ai or seat.user_id is None,
                score=scores[index],
                place=places[index],
                # a person's seat the AI finished: they left (a loss for them)
                left_early=seat.is_ai and seat.user_id is not None,
            )
            for index, seat in enumerate(table.seats)
        ],
        record={
            "game": table.game.id,
            "players": state.players,
            "seed": table.seed,
            "options": dict(table.options),
            "actions": [list(action) for action in table.actions],
        },
        summary=[saved_summary(event) for event in table.summaries],
    )


def saved_game(table: TableData) -> SavedGame:
    """The stored form of a running game (saved with every accepted move)."""
    return SavedGame(
        table_id=table.table_id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        host_id=table.host_id,
        game_id=table.game.id,
        options=dict(table.options),
        seed=table.seed,
        seats=[seat.record() for seat in table.seats],
        state=table.state.to_json(),
        revision=table.revision,
        actions=table.actions,
        table_message_id=table.table_message_id,
        deadline=min(table.deadlines.values()) if table.deadlines else None,
        started_at=table.started_at,
        turn_seconds=table.turn_seconds,
        parent_channel_id=table.parent_channel_id,
        table_log=TableLog(
            events=[entry.record() for entry in table.log],
            summaries=[saved_summary(event) for event in table.summaries],
            deals=table.deals,
            round_end=None if table.round_end is None else table.round_end.record(),
            language=table.language,
        ),
    )
