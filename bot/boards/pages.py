"""Scoreboard and history pages, their page buttons, and the season-reset confirmation.

The slash commands (``bot.boards.commands``, ``/game history``) and the page buttons share
these functions, so a page looks the same however it was reached. Custom_ids, each built and
parsed by its class:

- ``cr:scoreboard:<owner>:<game>:<season>:<page>`` (game ``all``; season 0: the current one)
- ``cr:history:<owner>:<game>:<page>``
- ``cr:season-reset:<game>:<reset|keep>`` on the private confirmation

``owner`` is the user who asked: their clicks turn the page in place, anyone else's open the
page privately for them, so one person cannot flip a public board under everyone else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.answers import answer_click
from bot.boards.ratings import ScoreRow, StatsRow
from bot.errors import UserError
from bot.storage import HistoryRow
from bot.text import clip, plural
from bot.ui import GREY, MEDALS, Message, button, game_name, new_view, timestamp

if TYPE_CHECKING:
    from bot.app import CardroomBot

SCOREBOARD_PAGE = 10
HISTORY_PAGE = 8
ALL = "all"  # the custom_id word for "every game" (no game has this id)
GAME = r"(?P<game>[a-z0-9_]+)"


def _bot(interaction: discord.Interaction) -> CardroomBot:
    return cast("CardroomBot", interaction.client)


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("Scoreboards belong to a server; use this in a server channel.")
    return interaction.guild_id


def _game(word: str) -> str | None:
    return None if word == ALL else word


def played_scores(row: StatsRow) -> str:
    """A stats line's scores, which count only games played to the end."""
    if row.average_score is None:
        return "no game played to the end"
    return f"best score {row.best_score}, average {row.average_score:.1f}"


def page_count(total: int, size: int) -> int:
    """Pages needed for ``total`` rows (at least one, for the empty page)."""
    return max(1, -(-total // size))


# -- the buttons --------------------------------------------------------------------------------
class ScoreboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:scoreboard:(?P<owner>\d+):{GAME}:(?P<season>\d+):(?P<page>\d+)",
):
    """◀ Previous or Next ▶ under a scoreboard."""

    def __init__(
        self, owner: int, game_id: str | None, season: int | None, page: int, *, label: str = ""
    ) -> None:
        self.owner, self.game_id, self.season, self.page = owner, game_id, season, page
        custom_id = f"cr:scoreboard:{owner}:{game_id or ALL}:{season or 0}:{page}"
        super().__init__(button(custom_id, label or "·"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ScoreboardPageButton:
        season = int(match["season"]) or None
        return cls(int(match["owner"]), _game(match["game"]), season, int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page."""

        async def turn() -> None:
            page = await scoreboard_page(interaction, self.game_id, self.season, self.page)
            await answer_page(interaction, self.owner, page)

        await answer_click(interaction, turn)


class HistoryPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:history:(?P<owner>\d+):{GAME}:(?P<page>\d+)",
):
    """◀ Previous or Next ▶ under a server's history."""

    def __init__(self, owner: int, game_id: str | None, page: int, *, label: str = "") -> None:
        self.owner, self.game_id, self.page = owner, game_id, page
        super().__init__(button(f"cr:history:{owner}:{game_id or ALL}:{page}", label or "·"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryPageButton:
        return cls(int(match["owner"]), _game(match["game"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page."""

        async def turn() -> None:
            page = await history_page(interaction, self.game_id, self.page)
            await answer_page(interaction, self.owner, page)

        await answer_click(interaction, turn)


class SeasonResetButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:season-reset:{GAME}:(?P<answer>reset|keep)",
):
    """Reset or Keep on the private /scoreboard-reset question."""

    def __init__(self, game_id: str | None, answer: str) -> None:
        self.game_id, self.answer = game_id, answer
        label, style = (
            ("Reset", discord.ButtonStyle.danger)
            if answer == "reset"
            else ("Keep", discord.ButtonStyle.secondary)
        )
        super().__init__(button(f"cr:season-reset:{game_id or ALL}:{answer}", label, style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeasonResetButton:
        return cls(_game(match["game"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Start the new season, or leave things as they are."""
        await answer_click(interaction, lambda: self._answer(interaction))

    async def _answer(self, interaction: discord.Interaction) -> None:
        # the question is private, so only the person who asked can click here
        if self.answer != "reset":
            await interaction.response.edit_message(
                content="Nothing was reset.", embed=None, view=None
            )
            return
        if not interaction.permissions.manage_guild:
            raise UserError("You need the Manage Server permission to reset the scoreboard.")
        results = _bot(interaction).storage.results
        season = await results.reset_season(_guild(interaction), self.game_id)
        what = game_name(self.game_id) if self.game_id else "every game"
        await interaction.response.edit_message(
            content=(
                f"A new season has begun for {what} (season {season}). Older seasons stay "
                f"available with `/scoreboard season:`."
            ),
            embed=None,
            view=None,
        )


BUTTONS = (ScoreboardPageButton, HistoryPageButton, SeasonResetButton)


# -- fetching and answering ---------------------------------------------------------------------
async def scoreboard_page(
    interaction: discord.Interaction, game_id: str | None, season: int | None, page: int
) -> Message:
    """A page of this server's scoreboard for ``game_id`` (None: all games)."""
    bot = _bot(interaction)
    guild_id = _guild(interaction)
    if season is not None and game_id is not None:
        current = await bot.storage.results.current_season(guild_id, game_id)
        if season > current:
            raise UserError(
                f"{game_name(game_id)} is in season {current} here; season {season} has not begun."
            )
    rows = await bot.ratings.scoreboard(guild_id, game_id, season)
    return scoreboard_message(rows, interaction.user.id, game_id, season, page)


async def history_page(interaction: discord.Interaction, game_id: str | None, page: int) -> Message:
    """A page of this server's finished games, newest first."""
    # one row more than a page says whether there is a next page without counting them all
    rows = await _bot(interaction).storage.results.history(
        _guild(interaction), HISTORY_PAGE + 1, page * HISTORY_PAGE, game_id
    )
    has_next = len(rows) > HISTORY_PAGE
    return history_message(rows[:HISTORY_PAGE], interaction.user.id, game_id, page, has_next)


async def answer_page(interaction: discord.Interaction, owner: int, message: Message) -> None:
    """Turn the page in place for its owner; show it privately to anyone else."""
    if interaction.user.id == owner:
        await interaction.response.edit_message(**message.kwargs())
    else:
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())


async def ask_reset(interaction: discord.Interaction, game_id: str | None) -> None:
    """/scoreboard-reset: ask privately for a confirmation (Manage Server only)."""
    _guild(interaction)
    if not interaction.permissions.manage_guild:
        raise UserError("You need the Manage Server permission to reset the scoreboard.")
    message = reset_confirm_message(game_id)
    await interaction.response.send_message(ephemeral=True, **message.send_kwargs())


# -- the messages -------------------------------------------------------------------------------
def _pager(
    previous: discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    following: discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    page: int,
    has_next: bool,
) -> discord.ui.View | None:
    if page == 0 and not has_next:
        return None
    previous.item.disabled = page == 0
    following.item.disabled = not has_next
    return new_view(previous, following)


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
            f"Page {page + 1}/{pages} · rating: openskill μ − 3σ, from places against other "
            "people · games against the AI count for games and wins, not the rating"
        )
    )
    view = _pager(
        ScoreboardPageButton(owner, game_id, season, max(page - 1, 0), label="◀ Previous"),
        ScoreboardPageButton(owner, game_id, season, page + 1, label="Next ▶"),
        page,
        page < pages - 1,
    )
    return Message(embed, view)


def _score_line(row: ScoreRow, *, with_game: bool) -> str:
    game = f" · {game_name(row.game_id)}" if with_game else ""
    return (
        f"{row.rank}. **{row.name}**{game} — rating {row.rating:.1f} · "
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
    view = _pager(
        HistoryPageButton(owner, game_id, max(page - 1, 0), label="◀ Previous"),
        HistoryPageButton(owner, game_id, page + 1, label="Next ▶"),
        page,
        has_next,
    )
    return Message(embed, view)


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
    embed = discord.Embed(
        title="Start a new scoreboard season?",
        description=(
            f"The scoreboard of {what} on this server starts again from zero. Nothing is "
            "deleted: older seasons stay in `/scoreboard season:` and `/game history`."
        ),
        colour=GREY,
    )
    view = new_view(SeasonResetButton(game_id, "reset"), SeasonResetButton(game_id, "keep"))
    return Message(embed, view)
