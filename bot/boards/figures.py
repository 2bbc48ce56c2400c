"""The words and figures of the boards, apart from their buttons: the overall ranking, a
scoreboard row, a history entry, a player's stats; in the active language, their numbers
written as ``language`` writes them (Babel)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.boards.ratings import PROVISIONAL_GAMES, ScoreRow, StatsRow, rating_text
from bot.i18n import number, percent
from bot.storage import HistoryRow
from bot.tables.records import UnreadableLines, summary_of
from bot.text import clip, earlier_not_shown, said
from bot.ui import GREY, MEDALS, Message, game_name, layout, small, timestamp
from engine.words import N_, _, ngettext

OVERALL = "overall"  # the scoreboard of every game together, ranked by wins
# characters of a game's hand-by-hand scores in the history (as shown, small): its latest
# hands, so that a page of games stays within Discord's 4,000 (its replay shows every hand)
HANDS_BUDGET = 220
# in place of a game's hands stored damaged (not a list of hands): the rest of it is shown
UNREADABLE_HANDS = N_("⚠ This game's hands could not be read back.")


def played_scores(row: StatsRow, language: str) -> str:
    """A stats line's scores, which count only games played to the end; where the lowest
    score wins, the best is the lowest, and the line says so."""
    if row.average_score is None:
        return _("no game played to the end")
    scores = {
        "best": number(row.best_score or 0, language),
        "average": number(row.average_score, language, "#,##0.0"),
    }
    if row.lowest_wins:
        return _("best {best} (low scores win) · average {average}").format(**scores)
    return _("best {best} · average {average}").format(**scores)


def games_and_wins(games: int, wins: int, language: str) -> str:
    """How many games and wins, and the share won: ``3 games, 2 wins (67%)``."""
    return _("{games}, {wins} ({share})").format(
        games=ngettext("{count} game", "{count} games", games).format(count=games),
        wins=ngettext("{count} win", "{count} wins", wins).format(count=wins),
        share=percent(wins / games if games else 0, language),
    )


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


def score_line(row: ScoreRow, language: str) -> str:
    """A scoreboard row: rank, name, rating (not in the overall view), games and wins."""
    figures = games_and_wins(row.games, row.wins, language)
    if row.game_id == OVERALL:
        return _("{rank}. **{name}** — {figures}").format(
            rank=row.rank, name=row.name, figures=figures
        )
    rating = rating_text(row.rating, row.provisional)
    return _("{rank}. **{name}** — rating {rating} · {figures}").format(
        rank=row.rank, name=row.name, rating=rating, figures=figures
    )


def history_entry(row: HistoryRow, unreadable: UnreadableLines) -> str:
    """A finished game in the history: the game, when, each seat's place and score with its
    latest hands' scores under them (damaged ones reported to ``unreadable``), and its table
    id."""
    seats = sorted(row.seats, key=lambda seat: (seat.place, seat.seat))
    results = ", ".join(
        f"{MEDALS.get(seat.place, '')}{seat.place}. {'🤖 ' if seat.is_ai else ''}{seat.name}"
        f" {seat.score}"
        for seat in seats
    )
    # a Discord timestamp: each reader's client writes the date in their own language
    return _("**{game}** · {when} · season {season}\n{results}\n-# table {table}").format(
        game=_(game_name(row.game_id)),
        when=timestamp(row.ended_at),
        season=row.season,
        results="\n".join(filter(None, (results, latest_hands(row, unreadable)))),
        table=row.table_id,
    )


def latest_hands(row: HistoryRow, unreadable: UnreadableLines) -> str:
    """A finished game's latest hands' scores, small, as many as ``HANDS_BUDGET`` holds, in
    the active language (a game stored before they were kept as message ids reads in
    English, as it was written; hands damaged in storage are marked so, and reported to
    ``unreadable``)."""
    if row.summary is None:
        unreadable.report(row.table_id, "hands", "not stored as a list of hands")
        return small([_(UNREADABLE_HANDS)])
    names = [seat.name for seat in sorted(row.seats, key=lambda seat: seat.seat)]
    hands = [said(summary_of(saved, row.table_id, unreadable), names) for saved in row.summary]
    shown = ""
    for kept in range(len(hands), 0, -1):
        earlier = len(hands) - kept
        note = [earlier_not_shown(earlier)] if earlier else []
        shown = small([*note, *hands[-kept:]])
        if len(shown) <= HANDS_BUDGET:
            break
    return clip(shown, HANDS_BUDGET)  # the last hand alone is too long: the start of it


def stats_message(name: str, rows: Sequence[StatsRow], language: str) -> Message:
    """A player's figures as a small table per game: games and wins, scores, rating."""
    tables = [
        _(
            "**{game}**\n`games   ` {games} · {wins} ({share})\n`scores  ` {scores}\n"
            "`rating  ` {rating} after {season_games} of season {season}"
        ).format(
            game=_(game_name(row.game_id)),
            games=number(row.games, language),
            wins=ngettext("{count} win", "{count} wins", row.wins).format(count=row.wins),
            share=percent(row.wins / row.games, language),
            scores=played_scores(row, language),
            rating=rating_text(row.rating, row.provisional),
            season_games=ngettext("{count} game", "{count} games", row.season_games).format(
                count=row.season_games
            ),
            season=row.season,
        )
        for row in rows
    ]
    return Message(
        layout(
            clip(
                _("## Stats — {name}").format(name=name)
                + "\n"
                + ("\n\n".join(tables) or _("No finished games on this server yet.")),
                3500,
            ),
            small(
                [
                    _(
                        "Scores count games played to the end. Rating: this season; "
                        "? = provisional (under {count} rated games)."
                    ).format(count=PROVISIONAL_GAMES)
                ]
            ),
            colour=GREY,
        )
    )


def notice_message(text: str) -> Message:
    """A short answer in place of a question (no controls)."""
    return Message(layout(text, colour=GREY))
