"""Storage on SQLite files, through the bot's own Storage (aiosqlite, WAL): move saves per
second and per save with synchronous=NORMAL and FULL, finished-game writes per second, and how
fast /scoreboard and /stats answer at 10,000 finished games of one server, and how long reading
back 10,000 running games at a start takes (and the memory they hold once read).

A move save is ``storage.running.save`` of a real fishing position (state, seats, action list
so far); a finished-game write is ``storage.results.finish`` (delete the running row, the game,
four seat rows and the replay record, in one transaction). A scoreboard or stats answer is
``Ratings.scoreboard`` / ``Ratings.stats``, the data behind the command (rendering aside):
right after start (nothing cached), then as the bot answers: after a game ends (the tally
brought forward by that game) and with nothing new. A restore is the bot's own at a start
(``restore_sessions`` on a newly opened store: every row read, its state parsed by the engine,
a session made of it); the memory is what tracemalloc sees held by the sessions, on a second
restore (tracing slows it down). Prints one line per figure, then one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections import deque
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import get_args

from bot.boards.ratings import Ratings
from bot.settings import Settings
from bot.storage import (
    FinishedGame,
    FinishedSeat,
    SavedEvent,
    SavedGame,
    SeatRecord,
    Storage,
    TableLog,
)
from bot.storage.connection import Synchronous
from bot.tables.records import SessionContext
from bot.tables.restore import restore_sessions
from bot.tables.session import LOG_LENGTH
from bot.tables.thinking import AiPlayers
from bot.text import fill_names
from engine.registry import get_game

START = datetime(2026, 1, 1, tzinfo=UTC)


def game_positions(tables: int, seed: int) -> list[list[SavedGame]]:
    """Every position of ``tables`` random 4-player fishing games, as the bot saves them
    (with the table's last events and each hand's summary)."""
    game = get_game("fishing")
    positions = []
    for table in range(tables):
        state = game.new_state(4, seed + table)
        rng = random.Random(seed + table)
        actions: list[tuple[int, str]] = []
        seats = [SeatRecord(user_id=1000 + s, name=f"player {s}", is_ai=False) for s in range(4)]
        names = [seat.name for seat in seats]
        log: deque[SavedEvent] = deque(maxlen=LOG_LENGTH)
        summaries: list[str] = []
        deals = 0
        saves = []
        while not state.is_over:
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            actions.append((seat, action.text))
            for event in state.apply(seat, action):
                log.append(SavedEvent(revision=len(actions), text=event.text, kind=event.kind))
                deals += event.kind == "deal"
                if event.kind == "hand_end":
                    summaries.append(fill_names(event.text, names))
            saves.append(
                SavedGame(
                    table_id=f"table{table}",
                    guild_id=1,
                    channel_id=100 + table,
                    host_id=1000,
                    game_id=game.id,
                    options=dict(state.options),
                    seed=seed + table,
                    seats=seats,
                    state=state.to_json(),
                    revision=len(actions),
                    actions=list(actions),
                    table_message_id=5000 + table,
                    deadline=START + timedelta(minutes=len(actions)),
                    started_at=START,
                    table_log=TableLog(
                        events=list(log),
                        summaries=list(summaries),
                        deals=deals,
                    ),
                )
            )
        positions.append(saves)
    return positions


PLAYERS = 40  # people of the server(s) in finished games


def finished_games(count: int, servers: int = 10) -> list[FinishedGame]:
    """``count`` finished 4-player games of ``PLAYERS`` people, spread over ``servers``."""
    return [
        FinishedGame(
            table_id=f"done{n}",
            guild_id=n % servers,
            channel_id=100,
            game_id="fishing",
            options={"target": 21, "multi_capture": False},
            seed=n,
            started_at=START,
            ended_at=START + timedelta(seconds=n),
            seats=[
                FinishedSeat(
                    seat=s,
                    user_id=1000 + (n * 7 + s * 3) % PLAYERS,
                    name=f"p{s}",
                    is_ai=False,
                    score=21 - s,
                    place=s + 1,
                )
                for s in range(4)
            ],
            record={"game": "fishing", "players": 4, "seed": n, "options": {}, "actions": []},
            summary=["hand 1: 11 10 9 8"],
        )
        for n in range(count)
    ]


def percentile(samples: list[float], fraction: float) -> float:
    """The sample below which ``fraction`` of the samples lie (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def ms(seconds: float) -> float:
    """Seconds as milliseconds, rounded for printing."""
    return round(seconds * 1000, 3)


async def measure_saves(
    path: Path, positions: list[list[SavedGame]], synchronous: Synchronous
) -> dict[str, float]:
    """Save every position, tables taking turns as in a busy server; each save timed."""
    storage = await Storage.open(path, synchronous=synchronous)
    times = []
    try:
        started = time.perf_counter()
        for revision in range(max(len(saves) for saves in positions)):
            for saves in positions:
                if revision < len(saves):
                    expected = saves[revision - 1].revision if revision else None
                    before = time.perf_counter()
                    await storage.running.save(saves[revision], expected)
                    times.append(time.perf_counter() - before)
        seconds = time.perf_counter() - started
    finally:
        await storage.close()
    return {
        f"{synchronous}_saves_per_s": round(len(times) / seconds),
        f"{synchronous}_save_mean_ms": ms(sum(times) / len(times)),
        f"{synchronous}_save_p99_ms": ms(percentile(times, 0.99)),
    }


async def measure_boards(path: Path, finishes: int, queries: int) -> dict[str, float]:
    """Finish ``finishes`` games on one server (timed), then time scoreboards and stats."""
    done = finished_games(finishes, servers=1)
    storage = await Storage.open(path)
    try:
        progress(f"writing {finishes} finished games")
        started = time.perf_counter()
        for game in done[:-queries]:
            await storage.results.finish(game)
        finish_seconds = time.perf_counter() - started

        progress(f"answering scoreboards and stats at {finishes - queries} finished games")
        ratings = Ratings(storage.results)
        before = time.perf_counter()
        await ratings.scoreboard(0, "fishing")
        cold = time.perf_counter() - before
        steady_board, steady_stats, after_game = [], [], []
        for n, game in enumerate(done[-queries:]):
            for samples, ask in (
                (steady_board, ratings.scoreboard(0, "fishing")),
                (steady_stats, ratings.stats(0, 1000 + n % PLAYERS)),
            ):
                before = time.perf_counter()
                await ask
                samples.append(time.perf_counter() - before)
            await storage.results.finish(game)
            before = time.perf_counter()
            await ratings.refresh(0, "fishing")  # what the bot does when a game ends
            await ratings.scoreboard(0, "fishing")
            after_game.append(time.perf_counter() - before)
    finally:
        await storage.close()
    return {
        "finished_writes": finishes - queries,
        "finished_writes_per_s": round((finishes - queries) / finish_seconds),
        "board_games": finishes,
        "scoreboard_cold_ms": ms(cold),
        "scoreboard_median_ms": ms(percentile(steady_board, 0.5)),
        "scoreboard_p99_ms": ms(percentile(steady_board, 0.99)),
        "stats_median_ms": ms(percentile(steady_stats, 0.5)),
        "stats_p99_ms": ms(percentile(steady_stats, 0.99)),
        "scoreboard_after_a_game_median_ms": ms(percentile(after_game, 0.5)),
        "scoreboard_after_a_game_p99_ms": ms(percentile(after_game, 0.99)),
    }


async def measure_restore(
    path: Path, positions: list[list[SavedGame]], running: int
) -> dict[str, float]:
    """Store ``running`` games (the tables' middle positions, each under many ids), then time
    the bot's start reading them all back as sessions on a newly opened store; then, on
    another new store, the memory those sessions hold (tracemalloc, which slows the reading
    down: apart from the timing)."""
    middles = [saves[len(saves) // 2] for saves in positions]
    storage = await Storage.open(path)
    try:
        for n in range(running):
            game = middles[n % len(middles)]
            await storage.running.save(game.model_copy(update={"table_id": f"run{n}"}))
    finally:
        await storage.close()
    seconds, _ = await restore_from(path)
    gc.collect()
    tracemalloc.start()
    _, held = await restore_from(path)
    tracemalloc.stop()
    return {
        "restored_games": running,
        "restore_s": round(seconds, 3),
        "kb_per_restored_game": round(held / running / 1024, 1),
    }


async def restore_from(path: Path) -> tuple[float, int]:
    """The bot's reading back of every running game at a start (``restore_sessions``: rows
    read, states parsed, sessions made): seconds it took, and the bytes tracemalloc sees held
    by the sessions once the rest is freed (0 when it is not tracing)."""
    storage = await Storage.open(path)
    settings = Settings(_env_file=None, database_path=path, ai_processes=0)  # type: ignore[call-arg]
    context = SessionContext(storage, settings, lambda: datetime.now(UTC), AiPlayers(settings))
    try:
        before = time.perf_counter()
        sessions, broken = await restore_sessions(storage, context)
        seconds = time.perf_counter() - before
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        await storage.close()
    assert sessions and not broken
    return seconds, held


async def measure(
    directory: Path, tables: int, finishes: int, queries: int, running: int
) -> dict[str, float]:
    """Every measurement, each on its own new file in ``directory``."""
    progress(f"playing {tables} games to save")
    positions = game_positions(tables, seed=1)
    moves = sum(len(saves) for saves in positions)
    figures: dict[str, float] = {"move_saves": moves}
    for synchronous in get_args(Synchronous):
        progress(f"saving {moves} moves, synchronous={synchronous}")
        figures |= await measure_saves(directory / f"{synchronous}.db", positions, synchronous)
    figures["full_extra_ms_per_save"] = round(
        figures["full_save_mean_ms"] - figures["normal_save_mean_ms"], 3
    )
    figures |= await measure_boards(directory / "boards.db", finishes, queries)
    progress(f"storing {running} running games and reading them back")
    figures |= await measure_restore(directory / "restore.db", positions, running)
    return figures


def progress(text: str) -> None:
    """A line on stderr saying which phase the benchmark is in (stdout keeps the figures)."""
    print(f"bench_storage: {text}", file=sys.stderr, flush=True)


def main() -> None:
    """Measure on new files (``--dir`` to choose where) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="fishing games saved move by move")
    parser.add_argument("--finishes", type=int, default=10_000, help="finished games of a server")
    parser.add_argument("--queries", type=int, default=200, help="timed answers of each kind")
    parser.add_argument("--running", type=int, default=10_000, help="running games restored")
    parser.add_argument("--dir", type=Path, help="folder for the database files (default: temp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        directory = args.dir or Path(temporary)
        figures = asyncio.run(
            measure(directory, args.tables, args.finishes, args.queries, args.running)
        )
    f = figures
    print(f"storage: {f['move_saves']} move saves, each table's whole game, tables taking turns")
    for synchronous in get_args(Synchronous):
        print(
            f"storage: synchronous={synchronous}: {f[f'{synchronous}_saves_per_s']} saves/s,"
            f" mean {f[f'{synchronous}_save_mean_ms']} ms, p99 {f[f'{synchronous}_save_p99_ms']}"
            " ms per save"
        )
    print(f"storage: synchronous=full costs {f['full_extra_ms_per_save']} ms more per save")
    print(
        f"storage: {f['finished_writes_per_s']} finished-game writes/s"
        f" ({f['finished_writes']} games, 4 seats each)"
    )
    print(
        f"storage: at {f['board_games']} finished games of one server, first /scoreboard"
        f" {f['scoreboard_cold_ms']} ms (rating the whole season, in a worker thread)"
    )
    for name, key in (
        ("/scoreboard", "scoreboard"),
        ("/stats", "stats"),
        ("/scoreboard right after a game ended", "scoreboard_after_a_game"),
    ):
        print(
            f"storage: {name}: median {f[f'{key}_median_ms']} ms, p99 {f[f'{key}_p99_ms']} ms"
            f" ({args.queries} answers)"
        )
    print(
        f"storage: restoring {f['restored_games']} running games (read back as sessions, as"
        f" at a start) took {f['restore_s']} s; they hold {f['kb_per_restored_game']} KB"
        " per game (tracemalloc)"
    )
    print(json.dumps({"bench": "storage", **figures}))


if __name__ == "__main__":
    main()
