"""What the hard level's time budget buys: playouts per decision in ``AI_THINK_SECONDS`` (0.3 s
by default), per game at two players, next to the node budget the arena figures use.

    ./run bench            or    .venv/bin/python scripts/bench_think.py [--seconds S]

The positions are those of a normal-against-normal game where the seat to move has a choice
(every third one, up to ``--positions``); hard thinks on each with the time budget and the
number of playouts it played is noted. Prints one JSON line per game: the median and the
fewest playouts, and the arena's budget for that game (``Yardstick.playouts``: a timed search
plays at least the worlds it plans, stopping early only as the arena's does, so the bot's hard
thinks at least as long as the arena's). Figures depend on the machine and its load (printed
too). Not a test.

``--node-budget``: hard thinks for its game's node budget instead, on the same positions, and
the CPU time of each decision is noted (median and slowest, ms; CPU time, which the load
changes far less than wall time), with a digest of the moves it chose: two versions of the
search that print the same digest made the same decisions. ``--seeds N``: the positions of N
normal games (seeds 1 to N), for a mean (``cpu_ms_mean``) that one game's few positions make
noisy (stuck's game gives five).

``--against-full N``: at the node budget, on the positions of N normal games (seeds 1 to N),
hard as it plays (stopping once every rival trails the heuristic's move) against the full
search: the decisions that differ, and the playouts and CPU time each spent.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import time

from engine import compiled
from engine.ai import agent, heuristic, yardstick
from engine.ai.search import Budget, SearchAgent
from engine.core import State
from engine.registry import games
from engine.runner import step


def positions(game_id: str, count: int, seed: int = 1) -> list[tuple[State, int]]:
    """States of a normal-against-normal game where the seat to move has a choice."""
    game = games()[game_id]
    state = game.new_state(2, seed)
    agents = [agent(game, "normal")] * 2
    rngs = [random.Random(seed), random.Random(seed + 1)]
    found: list[tuple[State, int]] = []
    steps = 0
    while not state.is_over and len(found) < count:
        seats = state.waiting_for()
        if len(seats) == 1 and len(state.legal_actions(seats[0])) > 1:
            steps += 1
            if steps % 3 == 0:
                found.append((state.game.state_from_json(state.to_json()), seats[0]))
        step(state, agents, rngs, random.Random(steps))
    return found


def node_budget_costs(game_id: str, count: int, seeds: int = 1) -> dict[str, object]:
    """The CPU time of hard's decisions at the game's node budget on ``count`` positions of
    each of ``seeds`` games, and a digest of the moves chosen."""
    game = games()[game_id]
    budget = Budget(rollouts=yardstick(game).playouts)
    searcher = SearchAgent(heuristic(game), yardstick(game), budget)
    seconds = []
    moves = hashlib.sha256()
    for seed in range(1, seeds + 1):
        for state, seat in positions(game_id, count, seed):
            legal = state.legal_actions(seat)
            started = time.process_time()
            action = searcher.choose_in(state, seat, legal, random.Random(0), False)
            seconds.append(time.process_time() - started)
            moves.update(b"-" if action is None else action.text.encode())
    return {
        "game": game_id,
        "build": "compiled" if compiled() else "pure",
        "rollouts": budget.rollouts,
        "decisions": len(seconds),
        "cpu_ms_mean": round(1000 * statistics.fmean(seconds), 2),
        "cpu_ms_median": round(1000 * statistics.median(seconds), 2),
        "cpu_ms_slowest": round(1000 * max(seconds), 2),
        "moves_digest": moves.hexdigest()[:12],
    }


def against_full_search(game_id: str, count: int, seeds: int) -> dict[str, object]:
    """Hard's decisions at the game's node budget against the full search's (no early stop)
    on the same positions with the same generators: how many differ, and what each spent."""
    game = games()[game_id]
    budget = Budget(rollouts=yardstick(game).playouts)
    early = SearchAgent(heuristic(game), yardstick(game), budget)
    full = SearchAgent(heuristic(game), yardstick(game), budget, stop_early=False)
    decisions = differ = 0
    playouts = {"early": 0, "full": 0}
    seconds = {"early": 0.0, "full": 0.0}
    for seed in range(1, seeds + 1):
        for state, seat in positions(game_id, count, seed):
            legal = state.legal_actions(seat)
            moves = []
            for name, searcher in (("early", early), ("full", full)):
                started = time.process_time()
                moves.append(searcher.choose_in(state, seat, legal, random.Random(0), False))
                seconds[name] += time.process_time() - started
                playouts[name] += searcher.playouts
            decisions += 1
            differ += moves[0] != moves[1]
    return {
        "game": game_id,
        "build": "compiled" if compiled() else "pure",
        "rollouts": budget.rollouts,
        "decisions": decisions,
        "decisions_differ": differ,
        "playouts_ratio": round(playouts["early"] / playouts["full"], 3),
        "cpu_ratio": round(seconds["early"] / seconds["full"], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--node-budget", action="store_true", help="CPU time at the node budget")
    parser.add_argument("--seeds", type=int, default=1, help="--node-budget: games (1)")
    parser.add_argument("--against-full", type=int, metavar="N", help="early stop against full")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args()
    for game_id, game in games().items():
        if args.game and game_id not in args.game:
            continue
        if args.against_full:
            figures = against_full_search(game_id, args.positions, args.against_full)
            print(json.dumps(figures), flush=True)
            continue
        if args.node_budget:
            figures = node_budget_costs(game_id, args.positions, args.seeds)
            print(json.dumps(figures), flush=True)
            continue
        searcher = SearchAgent(heuristic(game), yardstick(game), Budget(seconds=args.seconds))
        bought = []
        for state, seat in positions(game_id, args.positions):
            legal = state.legal_actions(seat)
            searcher.choose_in(state, seat, legal, random.Random(0), False)
            bought.append(searcher.playouts)
        figures = {
            "game": game_id,
            "seconds": args.seconds,
            "decisions": len(bought),
            "playouts_median": statistics.median(bought),
            "playouts_fewest": min(bought),
            "arena_rollouts": yardstick(game).playouts,
            "load_average": round(os.getloadavg()[0], 1),
        }
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
