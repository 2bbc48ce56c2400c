"""Engine speed: random-agent self-play steps per second (an action applied, each with the
acting seat's legal actions listed), measured in CPU time of this one process (one core).

    ./run engine-bench            or    .venv/bin/python scripts/bench_engine.py [--games N]

Prints one JSON line per game and player count: the best of 3 timed runs, each on new seeds,
after an untimed warm-up run (steady-state self-play, caches filled). Not a test: figures vary
with the machine and with what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import time

from engine.registry import games
from engine.runner import play_out


def measure(game_id: str, players: int, count: int, repeats: int = 3) -> dict[str, object]:
    """Play ``repeats`` runs of ``count`` random games (new seeds each run); the best run's
    games/s and steps/s (the run least disturbed by other work on the machine, as timeit)."""
    game = games()[game_id]
    agents = [game.agent("random")] * players
    best_seconds, steps = float("inf"), 0
    for seed in range(-count, 0):  # warm-up, untimed: fills the games' caches as long play does
        play_out(game.new_state(players, seed), agents, seed)
    for repeat in range(repeats):
        steps = 0
        started = time.process_time()
        for seed in range(repeat * count, (repeat + 1) * count):
            steps += play_out(game.new_state(players, seed), agents, seed)
        best_seconds = min(best_seconds, time.process_time() - started)
    return {
        "game": game_id,
        "players": players,
        "games": count,
        "best_of": repeats,
        "cpu_seconds": round(best_seconds, 2),
        "games_per_s": round(count / best_seconds, 1),
        "steps_per_s": round(steps / best_seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only these counts")
    args = parser.parse_args()
    for game_id, game in games().items():
        if args.game and game_id not in args.game:
            continue
        for players in game.player_counts:
            if args.players and players not in args.players:
                continue
            print(json.dumps(measure(game_id, players, args.games)), flush=True)


if __name__ == "__main__":
    main()
