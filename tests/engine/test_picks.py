"""Several cards chosen in one step (engine.choices.Pick): every game's sets name exactly its
legal actions, no other set is taken, and the words say what each choice does."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from engine.cards import Card
from engine.choices import (
    NotAMove,
    Pick,
    StaleChoice,
    Step,
    choice_label,
    first_step,
    pick_at,
    pick_labels,
    pick_prompt,
    picked_path,
    resolve,
)
from engine.core import Action, Game, State
from engine.registry import games, get_game

NAMES = ["Ann", "Bob", "Cara", "Dan"]
PICKING = ("cambio", "twentytwo", "swazi")


def positions(game: Game, players: int, seed: int, moves: int = 400) -> Iterator[State]:
    """The positions of a random game (every one at a decision)."""
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            return
        yield state
        seat = state.waiting_for()[0] if state.waiting_for() else state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def picks(game: Game, legal: Sequence[Action]) -> Iterator[Pick]:
    """Every pick among the steps ``legal`` is offered in (each step walked once)."""
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        pick = pick_at(game, legal, prefix)
        if pick is not None:
            yield pick
            continue
        step = resolve(legal, prefix)
        if isinstance(step, Step):
            pending += [(*prefix, c.index) for c in step.choices if c.only is None]


def members_of(pick: Pick, keys: tuple[str, ...], rng: random.Random) -> list[int]:
    """Item indices with these keys, each copy chosen at random among the interchangeable."""
    free = list(range(len(pick.items)))
    rng.shuffle(free)
    chosen = []
    for key in keys:
        index = next(i for i in free if pick.keys[i] == key)
        free.remove(index)
        chosen.append(index)
    return chosen


@pytest.mark.parametrize("game_id", PICKING)
def test_every_pick_names_exactly_the_legal_actions_and_refuses_other_sets(game_id: str) -> None:
    game = get_game(game_id)
    rng = random.Random(7)
    found = 0
    for seed in range(2):
        for state in positions(game, min(game.player_counts), seed):
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                for pick in picks(game, legal):
                    found += 1
                    _check(game, legal, pick, rng)
    assert found >= 3, f"{game_id} offered too few picks to test"


def _check(game: Game, legal: Sequence[Action], pick: Pick, rng: random.Random) -> None:
    under = resolve(legal, pick.prefix)
    candidates = {a.text for a in legal if a.path[: len(pick.chosen)] == pick.chosen}
    assert isinstance(under, Step)
    assert {action.text for _, action in pick.sets} == candidates
    assert set(pick.sizes) == {len(keys) for keys, _ in pick.sets}
    # each set names its action (a sample: an eleven-card twentytwo hand has 2,047 exchanges)
    for keys, action in rng.sample(pick.sets, min(len(pick.sets), 12)):
        chosen = members_of(pick, keys, rng)
        path = picked_path(game, legal, pick.prefix, chosen)
        assert resolve(legal, path, game.confirmation) == action
    legal_keys = {keys for keys, _ in pick.sets}
    for _ in range(30):
        size = rng.randint(1, len(pick.items))
        chosen = rng.sample(range(len(pick.items)), size)
        keys = tuple(sorted(pick.keys[i] for i in chosen))
        if keys in legal_keys:
            assert pick.action(chosen) == dict(pick.sets)[keys]
        else:
            with pytest.raises(NotAMove):
                pick.action(chosen)


def test_an_item_named_twice_or_out_of_range_is_stale_not_a_move() -> None:
    cambio = get_game("cambio")
    legal = [cambio.parse_action(t) for t in ("look A B", "look A C", "look B C")]
    pick = pick_at(cambio, legal, ())
    assert pick is not None
    for chosen in ([0, 0], [0, 3], [-1, 0]):
        with pytest.raises(StaleChoice):
            pick.action(chosen)
    with pytest.raises(NotAMove):
        pick.action([0])
    with pytest.raises(StaleChoice):  # no pick where only one action is left
        picked_path(cambio, legal, (0, 0), [0])


def test_games_without_sets_offer_no_pick() -> None:
    for game_id in ("fishing", "stuck"):
        game = get_game(game_id)
        for state in positions(game, min(game.player_counts), 1, 100):
            for seat in state.to_act():
                assert list(picks(game, state.legal_actions(seat))) == []


def test_cambios_opening_look_is_one_choice_of_two_of_your_cards() -> None:
    cambio = get_game("cambio")
    state = cambio.new_state(2, 3)
    legal = state.legal_actions(0)
    pick = pick_at(cambio, legal, ())
    assert pick is not None and pick.sizes == (2,)
    assert pick_prompt(cambio, pick, NAMES) == "Look at which two of your cards?"
    assert pick_labels(cambio, pick, NAMES) == tuple(f"Your card {p}" for p in "ABCD")
    assert pick.action([3, 1]).text == "look B D"


def test_twentytwos_exchange_names_ranks_only_and_counts_the_copies() -> None:
    twentytwo = get_game("twentytwo")
    state = twentytwo.new_state(3, 1)
    legal = state.legal_actions(state.to_act()[0])
    root = first_step(legal)
    assert [choice_label(twentytwo, root, c, NAMES) for c in root.choices] == [
        "Keep your hand",
        "Exchange cards …",
    ]
    pick = pick_at(twentytwo, legal, (1,))
    assert pick is not None
    hand = pick.items
    labels = pick_labels(twentytwo, pick, NAMES)
    assert not any(symbol in "".join(labels) for symbol in "♣♦♥♠")
    ranks = [label.split()[0] for label in labels]
    for place, (label, rank) in enumerate(zip(labels, ranks, strict=True)):
        copies = ranks[: place + 1].count(rank)
        assert label == (rank if copies == 1 else f"{rank} ({'2nd' if copies == 2 else '3rd'})")
    assert pick.sizes == tuple(range(1, len(hand) + 1))
    assert pick_prompt(twentytwo, pick, NAMES) == (
        f"Exchange which cards for new ones from the stock? (1 to {len(hand)}; only ranks matter)"
    )
    # either copy of a rank makes the same exchange: suits never matter
    twins = [i for i in range(len(pick.keys)) if pick.keys.count(pick.keys[i]) > 1]
    assert twins, "the seed deals a pair"
    same = [i for i in twins if pick.keys[i] == pick.keys[twins[0]]]
    assert pick.action(same[:1]) == pick.action(same[1:2])


def test_a_fishing_card_that_may_capture_says_so() -> None:
    fishing = get_game("fishing")
    for state in positions(fishing, 2, 2):
        legal = state.legal_actions(state.to_act()[0])
        step = first_step(legal)
        several = [c for c in step.choices if c.only is None]
        if several:
            choice = several[0]
            card = choice_label(fishing, step, choice, NAMES)
            assert card == f"Capture with {Card.parse(choice.step).pretty} …"
            return
    raise AssertionError("no card with a choice of captures")


def test_a_swazi_hand_card_says_what_it_may_do() -> None:
    swazi = get_game("swazi")
    for state in positions(swazi, 2, 2):
        legal = state.legal_actions(state.to_act()[0])
        step = first_step(legal)
        for choice in step.choices:
            if choice.only is None and choice.step[:1].isdigit():
                label = choice_label(swazi, step, choice, NAMES)
                assert ": " in label and label.endswith(" …")
                assert any(word in label for word in ("capture", "build", "lay it down"))
                return
    raise AssertionError("no hand card with several moves")


def test_every_registered_game_is_either_picking_or_checked_to_have_none() -> None:
    assert set(games()) == {*PICKING, "fishing", "stuck"}
