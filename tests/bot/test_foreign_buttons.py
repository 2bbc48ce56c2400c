"""A click on a button none of Cardroom's classes reads — another app's, or one whose
custom_id is damaged — gets a private "That button is not one of ours", never silence."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.app import CardroomBot
from bot.ui import new_view
from tests.bot.helpers import answer, text_of


@pytest.mark.parametrize(
    "custom_id",
    ["another-app:vote:1", "cr:step:48970510d5:3:1x:0", "cr:hand:", "cr:lobby:abc:dance"],
)
async def test_a_button_that_is_not_ours_gets_a_plain_answer(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    custom_id: str,
) -> None:
    ann = guild.add_member(env.create_user("ann"))
    view = new_view(discord.ui.Button(custom_id=custom_id, label="Press"))
    await bot.get_partial_messageable(channel.id).send("a message", view=view)
    result = answer(await ann.click(channel.history()[-1], label="Press"))
    assert result.ephemeral and text_of(result).strip() == "That button is not one of ours."
