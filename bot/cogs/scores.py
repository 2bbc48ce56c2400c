"""``/scoreboard``, ``/stats`` and ``/scoreboard-reset`` (Manage Server, with a confirm)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.game import game_choices
from bot.errors import UserError, answers_user_errors, report_error
from bot.render.text import clip
from engine.registry import games

if TYPE_CHECKING:
    from bot.app import CardroomBot


class ScoresCog(commands.Cog):
    """Per-server scoreboards and player stats (queries over finished games)."""

    def __init__(self, bot: CardroomBot) -> None:
        self.bot = bot

    @app_commands.command(name="scoreboard", description="This server's best players")
    @app_commands.describe(game="only this game")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    @answers_user_errors
    async def scoreboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """The current season's ranking, by rating (AI seats are not ranked)."""
        assert interaction.guild_id is not None
        rows = await self.bot.storage.scoreboard(interaction.guild_id, game)
        title = f"Scoreboard — {games()[game].name}" if game else "Scoreboard — all games"
        if not rows:
            text = "No finished games yet this season."
        else:
            text = "\n".join(
                f"{row.rank}. **{row.name}** ({row.game_id}) — rating {row.rating:.1f}, "
                f"{row.wins}/{row.games} wins"
                for row in rows[:20]
            )
        await interaction.response.send_message(
            embed=discord.Embed(title=title, description=clip(text, 4000)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="stats", description="A player's games, wins and rating here")
    @app_commands.describe(member="whose stats (default: yours)")
    @app_commands.guild_only()
    @answers_user_errors
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        """One line per game the member played on this server."""
        assert interaction.guild_id is not None
        who = member or interaction.user
        rows = await self.bot.storage.stats(interaction.guild_id, who.id)
        if not rows:
            text = "No finished games on this server yet."
        else:
            text = "\n".join(
                f"**{row.game_id}** — {row.games} games, {row.wins} wins, rating "
                f"{row.rating:.1f}, best score {row.best_score}, average {row.average_score:.1f}"
                for row in rows
            )
        name = getattr(who, "display_name", who.name)
        await interaction.response.send_message(
            embed=discord.Embed(title=f"Stats — {name}", description=clip(text, 4000)),
            ephemeral=True,
        )

    @app_commands.command(
        name="scoreboard-reset", description="Start a new scoreboard season (Manage Server)"
    )
    @app_commands.describe(game="only this game's scoreboard")
    @app_commands.choices(game=game_choices())
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @answers_user_errors
    async def scoreboard_reset(
        self, interaction: discord.Interaction, game: str | None = None
    ) -> None:
        """Ask for a confirmation, then start a new season (nothing is deleted)."""
        assert interaction.guild_id is not None
        if not interaction.permissions.manage_guild:
            raise UserError("You need the Manage Server permission to reset the scoreboard.")
        what = games()[game].name if game else "every game"
        view = ConfirmReset(self.bot, interaction.guild_id, game, interaction.user.id)
        await interaction.response.send_message(
            f"Start a new scoreboard season for {what}? Old results stay in the history.",
            view=view,
            ephemeral=True,
        )


class ConfirmReset(discord.ui.View):
    """The confirm step of /scoreboard-reset (private, expires after 2 minutes)."""

    def __init__(self, bot: CardroomBot, guild_id: int, game: str | None, user_id: int) -> None:
        super().__init__(timeout=120)
        self.bot = bot
        self.guild_id = guild_id
        self.game = game
        self.user_id = user_id

    @discord.ui.button(label="Reset", style=discord.ButtonStyle.danger)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[ConfirmReset]
    ) -> None:
        """Reset the season."""
        if interaction.user.id != self.user_id:
            raise UserError("Only the person who asked can confirm.")
        season = await self.bot.storage.reset_season(self.guild_id, self.game)
        self.stop()
        await interaction.response.edit_message(
            content=f"A new season ({season}) has started.", view=None
        )

    @discord.ui.button(label="Keep", style=discord.ButtonStyle.secondary)
    async def keep(
        self, interaction: discord.Interaction, button: discord.ui.Button[ConfirmReset]
    ) -> None:
        """Leave the scoreboard as it is."""
        self.stop()
        await interaction.response.edit_message(content="Nothing was reset.", view=None)

    async def on_error(
        self,
        interaction: discord.Interaction,
        error: Exception,
        item: discord.ui.Item[ConfirmReset],
    ) -> None:
        """The central error answer."""
        await report_error(interaction, error)
