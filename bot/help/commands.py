"""``/help``: what Cardroom is, each game in one line, and how to start, privately;
``setup`` adds it and registers the **How to play** button (``bot.help.rules``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answers_user_errors
from bot.help.rules import RulesButton
from bot.text import suit_symbols
from bot.ui import GREY, Message, layout, small
from engine.registry import games

ABOUT = (
    "## Cardroom\n"
    "Card games to play together in this server, with friends or against the computer "
    "(AI seats). Your cards stay private: only you see them, with the **Hand** button or "
    "in a DM from me."
)
HOW_TO_START = (
    "### How to start\n"
    "1. Type `/game start` and pick a game: a new table opens in this channel.\n"
    "2. Friends press **Join**; **Add AI** fills a seat with a computer player.\n"
    "3. The host presses **Start**. On your turn, press **Hand** to see your cards and move.\n"
    "\n"
    "**How to play** on a new table, or `/game rules`, explains a game."
)
MORE = (
    "/game leave: the AI takes your seat · /game stop: the host ends the game · "
    "/game history, /scoreboard, /stats: results on this server"
)


async def setup(bot: commands.AutoShardedBot) -> None:
    """Add /help and the How to play button to the bot."""
    await bot.add_cog(HelpCog())
    bot.add_dynamic_items(RulesButton)


def help_message() -> Message:
    """What Cardroom is, every game in a line, how to start."""
    lines = [
        f"- **{game.name}** ({game.player_count_text()} players): {game.pitch}"
        for game in games().values()
    ]
    return Message(
        layout(
            ABOUT,
            suit_symbols("### The games\n" + "\n".join(lines)),
            HOW_TO_START,
            small([MORE]),
            colour=GREY,
        )
    )


class HelpCog(commands.Cog):
    """The /help command."""

    @app_commands.command(name="help", description="What Cardroom is, its games, how to start")
    @answers_user_errors
    async def help(self, interaction: discord.Interaction) -> None:
        """The newcomer's page, privately."""
        await interaction.response.send_message(ephemeral=True, **help_message().send_kwargs())
