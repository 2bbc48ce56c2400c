"""copy.deepcopy of a state (State.__deepcopy__, which searching AIs use for every world): the
copy equals the state, lists the same actions, plays on exactly as the state would, and shares
nothing that either of them changes."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.ai import agent
from engine.core import State
from engine.registry import games
from engine.runner import play_out, step

CASES = [(game_id, players) for game_id, game in games().items() for players in game.player_counts]


def snapshot(state: State) -> str:
    """Everything a state holds, as text, to tell whether it changed."""
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_copy_plays_on_like_the_state_and_shares_nothing_it_changes(
    game_id: str, players: int
) -> None:
    game = games()[game_id]
    agents = [agent(game, "random")] * players
    for seed in (0, 1) if players == 2 else (0,):
        state = game.new_state(players, seed)
        rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
        order = random.Random(seed)
        steps = 0
        while not state.is_over:
            if steps & (steps - 1) == 0:  # step 0, 1, 2, 4, 8 …: early to late, few copies
                before = snapshot(state)
                clone = copy.deepcopy(state)
                assert type(clone) is type(state)
                assert snapshot(clone) == before
                for seat in range(players):
                    assert clone.legal_actions(seat) == state.legal_actions(seat)
                # The copy played to the end leaves the state as it was…
                ended = play_out(clone, agents, seed + steps)
                assert snapshot(state) == before, f"playing a copy changed the state ({ended})"
                # …and the state, played the same way, ends exactly as the copy did.
                again = copy.deepcopy(state)
                play_out(again, agents, seed + steps)
                assert snapshot(again) == snapshot(clone)
            step(state, agents, rngs, order)
            steps += 1
