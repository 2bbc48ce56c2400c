"""What the metrics read from the running bot: its tables, lobbies and shards at each scrape,
Discord's answers to its REST requests as they come, and whether it is ready.

``start_observing(bot)`` registers the scrape-time figures and, when ``METRICS_PORT`` is set,
starts the server of ``bot.ops.server``. The REST figures come from an aiohttp trace handed to
discord.py (``http_trace``): every response, retries included, is seen once.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import Counter as Tally
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Protocol

import aiohttp
import discord
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.ops import metrics
from bot.ops.error_reports import start_error_reports
from bot.ops.server import HealthServer
from bot.settings import Settings
from bot.storage import Storage
from bot.tables.service import TableService
from engine.registry import games


class CardroomBot(Protocol):
    """What is read of the bot (bot.app's, once set up: storage and tables come then)."""

    settings: Settings
    storage: Storage
    tables: TableService

    @property
    def shards(self) -> dict[int, discord.ShardInfo]:
        """The bot's shards (discord.py's AutoShardedClient)."""


log = logging.getLogger(__name__)

DATABASE_ANSWER_SECONDS = 2.0  # longer than this, and the database counts as not answering
# an interaction's answer: POST /api/v10/interactions/{id}/{token}/callback
INTERACTION_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


def http_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace counting Discord's 429 and 5xx answers and the interactions answered
    (with their time since the interaction was created, read from its snowflake id)."""

    async def on_request_end(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        note_response(params.url.path, params.response.status, time.time())

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace


def note_response(path: str, status: int, now: float) -> None:
    """Count one REST response of Discord's (``now``: when it arrived, Unix time)."""
    if status == 429:
        metrics.DISCORD_RATE_LIMITED.inc()
    elif status >= 500:
        metrics.DISCORD_SERVER_ERRORS.inc()
    answered = INTERACTION_CALLBACK.search(path)
    if answered and status < 300:
        metrics.INTERACTIONS.inc()
        created = discord.utils.snowflake_time(int(answered[1])).timestamp()
        metrics.INTERACTION_SECONDS.observe(max(0.0, now - created))


class BotCollector(Collector):
    """The figures read from the bot at each scrape: running tables and open lobbies by game,
    each shard's gateway latency and connection, the shards whose locks it holds."""

    def __init__(self) -> None:
        self.bot: CardroomBot | None = None  # the process's bot, once it has started

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """The current figures (none before a bot has started)."""
        if self.bot is None:
            return
        bot = self.bot
        tables = GaugeMetricFamily("cardroom_tables_running", "Tables running", labels=["game"])
        lobbies = GaugeMetricFamily("cardroom_lobbies_open", "Lobbies open", labels=["game"])
        if hasattr(bot, "tables"):
            running = Tally(s.game.id for s in bot.tables.tables.values() if not s.ended)
            open_ = Tally(lobby.game.id for lobby in bot.tables.lobbies.by_id.values())
            for game in sorted(games()):
                tables.add_metric([game], running[game])
                lobbies.add_metric([game], open_[game])
        yield tables
        yield lobbies
        latency = GaugeMetricFamily(
            "cardroom_gateway_latency_seconds",
            "Time between a shard's gateway heartbeat and its acknowledgement",
            labels=["shard"],
        )
        connected = GaugeMetricFamily(
            "cardroom_gateway_connected",
            "1 while a shard's gateway connection is open",
            labels=["shard"],
        )
        for shard_id, shard in sorted(bot.shards.items()):
            is_open = not shard.is_closed()
            connected.add_metric([str(shard_id)], 1.0 if is_open else 0.0)
            if is_open:
                latency.add_metric([str(shard_id)], shard.latency)
        yield latency
        yield connected
        held = GaugeMetricFamily(
            "cardroom_shard_locks_held", "Shards this process holds in the database"
        )
        holds = hasattr(bot, "storage") and bot.storage.holds_its_shards
        held.add_metric([], len(bot.settings.shards.ids) if holds else 0)
        yield held


async def problems(bot: CardroomBot) -> list[str]:
    """Why the bot is not ready (empty: it is): a shard's gateway not connected, the
    database not answering, its shard locks not held."""
    found = [
        f"shard {shard_id}: gateway not connected"
        for shard_id in bot.settings.shards.ids
        if shard_id not in bot.shards or bot.shards[shard_id].is_closed()
    ]
    if not hasattr(bot, "storage"):
        return [*found, "the database is not open yet"]
    try:
        await asyncio.wait_for(bot.storage.schema_version(), DATABASE_ANSWER_SECONDS)
    except Exception as error:
        found.append(f"the database does not answer: {type(error).__name__}")
    if not bot.storage.holds_its_shards:
        found.append("the shard locks are not held")
    return found


# one per process, registered once: it reads the bot that started last (a restarted bot in
# tests replaces the one dropped without closing)
COLLECTOR = BotCollector()
metrics.REGISTRY.register(COLLECTOR)


class Observer:
    """The bot's health server, when asked for."""

    def __init__(self) -> None:
        self.server: HealthServer | None = None

    @classmethod
    async def start(cls, bot: CardroomBot) -> Observer:
        """Collect the bot's figures; serve them when METRICS_PORT is set; send error
        reports when SENTRY_DSN is."""
        COLLECTOR.bot = bot
        start_error_reports(bot.settings)
        observer = cls()
        port = bot.settings.metrics_port
        if port is not None:
            host = bot.settings.metrics_host

            async def ready() -> list[str]:
                return await problems(bot)

            observer.server = await HealthServer.start(host, port, ready)
            log.info("metrics and health checks on http://%s:%d/", host, observer.server.port)
        return observer

    async def close(self) -> None:
        """Stop serving."""
        if self.server is not None:
            await self.server.close()
