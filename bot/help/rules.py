"""A game's rules as players read them (data/rules/<id>.md and the game's options), sent
privately: by ``/game rules`` and by the **How to play** button every lobby carries.

Custom_id, built and parsed by its class: ``cr:rules:<game>`` How to play.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord

from bot.answers import answer_click
from bot.errors import UserError
from bot.text import flowing, suit_symbols
from bot.ui import GREY, Message, button, layout
from engine.registry import games

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rules"
RULES_PART = 3900  # characters of rules text per message (Discord's limit: 4000 in all)
RULES_MESSAGES = 4  # at most this many private messages per request


def rules_text(game_id: str) -> str:
    """The player-facing rules of a game (data/rules/<id>.md, or its pitch when missing), then
    its options in people's words."""
    game = games()[game_id]
    path = RULES_DIR / f"{game_id}.md"
    if path.is_file():
        text = path.read_text(encoding="utf-8").rstrip()
    else:
        text = f"# {game.name}\n\n{game.pitch}\n\n(The full rules text is not written yet.)"
    if not game.options:
        return text
    options = [
        f"- **{option.label}** — {option.description} (default {option.amount(option.default)})"
        for option in game.options
    ]
    heading = "## Table options\nThe host sets them when opening the table with /game start."
    return "\n\n".join([text, heading, "\n".join(options)])


def split_rules(text: str, limit: int = 4000) -> list[str]:
    """Rules text cut at paragraph breaks into pieces of at most ``limit`` characters."""
    pieces: list[str] = []
    current = ""
    for paragraph in text.split("\n\n"):
        candidate = f"{current}\n\n{paragraph}" if current else paragraph
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pieces.append(current)
        current = paragraph[:limit]
    if current:
        pieces.append(current)
    return pieces


async def send_rules(interaction: discord.Interaction, game_id: str) -> None:
    """The rules, privately, flowing to the reader's width (a message per part of at most
    Discord's 4000 characters)."""
    if game_id not in games():
        raise UserError(f"There is no game {game_id!r}.")
    pieces = split_rules(suit_symbols(flowing(rules_text(game_id))), RULES_PART)
    messages = [Message(layout(piece, colour=GREY)) for piece in pieces[:RULES_MESSAGES]]
    await interaction.response.send_message(ephemeral=True, **messages[0].send_kwargs())
    for message in messages[1:]:
        await interaction.followup.send(ephemeral=True, **message.send_kwargs())


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:rules:(?P<game>\w+)",
):
    """How to play: the game's rules, privately, to whoever clicks (anyone may)."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(button(f"cr:rules:{game_id}", "How to play"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Send the rules privately."""
        await answer_click(interaction, lambda: send_rules(interaction, self.game_id))
