"""Hand DM clicks for games that another process runs.

Discord sends every DM interaction to shard 0, so with several processes (each running some
shards, ``SHARD_IDS``) a click on a hand DM reaches the process of shard 0 whatever server
its game is on. That process has acknowledged the click already (``answer_in_place``: a
deferred update, before any other work); ``forward_elsewhere`` then finds the game's server
in the database and, when another process runs its shard, stores the click for it
(``storage.clicks``; on PostgreSQL a ``NOTIFY`` wakes that process at once). A click whose
shard no process holds gets a plain private answer; one for a game that is stored nowhere
is answered here like any click on a finished game.

In the owning process, ``ClickInbox`` takes the clicks of its shards (woken by the
notification, or at its poll should one be lost), rebuilds each interaction from what was
stored, marks it acknowledged, and runs it through the same button classes as a click of
its own: the move is played and the hand edited through the interaction's token, which any
process may use for the 15 minutes it lives (older clicks are dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Coroutine, Sequence
from datetime import timedelta
from typing import Any

import discord

from bot.errors import UserError
from bot.storage import ForwardedClick, Shards, Storage
from bot.wiring import Wiring
from engine.words import N_, _

log = logging.getLogger(__name__)

TOKEN_LIFETIME = timedelta(minutes=15)  # how long Discord takes answers through a token
FORWARDED = "cardroom_forwarded"  # in a forwarded interaction's extras: never forwarded again
OWNER_GONE = N_(
    "The bot is restarting the part that runs this game's server, so it cannot take this "
    "click just now. Nothing was lost: try again in a minute."
)

DynamicItems = Sequence[type[discord.ui.DynamicItem[Any]]]


def forwards_clicks(shards: Shards) -> bool:
    """Whether other processes run some shards: hand DM clicks may need forwarding (to them,
    from the process of shard 0) and taking (from it)."""
    return len(shards.ids) < shards.count


async def forward_elsewhere(
    interaction: discord.Interaction, wiring: Wiring, table_id: str
) -> bool:
    """Hand an acknowledged DM click on another process's game to that process; True when
    it was handed on (that process answers it). UserError when no process runs its shard."""
    tables = wiring.tables
    shards = tables.settings.shards
    if (
        interaction.guild_id is not None
        or interaction.extras.get(FORWARDED)
        or table_id in tables.tables
        or not forwards_clicks(shards)
    ):
        return False
    clicks = tables.storage.clicks
    guild_id = await clicks.game_guild(table_id)
    if guild_id is None or shards.owns(guild_id):
        return False  # over (or never was): answered as such here
    shard = shards.of(guild_id)
    if not await clicks.shard_held(shard):
        raise UserError(_(OWNER_GONE))
    expires = interaction.created_at + TOKEN_LIFETIME
    payload = json.dumps(interaction_payload(interaction))
    await clicks.forward(
        ForwardedClick(interaction.id, shard, table_id, payload, int(expires.timestamp()))
    )
    log.info("click %s on table %s handed to shard %d", interaction.id, table_id, shard)
    return True


def interaction_payload(interaction: discord.Interaction) -> dict[str, Any]:
    """What another process needs to rebuild a DM click (Discord's own interaction fields):
    the clicker, the clicked message's id and attachments, the component's data, the
    token."""
    user = interaction.user
    person = {
        "id": str(user.id),
        "username": user.name,
        "discriminator": user.discriminator,
        "global_name": user.global_name,
        "avatar": None,
    }
    channel_id = str(interaction.channel_id)
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(interaction.application_id),
        "type": interaction.type.value,
        "token": interaction.token,
        "version": interaction.version,
        "attachment_size_limit": interaction.filesize_limit,
        "channel_id": channel_id,
        "channel": {"id": channel_id, "type": discord.ChannelType.private.value},
        "user": person,
        "data": interaction.data,
    }
    message = interaction.message
    if message is not None:
        payload["message"] = {
            "id": str(message.id),
            "channel_id": channel_id,
            "type": message.type.value,
            "content": message.content,
            "flags": message.flags.value,
            "attachments": [
                {
                    "id": str(file.id),
                    "filename": file.filename,
                    "size": file.size,
                    "url": file.url,
                    "proxy_url": file.proxy_url,
                }
                for file in message.attachments
            ],
        }
    return payload


class ClickInbox:
    """Takes the clicks other processes hand to this one's shards and runs them through the
    bot's button classes (``buttons``), as if this process had received them."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        shards: Shards,
        poll_seconds: float,
        buttons: Callable[[], DynamicItems],
        spawn: Callable[[Coroutine[Any, Any, None], str], object],
    ) -> None:
        self._client = client
        self._storage = storage
        self._shards = shards
        self._poll_seconds = poll_seconds
        self._buttons = buttons
        self._spawn = spawn
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Listen and poll until ``close``."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="click inbox")

    async def _run(self) -> None:
        # a wake-up takes the clicks at once, in a task of its own (the listening
        # connection's callback); the poll only finds what a lost wake-up left
        wake_ups = await self._storage.clicks.wake_ups(self._shards, self._wake)
        try:
            while True:
                await asyncio.sleep(self._poll_seconds)
                await self._take()
        finally:
            await wake_ups.close()

    def _wake(self) -> None:
        self._spawn(self._take(), "forwarded-clicks")

    async def _take(self) -> None:
        """Take this process's forwarded clicks and run each in the background."""
        now = int(discord.utils.utcnow().timestamp())
        try:
            taken = await self._storage.clicks.take(self._shards, now)
        except Exception:
            log.exception("forwarded clicks could not be read; trying again at the next look")
            return
        for click in taken:
            self._spawn(self.run_click(click), f"forwarded-{click.interaction_id}")

    async def run_click(self, click: ForwardedClick) -> None:
        """Rebuild a forwarded click (acknowledged already) and run its button's callback."""
        interaction: discord.Interaction = discord.Interaction(
            data=json.loads(click.interaction), state=self._client._connection
        )
        interaction.response._response_type = (
            discord.InteractionResponseType.deferred_message_update
        )
        interaction.extras[FORWARDED] = True
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        for button in self._buttons():
            match = button.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is None:
                continue
            placeholder: discord.ui.Button[Any] = discord.ui.Button(custom_id=custom_id)
            item = await button.from_custom_id(interaction, placeholder, match)
            item._refresh_state(interaction, data)  # a select's chosen values
            await item.callback(interaction)
            return
        log.warning("forwarded click %s: no button reads %r", click.interaction_id, custom_id)

    async def close(self) -> None:
        """Stop taking clicks."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
