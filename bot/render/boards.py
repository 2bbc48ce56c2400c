"""Scoreboard and history pages, and the scoreboard-reset confirmation.

Their buttons are routed by custom_id (see bot/ui/routes.py), so paging works on any message,
also after a restart:

- ``cr:b:s:<owner>:<game>:<season>:<page>`` a scoreboard page (game ``all``; season 0: current)
- ``cr:b:h:<owner>:<game>:<page>`` a history page
- ``cr:c:<game>:<yes|no>`` confirm or refuse a scoreboard reset (a private message)

``owner`` is the user who asked: their clicks turn the page in place, anyone else's open the
page privately for them, so one person cannot flip a public board under everyone else.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.boards.ratings import PROVISIONAL_GAMES, ScoreRow, rating_text
from bot.render.messages import GREY, MEDALS, Message, button, new_view, timestamp
from bot.render.text import clip, plural
from bot.storage import HistoryRow
from engine.registry import games

SCOREBOARD_PAGE = 10
HISTORY_PAGE = 8
ALL = "all"  # the custom_id word for "every game" (no game has this id)


def game_name(game_id: str) -> str:
    """A game's name, or its id when it is no longer registered."""
    game = games().get(game_id)
    return game.name if game else game_id


def page_count(total: int, size: int) -> int:
    """Pages needed for ``total`` rows (at least one, for the empty page)."""
    return max(1, -(-total // size))


def _pager(prefix: str, page: int, has_next: bool) -> discord.ui.View | None:
    if page == 0 and not has_next:
        return None
    view = new_view()
    view.add_item(button(f"{prefix}:{max(page - 1, 0)}", "◀ Previous", disabled=page == 0))
    view.add_item(button(f"{prefix}:{page + 1}", "Next ▶", disabled=not has_next))
    return view


def scoreboard_message(
    rows: Sequence[ScoreRow], owner: int, game_id: str | None, season: int | None, page: int
) -> Message:
    """One page of a server's scoreboard (``rows``: the whole ranking, every page)."""
    pages = page_count(len(rows), SCOREBOARD_PAGE)
    page = min(max(page, 0), pages - 1)
    shown = rows[page * SCOREBOARD_PAGE : (page + 1) * SCOREBOARD_PAGE]
    what = game_name(game_id) if game_id else "all games"
    when = f"season {season}" if season else "this season"
    lines = [_score_line(row, with_game=game_id is None) for row in shown]
    embed = discord.Embed(
        title=f"Scoreboard — {what}, {when}",
        description=clip("\n".join(lines) or "No finished games with players yet.", 4000),
        colour=GREY,
    )
    embed.set_footer(
        text=(
            f"Page {page + 1}/{pages} · rating: from places against other people, 1000 to "
            f"start; ? = provisional (under {PROVISIONAL_GAMES} rated games) · games against "
            "the AI count for games and wins, not the rating"
        )
    )
    prefix = f"cr:b:s:{owner}:{game_id or ALL}:{season or 0}"
    return Message(embed, _pager(prefix, page, page < pages - 1))


def _score_line(row: ScoreRow, *, with_game: bool) -> str:
    game = f" · {game_name(row.game_id)}" if with_game else ""
    return (
        f"{row.rank}. **{row.name}**{game} — rating {rating_text(row.rating, row.provisional)} · "
        f"{plural(row.games, 'game')}, {plural(row.wins, 'win')} ({row.win_rate:.0%})"
    )


def history_message(
    rows: Sequence[HistoryRow], owner: int, game_id: str | None, page: int, has_next: bool
) -> Message:
    """One page of a server's finished games, newest first."""
    what = game_name(game_id) if game_id else "all games"
    entries = [_history_entry(row) for row in rows]
    embed = discord.Embed(
        title=f"Recent games — {what}",
        description=clip("\n\n".join(entries) or "No finished games here yet.", 4000),
        colour=GREY,
    )
    embed.set_footer(text=f"Page {page + 1} · 🤖 = an AI seat")
    return Message(embed, _pager(f"cr:b:h:{owner}:{game_id or ALL}", page, has_next))


def _history_entry(row: HistoryRow) -> str:
    seats = sorted(row.seats, key=lambda seat: (seat.place, seat.seat))
    results = ", ".join(
        f"{MEDALS.get(seat.place, '')}{seat.place}. {seat.name}{' 🤖' if seat.is_ai else ''}"
        f" {seat.score}"
        for seat in seats
    )
    return (
        f"**{game_name(row.game_id)}** · {timestamp(row.ended_at)} · season {row.season} · "
        f"table {row.table_id}\n{results}"
    )


def reset_confirm_message(game_id: str | None) -> Message:
    """The private question /scoreboard-reset asks before starting a new season."""
    what = game_name(game_id) if game_id else "every game"
    view = new_view()
    target = game_id or ALL
    view.add_item(button(f"cr:c:{target}:yes", "Reset", discord.ButtonStyle.danger))
    view.add_item(button(f"cr:c:{target}:no", "Keep"))
    embed = discord.Embed(
        title="Start a new scoreboard season?",
        description=(
            f"The scoreboard of {what} on this server starts again from zero. Nothing is "
            "deleted: older seasons stay in `/scoreboard season:` and `/game history`."
        ),
        colour=GREY,
    )
    return Message(embed, view)
