"""What players read: no table ids in the table, its results or a hand (only /game history
keeps them, small, for an admin)."""

from __future__ import annotations

import random

import pytest
import simcord

from bot.app import CardroomBot
from tests.bot.helpers import (
    Playthrough,
    add_player,
    hand_dm,
    open_hand,
    open_table,
    results_message,
    table_message,
    text_of,
)


@pytest.mark.slow
async def test_the_table_and_its_results_show_no_table_id_and_history_keeps_it(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "swazi", 1, options={"target": 1})
    await env.advance_time(1)
    shown = text_of(table_message(channel, table))
    assert table.table_id not in shown and "Seats: ann · 🤖 " in shown
    await Playthrough(env, channel, [ann], table, random.Random(1)).to_the_end()
    results = results_message(channel)
    assert results is not None
    assert table.table_id not in text_of(results) and table.table_id not in text_of(
        table_message(channel, table)
    )
    history = await ann.member.slash(channel, "game history")
    assert history.response is not None
    assert f"-# table {table.table_id}" in text_of(history.response)


async def test_a_hand_names_the_game_and_the_player_but_no_table_id(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    await env.advance_time(1)
    for shown in (await open_hand(ann, channel, table), hand_dm(ann, table)):
        assert "Fishing · ann" in text_of(shown)
        assert table.table_id not in text_of(shown)
