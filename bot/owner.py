"""Owner-only maintenance: ``@Cardroom sync`` publishes the slash commands.

Commands are synced to the dev guild at every start when one is set; in production they are
synced only when the owner asks (never globally at every start).
"""

from __future__ import annotations

from discord.ext import commands

from engine.words import ngettext


async def setup(bot: commands.AutoShardedBot) -> None:
    """Add the owner's commands to the bot."""
    await bot.add_cog(OwnerCog(bot))


class OwnerCog(commands.Cog):
    """Mention commands for the bot's owner."""

    def __init__(self, bot: commands.AutoShardedBot) -> None:
        self.bot = bot

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(
        self, ctx: commands.Context[commands.AutoShardedBot], scope: str = "global"
    ) -> None:
        """``@Cardroom sync`` (everywhere) or ``@Cardroom sync here`` (this server only)."""
        if scope == "here" and ctx.guild is not None:
            self.bot.tree.copy_global_to(guild=ctx.guild)
            synced = await self.bot.tree.sync(guild=ctx.guild)
            await ctx.reply(
                ngettext(
                    "Synced {count} command to this server.",
                    "Synced {count} commands to this server.",
                    len(synced),
                ).format(count=len(synced))
            )
            return
        synced = await self.bot.tree.sync()
        await ctx.reply(
            ngettext(
                "Synced {count} command globally (it may take a while).",
                "Synced {count} commands globally (they may take a while).",
                len(synced),
            ).format(count=len(synced))
        )
