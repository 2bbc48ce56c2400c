"""The easy level: the heuristic's move some of the time, otherwise a plausible slip."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine.ai.search import Yardstick, rollout_value, worlds
from engine.core import Action, Agent, State, StateAgent


class EasyAgent(StateAgent):
    """Plays the heuristic's move with probability ``skill``; otherwise the better of ``tries``
    other legal moves, each played out once in one world the seat cannot tell from the real
    one, unless that is a blunder (worth ``blunder`` less than the heuristic's move there):
    beginners slip, they do not throw a capture of everything away."""

    def __init__(
        self,
        policy: Agent,
        yardstick: Yardstick,
        skill: float = 0.4,
        tries: int = 2,
        blunder: float = 0.3,
    ) -> None:
        self.policy = policy
        # Its blunder is counted in a hand's points: a game's chances to win (as hard judges)
        # move far less in one hand, and nearly every slip would pass.
        self.yardstick = replace(yardstick, chances=None)
        self.skill = skill
        self.tries = tries
        self.blunder = blunder

    def choose_in(
        self,
        state: State,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
        optional: bool,
    ) -> Action | None:
        """The heuristic's move or a tried alternative (out-of-turn moves: the heuristic's)."""
        view = state.agent_view(seat) if self.policy.needs_view else None
        preferred = self.policy.choose(view, legal, rng, optional)
        if optional or preferred is None or len(legal) == 1 or rng.random() < self.skill:
            return preferred
        others = [action for action in legal if action != preferred]
        tried = rng.sample(others, min(self.tries, len(others)))
        deal_seed = rng.getrandbits(48)
        play_seed = rng.getrandbits(32)
        *tried_worlds, preferred_world = worlds(state, seat, deal_seed, len(tried) + 1)
        best_value, best = max(
            (rollout_value(world, seat, action, self.policy, play_seed, self.yardstick), index)
            for index, (action, world) in enumerate(zip(tried, tried_worlds, strict=True))
        )
        preferred_value = rollout_value(
            preferred_world, seat, preferred, self.policy, play_seed, self.yardstick
        )
        return tried[best] if best_value >= preferred_value - self.blunder else preferred
