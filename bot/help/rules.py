"""A game's rules as players read them (data/rules/<id>.<language>.md, else the English
data/rules/<id>.md, and the game's options), sent privately in the reader's language: by
``/game rules`` and by the **How to play** button every lobby carries.

Custom_id, built and parsed by its class: ``cr:rules:<game>`` How to play.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers import answer_click
from bot.errors import UserError
from bot.i18n import SOURCE_LANGUAGE, catalog, private_language, rules_path
from bot.text import flowing, suit_symbols
from bot.ui import GREY, Message, button, layout
from bot.wiring import UsesWiring
from engine.registry import games
from engine.words import _, speaking

RULES_PART = 3900  # characters of rules text per message (Discord's limit: 4000 in all)
RULES_MESSAGES = 4  # at most this many private messages per request


def rules_text(game_id: str, language: str = SOURCE_LANGUAGE) -> str:
    """The player-facing rules of a game in ``language`` (its rules text, English where that
    language has none, or its pitch when missing), then its options in people's words, in
    the active language."""
    game = games()[game_id]
    path = rules_path(game_id, language)
    if path.is_file():
        text = path.read_text(encoding="utf-8").rstrip()
    else:
        text = _("# {game}\n\n{pitch}\n\n(The full rules text is not written yet.)").format(
            game=_(game.name), pitch=_(game.pitch)
        )
    if not game.options:
        return text
    options = [
        _("- **{option}** — {description} (default {amount})").format(
            option=_(option.label),
            description=_(option.description),
            amount=option.amount(option.default),
        )
        for option in game.options
    ]
    heading = _("## Table options\nThe host sets them when opening the table with /game start.")
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


async def send_rules(interaction: discord.Interaction, game_id: str, language: str) -> None:
    """The rules, privately in ``language``, flowing to the reader's width (a message per part
    of at most Discord's 4000 characters)."""
    with speaking(catalog(language)):
        if game_id not in games():
            raise UserError(_("There is no game {game}.").format(game=repr(game_id)))
        text = rules_text(game_id, language)
    pieces = split_rules(suit_symbols(flowing(text)), RULES_PART)
    messages = [Message(layout(piece, colour=GREY)) for piece in pieces[:RULES_MESSAGES]]
    await interaction.response.send_message(ephemeral=True, **messages[0].send_kwargs())
    for message in messages[1:]:
        await interaction.followup.send(ephemeral=True, **message.send_kwargs())


class RulesButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:rules:(?P<game>\w+)",
):
    """How to play: the game's rules, privately in the clicker's language, to whoever clicks
    (anyone may); its label in the language of the message that shows it."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(button(f"cr:rules:{game_id}", _("How to play")))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Send the rules privately."""
        language = private_language(
            self.wiring.languages, interaction.user.id, str(interaction.locale)
        )
        await answer_click(interaction, lambda: send_rules(interaction, self.game_id, language))
