"""A bot killed in the middle of a game, then a new bot on the same database file: every game
resumes from SQLite and ends exactly as the same game played without the interruption; the
table says it was restored; buttons of messages from before the restart work; every waiting
seat gets a whole new turn and the time the bot was down counts as no timeout. How the bot is
killed: ``helpers.kill_and_restart``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import CardroomBot, create_bot
from bot.settings import Settings
from bot.storage import SavedEvent
from bot.tables.session import TableSession
from engine.core import Event, State
from engine.registry import games
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    Player,
    Playthrough,
    SeededDraws,
    add_player,
    kill_and_restart,
    move_by_hand,
    open_table,
    release,
    results_message,
    short_options,
    table_message,
    text_of,
)

RESTORED = "The game resumes after a restart."


@dataclass(frozen=True)
class Outcome:
    """What a finished game left: as people saw it and as stored."""

    human_moves: int
    results: str  # the results message
    seats: list[tuple[str, bool, int, int]]  # (name, is_ai, score, place) by seat
    summary: list[SavedEvent | str]  # each hand's scores, as the history reads them
    record: dict[str, Any]  # the replay record: seed, options and every action


async def start(env: simcord.Env, bot: CardroomBot, game_id: str) -> Playthrough:
    """The game with a fixed deal: the same seed, seats, options and move choices each time."""
    await bot.tree.sync()
    bot.tables.draws = SeededDraws(f"restart/{game_id}")  # the table id and the game's seed
    guild = env.create_guild(name="Cardroom test")
    channel = guild.create_text_channel("games")
    game = games()[game_id]
    # one person and AI seats: the person's moves cost the most time, the AI's must replay too
    players = [add_player(env, guild, "ann")]
    ai_seats = max(1, min(game.player_counts) - 1)
    table = await open_table(bot, channel, players, game_id, ai_seats, short_options(game))
    return Playthrough(env, channel, players, table, random.Random(f"restart/{game_id}"))


async def outcome(bot: CardroomBot, play: Playthrough) -> Outcome:
    """The finished game of ``play``."""
    message = results_message(play.channel)
    assert message is not None, "no results message"
    [finished] = await bot.storage.results.history(play.table.guild_id)
    record = await bot.storage.results.replay_record(play.table.table_id)
    assert record is not None and finished.summary is not None
    return Outcome(
        play.human_moves,
        text_of(message),
        [(s.name, s.is_ai, s.score, s.place) for s in finished.seats],
        finished.summary,
        record,
    )


async def play_through(settings: Settings, game_id: str) -> Outcome:
    """The game played to the end by one bot."""
    bot = create_bot(settings)
    try:
        async with simcord.run(bot) as env:
            play = await start(env, bot, game_id)
            await play.to_the_end()
            return await outcome(bot, play)
    finally:
        await release(bot)


async def play_with_a_kill(settings: Settings, game_id: str, kill_at: int) -> Outcome:
    """The same game, its bot killed when a person has opened the Hand view for their move
    number ``kill_at``; the move is then made in that view, with the new bot."""
    old = bot = create_bot(settings)
    try:
        async with simcord.run(old) as env:
            play = await start(env, old, game_id)

            async def kill(player: Player, hand: simcord.ResponseMessage) -> None:
                nonlocal bot
                if bot is not old or play.human_moves != kill_at:
                    return
                before = play.table
                bot = await kill_and_restart(env, old)
                assert not bot.restore_problems
                play.table = bot.tables.tables[before.table_id]
                assert_restored(play, before)

            play.before_click = kill
            while bot is old:
                assert not play.table.ended, f"the game ended before person's move {kill_at}"
                await play.step()
            # the Hand view opened before the kill made the move, with the new bot
            assert play.human_moves == kill_at + 1
            await play.to_the_end()
            return await outcome(bot, play)
    finally:
        # The killed bot's connection is released only now, as a dead process's would be
        # by the system; the new bot never saw it closed.
        await release(bot, old)


def assert_restored(play: Playthrough, before: TableSession) -> None:
    """The new bot's table is the old one, on the old messages, and says it was restored."""
    table = play.table
    assert table is not before
    assert table.state.to_json() == before.state.to_json()
    assert (table.revision, table.actions) == (before.revision, before.actions)
    assert table.deadlines == before.deadlines  # the timers resume from the saved deadlines
    assert [s.record() for s in table.seats] == [s.record() for s in before.seats]
    # the log, summaries and deal count as saved, and one line more: the restart
    assert (table.summaries, table.deals) == (before.summaries, before.deals)
    *logged, resumed = table.log
    assert logged == list(before.log)[len(before.log) - len(logged) :]
    assert resumed.event.text == RESTORED
    message = table_message(play.channel, table)
    assert message.id == before.table_message_id
    assert RESTORED in text_of(message)
    for player in play.players:
        assert any(RESTORED in text_of(m) for m in player.user.dm_channel.history())


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(games()))
async def test_a_killed_game_ends_as_if_never_interrupted(tmp_path: Path, game_id: str) -> None:
    whole = await play_through(fast_settings(tmp_path / "whole"), game_id)
    assert whole.human_moves >= 2, "too short a game to stop in the middle"
    kill_at = whole.human_moves // 2 // 2 * 2  # an even move: made through the Hand view
    killed = await play_with_a_kill(fast_settings(tmp_path / "killed"), game_id, kill_at)
    assert killed == whole


@pytest.mark.slow
async def test_a_start_plays_no_saved_move_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot saves each game with its log, summaries and deal count, so a start reads them
    back instead of replaying every move of every game (minutes of CPU at 10,000 games)."""
    old = new = create_bot(fast_settings(tmp_path))
    try:
        async with simcord.run(old) as env:
            play = await start(env, old, "twentytwo")
            while len(play.table.summaries) < 1:  # a hand ended: a summary to bring back
                await play.step()
            before = play.table
            state_class = type(before.state)
            replayed: list[tuple[int, str]] = []
            apply_text = state_class.apply_text

            def counted(state: State, seat: int, text: str) -> list[Event]:
                replayed.append((seat, text))
                return apply_text(state, seat, text)

            monkeypatch.setattr(state_class, "apply_text", counted)
            new = await kill_and_restart(env, old)
            monkeypatch.undo()
            assert replayed == []
            assert not new.restore_problems
            play.table = new.tables.tables[before.table_id]
            assert_restored(play, before)
            await play.to_the_end()
    finally:
        await release(new, old)


@pytest.mark.skipif("twentytwo" not in games(), reason="needs a game of several hands")
async def test_a_kill_just_after_a_new_hand_keeps_its_hand_dms(tmp_path: Path) -> None:
    old = new = create_bot(fast_settings(tmp_path))
    try:
        async with simcord.run(old) as env:
            play = await start(env, old, "twentytwo")
            while play.table.deals == 0:  # the first hand ends: each person gets a new DM
                await play.step()
            dms = [seat.dm_message_id for seat in play.table.seats]
            new = await kill_and_restart(env, old)
            restored = new.tables.tables[play.table.table_id]
            # the new bot edits the DMs of the hand being played, not the last hand's
            assert [seat.dm_message_id for seat in restored.seats] == dms
    finally:
        await release(new, old)


async def test_a_restart_gives_a_whole_new_turn_and_no_strike_for_the_downtime(
    tmp_path: Path,
) -> None:
    settings = fast_settings(tmp_path)
    old = new = create_bot(settings)
    try:
        async with simcord.run(old) as env:
            await old.tree.sync()
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
            table = await open_table(old, channel, [ann, bob], "fishing", 0)
            rng = random.Random(2)
            assert await move_by_hand([ann, bob][table.state.waiting_for()[0]], channel, table, rng)
            await env.advance_time(settings.turn_seconds - 1)
            revision = table.revision
            waiting = table.state.waiting_for()[0]

            new = await kill_and_restart(env, old)
            restored = new.tables.tables[table.table_id]
            # one second was left before the kill: the seat gets a whole turn from the restart
            await env.advance_time(settings.turn_seconds - 1)
            assert restored.revision == revision, "the saved deadline is not kept"
            assert restored.seats[waiting].timeouts_in_a_row == 0
            await env.advance_time(2)
            assert restored.revision == revision + 1, "the AI played the timed-out turn"
            assert restored.seats[waiting].timeouts_in_a_row == 1
            assert table.revision == revision, "the killed bot's timer died with it"
            # the Hand button of the table message posted before the restart still works
            mover = [ann, bob][restored.state.waiting_for()[0]]
            assert await move_by_hand(mover, channel, restored, rng)
    finally:
        await release(new, old)
