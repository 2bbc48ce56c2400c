"""The hard level: a search over the worlds the seat cannot tell from the real one.

Determinized Monte Carlo (perfect-information Monte Carlo) with sequential halving: the
candidate moves are the heuristic's choice plus a spread of others; each round deals fresh
worlds with ``State.determinize`` and plays every remaining candidate out in the same worlds
(common random numbers: the comparison is not drowned by the luck of the deal), every seat
played by the heuristic, to the end of the current hand; the worse half is dropped. Only worlds
from ``determinize`` are looked at, so the search knows what the seat knows and no more.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import Action, Agent, State, StateAgent
from engine.runner import step

MAX_ROLLOUT_STEPS = 5_000  # a hand never lasts this long; a guard, not a horizon


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the search thinks: exactly ``rollouts`` playouts when given (reproducible, for
    tests and the arena), otherwise about ``seconds`` of wall time per move."""

    rollouts: int | None = None
    seconds: float = 0.3


DEFAULT_BUDGET = Budget()


def rollout_value(
    world: State, seat: int, action: Action, policy: Agent, seed: int, scale: float
) -> float:
    """Play ``action`` in ``world`` (changed in place), then every seat by ``policy`` until the
    scores change (the hand ends) or the game ends; how good that is for ``seat``, 0 to 1."""
    before = world.scores()
    world.apply(seat, action)
    agents = [policy] * world.players
    rngs = [random.Random(seed + other) for other in range(world.players)]
    order_rng = random.Random(-seed)
    steps = 0
    while not world.is_over and world.scores() == before and steps < MAX_ROLLOUT_STEPS:
        step(world, agents, rngs, order_rng)
        steps += 1
    return outcome(world, seat, before, scale)


def outcome(world: State, seat: int, before: Sequence[int], scale: float) -> float:
    """A finished game: the seat's share of the win. Otherwise how the seat's points of this
    hand compare with the others' average, squashed to 0..1 (``scale`` points is a clear lead)."""
    if world.is_over:
        winners = world.winners()
        return 1.0 / len(winners) if seat in winners else 0.0
    sign = -1 if world.game.lowest_wins else 1
    pairs = zip(world.scores(), before, strict=True)
    gains = [sign * (after - earlier) for after, earlier in pairs]
    others = (sum(gains) - gains[seat]) / (len(gains) - 1)
    return 0.5 + 0.5 * math.tanh((gains[seat] - others) / scale)


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
        scale: float,
        budget: Budget = DEFAULT_BUDGET,
        width: int = 8,
        prior_bonus: float = 0.02,
    ) -> None:
        self.policy = policy
        self.scale = scale
        self.budget = budget
        self.width = width
        self.prior_bonus = prior_bonus  # the heuristic's choice wins near-ties

    def choose_in(
        self,
        state: State,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
        optional: bool,
    ) -> Action | None:
        """The candidate that did best in the worlds sampled for ``seat``."""
        view = state.agent_view(seat) if self.policy.needs_view else None
        preferred = self.policy.choose(view, legal, rng, optional)
        if optional or preferred is None or len(legal) == 1:
            return preferred
        candidates = spread(legal, preferred, self.width, rng)
        return candidates[self.halve(state, seat, candidates, rng)]

    def halve(self, state: State, seat: int, candidates: list[Action], rng: random.Random) -> int:
        """Sequential halving over ``candidates``; the index of the survivor."""
        started = time.perf_counter()
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        total = self.budget.rollouts
        sums = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        remaining = list(range(len(candidates)))
        for _ in range(rounds):
            worlds = 0
            while True:
                self.evaluate(state, seat, candidates, remaining, rng, sums, counts)
                worlds += 1
                if total is None:  # estimate the whole budget from the time taken so far
                    spent = time.perf_counter() - started
                    total = int(self.budget.seconds * sum(counts) / max(spent, 1e-9))
                if worlds >= max(1, total // (rounds * len(remaining))):
                    break
            if self.budget.rollouts is None and time.perf_counter() - started > (
                self.budget.seconds
            ):
                break
            remaining.sort(key=lambda index: -self.mean(index, sums, counts))
            remaining = remaining[: max(1, math.ceil(len(remaining) / 2))]
            if len(remaining) == 1:
                break
        return max(remaining, key=lambda index: self.mean(index, sums, counts))

    def evaluate(
        self,
        state: State,
        seat: int,
        candidates: list[Action],
        remaining: list[int],
        rng: random.Random,
        sums: list[float],
        counts: list[int],
    ) -> None:
        """Play every remaining candidate out in one freshly dealt world (the same for all)."""
        deal_seed = rng.getrandbits(48)
        play_seed = rng.getrandbits(32)
        for index in remaining:
            world = state.determinize(seat, random.Random(deal_seed))
            sums[index] += rollout_value(
                world, seat, candidates[index], self.policy, play_seed, self.scale
            )
            counts[index] += 1

    def mean(self, index: int, sums: list[float], counts: list[int]) -> float:
        """A candidate's mean value so far (the heuristic's choice, index 0, gets its bonus)."""
        return sums[index] / max(counts[index], 1) + (self.prior_bonus if index == 0 else 0.0)
