"""A restart in the middle of a game: the saved game comes back from SQLite, the old table
message's buttons work with the new bot, and the turn timer resumes from the saved deadline."""

from __future__ import annotations

import random
from pathlib import Path

import simcord

from bot.app import CardroomBot, create_bot
from tests.bot.conftest import fast_settings
from tests.bot.helpers import add_player, move_by_hand, open_table, table_message


async def test_restart_in_the_middle_of_a_game(tmp_path: Path) -> None:
    settings = fast_settings(tmp_path)
    old = create_bot(settings)
    async with simcord.run(old) as env:
        await old.tree.sync()
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
        table = await open_table(old, channel, [ann, bob], "fishing", 0)
        rng = random.Random(2)
        for _ in range(3):
            seat = table.state.waiting_for()[0]
            assert await move_by_hand([ann, bob][seat], channel, table, rng)
        saved_state = table.state.to_json()
        revision, message_id = table.revision, table.table_message_id
        await old.tables.close()
        await old.storage.close()

        new = create_bot(settings)
        await env.restart_bot(new)
        assert isinstance(new, CardroomBot)
        restored = new.tables.tables[table.table_id]
        assert restored.revision == revision
        assert restored.state.to_json() == saved_state
        assert restored.table_message_id == message_id
        assert [s.user_id for s in restored.seats] == [ann.id, bob.id]
        # the Hand button of the message posted before the restart still works
        seat = restored.state.waiting_for()[0]
        assert await move_by_hand([ann, bob][seat], channel, restored, rng)
        assert restored.revision == revision + 1
        assert table_message(channel, restored).id == message_id
        # the timer resumes: nobody moves, the AI plays for the waiting seat
        await env.advance_time(settings.turn_seconds + 1)
        assert restored.revision == revision + 2
        await new.tables.close()
        await new.storage.close()
