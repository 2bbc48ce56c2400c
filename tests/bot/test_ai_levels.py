"""AI levels at the bot's tables: chosen in the lobby, shown at the seat, kept over a restart;
a seat handed to the AI plays normal; searching levels think in worker processes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import simcord

from bot.app import CardroomBot
from bot.errors import UserError
from bot.tables.thinking import AiPlayers
from engine.core import RandomAgent
from engine.registry import games
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    add_player,
    components,
    kill_and_restart,
    move_by_hand,
    open_table,
    table_message,
    text_of,
)
from tests.bot.records import GUILD


async def test_add_ai_adds_normal_and_offers_the_levels_privately(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    started = await ann.member.slash(channel, "game start fishing")
    lobby = started.response
    assert lobby is not None
    added = await ann.member.click(lobby, label="Add AI")
    assert "🤖 Ada (normal)" in text_of(channel.history()[-1])
    (offer,) = added.followups
    assert offer.flags.ephemeral and "plays at the **normal** level" in text_of(offer)
    assert [item["label"] for item in components(offer)] == ["Easy", "Normal", "Hard"]
    chosen = await ann.member.click(offer, label="Hard")
    assert "plays at the **hard** level" in text_of(chosen.response)
    assert "🤖 Ada (hard)" in text_of(channel.history()[-1])
    gathering = bot.tables.lobbies.get(bot.tables.by_channel[channel.id])
    assert [seat.level for seat in gathering.seats] == ["normal", "hard"]
    with pytest.raises(UserError, match="Only players seated"):  # bob is not seated
        gathering.set_ai_level(bob.id, "Ada", "easy")
    with pytest.raises(UserError, match="Alan is no longer at this table"):
        gathering.set_ai_level(ann.id, "Alan", "easy")


async def test_a_hard_seat_plays_shows_its_level_and_keeps_it_over_a_restart(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    started = await ann.member.slash(channel, "game start swazi")
    assert started.response is not None
    added = await ann.member.click(started.response, label="Add AI")
    await ann.member.click(added.followups[0], label="Hard")
    await ann.member.click(started.response, label="Start")
    table = bot.tables.tables[bot.tables.by_channel[channel.id]]
    assert table.seats[1].level == "hard"
    assert "🤖 Ada (hard)" in text_of(table_message(channel, table))
    rng = random.Random(2)
    while not any(seat == 1 for seat, _ in table.actions):
        if table.state.waiting_for() == (0,):
            assert await move_by_hand(ann, channel, table, rng)
        await env.advance_time(1)
    assert len(table.actions) < 40, "the hard seat moved in its turn"
    restarted = await kill_and_restart(env, bot)
    again = restarted.tables.tables[table.table_id]
    assert [seat.level for seat in again.seats] == ["normal", "hard"]


async def test_a_seat_handed_to_the_ai_plays_normal(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "fishing", 0)
    await bob.member.slash(channel, "game leave")
    assert table.seats[1].is_ai and table.seats[1].level == "normal"
    assert "🤖 bob (normal)" in text_of(table_message(channel, table))


async def test_a_search_in_a_worker_process_makes_the_same_move(tmp_path: Path) -> None:
    workers = AiPlayers(fast_settings(tmp_path, ai_processes=1, ai_think_rollouts=8))
    here = AiPlayers(fast_settings(tmp_path, ai_processes=0, ai_think_rollouts=8))
    state = games()["twentytwo"].new_state(2, 5)
    rng = random.Random(3)
    for _ in range(6):  # a few random moves, so that the search has something to weigh
        seat = state.waiting_for()[0]
        action = RandomAgent().choose(None, state.legal_actions(seat), rng, False)
        assert action is not None
        state.apply(seat, action)
    seat = state.waiting_for()[0]
    try:
        moved = await workers.move(state, seat, "hard", "seed/1", GUILD)
        assert workers._pool is not None, "the search ran in a worker process"
        assert here._pool is None
        assert moved == await here.move(state, seat, "hard", "seed/1", GUILD)
        assert moved in state.legal_actions(seat)
    finally:
        workers.close()


async def test_a_killed_worker_costs_one_search_not_the_table(tmp_path: Path) -> None:
    workers = AiPlayers(fast_settings(tmp_path, ai_processes=1, ai_think_rollouts=8))
    state = games()["fishing"].new_state(2, 9)
    seat = state.waiting_for()[0]
    try:
        assert await workers.move(state, seat, "hard", "seed/1", GUILD) in state.legal_actions(seat)
        pool = workers.pool()
        for process in list(pool._processes.values()):  # as the machine's OOM killer would
            process.kill()
            process.join()
        normal = await AiPlayers(fast_settings(tmp_path)).move(
            state, seat, "normal", "seed/2", GUILD
        )
        assert await workers.move(state, seat, "hard", "seed/2", GUILD) == normal
        assert workers._pool is None or workers._pool is not pool, "the broken pool was dropped"
        assert await workers.move(state, seat, "hard", "seed/3", GUILD) in state.legal_actions(seat)
        assert workers._pool is not None and workers._pool is not pool
    finally:
        workers.close()
