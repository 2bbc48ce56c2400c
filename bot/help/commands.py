"""``/help``: what Cardroom is, each game in one line, and how to start, privately in the
asker's language; ``setup`` adds it and registers the **How to play** button
(``bot.help.rules``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answers_user_errors
from bot.help.rules import RulesButton
from bot.i18n import catalog, command_name, private_language
from bot.text import suit_symbols
from bot.ui import GREY, Message, layout, small
from bot.wiring import Wiring, wired
from engine.registry import games
from engine.words import N_, _, speaking

ABOUT = N_(
    "## Cardroom\n"
    "Card games to play together in this server, with friends or against the computer "
    "(AI seats). Your cards stay private: only you see them, with the **Hand** button or "
    "in a DM from me."
)
HOW_TO_START = N_(
    "### How to start\n"
    "1. Type `/game start` and pick a game: a new table opens in this channel.\n"
    "2. Friends press **Join**; **Add AI** fills a seat with a computer player.\n"
    "3. The host presses **Start**. On your turn, press **Hand** to see your cards and move.\n"
    "\n"
    "**How to play** on a new table, or `/game rules`, explains a game."
)
MORE = N_(
    "/game leave: the AI takes your seat · /game stop: the host ends the game · "
    "/game history, /scoreboard, /stats: results on this server · "
    "/language: the language I speak to you"
)


async def setup(bot: commands.AutoShardedBot, wiring: Wiring) -> None:
    """Add /help and the How to play button (bound to ``wiring``) to the bot."""
    await bot.add_cog(HelpCog(wiring))
    bot.add_dynamic_items(wired(RulesButton, wiring))


def help_message() -> Message:
    """What Cardroom is, every game in a line, how to start (in the active language)."""
    lines = [
        _("- **{game}** ({players} players): {pitch}").format(
            game=_(game.name), players=game.player_count_text(), pitch=_(game.pitch)
        )
        for game in games().values()
    ]
    return Message(
        layout(
            _(ABOUT),
            suit_symbols(_("### The games") + "\n" + "\n".join(lines)),
            _(HOW_TO_START),
            small([_(MORE)]),
            colour=GREY,
        )
    )


class HelpCog(commands.Cog):
    """The /help command."""

    def __init__(self, wiring: Wiring) -> None:
        self.wiring = wiring

    @app_commands.command(
        name=command_name("help"), description=N_("What Cardroom is, its games, how to start")
    )
    @answers_user_errors
    async def help(self, interaction: discord.Interaction) -> None:
        """The newcomer's page, privately, in the asker's language."""
        languages = self.wiring.languages
        language = private_language(languages, interaction.user.id, str(interaction.locale))
        with speaking(catalog(language)):
            message = help_message()
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())
