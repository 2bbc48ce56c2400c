"""Tables where the bot is not a member: whole games in a group DM through the
user-installed app (``tests/bot/group_dm.py``), the table shown through interaction tokens
only, resting when every token is about to expire and brought back by a click."""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord

from bot.app import CardroomBot
from bot.tables.session import TableSession
from engine.registry import games
from tests.bot.group_dm import GroupDm
from tests.bot.helpers import members_of, move_buttons, short_options, shown_pick, text_of


async def open_group_table(
    group: GroupDm, bot: CardroomBot, game_id: str, ai_seats: int
) -> TableSession:
    """The first person opens a lobby with the app, the others join, AI seats, Start."""
    host, *others = group.people
    options = short_options(games()[game_id])
    lobby = (await group.slash(host, f"game start {game_id}", **options)).response
    assert lobby is not None, "the lobby was not answered"
    for person in others:
        await group.click(person, lobby, label="Join")
    for _ in range(ai_seats):
        await group.click(host, lobby, label="Add AI")
    await group.click(host, lobby, label="Start")
    return next(t for t in bot.tables.tables.values() if t.channel_id == group.channel_id)


def table_shown(group: GroupDm, bot: CardroomBot, table: TableSession) -> Any:
    """The table's message in the group DM (shown through a token)."""
    message_id = bot.wiring.anywhere.tables[table.table_id].message_id
    return next(m for m in group.history() if m.id == message_id)


async def move_in_hand(
    group: GroupDm, person: simcord.UserHandle, table: TableSession, rng: random.Random
) -> None:
    """Open the Hand view from the table and click options until a move is made."""
    bot_table = table
    shown = table_shown(group, group.env.bot, table)  # type: ignore[arg-type]
    result = await group.click(person, shown, label="Hand")
    assert result.ephemeral and result.response is not None
    hand: Any = result.response
    revision = bot_table.revision
    for _ in range(12):
        options = move_buttons(hand)
        if not options:
            return
        item = rng.choice(options)
        custom_id = str(item["custom_id"])
        if custom_id.startswith("cr:pick:"):
            seat = table.seat_of(person.id)
            assert seat is not None
            pick = shown_pick(table, seat, item)
            values = members_of(pick, rng.choice(pick.sets)[1])
            result = await group.select(person, hand, values, custom_id=custom_id)
        elif custom_id.startswith("cr:step-menu:"):
            value = rng.choice(item["options"])["value"]
            result = await group.select(person, hand, [value], custom_id=custom_id)
        else:
            result = await group.click(person, hand, custom_id=custom_id)
        if result.response is not None:
            hand = result.response
        if table.revision != revision or table.ended:
            return


async def play_out(group: GroupDm, bot: CardroomBot, table: TableSession, seed: str) -> None:
    """People move through Hand views; time passes for the AI and the clocks."""
    rng = random.Random(seed)
    for _ in range(3000):
        if table.ended:
            return
        waiting = [s for s in table.state.waiting_for() if table.seats[s].is_human]
        if waiting:
            user_id = table.seats[waiting[0]].user_id
            person = next(p for p in group.people if p.id == user_id)
            await move_in_hand(group, person, table, rng)
        else:
            await group.env.advance_time(6)
    raise AssertionError(f"{table.game.id} did not end")


@pytest.mark.parametrize("game_id", sorted(games()))
async def test_a_whole_game_in_a_group_dm(env: simcord.Env, bot: CardroomBot, game_id: str) -> None:
    group = GroupDm.open(env, "ann", "bob")
    count = min(games()[game_id].player_counts)
    table = await open_group_table(group, bot, game_id, max(0, count - 2))
    assert table.guild_id == group.channel_id  # the group DM's own board
    await play_out(group, bot, table, game_id)
    assert table.ending is not None and table.ending.finished
    texts = [text_of(m) for m in group.history()]
    assert any("wins" in t or "won" in t or "🏆" in t for t in texts), texts[-3:]
    # the bot never posted on its own: every message came through an interaction
    assert all(m.interaction_metadata is not None or m.webhook_id for m in group.history())
