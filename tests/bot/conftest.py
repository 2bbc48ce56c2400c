"""Fixtures for driving the bot under simcord: a fast bot, a guild, a channel, people."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import CardroomBot, create_bot
from bot.settings import Settings
from bot.tables import backoff
from tests.bot.helpers import SeededDraws, release


def fast_settings(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings for tests: a temporary database, no AI delay, no edit throttling."""
    values: dict[str, Any] = {
        "discord_token": None,
        "database_url": str(tmp_path / "cardroom.db"),
        "dev_guild_id": None,
        "turn_seconds": 120,
        "ai_delay_seconds": 0.0,
        "table_edit_seconds": 0.0,
        "optional_window_seconds": 0.0,
        "round_break_seconds": 0,  # the next deal at once (test_round_ends.py holds it)
        "ai_think_rollouts": 8,  # a node budget: the same moves on any machine
        "ai_processes": 0,  # searches in the test's process, so simulated time covers them
        # simulated time would run the heartbeat's real database questions, and their time
        # limits, as fast as the test advances it (the heartbeat is tested in real time)
        "shard_heartbeat_seconds": 3600,
        # simcord backs each simulated timer with a real one: a supervisor's check due in 30 s
        # would fire 30 real seconds into a long test and advance its clock mid-interaction
        # (the supervisor is tested with its own interval, test_liveness.py)
        "supervisor_seconds": 3600,
        "forwarded_click_poll_seconds": 3600,  # the same: found by notification in tests
        # tables play in their lobby's channel, where these tests look for them; simcord's
        # servers let the bot open threads, so test_threads.py turns them on
        "table_threads": False,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return fast_settings(tmp_path)


@pytest.fixture
async def simcord_bot(settings: Settings) -> AsyncIterator[CardroomBot]:
    bot = create_bot(settings)
    yield bot
    await release(bot)


@pytest.fixture
async def env(simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> simcord.Env:
    bot = simcord_env.bot
    assert isinstance(bot, CardroomBot)

    async def wait_on_simulated_time(seconds: float) -> None:
        # simcord runs a bot's sleep shorter than its settle window in real time: retries of
        # 1, 2, 4 s would move the test's clock while it waits for a click, as far as the
        # machine is slow (a busy machine timed settles out)
        await simcord_env.external_wait(asyncio.sleep(seconds), reason="a retry's backoff")

    monkeypatch.setattr(backoff, "wait_to_retry", wait_on_simulated_time)
    await bot.tree.sync()
    return simcord_env


@pytest.fixture
def bot(env: simcord.Env) -> CardroomBot:
    assert isinstance(env.bot, CardroomBot)
    # table ids and seeds come from this generator: fixed, so every run deals the same cards
    env.bot.tables.draws = SeededDraws("cardroom tests")
    return env.bot


@pytest.fixture
def guild(env: simcord.Env) -> simcord.GuildHandle:
    return env.create_guild(name="Cardroom test")


@pytest.fixture
def channel(guild: simcord.GuildHandle) -> simcord.ChannelHandle:
    return guild.create_text_channel("games")


def member(env: simcord.Env, guild: simcord.GuildHandle, name: str) -> simcord.MemberActor:
    """A new member of the guild."""
    return guild.add_member(env.create_user(name))


def admin(env: simcord.Env, guild: simcord.GuildHandle, name: str) -> simcord.MemberActor:
    """A new member with Manage Server."""
    role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[role])
