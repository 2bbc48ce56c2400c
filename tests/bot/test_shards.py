"""Shards: a process drives only the games of its shards' servers; on PostgreSQL two processes
never own the same shard (an advisory lock per shard), and one that loses its lock stops
driving those games; only the process of shard 0 syncs the commands."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import threading
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
    short_options,
    text_of,
)
from tests.bot.test_storage import saved
from tests.postgres import ThrowawayPostgres

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


async def take_over_shard_locks(url: str, shards: Shards) -> asyncpg.Connection:
    """Another process takes ``shards`` from the one holding them: it queues for their locks,
    then drops the holder's connection from outside (as a network cut would), so that the
    locks pass to it before the holder can take them again. Its connection, holding them."""
    other = await asyncpg.connect(url)
    wanted = ", ".join(f"pg_advisory_lock($1, {shard})" for shard in shards.ids)
    queued = asyncio.create_task(other.execute(f"SELECT {wanted}", SHARD_LOCKS))
    watcher = await asyncpg.connect(url)
    try:
        waiting = (
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND classid = $1"
        )
        while not await watcher.fetchval(waiting, SHARD_LOCKS):
            await asyncio.sleep(0.01)
        holders = await shard_lock_backends(url)
        for pid in holders:
            if pid != other.get_server_pid():
                await watcher.execute("SELECT pg_terminate_backend($1)", pid)
        await queued
    finally:
        await watcher.close()
    return other


async def test_a_process_whose_shards_another_takes_stops_driving_their_games(
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
            other = await take_over_shard_locks(postgres_url, Shards.every(2))

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
        await other.close()
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


async def claim_when_free(url: str, shards: Shards, seconds: float) -> tuple[Storage, int]:
    """Claim ``shards`` as another process would, again and again while they are held, for up
    to ``seconds``: that process's storage, holding them, and how many attempts it took."""
    deadline = asyncio.get_running_loop().time() + seconds
    attempts = 0
    while True:
        attempts += 1
        storage = await Storage.open(url)
        try:
            await storage.claim_shards(shards, on_lost=print, heartbeat=STEADY)
            return storage, attempts
        except ShardInUseError:
            await storage.close()
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.1)


async def until(done: Callable[[], bool], seconds: float = 30) -> None:
    """Wait in real time until ``done()``, for up to ``seconds`` (generous: a loaded machine)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not done() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)


async def held_anew(url: str, old: int, seconds: float = 30) -> list[int]:
    """Wait in real time until the shard locks are held by server processes other than
    ``old``; the processes holding them."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        try:
            holders = await shard_lock_backends(url)
        except (OSError, asyncpg.PostgresError):  # the server is still starting
            holders = []
        if (holders and old not in holders) or asyncio.get_running_loop().time() > deadline:
            return holders
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_lock_connection_that_stops_answering_is_replaced(postgres_url: str) -> None:
    """A hung link: the server's process for the lock connection is stopped, so questions go
    unanswered and nothing drops. The heartbeat notices; the process connects anew, finds its
    shard still held by that old connection (no other process's), has it ended, and holds
    the shard again once it is gone: the shard is never lost, nor free for another process
    to take for long."""
    lost: list[Shards] = []
    storage = await Storage.open(postgres_url)
    try:
        await storage.claim_shards(Shards(2, (1,)), lost.append, Heartbeat(0.2))
        await asyncio.sleep(1.0)  # five questions, all answered: a healthy link keeps them
        assert lost == []
        (backend,) = await shard_lock_backends(postgres_url)
        os.kill(backend, signal.SIGSTOP)
        try:
            await asyncio.sleep(1.0)  # unanswered beats, and attempts to take the shard again
        finally:
            os.kill(backend, signal.SIGCONT)
        holders = await held_anew(postgres_url, backend)
        assert len(holders) == 1 and backend not in holders
        assert lost == []
        with pytest.raises(ShardInUseError):
            await claim_when_free(postgres_url, Shards(2, (1,)), 0)
    finally:
        await storage.close()


@pytest.mark.slow
async def test_the_server_frees_the_shards_of_a_process_that_froze(postgres_url: str) -> None:
    lost: list[Shards] = []
    frozen = await Storage.open(postgres_url)
    claimed, thawed = threading.Event(), threading.Event()
    try:
        await frozen.claim_shards(Shards(2, (0,)), lost.append, Heartbeat(0.2))

        def take_over() -> int:
            """Another process (a thread with a loop of its own) takes the shard over, and
            holds it until the frozen process has thawed."""

            async def take_and_hold() -> int:
                other, attempts = await claim_when_free(postgres_url, Shards(2, (0,)), 30)
                claimed.set()
                await asyncio.to_thread(thawed.wait, 60)
                await other.close()
                return attempts

            return asyncio.run(take_and_hold())

        # This event loop waits for the thread without running: the process is frozen and
        # asks nothing. The server gives up on it after six beats (1.2 s, rounded up to 2 s).
        with ThreadPoolExecutor(max_workers=1) as other_process:
            taking = other_process.submit(take_over)
            claimed.wait(60)
            # thawed, the process learns that its shard is another process's now
            await until(lambda: bool(lost))
            thawed.set()
            attempts = taking.result()
        assert attempts > 1, "refused while the frozen process still had the shard"
        assert lost == [Shards(2, (0,))]
    finally:
        thawed.set()
        await frozen.close()


@pytest.mark.slow
async def test_a_database_restart_is_ridden_out_with_the_shards_held_again(
    postgres_server: ThrowawayPostgres, postgres_url: str
) -> None:
    """``pg_ctl restart -m fast`` ends every connection: the process connects again, takes its
    shards again (no other process holds them) and goes on saving; they are never lost."""
    lost: list[Shards] = []
    state = games()["fishing"].new_state(2, 7)
    storage = await Storage.open(postgres_url)
    try:
        await storage.claim_shards(Shards(2, (0,)), lost.append, Heartbeat(0.2))
        await storage.running.save(saved(state, table_id="t1", guild_id=guild_on(0, 2)))
        (before,) = await shard_lock_backends(postgres_url)
        await asyncio.to_thread(postgres_server.restart)
        assert len(await held_anew(postgres_url, before)) == 1
        assert lost == []
        await storage.running.save(saved(state, revision=1, guild_id=guild_on(0, 2)), 0)
        with pytest.raises(ShardInUseError):
            await claim_when_free(postgres_url, Shards(2, (0,)), 0)
    finally:
        await storage.close()


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


@pytest.mark.slow
async def test_a_database_restart_leaves_the_bot_driving_its_games(
    tmp_path: Path, postgres_server: ThrowawayPostgres, postgres_url: str
) -> None:
    """The bot's database restarts in the middle of a game (before, the process exited with
    "lost shard 0 of 1"): the bot takes its shard again and the game is played to its end,
    its result recorded."""
    bot = create_bot(fast_settings(tmp_path, database_url=postgres_url))
    try:
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            players = [add_player(env, guild, name) for name in ("ann", "bob")]
            options = short_options(games()["fishing"])
            table = await open_table(bot, channel, players, "fishing", 0, options)
            (before,) = await shard_lock_backends(postgres_url)
            await asyncio.to_thread(postgres_server.restart)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            holders: list[int] = []
            while loop.time() < deadline and not (holders and before not in holders):
                await env.advance_time(0.2)  # the bot's waits between attempts to connect
                holders = await held_anew(postgres_url, before, seconds=0)
                await asyncio.sleep(0.05)
            assert holders and before not in holders, "the shard is held again"
            assert not bot.lost_shards and not bot.is_closed()
            await Playthrough(env, channel, players, table, random.Random("restart")).to_the_end()
            results = results_message(channel)
            assert results is not None and "Fishing — results" in text_of(results)
        storage = await Storage.open(postgres_url)
        [recorded] = await storage.results.history(guild.id)
        await storage.close()
        assert recorded.table_id == table.table_id
    finally:
        await release(bot)
