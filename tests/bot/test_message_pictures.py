"""A message's pictures always refer to what the message holds: the hand DM and the Hand view
are edited both by clicks in them and by the bot, so each edit of them carries its own
pictures; one that counted on the pictures the message had before would refer to a file the
message no longer has (Discord answers 400) once the other editor replaced them."""

from __future__ import annotations

import logging
from typing import Any, cast
from unittest import mock

import discord
import pytest
import simcord

from bot.answers import APOLOGY
from bot.app import CardroomBot
from bot.pictures import DeckStyle
from bot.tables.hand_view import DECK_LABELS, hand_message
from bot.tables.open_hands import STOPPED_FOLLOWING, superseded_message
from tests.bot.helpers import add_player, answer, hand_dm, open_hand, open_table, text_of

REFRESH = "↻ Refresh"


async def test_refresh_clicked_as_the_bot_closes_the_view_shows_the_hand(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    hand = await open_hand(ann, channel, table)
    assert hand.attachments, "the view shows ann's cards"
    edit = discord.Interaction.edit_original_response
    closed: list[bool] = []

    async def closed_first(interaction: discord.Interaction, **kwargs: Any) -> Any:
        data = cast("dict[str, Any]", interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if custom_id.startswith("cr:refresh:") and not closed:
            # the view closes (its pictures go) after the click, before the click's answer
            closed.append(True)
            await edit(interaction, **superseded_message(STOPPED_FOLLOWING).kwargs())
        return await edit(interaction, **kwargs)

    with mock.patch.object(discord.Interaction, "edit_original_response", closed_first):
        refreshed = await ann.member.click(hand, label=REFRESH)
    assert closed, "the race took place"
    assert APOLOGY not in "".join(text_of(m) for m in refreshed.followups)
    shown = answer(refreshed)
    seat = table.seat_of(ann.id)
    assert seat is not None
    expected = hand_message(table, seat, bot.tables.clock()).filenames()
    assert [a.filename for a in shown.attachments] == expected


async def test_a_hand_dm_redrawn_after_a_click_in_it_changed_its_picture_keeps_a_picture(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    seat = table.seat_of(ann.id)
    assert seat is not None

    def pictures_in(style: DeckStyle) -> list[str]:
        return hand_message(table, seat, bot.tables.clock(), full=True, style=style).filenames()

    standard, four_colour = pictures_in(DeckStyle.STANDARD), pictures_in(DeckStyle.FOUR_COLOUR)
    assert standard != four_colour
    # the bot sent the DM in red/black; a click in the DM draws it anew in four colours
    await ann.user.click(hand_dm(ann, table), label=DECK_LABELS[DeckStyle.FOUR_COLOUR])
    assert [a.filename for a in hand_dm(ann, table).attachments] == four_colour
    # back to red/black from the Hand view: the bot redraws the DM as it first sent it
    hand = await open_hand(ann, channel, table)
    await ann.member.click(hand, label=DECK_LABELS[DeckStyle.STANDARD])
    await env.advance_time(1)
    assert [a.filename for a in hand_dm(ann, table).attachments] == standard
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
