"""Tables where the bot is not a member: whole games in a group DM through the
user-installed app (``tests/bot/group_dm.py``), the table shown through interaction tokens
only, resting when every token is about to expire and brought back by a click."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
import simcord

from bot.app import CardroomBot
from bot.tables.session import TableSession
from bot.tables.timers import TableTimers
from engine.registry import games
from tests.bot.group_dm import (
    DM,
    MISSING_ACCESS,
    GroupDm,
    move_in_hand,
    open_group_table,
    play_out,
    table_shown,
)
from tests.bot.helpers import (
    kill_and_restart,
    text_of,
)


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
    started = text_of(group.history()[0])  # the lobby, turned into the start
    assert "started" in started and "by DM" not in started  # no hand DMs here
    # the bot never posted on its own: every message came through an interaction
    assert all(m.interaction_metadata is not None or m.webhook_id for m in group.history())
    # the game counts on the group DM's own board, which /stats shows there
    stats = (await group.slash(group.people[0], "stats")).response
    assert stats is not None and table.game.name in text_of(stats)
    assert await bot.storage.results.game_ids(group.channel_id) == [game_id]


def table_text(group: GroupDm, bot: CardroomBot, table: TableSession) -> str:
    """What the table message reads now."""
    return text_of(table_shown(group, bot, table))


def driven(bot: CardroomBot, table: TableSession) -> bool:
    """Whether the table's driver (its clocks and AI) runs."""
    driver = bot.tables.timers.drivers.get(table.table_id)
    return driver is not None and not driver.done()


def expire_token(env: simcord.Env, token: str) -> None:
    """Discord stops taking ``token`` now (sooner than the bot counted)."""
    backend = env.backend
    record = backend.interactions[backend.interaction_tokens[token]]
    record.expires_at = backend.now_iso()


async def test_every_token_expired_and_the_table_was_brought_back(
    env: simcord.Env, bot: CardroomBot
) -> None:
    group = GroupDm.open(env, "ann", "bob")
    ann, bob = group.people
    table = await open_group_table(group, bot, "stuck", 0, turn_time="post")
    await move_in_hand(group, ann if table.seat_of(ann.id) == 0 else bob, table, random.Random(1))
    assert "Hand" in table_text(group, bot, table)
    await env.advance_time(14 * 60)  # no click for 14 minutes
    resting = table_text(group, bot, table)
    assert "This table is resting" in resting and "Bring it back" in resting
    assert not driven(bot, table)  # its clocks stand still
    for _ in range(2):  # and the supervisor leaves them so (it repairs at two checks)
        bot.tables.supervisor.check()
    assert not driven(bot, table)
    revision = table.revision
    await env.advance_time(3 * 3600)  # every token long expired: nothing moves meanwhile
    assert table.revision == revision and not table.ended
    stored = {row.table_id: row for row in await bot.storage.anywhere.all()}
    assert stored[table.table_id].asleep
    result = await group.click(bob, table_shown(group, bot, table), label="Bring it back")
    assert result.response is not None and "Hand" in text_of(result.response)
    assert driven(bot, table)  # the clocks run again
    await play_out(group, bot, table, "brought back")
    assert table.ending is not None and table.ending.finished


async def test_a_restart_goes_on_through_the_stored_tokens(
    env: simcord.Env, bot: CardroomBot
) -> None:
    group = GroupDm.open(env, "ann", "bob")
    table = await open_group_table(group, bot, "fishing", 0)
    human = next(p for p in group.people if table.seat_of(p.id) == table.state.waiting_for()[0])
    await move_in_hand(group, human, table, random.Random(2))
    shown_before = bot.wiring.anywhere.tables[table.table_id].message_id
    new = await kill_and_restart(env, bot)
    restored = new.tables.tables[table.table_id]
    # shown anew after the restart through the token stored before it, in the same message
    assert new.wiring.anywhere.tables[table.table_id].message_id == shown_before
    assert restored.revision == table.revision
    await play_out(group, new, restored, "restarted")
    assert restored.ending is not None and restored.ending.finished


async def test_a_refused_follow_up_posts_through_another_token(
    env: simcord.Env, bot: CardroomBot
) -> None:
    group = GroupDm.open(env, "ann", "bob")
    # the Start click's token may post no follow-up: the table comes through the lobby's
    env.inject_error("POST", "/webhooks/*", status=400, code=40094, times=1)
    table = await open_group_table(group, bot, "stuck", 0)
    assert "Hand" in table_text(group, bot, table)
    await play_out(group, bot, table, "refused")
    assert table.ending is not None and table.ending.finished


async def test_a_token_expired_mid_ai_turn_reposts_the_table(
    env: simcord.Env, bot: CardroomBot
) -> None:
    bot.settings.ai_delay_seconds = 5.5  # the AI's move lands after the token went
    group = GroupDm.open(env, "ann", "bob")
    ann = group.people[0]
    table = await open_group_table(group, bot, "stuck", 0)
    await bot.tables.leave(group.channel_id, group.people[1].id)  # the AI plays bob's seat
    anywhere = bot.wiring.anywhere.tables[table.table_id]
    assert anywhere.owner is not None
    old_message = anywhere.message_id
    while table.seats[table.state.waiting_for()[0]].user_id != ann.id:
        await env.advance_time(6)
    await move_in_hand(group, ann, table, random.Random(3))
    owner = anywhere.owner
    assert owner is not None
    expire_token(env, owner.value)
    revision = table.revision
    await env.advance_time(6)  # the AI moves: its table edit is refused, posted anew
    assert table.revision > revision
    assert anywhere.message_id != old_message
    await play_out(group, bot, table, "expired")
    assert table.ending is not None and table.ending.finished


async def test_the_bot_cannot_post_in_the_group_dm_by_itself(
    env: simcord.Env, bot: CardroomBot
) -> None:
    group = GroupDm.open(env, "ann", "bob")
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_partial_messageable(group.channel_id).send("hello")
    assert refused.value.code == MISSING_ACCESS


async def test_leaving_a_lobby_in_a_group_dm(env: simcord.Env, bot: CardroomBot) -> None:
    group = GroupDm.open(env, "ann", "bob")
    ann, bob = group.people
    lobby_message = (await group.slash(ann, "game start stuck")).response
    assert lobby_message is not None
    await group.click(bob, lobby_message, label="Join")
    # the bot may not edit the lobby by itself here: bob is told, the lobby's next click shows it
    left = (await group.slash(bob, "game leave")).response
    assert left is not None and "You left the lobby" in text_of(left)
    assert "could not update the lobby" not in text_of(left)  # no permission to ask for here
    lobby = bot.tables.lobbies.in_channel(group.channel_id)
    assert lobby is not None and lobby.seat_of(bob.id) is None
    shown = (await group.click(ann, lobby_message, label="Add AI")).response
    assert shown is not None and "bob" not in text_of(shown)


async def test_a_dm_game_counts_on_each_players_personal_board(
    env: simcord.Env, bot: CardroomBot
) -> None:
    dm = GroupDm.open(env, "ann", "bob", channel_type=DM)
    table = await open_group_table(dm, bot, "fishing", 0)
    assert table.guild_id == 0  # the personal board: every DM game, rated together
    await play_out(dm, bot, table, "dm")
    assert table.ending is not None and table.ending.finished
    assert await bot.storage.results.game_ids(0) == ["fishing"]
    # /stats in ann's own DM with the bot shows her personal board
    ann = dm.people[0]
    stats = (await ann.slash("stats")).response
    assert stats is not None and table.game.name in text_of(stats)


async def test_a_resting_table_stays_still_through_a_restart(
    env: simcord.Env, bot: CardroomBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = GroupDm.open(env, "ann", "bob")
    table = await open_group_table(group, bot, "stuck", 1, turn_time="post")
    await env.advance_time(14 * 60)  # no click: every token about to expire, the table rests
    assert "This table is resting" in table_text(group, bot, table)
    scheduled: list[str] = []
    schedule = TableTimers.schedule

    def recorded(timers: TableTimers, session: TableSession, *args: Any, **kwargs: Any) -> None:
        scheduled.append(session.table_id)
        schedule(timers, session, *args, **kwargs)

    monkeypatch.setattr(TableTimers, "schedule", recorded)
    new = await kill_and_restart(env, bot)
    # no clock of the resting table ever started (one started and cancelled later could
    # have moved its AI seat while the rest of the restore awaited)
    assert table.table_id not in scheduled
    restored = new.tables.tables[table.table_id]
    assert not driven(new, restored) and table.table_id in new.tables.resting
    await env.advance_time(3600)
    assert restored.revision == table.revision
    result = await group.click(
        group.people[0], table_shown(group, new, restored), label="Bring it back"
    )
    assert result.response is not None and driven(new, restored)
    assert table.table_id in scheduled
