"""Stacked-deck scenarios for stuck, one (or more) per rule of docs/rules/stuck.md and issue #6."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import engine.ai
from engine.ai.stuck import StuckAgent
from engine.cards import FULL_DECK, Card
from engine.cli import main
from engine.core import Event, Word, make_rng
from engine.errors import ActionParseError, IllegalActionError, SavedStateError, SetupError
from engine.games.stuck import (
    DONE,
    DRAW,
    FOLLOW,
    GAME,
    GIVE,
    PLAY,
    Give,
    PlayCard,
    StuckState,
    may_follow,
    may_start,
)
from engine.runner import play_out
from engine.words import speaking
from tests.engine import helpers
from tests.engine.helpers import card_texts, legal, refused
from tests.engine.test_messages import POLISH_COUNTS, compiled

C = Card.parse


def stack(
    players: int, hands: dict[int, list[str]], up: str, pile: Sequence[str] = ()
) -> list[str]:
    """A first-round deck (seat 0 deals, so seat 1 gets the first card).

    Hands not given in full are filled with unused cards in card order; the pile starts with
    ``pile`` and goes on with the unused cards in card order.
    """
    used = {C(text) for cards in hands.values() for text in cards} | {C(up)}
    used |= {C(text) for text in pile}
    spare = [card.text for card in FULL_DECK if card not in used]
    full = {}
    for seat in range(players):
        given = list(hands.get(seat, []))
        while len(given) < 7:
            given.append(spare.pop(0))
        full[seat] = given
    order = [(1 + offset) % players for offset in range(players)]
    deck = [full[order[index % players]][index // players] for index in range(7 * players)]
    deck += [up, *pile, *spare]
    assert sorted(map(C, deck)) == sorted(FULL_DECK)
    return deck


def new(
    players: int, hands: dict[int, list[str]], up: str, pile: Sequence[str] = (), seed: int = 1
) -> StuckState:
    return helpers.new(GAME, StuckState, players, seed, stack(players, hands, up, pile))


def run(state: StuckState, *moves: str) -> list[Event]:
    """Apply ``moves`` (texts) for whoever is to act; returns all events."""
    events: list[Event] = []
    for text in moves:
        (seat,) = state.to_act()
        events += state.apply_text(seat, text)
    return events


def hand(state: StuckState, seat: int) -> list[str]:
    return [card.text for card in state.hands[seat]]


def assert_illegal(state: StuckState, seat: int, text: str, reason: str) -> None:
    """``text`` is refused, changing nothing, with a reason matching ``reason``."""
    assert re.search(reason, refused(state, seat, text))


def check_cards(state: StuckState) -> None:
    counts = Counter(card for zone in state.zones() for card in zone.cards)
    assert set(counts) == set(FULL_DECK) and max(counts.values()) == 1


# -- setup -------------------------------------------------------------------------------------
def test_deal_one_card_at_a_time_from_the_dealers_left_then_the_up_card() -> None:
    deck = [card.text for card in FULL_DECK]  # AC AD AH AS 2C …
    state = GAME.new_state(3, 9, deck=deck)
    assert isinstance(state, StuckState)
    assert state.dealer == 0 and state.to_act() == (1,)
    # seat 1 gets cards 0, 3, 6 …; seat 2 cards 1, 4 …; the dealer cards 2, 5 …
    assert hand(state, 1) == sorted((deck[i] for i in range(0, 21, 3)), key=C)
    assert hand(state, 2) == sorted((deck[i] for i in range(1, 21, 3)), key=C)
    assert hand(state, 0) == sorted((deck[i] for i in range(2, 21, 3)), key=C)
    assert state.current == C(deck[21])
    assert card_texts(state.pile) == deck[22:]
    assert state.public_view()["draw_pile"] == 30
    assert state.stuck == [[], [], []] and state.phase == PLAY


def test_first_dealer_comes_from_the_seed_and_the_player_on_the_left_starts() -> None:
    dealers = set()
    for seed in range(12):
        state = GAME.new_state(4, seed)
        assert isinstance(state, StuckState)
        assert state.dealer == make_rng(seed, "dealer").randrange(4)
        assert state.to_act() == ((state.dealer + 1) % 4,)
        dealers.add(state.dealer)
    assert len(dealers) > 1


def test_player_counts_and_options_are_checked() -> None:
    for players in (1, 7):
        with pytest.raises(SetupError, match="2 to 6"):
            GAME.new_state(players, 1)
    with pytest.raises(SetupError, match="no option"):
        GAME.new_state(2, 1, {"rounds": 3})
    with pytest.raises(SetupError):
        GAME.new_state(2, 1, deck=["AC", "AC"])


# -- plays -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("first", "second"), [("7H", "7D"), ("7D", "7H")])
def test_two_card_rank_play_in_the_chosen_order_sets_the_current_card(
    first: str, second: str
) -> None:
    state = new(2, {1: ["7H", "7D", "2H", "3D", "KS", "QS", "JS"]}, up="7C")
    assert legal(state) == ["play 7D", "play 7H"]
    run(state, f"play {first}")
    assert state.phase == FOLLOW
    # After one rank card: another 7, a card of that card's suit, or done.
    suit_card = "2H" if first == "7H" else "3D"
    assert set(legal(state)) == {f"play {second}", f"play {suit_card}", "done"}
    run(state, f"play {second}")
    assert legal(state) == ["done"]  # two rank cards: only more 7s may follow, and none is left
    assert state.current == C(second)
    run(state, "done")
    assert legal(state) == ["give s0"]
    events = run(state, "give s0")
    assert state.current == C(second)
    assert state.to_act() == (0,) and state.phase == PLAY
    assert len(state.stuck[0]) == 1
    assert [event.kind for event in events] == ["give"]


def test_rank_card_then_two_cards_of_its_suit() -> None:
    state = new(2, {1: ["7H", "7D", "2H", "9H", "3C", "KS", "QS"]}, up="7C")
    run(state, "play 7H")
    assert legal(state) == ["play 2H", "play 7D", "play 9H", "done"]
    run(state, "play 2H")
    # Suit phase: only hearts (the suit of 7♥) may follow — not the 7♦, not the club 3♣.
    assert legal(state) == ["play 9H", "done"]
    run(state, "play 9H")
    assert legal(state) == ["done"]
    assert state.current == C("9H") and state.run == [C("7H"), C("2H"), C("9H")]
    run(state, "done", "give s0")
    assert hand(state, 1) == ["3C", "7D", "QS", "KS"]
    assert card_texts(state.discard) == ["7C", "7H", "2H", "9H"]


def test_a_suit_card_after_the_rank_card_is_refused_unless_of_that_cards_suit() -> None:
    state = new(2, {1: ["7H", "7D", "2H", "3C", "KS", "QS", "JS"]}, up="7C")
    run(state, "play 7H")
    # 3♣ is of the current card's suit, not of 7♥'s: refused, state unchanged.
    assert_illegal(state, 1, "play 3C", "another 7 or a card of 7♥'s suit")
    assert_illegal(state, 1, "play KS", "another 7 or a card of 7♥'s suit")
    assert_illegal(state, 1, "draw", "middle of a play")
    run(state, "play 2H")
    assert_illegal(state, 1, "play 7D", "only another ♥")


def test_suit_cards_may_not_follow_two_rank_cards() -> None:
    state = new(2, {1: ["7H", "7D", "2H", "3D", "KS", "QS", "JS"]}, up="7C")
    run(state, "play 7H", "play 7D")
    assert_illegal(state, 1, "play 2H", "only another 7")
    assert_illegal(state, 1, "play 3D", "only another 7")


def test_suit_play_is_one_card_and_ends_by_itself_with_no_bonus() -> None:
    state = new(2, {1: ["3C", "4C", "7H", "KD", "KS", "QS", "JS"]}, up="7C")
    assert legal(state) == ["play 3C", "play 4C", "play 7H"]
    pile = list(state.pile)
    events = run(state, "play 3C")
    assert state.to_act() == (0,) and state.phase == PLAY
    assert state.current == C("3C")
    assert state.pile == pile and state.stuck == [[], []]
    assert [event.kind for event in events] == ["play"]
    assert_illegal(state, 1, "play 4C", "not your turn")


def test_first_card_must_match_rank_or_suit_and_done_needs_a_card() -> None:
    state = new(2, {1: ["3C", "7H", "KD", "KS", "QS", "JS", "10H"]}, up="7C")
    assert_illegal(state, 1, "play KD", "neither the rank nor the suit")
    assert_illegal(state, 1, "play 9D", "do not hold")
    assert_illegal(state, 1, "done", "not played a card")
    assert_illegal(state, 1, "give s0", "no bonus")
    assert_illegal(state, 0, "play 3C", "not your turn")


def test_drawing_is_refused_while_a_play_exists() -> None:
    state = new(2, {1: ["3S", "AH", "2H", "4H", "5H", "6H", "7H"]}, up="KS")
    assert legal(state) == ["play 3S"]
    assert_illegal(state, 1, "draw", "only when you cannot play, and you can play 3♠")


# -- drawing and stuck cards ---------------------------------------------------------------------
def four_draws() -> StuckState:
    """s1 sticks two bonus cards on s0 and s0 draws twice: the 4th stuck card goes to the hand."""
    return new(
        2,
        {
            1: ["2D", "2S", "2H", "KC", "QC", "JC", "10C"],
            0: ["3H", "4H", "5H", "6H", "7H", "8H", "9H"],
        },
        up="2C",
        pile=["AC", "3C", "4C", "5C", "6C"],
    )


def test_drawing_sticks_a_card_and_the_fourth_goes_to_the_hand() -> None:
    state = four_draws()
    run(state, "play 2D", "done", "give s0")
    assert card_texts(state.stuck[0]) == ["AC"]
    assert legal(state) == ["draw"]
    events = run(state, "draw")
    assert card_texts(state.stuck[0]) == ["AC", "3C"] and len(state.hands[0]) == 7
    assert [event.kind for event in events] == ["draw"]
    assert "3♣" not in events[0].text  # face down: nobody sees it
    run(state, "play 2S", "done", "give s0")
    assert card_texts(state.stuck[0]) == ["AC", "3C", "4C"]
    events = run(state, "draw")
    assert card_texts(state.stuck[0]) == ["AC", "3C", "4C"]
    assert "5C" in hand(state, 0) and len(state.hands[0]) == 8
    private = [event for event in events if event.visible_to is not None]
    assert [(event.text, event.visible_to) for event in private] == [
        ("You draw 5♣", frozenset({0}))
    ]
    # the count is a plural entry's: its reader's language says 3 stuck cards its way
    drew = next(event for event in events if event.visible_to is None)
    assert (
        drew.text == "{s0} cannot play and, with 3 stuck cards already, draws a card into the hand"
    )
    with speaking(compiled("pl", POLISH_COUNTS)):
        assert "mając już 3 karty" in drew.render(["Ann"])
    assert all("5♣" not in event.text for event in events if event.visible_to is None)
    assert state.to_act() == (1,)  # drawing ends the turn: the card is not played now


def test_done_and_draw_made_anew_act_like_the_listed_ones() -> None:
    # Carrying out a move tells done from draw by the phase: a Word equal to a listed one,
    # but not the same object (as a bot or a test may make), must do the same.
    state = four_draws()
    state.apply(1, PlayCard(C("2D")))
    state.apply(1, Word("done"))
    assert state.phase == GIVE
    state.apply(1, Give(0))
    state.apply(0, Word("draw"))
    assert card_texts(state.stuck[0]) == ["AC", "3C"] and state.to_act() == (1,)


def test_bonus_is_skipped_when_no_opponent_has_fewer_than_three() -> None:
    state = four_draws()
    run(state, "play 2D", "done", "give s0", "draw", "play 2S", "done", "give s0", "draw")
    pile = list(state.pile)
    events = run(state, "play 2H", "done")
    assert state.to_act() == (0,) and state.phase == PLAY
    assert state.pile == pile
    assert [event.kind for event in events] == ["play"]


def test_bonus_is_asked_and_forced_to_the_only_opponent_under_three() -> None:
    state = new(
        3,
        {1: ["5D", "5H"], 2: ["5S"], 0: ["AH", "2H", "3H", "4H", "6H", "7H", "8H"]},
        up="5C",
        pile=["9C", "9D", "9H", "9S"],
    )
    run(state, "play 5D", "done")
    assert legal(state) == ["give s0", "give s2"]
    run(state, "give s0", "play 5S", "done", "give s0", "draw")
    assert [len(cards) for cards in state.stuck] == [3, 0, 0]
    assert card_texts(state.stuck[0]) == ["9C", "9D", "9H"]
    run(state, "play 5H", "done")
    assert state.phase == GIVE and legal(state) == ["give s2"]
    assert_illegal(state, 1, "give s0", "already has 3 stuck cards")
    full = ("s{seat} already has {count} stuck card.", "s{seat} already has {count} stuck cards.")
    polish = compiled(
        "pl",
        {
            full: (
                "s{seat} ma {count} kartę.",
                "s{seat} ma {count} karty.",
                "s{seat} ma {count} kart.",
            )
        },
    )
    with speaking(polish):  # the form for 3 (2 to 4) of a language of three
        assert_illegal(state, 1, "give s0", "s0 ma 3 karty.")
    assert_illegal(state, 1, "give s1", "another player")
    assert_illegal(state, 1, "play 5D", "choose who gets the bonus")
    run(state, "give s2")
    assert card_texts(state.stuck[2]) == ["9S"]


def test_emptying_the_hand_picks_up_the_stuck_cards_after_the_bonus() -> None:
    state = new(
        2,
        {1: ["9H", "2H", "3H", "4H", "5H", "6H", "7H"], 0: ["KD", "9D"]},
        up="KS",
        pile=["AC", "AD", "AS"],
    )
    run(state, "draw", "play KD", "play 9D", "done", "give s1")
    assert card_texts(state.stuck[1]) == ["AC", "AD"]
    run(state, "play 9H", "play 2H", "play 3H", "play 4H", "play 5H", "play 6H")
    events = run(state, "play 7H")  # the last hand card: the play ends by itself
    assert state.phase == GIVE and legal(state) == ["give s0"]
    assert state.hands[1] == [] and card_texts(state.stuck[1]) == ["AC", "AD"]
    events = run(state, "give s0")
    assert card_texts(state.stuck[0]) == ["AS"]
    assert hand(state, 1) == ["AC", "AD"] and state.stuck[1] == []
    assert state.to_act() == (0,) and state.current == C("7H")
    assert [event.kind for event in events] == ["give", "pick_up", "pick_up"]
    assert events[1].visible_to is None and "A♣" not in events[1].text
    assert events[2].visible_to == frozenset({1}) and events[2].text == "You pick up A♣ A♦"
    assert state.view(1)["hand"] == ["AC", "AD"]
    assert "AC" not in json.dumps(state.view(0))


def test_a_suit_play_of_the_last_card_picks_up_the_stuck_cards_with_no_bonus() -> None:
    state = new(2, {1: ["3C"]}, up="7C", pile=["AH", "AD"])
    data = state.to_json()
    # Arrange: seat 1 holds only 3♣ and has the two top pile cards stuck in front of it.
    data["hands"][0] = [*data["hands"][0], *data["hands"][1][1:]]
    data["hands"][1] = ["3C"]
    data["stuck"][1] = ["AH", "AD"]
    data["pile"] = data["pile"][2:]
    restored = GAME.state_from_json(data)
    assert isinstance(restored, StuckState)
    state = restored
    check_cards(state)
    events = run(state, "play 3C")
    assert hand(state, 1) == ["AD", "AH"] and state.stuck == [[], []]
    assert [event.kind for event in events] == ["play", "pick_up", "pick_up"]
    assert state.to_act() == (0,) and state.current == C("3C")


def test_going_out_ends_the_round_at_once_with_no_bonus() -> None:
    deck = stack(2, {1: ["9H", "2H", "3H", "4H", "5H", "6H", "7H"]}, up="9C")
    second = [card.text for card in reversed(FULL_DECK)]
    state = GAME.new_state(2, 4, deck=[deck, second])
    assert isinstance(state, StuckState)
    run(state, "play 9H", "play 2H", "play 3H", "play 4H", "play 5H", "play 6H")
    assert legal(state) == ["play 7H", "done"]
    events = run(state, "play 7H")
    kinds = [event.kind for event in events]
    assert kinds == ["play", "out", "hand_end", "deal"]
    assert "give" not in kinds
    assert state.history == [[7, 0]] and state.went_out == [1]
    assert state.scores() == (7, 0)
    assert events[2].text == (
        "Round 1 scores: {s0} 7 (7 in hand + 0 stuck × 2); {s1} 0 (went out)"
        " · totals: {s0} 7, {s1} 0"
    )
    # Round 2: the deal passes left, the player left of the new dealer starts.
    assert state.round_index == 1 and state.dealer == 1 and state.to_act() == (0,)
    assert hand(state, 0) == sorted(second[0:14:2], key=C)
    assert state.current == C(second[14])


def test_a_stalled_round_ends_when_every_player_in_turn_cannot_play() -> None:
    state = new(
        2,
        {1: ["AH", "2H", "3H", "4H", "5H", "6H", "7H"], 0: ["AD", "2D", "3D", "4D", "5D", "6D"]},
        up="KS",
    )
    run(state, "draw")
    assert state.idle == 1 and state.round_index == 0
    events = run(state, "draw")
    assert [event.kind for event in events] == ["draw", "stall", "hand_end", "deal"]
    assert state.history == [[9, 9]] and state.went_out == [None]
    assert state.round_index == 1 and state.idle == 0


def test_the_stall_count_resets_when_a_card_is_played() -> None:
    state = new(
        3,
        {
            1: ["AH", "2H", "3H", "4H", "5H", "6H", "7H"],
            2: ["AD", "2D", "3D", "4D", "5D", "6D", "7D"],
            0: ["8S"],
        },
        up="KS",
    )
    run(state, "draw", "draw")
    assert state.idle == 2
    run(state, "play 8S")
    assert state.idle == 0
    run(state, "draw", "draw")
    assert state.idle == 2 and state.round_index == 0 and state.to_act() == (0,)


def test_the_reshuffle_keeps_the_current_card() -> None:
    others = ["AD", "AH", "AS", "2D", "2H", "2S"]  # s5: no club, no 9
    state = new(
        6,
        {
            1: ["KH", "9S"],
            2: ["KD", "9D"],
            3: ["KC", "5C", "9H"],
            4: ["5D", "9C"],
            5: ["5H", *others],
            0: ["5S"],
        },
        up="KS",
        seed=5,
    )
    run(state, "play KH", "done", "give s2", "play KD", "done", "give s3")
    run(state, "play KC", "play 5C", "done", "give s4", "play 5D", "done", "give s5")
    run(state, "play 5H", "done", "give s0", "play 5S", "done", "give s1")
    run(state, "play 9S", "play 9D", "done", "give s3", "play 9H", "done", "give s4")
    run(state, "play 9C", "done", "give s5")
    assert state.pile == [] and state.current == C("9C")
    discarded = list(state.discard[:-1])
    assert card_texts(discarded) == [
        "KS",
        "KH",
        "KD",
        "KC",
        "5C",
        "5D",
        "5H",
        "5S",
        "9S",
        "9D",
        "9H",
    ]
    assert legal(state) == ["draw"]
    events = run(state, "draw")
    expected = list(discarded)
    make_rng(5, "reshuffle", 0, 0).shuffle(expected)
    assert card_texts(state.discard) == ["9C"]
    assert state.stuck[5][-1] == expected[0] and state.pile == expected[1:]
    assert [event.kind for event in events] == ["reshuffle", "draw"]
    assert "9♣ stays up" in events[0].text
    assert state.reshuffles == 1
    check_cards(state)


def moved_to_hand(state: StuckState, seat: int, cards: Sequence[Card]) -> StuckState:
    """The same position with ``cards`` moved from the pile into ``seat``'s hand (a draw
    pile that ran out, with the discard already reshuffled into it)."""
    data = state.to_json()
    data["hands"][seat] = [*data["hands"][seat], *card_texts(cards)]
    data["pile"] = [text for text in data["pile"] if C(text) not in cards]
    restored = GAME.state_from_json(data)
    assert isinstance(restored, StuckState)
    check_cards(restored)
    return restored


def test_a_player_who_must_draw_passes_when_there_is_nothing_to_draw() -> None:
    state = new(2, {1: ["AH", "2H", "3H", "4H", "5H", "6H", "7H"], 0: ["KD"]}, up="KS")
    state = moved_to_hand(state, 0, state.pile)
    assert legal(state) == ["draw"]
    events = run(state, "draw")
    assert state.stuck == [[], []] and len(state.hands[1]) == 7
    assert [event.kind for event in events] == ["pass"]
    assert state.idle == 1 and state.to_act() == (0,)


def test_a_bonus_from_an_empty_pile_reshuffles_the_card_under_the_current_one() -> None:
    # A play always leaves the old current card under the new one, so a bonus can always be
    # drawn: the "nothing to draw" skip guards bonus_targets but no play can reach it.
    state = new(2, {1: ["KH", "2H", "3H", "4H", "5H", "6H", "7H"]}, up="KS")
    state = moved_to_hand(state, 0, state.pile)
    run(state, "play KH", "done")
    assert legal(state) == ["give s0"]
    events = run(state, "give s0")
    assert card_texts(state.stuck[0]) == ["KS"] and card_texts(state.discard) == ["KH"]
    assert state.pile == []
    assert [event.kind for event in events] == ["reshuffle", "give"]


# -- the end of the game ----------------------------------------------------------------------
def test_one_round_per_player_and_the_lowest_total_wins() -> None:
    round_1 = stack(
        2,
        {1: ["AH", "2H", "3H", "4H", "5H", "6H", "7H"], 0: ["AD", "2D", "3D", "4D", "5D", "6D"]},
        up="KS",
    )
    # Round 2: seat 1 deals, so seat 0 gets the first card and starts; it goes out at once.
    hands = {0: ["9H", "2H", "3H", "4H", "5H", "6H", "7H"]}
    deal = stack(2, {1: hands[0]}, up="9C")  # with seat 0 dealing, seat 1 is served first
    state = GAME.new_state(2, 3, deck=[round_1, deal])
    assert isinstance(state, StuckState)
    run(state, "draw", "draw")
    assert state.scores() == (9, 9) and not state.is_over and state.winners() == ()
    assert hand(state, 0) == sorted(hands[0], key=C)
    events = run(state, *(f"play {card}" for card in hands[0]))
    assert state.is_over and state.to_act() == ()
    assert state.scores() == (9, 16) and state.winners() == (0,)
    assert (events[-1].text, events[-1].kind) == ("{s0} wins with 9 points", "game_end")
    # The game went out in the middle of a play: the saved final state reads back.
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json() and restored.is_over
    assert state.public_view()["winners"] == [0]


def test_ties_share_the_win() -> None:
    stalled = stack(
        2,
        {1: ["AH", "2H", "3H", "4H", "5H", "6H", "7H"], 0: ["AD", "2D", "3D", "4D", "5D", "6D"]},
        up="KS",
    )
    state = GAME.new_state(2, 3, deck=[stalled, stalled])
    assert isinstance(state, StuckState)
    run(state, "draw", "draw", "draw", "draw")
    assert state.is_over and state.scores() == (18, 18) and state.winners() == (0, 1)
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(0, DRAW)


# -- action text, views, saving --------------------------------------------------------------
def test_action_text_round_trips_and_parse_errors() -> None:
    for action in (PlayCard(C("10D")), DONE, DRAW, Give(2)):
        assert GAME.parse_action(action.text) == action
        assert action.path
    assert GAME.parse_action("PLAY 7h") == PlayCard(C("7H"))
    assert GAME.parse_action(" Give S3 ") == Give(3)
    assert GAME.parse_action("DONE") == DONE
    for bad in ("", "play", "play 1X", "play 7H 8H", "give", "give 2", "give s9", "take", "draw 2"):
        with pytest.raises(ActionParseError):
            GAME.parse_action(bad)


@given(st.sampled_from(FULL_DECK), st.integers(0, 5))
def test_every_card_and_seat_reads_back(card: Card, seat: int) -> None:
    assert GAME.parse_action(PlayCard(card).text.lower()) == PlayCard(card)
    assert GAME.parse_action(Give(seat).text.upper()) == Give(seat)


def test_views_hide_stuck_cards_even_from_their_owner() -> None:
    state = four_draws()
    run(state, "play 2D", "done", "give s0", "draw")
    for seat in (0, 1):
        shown = json.dumps(state.view(seat))
        assert '"AC"' not in shown and '"3C"' not in shown
    view = state.view(0)
    assert view["stuck"] == [2, 0] and view["hand"] == hand(state, 0)
    assert "hand" not in state.public_view()
    zones = {zone.name: zone for zone in state.zones()}
    assert zones["stuck s0"].seen_by == frozenset() and zones["discard"].seen_by is None
    lines = GAME.describe(state.view(1))
    assert lines[1] == "Current card: 2♦"
    assert "{s0} 7 in hand + 2 stuck" in lines[2]
    assert lines[-1].startswith("Your hand: ")


def test_describe_says_what_may_follow() -> None:
    state = new(2, {1: ["7H", "7D", "2H", "3D", "KS", "QS", "JS"]}, up="7C")
    run(state, "play 7H")
    assert "Next: another 7, a heart (♥), or done." in GAME.describe(state.view(1))
    run(state, "play 2H")
    assert "Next: another heart (♥), or done." in GAME.describe(state.view(1))


@pytest.mark.parametrize("moves", [("play 7H",), ("play 7H", "play 7D", "done")])
def test_json_round_trip_in_the_middle_of_a_turn(moves: tuple[str, ...]) -> None:
    state = new(2, {1: ["7H", "7D", "2H", "3D", "KS", "QS", "JS"]}, up="7C")
    run(state, *moves)
    data = json.loads(json.dumps(state.to_json()))
    restored = GAME.state_from_json(data)
    assert restored.to_json() == state.to_json()
    assert restored.legal_actions(1) == state.legal_actions(1)
    data["phase"] = "bidding"
    with pytest.raises(SavedStateError):
        GAME.state_from_json(data)
    del data["pile"]
    with pytest.raises(SavedStateError):
        GAME.state_from_json(data)


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record: dict[str, Any] = {
        "game": "stuck",
        "players": 2,
        "seed": 1,
        "deck": stack(2, {1: ["7H", "7D", "2H", "9H", "3C", "KS", "QS"]}, up="7C"),
        "actions": [[1, "play 7H"], [1, "play 2h"]],
    }
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "over": False,
        "scores": [0, 0],
        "winners": [],
        "to_act": [1],
        "legal": {"1": ["play 9H", "done"]},
    }
    record["actions"].append([1, "play 7D"])
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    assert json.loads(capsys.readouterr().out.splitlines()[0])["index"] == 2


# -- the shapes of a play ----------------------------------------------------------------------
def is_play(cards: Sequence[Card], current: Card) -> bool:
    """Whether ``cards`` played in this order on ``current`` make a play of one of the shapes
    of §3, read as whole plays: a rank play (one or more of the current rank), a rank card
    then cards of that card's suit, or a suit play (one card of the current suit)."""
    first = cards[0]
    if first.rank == current.rank:
        rank_play = all(card.rank == current.rank for card in cards)
        then_suit = all(card.suit == first.suit and card.rank != first.rank for card in cards[1:])
        return rank_play or then_suit
    return len(cards) == 1 and first.suit == current.suit


# three ranks: runs of one rank and of one suit both come up often
distinct_cards = st.lists(
    st.sampled_from([card for card in FULL_DECK if card.rank <= 3]),
    min_size=2,
    max_size=6,
    unique=True,
)


@given(cards=distinct_cards)
def test_a_card_may_start_a_play_when_it_makes_a_play_on_its_own(cards: list[Card]) -> None:
    current, card = cards[0], cards[1]
    assert may_start(card, current) == is_play([card], current)


@given(cards=distinct_cards, current_suit=st.integers(0, 3))
def test_a_card_may_follow_when_the_cards_so_far_and_it_make_a_play(
    cards: list[Card], current_suit: int
) -> None:
    """§4 (card by card) agrees with §3 (whole plays): after cards that make a rank play or a
    rank-then-suit play so far, a card may follow exactly when the longer run is one too."""
    *run, card = cards
    current = Card(run[0].rank, current_suit)
    assume(current not in cards and is_play(run, current))
    assert may_follow(card, run) == is_play([*run, card], current)


# -- random play and the AI -------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6), st.lists(st.integers(0, 30), max_size=120))
@example(players=2, seed=7638, picks=[0] * 15)  # the game ends on a stall in its last round
def test_random_moves_keep_the_rules(players: int, seed: int, picks: list[int]) -> None:
    state = GAME.new_state(players, seed)
    assert isinstance(state, StuckState)
    for pick in picks:
        if state.is_over:
            break
        (seat,) = state.to_act()
        options = state.legal_actions(seat)
        current = state.current
        if state.phase == FOLLOW:
            first = state.run[0]
            pure = all(card.rank == first.rank for card in state.run)
            for action in options:
                if isinstance(action, PlayCard):
                    card = action.card
                    if pure and len(state.run) == 1:
                        assert card.rank == first.rank or card.suit == first.suit
                    elif pure:
                        assert card.rank == first.rank
                    else:
                        assert card.suit == first.suit
            assert options[-1] == DONE
        elif state.phase == PLAY:
            playable = [
                c for c in state.hands[seat] if current.rank == c.rank or current.suit == c.suit
            ]
            assert (options == (DRAW,)) == (not playable)
        state.apply(seat, options[pick % len(options)])
        assert all(len(cards) <= 3 for cards in state.stuck)
        assert state.is_over or state.idle < players  # a final stall ends the game at the count
        check_cards(state)
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.to_json() == state.to_json()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end_quickly(players: int) -> None:
    for seed in range(5):
        state = GAME.new_state(players, seed)
        agents = [engine.ai.agent(GAME, "random") for _ in range(players)]
        assert play_out(state, agents, seed, max_steps=5000) < 5000
        assert isinstance(state, StuckState)
        assert state.is_over and len(state.history) == players


def test_the_ai_goes_out_when_it_can() -> None:
    state = new(2, {1: ["9H", "2H", "3H", "4H", "5H", "6H", "8H"]}, up="9C")
    agent = StuckAgent()
    rng = random.Random(0)
    while state.round_index == 0:
        (seat,) = state.to_act()
        assert seat == 1
        action = agent.choose(state.agent_view(1), state.legal_actions(1), rng, False)
        assert action is not None and action != DONE
        state.apply(1, action)
    assert state.went_out == [1]


def test_the_ai_gives_the_bonus_to_the_opponent_closest_to_going_out() -> None:
    state = new(3, {1: ["5D", "5H"]}, up="5C")
    run(state, "play 5D", "done")
    view = state.view(1)
    agent = StuckAgent()
    # Level: the next player to act.
    assert agent.choose(view, state.legal_actions(1), random.Random(0), False) == Give(2)
    view["hand_sizes"][0] = 3  # now seat 0 is closer to going out
    assert agent.choose(view, state.legal_actions(1), random.Random(0), False) == Give(0)


@pytest.mark.slow
def test_the_ai_beats_random_agents() -> None:
    wins = 0.0
    games = 300
    for seed in range(games):
        ai_seat = seed % 3
        agents = [engine.ai.agent(GAME, "ai" if seat == ai_seat else "random") for seat in range(3)]
        state = GAME.new_state(3, seed)
        play_out(state, agents, seed)
        if ai_seat in state.winners():
            wins += 1 / len(state.winners())
    assert wins / games > 0.4  # a fair share is 1/3


def test_the_ai_remembers_what_a_player_lacked_when_drawing() -> None:
    state = four_draws()
    run(state, "play 2D", "done", "give s0", "draw")
    lacks = state.agent_view(1)["lacks"]
    assert lacks[0] == {"suits": [1], "ranks": [2]}  # s0 drew on 2♦: no diamond, no 2
    assert lacks[1] == {"suits": [], "ranks": []}
    run(state, "play 2S", "done", "give s0", "draw")  # the 4th goes to the hand: forgotten
    assert state.agent_view(1)["lacks"][0] == {"suits": [], "ranks": []}
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.agent_view(1) == state.agent_view(1)
