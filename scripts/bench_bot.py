"""The bot's own time per move, from the interaction's arrival to its answer, with many games
running at once under simcord (offline). Prints one JSON line; not a timed test.

    python scripts/bench_bot.py [--games 200] [--rounds 5] [--game fishing]

Every game has one simulated person and one AI seat; in each round every person whose turn
it is makes one move through the Hand view (the AI answers at once). The figure is measured
inside the bot (``CardroomBot.move_times``): interaction arrival → validation, the engine
move, the SQLite save, and the answer with the new private view. simcord's own work and the
coalesced table/DM edits that follow are outside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord

from bot.app import create_bot
from bot.settings import Settings
from tests.bot.helpers import add_player, move_by_hand, open_table


async def bench(games: int, rounds: int, game_id: str) -> dict[str, object]:
    """Run the benchmark and return its figures."""
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            database_path=Path(directory) / "bench.db",
            ai_delay_seconds=0.0,
            table_edit_seconds=1.0,
        )
        bot = create_bot(settings)
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            guild = env.create_guild(name="bench")
            tables = []
            for number in range(games):
                channel = guild.create_text_channel(f"table-{number}")
                player = add_player(env, guild, f"player{number}")
                table = await open_table(bot, channel, [player], game_id, 1)
                tables.append((player, channel, table))
            rng = random.Random(1)
            started = time.perf_counter()
            for _ in range(rounds):
                for player, channel, table in tables:
                    if table.ended:
                        continue
                    if 0 not in table.state.waiting_for():
                        continue
                    await move_by_hand(player, channel, table, rng)
                await env.advance_time(1.1)  # let the coalesced table edits through
            wall = time.perf_counter() - started
            times = sorted(bot.move_times)
    moves = len(times)
    return {
        "benchmark": "bot move latency (interaction → answer), simcord",
        "game": game_id,
        "games_at_once": games,
        "moves": moves,
        "median_ms": round(statistics.median(times) * 1000, 3),
        "p99_ms": round(times[min(moves - 1, int(moves * 0.99))] * 1000, 3),
        "max_ms": round(times[-1] * 1000, 3),
        "wall_seconds_with_simcord": round(wall, 1),
    }


def main() -> None:
    """Parse the arguments and print the figures as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", default="fishing")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(bench(args.games, args.rounds, args.game))))


if __name__ == "__main__":
    main()
