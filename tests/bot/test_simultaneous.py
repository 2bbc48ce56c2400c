"""Moves made at the same moment: a click is stale only when the clicker's own legal actions
changed since its view was drawn (its own move, a double click, a move that took its option
away); another seat's move that leaves them as they were never bounces it."""

from __future__ import annotations

import simcord

from bot.app import CardroomBot
from tests.bot.helpers import (
    add_player,
    open_hand,
    open_table,
    play,
    table_message,
)


async def test_people_and_the_ai_looking_at_once_all_land_and_a_newer_hand_closes_the_older(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob, cara = (add_player(env, guild, name) for name in ("ann", "bob", "cara"))
    table = await open_table(bot, channel, [ann, bob, cara], "cambio", 0)
    assert table.revision == 0 and set(table.state.waiting_for()) == {0, 1, 2}
    anns_old = await ann.member.click(table_message(channel, table), label="Hand")
    anns_view, bobs_view = [await open_hand(p, channel, table) for p in (ann, bob)]  # move 0
    # ann's newer hand replaces her older one: that message is gone, no stub left
    assert anns_old.response is None
    await cara.member.slash(channel, "game leave")  # the AI takes her seat and looks at once
    assert [seat for seat, _ in table.actions] == [2]
    await play(ann, table, "look C D", shown=anns_view)  # drawn before the AI's look
    await play(bob, table, "look A B", shown=bobs_view)  # drawn before ann's look too
    assert table.actions[1:] == [(0, "look C D"), (1, "look A B")]
