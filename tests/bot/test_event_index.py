"""A channel, role or member event reaches only the tables it concerns (those of the channel,
the server, the person), not every table of the process: counted as the tables whose data
the handler reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import discord
import simcord

from bot.app import CardroomBot
from bot.tables.commands import GameCog
from bot.tables.session import TableSession
from tests.bot.helpers import Player, add_player, open_table


@contextmanager
def tables_touched() -> Iterator[set[str]]:
    """The ids of the tables any code reads an attribute of, inside the block."""
    touched: set[str] = set()

    def reading(session: TableSession, name: str) -> Any:
        touched.add(object.__getattribute__(session, "table_id"))
        return object.__getattribute__(session, name)

    with mock.patch.object(TableSession, "__getattribute__", reading):
        yield touched


async def test_an_event_touches_only_the_tables_it_concerns(
    env: simcord.Env, bot: CardroomBot
) -> None:
    """Five tables: four in one server (ann seated at two), one in another. A channel's
    update reads its own table, a role's update its server's tables, a member leaving their
    own tables; the bot removed from a server, that server's."""
    home, other = env.create_guild(name="home"), env.create_guild(name="other")
    ann = add_player(env, home, "ann")
    hosts: list[Player] = [ann, ann, add_player(env, home, "bob"), add_player(env, home, "cy")]
    tables = [
        await open_table(bot, home.create_text_channel(f"games-{n}"), [host], "fishing", 1)
        for n, host in enumerate(hosts)
    ]
    elsewhere = await open_table(
        bot, other.create_text_channel("games"), [add_player(env, other, "dee")], "fishing", 1
    )
    cog = bot.get_cog("GameCog")
    assert isinstance(cog, GameCog)
    first = bot.get_channel(tables[0].channel_id)
    assert isinstance(first, discord.TextChannel)
    role = first.guild.default_role

    with tables_touched() as touched:
        await cog.on_guild_channel_update(first, first)
    assert touched == {tables[0].table_id}
    with tables_touched() as touched:
        await cog.on_guild_role_update(role, role)
    assert touched == {table.table_id for table in tables}
    with tables_touched() as touched:
        bot.tables.member_left(home.id, ann.id)
    assert touched == {tables[0].table_id, tables[1].table_id}
    with tables_touched() as touched:
        bot.tables.guild_gone(other.id)
    assert touched == {elsewhere.table_id}
