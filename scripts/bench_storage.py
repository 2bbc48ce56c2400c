"""Storage throughput on one SQLite file: move saves per second and finished-game writes per
second, through the bot's own Storage (aiosqlite, WAL, synchronous=NORMAL).

A move save is ``storage.running.save`` of a real fishing position (state, seats, action list
so far); a finished-game write is ``storage.results.finish`` (delete the running row, the game,
four seat rows and the replay record, in one transaction). Prints one line per figure, then
one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.storage import FinishedGame, FinishedSeat, SavedGame, SeatRecord, Storage
from engine.registry import get_game

START = datetime(2026, 1, 1, tzinfo=UTC)


def game_positions(tables: int, seed: int) -> list[list[SavedGame]]:
    """Every position of ``tables`` random 4-player fishing games, as the bot saves them."""
    game = get_game("fishing")
    positions = []
    for table in range(tables):
        state = game.new_state(4, seed + table)
        rng = random.Random(seed + table)
        actions: list[tuple[int, str]] = []
        seats = [SeatRecord(user_id=1000 + s, name=f"player {s}", is_ai=False) for s in range(4)]
        saves = []
        while not state.is_over:
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            actions.append((seat, action.text))
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
                )
            )
        positions.append(saves)
    return positions


def finished_games(count: int) -> list[FinishedGame]:
    """``count`` finished 4-player games spread over 10 servers."""
    return [
        FinishedGame(
            table_id=f"done{n}",
            guild_id=n % 10,
            channel_id=100,
            game_id="fishing",
            options={"target": 21, "multi_capture": False},
            seed=n,
            started_at=START,
            ended_at=START + timedelta(seconds=n),
            seats=[
                FinishedSeat(
                    seat=s,
                    user_id=1000 + (n + s) % 40,
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


async def measure(path: Path, tables: int, finishes: int) -> dict[str, float]:
    """Run both measurements on the database at ``path``."""
    progress(f"playing {tables} games and {finishes} finished games to save")
    positions = game_positions(tables, seed=1)
    done = finished_games(finishes)
    storage = await Storage.open(path)
    try:
        moves = sum(len(saves) for saves in positions)
        progress(f"saving {moves} moves")
        started = time.perf_counter()
        for revision in range(max(len(saves) for saves in positions)):
            for saves in positions:  # tables take turns, as in a busy server
                if revision < len(saves):
                    await storage.running.save(saves[revision])
        move_seconds = time.perf_counter() - started

        progress(f"writing {finishes} finished games")
        started = time.perf_counter()
        for game in done:
            await storage.results.finish(game)
        finish_seconds = time.perf_counter() - started
    finally:
        await storage.close()
    return {
        "move_saves": moves,
        "move_saves_per_s": round(moves / move_seconds),
        "finished_writes": finishes,
        "finished_writes_per_s": round(finishes / finish_seconds),
    }


def progress(text: str) -> None:
    """A line on stderr saying which phase the benchmark is in (stdout keeps the figures)."""
    print(f"bench_storage: {text}", file=sys.stderr, flush=True)


def main() -> None:
    """Measure on a fresh file (``--db`` to choose where) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="fishing games saved move by move")
    parser.add_argument("--finishes", type=int, default=5000, help="finished games written")
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = args.db or Path(directory) / "bench.db"
        figures = asyncio.run(measure(path, args.tables, args.finishes))
    print(f"storage: {figures['move_saves_per_s']} move saves/s ({figures['move_saves']} saves)")
    print(
        f"storage: {figures['finished_writes_per_s']} finished-game writes/s "
        f"({figures['finished_writes']} games, 4 seats each)"
    )
    print(json.dumps({"bench": "storage", **figures}))


if __name__ == "__main__":
    main()
