"""AI level against AI level: win shares with 95% confidence intervals, and time per move.

    .venv/bin/python scripts/arena.py --game fishing --pair hard,normal --games 200
    .venv/bin/python scripts/arena.py --pair normal,easy --players 2 --players 3 --games 1000

For each game, player count and pair ``A,B``, plays ``--games`` games (seeds 0, 1, …, or from
``--first-seed``): seat ``seed % players`` is level A, every other seat level B, so A sits in
every seat in turn. A's win share counts a shared win as a fraction (1/k of a win for each of k
winners); the interval is the normal approximation (1.96 standard errors). Fair play between
levels at n players gives A a share of 1/n. The hard level thinks for ``--rollouts`` playouts a
move at most (a node budget: reproducible and independent of the machine's load; it stops half
way where its verdict is plain, ``engine.ai.search``), not for 0.3 s. Time per move is the CPU
time of each level's decisions (mean, median and 99th percentile, ms), on the build it names
(``compiled`` by mypyc, or ``pure`` Python: ``CARDROOM_PURE=1``).
``--jobs`` plays games in parallel processes. Not a test: it prints figures.

``--against-full``: each seed is played twice, once with hard as it plays (stopping half way
where its verdict is plain) and once with the full search in its place, and the two are
compared game by game: a search's worlds do not depend on how many it played, so the two
games are the same up to the first decision that differs. Prints, besides each one's
figures, how many games hard as it plays did better and worse in (a sign test's two-sided
p-value over those) and the mean of the paired differences of A's share with its 95%
interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from engine import compiled
from engine.ai import agent, level_name
from engine.ai.search import Budget, SearchAgent
from engine.core import Action, Agent, State, StateAgent
from engine.registry import games
from engine.runner import agent_move, play_out


class Timed(StateAgent):
    """Another agent, with the CPU time of each of its decisions noted."""

    def __init__(self, inner: Agent | StateAgent) -> None:
        self.inner = inner
        self.seconds: list[float] = []

    def choose_in(
        self,
        state: State,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
        optional: bool,
    ) -> Action | None:
        """The inner agent's choice, timed."""
        started = time.process_time()
        action = agent_move(state, seat, self.inner, rng, optional)
        self.seconds.append(time.process_time() - started)
        return action


def play_one(
    game_id: str, players: int, pair: tuple[str, str], seed: int, rollouts: int, full: bool
) -> tuple[float, list[float], list[float]]:
    """One game: A's share of the win and both levels' decision times (``full``: hard
    searches all its worlds, never stopping half way)."""
    game = games()[game_id]
    budget = Budget(rollouts=rollouts)
    made = [agent(game, level, budget) for level in pair]
    for searcher in made:
        if isinstance(searcher, SearchAgent):
            searcher.stop_early = not full
    first, second = Timed(made[0]), Timed(made[1])
    seat_a = seed % players
    agents = [first if seat == seat_a else second for seat in range(players)]
    state = game.new_state(players, seed)
    play_out(state, agents, seed)
    winners = state.winners()
    share = 1.0 / len(winners) if seat_a in winners else 0.0
    return share, first.seconds, second.seconds


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


Arms = dict[bool, tuple[list[float], list[float], list[float]]]
"""Per arm (``True``: the full search in hard's place): A's share in each game, and A's and
B's decision times."""


def match(
    game_id: str,
    players: int,
    pair: tuple[str, str],
    seeds: range,
    rollouts: int,
    jobs: int,
    every: int | None = None,
    arms: Sequence[bool] = (False,),
) -> list[dict[str, object]]:
    """Play the games of ``seeds`` in each arm (``True``: hard never stops half way, the full
    search; seed by seed, the arms in turn) and sum them up: a line an arm, and with two arms
    their comparison (printing the lines so far every ``every`` games: a long run stopped
    early still leaves its figures)."""
    played: Arms = {full: ([], [], []) for full in arms}
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            (full, pool.submit(play_one, game_id, players, pair, seed, rollouts, full))
            for seed in seeds
            for full in arms
        ]
        for done, (full, future) in enumerate(futures, 1):
            share, first, second = future.result()
            shares, first_times, second_times = played[full]
            shares.append(share)
            first_times.extend(first)
            second_times.extend(second)
            if every and done % (every * len(arms)) == 0 and done < len(futures):
                for line in sum_up(game_id, players, pair, played, rollouts, started):
                    print(json.dumps({**line, "partial": True}), flush=True)
    return sum_up(game_id, players, pair, played, rollouts, started)


def sum_up(
    game_id: str,
    players: int,
    pair: tuple[str, str],
    played: Arms,
    rollouts: int,
    started: float,
) -> list[dict[str, object]]:
    """A line of figures an arm and, with both arms, their comparison game by game."""
    lines: list[dict[str, object]] = []
    for full, (shares, *times) in played.items():
        figures = summary(game_id, players, pair, shares, (times[0], times[1]), rollouts, started)
        lines.append({**figures, "full_search": full})
    if len(played) == 2:
        comparison = paired(played[False][0], played[True][0])
        lines.append({"game": game_id, "players": players, "early_against_full": comparison})
    return lines


def paired(early: Sequence[float], full: Sequence[float]) -> dict[str, object]:
    """Hard as it plays against the full search over the same seeds, game by game: the games
    each did better in, a sign test over those (two-sided p-value: the chance of a split at
    least this uneven if neither were stronger) and the mean difference of A's share with its
    95% interval."""
    differences = [mine - theirs for mine, theirs in zip(early, full, strict=True)]
    better = sum(difference > 0 for difference in differences)
    worse = sum(difference < 0 for difference in differences)
    split = better + worse
    tail = sum(math.comb(split, wins) for wins in range(min(better, worse) + 1)) / 2**split
    mean = statistics.fmean(differences)
    error = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences))
    return {
        "games": len(differences),
        "early_better": better,
        "full_better": worse,
        "sign_test_p": round(min(1.0, 2 * tail), 3),
        "mean_difference": round(mean, 4),
        "ci95": [round(mean - error, 4), round(mean + error, 4)],
    }


def summary(
    game_id: str,
    players: int,
    pair: tuple[str, str],
    shares: Sequence[float],
    times: tuple[list[float], list[float]],
    rollouts: int,
    started: float,
) -> dict[str, object]:
    """A's win share with its 95% interval and both levels' decision times, as printed."""
    mean = statistics.fmean(shares)
    error = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else 1.0
    result: dict[str, object] = {
        "game": game_id,
        "players": players,
        "a": pair[0],
        "b": pair[1],
        "games": len(shares),
        "a_share": round(mean, 3),
        "ci95": [round(mean - error, 3), round(mean + error, 3)],
        "fair_share": round(1 / players, 3),
        "rollouts": rollouts,
        "build": "compiled" if compiled() else "pure",
        "wall_s": round(time.perf_counter() - started, 1),
    }
    for level, seconds in zip(pair, times, strict=True):
        if seconds:
            result[f"{level}_ms_mean"] = round(1000 * statistics.fmean(seconds), 2)
            result[f"{level}_ms_median"] = round(1000 * statistics.median(seconds), 2)
            result[f"{level}_ms_p99"] = round(1000 * percentile(seconds, 0.99), 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="player counts (2)")
    parser.add_argument("--pair", action="append", help="LEVEL_A,LEVEL_B (hard,normal)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed (0)")
    parser.add_argument("--rollouts", type=int, default=64, help="hard's playouts a move")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--every", type=int, help="also print the figures every N games")
    parser.add_argument(
        "--against-full", action="store_true", help="hard against its full search, paired"
    )
    args = parser.parse_args()
    pairs = [tuple(level_name(level) for level in text.split(",")) for text in args.pair or []]
    for game_id, game in games().items():
        if args.game and game_id not in args.game:
            continue
        for players in args.players or [2]:
            if players not in game.player_counts:
                continue
            for first, second in pairs or [("hard", "normal")]:
                lines = match(
                    game_id,
                    players,
                    (first, second),
                    range(args.first_seed, args.first_seed + args.games),
                    args.rollouts,
                    args.jobs,
                    args.every,
                    (False, True) if args.against_full else (False,),
                )
                for line in lines:
                    print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
