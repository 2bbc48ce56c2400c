"""The metrics and health server: /metrics moves as games are played, /readyz follows the
gateway and the database."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from unittest import mock

import aiohttp
import pytest
import simcord
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.app import CardroomBot
from bot.ops.metrics import REGISTRY
from bot.ops.observe import http_trace
from bot.settings import Settings
from bot.tables.thinking import AiPlayers
from engine.registry import games
from tests.bot.conftest import fast_settings
from tests.bot.helpers import Playthrough, add_player, kill_and_restart, open_table, release
from tests.bot.records import GUILD
from tests.postgres import ThrowawayPostgres, throwaway_postgres

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
def supervisor_seconds() -> float:
    """The conftest's interval (no check during a test); a test that needs checks sets its own."""
    return 3600


@pytest.fixture
def settings(tmp_path: Path, supervisor_seconds: float) -> Settings:
    # port 0: any free port
    return fast_settings(tmp_path, metrics_port=0, supervisor_seconds=supervisor_seconds)


async def get(bot: CardroomBot, path: str) -> tuple[int, str]:
    """GET a path of the bot's health server: (status, body)."""
    assert bot.observer.server is not None
    url = f"http://127.0.0.1:{bot.observer.server.port}{path}"
    async with (
        aiohttp.ClientSession() as session,
        session.get(url, headers={"Connection": "close"}) as response,
    ):
        return response.status, await response.text()


async def scrape(bot: CardroomBot) -> Samples:
    """Every sample of /metrics, by name and labels."""
    status, text = await get(bot, "/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.slow
async def test_metrics_move_as_games_are_played(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    before = await scrape(bot)
    assert value(before, "cardroom_gateway_connected", shard="0") == 1
    assert value(before, "cardroom_gateway_latency_seconds", shard="0") == 0  # simcord's
    assert value(before, "cardroom_shard_locks_held") == 1
    assert value(before, "cardroom_tables_running", game="fishing") == 0
    players = [add_player(env, guild, name) for name in ("ann", "bob")]
    await players[0].member.slash(channel, "game start fishing")
    assert value(await scrape(bot), "cardroom_lobbies_open", game="fishing") == 1
    bot.tables.lobbies.close(bot.tables.lobbies.in_channel(channel.id))  # type: ignore[arg-type]

    game = games()["fishing"]
    tables = guild.create_text_channel("tables")
    table = await open_table(bot, tables, players, "fishing", 1)
    during = await scrape(bot)
    assert value(during, "cardroom_tables_running", game="fishing") == 1
    assert value(during, "cardroom_lobbies_open", game="fishing") == 0
    with mock.patch.object(bot.storage.running, "save", side_effect=sqlite3.OperationalError):
        play = Playthrough(env, tables, players, table, random.Random("metrics"))
        await play.step()
    failed = await scrape(bot)
    assert value(failed, "cardroom_save_failures_total", kind="error") > value(
        before, "cardroom_save_failures_total", kind="error"
    )
    await play.to_the_end()
    after = await scrape(bot)
    assert value(after, "cardroom_tables_running", game="fishing") == 0
    moves = value(after, "cardroom_moves_total", game="fishing")
    assert moves - value(before, "cardroom_moves_total", game="fishing") == len(table.actions)
    assert value(after, "cardroom_games_finished_total", game=game.id) == 1 + value(
        before, "cardroom_games_finished_total", game=game.id
    )
    saves = value(after, "cardroom_save_duration_seconds_count")
    assert saves - value(before, "cardroom_save_duration_seconds_count") >= len(table.actions)
    decisions = value(after, "cardroom_ai_decision_duration_seconds_count", level="normal")
    assert decisions > value(before, "cardroom_ai_decision_duration_seconds_count", level="normal")

    restored = await kill_and_restart(env, bot)
    try:
        assert value(await scrape(restored), "cardroom_restore_duration_seconds") > 0
    finally:
        await restored.observer.close()
        await release(restored)
    await bot.observer.close()


@pytest.mark.parametrize("supervisor_seconds", [30])
async def test_a_supervisor_repair_is_counted_by_kind(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann = add_player(env, guild, "ann")
    table = await open_table(bot, channel, [ann], "fishing", 1)
    before = await scrape(bot)
    bot.tables.timers.drivers[table.table_id].cancel()  # dies, as no code path should let it
    await env.advance_time(3 * bot.settings.supervisor_seconds)  # two checks find it broken
    after = await scrape(bot)
    counted = [
        value(s, "cardroom_supervisor_repairs_total", repair="no-driver") for s in (before, after)
    ]
    assert counted[1] == counted[0] + 1
    await bot.observer.close()


async def test_readyz_follows_each_shards_gateway(env: simcord.Env, bot: CardroomBot) -> None:
    assert await get(bot, "/healthz") == (200, "ok\n")
    assert await get(bot, "/readyz") == (200, "ready\n")
    await bot.shards[0].disconnect()
    status, body = await get(bot, "/readyz")
    assert (status, body) == (503, "shard 0: gateway not connected\n")
    assert value(await scrape(bot), "cardroom_gateway_connected", shard="0") == 0
    await bot.shards[0].reconnect()
    assert await get(bot, "/readyz") == (200, "ready\n")
    await bot.observer.close()


@pytest.fixture
async def postgres_settings(
    tmp_path: Path,
) -> AsyncIterator[tuple[Settings, ThrowawayPostgres]]:
    with throwaway_postgres() as server:
        url = await server.create_database("ready")
        yield fast_settings(tmp_path, database_url=url, metrics_port=0), server


@pytest.mark.slow
async def test_readyz_follows_the_database(
    postgres_settings: tuple[Settings, ThrowawayPostgres],
) -> None:
    settings, server = postgres_settings
    bot = CardroomBot(settings)
    async with simcord.run(bot) as env:
        del env
        assert await get(bot, "/readyz") == (200, "ready\n")
        server.stop()
        status, body = await get(bot, "/readyz")
        assert status == 503 and "the database does not answer" in body
        assert "the shard locks are not held" in body
        server.start()
        # the database answers again, and the bot takes its shard locks again
        for _ in range(100):
            if await get(bot, "/readyz") == (200, "ready\n"):
                break
            await asyncio.sleep(0.1)
        assert await get(bot, "/readyz") == (200, "ready\n")
        await bot.observer.close()
    await release(bot)


async def test_the_ai_queue_depth_counts_searches_waiting_for_a_worker(
    tmp_path: Path,
) -> None:
    ai = AiPlayers(fast_settings(tmp_path, ai_processes=1))
    state = games()["fishing"].new_state(2, seed=1)
    seat = state.waiting_for()[0]
    try:
        thinking = asyncio.ensure_future(ai.move(state, seat, "hard", "seed", GUILD))
        await asyncio.sleep(0)  # handed to the worker
        depth = REGISTRY.get_sample_value("cardroom_ai_queue_depth", {"level": "hard"})
        await thinking
        assert depth == 1
        assert REGISTRY.get_sample_value("cardroom_ai_queue_depth", {"level": "hard"}) == 0
    finally:
        ai.close()


async def test_discords_429s_5xx_and_interaction_answers_are_counted() -> None:
    async def answer(request: web.Request) -> web.Response:
        return web.Response(status=int(request.query.get("status", "204")))

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    base = f"http://127.0.0.1:{port}/api/v10"
    counted = (
        "cardroom_discord_rate_limited_total",
        "cardroom_discord_server_errors_total",
        "cardroom_interactions_answered_total",
    )
    before = [REGISTRY.get_sample_value(name) or 0.0 for name in counted]
    try:
        async with aiohttp.ClientSession(trace_configs=[http_trace()]) as session:
            for path in (
                "/channels/1/messages?status=429",
                "/channels/1/messages?status=502",
                "/interactions/1100000000000000000/secret-token/callback",
            ):
                async with session.post(base + path):
                    pass
    finally:
        await runner.cleanup()
    after = [REGISTRY.get_sample_value(name) or 0.0 for name in counted]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1]


DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "cardroom.json"


async def test_the_grafana_dashboard_shows_every_metric_and_only_those(bot: CardroomBot) -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    queries = " ".join(
        target["expr"] for panel in dashboard["panels"] for target in panel["targets"]
    )
    used = set(re.findall(r"\bcardroom_\w+", queries))
    await scrape(bot)  # the bot's figures are in the registry
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}
    families = {family.name: family.type for family in REGISTRY.collect()}
    exists = {
        name + suffix for name, kind in families.items() for suffix in suffixes.get(kind, ("",))
    }
    assert used <= exists, used - exists
    # every metric has a panel (a histogram's through its buckets, a counter's through _total)
    assert set(families) <= {re.sub(r"_(total|bucket)$", "", name) for name in used}
    await bot.observer.close()
