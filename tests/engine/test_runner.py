"""The runner's play_out: the count of actions it returns and its bound."""

from __future__ import annotations

import pytest

from engine.registry import games
from engine.runner import play_out


@pytest.mark.parametrize("game_id", ["fishing", "stuck"])
def test_play_out_returns_the_actions_taken_and_stops_at_its_bound(game_id: str) -> None:
    game = games()[game_id]
    agents = [game.agent("random")] * 2
    steps = play_out(game.new_state(2, seed=7), agents, seed=7)
    state = game.new_state(2, seed=7)
    assert play_out(state, agents, seed=7, max_steps=steps) == steps and state.is_over
    with pytest.raises(RuntimeError, match=f"did not end within {steps - 1} actions"):
        play_out(game.new_state(2, seed=7), agents, seed=7, max_steps=steps - 1)
