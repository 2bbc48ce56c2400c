"""The hard level: a search over the worlds the seat cannot tell from the real one.

Determinized Monte Carlo (perfect-information Monte Carlo) with sequential halving: the
candidate moves are the heuristic's choice plus a spread of others; each round deals fresh
worlds with ``State.determinize`` (world k of a decision from the decision's seed and k:
``world_seeds``) and plays every remaining candidate out in the same worlds (common random
numbers: the comparison is not drowned by the luck of the deal), every seat played by the
heuristic, to the end of the current hand (or a game's horizon, see ``Yardstick``); the
worse half of the others is dropped. The heuristic's choice stays to the end
and is left only for a move that clearly beat it in the same worlds. Half way through its
worlds, a search whose verdict is plain (every rival trails, or the last rival is far ahead)
stops there. Only worlds from ``determinize`` are looked at, so the search knows what the seat
knows and no more.
"""

from __future__ import annotations

import copy
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.core import Action, Agent, State, StateAgent
from engine.runner import step

MAX_ROLLOUT_STEPS = 5_000  # a hand never lasts this long; a guard, not a horizon


class Budget(NamedTuple):
    """How long the search thinks: exactly ``rollouts`` playouts when given (reproducible, for
    tests and the arena), otherwise about ``seconds`` of wall time per move. A named tuple:
    the bot pickles it to its worker processes, which a compiled frozen dataclass refuses."""

    rollouts: int | None = None
    seconds: float = 0.3


DEFAULT_BUDGET = Budget()


Standing = Callable[[State], Sequence[float]]
"""A game's estimate of a hand in progress: the points each seat would score if the hand
ended now, counted like the game's scores (so lower is better where the lowest wins)."""


Chances = Callable[[Sequence[int], int], float]
"""A game's estimate of a seat's share of the win of a two-player game from the totals between
two hands, 0 to 1."""


Candidates = Callable[[Sequence[Action], Action, int, random.Random], list[Action]]
"""A game's pick of the moves a search compares among the legal ones: the heuristic's move
first, then up to ``width - 1`` others (``spread`` when a game has none of its own)."""


@dataclass(frozen=True, slots=True)
class Yardstick:
    """How a game's playouts are judged: ``scale`` points of one hand make a clear lead; with
    a ``standing``, a playout stops after ``rounds`` turns of every seat and the standing
    judges it (cheaper than playing the hand out: long hands can afford more worlds). A rival
    replaces the heuristic's move only when it beat it by ``confidence`` standard errors: where
    the heuristic is weak and playouts are telling (fishing, swazi) little is asked, where a few
    lucky worlds mislead (cambio's snaps) more. ``candidates``: the game's own pick of the moves
    to compare, where a random spread would mostly try moves no player would make.
    ``chances``: at two players, a hand that ends and leaves the game on is judged by the seat's
    chance to win the game from the new totals, where the points alone misjudge it (in
    twentytwo, 11 points lost in the first hand are not a lost game). ``last_standing``: the
    game is won by the last seat not knocked out (twentytwo), so at three players or more
    points pushed onto any other seat bring a rival nearer to going out: a playout is judged by
    the seat's points against the others' average, not by its lead over the best other.
    ``settle_strictness``: how many times the standard errors the end asks a last rival must
    lead by for the search to stop half way and play it (``SearchAgent.settled``); fishing,
    whose early verdicts for a rival the full search most often overturned, asks more."""

    scale: float
    standing: Standing | None = None
    rounds: int = 0
    confidence: float = 1.0
    # A timed search plays at least the worlds this many playouts make (the node budget of the
    # arena in docs/ai.md figures), even when a busy machine makes that take longer than its
    # time, unless it stops early as that search does (``SearchAgent.settled``).
    playouts: int = 32
    candidates: Candidates | None = None
    chances: Chances | None = None
    last_standing: bool = False
    settle_strictness: float = 2.0


def rollout_value(
    world: State, seat: int, action: Action, policy: Agent, seed: int, yardstick: Yardstick
) -> float:
    """Play ``action`` in ``world`` (changed in place), then every seat by ``policy`` until the
    scores change (the hand ends), the game ends or the yardstick's horizon is reached; how
    good that is for ``seat``, 0 to 1."""
    before = play_on(world, seat, action, policy, seed, yardstick)
    return outcome(world, seat, before, yardstick)


def play_on(
    world: State, seat: int, action: Action, policy: Agent, seed: int, yardstick: Yardstick
) -> tuple[int, ...]:
    """``rollout_value``'s playout: ``action``, then ``policy`` for every seat to the end of
    the hand, the game or the horizon; returns the scores from before ``action``."""
    before = world.scores()
    world.apply(seat, action)
    agents = [policy] * world.players
    rng = random.Random(seed)  # one for every seat and the order: seeding costs
    rngs = [rng] * world.players
    order_rng = rng
    limit = yardstick.rounds * world.players if yardstick.standing else MAX_ROLLOUT_STEPS
    steps = 0
    while not world.is_over and world.scores() == before and steps < limit:
        step(world, agents, rngs, order_rng)
        steps += 1
    return before


def outcome(world: State, seat: int, before: Sequence[int], yardstick: Yardstick) -> float:
    """A finished game: the seat's share of the win. Otherwise how much this hand's points
    moved the seat's lead over the best other seat's total (or, in a ``last_standing`` game,
    its points against the others' average), squashed to 0..1, or the game's ``chances`` from
    the new totals."""
    if world.is_over:
        winners = world.winners()
        return 1.0 / len(winners) if seat in winners else 0.0
    if yardstick.chances is not None and world.players == 2:
        return yardstick.chances(world.scores(), seat)
    gains = hand_gains(world, before, yardstick)
    if yardstick.last_standing:
        lead = gains[seat] - (sum(gains, 0.0) - gains[seat]) / (len(gains) - 1)
    else:
        sign = -1 if world.game.lowest_wins else 1
        lead = lead_gained([sign * total for total in before], gains, seat)
    return 0.5 + 0.5 * math.tanh(lead / yardstick.scale)


def hand_gains(world: State, before: Sequence[int], yardstick: Yardstick) -> list[float]:
    """Each seat's points of this hand since the scores were ``before``, higher better: as
    scored, or by the standing when the hand goes on."""
    sign = -1 if world.game.lowest_wins else 1
    scores = world.scores()
    if scores == before and yardstick.standing is not None:
        return [sign * points for points in yardstick.standing(world)]
    return [sign * (after - earlier) for after, earlier in zip(scores, before, strict=True)]


def lead_gained(totals: Sequence[float], gains: Sequence[float], seat: int) -> float:
    """How much ``gains`` (this hand's points, higher better) change the seat's lead over the
    best other seat's ``totals`` (higher better). Only the best other decides who wins: at
    three players or more, points taken from a seat that trails (a stuck card, a bad swap)
    are worth nothing unless it would lead, and points taken from the leader count in full.
    At two players it is the difference of the gains, as it always was."""

    def lead(points: Sequence[float]) -> float:
        return points[seat] - max(points[other] for other in range(len(points)) if other != seat)

    return lead([total + gain for total, gain in zip(totals, gains, strict=True)]) - lead(totals)


def spread(legal: Sequence[Action], first: Action, width: int, rng: random.Random) -> list[Action]:
    """``first`` and up to ``width - 1`` other legal actions, picked at random but covering as
    many different first steps (then first two steps) of the choice paths as possible."""
    others = [action for action in legal if action != first]
    rng.shuffle(others)
    picked = [first]
    for depth in (1, 2, None):
        prefixes = {action.path[:depth] for action in picked}
        for action in others:
            if len(picked) >= width:
                return picked
            prefix = action.path[:depth]
            if action not in picked and (depth is None or prefix not in prefixes):
                picked.append(action)
                prefixes.add(prefix)
    return picked


class SearchAgent(StateAgent):
    """The hard level (see the module docstring); out-of-turn (optional) moves such as snaps
    are left to the heuristic."""

    def __init__(
        self,
        policy: Agent,
        yardstick: Yardstick,
        budget: Budget = DEFAULT_BUDGET,
        width: int = 6,
        confidence: float | None = None,
        evidence: int = 6,
        stop_early: bool = True,
    ) -> None:
        self.policy = policy
        self.yardstick = yardstick
        self.budget = budget
        self.width = width
        # A few noisy playouts make the best-looking of many moves look better than it is: the
        # heuristic's move is left only for one that beats it by this many standard errors.
        self.confidence = yardstick.confidence if confidence is None else confidence
        self.evidence = evidence  # fewer paired worlds than this never overrule it
        # Stop half way when the verdict is plain (``settled``); False: the full search, to
        # compare with.
        self.stop_early = stop_early
        self.playouts = 0  # how many the last decision played (what a time budget bought)
        # The last decision's playout values: per candidate, world by world (world k of a
        # decision is the same whether the search stops early or not: ``world_seeds``).
        self.values: list[list[float]] = []

    def choose_in(
        self,
        state: State,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
        optional: bool,
    ) -> Action | None:
        """The candidate that did best in the worlds sampled for ``seat``."""
        self.playouts = 0
        self.values = []
        view = state.agent_view(seat) if self.policy.needs_view else None
        preferred = self.policy.choose(view, legal, rng, optional)
        if optional or preferred is None or len(legal) == 1:
            return preferred
        pick = self.yardstick.candidates or spread
        candidates = pick(legal, preferred, self.width, rng)
        if len(candidates) == 1:
            return preferred
        return candidates[self.halve(state, seat, candidates, rng)]

    def halve(self, state: State, seat: int, candidates: list[Action], rng: random.Random) -> int:
        """Sequential halving over ``candidates`` (the heuristic's, index 0, is never dropped);
        the index of the move to play."""
        started = time.perf_counter()
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        total = self.budget.rollouts
        least = self.yardstick.playouts if total is None else total
        values: list[list[float]] = [[] for _ in candidates]
        self.values = values
        rivals = list(range(1, len(candidates)))
        planned = planned_worlds(least, rounds, len(rivals))
        # One draw a decision, however many worlds are played: a search that stops early
        # leaves its generator (and so the next decision's worlds) as the full search would.
        seed = rng.getrandbits(48)
        for round_index in range(rounds):
            # A time budget gives each round an equal share of the time; measured as it goes,
            # so a slow start (a busy machine) does not shrink the whole search.
            deadline = started + self.budget.seconds * (round_index + 1) / rounds
            worlds = 0
            while True:
                seeds = world_seeds(seed, len(values[0]))
                self.evaluate(state, seat, candidates, [0, *rivals], seeds, values)
                worlds += 1
                if self.stop_early and halfway(len(values[0]), self.evidence, planned):
                    settled = self.settled(values, rivals)
                    if settled is not None:
                        self.playouts = sum(map(len, values))
                        return settled
                enough = worlds >= round_worlds(least, rounds, len(rivals))
                if enough and (total is not None or time.perf_counter() >= deadline):
                    break
            if len(rivals) == 1:  # the last round: the heuristic's move against the best rival
                break
            rivals.sort(key=lambda index: -statistics.fmean(values[index]))
            rivals = rivals[: max(1, len(rivals) // 2)]
        self.playouts = sum(map(len, values))
        best = max(rivals, key=lambda index: statistics.fmean(values[index]))
        return best if self.clearly_better(values[best], values[0]) else 0

    def settled(self, values: list[list[float]], rivals: list[int]) -> int | None:
        """The move to play without the rest of the search (asked half way, see ``halfway``),
        or None to search on: the heuristic's move (0) once every rival left did no better
        than it in the worlds both were played in, which the other half would have to turn
        into a clear win; the one rival left once it beat the heuristic's move by the
        yardstick's ``settle_strictness`` times the standard errors the end asks (twice, by
        default), which the other half would have to undo. The full search rarely decided
        otherwise, and the other half is up to half of it (figures in docs/ai.md)."""
        preferred = values[0]
        if all(mean_difference(values[index], preferred) <= 0 for index in rivals):
            return 0
        strictness = self.yardstick.settle_strictness
        if len(rivals) == 1 and self.clearly_better(values[rivals[0]], preferred, strictness):
            return rivals[0]
        return None

    def clearly_better(
        self, rival: list[float], preferred: list[float], strictness: float = 1.0
    ) -> bool:
        """Whether ``rival`` beat ``preferred`` in the worlds both were played in (the same
        worlds, so their difference is compared) by ``confidence`` standard errors (times
        ``strictness``), in at least ``evidence`` worlds."""
        differences = [mine - theirs for mine, theirs in zip(rival, preferred, strict=False)]
        if len(differences) < max(2, self.evidence):
            return False
        mean = statistics.fmean(differences)
        error = statistics.stdev(differences) / math.sqrt(len(differences))
        return mean > strictness * self.confidence * error and mean > 0

    def evaluate(
        self,
        state: State,
        seat: int,
        candidates: list[Action],
        indices: list[int],
        seeds: tuple[int, int],
        values: list[list[float]],
    ) -> None:
        """Play the candidates at ``indices`` out in one world (the same for all), dealt and
        played from ``seeds`` (``world_seeds``)."""
        deal_seed, play_seed = seeds
        for index, world in zip(indices, worlds(state, seat, deal_seed, len(indices)), strict=True):
            action = candidates[index]
            value = rollout_value(world, seat, action, self.policy, play_seed, self.yardstick)
            values[index].append(value)


def mean_difference(rival: list[float], preferred: list[float]) -> float:
    """How much better ``rival`` did than ``preferred`` on average, world by world (both
    played in the same worlds)."""
    return statistics.fmean([mine - theirs for mine, theirs in zip(rival, preferred, strict=True)])


def world_seeds(seed: int, index: int) -> tuple[int, int]:
    """The seeds of world ``index`` (0, 1, …) of a decision seeded ``seed``: its deal's and its
    playouts'. Derived from the index rather than drawn in turn, so that world k is the same
    whether the search played the worlds before it or stopped early; distinct for every world
    of every decision (an index stays far below 2**31)."""
    deal_seed = (seed << 32) + 2 * index
    return deal_seed, deal_seed + 1


def halfway(played: int, evidence: int, planned: int) -> bool:
    """Whether a search that has played ``played`` of its ``planned`` worlds may stop early:
    at least half of them and ``evidence`` (the worlds a verdict needs), and not all."""
    return max(evidence, planned / 2) <= played < planned


def round_worlds(playouts: int, rounds: int, rivals: int) -> int:
    """The worlds a round of sequential halving plays at least: its share of ``playouts``
    (the heuristic's move and ``rivals`` played in each), one at the least."""
    return max(1, playouts // (rounds * (rivals + 1)))


def planned_worlds(playouts: int, rounds: int, rivals: int) -> int:
    """The worlds a rival that lasts to the last round is played in at least, when
    ``rounds`` of sequential halving start with ``rivals`` rivals and halve them each round
    (as ``SearchAgent.halve`` does; exactly, at a node budget)."""
    worlds = 0
    for _ in range(rounds):
        worlds += round_worlds(playouts, rounds, rivals)
        if rivals == 1:
            break
        rivals = max(1, rivals // 2)
    return worlds


def worlds(state: State, seat: int, deal_seed: int, count: int) -> list[State]:
    """``count`` copies of the world ``state.determinize(seat, …)`` deals from ``deal_seed``:
    dealt once and copied, as a copy costs a fraction of a deal."""
    world = state.determinize(seat, random.Random(deal_seed))
    return [copy.deepcopy(world) for _ in range(count - 1)] + [world]
