"""Showing scoreboards and history, turning their pages, and confirming a season reset.

The slash commands (bot/cogs/scores.py, ``/game history``) and the routed page buttons share
these functions, so a page looks the same however it was reached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

from bot.errors import UserError
from bot.render.boards import (
    ALL,
    HISTORY_PAGE,
    game_name,
    history_message,
    reset_confirm_message,
    scoreboard_message,
)
from bot.render.messages import Message

if TYPE_CHECKING:
    from bot.app import CardroomBot


def _bot(interaction: discord.Interaction) -> CardroomBot:
    return cast("CardroomBot", interaction.client)


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("Scoreboards belong to a server; use this in a server channel.")
    return interaction.guild_id


def _game(word: str) -> str | None:
    return None if word == ALL else word


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


async def on_page(interaction: discord.Interaction, args: list[str]) -> None:
    """A Previous / Next button of a scoreboard or history page."""
    try:
        if args[0] == "s":
            _, owner, game, season, page = args
            message = await scoreboard_page(
                interaction, _game(game), int(season) or None, max(0, int(page))
            )
        else:
            _, owner, game, page = args
            message = await history_page(interaction, _game(game), max(0, int(page)))
        owner_id = int(owner)
    except ValueError:
        raise UserError("That button is not one of ours.") from None
    await answer_page(interaction, owner_id, message)


async def ask_reset(interaction: discord.Interaction, game_id: str | None) -> None:
    """/scoreboard-reset: ask privately for a confirmation (Manage Server only)."""
    _guild(interaction)
    if not interaction.permissions.manage_guild:
        raise UserError("You need the Manage Server permission to reset the scoreboard.")
    message = reset_confirm_message(game_id)
    await interaction.response.send_message(ephemeral=True, **message.send_kwargs())


async def on_reset(interaction: discord.Interaction, args: list[str]) -> None:
    """Reset or Keep on the confirmation: start the new season, or leave things as they are."""
    # the question is private, so only the person who asked can click here
    game, answer = args
    if answer != "yes":
        await interaction.response.edit_message(content="Nothing was reset.", embed=None, view=None)
        return
    if not interaction.permissions.manage_guild:
        raise UserError("You need the Manage Server permission to reset the scoreboard.")
    game_id = _game(game)
    season = await _bot(interaction).storage.results.reset_season(_guild(interaction), game_id)
    what = game_name(game_id) if game_id else "every game"
    await interaction.response.edit_message(
        content=(
            f"A new season has begun for {what} (season {season}). Older seasons stay "
            f"available with `/scoreboard season:`."
        ),
        embed=None,
        view=None,
    )
