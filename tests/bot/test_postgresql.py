"""The bot on PostgreSQL (``DATABASE_URL=postgresql://…``), under simcord: a whole game, and
a game whose bot is killed halfway and resumed by a new bot on the same database, ending as
the same game played without the kill."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest
import simcord

from bot.app import CardroomBot
from bot.demo import demo_database
from bot.settings import Settings
from bot.storage import Storage
from tests.bot.conftest import fast_settings
from tests.bot.helpers import add_player, results_message, text_of
from tests.bot.test_restart import play_through, play_with_a_kill
from tests.bot.test_whole_games import play_to_the_end
from tests.postgres import ThrowawayPostgres


@pytest.fixture
def settings(tmp_path: Path, postgres_url: str) -> Settings:
    return fast_settings(tmp_path, database_url=postgres_url)


@pytest.mark.slow
async def test_a_whole_game_on_postgresql(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle
) -> None:
    assert bot.storage.dialect == "postgresql"
    channel = guild.create_text_channel("games")
    players = [add_player(env, guild, name) for name in ("ann", "bob")]
    assert await play_to_the_end(env, bot, channel, players, "fishing", ai_seats=0) > 0
    results = results_message(channel)
    assert results is not None and "Fishing — results" in text_of(results)
    [finished] = await bot.storage.results.history(guild.id)
    assert [seat.user_id for seat in finished.seats] == [player.id for player in players]
    assert await bot.storage.running.load() == []


@pytest.mark.slow
async def test_a_killed_game_resumes_from_postgresql(
    tmp_path: Path, postgres_server: ThrowawayPostgres
) -> None:
    whole_url = await postgres_server.create_database("whole_game")
    killed_url = await postgres_server.create_database("killed_game")
    whole = await play_through(fast_settings(tmp_path, database_url=whole_url), "swazi")
    kill_at = whole.human_moves // 2 // 2 * 2  # an even move: made through the Hand view
    killed = await play_with_a_kill(
        fast_settings(tmp_path, database_url=killed_url), "swazi", kill_at
    )
    assert killed == whole


def test_the_demo_plays_on_the_postgresql_database_of_database_url(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://cardroom@/games")
    assert demo_database(tmp_path) == "postgresql://cardroom@/games"
    monkeypatch.setenv("DATABASE_URL", "data/cardroom.db")  # never the bot's own file
    assert demo_database(tmp_path) == tmp_path / "demo.db"


async def test_a_process_opens_no_more_connections_than_its_pool_size(postgres_url: str) -> None:
    storage = await Storage.open(postgres_url, pool_size=2)
    try:
        await asyncio.gather(*(storage.running.load() for _ in range(6)))  # six at once
        watcher = await asyncpg.connect(postgres_url)
        try:
            opened = await watcher.fetchval(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await watcher.close()
        assert opened == 2  # the six took turns on two connections
    finally:
        await storage.close()
