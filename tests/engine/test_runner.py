"""The runner's play_out (the count of actions it returns and its bound, the cyclic collector
paused while it plays) and the state's play_sole_turns, which it plays from; and that no game
makes reference cycles, which that pause relies on. That play_out plays as ``step`` does is
checked in every game by the random-play driver (tests/engine/test_random_play.py)."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable, Sequence
from types import FunctionType

import pytest

from engine.ai import LEVELS, agent
from engine.ai.search import Budget
from engine.core import Action, DeckPlan, RandomAgent, View
from engine.errors import IllegalActionError
from engine.games.fishing import Play
from engine.games.swazi import SwaziState
from engine.registry import games
from engine.runner import collector_paused, play_out


@pytest.mark.parametrize("game_id", ["fishing", "stuck"])
def test_play_out_returns_the_actions_taken_and_stops_at_its_bound(game_id: str) -> None:
    game = games()[game_id]
    agents = [agent(game, "random")] * 2
    steps = play_out(game.new_state(2, seed=7), agents, seed=7)
    state = game.new_state(2, seed=7)
    assert play_out(state, agents, seed=7, max_steps=steps) == steps and state.is_over
    with pytest.raises(RuntimeError, match=f"did not end within {steps - 1} actions"):
        play_out(game.new_state(2, seed=7), agents, seed=7, max_steps=steps - 1)


class Answering(RandomAgent):
    """Chooses as RandomAgent does, then gives what ``answer`` makes of its choice."""

    def __init__(self, answer: Callable[[Action], Action | None]) -> None:
        self.answer = answer

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        chosen = super().choose(view, legal, rng, optional)
        assert chosen is not None
        return self.answer(chosen)


def test_play_sole_turns_checks_a_choice_that_is_not_a_listed_object() -> None:
    """A chosen action equal to a listed one but not one of the listed objects is applied after
    ``is_legal`` checks it (the same game as with the listed objects); no action at all is
    an error, as is an action that is not legal."""
    game = games()["stuck"]
    state, same = game.new_state(2, seed=5), game.new_state(2, seed=5)
    # an equal action made anew from its text (a compiled frozen action cannot be deep-copied)
    copies = Answering(lambda chosen: game.parse_action(chosen.text)).choose
    applied = state.play_sole_turns([copies] * 2, [random.Random(seat) for seat in range(2)], 20)
    rngs = [random.Random(seat) for seat in range(2)]
    assert same.play_sole_turns([RandomAgent().choose] * 2, rngs, 20) == applied == 20
    assert same.to_json() == state.to_json()
    with pytest.raises(RuntimeError, match="did not move"):
        state.play_sole_turns([Answering(lambda chosen: None).choose] * 2, rngs, 1)
    fishing = games()["fishing"].new_state(2, seed=5)
    with pytest.raises(IllegalActionError, match="is not on the table"):
        fishing.play_sole_turns([Answering(taking_itself).choose] * 2, rngs, 1)


class CountingChecks(SwaziState):
    """A swazi game that counts how often the rule is asked whether a move is legal."""

    checks = 0

    def is_legal(self, seat: int, action: Action) -> bool:
        self.checks += 1
        return super().is_legal(seat, action)


def test_a_move_a_listing_handed_out_is_taken_without_asking_the_rule() -> None:
    """swazi's listing makes its moves when asked: one it handed out is taken as it is (found
    by identity), by play_sole_turns and by apply; an equal move made anew is checked by the
    rule, and plays the same game."""
    game = games()["swazi"]

    def fresh() -> CountingChecks:
        state = CountingChecks(2, 5, game.resolve_options(None), DeckPlan.normalise(5, None))
        state.start()
        return state

    handed, made_anew = fresh(), fresh()
    rngs = [random.Random(seat) for seat in range(2)]
    assert handed.play_sole_turns([RandomAgent().choose] * 2, rngs, 30) == 30
    copies = Answering(lambda chosen: game.parse_action(chosen.text)).choose
    rngs = [random.Random(seat) for seat in range(2)]
    assert made_anew.play_sole_turns([copies] * 2, rngs, 30) == 30
    assert (handed.checks, made_anew.checks) == (0, 30)
    assert handed.to_json() == made_anew.to_json()
    seat = handed.to_act()[0]
    handed.apply(seat, handed.legal_actions(seat)[0])
    assert handed.checks == 0
    seat = made_anew.to_act()[0]
    made_anew.apply(seat, game.parse_action(made_anew.legal_actions(seat)[0].text))
    assert made_anew.checks == 31


def taking_itself(chosen: Action) -> Action:
    """A fishing play of the chosen card that takes that card itself (never legal)."""
    assert isinstance(chosen, Play)
    return Play(chosen.card, (chosen.card,))


class CollectorWatcher(RandomAgent):
    """A random player that notes, at each choice, whether the cyclic collector is running,
    and fails at its ``fail_at``-th choice (None: never)."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.seen: list[bool] = []
        self.fail_at = fail_at

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        self.seen.append(gc.isenabled())
        if len(self.seen) == self.fail_at:
            raise ValueError("the player failed")
        return super().choose(view, legal, rng, optional)


def test_play_out_pauses_the_collector_and_gives_it_back_as_it_was() -> None:
    """Paused while the game is played; running again after it, also when a player fails
    mid-game; and a collector the caller paused stays paused."""
    game = games()["twentytwo"]
    watcher = CollectorWatcher()
    assert gc.isenabled()
    play_out(game.new_state(2, seed=3), [watcher] * 2, seed=3)
    assert set(watcher.seen) == {False} and gc.isenabled()
    failing = CollectorWatcher(fail_at=5)
    with pytest.raises(ValueError, match="the player failed"):
        play_out(game.new_state(2, seed=3), [failing] * 2, seed=3)
    assert failing.seen == [False] * 5 and gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        play_out(game.new_state(2, seed=3), [watcher] * 2, seed=3)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", sorted(games()))
def test_play_makes_no_reference_cycles(game_id: str, level: str) -> None:
    """Every object a game and its players make is freed by reference counting alone, at the
    fewest and the most players: what lets self-play pause the cyclic collector
    (``collector_paused``) without holding on to memory. A cycle shows by what it is made of."""
    game = games()[game_id]
    player = agent(game, level, Budget(rollouts=4))
    # The levels that look ahead are slow: fewer games, and hard at the fewest players only.
    games_played = 3 if level in ("random", "normal") else 1
    fewest, most = game.player_counts[0], game.player_counts[-1]
    counts = [fewest] if level == "hard" or fewest == most else [fewest, most]
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to name it
    try:
        for players in counts:
            for seed in range(games_played):
                play_out(game.new_state(players, seed), [player] * players, seed)
        gc.collect()
        # Named by type, and functions by their own name (a closure calling itself, say).
        cycles = Counter(
            found.__qualname__ if isinstance(found, FunctionType) else type(found).__qualname__
            for found in gc.garbage
        )
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
        gc.collect()
    assert not cycles, f"{game_id} at {level} left reference cycles: {cycles.most_common(5)}"
