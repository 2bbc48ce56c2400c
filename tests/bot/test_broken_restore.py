"""A saved game that cannot be read back after a restart: reported in the log and its channel
(once, without quoting the saved data), set aside, and the bot and other games go on."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest
import simcord

from bot.app import CardroomBot, create_bot
from tests.bot.conftest import fast_settings
from tests.bot.helpers import add_player, move_by_hand, open_table, text_of


async def test_a_corrupt_game_is_reported_in_its_channel_and_the_others_go_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = fast_settings(tmp_path)
    old = create_bot(settings)
    async with simcord.run(old) as env:
        await old.tree.sync()
        guild = env.create_guild()
        broken_channel = guild.create_text_channel("broken")
        good_channel = guild.create_text_channel("good")
        ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
        broken = await open_table(old, broken_channel, [ann], "fishing", 1)
        good = await open_table(old, good_channel, [bob], "fishing", 1)
        await old.tables.close()
        await old.storage.close()
        with sqlite3.connect(settings.database_path) as connection:
            connection.execute(
                'UPDATE running_games SET state = \'{"secret": "QS"\' WHERE table_id = ?',
                (broken.table_id,),
            )

        caplog.set_level(logging.WARNING, logger="bot.app")
        new = create_bot(settings)
        await env.restart_bot(new)
        assert isinstance(new, CardroomBot)
        assert [problem.split(":")[0] for problem in new.restore_problems] == [
            f"table {broken.table_id}"
        ]
        assert broken.table_id in caplog.text
        notices = [m for m in broken_channel.history() if "could not be restored" in text_of(m)]
        assert len(notices) == 1
        assert broken.table_id in text_of(notices[0]) and "QS" not in text_of(notices[0])
        assert broken.table_id not in new.tables.tables
        # the other game goes on, and the broken table's channel is free for a new game
        restored = new.tables.tables[good.table_id]
        assert await move_by_hand(bob, good_channel, restored, random.Random(3))
        assert await open_table(new, broken_channel, [ann], "cambio", 1)
        await new.tables.close()
        await new.storage.close()

        again = create_bot(settings)  # set aside: not reported a second time
        await env.restart_bot(again)
        assert isinstance(again, CardroomBot)
        assert again.restore_problems == []
        assert [
            m.id for m in broken_channel.history() if "could not be restored" in text_of(m)
        ] == [notices[0].id]
        await again.tables.close()
        await again.storage.close()
