"""Cardroom's Prometheus metrics, in a registry of their own (served by ``bot.ops.server``).

Names follow Prometheus's conventions: a ``cardroom_`` prefix, the unit in the name
(``_seconds``), ``_total`` on counters, and labels with few values (a game, an AI level, a
shard, a kind of failure), never a person or a table. Gauges of what is running now (tables,
lobbies, shards) are read from the bot at each scrape (``bot.ops.observe``), so the hot paths
only touch the counters and histograms here. Nothing here imports Discord: storage and
sessions may record into it.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

# a save is a few milliseconds on SQLite, more on a busy PostgreSQL server
SAVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# an AI decision: microseconds for the heuristic, the think time (0.3 s) for a search
AI_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# an interaction must be answered within 3 s, or Discord shows "interaction failed"
INTERACTION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)

MOVES = Counter(
    "cardroom_moves", "Moves made and saved (people, AI and timeouts)", ["game"], registry=REGISTRY
)
GAMES_FINISHED = Counter(
    "cardroom_games_finished",
    "Games played to their end (with a result)",
    ["game"],
    registry=REGISTRY,
)
SAVE_SECONDS = Histogram(
    "cardroom_save_duration_seconds",
    "Time to save a table's change (running game, result or ending)",
    buckets=SAVE_BUCKETS,
    registry=REGISTRY,
)
SAVE_FAILURES = Counter(
    "cardroom_save_failures",
    "Saves that failed and were undone, by kind: conflict (saved elsewhere first), timeout, error",
    ["kind"],
    registry=REGISTRY,
)
AI_DECISION_SECONDS = Histogram(
    "cardroom_ai_decision_duration_seconds",
    "Time for an AI seat to decide a move, waiting for a worker included",
    ["level"],
    buckets=AI_BUCKETS,
    registry=REGISTRY,
)
AI_QUEUE_DEPTH = Gauge(
    "cardroom_ai_queue_depth",
    "AI decisions handed to the worker processes and not yet answered",
    ["level"],
    registry=REGISTRY,
)
AI_SEARCHES_SKIPPED = Counter(
    "cardroom_ai_searches_skipped",
    "AI searches that got no worker and were replaced by the normal level's move, by reason: "
    "server-queue-full (the server had its most searches waiting), waited-too-long",
    ["reason"],
    registry=REGISTRY,
)
INTERACTIONS = Counter(
    "cardroom_interactions_answered",
    "Interactions (commands, clicks) answered",
    registry=REGISTRY,
)
INTERACTION_SECONDS = Histogram(
    "cardroom_interaction_response_seconds",
    "Time from an interaction's creation to Discord accepting its answer",
    buckets=INTERACTION_BUCKETS,
    registry=REGISTRY,
)
DISCORD_RATE_LIMITED = Counter(
    "cardroom_discord_rate_limited",
    "Discord REST responses 429 (rate limited; discord.py waits and retries)",
    registry=REGISTRY,
)
DISCORD_SERVER_ERRORS = Counter(
    "cardroom_discord_server_errors",
    "Discord REST responses 5xx (discord.py retries a few times)",
    registry=REGISTRY,
)
RESTORE_SECONDS = Gauge(
    "cardroom_restore_duration_seconds",
    "Time the last start took to restore its running games and open lobbies",
    registry=REGISTRY,
)
SUPERVISOR_REPAIRS = Counter(
    "cardroom_supervisor_repairs",
    "Stuck tables or lobbies the supervisor repaired, by what it repaired",
    ["repair"],
    registry=REGISTRY,
)


def repaired(kind: str) -> None:
    """The supervisor (or a table's driver) repaired a table that was not live, for ``kind``
    ("driver-error", "no-driver", "stuck-driver", "no-clock", "pause")."""
    SUPERVISOR_REPAIRS.labels(kind).inc()


def repairs(kind: str) -> float:
    """Repairs of ``kind`` made in this process so far."""
    value = REGISTRY.get_sample_value("cardroom_supervisor_repairs_total", {"repair": kind})
    return value or 0.0


def game_saved(game: str, moves: int, finished: bool) -> None:
    """A table's change was saved: ``moves`` moves of ``game`` (0 for a leave or a stop),
    and the game ``finished`` with a result."""
    if moves:
        MOVES.labels(game).inc(moves)
    if finished:
        GAMES_FINISHED.labels(game).inc()


def save_failed(error: BaseException, *, conflict: bool) -> None:
    """A table's save failed with ``error`` (``conflict``: the game was saved elsewhere)."""
    kind = "conflict" if conflict else "timeout" if isinstance(error, TimeoutError) else "error"
    SAVE_FAILURES.labels(kind).inc()
