"""The lobby message and its buttons, and the Rematch button that opens a new lobby.

Custom_ids, each built and parsed by its class:

- ``cr:lobby:<lobby>:<join|leave|add-ai|start|cancel>`` a lobby button
- ``cr:rematch:<table>`` Rematch under a finished game's results
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.answers import answer_click
from bot.tables.lobby import Lobby
from bot.text import clip, show
from bot.ui import GREY, Message, button, display_name, new_view

if TYPE_CHECKING:
    from bot.app import CardroomBot
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

LOBBY_ACTIONS = {
    "join": ("Join", discord.ButtonStyle.primary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "add-ai": ("Add AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.success),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def _tables(interaction: discord.Interaction) -> TableService:
    return cast("CardroomBot", interaction.client).tables


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:lobby:(?P<lobby>\w+):(?P<action>join|leave|add-ai|start|cancel)",
):
    """Join, Leave, Add AI, Start (host) or Cancel (host) on a lobby."""

    def __init__(self, lobby_id: str, action: str) -> None:
        self.lobby_id, self.action = lobby_id, action
        label, style = LOBBY_ACTIONS[action]
        super().__init__(button(f"cr:lobby:{lobby_id}:{action}", label, style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(match["lobby"], match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Change the lobby and show it; Start deals the game and shows the table."""
        await answer_click(interaction, lambda: self._clicked(interaction))

    async def _clicked(self, interaction: discord.Interaction) -> None:
        service = _tables(interaction)
        lobby = service.lobby(self.lobby_id)
        user = interaction.user
        if self.action == "start":
            await start_table(interaction, service, lobby)
            return
        if self.action == "cancel":
            lobby.check_host(user.id, "cancel this lobby")
            service.close_lobby(lobby)
            closed = lobby_closed_message(lobby, "was cancelled by the host")
            await interaction.response.edit_message(**closed.kwargs())
            return
        if self.action == "join":
            lobby.join(user.id, display_name(user))
        elif self.action == "leave":
            lobby.leave(user.id)
        else:
            lobby.add_ai(user.id)
        service.touch(lobby)
        await interaction.response.edit_message(**lobby_message(lobby).kwargs())


async def start_table(
    interaction: discord.Interaction, service: TableService, lobby: Lobby
) -> None:
    """Deal the lobby's game, say so in place of the lobby, then show the table.

    Never half-started: the click is acknowledged first (dealing and saving may outlast
    Discord's 3 s); if Discord refuses that, nothing is dealt and the lobby stays open; once
    dealt, the table begins even if the answer cannot be shown."""
    lobby.check_start(interaction.user.id)  # refusals are answered before deferring
    await interaction.response.defer()
    session = await service.start(lobby.lobby_id, interaction.user.id)
    humans = sum(seat.is_human for seat in session.seats)
    where = (
        "each player's hand comes by DM and with the **Hand** button."
        if humans
        else "the AI plays every seat."
    )
    embed = discord.Embed(
        title=f"{session.game.name} — started",
        description=(
            f"Table {session.table_id} with {len(session.seats)} players. The table follows "
            f"below; {where}"
        ),
    )
    try:
        await interaction.edit_original_response(content=None, embed=embed, view=None)
    except discord.HTTPException:
        log.warning("table %s: the Start answer failed; the table begins", session.table_id)
    service.show(session)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:rematch:(?P<table>\w+)",
):
    """Rematch: a new lobby with the same players and options, hosted by the clicker."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(button(f"cr:rematch:{table_id}", "Rematch", discord.ButtonStyle.success))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the new lobby."""

        async def rematch() -> None:
            user = interaction.user
            lobby = _tables(interaction).rematch(self.table_id, user.id, display_name(user))
            await post_lobby(interaction, lobby)

        await answer_click(interaction, rematch)


async def post_lobby(interaction: discord.Interaction, lobby: Lobby) -> None:
    """Answer with the lobby message (noting its id, to edit it when the lobby expires)."""
    await interaction.response.send_message(**lobby_message(lobby).kwargs())
    lobby.message_id = (await interaction.original_response()).id


def lobby_message(lobby: Lobby) -> Message:
    """The lobby: game, host, seats, options, and the lobby buttons."""
    game = lobby.game
    counts = game.player_counts
    host = next((s.name for s in lobby.seats if s.user_id == lobby.host_id), "?")
    lines = [game.blurb, "", f"**Host:** {host}", f"**Players:** {_counts(counts)}", ""]
    lines.append(f"**Seats ({len(lobby.seats)}/{max(counts)}):**")
    lines += [
        f"{i + 1}. {seat.name}{' 🤖' if seat.is_ai else ''}" for i, seat in enumerate(lobby.seats)
    ]
    if game.options:
        lines += ["", "**Options:**"]
        for option in game.options:
            shown = option.words(lobby.options.get(option.name))
            lines.append(f"`{option.name}` = **{shown}** — {option.description}")
    embed = discord.Embed(
        title=f"{game.name} — new table", description=clip(show("\n".join(lines), []), 4000)
    )
    embed.colour = GREY
    embed.set_footer(text=f"Lobby {lobby.lobby_id} · expires after 10 idle minutes")
    view = new_view(*(LobbyButton(lobby.lobby_id, action) for action in LOBBY_ACTIONS))
    return Message(embed, view)


def lobby_closed_message(lobby: Lobby, reason: str) -> Message:
    """A lobby that ended without a game."""
    embed = discord.Embed(
        title=f"{lobby.game.name} — lobby closed", description=f"This lobby {reason}."
    )
    return Message(embed, None)


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"
