"""The Discord side of ``Presenter``: posts and edits lobby, table, hand DM and result messages.

It needs no member cache: channels and DMs are reached by id (partial messageables).
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.render.messages import (
    hand_message,
    lobby_closed_message,
    lobby_message,
    results_message,
    table_message,
)
from bot.services.tables import Lobby, Table, places_of
from bot.storage import BrokenGame

if TYPE_CHECKING:
    from bot.app import CardroomBot

log = logging.getLogger(__name__)

DM_FAILED = (
    "{mention}, I cannot send you direct messages (they are closed for this server), so use "
    "the **Hand** button on the table to see your cards and move."
)

RESTORE_FAILED = (
    "⚠️ The game at this table (table {table}) could not be restored after the bot restarted: "
    "its saved data is damaged. It has been set aside for the bot's admins, and nothing was "
    "recorded for it. Start a new game with `/game start`."
)


class DiscordPresenter:
    """Implements bot.services.tables.Presenter with discord.py."""

    def __init__(self, bot: CardroomBot) -> None:
        self.bot = bot

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def lobby_changed(self, lobby: Lobby) -> None:
        """Edit the lobby message."""
        if lobby.message_id is not None:
            message = self._channel(lobby.channel_id).get_partial_message(lobby.message_id)
            await message.edit(**lobby_message(lobby).kwargs())

    async def lobby_closed(self, lobby: Lobby, reason: str) -> None:
        """Show that the lobby closed (expired)."""
        if lobby.message_id is None:
            return
        message = self._channel(lobby.channel_id).get_partial_message(lobby.message_id)
        with contextlib.suppress(discord.NotFound):
            await message.edit(**lobby_closed_message(lobby, reason).kwargs())

    async def table_changed(self, table: Table) -> None:
        """Edit the table message in place; post it anew when missing or nearly an hour old."""
        now = self.bot.tables.clock()
        message = table_message(table, now)
        channel = self._channel(table.channel_id)
        posted = table.table_posted_at
        too_old = (
            posted is not None
            and (now - posted).total_seconds() >= self.bot.settings.table_repost_seconds
        )
        if table.table_message_id is not None and not (too_old and not table.ended):
            try:
                await channel.get_partial_message(table.table_message_id).edit(**message.kwargs())
                if posted is None:
                    table.table_posted_at = now
                return
            except discord.NotFound:
                pass
        if table.ended:
            return
        old = table.table_message_id
        sent = await channel.send(**message.kwargs())
        table.table_message_id = sent.id
        table.table_posted_at = now
        if old is not None:
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException:
                log.info("could not delete the old table message %s", old)

    async def hand_changed(self, table: Table, seat: int) -> None:
        """Send the seat's hand DM (a new one for each hand) or edit the current one."""
        info = table.seats[seat]
        if info.user_id is None or info.dm_failed:
            return
        message = hand_message(table, seat, self.bot.tables.clock())
        try:
            channel = await self.bot.create_dm(discord.Object(id=info.user_id))
            if info.dm_message_id is not None and info.dm_hand == table.hand:
                try:
                    await channel.get_partial_message(info.dm_message_id).edit(**message.kwargs())
                    return
                except discord.NotFound:
                    pass
            if info.dm_message_id is not None:
                # The last hand's DM keeps its text but loses its (now stale) controls.
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(info.dm_message_id).edit(view=None)
            intro = (
                f"Cardroom — {table.game.name} in <#{table.channel_id}>"
                if info.dm_message_id is None
                else None
            )
            message.content = intro
            sent = await channel.send(**message.kwargs())
            info.dm_message_id = sent.id
            info.dm_hand = table.hand
        except discord.Forbidden:
            info.dm_failed = True
            await self._channel(table.channel_id).send(
                DM_FAILED.format(mention=f"<@{info.user_id}>"),
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    async def notice(self, table: Table, text: str) -> None:
        """Say something in the table's channel."""
        await self._channel(table.channel_id).send(
            text, allowed_mentions=discord.AllowedMentions.none()
        )

    async def restore_failed(self, broken: BrokenGame) -> None:
        """Tell the channel its game could not be restored (the reason goes to the log only:
        it may quote the saved state, hidden cards included)."""
        if broken.channel_id is None:
            return
        await self._channel(broken.channel_id).send(
            RESTORE_FAILED.format(table=broken.table_id),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def table_ended(self, table: Table) -> None:
        """Post the results (a finished game) or why the game stopped."""
        channel = self._channel(table.channel_id)
        if table.end_reason == "over":
            places = places_of(table.state.scores(), table.state.winners())
            await channel.send(**results_message(table, places).kwargs())
        else:
            await channel.send(table.end_reason, allowed_mentions=discord.AllowedMentions.none())
        for seat, info in enumerate(table.seats):
            if info.user_id is None or info.dm_failed or info.dm_message_id is None:
                continue
            try:
                dm = await self.bot.create_dm(discord.Object(id=info.user_id))
                await dm.get_partial_message(info.dm_message_id).edit(
                    **hand_message(table, seat, self.bot.tables.clock()).kwargs()
                )
            except discord.HTTPException:
                log.info("could not close the hand DM of seat %s", seat)
