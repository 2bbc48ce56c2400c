"""The runner's play_out (the count of actions it returns and its bound) and the state's
sole_turn, which it plays from."""

from __future__ import annotations

import random

import pytest

from engine.registry import games
from engine.runner import play_out, step


@pytest.mark.parametrize("game_id", ["fishing", "stuck"])
def test_play_out_returns_the_actions_taken_and_stops_at_its_bound(game_id: str) -> None:
    game = games()[game_id]
    agents = [game.agent("random")] * 2
    steps = play_out(game.new_state(2, seed=7), agents, seed=7)
    state = game.new_state(2, seed=7)
    assert play_out(state, agents, seed=7, max_steps=steps) == steps and state.is_over
    with pytest.raises(RuntimeError, match=f"did not end within {steps - 1} actions"):
        play_out(game.new_state(2, seed=7), agents, seed=7, max_steps=steps - 1)


@pytest.mark.parametrize("game_id", sorted(games()))
def test_sole_turn_is_the_one_seat_to_act_with_its_legal_actions(game_id: str) -> None:
    game = games()[game_id]
    agents = [game.agent("random")] * 2
    seen = set()
    for seed in range(3):
        state, rngs = game.new_state(2, seed), [random.Random(seat) for seat in range(2)]
        while True:
            seats = state.to_act()
            turn = state.sole_turn()
            if len(seats) == 1:
                assert turn == (seats[0], state.legal_actions(seats[0]))
                assert turn[1] is state.legal_actions(seats[0])  # the same listed actions
            else:
                assert turn is None
            seen.add(len(seats))
            if state.is_over:
                break
            step(state, agents, rngs, random.Random(seed))
    assert {0, 1} <= seen and (game_id != "cambio" or 2 in seen)  # over; one seat; several
