"""The channel's private Hand view follows the game: edited to each new position (also after a
move made in the hand DM), replaced by a newer one, closed plainly once Discord stops taking
its edits; a refused edit never breaks the move that caused it."""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
import simcord

from bot.app import CardroomBot
from bot.settings import Settings
from bot.tables.open_hands import LIFETIME, STOPPED_FOLLOWING
from bot.tables.session import TableSession
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    Player,
    add_player,
    components,
    hand_dm,
    move_buttons,
    move_by_dm,
    open_hand,
    open_table,
    table_message,
    text_of,
)

TURN_SECONDS = 600


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # one timeout, not three (the AI would keep the seat), while a view's life runs out
    return fast_settings(tmp_path, turn_seconds=TURN_SECONDS)


async def two_players(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> tuple[TableSession, Player, Player]:
    """A fishing table of two people: the one to move first, then the other."""
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    first = table.state.waiting_for()[0]
    return (table, ann, bob) if first == 0 else (table, bob, ann)


def refuse_hand_edits(env: simcord.Env, status: int, code: int) -> None:
    """Make Discord refuse every edit of an interaction's answer from now on."""
    env.inject_error(
        "PATCH", "/webhooks/*/messages/@original", status=status, code=code, times=None
    )


async def test_an_open_hand_follows_every_move_also_one_made_in_the_dm(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, mover, other = await two_players(env, bot, guild, channel)
    movers_view = await open_hand(mover, channel, table)
    others_view = await open_hand(other, channel, table)
    assert "waiting for" in text_of(others_view) and move_buttons(others_view) == []
    assert "follows the game until" in text_of(others_view)
    # the mover plays in the DM: both Hand views are drawn at the new position
    assert await move_by_dm(mover, table, random.Random(1))
    assert "Your turn" in text_of(others_view) and move_buttons(others_view)
    assert "waiting for" in text_of(movers_view) and move_buttons(movers_view) == []
    assert "moved on" not in text_of(movers_view) + text_of(others_view)
    # the other plays in their DM too: their Hand view offers nothing of the position before
    assert await move_by_dm(other, table, random.Random(2))
    assert "waiting for" in text_of(others_view) and move_buttons(others_view) == []
    assert "Your turn" in text_of(movers_view) and move_buttons(movers_view)
    labels = {str(item["label"]) for item in move_buttons(movers_view)}
    assert labels == {str(item["label"]) for item in move_buttons(hand_dm(mover, table))}


async def test_a_second_hand_click_replaces_the_first(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, mover, _ = await two_players(env, bot, guild, channel)
    first = await mover.member.click(table_message(channel, table), label="Hand")
    second = await mover.member.click(table_message(channel, table), label="Hand")
    assert first.response is None, "the first Hand view is gone, no stub left"
    assert second.response is not None and move_buttons(second.response)


@pytest.mark.parametrize(
    ("status", "code"),
    [(404, 10015), (429, 0), (500, 0)],
    ids=["expired", "rate-limited", "server-error"],
)
async def test_a_refused_edit_of_a_hand_never_breaks_the_move(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    status: int,
    code: int,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table, _, other = await two_players(env, bot, guild, channel)
    others_view = await open_hand(other, channel, table)
    before = text_of(others_view)
    refuse_hand_edits(env, status, code)
    revision = table.revision
    # the mover's time runs out: the AI's move for them is what the view would follow
    await env.advance_time(TURN_SECONDS + 1)
    assert table.revision == revision + 1, "the move stands"
    assert text_of(others_view) == before, "Discord refused the edit: the view is as it was"
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    # the other's own moves still work, from the DM
    assert await move_by_dm(other, table, random.Random(2))


async def test_a_view_near_the_end_of_its_life_says_to_press_hand_again(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, _, other = await two_players(env, bot, guild, channel)
    others_view = await open_hand(other, channel, table)
    await env.advance_time(TURN_SECONDS + 1)  # the mover's time runs out: the view follows
    assert "Your turn" in text_of(others_view)
    await env.advance_time((LIFETIME - timedelta(seconds=TURN_SECONDS - 20)).total_seconds())
    assert await move_by_dm(other, table, random.Random(1))
    assert STOPPED_FOLLOWING.replace("**", "") in text_of(others_view).replace("**", "")
    assert components(others_view) == []


async def test_a_hand_that_cannot_be_drawn_leaves_the_table_and_the_others_going(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table, _, other = await two_players(env, bot, guild, channel)
    others_view = await open_hand(other, channel, table)
    before = text_of(others_view)
    table_before = text_of(table_message(channel, table))
    revision = table.revision
    broken = mock.patch.object(bot.tables.presenter, "_hand_view", side_effect=RuntimeError)
    with broken:
        await env.advance_time(TURN_SECONDS + 1)  # the mover's time runs out: a move to follow
    assert table.revision == revision + 1, "the move stands"
    assert text_of(others_view) == before, "that view could not be drawn: left as it was"
    assert "could not draw" in caplog.text
    assert text_of(table_message(channel, table)) != table_before, "the table was edited"
    assert await move_by_dm(other, table, random.Random(3)), "the game goes on"
