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
from typing import Any

import discord

from bot.answers import answer_click
from bot.boards.figures import OVERALL, history_entry, notice_message, overall, score_line
from bot.boards.ratings import PROVISIONAL_GAMES, ScoreRow
from bot.errors import UserError
from bot.i18n import catalog, private_language, table_language
from bot.replays.views import ReplayButton
from bot.storage import HistoryRow
from bot.tables.records import UnreadableLines
from bot.tables.tokens import board_of
from bot.text import clip
from bot.ui import GREY, Message, button, controls, game_name, layout, small
from bot.wiring import UsesWiring, Wiring
from engine.registry import games
from engine.words import N_, _, speaking

SCOREBOARD_PAGE = 10
HISTORY_PAGE = 8
PREVIOUS, NEXT = N_("◀ Previous"), N_("Next ▶")
NOT_A_MANAGER = N_("You need the Manage Server permission to reset the scoreboard.")
ALL = "all"  # the custom_id word for "every game" (no game has this id)
GAME = r"(?P<game>[a-z0-9_]+)"


def _guild(interaction: discord.Interaction) -> int:
    """The board of the place (``board_of``): a server's, a group DM's, or in a DM the
    personal board."""
    return board_of(interaction)


def board_language(interaction: discord.Interaction, wiring: Wiring) -> str:
    """A board's language: its server's, as its tables speak (a board is public)."""
    return table_language(wiring.languages, interaction.guild_id, str(interaction.guild_locale))


def asker_language(interaction: discord.Interaction, wiring: Wiring) -> str:
    """The language of a private answer to whoever clicked or asked."""
    return private_language(wiring.languages, interaction.user.id, str(interaction.locale))


def _game(word: str) -> str | None:
    return None if word == ALL else word


def page_count(total: int, size: int) -> int:
    """Pages needed for ``total`` rows (at least one, for the empty page)."""
    return max(1, -(-total // size))


# -- the buttons --------------------------------------------------------------------------------
class ScoreboardPageButton(
    UsesWiring,
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
            page = await scoreboard_page(
                interaction, self.wiring, self.game_id, self.season, self.page
            )
            await answer_page(interaction, self.owner, page)

        with speaking(catalog(asker_language(interaction, self.wiring))):
            await answer_click(interaction, turn)


class HistoryPageButton(
    UsesWiring,
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
            page = await history_page(interaction, self.wiring, self.game_id, self.page)
            await answer_page(interaction, self.owner, page)

        with speaking(catalog(asker_language(interaction, self.wiring))):
            await answer_click(interaction, turn)


class SeasonResetButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:season-reset:{GAME}:(?P<answer>reset|keep)",
):
    """Reset or Keep on the private /scoreboard-reset question."""

    def __init__(self, game_id: str | None, answer: str) -> None:
        self.game_id, self.answer = game_id, answer
        label, style = (
            (_("Reset"), discord.ButtonStyle.danger)
            if answer == "reset"
            else (_("Keep"), discord.ButtonStyle.secondary)
        )
        super().__init__(button(f"cr:season-reset:{game_id or ALL}:{answer}", label, style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeasonResetButton:
        return cls(_game(match["game"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Start the new season, or leave things as they are."""
        with speaking(catalog(asker_language(interaction, self.wiring))):
            await answer_click(interaction, lambda: self._answer(interaction))

    async def _answer(self, interaction: discord.Interaction) -> None:
        # the question is private, so only the person who asked can click here
        if self.answer != "reset":
            await interaction.response.edit_message(
                **notice_message(_("Nothing was reset.")).kwargs(attached=[])
            )
            return
        if not interaction.permissions.manage_guild:
            raise UserError(_(NOT_A_MANAGER))
        results = self.wiring.results
        season = await results.reset_season(_guild(interaction), self.game_id)
        if self.game_id:
            text = _(
                "A new season has begun for {game} (season {season}). Older seasons stay "
                "available with `/scoreboard season:`."
            ).format(game=_(game_name(self.game_id)), season=season)
        else:
            text = _(
                "A new season has begun for every game (season {season}). Older seasons stay "
                "available with `/scoreboard season:`."
            ).format(season=season)
        await interaction.response.edit_message(**notice_message(text).kwargs(attached=[]))


class ScoreboardGameSelect(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"cr:scoreboard-game:(?P<owner>\d+):(?P<season>\d+)",
):
    """The menu under a scoreboard: another game's ranking, or all games together."""

    def __init__(self, owner: int, season: int | None, game_id: str | None = None) -> None:
        self.owner, self.season = owner, season
        choices = [(each.id, _(each.name)) for each in games().values()]
        choices.append((OVERALL, _("All games together (by wins)")))
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"cr:scoreboard-game:{owner}:{season or 0}",
            placeholder=_("Another game's scoreboard"),
            options=[
                discord.SelectOption(label=name, value=value, default=value == game_id)
                for value, name in choices[:25]
            ],
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ScoreboardGameSelect:
        return cls(int(match["owner"]), int(match["season"]) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the chosen game's first page."""

        async def show() -> None:
            values = self.item.values
            if not values or (values[0] != OVERALL and values[0] not in games()):
                raise UserError(_("Choose one of the games."))
            page = await scoreboard_page(interaction, self.wiring, values[0], self.season, 0)
            await answer_page(interaction, self.owner, page)

        with speaking(catalog(asker_language(interaction, self.wiring))):
            await answer_click(interaction, show)


BUTTONS = (ScoreboardPageButton, ScoreboardGameSelect, HistoryPageButton, SeasonResetButton)


# -- fetching and answering ---------------------------------------------------------------------
async def scoreboard_page(
    interaction: discord.Interaction,
    wiring: Wiring,
    game_id: str | None,
    season: int | None,
    page: int,
) -> Message:
    """A page of this server's scoreboard for ``game_id``: one game's ranking, OVERALL for
    every game's wins together, or None for the game played most here. The interaction is
    deferred first when a season it shows must be rated (``answer_page`` answers either way)."""
    ratings = wiring.ratings
    guild_id = _guild(interaction)
    if season is not None and game_id not in (None, OVERALL):
        current = await wiring.results.current_season(guild_id, game_id)
        if season > current:
            raise UserError(
                _("{game} is in season {current} here; season {season} has not begun.").format(
                    game=_(game_name(game_id)), current=current, season=season
                )
            )
    if not await ratings.rated(guild_id, None if game_id == OVERALL else game_id, season):
        # an older season (or one not rated since the start): rating it takes seconds at
        # thousands of games (in a worker thread), longer than Discord waits for an answer
        await interaction.response.defer()
    if game_id == OVERALL:
        rows = overall(await ratings.scoreboard(guild_id, None, season))
    elif game_id is None:
        every = await ratings.scoreboard(guild_id, None, season)
        played: dict[str, int] = {}
        for row in every:
            played[row.game_id] = played.get(row.game_id, 0) + row.games
        game_id = max(played, key=lambda each: played[each], default=None)
        rows = [row for row in every if row.game_id == game_id]
    else:
        rows = await ratings.scoreboard(guild_id, game_id, season)
    language = board_language(interaction, wiring)
    with speaking(catalog(language)):
        return scoreboard_message(rows, interaction.user.id, game_id, season, page, language)


async def history_page(
    interaction: discord.Interaction, wiring: Wiring, game_id: str | None, page: int
) -> Message:
    """A page of this server's finished games, newest first."""
    # one row more than a page says whether there is a next page without counting them all
    rows = await wiring.results.history(
        _guild(interaction), HISTORY_PAGE + 1, page * HISTORY_PAGE, game_id
    )
    has_next = len(rows) > HISTORY_PAGE
    with speaking(catalog(board_language(interaction, wiring))):
        return history_message(
            rows[:HISTORY_PAGE],
            interaction.user.id,
            game_id,
            page,
            has_next,
            wiring.tables.context.unreadable,
        )


async def answer_page(interaction: discord.Interaction, owner: int, message: Message) -> None:
    """Turn the page in place for its owner; show it privately to anyone else (after a
    deferral too)."""
    deferred = interaction.response.is_done()
    if interaction.user.id == owner and deferred:
        await interaction.edit_original_response(**message.kwargs(attached=[]))
    elif interaction.user.id == owner:
        await interaction.response.edit_message(**message.kwargs(attached=[]))
    elif deferred:
        await interaction.followup.send(ephemeral=True, **message.send_kwargs())
    else:
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())


async def ask_reset(interaction: discord.Interaction, game_id: str | None) -> None:
    """/scoreboard-reset: ask privately for a confirmation (Manage Server only)."""
    _guild(interaction)
    if not interaction.permissions.manage_guild:
        raise UserError(_(NOT_A_MANAGER))
    message = reset_confirm_message(game_id)
    await interaction.response.send_message(ephemeral=True, **message.send_kwargs())


# -- the messages -------------------------------------------------------------------------------
def _pager(
    previous: discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    following: discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    page: int,
    has_next: bool,
) -> discord.ui.ActionRow[Any] | None:
    if page == 0 and not has_next:
        return None
    previous.item.disabled = page == 0
    following.item.disabled = not has_next
    return controls(previous, following)


def scoreboard_message(
    rows: Sequence[ScoreRow],
    owner: int,
    game_id: str | None,
    season: int | None,
    page: int,
    language: str,
) -> Message:
    """One page of a server's scoreboard (``rows``: the whole ranking, every page), with a
    menu to see another game's or the overall ranking."""
    pages = page_count(len(rows), SCOREBOARD_PAGE)
    page = min(max(page, 0), pages - 1)
    shown = rows[page * SCOREBOARD_PAGE : (page + 1) * SCOREBOARD_PAGE]
    if game_id == OVERALL:
        what = _("all games together")
        how = _("ranked by wins in every game, then win rate (ratings of different games differ)")
    else:
        what = _(game_name(game_id)) if game_id else _("no game yet")
        how = _(
            "rating from places against other people, 1000 to start; ? = provisional (under "
            "{count} rated games), listed after settled ratings · games against "
            "the AI count for games and wins, not the rating"
        ).format(count=PROVISIONAL_GAMES)
    if season:
        title = _("## Scoreboard — {what}, season {season}").format(what=what, season=season)
    else:
        title = _("## Scoreboard — {what}, this season").format(what=what)
    lines = [score_line(row, language) for row in shown]
    pager = _pager(
        ScoreboardPageButton(owner, game_id, season, max(page - 1, 0), label=_(PREVIOUS)),
        ScoreboardPageButton(owner, game_id, season, page + 1, label=_(NEXT)),
        page,
        page < pages - 1,
    )
    return Message(
        layout(
            clip(
                title + "\n" + ("\n".join(lines) or _("No finished games with players yet.")),
                3000,
            ),
            pager,
            controls(ScoreboardGameSelect(owner, season, game_id)) if rows or game_id else None,
            small([_("Page {page}/{pages} · {how}").format(page=page + 1, pages=pages, how=how)]),
            colour=GREY,
        )
    )


def history_message(
    rows: Sequence[HistoryRow],
    owner: int,
    game_id: str | None,
    page: int,
    has_next: bool,
    unreadable: UnreadableLines,
) -> Message:
    """One page of a server's finished games, newest first (hands damaged in storage
    reported to ``unreadable``)."""
    what = _(game_name(game_id)) if game_id else _("all games")
    entries: list[discord.ui.Item[Any]] = [
        discord.ui.Section(
            history_entry(row, unreadable), accessory=ReplayButton.opener(row.table_id)
        )
        for row in rows
    ]
    pager = _pager(
        HistoryPageButton(owner, game_id, max(page - 1, 0), label=_(PREVIOUS)),
        HistoryPageButton(owner, game_id, page + 1, label=_(NEXT)),
        page,
        has_next,
    )
    return Message(
        layout(
            _("## Recent games — {what}").format(what=what)
            + ("" if entries else "\n" + _("No finished games here yet.")),
            *entries,
            pager,
            small([_("Page {page} · 🤖 = an AI seat").format(page=page + 1)]),
            colour=GREY,
        )
    )


def reset_confirm_message(game_id: str | None) -> Message:
    """The private question /scoreboard-reset asks before starting a new season."""
    if game_id:
        question = _(
            "### Start a new scoreboard season?\n"
            "The scoreboard of {game} on this server starts again from zero. Nothing is "
            "deleted: older seasons stay in `/scoreboard season:` and `/game history`."
        ).format(game=_(game_name(game_id)))
    else:
        question = _(
            "### Start a new scoreboard season?\n"
            "The scoreboard of every game on this server starts again from zero. Nothing is "
            "deleted: older seasons stay in `/scoreboard season:` and `/game history`."
        )
    return Message(
        layout(
            question,
            controls(SeasonResetButton(game_id, "reset"), SeasonResetButton(game_id, "keep")),
            colour=GREY,
        )
    )
