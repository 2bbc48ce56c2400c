"""A click on a button none of Cardroom's classes reads — another app's, or one whose
custom_id is damaged — gets a private "That button is not one of ours", never silence."""

from __future__ import annotations

import discord
import pytest
import simcord

from bot.app import CardroomBot
from tests.bot.helpers import add_player, answer, cards_in, open_table, text_of


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
    view: discord.ui.View = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(custom_id=custom_id, label="Press"))
    await bot.get_partial_messageable(channel.id).send("a message", view=view)
    result = answer(await ann.click(channel.history()[-1], label="Press"))
    assert result.ephemeral and text_of(result).strip() == "That button is not one of ours."


@pytest.mark.parametrize(
    "button", ["cr:step:{table}:{revision}::0", "cr:refresh:{table}", "cr:deck:{table}"]
)
async def test_a_hand_button_on_a_message_everyone_sees_never_draws_the_hand_there(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    button: str,
) -> None:
    """A hand's buttons draw the clicker's hand in place: on a message of the channel (a
    forged click: a hand's custom_id on a lobby message) that put their cards in it, for
    everyone to see. Only a private message (a Hand view, a DM) is drawn in."""
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    custom_id = button.format(table=table.table_id, revision=table.revision)
    view: discord.ui.View = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(custom_id=custom_id, label="Press"))
    await bot.get_partial_messageable(channel.id).send("a message", view=view)
    public = channel.history()[-1]
    result = await ann.member.click(public, label="Press")
    assert result.ephemeral and text_of(answer(result)).strip() == "That button is not one of ours."
    shown = next(m for m in channel.history() if m.id == public.id)
    assert text_of(shown).startswith("a message") and not cards_in(text_of(shown))


@pytest.mark.parametrize("action", ["start", "join", "cancel"])
async def test_a_lobby_button_on_another_message_changes_nothing(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    action: str,
) -> None:
    """A lobby's custom_id on another message (here in another channel: found by the
    interaction fuzzer) is forged: Start there opened the table's thread from that message,
    and two forged Starts left two tables in one thread."""
    ann = add_player(env, guild, "ann")
    bob = add_player(env, guild, "bob")
    lobby = answer(await ann.member.slash(channel, "game start fishing"))
    lobby_id = bot.tables.by_channel[channel.id]
    await bob.member.click(lobby, label="Join")
    elsewhere = guild.create_text_channel("elsewhere")
    view: discord.ui.View = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(custom_id=f"cr:lobby:{lobby_id}:{action}", label="Press"))
    await bot.get_partial_messageable(elsewhere.id).send("a message", view=view)
    result = answer(await ann.member.click(elsewhere.history()[-1], label="Press"))
    assert result.ephemeral and text_of(result).strip() == "That button is not one of ours."
    assert bot.tables.tables == {} and not elsewhere.threads
    assert [seat.name for seat in bot.tables.lobbies.get(lobby_id).seats] == ["ann", "bob"]
