"""Moves made at the same moment: a click is stale only when the clicker's own legal actions
changed since its view was drawn (its own move, a double click, a move that took its option
away); another seat's move that leaves them as they were never bounces it."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.app import CardroomBot
from bot.settings import Settings
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    add_player,
    answer,
    move_buttons,
    open_hand,
    open_table,
    play,
    text_of,
)

AI_DELAY = 5.0


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The AI waits a little, so the people see the opening before it looks."""
    return fast_settings(tmp_path, ai_delay_seconds=AI_DELAY)


async def test_people_and_the_ai_looking_at_once_all_land_and_a_double_click_is_refused(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "cambio", 1)
    assert table.revision == 0 and set(table.state.waiting_for()) == {0, 1, 2}
    anns_view, bobs_view = [await open_hand(p, channel, table) for p in (ann, bob)]  # move 0
    anns_copy = answer(await ann.member.slash(channel, "game hand"))  # a second copy of hers
    await env.advance_time(AI_DELAY + 1)
    assert [seat for seat, _ in table.actions] == [2], "the AI looked while people chose"
    await play(ann, table, "look C D", shown=anns_view)
    await play(bob, table, "look A B", shown=bobs_view)  # at move 0 too: still possible
    assert table.actions[1:] == [(0, "look C D"), (1, "look A B")]
    moves = list(table.actions)
    first_step = str(move_buttons(anns_copy)[0]["custom_id"])
    again = answer(await ann.member.click(anns_copy, custom_id=first_step))
    assert "That move is no longer possible" in text_of(again)
    assert table.actions == moves
