"""Engine speed: random-agent self-play steps per second (an action applied, each with the
acting seat's legal actions listed), measured in CPU time of this one process (one core); at
two players side by side with RLCard's pure-Python UNO driven the same way. Both loops run with
Python's cyclic collector paused, as ``play_out`` plays (see ``runner.collector_paused``).

    ./run bench            or    .venv/bin/python scripts/bench_engine.py [--games N] [--rounds R]

Prints one JSON line per game and player count: medians over ``--rounds`` rounds of ``--games``
games, each round on new seeds, after untimed warm-up play. At two players UNO's games take
turns with the game's, about 5 ms of each at a time, so that both meet the same machine; each
round gives a ratio, and the line shows the median ratio and its lowest and highest. Then the ratio
table, each game against its target. Each line is measured in a new process of its own, so no
figure depends on what ran before it. At two players the line also gives the time to copy a
state (``copy_us``: ``copy.deepcopy``, as the hard AI does for every world it looks at), over
every position of 20 two-player random games. UNO needs the ``bench`` extra (``pip install -e
'.[bench]'``); without it the ratios are left out. Progress goes to stderr. Not a test: figures
vary with the machine and with what else runs on it.

Where the compiled engine is installed (setup.py), each line is measured on both builds, the
compiled one and the pure-Python one (``CARDROOM_PURE``), each line naming its ``build``;
``--build compiled`` or ``--build pure`` measures one; a last table sets them side by side.
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from statistics import median
from typing import Any

import engine
from engine.ai import agent
from engine.registry import games
from engine.runner import collector_paused, play_out, step

TARGETS = {"compiled": 1.5, "pure": 0.33}
"""Every game's target in steps/s as a multiple of UNO's at two players, by build: the rules
compiled as they read, and the pure-Python fallback."""
MAX_UNO_STEPS = 100_000  # a two-player UNO game ends in about 50 steps; this only stops a hang


def progress(text: str) -> None:
    """One progress line on stderr (the figures go to stdout)."""
    print(text, file=sys.stderr, flush=True)


SLICE_SECONDS = 0.005
"""About how long a slice lasts. At two players a game and UNO take turns slice by slice (each
first in every other slice), so both meet the machine's fast and slow spells alike: on a shared
host one process's speed swings by half from one moment to the next, and measured one after
the other the ratio swung with it (fishing 1.22-1.94x over three runs on a quiet machine)."""
WARM_UP_SECONDS = 0.2
"""CPU time each run plays untimed first: fills the games' caches as long play does, and tells
how many games make a slice."""


def games_per_slice(run: Callable[[range], int]) -> int:
    """Play ``run`` untimed for about ``WARM_UP_SECONDS``; how many of its games last about
    ``SLICE_SECONDS``."""
    started, played = time.process_time(), 0
    while time.process_time() - started < WARM_UP_SECONDS:
        run(range(10**6 + played, 10**6 + played + 1))
        played += 1
    return max(1, round(SLICE_SECONDS * played / (time.process_time() - started)))


def interleaved(
    runs: Sequence[Callable[[range], int]], sizes: Sequence[int], slices: int, round_: int
) -> list[tuple[float, int]]:
    """One round: ``slices`` slices of each of ``runs`` (``sizes`` games a slice, on this
    round's seeds), taken in turns; per run, its CPU seconds and steps."""
    totals = [(0.0, 0) for _ in runs]
    for slice_ in range(round_ * slices, (round_ + 1) * slices):
        order = list(range(len(runs)))
        if slice_ % 2:
            order.reverse()
        for index in order:
            seeds = range(slice_ * sizes[index], (slice_ + 1) * sizes[index])
            started = time.process_time()
            steps = runs[index](seeds)
            seconds, total_steps = totals[index]
            totals[index] = (seconds + time.process_time() - started, total_steps + steps)
    return totals


def measure(
    game_id: str,
    players: int,
    count: int,
    rounds: int,
    uno: Callable[[range], int] | None,
) -> dict[str, Any]:
    """Random self-play of one of our games, ``rounds`` rounds of about ``count`` games each
    (new seeds every round); with ``uno``, UNO's games interleaved with ours for as long and
    each round's ratio taken. The medians over the rounds, and the ratio's lowest and
    highest."""
    game = games()[game_id]
    agents = [agent(game, "random")] * players

    def ours(seeds: range) -> int:
        return sum(play_out(game.new_state(players, seed), agents, seed) for seed in seeds)

    runs = [ours] if uno is None else [ours, uno]
    label = f"{game_id}, {players} players" + (" and UNO" if uno else "")
    progress(f"{label}: warm-up")
    sizes = [games_per_slice(run) for run in runs]
    slices = -(-count // sizes[0])
    results = []
    for round_ in range(rounds):
        progress(f"{label}: round {round_ + 1} of {rounds}")
        results.append(interleaved(runs, sizes, slices, round_))
    speeds = [[steps / seconds for seconds, steps in result] for result in results]
    row: dict[str, Any] = {
        "game": game_id,
        "players": players,
        "games": slices * sizes[0],
        "rounds": rounds,
        "cpu_seconds": round(sum(result[0][0] for result in results), 3),
        "steps_per_s": round(median(speed[0] for speed in speeds)),
    }
    if uno is not None:
        ratios = [speed[0] / speed[1] for speed in speeds]
        row["uno_steps_per_s"] = round(median(speed[1] for speed in speeds))
        row["ratio"] = round(median(ratios), 3)
        row["ratio_low"], row["ratio_high"] = round(min(ratios), 3), round(max(ratios), 3)
    return row


def uno_run() -> Callable[[range], int] | None:
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
        with collector_paused():  # as play_out plays ours (UNO's play sets off no pass anyway)
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

    return run


def ratio_table(rows: list[dict[str, Any]]) -> list[str]:
    """Each game's two-player steps/s against UNO's, with its target, as Markdown lines."""
    lines = [
        "Two players, each game interleaved with RLCard's UNO (medians over the rounds):",
        "",
        "| game | build | steps/s | UNO steps/s | × UNO | lowest–highest | target | met |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "ratio" not in row:
            continue
        target = TARGETS[row["build"]]
        met = "yes" if row["ratio"] >= target else "no"
        lines.append(
            f"| {row['game']} | {row['build']} | {row['steps_per_s']:,} "
            f"| {row['uno_steps_per_s']:,} "
            f"| {row['ratio']:.2f}× | {row['ratio_low']:.2f}–{row['ratio_high']:.2f}× "
            f"| {target}× | {met} |"
        )
    return lines


def build_table(rows: list[dict[str, Any]]) -> list[str]:
    """Each game and player count's steps/s in the compiled and the pure build, as Markdown
    lines (empty unless both were measured)."""
    speeds = {(row["game"], row["players"], row["build"]): row["steps_per_s"] for row in rows}
    pairs = sorted({(game, players) for game, players, _ in speeds})
    lines = [
        f"| {game} | {players} | {speeds[game, players, 'compiled']:,} "
        f"| {speeds[game, players, 'pure']:,} "
        f"| {speeds[game, players, 'compiled'] / speeds[game, players, 'pure']:.2f}× |"
        for game, players in pairs
        if (game, players, "compiled") in speeds and (game, players, "pure") in speeds
    ]
    if not lines:
        return []
    return [
        "Steps/s of each build (medians over the rounds):",
        "",
        "| game | players | compiled | pure | compiled ÷ pure |",
        "| --- | --- | --- | --- | --- |",
        *lines,
    ]


def measure_copy(game_id: str, count: int = 20, repeats: int = 3) -> dict[str, Any]:
    """Microseconds to copy a state, averaged over every position of ``count`` two-player
    random games (the least CPU time of ``repeats`` passes)."""
    game = games()[game_id]
    agents = [agent(game, "random")] * 2
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


@contextmanager
def build_chosen(pure: bool) -> Iterator[None]:
    """Processes started in the block run the pure-Python engine (``CARDROOM_PURE``) or, where
    it is installed, the compiled one."""
    before = os.environ.pop(engine.PURE_VARIABLE, None)
    if pure:
        os.environ[engine.PURE_VARIABLE] = "1"
    try:
        yield
    finally:
        os.environ.pop(engine.PURE_VARIABLE, None)
        if before is not None:
            os.environ[engine.PURE_VARIABLE] = before


def measured_apart(
    game_id: str, players: int, count: int, rounds: int, with_uno: bool, pure: bool
) -> dict[str, Any]:
    """``measure`` in a new process of its own (and ``measure_copy`` after it, at two
    players): a game's figure must not depend on the games measured before it in the same
    process. It did: what their caches left behind made the garbage collector's full passes
    longer and more frequent, and twentytwo read 0.43x alone but 0.37-0.38x after the other
    four games."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter, not a fork of this
    with build_chosen(pure), ProcessPoolExecutor(max_workers=1, mp_context=context) as worker:
        return worker.submit(_measure_here, game_id, players, count, rounds, with_uno).result()


def _measure_here(
    game_id: str, players: int, count: int, rounds: int, with_uno: bool
) -> dict[str, Any]:
    """``measure`` (with UNO when asked and installed) and, at two players, ``measure_copy``;
    the row names the build measured."""
    row = {"build": "compiled" if engine.compiled() else "pure"}
    row |= measure(game_id, players, count, rounds, uno_run() if with_uno else None)
    if players == 2:
        row["copy_us"] = measure_copy(game_id)["copy_us"]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a round (default 200)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only these counts")
    parser.add_argument(
        "--build",
        choices=("both", "compiled", "pure"),
        default="both",
        help="the engine build(s) to measure (default both; pure alone where none is compiled)",
    )
    args = parser.parse_args()
    builds = [False, True] if args.build == "both" else [args.build == "pure"]
    if not engine.compiled() and not os.environ.get(engine.PURE_VARIABLE):
        progress(
            "the compiled engine is not installed, or older than its source (./run build):"
            " the pure build only"
        )
        builds = [True]
    with_uno = uno_run() is not None
    rows = []
    for game_id, game in games().items():
        if args.game and game_id not in args.game:
            continue
        for players in game.player_counts:
            if args.players and players not in args.players:
                continue
            against_uno = with_uno and players == 2  # UNO is a two-player game
            for pure in builds:
                row = measured_apart(game_id, players, args.games, args.rounds, against_uno, pure)
                rows.append(row)
                print(json.dumps(row), flush=True)
    if any("ratio" in row for row in rows):
        print("\n".join(["", *ratio_table(rows), ""]), flush=True)
    if builds_table := build_table(rows):
        print("\n".join(["", *builds_table, ""]), flush=True)


if __name__ == "__main__":
    main()
