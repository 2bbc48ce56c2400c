"""Scripted stacked-deck tests of twentytwo, one (or more) per rule of docs/rules/twentytwo.md."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import agent
from engine.cards import FULL_DECK, Card
from engine.choices import first_step, pick_at, pick_prompt, step_prompt
from engine.cli import main, simulate
from engine.core import Action, Event, RandomAgent
from engine.errors import (
    ActionParseError,
    DeckError,
    IllegalActionError,
    SavedStateError,
    SetupError,
)
from engine.games.twentytwo import (
    GAME,
    KEEP,
    STRENGTH,
    Exchange,
    ExchangeOptions,
    Play,
    TwentyTwoState,
    draw_for_dealer,
    follows,
    is_beat,
    leads,
    penalty,
    rank_key,
    ranks_of,
    strength,
)
from engine.games.twentytwo.rules import in_rank_order, put_in_place
from engine.games.twentytwo.words import deal_event
from tests.engine.helpers import act, event_texts, legal, new


# -- helpers -----------------------------------------------------------------------------------
def deal_deck(
    players: int, dealer: int, hands: Mapping[int, str], stock: str = "", out: str = ""
) -> list[str]:
    """A deck dealing ``hands`` (seat → cards) one at a time from the dealer's left (seats not
    in ``hands`` are out and skipped), then ``stock`` on top of the rest of the cards in play
    (all cards but ``out``, the penalty cards so far)."""
    order = [(dealer + step) % players for step in range(1, players + 1)]
    order = [seat for seat in order if seat in hands]
    split = {seat: text.split() for seat, text in hands.items()}
    size = len(split[order[0]])
    assert all(len(cards) == size for cards in split.values())
    deck = [split[seat][index] for index in range(size) for seat in order]
    deck += stock.split()
    used = set(deck) | set(out.split())
    assert len(used) == len(deck) + len(out.split()), "a card is named twice"
    return deck + [card.text for card in FULL_DECK if card.text not in used]


def start(players: int, *decks: list[str]) -> TwentyTwoState:
    """A game dealing ``decks``, one a hand."""
    return new(GAME, TwentyTwoState, players, deck=list(decks))


def keep_all(state: TwentyTwoState) -> None:
    while state.phase == "exchange":
        act(state, state.to_act()[0], "keep")


def hand(state: TwentyTwoState, seat: int) -> str:
    return " ".join(card.text for card in state.hands[seat])


def widest_step(actions: Sequence[Action]) -> int:
    """The most options a UI offers at once when it asks for one of ``actions`` by paths."""
    options: dict[tuple[str, ...], set[str]] = {}
    for action in actions:
        path = action.path
        for depth in range(len(path)):
            options.setdefault(path[:depth], set()).add(path[depth])
    return max((len(labels) for labels in options.values()), default=0)


def cards(text: str) -> list[Card]:
    return sorted((Card.parse(word) for word in text.split()), key=rank_key)


# -- the first dealer and the deal -----------------------------------------------------------
def test_a_given_deck_makes_seat_0_deal_with_no_draw_one_card_at_a_time() -> None:
    deck = [card.text for card in sorted(FULL_DECK, key=rank_key, reverse=True)]
    state = start(3, deck)
    assert state.dealer == 0 and state.dealer_draw == []
    assert event_texts(state.opening_events()) == [
        "Hand 1: {s0} deals 7 cards each; 31 left in the stock"
    ]
    # One at a time clockwise from the dealer's left: s1 gets the 1st, 4th, 7th … cards of
    # AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC 10S 10H 10D 10C 9S …
    assert hand(state, 1) == "10D JC JS QH KD AC AS"
    assert hand(state, 2) == "10C 10S JH QD KC KS AH"
    assert hand(state, 0) == "9S 10H JD QC QS KH AD"
    assert [card.text for card in state.stock] == deck[21:]
    assert state.dealt == 7 and state.to_act() == (1,)


def test_the_high_card_draw_redraws_the_tied_highest_and_is_shown() -> None:
    # Seed 9, 4 players: s1 and s2 both draw a 6 (highest) and draw again; s2's 10 wins.
    state = GAME.new_state(4, 9)
    assert isinstance(state, TwentyTwoState)
    rounds = [[(seat, card.text) for seat, card in drawn] for drawn in state.dealer_draw]
    assert rounds == [[(0, "5C"), (1, "6C"), (2, "6S"), (3, "2S")], [(1, "4S"), (2, "10S")]]
    assert state.dealer == 2 and state.to_act() == (3,)
    assert event_texts(state.opening_events()) == [
        "Draw for the first dealer: {s0} 5, {s1} 6, {s2} 6, {s3} 2",
        "Tied players draw again: {s1} 4, {s2} 10",
        "{s2} drew highest and deals first",
        "Hand 1: {s2} deals 7 cards each; 24 left in the stock",
    ]
    assert state.public_view()["dealer_draw"] == [
        [[0, "5"], [1, "6"], [2, "6"], [3, "2"]],
        [[1, "4"], [2, "10"]],
    ]
    assert "Draw for the first dealer: {s0} 5, {s1} 6, {s2} 6, {s3} 2 · then {s1} 4, {s2} 10" in (
        GAME.describe(state.public_view())
    )


@given(st.integers(0, 10**6), st.integers(2, 6))
@settings(max_examples=60, deadline=None)
def test_the_draw_always_ends_with_one_highest(seed: int, players: int) -> None:
    rounds = draw_for_dealer(seed, players)
    assert [seat for seat, _ in rounds[0]] == list(range(players))
    for before, after in pairwise(rounds):
        top = max(STRENGTH[card] for _, card in before)
        assert [seat for seat, _ in after] == [s for s, c in before if STRENGTH[c] == top]
    top = max(STRENGTH[card] for _, card in rounds[-1])
    assert [STRENGTH[card] for _, card in rounds[-1]].count(top) == 1
    state = GAME.new_state(players, seed)
    assert isinstance(state, TwentyTwoState)
    assert state.dealer == max(rounds[-1], key=lambda p: STRENGTH[p[1]])[0]


# -- the exchange ------------------------------------------------------------------------------
def test_exchange_goes_clockwise_from_the_dealers_left_and_discards_leave_play() -> None:
    deck = deal_deck(
        3,
        0,
        {
            1: "2C 3C 4C 5C 6C 7C 8C",
            2: "2D 3D 4D 5D 6D 7D 8D",
            0: "2H 3H 4H 5H 6H 7H 8H",
        },
        stock="AS KS QS",
    )
    state = start(3, deck)
    assert state.to_act() == (1,)
    events = act(state, 1, "exchange 8C 2C")  # any order
    assert hand(state, 1) == "3C 4C 5C 6C 7C KS AS"
    assert [card.text for card in state.discards[1]] == ["2C", "8C"]
    assert event_texts(events, None) == ["{s1} exchanges 2 cards; 29 left in the stock"]
    assert event_texts(events, 1)[1] == "{s1} discards 2♣ 8♣ and draws K♠ A♠"
    assert event_texts(events, 2) == event_texts(events, None)  # only the exchanger saw the cards
    assert state.view(2)["discard_counts"] == [0, 2, 0] and state.view(2)["discards"] == []
    assert state.view(1)["discards"] == ["2C", "8C"]
    assert state.to_act() == (2,)
    act(state, 2, "exchange 8D")
    assert hand(state, 2) == "2D 3D 4D 5D 6D 7D QS"
    assert state.to_act() == (0,) and state.phase == "exchange"
    assert event_texts(act(state, 0, "keep")) == ["{s0} keeps their cards"]
    # Then the dealer's left leads.
    assert state.phase == "play" and state.to_act() == (1,)


def test_exchange_offers_one_action_per_choice_of_ranks_in_lowest_suits() -> None:
    deck = deal_deck(2, 0, {1: "7C 7D 7H 9S 9C 2D 2S", 0: "3C 3D 3H 3S 4C 4D 4H"})
    state = start(2, deck)
    actions = state.legal_actions(1)
    # 7s: 0–3, 9s: 0–2, 2s: 0–2 → 4·3·3 − 1 exchanges, plus keep.
    assert len(actions) == 4 * 3 * 3 - 1 + 1
    assert actions[0] == KEEP
    # Lowest cards first: the first step after ``exchange`` offers the ranks low to high.
    assert [a.text for a in actions[1:4]] == ["exchange 2D", "exchange 2D 2S", "exchange 7C"]
    assert list(dict.fromkeys(a.path[1] for a in actions[1:])) == ["2D", "7C", "9C"]
    assert "exchange 2D 2S 7C 7D 7H 9C 9S" in legal(state, 1)
    assert "exchange 7C 7D" in legal(state, 1) and "exchange 7D 7H" not in legal(state, 1)
    assert widest_step(actions) <= 25
    # Any held cards of the ranks may be named, and exactly those leave the hand.
    assert GAME.parse_action("exchange 7H 7D") == GAME.parse_action("exchange 7C 7D")
    act(state, 1, "exchange 7H 7d")
    assert [card.text for card in state.discards[1]] == ["7D", "7H"]
    assert "7C" in hand(state, 1)


# -- tricks --------------------------------------------------------------------------------------
def trick_deck() -> list[str]:
    return deal_deck(
        3,
        0,
        {
            1: "7C 7D 2C 2D 4C 9C QC",
            2: "9D AD 3C 3D 5D 6D 8D",
            0: "7H 7S 2H 3H 4H 5H 6H",
        },
    )


def test_a_lead_is_several_cards_of_one_rank_and_a_two_card_beat_may_mix_ranks() -> None:
    state = start(3, trick_deck())
    keep_all(state)
    assert state.to_act() == (1,)
    assert legal(state, 1) == [
        "play 2C",
        "play 2C 2D",
        "play 4C",
        "play 7C",
        "play 7C 7D",
        "play 9C",
        "play QC",
    ]
    with pytest.raises(IllegalActionError, match="same rank"):
        state.apply_text(1, "play 7C 2C")
    (lead,) = act(state, 1, "play 7D 7C")
    assert (lead.text, lead.kind) == ("{s1} leads 7♣ 7♦", "play")
    # s2 beats with two cards (each at least a 7, high to low) or plays the two lowest.
    assert legal(state, 2) == ["play 3C 3D", "play 8D 9D", "play 8D AD", "play 9D AD"]
    assert event_texts(act(state, 2, "play AD 9D")) == ["{s2} beats with 9♦ A♦"]
    # s0 cannot beat 9 A: only the two lowest cards.
    assert legal(state, 0) == ["play 2H 3H"]
    with pytest.raises(IllegalActionError, match="play your lowest: 2♥ 3♥"):
        state.apply_text(0, "play 7H 7S")
    events = act(state, 0, "play 2H 3H")
    assert event_texts(events) == ["{s0} plays their lowest: 2♥ 3♥", "{s2} wins the trick"]
    assert state.to_act() == (2,) and state.trick == []
    assert [card.text for card in state.played] == ["7C", "7D", "9D", "AD", "2H", "3H"]


def test_a_lead_of_several_cards_keeps_one_card_back() -> None:
    deck = deal_deck(2, 0, {1: "AC AD AH AS 8C 8D 8H", 0: "3C 3D 3H 3S 9C 9D 9H"})
    state = start(2, deck)
    keep_all(state)
    assert "play AC AD AH AS" in legal(state, 1)
    act(state, 1, "play AC AD AH AS")
    assert legal(state, 0) == ["play 3C 3D 3H 3S"]  # nothing beats four aces
    act(state, 0, "play 3C 3D 3H 3S")
    # s1 holds three 8s only: one or two may be led, never all three.
    assert state.to_act() == (1,) and hand(state, 1) == "8C 8D 8H"
    assert legal(state, 1) == ["play 8C", "play 8C 8D"]
    with pytest.raises(IllegalActionError, match="keep at least one card"):
        state.apply_text(1, "play 8C 8D 8H")
    assert [a.path for a in state.legal_actions(1)] == [("8C", "done"), ("8C", "8D", "done")]


def test_the_leader_holding_one_rank_must_keep_one_card() -> None:
    assert [play.text for play in leads(cards("8C 8D 8H"))] == ["play 8C", "play 8C 8D"]
    assert [play.text for play in leads(cards("8C 8D"))] == ["play 8C"]
    assert [play.text for play in leads(cards("8C 8D 8H 8S 9C"))] == [
        "play 8C",
        "play 8C 8D",
        "play 8C 8D 8H",
        "play 8C 8D 8H 8S",
        "play 9C",
    ]


def test_a_beat_that_only_equals_the_best_play_beats_and_the_last_beater_wins() -> None:
    deck = deal_deck(
        3,
        0,
        {
            1: "5C 2C 2D 3C 3D 4C 4D",
            2: "5D 9D 2H 3H 4H 6H 6S",
            0: "5H 5S 9S 8S 7S 7H 7C",
        },
    )
    state = start(3, deck)
    keep_all(state)
    act(state, 1, "play 5C")
    assert legal(state, 2) == ["play 2H", "play 5D", "play 6H", "play 9D"]
    assert event_texts(act(state, 2, "play 5D")) == ["{s2} beats with 5♦"]  # equal is a beat
    assert state.best_seat == 2
    assert event_texts(act(state, 0, "play 5H")) == ["{s0} beats with 5♥", "{s0} wins the trick"]
    assert state.to_act() == (0,)


def test_the_trick_goes_to_the_last_beater_not_the_highest() -> None:
    deck = deal_deck(
        3,
        0,
        {
            1: "6C 2C 2D 3C 3D 4C 4D",
            2: "AD 9D 2H 3H 4H 8H 8S",
            0: "AH 5S 9S 8D 7S 7H 7C",
        },
    )
    state = start(3, deck)
    keep_all(state)
    act(state, 1, "play 6C")
    act(state, 2, "play AD")
    assert legal(state, 0) == ["play 5S", "play AH"]  # only an ace beats an ace now
    events = act(state, 0, "play AH")
    assert event_texts(events)[-1] == "{s0} wins the trick"
    # Had s2 played the only beat and s0 its lowest, s2 would win: checked by best_seat rules.
    state2 = start(3, deck)
    keep_all(state2)
    act(state2, 1, "play 6C")
    act(state2, 2, "play 9D")
    events = act(state2, 0, "play 5S")
    assert event_texts(events) == ["{s0} plays their lowest: 5♠", "{s2} wins the trick"]
    assert state2.to_act() == (2,)


def test_lowest_cards_that_meet_the_beat_test_count_as_a_beat() -> None:
    deck = deal_deck(2, 0, {1: "2C 2D 9C 9D JC QC KC", 0: "3C 3D 3H 5S 6S 7S 8S"})
    state = start(2, deck)
    keep_all(state)
    act(state, 1, "play 2C 2D")
    # The two lowest (3 3) beat 2 2: offered once, and they win the trick.
    assert legal(state, 0)[0] == "play 3C 3D"
    assert len(legal(state, 0)) == len(set(legal(state, 0)))
    assert event_texts(act(state, 0, "play 3H 3D")) == [
        "{s0} beats with 3♦ 3♥",
        "{s0} wins the trick",
    ]
    assert hand(state, 0) == "3C 5S 6S 7S 8S"  # exactly the named cards left the hand


def test_a_follower_plays_exactly_k_cards() -> None:
    state = start(3, trick_deck())
    keep_all(state)
    act(state, 1, "play 7C 7D")
    with pytest.raises(IllegalActionError, match="exactly 2 cards"):
        state.apply_text(2, "play AD")
    with pytest.raises(IllegalActionError, match="do not hold"):
        state.apply_text(2, "play AS AD")


def test_a_follows_question_names_as_many_cards_as_it_plays() -> None:
    """A follow of one card is offered card by card and asks for one card, where it asked
    "Play which cards?"; a follow of two is one pick of two cards and says so."""
    names = ["Ann", "Bob", "Cy"]
    single, state = start(3, trick_deck()), start(3, trick_deck())
    keep_all(single)
    keep_all(state)
    act(single, 1, "play 9C")
    one_card = single.legal_actions(2)
    assert len(one_card) > 1 and pick_at(GAME, one_card, ()) is None
    assert step_prompt(GAME, first_step(one_card), names) == "Play which card?"
    act(state, 1, "play 7D 7C")
    two_cards = pick_at(GAME, state.legal_actions(2), ())
    assert two_cards is not None
    assert pick_prompt(GAME, two_cards, names) == "Play which 2 cards? (a beat, or your 2 lowest)"


@given(
    st.lists(st.sampled_from(FULL_DECK), min_size=2, max_size=11, unique=True),
    st.integers(1, 4),
    st.integers(2, 14),
    st.data(),
)
@settings(max_examples=150, deadline=None)
def test_follows_are_the_beats_and_the_lowest_cards(
    hand_cards: list[Card], count: int, low: int, data: st.DataObject
) -> None:
    count = min(count, len(hand_cards))
    best = tuple(sorted(data.draw(st.lists(st.integers(low, 14), min_size=count, max_size=count))))
    hand_sorted = sorted(hand_cards, key=rank_key)
    expected = {
        ranks_of(chosen)
        for chosen in combinations(hand_sorted, count)
        if is_beat(ranks_of(chosen), best)
    }
    expected.add(ranks_of(hand_sorted[:count]))
    offered = follows(hand_sorted, best)
    assert [play.ranks for play in offered] == sorted(expected)
    for play in offered:
        assert all(card in hand_cards for card in play.cards)
    assert widest_step(offered) <= 25


# -- the showdown, penalties, the next hand ---------------------------------------------------
def test_with_one_card_each_the_exchange_goes_straight_to_the_showdown() -> None:
    # Only a nearly empty deck deals a single card each; here that hand is dealt directly.
    state = start(2, deal_deck(2, 0, {1: "AS", 0: "5D"}))
    state.start_hand(1)
    assert state.dealt == 1 and hand(state, 1) == "AS" and hand(state, 0) == "5D"
    act(state, 1, "keep")
    events = act(state, 0, "keep")
    assert event_texts(events)[:4] == [
        "{s0} keeps their cards",
        "{s1} shows A♠",
        "{s0} shows 5♦",
        "Hand 1: {s1} loses with A and scores 11 · totals: {s0} 0, {s1} 11",
    ]
    assert state.scores() == (0, 11) and state.hand_number == 1 and state.dealt == 11


def tie_deck() -> list[str]:
    """Hand 1 of 3 players: s0 and s1 keep kings to the end, s2 wins the last trick."""
    return deal_deck(
        3,
        0,
        {
            1: "4C 4D 4H 4S 9C 9D KC",
            2: "5C 5D 5H 5S 10C 10D QD",
            0: "6C 6D 6H 6S 2C 2D KH",
        },
    )


def play_tie_hand(state: TwentyTwoState) -> list[Event]:
    keep_all(state)
    act(state, 1, "play 4C 4D 4H 4S")
    act(state, 2, "play 5C 5D 5H 5S")
    act(state, 0, "play 6C 6D 6H 6S")
    act(state, 0, "play 2C 2D")
    act(state, 1, "play 9C 9D")
    return act(state, 2, "play 10C 10D")


def test_a_showdown_tie_scores_both_and_the_last_tied_loser_in_reveal_order_deals() -> None:
    second = deal_deck(
        3,
        1,
        {
            2: "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D",
            0: "5C 5D 5H 5S 6C 6D 6H 6S 7C 7D",
            1: "8C 8D 8H 8S 9C 9D 9H 9S 10C 10D",
        },
        out="KC KH",
    )
    state = start(3, tie_deck(), second)
    events = play_tie_hand(state)
    # Revealed clockwise from s2, who won the last trick: s2, s0, s1.
    assert event_texts(events)[:6] == [
        "{s2} beats with 10♣ 10♦",
        "{s2} wins the trick",
        "{s2} shows Q♦",
        "{s0} shows K♥",
        "{s1} shows K♣",
        "Hand 1: {s0} and {s1} tie with kings and score 10 each · totals: {s0} 10, {s1} 10, {s2} 0",
    ]
    assert [event.kind for event in events][5:7] == ["hand_end", "deal"]
    assert state.scores() == (10, 10, 0)
    # Penalty cards stay face up in front of their owners and leave the deck.
    assert [[card.text for card in pile] for pile in state.penalties] == [["KH"], ["KC"], []]
    assert state.public_view()["penalties"] == [["KH"], ["KC"], []]
    # s1, the last tied loser in reveal order (not s0, the first), deals 10 each (a king).
    assert state.dealer == 1 and state.hand_number == 1 and state.dealt == 10
    assert hand(state, 2) == "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D"
    assert hand(state, 1) == "8C 8D 8H 8S 9C 9D 9H 9S 10C 10D"
    assert len(state.stock) == 50 - 30
    assert state.to_act() == (2,)
    assert state.public_view()["last_hand"] == {
        "hand": 1,
        "reveals": [[2, "Q"], [0, "K"], [1, "K"]],
        "losers": [0, 1],
        "penalty": 10,
    }


def test_a_later_deck_must_hold_exactly_the_cards_still_in_play() -> None:
    with_penalty_card = deal_deck(3, 1, {2: "KC 2D", 0: "3C 3D", 1: "4C 4D"}, out="KH")
    state = start(3, tie_deck(), with_penalty_card)
    with pytest.raises(DeckError, match="not the 50 cards in play"):
        play_tie_hand(state)


@pytest.mark.parametrize(
    ("rank", "points"),
    [("A", 11), ("K", 10), ("Q", 10), ("J", 10), ("10", 10), ("9", 9), ("5", 5), ("2", 2)],
)
def test_penalty_values(rank: str, points: int) -> None:
    assert penalty(strength(Card.parse(rank + "S"))) == points


def short_deck_hands() -> dict[int, str]:
    """Hand 1 of 6 players: s1 leads four 2s, everyone beats, s0 leads a pair, s5 wins it;
    s1 is left with the ace of spades."""
    return {
        1: "2C 2D 2H 2S 3C 3D AS",
        2: "5C 5D 5H 5S 10C 10D 4H",
        3: "6C 6D 6H 6S JC JD 4S",
        4: "7C 7D 7H 7S QC QD 3H",
        5: "8C 8D 8H 8S KC KD 3S",
        0: "9C 9D 9H 9S 4C 4D 10H",
    }


def play_short_deck_hand(state: TwentyTwoState) -> list[Event]:
    keep_all(state)
    act(state, 1, "play 2C 2D 2H 2S")
    for seat, played in ((2, "5C 5D 5H 5S"), (3, "6C 6D 6H 6S"), (4, "7C 7D 7H 7S")):
        act(state, seat, "play " + played)
    act(state, 5, "play 8C 8D 8H 8S")
    act(state, 0, "play 9C 9D 9H 9S")
    act(state, 0, "play 4C 4D")
    assert legal(state, 1) == ["play 3C 3D"]  # 3 A does not beat 4 4
    act(state, 1, "play 3C 3D")
    for seat, played in ((2, "10C 10D"), (3, "JC JD"), (4, "QC QD")):
        act(state, seat, "play " + played)
    return act(state, 5, "play KC KD")


def test_the_next_hand_is_dealt_short_when_the_deck_cannot_give_the_penalty() -> None:
    state = start(6, deal_deck(6, 0, short_deck_hands()))
    events = play_short_deck_hand(state)
    assert event_texts(events)[2:8] == [
        "{s5} shows 3♠",
        "{s0} shows 10♥",
        "{s1} shows A♠",
        "{s2} shows 4♥",
        "{s3} shows 4♠",
        "{s4} shows 3♥",
    ]
    assert state.scores() == (0, 11, 0, 0, 0, 0)
    # An ace asks for 11 each, but 51 cards give 6 players only 8 each.
    assert state.dealer == 1 and state.dealt == 8 and len(state.stock) == 51 - 48
    assert all(len(state.hands[seat]) == 8 for seat in range(6))
    deal = next(event for event in events if event.kind == "deal")
    assert deal.text == (
        "Hand 2: {s1} deals 8 cards each (the deck of 51 is short for 11 each); 3 left in the stock"
    )
    assert state.to_act() == (2,)


def test_nobody_exchanges_more_than_the_stock_and_an_empty_stock_ends_the_exchange() -> None:
    state = start(6, deal_deck(6, 0, short_deck_hands()))
    play_short_deck_hand(state)
    assert len(state.stock) == 3 and state.to_act() == (2,)
    sizes = {len(a.text.split()) - 1 for a in state.legal_actions(2) if isinstance(a, Exchange)}
    assert sizes == {1, 2, 3}  # at most the 3 cards of the stock
    two = " ".join(card.text for card in state.hands[2][:2])
    act(state, 2, "exchange " + two)
    assert max(len(a.text.split()) - 1 for a in state.legal_actions(3)) == 1
    with pytest.raises(IllegalActionError, match="only 1 card to exchange"):
        state.apply_text(3, "exchange " + " ".join(card.text for card in state.hands[3][:2]))
    events = act(state, 3, "exchange " + state.hands[3][0].text)
    assert event_texts(events)[-1] == "The stock is empty: {s4}, {s5}, {s0}, {s1} keep their cards"
    assert state.phase == "play" and state.to_act() == (2,) and state.stock == []
    assert [len(pile) for pile in state.discards] == [0, 0, 2, 1, 0, 0]


def eliminated_dealer_decks() -> list[list[str]]:
    first = deal_deck(
        3,
        0,
        {
            1: "2C 2D 2H 2S 3C 3D AS",
            2: "5C 5D 5H 5S 10C 10D 4H",
            0: "6C 6D 6H 6S 4C 4D 4S",
        },
    )
    second = deal_deck(
        3,
        1,
        {
            2: "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 5C",
            0: "6C 6D 6H 6S 10C 10D 10H 10S JC JD KC",
            1: "7C 7D 7H 7S 8C 8D 8H 8S 9C 9D AH",
        },
        out="AS",
    )
    third = deal_deck(
        3,
        1,
        {2: "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 5C", 0: "6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 9C"},
        out="AS AH",
    )
    return [first, second, third]


def test_an_eliminated_loser_deals_but_gets_no_cards_and_is_skipped() -> None:
    state = start(3, *eliminated_dealer_decks())
    keep_all(state)
    act(state, 1, "play 2C 2D 2H 2S")
    act(state, 2, "play 5C 5D 5H 5S")
    act(state, 0, "play 6C 6D 6H 6S")
    act(state, 0, "play 4C 4D")
    act(state, 1, "play 3C 3D")
    act(state, 2, "play 10C 10D")
    assert state.scores() == (0, 11, 0) and state.dealer == 1 and state.dealt == 11
    # Hand 2: 11 cards each (an ace), from s2, the dealer's left.
    keep_all(state)
    act(state, 2, "play 2C 2D 2H 2S")
    act(state, 0, "play 6C 6D 6H 6S")
    act(state, 1, "play 7C 7D 7H 7S")
    act(state, 1, "play 8C 8D 8H 8S")
    assert legal(state, 2) == ["play 3C 3D 3H 3S"]
    act(state, 2, "play 3C 3D 3H 3S")
    act(state, 0, "play 10C 10D 10H 10S")
    act(state, 0, "play JC JD")
    act(state, 1, "play 9C 9D")
    events = act(state, 2, "play 4C 4D")
    hand_end = next(event for event in events if event.kind == "hand_end")
    assert hand_end.text == (
        "Hand 2: {s1} loses with A and scores 11 · totals: {s0} 0, {s1} 22, {s2} 0 · out: {s1}"
    )
    # s1 is out at 22 but lost, so deals hand 3: 11 each from s2 (the first player still in
    # to the dealer's left), then s0; s1 gets nothing and is skipped everywhere.
    assert state.scores() == (0, 22, 0) and not state.is_over
    assert state.dealer == 1 and state.dealt == 11 and state.hands[1] == []
    assert hand(state, 2) == "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 5C"
    assert hand(state, 0) == "6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 9C"
    assert len(state.stock) == 50 - 22
    assert state.public_view()["in"] == [0, 2]
    assert state.to_act() == (2,) and legal(state, 1) == []
    act(state, 2, "keep")
    act(state, 0, "keep")
    assert state.phase == "play" and state.to_act() == (2,)
    act(state, 2, "play 2C")
    assert state.to_act() == (0,)
    act(state, 0, "play 9C")
    assert state.to_act() == (0,)  # the trick is over: s1 never plays
    with pytest.raises(IllegalActionError, match="not your turn"):
        state.apply_text(1, "play 2D")


def test_two_last_players_eliminated_in_one_hand_the_lowest_total_wins() -> None:
    first = deal_deck(2, 0, {1: "2C 2D 2H 2S 3C 3D AC", 0: "5C 5D 5H 5S 4C 4D AD"})
    second = deal_deck(
        2,
        1,
        {
            0: "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D KC",
            1: "5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 8C",
        },
        out="AC AD",
    )
    third = deal_deck(
        2,
        0,
        {1: "2C 2D 2H 2S 3C 3D 3H 3S 4C AH", 0: "5C 5D 5H 5S 6C 6D 6H 6S 4D AS"},
        out="AC AD KC",
    )
    state = start(2, first, second, third)
    keep_all(state)
    act(state, 1, "play 2C 2D 2H 2S")
    act(state, 0, "play 5C 5D 5H 5S")
    act(state, 0, "play 4C 4D")
    events = act(state, 1, "play 3C 3D")
    assert event_texts(events)[2:4] == ["{s0} shows A♦", "{s1} shows A♣"]
    assert state.scores() == (11, 11) and state.dealer == 1 and state.dealt == 11
    keep_all(state)
    act(state, 0, "play 2C 2D 2H 2S")
    act(state, 1, "play 5C 5D 5H 5S")
    act(state, 1, "play 6C 6D 6H 6S")
    act(state, 0, "play 3C 3D 3H 3S")
    act(state, 1, "play 7C 7D")
    act(state, 0, "play 4C 4D")
    assert state.scores() == (21, 11) and state.dealer == 0 and state.dealt == 10
    keep_all(state)
    act(state, 1, "play 2C 2D 2H 2S")
    act(state, 0, "play 5C 5D 5H 5S")
    act(state, 0, "play 6C 6D 6H 6S")
    act(state, 1, "play 3C 3D 3H 3S")
    act(state, 0, "play 4D")
    assert legal(state, 1) == ["play 4C", "play AH"]  # 4 equals 4: the lowest is a beat
    events = act(state, 1, "play 4C")
    # Both reach 22 or more in this hand: the lower total, s1's 22, wins alone.
    assert state.is_over and state.scores() == (32, 22) and state.winners() == (1,)
    assert event_texts(events)[-1] == "{s1} wins"
    assert state.to_act() == () and state.public_view()["winners"] == [1]


def test_two_last_players_eliminated_with_equal_totals_share_the_win() -> None:
    first = deal_deck(2, 0, {1: "2C 2D 2H 2S 3C 3D AC", 0: "5C 5D 5H 5S 4C 4D AD"})
    second = deal_deck(
        2,
        1,
        {
            0: "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D AH",
            1: "5C 5D 5H 5S 6C 6D 6H 6S 7C 7D AS",
        },
        out="AC AD",
    )
    state = start(2, first, second)
    keep_all(state)
    act(state, 1, "play 2C 2D 2H 2S")
    act(state, 0, "play 5C 5D 5H 5S")
    act(state, 0, "play 4C 4D")
    act(state, 1, "play 3C 3D")
    keep_all(state)
    act(state, 0, "play 2C 2D 2H 2S")
    act(state, 1, "play 5C 5D 5H 5S")
    act(state, 1, "play 6C 6D 6H 6S")
    act(state, 0, "play 3C 3D 3H 3S")
    act(state, 1, "play 7C 7D")
    events = act(state, 0, "play 4C 4D")
    assert state.is_over and state.scores() == (22, 22) and state.winners() == (0, 1)
    assert event_texts(events)[-1] == "{s0} and {s1} share the win"
    assert [event.kind for event in events][-2:] == ["hand_end", "game_end"]
    # At the end every card is in exactly one place; the last cards lie face up.
    assert sorted(card for zone in state.zones() for card in zone.cards) == sorted(FULL_DECK)


def test_the_last_player_still_in_wins() -> None:
    # 2 players: s1 loses hand 1 with an ace, then hand 2 with another ace (22): s0 wins.
    first = deal_deck(2, 0, {1: "2C 2D 2H 2S 3C 3D AC", 0: "5C 5D 5H 5S 4C 4D 4H"})
    second = deal_deck(
        2,
        1,
        {
            0: "5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 2C",
            1: "2D 2H 2S 3C 3D 3H 3S 4C 4D 8C AS",
        },
        out="AC",
    )
    state = start(2, first, second)
    keep_all(state)
    act(state, 1, "play 2C 2D 2H 2S")
    act(state, 0, "play 5C 5D 5H 5S")
    act(state, 0, "play 4C 4D")
    act(state, 1, "play 3C 3D")
    assert state.scores() == (0, 11)
    keep_all(state)
    act(state, 0, "play 5C 5D 5H 5S")
    assert legal(state, 1) == ["play 2D 2H 2S 3C"]
    act(state, 1, "play 2D 2H 2S 3C")
    act(state, 0, "play 6C 6D 6H 6S")
    act(state, 1, "play 3D 3H 3S 4C")
    act(state, 0, "play 7C 7D")
    act(state, 1, "play 4D 8C")
    assert state.is_over and state.scores() == (0, 22) and state.winners() == (0,)
    assert GAME.describe(state.public_view())[-1] == "Winner: {s0}"


# -- action text, errors, saving, views, the command line, the AI ---------------------------------
def test_action_text_round_trips_and_compares_by_ranks() -> None:
    assert GAME.parse_action("keep") == KEEP and GAME.parse_action(" KEEP ").text == "keep"
    play = GAME.parse_action("play 7s 7h")
    assert isinstance(play, Play) and play.text == "play 7H 7S" and play.ranks == (7, 7)
    assert play == GAME.parse_action("play 7C 7D") and hash(play) == hash(Play.of(cards("7C 7D")))
    assert GAME.parse_action("play AS 10D").text == "play 10D AS"  # low to high, aces high
    assert GAME.parse_action("exchange 3c 7h") == Exchange.of(cards("3S 7D"))
    assert GAME.parse_action("exchange 7C") != GAME.parse_action("play 7C")


@pytest.mark.parametrize(
    "text", ["", "play", "exchange", "keep 7C", "discard 7C", "play 7X", "play 7C 7C", "pass"]
)
def test_unreadable_actions_raise_parse_errors(text: str) -> None:
    with pytest.raises(ActionParseError):
        GAME.parse_action(text)


def test_illegal_actions_raise_and_change_nothing() -> None:
    state = start(3, trick_deck())
    before = state.to_json()
    for seat, text, reason in (
        (2, "keep", "not your turn"),
        (1, "play 7C", "First comes the exchange"),
        (1, "exchange 7H", "do not hold 7♥"),
    ):
        with pytest.raises(IllegalActionError, match=reason):
            state.apply_text(seat, text)
        assert state.to_json() == before
    keep_all(state)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="exchange is over"):
        state.apply_text(1, "keep")
    assert state.to_json() == before


def test_options_and_player_counts_are_checked() -> None:
    assert GAME.player_counts == (2, 3, 4, 5, 6)
    for players in (1, 7):
        with pytest.raises(SetupError, match="2 to 6 players"):
            GAME.new_state(players, 1)
    with pytest.raises(SetupError, match="no option 'target'"):
        GAME.new_state(3, 1, {"target": 30})


def test_a_saved_game_reads_back_exactly_and_plays_on_the_same() -> None:
    state = start(3, trick_deck())
    act(state, 1, "exchange 2C 2D")
    act(state, 2, "keep")
    act(state, 0, "keep")
    act(state, 1, "play 7C 7D")
    data = json.loads(json.dumps(state.to_json()))
    restored = GAME.state_from_json(data)
    assert restored.to_json() == state.to_json()
    assert restored.legal_actions(2) == state.legal_actions(2)
    restored.apply_text(2, "play 9D AD")
    state.apply_text(2, "play 9D AD")
    assert restored == state
    broken = {**data, "hands": data["hands"][:2]}
    with pytest.raises(SavedStateError):
        GAME.state_from_json(broken)


def test_views_show_a_seat_its_own_cards_only() -> None:
    state = start(3, trick_deck())
    act(state, 1, "exchange 2C")
    public = state.public_view()
    assert "hand" not in public and public["hand_sizes"] == [7, 7, 7]
    mine = state.view(1)
    assert mine["hand"] == [card.text for card in state.hands[1]] and mine["discards"] == ["2C"]
    other = state.view(2)
    assert not set(other["hand"]) & {card.text for card in state.hands[1]}
    assert "2C" not in json.dumps(other) and "2C" not in json.dumps(public)
    lines = GAME.describe(state.view(2))
    assert lines[0].startswith("Hand 1 · dealer {s0} · 7 cards each")
    assert "Exchange: {s2} to choose" in lines
    assert lines[-1].startswith("Your hand: 3♣ 3♦")


def test_replay_command_prints_the_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record: dict[str, Any] = {
        "game": "twentytwo",
        "players": 3,
        "seed": 4,
        "deck": trick_deck(),
        "actions": [[1, "keep"], [2, "keep"], [0, "keep"], [1, "play 7D 7C"], [2, "play ad 9d"]],
    }
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "over": False,
        "scores": [0, 0, 0],
        "winners": [],
        "to_act": [0],
        "legal": {"0": ["play 2H 3H"]},
    }
    record["actions"] = [*record["actions"], [0, "play 7H 7S"]]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["index"] == 5
    record["deck"] = [trick_deck()[:-1]]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2


def test_replay_names_other_suits_of_the_same_ranks() -> None:
    state = start(3, trick_deck())
    keep_all(state)
    state.apply_text(1, "play 2D")  # the legal text is "play 2C"; 2D is held too
    assert hand(state, 1) == "2C 4C 7C 7D 9C QC"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_decision_offers_at_most_25_options_a_step(players: int) -> None:
    for seed in range(3):
        state = GAME.new_state(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act()[0]
            actions = state.legal_actions(seat)
            assert widest_step(actions) <= 25, [a.text for a in actions]
            state.apply(seat, actions[rng.randrange(len(actions))])


def test_the_ai_beats_random_players() -> None:
    agents = [agent(GAME, "ai"), agent(GAME, "random"), agent(GAME, "random")]
    result = simulate(GAME, 3, 30, 0, agents)
    assert result["wins"][0] >= 24, result


@given(
    st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=11, unique=True),
    st.integers(0, 40),
)
@settings(max_examples=100, deadline=None)
def test_exchanges_are_every_choice_of_ranks_the_stock_allows(
    hand_cards: list[Card], stock: int
) -> None:
    hand_sorted = sorted(hand_cards, key=rank_key)
    expected = {
        ranks_of(chosen)
        for size in range(1, min(len(hand_sorted), stock) + 1)
        for chosen in combinations(hand_sorted, size)
    }
    options = ExchangeOptions(hand_sorted, stock)
    # A sequence, without confusing what else is one (a compiled ABC subclass would).
    assert isinstance(options, Sequence) and not isinstance((), ExchangeOptions)
    assert isinstance([], Sequence) and isinstance((), Sequence)
    assert len(options) == len(expected) + 1 and options[0] == KEEP == options[-len(options)]
    offered = [action for action in options[1:] if isinstance(action, Exchange)]
    assert offered == list(options)[1:] and options[-1] == ([KEEP, *offered])[-1]
    # Each choice of ranks once: counted, then made one at a time, in order: by how many
    # cards of each rank, the highest rank's count varying slowest (the lowest cards first).
    held = sorted(set(ranks_of(hand_sorted)), reverse=True)

    def counts(ranks: tuple[int, ...]) -> list[int]:
        return [ranks.count(rank) for rank in held]

    assert [action.ranks for action in offered] == sorted(expected, key=counts)
    # ``in`` asks the rule, for any held choice of ranks and for ranks not held.
    limit = min(len(hand_sorted), stock)
    assert all(
        Exchange.of(chosen) in options
        for size in range(1, limit + 1)
        for chosen in combinations(hand_sorted, size)
    )
    unheld = next(card for card in FULL_DECK if strength(card) not in ranks_of(hand_sorted))
    assert Exchange.of([unheld]) not in options and Play.of(hand_sorted[:1]) not in options
    if stock < len(hand_sorted):
        assert Exchange.of(hand_sorted[: stock + 1]) not in options
    with pytest.raises(IndexError):
        options[len(options)]
    for action in offered:
        # Written with the lowest suits held of each rank.
        for card in action.cards:
            lower_suits = [o for o in hand_cards if o.rank == card.rank and o.suit < card.suit]
            assert all(other in action.cards for other in lower_suits)
        assert GAME.parse_action(action.text) == action
    assert widest_step([KEEP, *offered]) <= 25


@given(
    st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=11, unique=True),
    st.integers(0, 40),
)
@settings(max_examples=60, deadline=None)
def test_an_exchange_handed_out_is_one_the_rule_allows(hand_cards: list[Card], stock: int) -> None:
    """The listing lets the exchanges it handed out through by identity; the rule (asked of an
    equal copy) allows each of them too, and refuses the same ranks named in suits not held or
    a card named twice."""
    hand_sorted = in_rank_order(hand_cards)
    options = ExchangeOptions(hand_sorted, stock)
    for index in range(len(options)):
        action = options[index]
        assert options.allows(action)
        if not isinstance(action, Exchange):
            assert action == KEEP
            continue
        assert options.allows(Exchange(action.ranks, action.cards))
        unheld = [
            card
            for card in FULL_DECK
            if card not in hand_cards and strength(card) == action.ranks[0]
        ]
        if unheld:
            named = (unheld[0], *action.cards[1:])
            assert not options.allows(Exchange(action.ranks, named))
        if len(action.cards) > 1:
            twice = (action.cards[0], *action.cards[:-1])
            assert not options.allows(Exchange(action.ranks, twice))


@given(st.lists(st.sampled_from(FULL_DECK), max_size=20, unique=True), st.sampled_from(FULL_DECK))
def test_a_hand_keeps_its_cards_in_rank_order(cards: list[Card], picked: Card) -> None:
    """Each card put in its place gives the hand ``rank_key`` sorts it into."""
    hand = in_rank_order(cards)
    assert hand == sorted(cards, key=rank_key)
    if picked not in hand:
        put_in_place(hand, picked)
        assert hand == sorted([*cards, picked], key=rank_key)


@pytest.mark.parametrize("players", [2, 4])
def test_is_legal_agrees_with_the_listed_actions(players: int) -> None:
    """is_legal checks by the rules, not by searching the list: in random games, every held
    choice of up to 4 cards is a legal exchange or play exactly when its ranks are listed."""
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        state = GAME.new_state(players, seed)
        while not state.is_over:
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if rng.random() < 0.3:
                assert isinstance(state, TwentyTwoState)
                listed = {(type(a), a.ranks) for a in legal if isinstance(a, (Exchange, Play))}
                hand_cards = state.hands[seat]
                for size in range(1, min(len(hand_cards), 4) + 1):
                    for chosen in combinations(hand_cards, size):
                        for kind in (Exchange, Play):
                            action = kind.of(chosen)
                            listed_now = (kind, action.ranks) in listed
                            assert state.is_legal(seat, action) == listed_now, action.text
                            checked += 1
                unheld = next(card for card in FULL_DECK if card not in hand_cards)
                assert not state.is_legal(seat, Play.of([unheld]))
                assert not state.is_legal(seat, Exchange.of([unheld]))
                assert not state.is_legal(seat, Play.of([]))
                assert state.is_legal(seat, KEEP) == (KEEP in legal)
                assert not state.is_legal((seat + 1) % players, legal[0])
            state.apply(seat, rng.choice(legal))
    assert checked > 1000


def test_self_play_with_copies_of_the_listed_actions_plays_the_same_game() -> None:
    """A chooser giving an equal action that is not one of the listed objects gets it checked
    by is_legal, and the game goes as with the listed objects themselves."""

    def copying(view: Any, legal: Sequence[Action], rng: random.Random, optional: bool) -> Action:
        chosen = legal[int(rng.random() * len(legal))]
        if isinstance(chosen, (Exchange, Play)):
            return type(chosen)(chosen.ranks, chosen.cards)
        return chosen

    for seed in range(3):
        listed, copied = GAME.new_state(2, seed), GAME.new_state(2, seed)
        listed_rngs = [random.Random(seat) for seat in range(2)]
        copied_rngs = [random.Random(seat) for seat in range(2)]
        chooser = RandomAgent().choose
        steps = listed.play_sole_turns([chooser] * 2, listed_rngs, 10_000)
        assert copied.play_sole_turns([copying] * 2, copied_rngs, 10_000) == steps
        assert listed.is_over and copied.to_json() == listed.to_json()


def test_replay_rejects_a_later_deck_holding_a_penalty_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_second = deal_deck(3, 1, {2: "KC 2D", 0: "3C 3D", 1: "4C 4D"}, out="KH")
    actions = [[1, "keep"], [2, "keep"], [0, "keep"], [1, "play 4C 4D 4H 4S"]]
    actions += [[2, "play 5C 5D 5H 5S"], [0, "play 6C 6D 6H 6S"], [0, "play 2C 2D"]]
    actions += [[1, "play 9C 9D"], [2, "play 10C 10D"]]
    record = {"game": "twentytwo", "players": 3, "deck": [tie_deck(), bad_second]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**record, "actions": actions[:-1]}))
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] == {"2": ["play 10C 10D", "play 10C QD"]}
    path.write_text(json.dumps({**record, "actions": actions}))
    assert main(["replay", str(path)]) == 2
    assert "not the 50 cards in play" in capsys.readouterr().err


def test_a_short_deck_dealing_one_card_each_says_one_card() -> None:
    # §3.2: only a short deck deals fewer than the penalty asked, down to one card each
    deal = deal_event(9, 2, 1, 5, 10, 1)
    assert deal.text == (
        "Hand 9: {s2} deals 1 card each (the deck of 5 is short for 10 each); 1 left in the stock"
    )
    assert deal_event(9, 2, 2, 9, 10, 1).text.startswith("Hand 9: {s2} deals 2 cards each (")
    state = new(GAME, TwentyTwoState, 4, 3)
    state.dealt = 1
    (opening,) = [line for line in GAME.describe(state.view(0)) if line.startswith("Hand 1 · ")]
    assert " · 1 card each · " in opening
