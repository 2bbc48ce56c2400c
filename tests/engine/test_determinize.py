"""``State.determinize`` over every game and player count: a determinized world looks the same
to its seat (views, agent views, legal actions), holds every card once with each zone's count
kept, changes nothing of what the seat has seen, leaves the real state alone, plays on to its
end, and does move the hidden cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.cards import Card
from engine.core import RandomAgent, State
from engine.games.stuck import GAME as STUCK
from engine.games.stuck import StuckState
from engine.games.twentytwo import GAME as TWENTYTWO
from engine.games.twentytwo import STRENGTH, TwentyTwoState
from engine.registry import games
from engine.runner import play_out, step

CASES = [(game_id, players) for game_id, game in games().items() for players in game.player_counts]
SEEDS = 2
STEPS_BETWEEN_CHECKS = 7
PLAY_ON = 40


def hidden_from(state: State, seat: int) -> dict[str, tuple[Card, ...]]:
    """The zones ``seat`` has not seen, by name."""
    return {
        zone.name: zone.cards
        for zone in state.zones()
        if zone.seen_by is not None and seat not in zone.seen_by
    }


def check_world(state: State, world: State, seat: int) -> None:
    """Everything ``seat`` can tell about ``world`` is as in ``state``."""
    assert world.view(seat) == state.view(seat)
    assert world.agent_view(seat) == state.agent_view(seat)
    assert world.public_view() == state.public_view()
    assert world.to_act() == state.to_act()
    assert world.legal_actions(seat) == state.legal_actions(seat)
    assert all(world.legal_actions(other) for other in world.waiting_for()), "a stuck world"
    real = list(state.zones())
    imagined = list(world.zones())
    assert [(zone.name, len(zone.cards)) for zone in imagined] == [
        (zone.name, len(zone.cards)) for zone in real
    ]
    assert Counter(card for zone in imagined for card in zone.cards) == Counter(
        card for zone in real for card in zone.cards
    )
    for before, after in zip(real, imagined, strict=True):
        if before.seen_by is None or seat in before.seen_by:
            assert after.cards == before.cards, f"{before.name} was seen by s{seat} but changed"


@pytest.mark.parametrize(("game_id", "players"), CASES)
@pytest.mark.slow
def test_determinized_worlds_agree_with_the_seat_and_move_hidden_cards(
    game_id: str, players: int
) -> None:
    game = games()[game_id]
    agents = [RandomAgent()] * players
    moved = 0
    for seed in range(SEEDS):
        state = game.new_state(players, seed)
        rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
        order_rng = random.Random(seed)
        sampler = random.Random(f"sampler/{seed}")
        steps = 0
        while not state.is_over:
            if steps % STEPS_BETWEEN_CHECKS == 0:
                saved = state.to_json()
                for seat in range(players):
                    world = state.determinize(seat, sampler)
                    check_world(state, world, seat)
                    moved += hidden_from(world, seat) != hidden_from(state, seat)
                    for _ in range(PLAY_ON):  # the world stays playable (no seat left stuck)
                        if world.is_over:
                            break
                        step(world, agents, rngs, order_rng)
                assert state.to_json() == saved, "determinize changed the real state"
            step(state, agents, rngs, order_rng)
            steps += 1
        world = game.new_state(players, seed + 100).determinize(0, sampler)
        play_out(world, agents, seed)
        assert world.is_over
    assert moved > 0, "no determinized world ever moved a hidden card"


def test_stuck_worlds_deal_no_one_a_suit_or_rank_it_was_seen_to_lack() -> None:
    # Seat 1 drew on a card: it holds none of that suit or rank, and no world may say it does.
    state = STUCK.new_state(2, 3)
    assert isinstance(state, StuckState)
    rng = random.Random(0)
    agents = [RandomAgent()] * 2
    rngs = [random.Random(1), random.Random(2)]
    while not (state.lacks[1][0] and state.hands[1]) and not state.is_over:
        step(state, agents, rngs, rng)
    suits, ranks = state.lacks[1]
    assert suits
    for _ in range(50):
        world = state.determinize(0, rng)
        assert not [card for card in world.hands[1] if card.suit in suits or card.rank in ranks]


def test_twentytwo_worlds_deal_no_one_a_card_below_the_lowest_cards_it_played() -> None:
    # A follow that does not beat is the player's lowest cards: what it keeps is no lower.
    state = TWENTYTWO.new_state(3, 5)
    assert isinstance(state, TwentyTwoState)
    rng = random.Random(0)
    agents = [RandomAgent()] * 3
    rngs = [random.Random(seat) for seat in range(3)]
    while not (state.floors[1] > 2 and len(state.hands[1]) > 1) and not state.is_over:
        step(state, agents, rngs, rng)
    floor = state.floors[1]
    assert floor > 2 and min(map(STRENGTH.__getitem__, state.hands[1])) >= floor
    dealt = set()
    for _ in range(50):
        world = state.determinize(0, rng)
        assert min(map(STRENGTH.__getitem__, world.hands[1])) >= floor
        dealt.add(tuple(world.hands[1]))
    assert len(dealt) > 10  # still a deal at random among the cards that fit
