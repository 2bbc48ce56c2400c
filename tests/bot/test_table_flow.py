"""Lobby permissions, stale and double clicks, strangers, closed DMs, timers, rules."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import discord
import pytest
import simcord
from discord import app_commands

from bot.app import CardroomBot, create_bot
from bot.tables.records import NO_PLAYERS_LEFT, EndKind
from bot.tables.session import MAX_TIMEOUTS
from engine.core import PITCH_LIMIT
from engine.registry import games
from tests.bot.conftest import admin, fast_settings
from tests.bot.helpers import (
    SeededDraws,
    add_player,
    components,
    hand_dm,
    last_notice,
    move_buttons,
    move_by_hand,
    open_table,
    release,
    table_message,
    text_of,
)


async def open_lobby(
    player: simcord.MemberActor, channel: simcord.ChannelHandle, **options: object
) -> simcord.ResponseMessage:
    result = await player.slash(channel, "game start fishing", **options)
    assert result.response is not None
    return result.response


async def test_lobby_shows_options_seats_and_host(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    lobby = await open_lobby(ann.member, channel, target=30)
    text = text_of(lobby)
    assert "host ann" in text and "1. ann" in text
    # people's words for the options, never the names typed in /game start
    assert "**Target:** 30 points" in text and "**Several captures at once:** off" in text
    assert "**target**" not in text and "multi_capture" not in text
    labels = [item["label"] for item in components(lobby)]
    assert labels == ["Join", "Leave", "Add AI", "Start", "Cancel", "How to play"]


async def test_each_game_has_its_own_start_command_with_exactly_its_options(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    game_group = next(c for c in bot.tree.get_commands() if c.name == "game")
    assert isinstance(game_group, app_commands.Group)
    start = game_group.get_command("start")
    assert isinstance(start, app_commands.Group)
    for game in games().values():
        command = start.get_command(game.id)
        assert isinstance(command, app_commands.Command), game.id
        # the slash menu tells a newcomer what the game is, within Discord's limit
        assert command.description == game.pitch and len(game.pitch) <= PITCH_LIMIT
        turn_time, *options = command.parameters  # the table's, then exactly the game's
        assert turn_time.name == "turn_time" and not turn_time.required
        assert [p.name for p in options] == [o.name for o in game.options]
        for parameter, option in zip(options, game.options, strict=True):
            assert not parameter.required
            kind = discord.AppCommandOptionType.boolean if option.kind is bool else None
            assert parameter.type == (kind or discord.AppCommandOptionType.integer)
            if option.maximum is not None:
                assert parameter.max_value == option.maximum
    ann = add_player(env, guild, "ann")
    with pytest.raises(simcord.OptionError):  # Discord itself refuses another game's option
        await ann.member.slash(channel, "game start fishing", memory_aid=True)
    with pytest.raises(simcord.OptionError):  # and a number out of the option's range
        await ann.member.slash(channel, "game start fishing", target=10_0.0)


async def test_only_the_host_starts_or_cancels(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    lobby = await open_lobby(ann.member, channel)
    await bob.member.click(lobby, label="Join")
    for label in ("Start", "Cancel"):
        result = await bob.member.click(lobby, label=label)
        assert result.ephemeral
        assert f"Only the host can {label.lower()}" in result.response.content  # type: ignore[union-attr]
    result = await ann.member.click(lobby, label="Cancel")
    assert "cancelled" in text_of(channel.history()[-1])


async def test_start_outside_the_player_range_is_refused(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    lobby = await open_lobby(ann.member, channel)
    result = await ann.member.click(lobby, label="Start")
    assert result.ephemeral
    assert "2, 3, 4 or 6 players, not 1" in result.response.content  # type: ignore[union-attr]
    for _ in range(4):
        await ann.member.click(lobby, label="Add AI")
    seats = text_of(channel.history()[-1])
    assert all(name in seats for name in ("Ada", "Alan", "Grace", "Kurt")), seats
    result = await ann.member.click(lobby, label="Start")
    assert "cannot be played by 5" in result.response.content  # type: ignore[union-attr]
    assert bot.tables.lobbies.by_id, "a refused start keeps the lobby"


async def test_one_game_per_channel_and_lobby_expiry(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    await open_lobby(ann.member, channel)
    result = await bob.member.slash(channel, "game start fishing")
    assert result.ephemeral and "already has a game" in result.response.content  # type: ignore[union-attr]
    await env.advance_time(601)
    assert not bot.tables.lobbies.by_id
    assert "expired after 10 idle minutes" in text_of(channel.history()[0])
    await open_lobby(bob.member, channel)  # the channel is free again


async def test_stop_needs_host_or_manage_server(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    result = await bob.member.slash(channel, "game stop")
    assert result.ephemeral and "Only the host" in result.response.content  # type: ignore[union-attr]
    assert not table.ended
    boss = admin(env, guild, "boss")
    result = await boss.slash(channel, "game stop")
    assert result.ephemeral
    assert table.ending is not None and table.ending.kind is EndKind.STOPPED
    assert table.ending.text == "boss stopped the game."
    assert "boss stopped the game" in channel.history()[-1].content
    assert await bot.storage.running.load() == []


async def test_a_host_who_stops_a_game_they_play_leaves_it_and_takes_the_loss(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    result = await ann.member.slash(channel, "game stop")
    assert result.ephemeral and "counts as a loss" in text_of(result.response)
    assert not table.ended and table.seats[0].is_ai, "the AI plays ann's seat"
    assert "ann (the host) stopped playing" in last_notice(channel)
    await bob.member.slash(channel, "game leave")  # nobody left: it ends without a result
    assert table.ended


async def test_stale_and_double_clicks_apply_one_move_and_answer_privately(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    mover = [ann, bob][table.state.waiting_for()[0]]
    # Hand views follow the game as often as the table message is edited: with that paced to
    # once an hour, clicks in a Hand view arrive before it follows the moves below.
    bot.tables.display.edit_seconds = 3600
    dm = hand_dm(mover, table)
    view = (await mover.member.slash(channel, "game hand")).response
    assert view is not None
    # a button that makes a whole move at once (no "…": no further step), in the DM
    button = next(b for b in move_buttons(dm) if not str(b["label"]).endswith("…"))
    revision = table.revision
    result = await mover.user.click(dm, custom_id=button["custom_id"])
    assert table.revision == revision + 1 and len(table.actions) == 1
    assert result.response is not None and "waiting for" in text_of(result.response)
    # the same button once more, on the other copy of the hand: a double click
    result = await mover.member.click(view, custom_id=button["custom_id"])
    assert result.response is not None and result.response.ephemeral
    assert "no longer possible" in text_of(result.response)
    assert len(table.actions) == 1
    # a stale click after another move: the other player's view, then their turn times out
    other = bob if mover is ann else ann
    other_view = (await other.member.slash(channel, "game hand")).response
    assert other_view is not None
    other_button = move_buttons(other_view)[0]
    await env.advance_time(bot.settings.turn_seconds + 1)
    moves = len(table.actions)
    assert moves == 2, "the AI played the timed-out turn"
    again = await other.member.click(other_view, custom_id=other_button["custom_id"])
    assert len(table.actions) == moves
    assert again.response is not None and again.response.ephemeral
    assert "no longer possible" in text_of(again.response)


async def test_sent_views_are_not_kept_in_memory(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    for _ in range(3):
        result = await ann.member.click(table_message(channel, table), label="Hand")
        assert result.ephemeral and move_buttons(result.response)
    # Clicks are routed by custom_id: discord.py must not hold the lobby or the private hands
    # (each with a 15-minute expiry task) in its view store.
    store = bot._connection._view_store
    assert not store._views and not store._synced_message_views
    expiring = [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
    assert not expiring


async def test_a_stranger_gets_a_private_answer(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    eve = add_player(env, guild, "eve")
    result = await eve.member.click(table_message(channel, table), label="Hand")
    assert result.ephemeral
    assert "not seated" in result.response.content  # type: ignore[union-attr]
    result = await eve.member.slash(channel, "game hand")
    assert result.ephemeral and "not seated" in result.response.content  # type: ignore[union-attr]


async def test_closed_dms_one_notice_and_the_game_goes_on(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    rng = random.Random(3)
    from tests.bot.helpers import move_by_hand

    for _ in range(6):
        seat = table.state.waiting_for()[0]
        await move_by_hand([ann, bob][seat], channel, table, rng)
    notices = [m for m in channel.history() if "cannot send you direct messages" in m.content]
    assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].content
    assert table.seats[1].dm_failed and not table.seats[0].dm_failed
    assert len(table.actions) == 6
    assert ann.user.dm_channel.history(), "ann still gets her hand by DM"


async def test_timer_ai_moves_three_timeouts_hand_over_and_no_humans_end(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    turn = bot.settings.turn_seconds
    for timeout in range(1, MAX_TIMEOUTS + 1):
        if table.state.waiting_for() != (0,):
            await env.advance_time(1)  # the AI moves first
        assert table.state.waiting_for() == (0,)
        revision = table.revision
        left = (table.deadlines[0] - env.now()).total_seconds()
        assert turn - 1 <= left <= turn
        await env.advance_time(left - 1)
        assert table.revision == revision, "no move before the deadline"
        await env.advance_time(2)
        assert table.revision > revision, "the AI played for the timed-out seat"
        if timeout < MAX_TIMEOUTS:
            assert table.seats[0].timeouts_in_a_row == timeout
            assert not table.seats[0].is_ai
    assert table.seats[0].is_ai
    texts = [m.content for m in channel.history()]
    assert any("ran out of time 3 times" in t for t in texts)
    assert table.ended
    assert any("No players are left" in t for t in texts)


async def test_a_move_resets_the_timeout_count(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    await env.advance_time(bot.settings.turn_seconds + 1)
    assert table.seats[0].timeouts_in_a_row == 1
    if table.state.waiting_for() != (0,):
        await env.advance_time(1)
    from tests.bot.helpers import move_by_hand

    assert await move_by_hand(ann, channel, table, random.Random(1))
    assert table.seats[0].timeouts_in_a_row == 0


async def test_leaving_hands_the_seat_to_the_ai(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    result = await bob.member.slash(channel, "game leave")
    assert result.ephemeral
    assert table.seats[1].is_ai and not table.ended
    result = await ann.member.slash(channel, "game leave")
    assert table.ending == NO_PLAYERS_LEFT
    assert "No players are left" in channel.history()[-1].content


async def test_rules_command_shows_the_rules_privately(
    env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    result = await ann.member.slash(channel, "game rules", game="fishing")
    assert result.ephemeral
    text = text_of(result.response)
    assert "Fishing" in text and "Example" in text


@pytest.mark.slow
async def test_table_edits_are_coalesced(tmp_path: Path) -> None:
    # past simcord's settle window (5 s), so only the test's clock ends the wait between edits
    settings = fast_settings(tmp_path, table_edit_seconds=10.0, ai_delay_seconds=0.0)
    bot = create_bot(settings)
    try:
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            bot.tables.draws = SeededDraws("coalesced edits")  # the same deal, the same moves
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            ann = add_player(env, guild, "ann")
            table = await open_table(bot, channel, [ann], "fishing", 1)
            await env.advance_time(11)

            def table_edits() -> int:
                path = f"/channels/{channel.id}/messages/{table.table_message_id}"
                return len([r for r in env.http_requests if r.method == "PATCH" and r.path == path])

            before = table_edits()
            rng = random.Random(5)
            # ann moves twice and the AI answers each at once: four changes within the interval,
            # shown in one edit at once and one when the interval is over (or all in one)
            actions = len(table.actions)
            assert await move_by_hand(ann, channel, table, rng)
            assert await move_by_hand(ann, channel, table, rng)
            assert len(table.actions) == actions + 4
            await env.advance_time(11)
            assert 1 <= table_edits() - before <= 2, "four changes, at most two edits"
    finally:
        await release(bot)
