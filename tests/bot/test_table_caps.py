"""Caps on open lobbies and running games, per server and per member, named in the refusal."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.app import CardroomBot
from bot.settings import Settings
from tests.bot.conftest import fast_settings
from tests.bot.helpers import add_player, open_table, text_of


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return fast_settings(tmp_path, max_tables_per_server=3, max_tables_per_member=2)


async def test_a_member_and_a_server_open_at_most_their_share_of_tables(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    channels = [guild.create_text_channel(f"games-{i}") for i in range(4)]
    await open_table(bot, channels[0], [ann], "fishing", 1)  # a running game counts
    await ann.member.slash(channels[1], "game start fishing")  # so does an open lobby
    refused = await ann.member.slash(channels[2], "game start fishing")
    assert refused.ephemeral and "MAX_TABLES_PER_MEMBER" in text_of(refused.response)
    await bob.member.slash(channels[2], "game start fishing")  # bob's share is his own
    full = await bob.member.slash(channels[3], "game start fishing")
    assert full.ephemeral and "MAX_TABLES_PER_SERVER" in text_of(full.response)
    assert bot.tables.lobbies.in_channel(channels[3].id) is None
