"""``/scoreboard``, ``/stats`` and ``/scoreboard-reset`` (Manage Server, with a confirm);
``setup`` adds the cog and registers the page and reset buttons."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answers_user_errors
from bot.boards.figures import stats_message
from bot.boards.pages import BUTTONS, ask_reset, asker_language, scoreboard_page
from bot.i18n import catalog, command_name
from bot.tables.tokens import board_of
from bot.ui import display_name, game_choices
from bot.wiring import Wiring, wired
from engine.words import N_, speaking


async def setup(bot: commands.AutoShardedBot, wiring: Wiring) -> None:
    """Add the scoreboard commands and the boards' buttons (bound to ``wiring``) to the bot."""
    await bot.add_cog(ScoresCog(wiring))
    bot.add_dynamic_items(*(wired(item, wiring) for item in BUTTONS))


class ScoresCog(commands.Cog):
    """Per-server scoreboards and player stats (queries over finished games)."""

    def __init__(self, wiring: Wiring) -> None:
        self.wiring = wiring

    @app_commands.command(
        name=command_name("scoreboard"), description=N_("This server's best players")
    )
    @app_commands.rename(game=command_name("game"), season=command_name("season"))
    @app_commands.describe(
        game=N_("only this game"), season=N_("an earlier season (default: the current one)")
    )
    @app_commands.choices(game=game_choices())
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @answers_user_errors
    async def scoreboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        season: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        """The ranking by rating, ten players a page (AI seats are not ranked), in the
        server's language (an error: in the asker's)."""
        with speaking(catalog(asker_language(interaction, self.wiring))):
            message = await scoreboard_page(interaction, self.wiring, game, season, 0)
        if interaction.response.is_done():  # deferred while a season was rated
            await interaction.edit_original_response(
                allowed_mentions=discord.AllowedMentions.none(), **message.kwargs()
            )
        else:
            await interaction.response.send_message(
                allowed_mentions=discord.AllowedMentions.none(), **message.send_kwargs()
            )

    @app_commands.command(
        name=command_name("stats"), description=N_("A player's games, wins and rating here")
    )
    @app_commands.rename(member=command_name("member"))
    @app_commands.describe(member=N_("whose stats (default: yours)"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @answers_user_errors
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        """A small table per game the member played on this board (the server's, the group
        DM's, or in a DM their personal board: ``board_of``), privately in the asker's
        language."""
        who = member or interaction.user
        rows = await self.wiring.ratings.stats(board_of(interaction), who.id)
        language = asker_language(interaction, self.wiring)
        with speaking(catalog(language)):
            message = stats_message(display_name(who), rows, language)
        await interaction.response.send_message(ephemeral=True, **message.send_kwargs())

    @app_commands.command(
        name=command_name("scoreboard-reset"),
        description=N_("Start a new scoreboard season (Manage Server)"),
    )
    @app_commands.rename(game=command_name("game"))
    @app_commands.describe(game=N_("only this game's scoreboard"))
    @app_commands.choices(game=game_choices())
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @answers_user_errors
    async def scoreboard_reset(
        self, interaction: discord.Interaction, game: str | None = None
    ) -> None:
        """Ask for a confirmation, then start a new season (nothing is deleted), privately
        in the asker's language."""
        with speaking(catalog(asker_language(interaction, self.wiring))):
            await ask_reset(interaction, game)
