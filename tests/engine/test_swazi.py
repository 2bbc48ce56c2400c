"""swazi (Swazi Casino): scripted stacked-deck and set-position tests, one or more per rule of
docs/rules/swazi.md and per case of the issue; parse/text round trips; the replay command; a
brute-force reference for the legal moves; the heuristic player against the random one."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.ai
from engine.cards import FULL_DECK, Card
from engine.cli import main
from engine.core import Event, RandomAgent, StateAgent
from engine.errors import ActionParseError, SavedStateError, SetupError
from engine.games.swazi import (
    GAME,
    Move,
    SwaziState,
    rules,
    score_piles,
    sets_by_total,
)
from engine.languages import catalog
from engine.runner import play_out
from engine.words import speaking
from tests.engine import helpers
from tests.engine.helpers import legal, sampled_steps


# -- helpers ---------------------------------------------------------------------------------------
def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def new(seed: int, deck: list[str] | None = None) -> SwaziState:
    """A two-player game (seat 0 deals when ``deck`` is given)."""
    return helpers.new(GAME, SwaziState, 2, seed, deck)


def stacked(
    layout: str, hand0: str = "", hand1: str = "", second0: str = "", second1: str = ""
) -> list[str]:
    """A deck (seat 0 deals): the 4 layout cards, then 12 each one at a time from seat 1,
    then the second half the same way. Hands given short are filled from the unnamed cards,
    highest ranks first."""
    named = [*layout.split(), *hand0.split(), *hand1.split(), *second0.split(), *second1.split()]
    assert len(layout.split()) == 4 and len(set(named)) == len(named)
    spare = [c.text for c in sorted(FULL_DECK, key=lambda c: (-c.rank, c.suit))]
    spare = [text for text in spare if text not in named]

    def fill(given: str) -> list[str]:
        words = given.split()
        while len(words) < 12:
            words.append(spare.pop(0))
        return words

    first = (fill(hand1), fill(hand0))
    second = (fill(second1), fill(second0))
    deck = layout.split()
    for pair in (first, second):
        for index in range(12):
            deck += [pair[0][index], pair[1][index]]
    assert len(deck) == 52
    return deck


def position(
    hands: tuple[str, str],
    layout: str = "",
    builds: tuple[tuple[int, int, bool, str], ...] = (),
    piles: tuple[str, str] = ("", ""),
    half: int = 1,
    turn: int = 1,
    stock: str | None = None,
    totals: tuple[int, int] = (0, 0),
    last_capturer: int | None = None,
    target: int = 21,
) -> SwaziState:
    """A state set up mid-deal (via the saved form); unnamed cards go to the stock unless
    ``stock`` is given."""
    named = " ".join([*hands, layout, *piles, *(b[3] for b in builds)]).split()
    assert len(set(named)) == len(named)
    leftover = [c.text for c in FULL_DECK if c.text not in named]
    data: dict[str, Any] = GAME.new_state(2, 0).to_json()
    data.update(
        options={"target": target},
        deck=[],
        deal_number=0,
        dealer=1 - turn if half == 1 else 0,
        turn=turn,
        half=half,
        hands=[hand.split() for hand in hands],
        piles=[pile.split() for pile in piles],
        layout=layout.split(),
        builds=[
            {"value": v, "owner": o, "augmented": a, "cards": c.split()} for v, o, a, c in builds
        ],
        stock=stock.split() if stock is not None else leftover,
        last_capturer=last_capturer,
        totals=list(totals),
        history=[],
        over=False,
    )
    state = GAME.state_from_json(data)
    assert isinstance(state, SwaziState)
    return state


def play(state: SwaziState, seat: int, text: str) -> list[Any]:
    assert text in legal(state, seat), (text, legal(state, seat))
    return state.apply_text(seat, text)


def refused(state: SwaziState, seat: int, text: str) -> str:
    """Apply ``text``, which is not listed, expecting a refusal that changes nothing; returns
    the reason."""
    assert text not in legal(state, seat)
    return helpers.refused(state, seat, text)


def build_of(state: SwaziState, value: int) -> dict[str, Any]:
    return next(b for b in state.public_view()["builds"] if b["value"] == value)


# -- setup and the deal ----------------------------------------------------------------------------
def test_exactly_two_players_and_the_target_option() -> None:
    with pytest.raises(SetupError, match="exactly 2"):
        GAME.new_state(3, 1)
    with pytest.raises(SetupError):
        GAME.new_state(2, 1, {"target": 0})
    with pytest.raises(SetupError):
        GAME.new_state(2, 1, {"pairs": 1})
    assert GAME.new_state(2, 1, {"target": "30"}).options["target"] == 30
    assert GAME.new_state(2, 1).options["target"] == 21


def test_deal_layout_first_then_twelve_each_from_the_dealers_left() -> None:
    deck = [card.text for card in FULL_DECK]
    state = new(5, deck=deck)
    view = state.public_view()
    assert view["dealer"] == 0 and state.to_act() == (1,)  # the non-dealer plays first
    assert view["layout"] == deck[:4] and view["half"] == "first"
    assert state.view(1)["hand"] == sorted(deck[4:28:2], key=Card.parse)
    assert state.view(0)["hand"] == sorted(deck[5:28:2], key=Card.parse)
    assert view["stock"] == 24 and view["hand_sizes"] == [12, 12]
    assert "hand" not in view and state.view(0)["seat"] == 0


@pytest.mark.slow
def test_second_half_then_next_deal_with_the_other_dealer() -> None:
    deck = [card.text for card in FULL_DECK]
    state = new(5, deck=deck)
    events: list[Any] = []
    for _ in range(24):  # everyone discards the whole first half (nobody owns a build)
        seat = state.to_act()[0]
        events = state.apply_text(seat, f"discard {state.hands[seat][0].text}")
    assert [e.kind for e in events][-1] == "half"
    assert state.public_view()["half"] == "second" and state.to_act() == (1,)
    assert state.view(1)["hand"] == sorted(deck[28::2], key=Card.parse)
    assert state.view(0)["hand"] == sorted(deck[29::2], key=Card.parse)
    for _ in range(24):
        seat = state.to_act()[0]
        events = state.apply_text(seat, f"discard {state.hands[seat][0].text}")
    kinds = [e.kind for e in events]
    assert kinds == ["discard", "piles", "hand_end", "deal"]
    # nobody captured: nobody sweeps; 0–0 cards and spades are ties, 1 point each
    assert state.scores() == (2, 2) and state.history == [[2, 2]]
    assert state.dealer == 1 and state.to_act() == (0,) and state.deal_number == 1


def test_first_dealer_from_the_seed_without_a_deck() -> None:
    dealers = {new(seed).dealer for seed in range(12)}
    assert dealers == {0, 1}
    for seed in range(6):
        state = new(seed)
        assert state.to_act() == (1 - state.dealer,)
        assert state.to_json() == new(seed).to_json()


# -- captures --------------------------------------------------------------------------------------
def test_ace_declared_14_captures_a_sum_and_a_king_in_one_play() -> None:
    state = new(1, deck=stacked("AD 5D 9C KS", hand1="AH KH 2C"))
    moves = legal(state, 1)
    assert "capture AH=1 take AD" in moves  # aces alone: both values allow it, =1 is written
    assert "capture AH=14 take AD" not in moves
    assert "capture AH=14 take 5D 9C" in moves  # a sum
    assert "capture AH=14 take AD 5D 9C" in moves  # a sum and an ace by its value
    assert "capture AH=14 take AD KS" in moves  # a king with an ace (1) make 14
    assert "capture AH=14 take KS" not in moves  # a king alone is 13, not 14
    assert "capture KH take KS" in moves  # a king by rank
    assert not [t for t in moves if t.startswith("capture AH=1 ") and "5D" in t]
    events = play(state, 1, "capture AH=14 take AD 5D 9C KS")
    assert state.piles[1] == cards("AD 5D 9C KS AH")  # loose in card order, capturer on top
    assert state.public_view()["piles"][1] == {"size": 5, "top": "AH"}
    assert events[0].text == "{s1} captured A♦ 5♦ 9♣ K♠ with A♥ (worth 14)"
    assert state.last_capturer == 1 and state.to_act() == (0,)
    assert refused(
        new(1, deck=stacked("AD 5D 9C KS", hand1="AH KH 2C")),
        1,
        "capture AH=14 take AD",
    ).startswith("Taking aces alone")


def test_several_groups_at_once_with_a_build_and_the_pile_order() -> None:
    state = new(1, deck=stacked("5C 4S 5H 9H", hand0="9D 2C 3C 3D", hand1="4C 9S 6C 6D"))
    play(state, 1, "build 4C on 5C")
    assert build_of(state, 9) == {
        "value": 9,
        "owner": 1,
        "augmented": False,
        "cards": ["5C", "4C"],
    }
    moves = legal(state, 0)
    for text in (
        "capture 9D take b9",
        "capture 9D take 9H",
        "capture 9D take 4S 5H",  # capturing need not be complete
        "capture 9D take b9 4S 5H 9H",
        "discard 9D",  # nor is it compulsory
    ):
        assert text in moves
    play(state, 0, "capture 9D take b9 4S 5H 9H")
    # the build's cards as they went in, then the loose cards in card order, then the capturer
    assert state.piles[0] == cards("5C 4C 4S 5H 9H 9D")
    assert state.public_view()["builds"] == [] and state.loose == []


def test_parse_accepts_any_order_and_case() -> None:
    move = GAME.parse_action("capture 9d take 5H 4s B9")
    assert move == Move("capture", Card.parse("9D"), 0, 9, tuple(cards("4S 5H")))
    assert move.text == "capture 9D take b9 4S 5H"
    assert GAME.parse_action("build 3H on 5C 2D").text == "build 3H on 2D 5C"
    assert GAME.parse_action("build 5C 2D").text == "build 2D 5C"
    assert GAME.parse_action("augment b10 with 4D top").text == "augment b10 with top 4D"
    assert GAME.parse_action("augment b9 with 3C AH=1 5D").text == "augment b9 with AH=1 3C 5D"
    assert GAME.parse_action("change b10 with AH=1").text == "change b10 with AH=1"
    assert GAME.parse_action("discard AH").text == "discard AH"
    for bad in (
        "",
        "capture AH take AD",  # a hand ace used for its value says it
        "discard AH=1",
        "capture 9D take 9D",
        "capture 9D take 4S 4S",
        "build 9D on",
        "build 5C",
        "change b15 with 2C",
        "change b9 with 2C=1",
        "augment b9 with AH=1 AC=1",
        "capture 9D take b9 b5",
        "fold",
        "capture 9D take top",
    ):
        with pytest.raises(ActionParseError):
            GAME.parse_action(bad)


# -- builds ----------------------------------------------------------------------------------------
def test_single_build_needs_a_card_of_its_value_left_in_hand() -> None:
    state = position(("KD", "3H 10S JC"), layout="7C 2D")
    moves = legal(state)
    assert "build 3H on 7C" in moves
    assert "build 3H on 2D" not in moves  # a 5 is not held
    assert "build 2D 7C" not in moves  # a 9 is not held either
    play(state, 1, "build 3H on 7C")
    assert build_of(state, 10) == {
        "value": 10,
        "owner": 1,
        "augmented": False,
        "cards": ["7C", "3H"],
    }
    assert state.to_act() == (0,)
    lonely = position(("KD", "3H JC"), layout="7C 2D")
    assert "must keep a card of value 10" in refused(lonely, 1, "build 3H on 7C")


def test_build_values_run_from_2_to_14_and_an_ace_serves_for_14() -> None:
    state = position(("KD", "9C AH 2S"), layout="6D KS")
    assert "A build may be worth at most 14" in refused(state, 1, "build 9C on 6D")
    # K + A = 14, kept by the other ace? Only one ace is held: no
    assert "build AH=1 on KS" not in legal(state)
    two = position(("KD", "AC AH 2S"), layout="6D KS")
    assert "build AH=1 on KS" in legal(two)  # AC keeps the 14
    assert "build 2S on 6D" not in legal(two)
    held = position(("KD", "AH 5C"), layout="KS AD")
    assert "build AD KS" in legal(held)  # card-less, kept by AH


def test_change_an_opponents_single_build_and_no_capture_that_turn() -> None:
    state = new(1, deck=stacked("7C 4D 6S 8H", hand0="2C QD", hand1="3H 10S"))
    play(state, 1, "build 3H on 7C")
    moves = legal(state, 0)
    assert "change b10 with 2C" in moves
    events = play(state, 0, "change b10 with 2C")
    assert events[0].text == "{s0} changed {s1}'s build of 10 into 12 with 2♣"
    assert build_of(state, 12) == {
        "value": 12,
        "owner": 0,
        "augmented": False,
        "cards": ["7C", "3H", "2C"],
    }
    # the change was the hand card: the turn has passed, the changer cannot also capture it
    assert state.to_act() == (1,) and legal(state, 0) == []


def test_changing_needs_the_new_value_in_hand_and_an_opponents_build() -> None:
    state = position(("2C KD", "4H 10S"), builds=((10, 1, False, "7C 3H"),), turn=0)
    assert "must keep a card of value 12" in refused(state, 0, "change b10 with 2C")
    mine = position(("2C QD", "4H 9S"), builds=((10, 0, False, "7C 3H"),), turn=0)
    assert "only your opponent's build" in refused(mine, 0, "change b10 with 2C")


def test_an_augmented_build_can_no_longer_change_value() -> None:
    state = new(1, deck=stacked("7C 4D 6S 8H", hand0="2C QD KD", hand1="3H 10S 10C"))
    play(state, 1, "build 3H on 7C")
    play(state, 0, "discard KD")
    play(state, 1, "augment b10 with 4D 6S")  # card-less: the same seat goes on
    assert state.to_act() == (1,) and build_of(state, 10)["augmented"] is True
    play(state, 1, "augment b10 with 10C")  # the hand card ends the turn
    assert build_of(state, 10) == {
        "value": 10,
        "owner": 1,
        "augmented": True,
        "cards": ["7C", "3H", "4D", "6S", "10C"],
    }
    assert "augmented build cannot change" in refused(state, 0, "change b10 with 2C")


def test_a_second_build_of_a_value_is_refused_and_your_own_merges() -> None:
    state = position(("4D 9C KD", "9D 9S 2H"), layout="4S 5H 5D", builds=((9, 1, False, "4C 5C"),))
    moves = legal(state, 1)
    assert "build 4S 5H" not in moves  # own value: written as an augment
    assert "augment b9 with 4S 5H" in moves
    assert "write it as an augment of b9" in refused(state, 1, "build 4S 5H")
    play(state, 1, "augment b9 with 4S 5H")
    assert build_of(state, 9)["augmented"] and build_of(state, 9)["cards"] == [
        "4C",
        "5C",
        "4S",
        "5H",
    ]
    assert "discard 2H" not in legal(state, 1)  # first half, owning a build
    play(state, 1, "augment b9 with 9D")
    # the opponent may not build a second 9
    assert "build 4D on 5D" not in legal(state, 0)
    assert "There is already a build of 9" in refused(state, 0, "build 4D on 5D")


# -- a change into a value you already own merges -----------------------------------------------
MERGE_DECK = stacked("7C 5D 7S 8H", hand0="2C QD", hand1="3H 10S QH 2D AH")


def merge_position() -> SwaziState:
    """Seat 1 has built 10 (7♣ 3♥); seat 0 has built 12 from 5♦ 7♠ and holds 2♣ and Q♦."""
    state = new(5, deck=MERGE_DECK)
    play(state, 1, "build 3H on 7C")
    play(state, 0, "build 5D 7S")
    return state


def test_a_change_into_a_value_you_own_is_legal_and_merges_in_order() -> None:
    state = merge_position()
    assert "change b10 with 2C" in legal(state, 0)  # first half: still one build after it
    events = play(state, 0, "change b10 with 2C")
    assert events[0].text == (
        "{s0} changed {s1}'s build of 10 into 12 with 2♣, which joins their own build of 12"
    )
    # the own build's cards, then the changed build's in their order, then the hand card
    assert state.public_view()["builds"] == [
        {"value": 12, "owner": 0, "augmented": True, "cards": ["5D", "7S", "7C", "3H", "2C"]}
    ]
    assert state.to_act() == (1,)


def test_a_merged_build_cannot_change_and_its_capture_takes_its_cards_in_order() -> None:
    state = merge_position()
    play(state, 0, "change b10 with 2C")
    # 2♦ would make 14, which seat 1 holds an ace for, had the build stayed single
    assert "augmented build cannot change" in refused(state, 1, "change b12 with 2D")
    play(state, 1, "capture QH take b12")
    assert state.piles[1] == cards("5D 7S 7C 3H 2C QH")


def test_the_hold_rule_after_a_merge() -> None:
    # the owner keeps a card of the merged value: an ace played as 1 into 14 needs another ace
    one_ace = position(("KD", "AC KH"), builds=((14, 1, False, "9C 5C"), (13, 0, False, "6D 7D")))
    assert "keep a card of value 14" in refused(one_ace, 1, "change b13 with AC=1")
    two_aces = position(
        ("KD", "AC AD KH"), builds=((14, 1, False, "9C 5C"), (13, 0, False, "6D 7D"))
    )
    play(two_aces, 1, "change b13 with AC=1")
    assert build_of(two_aces, 14)["cards"] == ["9C", "5C", "6D", "7D", "AC"]
    assert "discard AD" not in legal(two_aces, 1)  # the last ace now keeps the merged 14
    # nor may the hand card be the last one keeping another own build
    builds = ((5, 1, False, "2C 3C"), (12, 1, False, "5H 7H"), (7, 0, False, "4D 3D"))
    scarce = position(("KD", "5S QH 9S"), builds=builds, half=2, stock="")
    assert "keep a card of value 5" in refused(scarce, 1, "change b7 with 5S")
    spare = position(("KD", "5S 5D QH"), builds=builds, half=2, stock="")
    assert {"change b7 with 5D", "change b7 with 5S"} <= set(legal(spare, 1))


def test_a_merge_in_the_first_half_only_while_owning_that_one_build() -> None:
    builds = ((12, 1, False, "5H 7H"), (9, 0, False, "4D 5D"))
    state = position(("KD", "3S QH 6H KH"), layout="2D 4S", builds=builds)
    assert "change b9 with 3S" in legal(state, 1)
    play(state, 1, "build 2D 4S")  # a second build: now the hand card must capture one
    assert "change b9 with 3S" not in legal(state, 1)
    assert "two builds" in refused(state, 1, "change b9 with 3S")
    # a change into a value of neither builds a second one, refused in the first half
    other = position(
        ("KD", "3S QH 6H JH"), builds=((12, 1, False, "5H 7H"), (8, 0, False, "4D 4C"))
    )
    assert "two builds" in refused(other, 1, "change b8 with 3S")


def replayed(tmp_path: Path, capsys: Any, seed: int, deck: list[str], actions: list[Any]) -> Any:
    """What ``python -m engine replay`` prints for a swazi record (which must replay)."""
    record = {"game": "swazi", "players": 2, "seed": seed, "deck": deck, "actions": actions}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    return json.loads(capsys.readouterr().out)


def test_replay_agrees_on_a_merge(tmp_path: Path, capsys: Any) -> None:
    state = merge_position()
    actions: list[Any] = [[1, "build 3H on 7C"], [0, "build 5D 7S"]]
    out = replayed(tmp_path, capsys, 5, MERGE_DECK, actions)
    assert out["legal"] == {"0": legal(state, 0)} and "change b10 with 2C" in out["legal"]["0"]
    actions += [[0, "change b10 with 2C"], [1, "capture QH take b12"]]
    out = replayed(tmp_path, capsys, 5, MERGE_DECK, actions)
    play(state, 0, "change b10 with 2C")
    play(state, 1, "capture QH take b12")
    assert out["to_act"] == [0] and out["legal"] == {"0": legal(state, 0)}


def test_cardless_moves_then_exactly_one_hand_card() -> None:
    state = position(("KD", "7D 7S QH"), layout="2D 5C 3S 4H")
    play(state, 1, "build 2D 5C")
    assert state.to_act() == (1,)  # a card-less move does not end the turn
    assert all(not t.startswith("discard") for t in legal(state, 1))  # owns a build: first half
    play(state, 1, "augment b7 with 3S 4H")
    assert state.to_act() == (1,) and state.loose == []
    play(state, 1, "capture 7D take b7")
    assert state.to_act() == (0,) and state.piles[1] == cards("2D 5C 3S 4H 7D")


def test_the_cards_of_a_rank_are_listed_together_card_by_card() -> None:
    """§2: the hand cards of a rank play alike, so the listing goes rank by rank, lowest
    first, and within a rank through each kind of move card by card (two aces, two fives)."""
    state = position(("KD", "AC AD 5C 5D 9H"), layout="4S 3H", half=2, stock="")
    assert legal(state, 1) == [
        "build AC=1 on 4S",
        "build AD=1 on 4S",
        "discard AC",
        "discard AD",
        "build 5C on 4S",
        "build 5D on 4S",
        "discard 5C",
        "discard 5D",
        "discard 9H",
    ]


# -- the opponent's pile top -----------------------------------------------------------------------
def test_the_opponents_pile_top_twice_in_a_row_and_never_captured() -> None:
    state = position(
        ("KD", "9C 9D 2H"),
        layout="3H 6H KS",
        builds=((9, 1, False, "4C 5C"),),
        piles=("3D 6S", "9S"),  # seat 1's own top 9S is never usable by seat 1
    )
    moves = legal(state, 1)
    assert "augment b9 with top 3H" in moves
    assert "augment b9 with top" not in moves  # 6S alone is no 9 (and 9S is seat 1's own)
    assert not [t for t in moves if t.startswith("capture") and "6S" in t]
    assert "not loose on the layout" in refused(state, 1, "capture 9C take 3H 6S")
    events = play(state, 1, "augment b9 with top 3H")
    assert "the top of {s0}'s pile" in events[0].text
    assert state.public_view()["piles"][0] == {"size": 1, "top": "3D"}
    assert state.to_act() == (1,)
    play(state, 1, "augment b9 with top 6H")  # the next card, 3D, is the top now
    assert build_of(state, 9)["cards"] == ["4C", "5C", "6S", "3H", "3D", "6H"]
    assert state.public_view()["piles"][0] == {"size": 0, "top": None}
    assert not [t for t in legal(state, 1) if "top" in t]
    assert "no top card" in refused(state, 1, "augment b9 with top 9D")
    play(state, 1, "capture 9C take b9")
    assert state.piles[1] == cards("9S 4C 5C 6S 3H 3D 6H 9C")


# -- ownership and the first-half limits -----------------------------------------------------------
def test_discard_refused_in_the_first_half_while_owning_a_build() -> None:
    first = position(("KD", "9C 9D KH"), builds=((9, 1, False, "4C 5C"),), half=1)
    assert not [t for t in legal(first, 1) if t.startswith("discard")]
    assert "may not discard while you own a build" in refused(first, 1, "discard KH")
    second = position(("KD", "9C 9D KH"), builds=((9, 1, False, "4C 5C"),), half=2, stock="")
    assert {"discard KH", "discard 9C", "discard 9D"} <= set(legal(second, 1))
    play(second, 1, "discard KH")
    assert second.loose == cards("KH")


def test_the_owner_keeps_a_card_of_the_builds_value() -> None:
    state = position(("KD", "9C KH 3S"), builds=((9, 1, False, "4C 5C"),), half=2, stock="")
    moves = legal(state, 1)
    assert "discard 9C" not in moves and "capture 9C take b9" in moves
    assert "keep a card of value 9" in refused(state, 1, "discard 9C")
    # an ace keeps a 14
    ace = position(("KD", "AC KH"), builds=((14, 1, False, "9C 5C"),), half=2, stock="")
    assert "discard AC" not in legal(ace, 1) and "capture AC=14 take b14" in legal(ace, 1)


def test_two_builds_refused_at_the_end_of_a_first_half_turn() -> None:
    state = position(
        ("KD", "9C 7D 7S KH QH"),
        layout="3S 4H 2D 5S 6C 6D",
        builds=((9, 1, False, "4C 5C"),),
    )
    assert "build 3S 4H" in legal(state, 1)  # a second build, since 7D can then capture it
    play(state, 1, "build 3S 4H")
    moves = legal(state, 1)
    assert "build 6C 6D" not in moves  # never a third
    assert "augment b7 with 2D 5S" in moves  # the same value merges
    assert "capture 7D take b7" in moves and "capture 9C take b9" in moves
    for text in moves:  # the hand card must capture one of the two builds
        move = GAME.parse_action(text)
        assert isinstance(move, Move)
        assert (move.kind == "capture" and move.build) or (
            move.kind == "augment" and not set(move.cards) & set(state.hands[1])
        ), text
    assert "two builds" in refused(state, 1, "augment b7 with 7S")
    play(state, 1, "capture 7D take b7")
    assert state.to_act() == (0,) and [b["value"] for b in state.public_view()["builds"]] == [9]


def test_limits_lift_in_the_second_half() -> None:
    state = position(
        ("KD", "9C 7D 9S 7S"),
        layout="3S 4H 2D 5S",
        builds=((9, 1, False, "4C 5C"),),
        half=2,
        stock="",
    )
    play(state, 1, "build 3S 4H")
    play(state, 1, "discard 9S")  # ends the turn owning two builds
    assert [b["value"] for b in state.public_view()["builds"]] == [7, 9]


# -- the end of a deal -----------------------------------------------------------------------------
def test_the_last_capturer_sweeps_the_layout() -> None:
    state = position(("9C", ""), layout="4S 5H 2D", half=2, stock="", turn=0, piles=("", "KS KH"))
    events = play(state, 0, "capture 9C take 4S 5H")
    kinds = [e.kind for e in events]
    assert kinds == ["capture", "capture", "piles", "hand_end", "deal"]
    assert events[1].text == "{s0} took the rest of the layout: 2♦"
    assert events[2].text == (
        "Deal 1 piles: {s0} 4 cards, 1 spade; {s1} 2 cards, 1 spade"
        " (most spades: a tie, 1 point each)"
    )
    # 4 cards against 2 (2), spades 1–1 (1 each), 2♠ nobody
    assert state.history == [[3, 1]]


def test_the_final_sweep_takes_builds_too() -> None:
    # Under the owner-must-hold rule no build outlives the hands; the sweep still takes any.
    state = position(
        ("", ""),
        layout="2D",
        builds=((9, 1, False, "4C 5C"),),
        half=2,
        stock="",
        last_capturer=0,
        piles=("KS", "KH"),
    )
    events = state.end_deal()
    assert events[0].text == "{s0} took the rest of the layout: 4♣ 5♣ 2♦"
    assert state.history == [[4, 0]]  # 4 cards to 1 (2), spades 1–0 (2)


def test_scoring_26_26_split_is_1_each_and_11_points_in_all() -> None:
    clubs_diamonds = [c for c in FULL_DECK if c.suit in (0, 1)]
    hearts_spades = [c for c in FULL_DECK if c.suit in (2, 3)]
    points, reasons = score_piles([clubs_diamonds, hearts_spades])
    # cards 1 + 1; spades 2 (seat 1); 2♠ 1 (seat 1); 10♦ 2 (seat 0); aces 2 + 2
    assert points == [5, 6] and sum(points) == 11
    assert [reason.text for reason in reasons[0]] == ["most cards tied 1", "10♦ 2", "aces 2"]
    assert [reason.text for reason in reasons[1]] == [
        "most cards tied 1",
        "most spades 2",
        "2♠ 1",
        "aces 2",
    ]
    tied_spades, _ = score_piles([cards("2S 3S KD"), cards("4S 5S")])
    assert tied_spades == [2 + 1 + 1, 1]


@pytest.mark.parametrize(
    ("totals", "over", "winners", "scores"),
    [
        ((18, 16), True, (0,), (23, 22)),  # both reach 21: the higher total wins
        ((10, 16), True, (1,), (15, 22)),
        ((18, 17), False, (), (23, 23)),  # an exact tie at the target: another deal
        ((1, 1), False, (), (6, 7)),
    ],
)
def test_game_end_and_ties_at_the_target(
    totals: tuple[int, int], over: bool, winners: tuple[int, ...], scores: tuple[int, int]
) -> None:
    clubs_diamonds = " ".join(c.text for c in FULL_DECK if c.suit in (0, 1))
    hearts_spades = " ".join(c.text for c in FULL_DECK if c.suit in (2, 3))
    state = position(
        ("", ""),
        piles=(clubs_diamonds, hearts_spades),
        half=2,
        stock="",
        totals=totals,
        last_capturer=0,
    )
    events = state.end_deal()
    assert state.is_over is over and state.winners() == winners and state.scores() == scores
    assert (events[-1].kind == "game_end") is over
    if not over:
        assert state.deal_number == 1 and state.public_view()["hand_sizes"] == [12, 12]


# -- views, paths, errors, saving ------------------------------------------------------------------
def test_views_show_builds_piles_and_only_your_own_hand() -> None:
    state = position(
        ("2C QD", "9C 9D"),
        layout="3H",
        builds=((9, 1, True, "4C 5C 9S"),),
        piles=("KS KH", "7C"),
    )
    public = state.public_view()
    assert public["builds"] == [
        {"value": 9, "owner": 1, "augmented": True, "cards": ["4C", "5C", "9S"]}
    ]
    assert public["piles"] == [{"size": 2, "top": "KH"}, {"size": 1, "top": "7C"}]
    assert public["half"] == "first" and public["turn"] == 1 and "hand" not in public
    assert state.view(0)["hand"] == ["2C", "QD"] and state.view(1)["hand"] == ["9C", "9D"]
    assert "KS" not in json.dumps(public)  # only the top of a pile is shown
    lines = GAME.describe(state.view(0))
    assert "Build of 9 ({s1}, augmented): 4♣ 5♣ 9♠" in lines
    assert "Pile of {s0}: 2 cards, top K♥" in lines
    assert "Your hand: 2♣ Q♦" in lines


def test_illegal_moves_change_nothing() -> None:
    state = position(("2C QD", "9C 9D"), layout="3H", builds=((9, 1, False, "4C 5C"),))
    assert "do not hold" in refused(state, 1, "discard QD")
    assert refused(state, 0, "discard 2C") == "It is not your turn."
    assert "no build of 7" in refused(state, 1, "augment b7 with 9C")
    assert "do not split into cards of value 9" in refused(state, 1, "capture 9C take b9 3H")
    assert "not loose on the layout" in refused(state, 1, "augment b9 with 2C 7C")


@pytest.mark.slow
def test_every_step_of_a_large_choice_has_at_most_25_options() -> None:
    """Every step within two choices of the first (where steps are widest: each choice narrows
    the moves left) and those of 60 seeded random walks down to a move (``sampled_steps``);
    walking all of this position's steps took minutes."""
    state = position(
        ("KD", "AH 9C 8D 7D 6D KC"),
        layout="AC 2C 2D 3C 3D 4C 4D 5C 5D 6C 7C 8C",
        half=2,
        stock="",
    )
    legal = state.legal_actions(1)
    assert len(legal) > 200  # far more moves than one step may show
    longest = max(len(action.path) for action in legal)
    steps = sampled_steps(legal, random.Random(25), whole_depth=2, descents=60)
    for step in steps:
        assert len(step.choices) <= 25
        assert len(step.prefix) <= longest
    assert {action.path[0] for action in legal} <= {"AH", "9C", "8D", "7D", "6D", "KC", "build"}


def test_json_round_trip_and_replay_command(tmp_path: Path, capsys: Any) -> None:
    deck = stacked("5C 4S 5H 9H", hand0="9D 2C", hand1="4C 9S")
    state = new(9, deck=deck)
    play(state, 1, "build 4C on 5C")
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json()
    record: dict[str, Any] = {
        "game": "swazi",
        "players": 2,
        "seed": 9,
        "deck": deck,
        "actions": [[1, "build 4c on 5C"], [0, "capture 9D take 5H 4S b9"]],
    }
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    play(state, 0, "capture 9D take b9 4S 5H")
    assert out == {
        "over": False,
        "scores": [0, 0],
        "winners": [],
        "to_act": [1],
        "legal": {"1": legal(state, 1)},
    }
    assert "discard 9S" in out["legal"]["1"]
    record["actions"] = [[1, "capture 9S take b9"]]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    assert "no build of 9" in capsys.readouterr().out
    record.update(players=3, actions=[])
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2
    record.update(players=2, deck=deck[:51])
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2


def test_a_saved_state_that_does_not_fit_is_refused() -> None:
    data = GAME.new_state(2, 3).to_json()
    with pytest.raises(SavedStateError):
        GAME.state_from_json({**data, "players": 3})
    with pytest.raises(SavedStateError):
        GAME.state_from_json({**data, "layout": ["ZZ"]})
    with pytest.raises(SavedStateError):
        GAME.state_from_json({**data, "schema": 99})


# -- a brute-force reference for the legal moves ---------------------------------------------------
def reference_moves(state: SwaziState, seat: int) -> set[str]:
    """Every legal move text, found the slow way: try every combination the move kinds allow
    and keep those whose result obeys docs/rules/swazi.md (written independently of the engine)."""
    hand, loose, builds = state.hands[seat], state.loose, state.builds
    pile = state.piles[1 - seat]
    top = pile[-1] if pile else None
    first = state.half == 1
    found: set[str] = set()

    def serve(card: Card, value: int) -> bool:
        return card.rank == value or (card.rank == 1 and value == 14)

    def owner_ok(after_hand: list[Card], owned: list[int], ended: bool) -> bool:
        if any(not any(serve(c, v) for c in after_hand) for v in owned):
            return False
        return not (first and len(owned) > (1 if ended else 2))

    def subsets(pool: list[Card], least: int = 0) -> Iterator[tuple[Card, ...]]:
        for size in range(least, len(pool) + 1):
            yield from combinations(pool, size)

    def is_part(part: list[Card], value: int) -> bool:
        if len(part) == 1:
            return serve(part[0], value)
        return sum(c.rank for c in part) == value

    owned = [v for v, b in builds.items() if b.owner == seat]
    loose_subsets = [s for s in subsets(loose) if sum(c.rank for c in s) <= 14]
    # card-less builds and augments
    for subset in loose_subsets:
        if len(subset) >= 2:
            value = sum(c.rank for c in subset)
            if value not in builds and owner_ok(hand, [*owned, value], ended=False):
                found.add(Move("build", cards=tuple(subset)).text)
    for value in owned:
        for subset in loose_subsets:
            for use_top in (False, True) if top else (False,):
                part = [*subset, top] if use_top and top else list(subset)
                if part and is_part(part, value):
                    found.add(Move("augment", build=value, cards=tuple(subset), top=use_top).text)
    for card in hand:
        rest = [c for c in hand if c != card]
        for ace in (1, 14) if card.rank == 1 else (0,):
            value = ace or card.rank
            # captures: each subset of loose cards that splits into groups, with or without
            for subset in subsets(loose):
                if not partition(list(subset), value):
                    continue
                for take_build in (False, True):
                    if take_build and value not in builds:
                        continue
                    if not subset and not take_build:
                        continue
                    if ace == 14 and not take_build and all(c.rank == 1 for c in subset):
                        continue  # written =1
                    left = [v for v in owned if not (take_build and v == value)]
                    if owner_ok(rest, left, ended=True):
                        move = Move("capture", card, ace, value if take_build else 0, subset)
                        found.add(move.text)
        one = card.rank
        ace = 1 if card.rank == 1 else 0
        for subset in loose_subsets:
            value = one + sum(c.rank for c in subset)
            if (
                subset
                and value <= 14
                and value not in builds
                and owner_ok(rest, [*owned, value], ended=True)
            ):
                found.add(Move("build on", card, ace, cards=tuple(subset)).text)
        for old, build in builds.items():
            value = old + one
            if (
                build.owner != seat
                and not build.augmented
                and value <= 14
                and (value not in builds or value in owned)  # into your own value: merges
                and owner_ok(rest, sorted({*owned, value}), ended=True)
            ):
                found.add(Move("change", card, ace, old).text)
        if not (first and owned) and owner_ok(rest, owned, ended=True):
            found.add(Move("discard", card).text)
        for value in owned:
            if not owner_ok(rest, owned, ended=True):
                continue
            for subset in [(), *loose_subsets]:
                for use_top in (False, True) if top else (False,):
                    part = [*subset, card, *([top] if use_top and top else [])]
                    single = len(part) == 1
                    if card.rank == 1:
                        marked = 14 if single else 1
                        if is_part(part, value) and (not single or value == 14):
                            found.add(
                                Move("augment", card, marked, value, tuple(subset), use_top).text
                            )
                    elif is_part(part, value):
                        cards_ = tuple(sorted((*subset, card)))
                        found.add(Move("augment", None, 0, value, cards_, use_top).text)
    return found


def partition(cards_: list[Card], value: int) -> bool:
    """Whether ``cards_`` split into single cards of ``value`` and sets of two or more adding
    up to it (brute force)."""
    if not cards_:
        return True
    head, rest = cards_[0], cards_[1:]
    if (head.rank == value or (head.rank == 1 and value in (1, 14))) and partition(rest, value):
        return True
    for size in range(1, len(rest) + 1):
        for others in combinations(rest, size):
            if head.rank + sum(c.rank for c in others) == value:
                remaining = [c for c in rest if c not in others]
                if partition(remaining, value):
                    return True
    return False


def near_misses(state: SwaziState, seat: int) -> set[str]:
    """Moves like the legal ones, with a card swapped, added or dropped (mostly illegal)."""
    found: set[str] = set()
    others = [*state.loose, *state.hands[seat], *state.piles[1 - seat][-1:]]
    for action in state.legal_actions(seat)[:60]:
        assert isinstance(action, Move)
        for card in others[:8]:
            if card not in action.cards and card != action.card:
                found.add(replace(action, cards=tuple(sorted((*action.cards, card)))).text)
                if action.card is not None and card.rank != 1:
                    found.add(replace(action, card=card).text)
        if len(action.cards) > 1:
            found.add(replace(action, cards=action.cards[1:]).text)
        found.add(replace(action, top=not action.top).text)
    return found


def replace(move: Move, **changes: Any) -> Move:
    """``move`` with some of its fields changed."""
    fields = dict(zip(("kind", "card", "ace", "build", "cards", "top"), move.fields(), strict=True))
    return Move(**{**fields, **changes})


@pytest.mark.parametrize(("seed", "kind"), [(seed, "random") for seed in range(5)] + [(7, "ai")])
def test_legal_moves_match_a_brute_force_reference(seed: int, kind: str) -> None:
    """The listed moves are exactly the reference's, and the rule's answer for any move
    (``is_legal``, which also explains a refusal) agrees with both, on legal and near-miss
    moves."""
    state = new(seed)
    rng = random.Random(seed)
    agent = engine.ai.agent(GAME, kind)
    assert not isinstance(agent, StateAgent)  # the random agent, or the heuristic
    checked = 0
    while not state.is_over and checked < 200:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(state.loose) <= 8:
            expected = reference_moves(state, seat)
            assert {a.text for a in legal} == expected
            for text in near_misses(state, seat) | expected:
                try:
                    move = GAME.parse_action(text)
                except ActionParseError:
                    continue
                assert isinstance(move, Move)
                assert state.is_legal(seat, move) == (text in expected), text
            checked += 1
        choice = agent.choose(state.agent_view(seat), legal, rng, False)
        assert choice is not None
        state.apply(seat, choice)


def generated_position(rng: random.Random, half: int) -> SwaziState:
    """A position the rules can reach, drawn at random: seat 1 to play, up to 8 loose cards,
    up to one build a player in the first half (more in the second), each owner holding a card
    of its value, and perhaps a pile top to use."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hands = [sorted(deck[:8]), sorted(deck[8 : 8 + rng.randint(1, 8)])]
    del deck[:16]
    builds: list[tuple[int, int, bool, str]] = []
    for owner in (0, 1, 0, 1)[: rng.randint(0, 2 if half == 1 else 4)]:
        held = {14 if card.rank == 1 else card.rank for card in hands[owner]}
        free = sorted(held - {value for value, *_ in builds} - {1})
        if free:
            cards_ = " ".join(deck.pop().text for _ in range(2))
            builds.append((rng.choice(free), owner, rng.random() < 0.3, cards_))
    loose = " ".join(deck.pop().text for _ in range(rng.randint(0, 8)))
    pile = deck.pop().text if rng.random() < 0.6 else ""
    state = position(
        (" ".join(c.text for c in hands[0]), " ".join(c.text for c in hands[1])),
        layout=loose,
        builds=tuple(builds),
        piles=(pile, ""),
        half=half,
    )
    return state


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2]))
def test_the_rule_matches_the_brute_force_reference_on_generated_positions(
    rng: random.Random, half: int
) -> None:
    """On positions drawn at random (builds of both players, a pile top, either half), the
    listed moves are the reference's, and ``is_legal`` says so of each of them and of the
    near misses."""
    state = generated_position(rng, half)
    expected = reference_moves(state, 1)
    assert {a.text for a in state.legal_actions(1)} == expected
    for text in near_misses(state, 1) | expected:
        try:
            move = GAME.parse_action(text)
        except ActionParseError:
            continue
        assert state.is_legal(1, move) == (text in expected), text


def test_a_huge_layout_lists_many_moves_and_accepts_any_legal_one() -> None:
    low = "AC AD 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S"
    state = position(("KD", "7C 7D 9C JC"), layout=low, half=2, stock="")
    legal = state.legal_actions(1)
    assert 1000 < len(legal) < 40000
    # four sets of 9: 2C 3C 4C, 2D 2H 5C, 3D 6C, 3H 6D (the lists stop short of such ones)
    big = GAME.parse_action("capture 9C take 6D 2C 2D 2H 3C 3D 3H 4C 5C 6C")
    assert state.is_legal(1, big)
    assert not state.is_legal(1, GAME.parse_action("capture 9C take 2C 2D"))
    assert "do not split" in state.explain_illegal(1, GAME.parse_action("capture 9C take 2C 2D"))
    state.apply(1, big)
    assert state.piles[1] == cards("2C 2D 2H 3C 3D 3H 4C 5C 6C 6D 9C")


def test_the_listing_makes_the_move_asked_for_and_asks_the_rule_about_others() -> None:
    """The moves counted by shape are the moves iterated, by index, slice or from the end, in
    the rule's order (a hand card's captures before its builds and its discard); ``in`` finds
    a move handed out, and asks the rule about an equal move made elsewhere."""
    state = position(("KD QD", "9D 2S 4H"), layout="4S 5H 2C 7D", half=2)
    legal = state.legal_actions(1)
    every = list(legal)
    assert len(legal) == len(every) > 10
    assert [legal[index] for index in range(len(legal))] == every
    assert legal[-1] == every[-1] and legal[2:5] == every[2:5]
    with pytest.raises(IndexError):
        legal[len(legal)]
    texts = [move.text for move in every]
    assert (
        texts.index("capture 2S take 2C")
        < texts.index("build 2S on 7D")
        < texts.index("discard 2S")
    )
    handed = legal[texts.index("capture 9D take 2C 7D")]
    assert handed in legal and GAME.parse_action(handed.text) in legal
    assert GAME.parse_action("capture 9D take 2C 5H") not in legal
    state.apply(1, handed)
    assert [move.text for move in legal] == texts  # made from the position it was made for


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=13), max_size=9)
    | st.lists(st.integers(min_value=1, max_value=3), min_size=10, max_size=18)
)
def test_the_sets_of_loose_cards_by_total_are_every_set_up_to_the_listing_limit(
    ranks: list[int],
) -> None:
    """``sets_by_total`` finds every set of loose cards adding up to 14 at most, each once,
    under its total, and names the totals that have one; on a layout with more than
    ``limit`` such sets (18 low cards have thousands) it stops once it found ``limit`` of
    them, and each it found is right. Any ranks: nothing counts cards of a rank, so no
    number of them can be mistaken for another layout."""
    loose = [Card(rank, index % 4) for index, rank in enumerate(sorted(ranks))]
    every: dict[int, set[int]] = {}
    for size in range(1, len(loose) + 1):
        for chosen in combinations(range(len(loose)), size):
            total = sum(loose[index].rank for index in chosen)
            if total <= 14:
                every.setdefault(total, set()).add(sum(1 << index for index in chosen))
    whole = sum(map(len, every.values()))
    for limit in (rules.LISTED, 25):
        found, totals = sets_by_total(loose, limit)
        assert totals == [total for total, masks in enumerate(found) if masks]
        count = sum(map(len, found))
        for total, masks in enumerate(found):
            assert len(set(masks)) == len(masks)
            assert set(masks) <= every.get(total, set())
        if whole <= limit:
            assert count == whole
        else:  # stopped at the limit, after the sets of the card at hand (at most 14 more)
            assert limit <= count <= limit + 14


def test_the_sets_of_a_small_layout_in_the_order_the_listing_keeps() -> None:
    """Single cards first; then, depth first, the sets that start with the highest card,
    down to those that start with the lowest."""
    loose = cards("AC 2C 3C 4C")
    found = [
        [" ".join(card.text for i, card in enumerate(loose) if mask >> i & 1) for mask in masks]
        for masks in sets_by_total(loose, 99)[0]
    ]
    assert found[4] == ["4C", "AC 3C"]
    assert found[5] == ["2C 3C", "AC 4C"]
    assert found[7] == ["3C 4C", "AC 2C 4C"]
    assert sum(map(len, found)) == 15


def test_a_saved_build_worth_more_than_a_build_may_be_is_refused() -> None:
    """The rules read a build's owner by its value, 2 to 14 (§6.2): a save holding another
    value is refused as it is read, not as a move is listed."""
    data = GAME.new_state(2, 3).to_json()
    build = {"value": 15, "owner": 0, "augmented": False, "cards": data["layout"][:2]}
    layout = data["layout"][2:]
    with pytest.raises(SavedStateError, match="worth 2 to 14"):
        GAME.state_from_json({**data, "layout": layout, "builds": [build]})
    assert GAME.state_from_json({**data, "layout": layout, "builds": [{**build, "value": 14}]})


def test_a_saved_game_naming_a_card_twice_is_refused() -> None:
    data = GAME.new_state(2, 3).to_json()
    with pytest.raises(SavedStateError, match="names a card twice"):
        GAME.state_from_json({**data, "layout": [*data["layout"], data["hands"][0][0]]})


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=120))
def test_texts_parse_back_and_paths_start_right(seed: int, steps: int) -> None:
    state = new(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        for action in legal:
            assert GAME.parse_action(action.text) == action
            assert isinstance(action, Move)
            if action.kind not in ("build", "augment"):
                assert action.card is not None and action.path[0] == action.card.text
        state.apply(seat, legal[rng.randrange(len(legal))])


# -- the heuristic player --------------------------------------------------------------------------
@pytest.mark.parametrize("ai_seat", [0, 1])
def test_the_heuristic_player_beats_the_random_one(ai_seat: int) -> None:
    wins = 0
    for seed in range(12):
        agents: list[Any] = [RandomAgent(), RandomAgent()]
        agents[ai_seat] = engine.ai.agent(GAME, "normal")
        state = new(seed)
        play_out(state, agents, seed)
        wins += state.winners() == (ai_seat,)
    assert wins >= 11


def test_a_part_goes_in_as_pile_card_then_loose_cards_then_hand_card() -> None:
    state = position(
        ("KD", "9C 9D 4H"), layout="2C 6H", builds=((9, 1, False, "4C 5C"),), piles=("3D", "")
    )
    assert "augment b9 with top 2C 4H" in legal(state, 1)
    state.apply_text(1, "augment b9 with 4H top 2C")  # any order is read
    assert build_of(state, 9)["cards"] == ["4C", "5C", "3D", "2C", "4H"]
    assert state.to_act() == (0,)  # the hand card 4H ended the turn


def test_a_hand_ace_in_a_part_counts_1_and_alone_14() -> None:
    state = position(("KD", "AH AC 3S 8S"), layout="2C 5D", builds=((8, 1, False, "3C 5C"),))
    moves = legal(state, 1)
    assert "augment b8 with AH=1 2C 5D" in moves
    assert "augment b8 with AH=14" not in moves
    assert "write AH=1" in refused(state, 1, "augment b8 with AH=14 2C 5D")
    fourteen = position(("KD", "AH AC"), builds=((14, 1, False, "9C 5C"),))
    assert "augment b14 with AH=14" in legal(fourteen, 1)
    assert "capture AH=14 take b14" in legal(fourteen, 1)


def test_an_ace_takes_its_14_build_with_loose_aces() -> None:
    state = position(("KD", "AH AS 3S"), layout="AD", builds=((14, 1, False, "9C 5C"),))
    moves = legal(state, 1)
    assert {"capture AH=14 take b14 AD", "capture AH=14 take b14", "capture AH=1 take AD"} <= set(
        moves
    )
    assert "capture AH=14 take AD" not in moves


def test_a_build_or_change_says_the_value_it_makes() -> None:
    names = ["Ann", "Bob"]
    texts = ("build 3H on 2D 4C", "change b10 with 2C", "change b9 with AC=1", "build 2D 5C")
    labels = [GAME.action_label(GAME.parse_action(text), names) for text in texts]
    assert labels == [
        "Build 9: 3♥ on 2♦ + 4♣",
        "Change your opponent's build of 10 into 12 with 2♣",
        "Change your opponent's build of 9 into 10 with A♣ (worth 1)",
        "Build 7 from 2♦ + 5♣",
    ]


# -- words -----------------------------------------------------------------------------------------
def test_a_step_by_step_capture_says_what_is_picked_so_far() -> None:
    names = ["Ann", "Bob"]
    assert GAME.step_prompt(("KS", "capture"), (), names) == (
        "Capture what with K♠? (one at a time)"
    )
    assert GAME.step_prompt(("KS", "capture", "5D"), (), names) == (
        "Capturing 5♦ with K♠: what else?"
    )
    assert GAME.step_prompt(("build", "3S", "4H"), (), names) == (
        "Building with 3♠ + 4♥: what else?"
    )


def test_a_change_says_the_value_it_makes() -> None:
    change = GAME.parse_action("change b7 with 7H")
    assert GAME.action_label(change, ["Ann", "Bob"]) == (
        "Change your opponent's build of 7 into 14 with 7♥"
    )


def test_a_deals_piles_and_scores_read_wholly_in_the_readers_language() -> None:
    # the piles' counts and the points' reasons are phrases translated with their line: none
    # is rendered in English inside a Spanish line
    state, rng, agent = GAME.new_state(2, 7), random.Random(1), RandomAgent()
    ended: list[Event] = []
    while not ended:
        seat = state.to_act()[0]
        move = agent.choose(None, state.legal_actions(seat), rng, False)
        assert move is not None
        events = state.apply(seat, move)
        ended = [event for event in events if event.kind in ("piles", "hand_end")]
    with speaking(catalog("es")):
        lines = [event.render(["ana", "bob"]) for event in ended]
    assert lines[0].startswith("Montones del reparto 1: ana ") and "picas" in lines[0]
    assert lines[1].startswith("Puntuación del reparto 1: ana ") and "ases" in lines[1]
    for english in ("card", "spade", "most", "ace", "point", "tied"):
        assert not any(english in line for line in lines), (english, lines)
