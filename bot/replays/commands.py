"""``/game replay <table id>`` (the /game group adds it) and the replay buttons to register."""

from __future__ import annotations

import discord

from bot.replays.views import BUTTONS, open_private
from bot.wiring import Wiring

__all__ = ["BUTTONS", "replay"]


async def replay(wiring: Wiring, interaction: discord.Interaction, table: str) -> None:
    """Open a private replay of the finished game ``table``, at the deal."""
    await open_private(wiring, interaction, table.strip())
