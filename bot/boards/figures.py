"""The words and figures of the boards, apart from their buttons: the overall ranking, a
scoreboard row, a history entry, a player's stats."""

from __future__ import annotations

from collections.abc import Sequence

from bot.boards.ratings import PROVISIONAL_GAMES, ScoreRow, StatsRow, rating_text
from bot.storage import HistoryRow
from bot.text import clip, plural
from bot.ui import GREY, MEDALS, Message, game_name, layout, small, timestamp

OVERALL = "overall"  # the scoreboard of every game together, ranked by wins


def played_scores(row: StatsRow) -> str:
    """A stats line's scores, which count only games played to the end; where the lowest
    score wins, the best is the lowest, and the line says so."""
    if row.average_score is None:
        return "no game played to the end"
    best = f"best {row.best_score}" + (" (low scores win)" if row.lowest_wins else "")
    return f"{best} · average {row.average_score:.1f}"


def overall(rows: Sequence[ScoreRow]) -> list[ScoreRow]:
    """Every game's rows as one ranking by wins, then win rate, then games: ratings of
    different games are not comparable, wins are (each row's rating is left out: 0)."""
    wins: dict[int, int] = {}
    games: dict[int, int] = {}
    names: dict[int, str] = {}
    for row in rows:
        wins[row.user_id] = wins.get(row.user_id, 0) + row.wins
        games[row.user_id] = games.get(row.user_id, 0) + row.games
        names.setdefault(row.user_id, row.name)
    order = sorted(wins, key=lambda user: (-wins[user], -wins[user] / games[user], -games[user]))
    return [
        ScoreRow(
            user_id=user,
            name=names[user],
            game_id=OVERALL,
            season=0,
            games=games[user],
            wins=wins[user],
            win_rate=wins[user] / games[user],
            rating=0,
            provisional=False,
            rank=rank,
        )
        for rank, user in enumerate(order, start=1)
    ]


def score_line(row: ScoreRow) -> str:
    """A scoreboard row: rank, name, rating (not in the overall view), games and wins."""
    figures = f"{plural(row.games, 'game')}, {plural(row.wins, 'win')} ({row.win_rate:.0%})"
    if row.game_id == OVERALL:
        return f"{row.rank}. **{row.name}** — {figures}"
    rating = rating_text(row.rating, row.provisional)
    return f"{row.rank}. **{row.name}** — rating {rating} · {figures}"


def history_entry(row: HistoryRow) -> str:
    """A finished game in the history: the game, when, each seat's place and score."""
    seats = sorted(row.seats, key=lambda seat: (seat.place, seat.seat))
    results = ", ".join(
        f"{MEDALS.get(seat.place, '')}{seat.place}. {'🤖 ' if seat.is_ai else ''}{seat.name}"
        f" {seat.score}"
        for seat in seats
    )
    when = f"{timestamp(row.ended_at)} · season {row.season}"
    return f"**{game_name(row.game_id)}** · {when}\n{results}\n-# table {row.table_id}"


def stats_message(name: str, rows: Sequence[StatsRow]) -> Message:
    """A player's figures as a small table per game: games and wins, scores, rating."""
    tables = [
        f"**{game_name(row.game_id)}**\n"
        f"`games   ` {row.games} · {plural(row.wins, 'win')} ({row.wins / row.games:.0%})\n"
        f"`scores  ` {played_scores(row)}\n"
        f"`rating  ` {rating_text(row.rating, row.provisional)} after "
        f"{plural(row.season_games, 'game')} of season {row.season}"
        for row in rows
    ]
    return Message(
        layout(
            clip(
                f"## Stats — {name}\n"
                + ("\n\n".join(tables) or "No finished games on this server yet."),
                3500,
            ),
            small(
                [
                    "Scores count games played to the end. Rating: this season; "
                    f"? = provisional (under {PROVISIONAL_GAMES} rated games)."
                ]
            ),
            colour=GREY,
        )
    )


def notice_message(text: str) -> Message:
    """A short answer in place of a question (no controls)."""
    return Message(layout(text, colour=GREY))
