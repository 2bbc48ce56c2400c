"""What a move review costs: CPU seconds of one core to review one seat of a typical game.

    .venv/bin/python scripts/bench_review.py [--games N] [--players P] [--worlds W]

For each game, ``--games`` games played by the normal level at every seat (seeds 1, 2 …, the
smallest player count unless ``--players``) are reviewed for seat 0 with ``engine.review``'s
budget (``WORLDS`` worlds a decision unless ``--worlds``). Prints one JSON line per game: the
decisions reviewed and the CPU seconds per game (median and most). The review's target is at
most 30 s of one core for a typical game. Not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from engine.registry import games
from engine.replay import Replay, played_record
from engine.review import WORLDS, decisions, review


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--game", action="append", choices=list(games()))
    args = parser.parse_args()
    for game_id in args.game or list(games()):
        players = args.players or games()[game_id].player_counts[0]
        seconds, counts = [], []
        for seed in range(1, args.games + 1):
            replay = Replay.of(played_record(game_id, players, seed))
            started = time.process_time()
            review(replay, 0, worlds=args.worlds)
            seconds.append(time.process_time() - started)
            counts.append(len(decisions(replay, 0)))
        figures = {
            "game": game_id,
            "players": players,
            "worlds": args.worlds,
            "decisions_median": statistics.median(counts),
            "cpu_seconds_median": round(statistics.median(seconds), 2),
            "cpu_seconds_most": round(max(seconds), 2),
        }
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
