"""Engine speed: random-agent self-play steps per second (an action applied, each with the
acting seat's legal actions listed), measured in CPU time of this one process (one core), side
by side with RLCard's pure-Python UNO measured the same way.

    ./run bench            or    .venv/bin/python scripts/bench_engine.py [--games N]

Prints one JSON line per game and player count: the best of 3 timed runs, each on new seeds,
after an untimed warm-up run (steady-state self-play, caches filled). Then UNO's line and, for
two players, each game's ratio to UNO and whether its target is met. Last, per game, the time
to copy a state (``copy.deepcopy``, as the hard AI does for every world it looks at), over
every position of 20 two-player random games. UNO needs the ``bench``
extra (``pip install -e '.[bench]'``); without it the ratios are left out. Progress goes to
stderr. Not a test: figures vary with the machine and with what else runs on it.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from engine.registry import games
from engine.runner import play_out, step

UNO_GAME = "uno (RLCard)"
TARGETS = {"fishing": 1.5, "stuck": 1.5}
"""Each game's target in steps/s as a multiple of UNO's at two players (others: ``DEFAULT``)."""
DEFAULT_TARGET = 0.5
MAX_UNO_STEPS = 100_000  # a two-player UNO game ends in about 50 steps; this only stops a hang


def progress(text: str) -> None:
    """One progress line on stderr (the figures go to stdout)."""
    print(text, file=sys.stderr, flush=True)


def best_run(
    label: str, run: Callable[[range], int], count: int, repeats: int
) -> tuple[float, int]:
    """Call ``run`` once on untimed warm-up seeds, then ``repeats`` times on new seeds each
    time; the least CPU time of a run (the run least disturbed by other work, as timeit) and
    its steps."""
    progress(f"{label}: warm-up")
    run(range(10**6, 10**6 + count))  # fills the games' caches as long play does
    best_seconds, best_steps = float("inf"), 0
    for repeat in range(repeats):
        progress(f"{label}: run {repeat + 1} of {repeats}")
        started = time.process_time()
        steps = run(range(repeat * count, (repeat + 1) * count))
        seconds = time.process_time() - started
        if seconds < best_seconds:
            best_seconds, best_steps = seconds, steps
    return best_seconds, best_steps


def figures(
    game_id: str, players: int, count: int, repeats: int, seconds: float, steps: int
) -> dict[str, Any]:
    """One line of the table."""
    return {
        "game": game_id,
        "players": players,
        "games": count,
        "best_of": repeats,
        "cpu_seconds": round(seconds, 3),
        "games_per_s": round(count / seconds, 1),
        "steps_per_s": round(steps / seconds),
    }


def measure(game_id: str, players: int, count: int, repeats: int = 3) -> dict[str, Any]:
    """Random self-play of one of our games: ``count`` games a run."""
    game = games()[game_id]
    agents = [game.agent("random")] * players

    def run(seeds: range) -> int:
        return sum(play_out(game.new_state(players, seed), agents, seed) for seed in seeds)

    seconds, steps = best_run(f"{game_id}, {players} players", run, count, repeats)
    return figures(game_id, players, count, repeats, seconds, steps)


def measure_uno(count: int, repeats: int = 3) -> dict[str, Any] | None:
    """RLCard's two-player UNO, driven like ``play_out``: at every step the acting seat's legal
    actions are listed and a uniformly random one is applied (the rules only, as our loop:
    no observation is built). None when rlcard is not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        progress("UNO: rlcard is not installed (pip install -e '.[bench]'); no ratios")
        return None

    def run(seeds: range) -> int:
        steps = 0
        for seed in seeds:
            game = UnoGame(num_players=2)
            game.np_random = np.random.RandomState(seed)
            game.init_game()
            round_, hands = game.round, game.players
            rng = random.Random(f"{seed}/agent")
            while not round_.is_over:
                legal = round_.get_legal_actions(hands, round_.current_player)
                round_.proceed_round(hands, legal[int(rng.random() * len(legal))])
                steps += 1
                if steps > MAX_UNO_STEPS * len(seeds):
                    raise RuntimeError("UNO games did not end")
        return steps

    seconds, steps = best_run("UNO, 2 players", run, count, repeats)
    return figures(UNO_GAME, 2, count, repeats, seconds, steps)


def ratio_table(rows: list[dict[str, Any]], uno: dict[str, Any]) -> list[str]:
    """Each game's two-player steps/s against UNO's, with its target, as Markdown lines."""
    uno_speed = uno["steps_per_s"]
    lines = [
        f"Two players, against RLCard's UNO at {uno_speed:,} steps/s:",
        "",
        "| game | steps/s | × UNO | target | met |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if row["players"] != 2:
            continue
        ratio = row["steps_per_s"] / uno_speed
        target = TARGETS.get(row["game"], DEFAULT_TARGET)
        met = "yes" if ratio >= target else "no"
        lines.append(
            f"| {row['game']} | {row['steps_per_s']:,} | {ratio:.2f}× | {target}× | {met} |"
        )
    return lines


def measure_copy(game_id: str, count: int = 20, repeats: int = 3) -> dict[str, Any]:
    """Microseconds to copy a state, averaged over every position of ``count`` two-player
    random games (the least CPU time of ``repeats`` passes)."""
    game = games()[game_id]
    agents = [game.agent("random")] * 2
    positions = []
    for seed in range(count):
        state = game.new_state(2, seed)
        rngs = [random.Random(f"{seed}/{seat}") for seat in range(2)]
        while not state.is_over:
            positions.append(copy.deepcopy(state))
            step(state, agents, rngs, random.Random(seed))
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for position in positions:
            copy.deepcopy(position)
        best = min(best, time.process_time() - started)
    return {
        "game": game_id,
        "positions": len(positions),
        "copy_us": round(best / len(positions) * 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only these counts")
    args = parser.parse_args()
    rows = []
    for game_id, game in games().items():
        if args.game and game_id not in args.game:
            continue
        for players in game.player_counts:
            if args.players and players not in args.players:
                continue
            rows.append(measure(game_id, players, args.games))
            print(json.dumps(rows[-1]), flush=True)
    if args.players and 2 not in args.players:
        return
    uno = measure_uno(args.games)
    if uno is not None:
        print(json.dumps(uno), flush=True)
        print("\n".join(["", *ratio_table(rows, uno), ""]), flush=True)
    for game_id in dict.fromkeys(row["game"] for row in rows):
        print(json.dumps(measure_copy(game_id)), flush=True)


if __name__ == "__main__":
    main()
