"""What every feature's messages are made of: a ``Message`` (embed plus components), buttons,
views that are never stored, Discord timestamps, and the games as slash-command choices.

Every button and select a message carries is one of the features' ``DynamicItem`` classes
(``bot.tables.hand_view``, ``bot.boards.pages``, …), which builds and parses its own
custom_id; clicks reach them through the bot's dynamic item registry, also after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot.text import clip
from engine.registry import games

RED = discord.Colour(0xC0392B)
GREEN = discord.Colour(0x2E8B57)
GREY = discord.Colour(0x5865F2)
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


@dataclass
class Message:
    """What to send or edit: content, one embed and the components."""

    embed: discord.Embed
    view: discord.ui.View | None
    content: str | None = None

    def kwargs(self) -> dict[str, Any]:
        """Arguments for an edit (no view: the components are removed)."""
        return {"content": self.content, "embed": self.embed, "view": self.view}

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for a new message (discord.py refuses ``view=None`` there)."""
        kwargs = self.kwargs()
        if self.view is None:
            del kwargs["view"]
        return kwargs


def timestamp(when: datetime) -> str:
    """A Discord relative timestamp (``in 2 minutes``), shown in each reader's time zone."""
    return f"<t:{int(when.timestamp())}:R>"


def button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    row: int | None = None,
    disabled: bool = False,
) -> discord.ui.Button[discord.ui.View]:
    """The button inside a dynamic item (its label cut to Discord's limit)."""
    return discord.ui.Button(
        custom_id=custom_id, label=clip(label, 80), style=style, row=row, disabled=disabled
    )


def new_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view that never times out and is never stored (its items are dynamic items)."""
    view = _UnstoredView()
    for item in items:
        view.add_item(item)
    return view


class _UnstoredView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        # Clicks reach the dynamic items registered on the bot; storing each sent view
        # would only keep it in memory.
        return False

    def is_finished(self) -> bool:
        # discord.py's InteractionResponse.send_message stores every unfinished view without
        # asking is_dispatchable (an ephemeral one with a 15-minute expiry task): every Hand
        # click and every lobby would stay in the view store. A finished view is never stored.
        return True


def game_choices() -> list[app_commands.Choice[str]]:
    """The registered games as slash-command choices."""
    return [app_commands.Choice(name=game.name, value=game.id) for game in games().values()][:25]


def game_name(game_id: str) -> str:
    """A game's name, or its id when it is no longer registered."""
    game = games().get(game_id)
    return game.name if game else game_id


def display_name(user: discord.abc.User) -> str:
    """The name people see for a user (server nickname when the interaction carries it),
    markdown escaped: every message shows it as written (``[Free Nitro](…)`` is no link) and
    the bot never pings anyone (its allowed_mentions are none)."""
    return discord.utils.escape_markdown(getattr(user, "display_name", None) or user.name)
