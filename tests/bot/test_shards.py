"""Shards: a process drives only the games of its shards' servers; on PostgreSQL two processes
never own the same shard (an advisory lock per shard), and one that loses its lock stops
driving those games; only the process of shard 0 syncs the commands."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from unittest import mock

import asyncpg
import pytest
import simcord

from bot.app import create_bot
from bot.errors import UserError
from bot.storage import Heartbeat, LoadedGame, ShardInUseError, Shards, Storage
from bot.storage.shards import SHARD_LOCKS, parse_shard_ids
from bot.tables.lobbies import SHARD_NOT_HERE
from bot.tables.records import Ending, EndKind
from bot.tables.service import OVER_OR_ELSEWHERE, SHARD_LOST
from engine.registry import games
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    Playthrough,
    add_player,
    open_table,
    release,
    results_message,
    text_of,
)
from tests.bot.test_storage import saved

STEADY = Heartbeat(60)
"""A heartbeat for tests about other things: a question a minute."""


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """The n-th server id on ``shard`` of ``count`` (Discord puts a server on shard
    ``(id >> 22) % count``)."""
    return (n * count + shard) << 22


def test_shard_ids_read_as_ranges_and_lists() -> None:
    assert parse_shard_ids("0-1", 4) == (0, 1)
    assert parse_shard_ids("3,0-1", 4) == (0, 1, 3)
    for bad, why in [("4", "shard 4 does not exist"), ("2-1", "backwards"), ("a", "not a list")]:
        with pytest.raises(ValueError, match=why):
            parse_shard_ids(bad, 4)


async def test_a_second_owner_of_a_shard_is_refused(postgres_url: str) -> None:
    first, second = await Storage.open(postgres_url), await Storage.open(postgres_url)
    try:
        await first.claim_shards(Shards(4, (0, 1)), on_lost=print, heartbeat=STEADY)
        with pytest.raises(ShardInUseError, match=r"^shard 1 of 4 is run by another Cardroom"):
            await second.claim_shards(Shards(4, (1, 2)), on_lost=print, heartbeat=STEADY)
        # the refused claim kept nothing (shard 2 is free), and disjoint shards are fine
        await second.claim_shards(Shards(4, (2, 3)), on_lost=print, heartbeat=STEADY)
        await first.close()  # its shards go with it
        third = await Storage.open(postgres_url)
        await third.claim_shards(Shards(4, (0, 1)), on_lost=print, heartbeat=STEADY)
        await third.close()
    finally:
        await second.close()


async def test_a_restore_takes_only_the_games_of_its_shards(database_url: str) -> None:
    storage = await Storage.open(database_url)
    state = games()["fishing"].new_state(2, 7)
    try:
        for shard in range(4):
            for n in (1, 2):
                table_id = f"s{shard}n{n}"
                await storage.running.save(saved(state, table_id, guild_id=guild_on(shard, 4, n)))
        mine = await storage.running.load(Shards(4, (1, 3)))
        assert all(isinstance(game, LoadedGame) for game in mine)
        assert [g.saved.table_id for g in mine if isinstance(g, LoadedGame)] == [
            "s1n1",
            "s1n2",
            "s3n1",
            "s3n2",
        ]
        assert len(await storage.running.load(Shards.every(4))) == 8
    finally:
        await storage.close()


async def terminate_shard_locks(url: str) -> int:
    """Drop the connections holding shard locks, from outside (as a network cut would)."""
    connection = await asyncpg.connect(url)
    try:
        dropped = await connection.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_locks"
            " WHERE locktype = 'advisory' AND classid = $1",
            SHARD_LOCKS,
        )
    finally:
        await connection.close()
    return len(dropped)


async def test_a_process_that_loses_its_shard_locks_stops_driving_their_games(
    tmp_path: Path, postgres_url: str
) -> None:
    settings = fast_settings(tmp_path, database_url=postgres_url, shard_count=2)
    bot = create_bot(settings)
    try:
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            guild = env.create_guild(shard_id=1)
            channel = guild.create_text_channel("games")
            ann = add_player(env, guild, "ann")
            table = await open_table(bot, channel, [ann], "fishing", 1)
            revision = table.revision
            gathering = guild.create_text_channel("gathering")
            await ann.member.slash(gathering, "game start fishing")
            (lobby_id,) = bot.tables.lobbies.by_id
            assert await terminate_shard_locks(postgres_url) == 2  # shards 0 and 1

            # the dropped connection is noticed in the loop's own (real) time: on a loaded
            # machine that has taken over two seconds, so the wait is generous; the table is
            # forgotten only after its last display, so the wait is for both
            def stopped() -> bool:
                return table.ended and table.table_id not in bot.tables.tables

            deadline = asyncio.get_running_loop().time() + 30
            while not stopped() and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.01)
            assert stopped()
            assert table.ending == Ending(EndKind.SHARD_LOST, SHARD_LOST)
            told = [m for m in channel.history() if text_of(m) == SHARD_LOST]
            assert len(told) == 1, "the channel is told once"
            refused = await ann.member.slash(channel, "game start fishing")
            assert refused.ephemeral and SHARD_NOT_HERE in text_of(refused.response)
            await env.advance_time(settings.turn_seconds * 3)  # no timer or AI move left
            assert bot.is_closed(), "the bot stops (its supervisor starts it again)"
            assert not bot.tables.lobbies.by_id, "its lobby is no longer driven here"
        # nothing saved or deleted: another process may run the game (and the lobby) from
        # where it was
        storage = await Storage.open(postgres_url)
        (stored,) = await storage.running.load()
        lobbies, _ = await storage.lobbies.load()
        await storage.close()
        assert isinstance(stored, LoadedGame) and stored.saved.revision == revision
        assert [lobby.lobby_id for lobby in lobbies] == [lobby_id]
    finally:
        await release(bot)


async def shard_lock_backends(url: str) -> list[int]:
    """The server processes of the connections holding shard locks."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT DISTINCT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1",
            SHARD_LOCKS,
        )
    finally:
        await connection.close()
    return [row["pid"] for row in rows]


async def attempts_to_claim(url: str, shards: Shards, seconds: float) -> int:
    """Claim ``shards`` as another process would, again and again while they are held, for up
    to ``seconds``; how many attempts it took (the shards are released again after)."""
    deadline = asyncio.get_running_loop().time() + seconds
    attempts = 0
    while True:
        attempts += 1
        storage = await Storage.open(url)
        try:
            await storage.claim_shards(shards, on_lost=print, heartbeat=STEADY)
            return attempts
        except ShardInUseError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.1)
        finally:
            await storage.close()


async def until(done: Callable[[], bool], seconds: float = 30) -> None:
    """Wait in real time until ``done()``, for up to ``seconds`` (generous: a loaded machine)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not done() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)


@pytest.mark.slow
async def test_a_lock_connection_that_stops_answering_gives_its_shards_up(
    postgres_url: str,
) -> None:
    # A hung link: the server's process for the lock connection is stopped, so questions go
    # unanswered and nothing drops. Only the heartbeat can tell.
    lost: list[Shards] = []
    storage = await Storage.open(postgres_url)
    try:
        await storage.claim_shards(Shards(2, (1,)), lost.append, Heartbeat(0.2))
        await asyncio.sleep(1.0)  # five questions, all answered: a healthy link keeps them
        assert lost == []
        (backend,) = await shard_lock_backends(postgres_url)
        os.kill(backend, signal.SIGSTOP)
        try:
            await until(lambda: bool(lost))
            assert lost == [Shards(2, (1,))], "given up once"
        finally:
            os.kill(backend, signal.SIGCONT)
        # the process dropped the connection itself: once the link works again, the server
        # lets the shard go, for another process to take
        await attempts_to_claim(postgres_url, Shards(2, (1,)), 30)
        assert lost == [Shards(2, (1,))]
    finally:
        await storage.close()


@pytest.mark.slow
async def test_the_server_frees_the_shards_of_a_process_that_froze(postgres_url: str) -> None:
    lost: list[Shards] = []
    frozen = await Storage.open(postgres_url)
    try:
        await frozen.claim_shards(Shards(2, (0,)), lost.append, Heartbeat(0.2))

        def take_over() -> int:
            """Another process (a thread with a loop of its own) takes the shard over."""
            return asyncio.run(attempts_to_claim(postgres_url, Shards(2, (0,)), 30))

        # This event loop waits for the thread without running: the process is frozen and
        # asks nothing. The server gives up on it after six beats (1.2 s, rounded up to 2 s).
        with ThreadPoolExecutor(max_workers=1) as other_process:
            attempts = other_process.submit(take_over).result()
        assert attempts > 1, "refused while the frozen process still had the shard"
        # thawed, the process learns that its shard is gone
        await until(lambda: bool(lost))
        assert lost == [Shards(2, (0,))]
    finally:
        await frozen.close()


@pytest.mark.slow
async def test_two_processes_on_disjoint_shards_share_one_database(
    tmp_path: Path, postgres_url: str
) -> None:
    """Two bots on one PostgreSQL database, shard 1 and shard 0 of 2 (simcord runs one at a
    time: the first bot keeps its storage and shard lock while the second runs). The second
    restores nothing of the first's game, plays its own to the end and leaves the first's
    game as it was saved; a third process cannot take the first's shard meanwhile. (The
    second runs shard 0, where Discord sends every DM click: its game is played by DM too.)"""
    first, second = (
        create_bot(fast_settings(tmp_path, database_url=postgres_url, shard_count=2, shard_ids=ids))
        for ids in ("1", "0")
    )
    try:
        async with simcord.run(first) as env:
            await first.tree.sync()
            guild = env.create_guild(shard_id=1)
            theirs = await open_table(
                first,
                guild.create_text_channel("games"),
                [add_player(env, guild, "ann")],
                "fishing",
                1,
            )
        async with simcord.run(second) as env:
            assert second.tables.tables == {}  # the first's game is not restored here
            await second.tree.sync()
            guild = env.create_guild(shard_id=0)
            channel = guild.create_text_channel("games")
            players = [add_player(env, guild, "bob")]
            table = await open_table(second, channel, players, "fishing", 1)
            await Playthrough(env, channel, players, table, random.Random(1)).to_the_end()
            assert results_message(channel) is not None
            intruder = await Storage.open(postgres_url)
            with pytest.raises(ShardInUseError, match="shard 1 of 2 is run by another"):
                await intruder.claim_shards(Shards(2, (1,)), on_lost=print, heartbeat=STEADY)
            await intruder.close()
            # a click on the first's game's hand DM reaches the process of shard 0 (Discord's
            # way with DMs), which says where to play it
            with pytest.raises(UserError, match=re.escape(OVER_OR_ELSEWHERE)):
                second.tables.table(theirs.table_id)
        (left,) = await second.storage.running.load()
        assert isinstance(left, LoadedGame)
        assert (left.saved.table_id, left.saved.revision) == (theirs.table_id, theirs.revision)
    finally:
        await release(second, first)


async def test_only_the_process_of_shard_0_syncs_the_commands(
    tmp_path: Path, postgres_url: str
) -> None:
    bots = [
        create_bot(
            fast_settings(
                tmp_path, database_url=postgres_url, shard_count=2, shard_ids=ids, dev_guild_id=1
            )
        )
        for ids in ("1", "0")
    ]
    try:
        for bot in bots:
            with mock.patch.object(bot.tree, "sync") as sync:
                async with simcord.run(bot):
                    pass
            assert sync.call_count == (0 in bot.settings.shards.ids)
    finally:
        await release(*bots)
