"""``/game replay <table id>`` (the /game group adds it) and the replay buttons to register."""

from __future__ import annotations

import discord

from bot.i18n import catalog
from bot.replays.views import BUTTONS, asker, open_private
from bot.wiring import Wiring
from engine.words import speaking

__all__ = ["BUTTONS", "replay"]


async def replay(wiring: Wiring, interaction: discord.Interaction, table: str) -> None:
    """Open a private replay of the finished game ``table``, at the deal, in the asker's
    language."""
    with speaking(catalog(asker(wiring, interaction))):
        await open_private(wiring, interaction, table.strip())
