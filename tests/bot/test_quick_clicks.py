"""Every click in a hand is acknowledged before any storage or picture work: Discord shows at
once that it took, whatever the database or the drawing then costs."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import discord
import pytest
import simcord

from bot.app import CardroomBot
from bot.ui import PICTURES
from tests.bot.helpers import (
    add_player,
    click_through,
    hand_dm,
    open_table,
    table_message,
)


@contextmanager
def order_of_work(bot: CardroomBot) -> Iterator[list[str]]:
    """What the bot does, in order: acknowledging an interaction, saving a game, reading a
    person's deck style, drawing a picture."""
    done: list[str] = []
    defer = discord.InteractionResponse.defer
    save = bot.storage.running.save
    refresh = bot.wiring.deck_styles.refresh
    picture = PICTURES.picture

    async def deferred(self: discord.InteractionResponse[Any], *args: Any, **kwargs: Any) -> Any:
        done.append("acknowledged")
        return await defer(self, *args, **kwargs)

    async def saved(*args: Any, **kwargs: Any) -> Any:
        done.append("saved")
        return await save(*args, **kwargs)

    async def refreshed(*args: Any, **kwargs: Any) -> Any:
        done.append("read")
        return await refresh(*args, **kwargs)

    def drawn(*args: Any, **kwargs: Any) -> Any:
        done.append("drawn")
        return picture(*args, **kwargs)

    with (
        mock.patch.object(discord.InteractionResponse, "defer", deferred),
        mock.patch.object(bot.storage.running, "save", saved),
        mock.patch.object(bot.wiring.deck_styles, "refresh", refreshed),
        mock.patch.object(PICTURES, "picture", drawn),
    ):
        yield done


@pytest.mark.parametrize("where", ["hand view", "dm"])
async def test_a_move_click_is_acknowledged_before_it_is_saved_or_drawn(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    where: str,
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    assert table.state.waiting_for() == (0,)
    if where == "dm":
        actor: simcord.MemberActor | simcord.UserHandle = ann.user
        hand: Any = hand_dm(ann, table)
    else:
        actor = ann.member
        with order_of_work(bot) as opening:
            hand = (await ann.member.click(table_message(channel, table), label="Hand")).response
        assert opening[0] == "acknowledged" and {"read", "drawn"} <= set(opening)
    revision = table.revision
    with order_of_work(bot) as moving:
        assert await click_through(actor, hand, table, random.Random(3), [])
    assert table.revision > revision
    assert moving[0] == "acknowledged" and {"saved", "drawn"} <= set(moving)
