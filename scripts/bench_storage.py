"""Storage on SQLite files (aiosqlite, WAL) or PostgreSQL (``--backend postgresql``: a
throwaway server with PostgreSQL's durable defaults, from tests/postgres.py), through the bot's
own Storage: move saves per second and per save (SQLite: with synchronous=NORMAL and FULL), the
same with 1,000 games saving at once, finished-game writes per second, and how fast /scoreboard
and /stats answer at 10,000 finished games of one server, and how long reading back 10,000
running games at a start takes (and the memory they hold once read).

A move save is ``storage.running.save`` of a real fishing position (state, seats, action list
so far); a finished-game write is ``storage.results.finish`` (delete the running row, the game,
four seat rows and the replay record, in one transaction). Games saving at once: each of
1,000 games saves its next position, all together (``asyncio.gather``), round after round;
each save is timed from its call to its return, waiting for the connection included. A
scoreboard or stats answer is ``Ratings.scoreboard`` / ``Ratings.stats``, the data behind
the command (rendering aside): right after start (nothing cached), then as the bot answers:
after a game ends (the tally brought forward by that game) and with nothing new. A restore
is the bot's own at a start (``restore_sessions`` on a newly opened store: every row read, its
state parsed by the engine, a session made of it), in seconds and in CPU seconds; the memory
is what tracemalloc sees held by the sessions, on a second restore (tracing slows it down).
Prints one line per figure, then one JSON line.
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
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import get_args

from bot.boards.ratings import Ratings
from bot.settings import Settings
from bot.storage import (
    ActionRecord,
    FinishedGame,
    FinishedSeat,
    SavedEvent,
    SavedGame,
    SeatRecord,
    Storage,
    TableLog,
)
from bot.storage.connection import Synchronous
from bot.tables.records import LOG_LENGTH, SessionContext
from bot.tables.restore import restore_sessions
from bot.tables.thinking import AiPlayers
from bot.text import fill_names
from engine.registry import get_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.postgres import throwaway_postgres

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
                    actions=ActionRecord.of(actions),
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
            summary=[SavedEvent(revision=0, text="hand 1: 11 10 9 8", kind="hand_end")],
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
    path: Path | str, positions: list[list[SavedGame]], synchronous: Synchronous, label: str = ""
) -> dict[str, float]:
    """Save every position, tables taking turns as in a busy server; each save timed. The
    figures are named by ``label`` (default: the synchronous setting)."""
    label = label or synchronous
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
        f"{label}_saves_per_s": round(len(times) / seconds),
        f"{label}_save_mean_ms": ms(sum(times) / len(times)),
        f"{label}_save_p99_ms": ms(percentile(times, 0.99)),
    }


async def measure_saves_at_once(
    path: Path | str, positions: list[list[SavedGame]], games: int, rounds: int
) -> dict[str, float]:
    """``games`` games (each a table's positions under its own id) save their next position
    all at once, ``rounds`` times; each save timed from its call to its return."""
    plays = [
        [saves[move].model_copy(update={"table_id": f"together{n}"}) for move in range(rounds)]
        for n, saves in ((n, positions[n % len(positions)]) for n in range(games))
    ]
    times: list[float] = []
    storage = await Storage.open(path)

    async def save(game: list[SavedGame], move: int) -> None:
        before = time.perf_counter()
        await storage.running.save(game[move], game[move - 1].revision if move else None)
        times.append(time.perf_counter() - before)

    try:
        started = time.perf_counter()
        for move in range(rounds):
            await asyncio.gather(*(save(game, move) for game in plays))
        seconds = time.perf_counter() - started
    finally:
        await storage.close()
    return {
        "together_games": games,
        "together_saves_per_s": round(len(times) / seconds),
        "together_save_median_ms": ms(percentile(times, 0.5)),
        "together_save_p99_ms": ms(percentile(times, 0.99)),
    }


async def measure_boards(path: Path | str, finishes: int, queries: int) -> dict[str, float]:
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
        steady_board: list[float] = []
        steady_stats: list[float] = []
        after_game: list[float] = []
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
    path: Path | str, positions: list[list[SavedGame]], running: int
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
    seconds, cpu_seconds, _ = await restore_from(path)
    gc.collect()
    tracemalloc.start()
    *_, held = await restore_from(path)
    tracemalloc.stop()
    return {
        "restored_games": running,
        "restore_s": round(seconds, 3),
        "restore_cpu_s": round(cpu_seconds, 3),
        "kb_per_restored_game": round(held / running / 1024, 1),
    }


async def restore_from(path: Path | str) -> tuple[float, float, int]:
    """The bot's reading back of every running game at a start (``restore_sessions``: rows
    read, states parsed, sessions made): the seconds it took, the CPU seconds of the process
    meanwhile (SQLite's thread included: what a loaded machine does not stretch), and the
    bytes tracemalloc sees held by the sessions once the rest is freed (0 when not tracing)."""
    storage = await Storage.open(path)
    settings = Settings(_env_file=None, ai_processes=0)  # type: ignore[call-arg]
    context = SessionContext(storage, settings, lambda: datetime.now(UTC), AiPlayers(settings))
    try:
        before, cpu_before = time.perf_counter(), time.process_time()
        # no admin chose a server's language: what a start reads aside from the games
        sessions, broken = await restore_sessions(storage, context, lambda _guild: None)
        seconds, cpu_seconds = time.perf_counter() - before, time.process_time() - cpu_before
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        await storage.close()
    assert sessions and not broken
    return seconds, cpu_seconds, held


NewDatabase = Callable[[str], Awaitable[str]]  # a new empty database's path or URL, by name


async def measure(
    new_database: NewDatabase,
    postgresql: bool,
    tables: int,
    finishes: int,
    queries: int,
    running: int,
    together: int,
) -> dict[str, float]:
    """Every measurement, each on a new database of its own."""
    progress(f"playing {tables} games to save")
    positions = game_positions(tables, seed=1)
    moves = sum(len(saves) for saves in positions)
    figures: dict[str, float] = {"move_saves": moves}
    if postgresql:
        progress(f"saving {moves} moves on PostgreSQL")
        figures |= await measure_saves(await new_database("saves"), positions, "normal", "pg")
    else:
        for synchronous in get_args(Synchronous):
            progress(f"saving {moves} moves, synchronous={synchronous}")
            database = await new_database(synchronous)
            figures |= await measure_saves(database, positions, synchronous)
        figures["full_extra_ms_per_save"] = round(
            figures["full_save_mean_ms"] - figures["normal_save_mean_ms"], 3
        )
    progress(f"{together} games saving at once, {TOGETHER_ROUNDS} rounds")
    figures |= await measure_saves_at_once(
        await new_database("together"), positions, together, TOGETHER_ROUNDS
    )
    figures |= await measure_boards(await new_database("boards"), finishes, queries)
    progress(f"storing {running} running games and reading them back")
    figures |= await measure_restore(await new_database("restore"), positions, running)
    return figures


TOGETHER_ROUNDS = 10  # moves each game saves in the all-at-once measurement


def run_measurements(args: argparse.Namespace) -> dict[str, float]:
    """The measurements on new SQLite files (in ``--dir`` or a temporary folder) or on new
    databases of a throwaway PostgreSQL server."""
    counts = (args.tables, args.finishes, args.queries, args.running, args.together)
    if args.backend == "postgresql":
        with throwaway_postgres(durable=True) as server:
            return asyncio.run(measure(server.create_database, True, *counts))
    with tempfile.TemporaryDirectory() as temporary:
        directory = args.dir or Path(temporary)

        async def new_file(name: str) -> str:
            return str(directory / f"{name}.db")

        return asyncio.run(measure(new_file, False, *counts))


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
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="SQLite files, or a throwaway PostgreSQL server (needs its binaries)",
    )
    parser.add_argument("--together", type=int, default=1000, help="games saving at once")
    args = parser.parse_args()
    f = figures = run_measurements(args)
    print(
        f"storage ({args.backend}): {f['move_saves']} move saves, each table's whole game,"
        " tables taking turns"
    )
    for label, name in (
        ("normal", "synchronous=normal"),
        ("full", "synchronous=full"),
        ("pg", "PostgreSQL"),
    ):
        if f"{label}_saves_per_s" in f:
            print(
                f"storage: {name}: {f[f'{label}_saves_per_s']} saves/s,"
                f" mean {f[f'{label}_save_mean_ms']} ms, p99 {f[f'{label}_save_p99_ms']}"
                " ms per save"
            )
    if "full_extra_ms_per_save" in f:
        print(f"storage: synchronous=full costs {f['full_extra_ms_per_save']} ms more per save")
    print(
        f"storage: {f['together_games']} games saving at once: {f['together_saves_per_s']}"
        f" saves/s, median {f['together_save_median_ms']} ms, p99"
        f" {f['together_save_p99_ms']} ms per save"
    )
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
        f" at a start) took {f['restore_s']} s ({f['restore_cpu_s']} s of CPU); they hold"
        f" {f['kb_per_restored_game']} KB per game (tracemalloc)"
    )
    print(json.dumps({"bench": "storage", "backend": args.backend, **figures}))


if __name__ == "__main__":
    main()
