"""Turn time as a lobby option: shown in the lobby, used by the table's clocks, kept with the
lobby and the running game across a restart."""

from __future__ import annotations

import simcord

from bot.app import CardroomBot
from tests.bot.helpers import add_player, kill_and_restart, open_table, release, text_of


async def test_a_quick_table_times_out_after_thirty_seconds(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    elsewhere = guild.create_text_channel("quick")
    lobby = await ann.member.slash(elsewhere, "game start fishing", turn_time="quick")
    assert lobby.response is not None
    assert "**Turn time:** 30 seconds a turn" in text_of(lobby.response)
    table = await open_table(bot, channel, [ann], "fishing", 1, {"turn_time": "quick"})
    if table.state.waiting_for() != (0,):
        await env.advance_time(1)  # the AI moves first
    assert table.state.waiting_for() == (0,)
    left = (table.deadlines[0] - env.now()).total_seconds()
    assert 29 <= left <= 30
    await env.advance_time(left + 1)
    assert table.seats[0].timeouts_in_a_row == 1


async def test_the_lobby_shows_the_server_default_when_none_is_chosen(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    opened = await ann.member.slash(channel, "game start fishing")
    assert opened.response is not None
    assert bot.settings.turn_seconds == 120
    assert "**Turn time:** 2 minutes a turn" in text_of(opened.response)


async def test_a_restart_keeps_the_lobby_and_the_table_turn_time(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1, {"turn_time": "post"})
    waiting = await ann.member.slash(
        guild.create_text_channel("later"), "game start cambio", turn_time="relaxed"
    )
    assert waiting.response is not None
    restarted = await kill_and_restart(env, bot)
    try:
        restored = restarted.tables.tables[table.table_id]
        assert restored.turn_seconds == 86_400
        if restored.state.waiting_for() != (0,):
            await env.advance_time(1)
        left = (restored.deadlines[0] - env.now()).total_seconds()
        assert 86_000 < left <= 86_400, "a day to move, as before the restart"
        (lobby,) = restarted.tables.lobbies.by_id.values()
        assert lobby.turn_seconds == 600
    finally:
        await release(restarted)
