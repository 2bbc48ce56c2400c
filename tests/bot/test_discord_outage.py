"""Discord not answering, and faults in the calls that show a table.

While Discord answers 5xx (or drops the connection), each table update is tried again with
backoff, the outage is logged once (a warning, no ERROR per request), and once Discord
answers again the table and the hand DMs show the latest state, each in one edit: an update
a newer one superseded is never sent. A game's end is posted once it lands (tried for a
bounded time; its result is saved either way). A hand DM or a ping that fails for any other
reason is logged once; the other seats' DMs and the game go on.

While a shard's gateway is disconnected no click arrives from its servers: the clocks of
their tables stand still, and every waiting person gets a whole new turn once it is back.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Coroutine
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import simcord

from bot.app import CardroomBot, create_bot
from bot.ops import metrics
from bot.tables.display import ENDING_TRIES
from bot.tables.service import RECONNECTED
from bot.tables.session import TableSession
from engine.registry import get_game
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    Player,
    Playthrough,
    add_player,
    hand_dm,
    layout_of,
    move_by_hand,
    open_table,
    release,
    results_message,
    short_options,
    table_message,
    text_of,
)

NOT_ANSWERING = "Discord is not answering"


def pictures(message: object) -> list[str]:
    """The alt text of every picture of a message (it names the cards shown)."""
    return [
        str(media["description"]) for item in layout_of(message) for media in item.get("items", [])
    ]


def shows_the_latest_state(channel: simcord.ChannelHandle, table: TableSession) -> bool:
    """Whether the table message shows the table's public view as it is now."""
    public = table.game.layout(table.state.public_view())
    return pictures(table_message(channel, table)) == [public.alt_text(table.names)]


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def warnings_saying(caplog: pytest.LogCaptureFixture, text: str) -> int:
    return len([r for r in caplog.records if r.levelno == logging.WARNING and text in r.message])


def table_edits(env: simcord.Env, channel: simcord.ChannelHandle, table: TableSession) -> int:
    """The edits of the table message the bot asked for (answered or not)."""
    path = f"/channels/{channel.id}/messages/{table.table_message_id}"
    return len([r for r in env.http_requests if r.method == "PATCH" and r.path == path])


def discord_down(env: simcord.Env, path: str = "/channels/*") -> None:
    """Discord answers every REST call to ``path`` with a 503 until ``discord_back``."""
    env.inject_error("*", path, status=503, message="Service Unavailable", times=None)


def discord_back(env: simcord.Env) -> None:
    env.backend.faults.clear()


@pytest.mark.slow
async def test_ten_seconds_of_5xx_give_one_warning_and_then_the_latest_state(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    revision = table.revision
    rng = random.Random(3)
    discord_down(env)  # channels and DMs; the answers to clicks still arrive
    down_at = env.now()
    for _ in range(5):
        if 0 in table.state.waiting_for():
            assert await move_by_hand(ann, channel, table, rng)
        await env.advance_time(2)
    # the retries wait on the test's clock (backoff.wait_to_retry), never on the machine's:
    # a retry that slept by itself would have moved simcord's clock during ann's clicks
    assert (env.now() - down_at).total_seconds() == 10
    assert table.revision >= revision + 4, "the game went on: ann's moves and the AI's"
    assert not shows_the_latest_state(channel, table)
    tried = table_edits(env, channel, table)
    assert tried <= 6, "tried again with backoff, not at every change or every second"

    discord_back(env)
    await env.advance_time(40)
    assert shows_the_latest_state(channel, table)
    assert table_edits(env, channel, table) == tried + 1, "one edit: the latest state"
    seat = table.seat_of(ann.id)
    assert seat is not None
    mine = table.game.layout(table.state.view(seat))
    assert pictures(hand_dm(ann, table)) == [mine.alt_text(table.names)]
    assert errors(caplog) == []
    assert warnings_saying(caplog, NOT_ANSWERING) == 1
    assert "Discord answers again" in caplog.text


@pytest.mark.slow
@pytest.mark.parametrize("comes_back", [True, False], ids=["discord-back", "never-back"])
async def test_a_result_post_is_tried_until_it_lands(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
    comes_back: bool,
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "stuck", 1, short_options(get_game("stuck")))
    ended = bot.tables.display.ended

    def down_at_the_end(session: TableSession, forget: Coroutine[Any, Any, None]) -> None:
        # nothing new posts in the channel from the game's end on (edits still land)
        env.backend.faults.append(
            {"method": "POST", "path": f"/channels/{channel.id}/messages", "status": 503}
            | {"code": 0, "message": "Service Unavailable", "times": None}
        )
        ended(session, forget)

    with mock.patch.object(bot.tables.display, "ended", side_effect=down_at_the_end):
        await Playthrough(env, channel, [ann], table, random.Random(4)).to_the_end()
    await env.advance_time(20)
    assert results_message(channel) is None
    [finished] = await bot.storage.results.history(table.guild_id)
    assert finished.table_id == table.table_id, "the result is saved whatever is posted"
    if comes_back:
        discord_back(env)
        await env.advance_time(60)
        assert len([m for m in channel.history() if "— results" in text_of(m)]) == 1
    else:
        await env.advance_time(30 * ENDING_TRIES)
        assert results_message(channel) is None
        assert warnings_saying(caplog, "its end could not be posted") == 1
    assert errors(caplog) == []
    assert warnings_saying(caplog, NOT_ANSWERING) == 1


async def test_a_hand_dm_that_raises_is_logged_once_and_the_other_dms_go_on(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    hand_changed = bot.tables.presenter.hand_changed

    async def broken_for_seat_0(session: TableSession, seat: int) -> tuple[int | None] | None:
        if seat == 0:
            raise RuntimeError("a bug in drawing seat 0's DM")
        return await hand_changed(session, seat)

    rng = random.Random(5)
    with mock.patch.object(bot.tables.presenter, "hand_changed", side_effect=broken_for_seat_0):
        for _ in range(3):
            mover = mover_of(table, [ann, bob])
            assert await move_by_hand(mover, channel, table, rng)
            await env.advance_time(1)
            seat = table.seat_of(bob.id)
            assert seat is not None
            bobs = table.game.layout(table.state.view(seat))
            assert pictures(hand_dm(bob, table)) == [bobs.alt_text(table.names)]
    assert len(errors(caplog)) == 1
    assert "its hand DM failed; the table goes on" in errors(caplog)[0]
    driver = bot.tables.timers.drivers.get(table.table_id)
    assert driver is not None and not driver.done(), "the table is live"


def mover_of(table: TableSession, players: list[Player]) -> Player:
    seat = table.state.waiting_for()[0]
    return next(p for p in players if p.id == table.seats[seat].user_id)


async def test_a_ping_that_raises_is_logged_once(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    rng = random.Random(6)
    broken = mock.AsyncMock(side_effect=KeyError("a bug in the ping"))
    with mock.patch.object(bot.tables.presenter, "ping", broken):
        table = await open_table(bot, channel, [ann, bob], "fishing", 0)
        for _ in range(3):
            assert await move_by_hand(mover_of(table, [ann, bob]), channel, table, rng)
            await env.advance_time(1)
    assert broken.await_count >= 3, "each turn's ping was tried"
    assert len(errors(caplog)) == 1
    assert "its ping failed; the table goes on" in errors(caplog)[0]


async def test_a_40_second_gateway_outage_on_a_10_second_clock_hands_nobody_to_the_ai(
    tmp_path: Path,
) -> None:
    # the supervisor checks twice during the outage: a table whose clocks wait for its shard
    # is live, and is not repaired
    settings = fast_settings(tmp_path, turn_seconds=10, supervisor_seconds=15)
    bot = create_bot(settings)
    try:
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            guild = env.create_guild(name="Cardroom test")
            channel = guild.create_text_channel("games")
            ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
            table = await open_table(bot, channel, [ann, bob], "fishing", 0)
            revision = table.revision
            repairs = {kind: metrics.repairs(kind) for kind in ("no-driver", "no-clock")}
            shard = bot.get_shard(0)
            assert shard is not None
            with env._bot_scope():  # as discord.py's own reconnecting does, in the bot's tasks
                await shard.disconnect()
            await env.advance_time(40)
            assert table.revision == revision, "nobody's time ran out while nobody could move"
            assert not table.ended and all(seat.is_human for seat in table.seats)
            assert {kind: metrics.repairs(kind) for kind in repairs} == repairs

            with env._bot_scope():  # so simulated time drives the tasks it starts
                await shard.reconnect()
            await env.advance_time(0.5)  # its servers arrive: the shard is ready
            assert table.log[-1].event.text == RECONNECTED
            waiting = table.state.waiting_for()[0]
            # as after a restart: a whole new turn from the reconnection
            await env.advance_time(9)
            assert table.revision == revision
            await env.advance_time(2)
            assert table.revision == revision + 1, "the clock runs again"
            assert table.seats[waiting].timeouts_in_a_row == 1
            assert RECONNECTED in text_of(table_message(channel, table))
    finally:
        await release(bot)
