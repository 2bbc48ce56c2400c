"""What every feature's messages are made of: a ``Message`` (a Components V2 layout with its
card pictures), buttons, views that are never stored, Discord timestamps, and the games as
slash-command choices.

Every button and select a message carries is one of the features' ``DynamicItem`` classes
(``bot.tables.hand_view``, ``bot.boards.pages``, …), which builds and parses its own
custom_id; clicks reach them through the bot's dynamic item registry, also after a restart.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot.pictures import Picture, PictureCache
from bot.text import clip
from engine.registry import games
from engine.words import N_, _, and_list

RED = discord.Colour(0xC0392B)
GREEN = discord.Colour(0x2E8B57)
GREY = discord.Colour(0x5865F2)
GOLD = discord.Colour(0xD4A017)
AMBER = discord.Colour(0xE67E22)
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}

# What the bot needs in a table's channel, by discord.Permissions flag (and Discord's name for
# it, translated where shown): the replies to
# interactions need none, so without these a lobby would work and its table never appear.
CHANNEL_PERMISSIONS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}


# What the bot needs in a channel, besides those, to give each table a thread of its own
THREAD_PERMISSIONS = {
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}
# What the bot needs in a thread a table plays in: Send Messages there is the parent channel's,
# and counts for nothing in its threads
TABLE_THREAD_PERMISSIONS = {
    flag: name for flag, name in CHANNEL_PERMISSIONS.items() if flag != "send_messages"
} | {"send_messages_in_threads": N_("Send Messages in Threads")}
THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def missing_permissions(
    permissions: discord.Permissions, needed: dict[str, str] = CHANNEL_PERMISSIONS
) -> list[str]:
    """The names of the permissions the bot needs in a table's channel (or, given
    ``THREAD_PERMISSIONS``, to open a thread for each table there) and lacks."""
    return [name for flag, name in needed.items() if not getattr(permissions, flag)]


def permission_list(names: Sequence[str]) -> str:
    """Permission names (as ``CHANNEL_PERMISSIONS`` holds them) for a sentence, bold, in the
    active language, the last joined by "and" (``**View Channel**, **Send Messages** and
    **Attach Files**``)."""
    said = [f"**{_(name)}**" for name in names]
    return and_list([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)


def in_a_thread(interaction: discord.Interaction) -> bool:
    """Whether the interaction came from a thread (a table started there plays in it)."""
    channel = interaction.channel
    return channel is not None and channel.type in THREAD_TYPES


@dataclass
class Message:
    """What to send or edit: a Components V2 layout and the card pictures its galleries show
    (uploaded with it as attachments)."""

    view: discord.ui.LayoutView
    pictures: tuple[Picture, ...] = ()

    def files(self) -> list[discord.File]:
        """The pictures as files to upload, each with its alt text."""
        return [
            discord.File(io.BytesIO(p.data), filename=p.filename, description=p.alt_text)
            for p in self.pictures
        ]

    def kwargs(self, attached: Collection[str] | None = None) -> dict[str, Any]:
        """Arguments for an edit. ``attached``: the file names the message carries now; when
        they are this message's pictures, nothing is uploaded again (None: unknown, upload).
        An edit also clears the content and embeds an older message may still have."""
        kwargs: dict[str, Any] = {"view": self.view, "content": None, "embeds": []}
        if attached is None or sorted(attached) != sorted(self.filenames()):
            kwargs["attachments"] = self.files()
        return kwargs

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for a new message."""
        return {"view": self.view, "files": self.files()}

    def filenames(self) -> list[str]:
        """The file names of the pictures (made from their content)."""
        return [picture.filename for picture in self.pictures]


PICTURES = PictureCache()
"""Every card picture the bot shows, by content: an unchanged one is never drawn again."""


def layout(
    *parts: discord.ui.Item[Any] | str | None, colour: discord.Colour | None = None
) -> discord.ui.LayoutView:
    """One container of ``parts`` (a string is a text display; None is left out), in a view
    that is never stored (its items are dynamic items)."""
    items = [discord.ui.TextDisplay(part) if isinstance(part, str) else part for part in parts]
    view = _UnstoredLayout()
    view.add_item(
        discord.ui.Container(*(item for item in items if item is not None), accent_colour=colour)
    )
    return view


def gallery(picture: Picture) -> discord.ui.MediaGallery[Any]:
    """A picture shown full width, with its alt text."""
    item = discord.MediaGalleryItem(
        f"attachment://{picture.filename}", description=picture.alt_text
    )
    return discord.ui.MediaGallery(item)


def small(lines: Iterable[str]) -> str:
    """Lines in Discord's small, dim text (``-#``): what matters less than the rest."""
    return "\n".join(f"-# {line}" for line in lines if line)


def controls(*items: discord.ui.Item[Any]) -> discord.ui.ActionRow[Any]:
    """Buttons side by side (at most five), or one select."""
    return discord.ui.ActionRow(*items)


def timestamp(when: datetime) -> str:
    """A Discord relative timestamp (``in 2 minutes``), shown in each reader's time zone."""
    return f"<t:{int(when.timestamp())}:R>"


def button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    disabled: bool = False,
) -> discord.ui.Button[discord.ui.View]:
    """The button inside a dynamic item (its label cut to Discord's limit)."""
    return discord.ui.Button(
        custom_id=custom_id, label=clip(label, 80), style=style, disabled=disabled
    )


class _UnstoredLayout(discord.ui.LayoutView):
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
