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
            table_edit_seconds=0.0,  # edits follow at once (outside the measured time)
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
                await env.advance_time(1.1)
            wall = time.perf_counter() - started
            measured = list(bot.move_times)
            await bot.tables.close()
            await bot.storage.close()
    total = sorted(t for t, _ in measured)
    own = sorted(t - save for t, save in measured)
    save = sorted(s for _, s in measured)
    return {
        "benchmark": "bot time per move (interaction arrival → answer), simcord",
        "game": game_id,
        "games_at_once": games,
        "moves": len(total),
        "own_median_ms": ms(statistics.median(own)),
        "own_p99_ms": ms(p99(own)),
        "save_median_ms": ms(statistics.median(save)),
        "save_p99_ms": ms(p99(save)),
        "total_median_ms": ms(statistics.median(total)),
        "total_p99_ms": ms(p99(total)),
        "wall_seconds_with_simcord": round(wall, 1),
    }


def p99(values: list[float]) -> float:
    """The 99th percentile of sorted values."""
    return values[min(len(values) - 1, int(len(values) * 0.99))]


def ms(seconds: float) -> float:
    """Seconds as milliseconds, rounded."""
    return round(seconds * 1000, 3)


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
