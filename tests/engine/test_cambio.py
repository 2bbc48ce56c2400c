"""Scripted stacked-deck tests of cambio: one or more per rule of docs/rules/cambio.md and per case
of its issue. Decks are built by ``deck_for``: seat 0 deals, so cards go to seats 1, 2, …, 0 in
turn, position A first; the named stock cards follow, then the rest of the deck in card order.
"""

from __future__ import annotations

import ast
import inspect
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.ai
import engine.games.cambio as cambio
from engine.ai.cambio import standing
from engine.cards import FULL_DECK, Card
from engine.cli import main
from engine.core import Action, Event, StateAgent, make_rng
from engine.errors import ActionParseError, SetupError
from engine.games.cambio import (
    CAMBIO,
    DISCARD,
    DRAW,
    GAME,
    KEEP,
    SKIP,
    SWAP,
    BlindSwap,
    CambioState,
    Give,
    KingPeek,
    Look,
    Peek,
    Replace,
    Slot,
    Snap,
    Spy,
    label_index,
    label_of,
    points,
    power_of,
)
from engine.runner import agent_move
from engine.words import speaking
from tests.engine import helpers
from tests.engine.helpers import act, cards_in, event_texts, legal, refused
from tests.engine.test_messages import POLISH_COUNTS, compiled

C = Card.parse


def deck_for(hands: Sequence[Sequence[str]], stock: Sequence[str] = ()) -> list[str]:
    """A full deck dealing ``hands[seat]`` to positions A B C D (seat 0 deals), then ``stock``
    on top of the stock."""
    players = len(hands)
    order = [(offset + 1) % players for offset in range(players)]
    dealt = [hands[order[index % players]][index // players] for index in range(4 * players)]
    named = [*dealt, *stock]
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [card.text for card in FULL_DECK if card.text not in named]
    return [*named, *rest]


def new(hands: Sequence[Sequence[str]], stock: Sequence[str] = (), **options: Any) -> CambioState:
    """A stacked game at its opening look."""
    return helpers.new(GAME, CambioState, len(hands), 7, deck_for(hands, stock), options)


def look_all(state: CambioState, text: str = "look A B") -> None:
    """Every seat makes the same opening look."""
    for seat in range(state.players):
        act(state, seat, text)


def hand(state: CambioState, seat: int) -> dict[str, str]:
    return {label: slot.card.text for label, slot in state.hands[seat].items()}


def seen_by(state: CambioState, seat: int, label: str) -> frozenset[int] | None:
    zones = {zone.name: zone for zone in state.zones()}
    return zones[f"s{seat}.{label}"].seen_by


# Two players: s1 (first to play) holds 2C 3C 4C 5C, s0 holds 2D 3D 4D 5D.
TWO = [["2D", "3D", "4D", "5D"], ["2C", "3C", "4C", "5C"]]


def two(stock: Sequence[str] = (), **options: Any) -> CambioState:
    state = new(TWO, stock, **options)
    look_all(state)
    return state


# -- points and powers -------------------------------------------------------------------------


def test_card_points() -> None:
    assert [points(C(t)) for t in ("AS", "2C", "9D", "10H", "JC", "QD", "KS", "KC")] == [
        0,
        2,
        9,
        10,
        10,
        10,
        10,
        10,
    ]
    assert points(C("KH")) == points(C("KD")) == -1


def test_powers_by_rank() -> None:
    assert [power_of(C(t)) for t in ("AS", "6H", "7C", "8D", "9S", "10H", "JC", "QD")] == [
        None,
        None,
        "peek",
        "peek",
        "spy",
        "spy",
        "swap",
        "swap",
    ]
    assert power_of(C("KS")) == power_of(C("KC")) == "king"
    assert power_of(C("KH")) is None and power_of(C("KD")) is None


def test_labels() -> None:
    assert [label_of(i) for i in (0, 3, 4, 24, 25, 26, 50)] == [
        "A",
        "D",
        "E",
        "Y",
        "ZA",
        "ZB",
        "ZZA",
    ]
    assert all(label_index(label_of(i)) == i for i in range(200))
    for index in range(200):
        with pytest.raises(ActionParseError):
            Card.parse(label_of(index))


# -- the deal and the opening look ------------------------------------------------------------


def test_deal_goes_to_positions_in_the_order_received() -> None:
    state = new(TWO, ["9H", "8H"])
    assert state.dealer == 0 and state.turn == 1
    assert hand(state, 1) == {"A": "2C", "B": "3C", "C": "4C", "D": "5C"}
    assert hand(state, 0) == {"A": "2D", "B": "3D", "C": "4D", "D": "5D"}
    assert state.stock[:2] == [C("9H"), C("8H")] and len(state.stock) == 44
    assert state.discard == []
    # Dealing goes one card at a time clockwise from the dealer's left.
    raw = GAME.new_state(3, 1, deck=[c.text for c in FULL_DECK])
    assert isinstance(raw, CambioState)
    assert hand(raw, 1)["A"] == "AC" and hand(raw, 2)["A"] == "AD" and hand(raw, 0)["A"] == "AH"
    assert hand(raw, 1)["B"] == "AS"


def test_opening_look_is_simultaneous_and_private() -> None:
    state = new(TWO)
    assert state.to_act() == (0, 1) and state.waiting_for() == (0, 1)
    assert legal(state, 0) == [
        "look A B",
        "look A C",
        "look A D",
        "look B C",
        "look B D",
        "look C D",
    ]
    assert state.timeout_action(1) == Look("C", "D")
    events = act(state, 1, "look d c")
    assert event_texts(events) == ["{s1} looked at their cards C and D"]
    private = [e for e in events if e.visible_to is not None]
    assert [(e.text, e.visible_to) for e in private] == [
        ("You see your card C: 4♣, your card D: 5♣", frozenset({1}))
    ]
    assert state.to_act() == (0,)
    assert "already looked" in refused(state, 1, "look A B")
    assert seen_by(state, 1, "C") == frozenset({1}) and seen_by(state, 1, "A") == frozenset()
    view = state.view(1)
    assert view["just_seen"] == [[1, "C", "4C"], [1, "D", "5C"]]
    assert "known" not in view  # memory_aid off: no remembered values
    assert not set(cards_in(state.view(0))) and not set(cards_in(state.public_view()))
    act(state, 0, "look A B")
    assert state.phase == "turn" and state.to_act() == (1,) and legal(state, 1) == ["draw"]
    assert state.timeout_action(1) is None


def test_look_is_once_per_round_and_needs_two_different_own_positions() -> None:
    state = new(TWO)
    with pytest.raises(ActionParseError):
        GAME.parse_action("look A A")
    assert "First look" in refused(state, 1, "draw")
    assert refused(state, 1, "look A E")
    look_all(state)
    assert refused(state, 0, "look C D")


def test_look_knowledge_is_shown_after_the_next_action_only_with_memory_aid() -> None:
    plain = two(["9H"])
    aided = two(["9H"], memory_aid=True)
    for state in (plain, aided):
        act(state, 1, "draw")
    assert plain.view(1)["just_seen"] == [] and "known" not in plain.view(1)
    assert aided.view(1)["known"][1] == {"A": "2C", "B": "3C"}
    assert aided.view(1)["known"][0] == {}
    assert plain.agent_view(1)["known"] == aided.view(1)["known"]


# -- a turn -------------------------------------------------------------------------------------


def test_draw_is_seen_only_by_the_drawer() -> None:
    state = two(["9H", "8H"])
    events = act(state, 1, "draw")
    assert event_texts(events) == ["{s1} drew a card"]
    assert [e.text for e in events if e.visible_to == frozenset({1})] == ["You drew 9♥"]
    assert state.view(1)["drawn"] == "9H" and state.view(0)["drawn"] is None
    assert "9H" not in json.dumps(state.public_view())
    zones = {zone.name: zone for zone in state.zones()}
    assert zones["drawn"].cards == (C("9H"),) and zones["drawn"].seen_by == frozenset({1})
    assert legal(state, 1) == ["replace A", "replace B", "replace C", "replace D", "discard"]


def test_replace_puts_the_old_card_on_the_discard_without_power() -> None:
    # The replaced card is a jack: it reaches the discard from the hand, so no power.
    state = new([["2D", "3D", "4D", "5D"], ["JC", "3C", "4C", "5C"]], ["9H", "8H"])
    look_all(state)
    act(state, 1, "draw")
    events = act(state, 1, "replace A")
    assert event_texts(events) == [
        "{s1} put the drawn card in place of their card A; J♣ goes to the discard"
    ]
    assert hand(state, 1)["A"] == "9H" and seen_by(state, 1, "A") == frozenset({1})
    assert state.discard == [C("JC")]
    assert state.phase == "turn" and state.turn == 0 and state.window
    assert legal(state, 0)[0] == "draw"


def test_power_only_for_a_card_discarded_straight_from_the_stock() -> None:
    state = two(["JH", "8H"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert state.phase == "power"
    assert legal(state, 1)[0] == "swap A s0.A" and legal(state, 1)[-1] == "skip"
    assert len(legal(state, 1)) == 4 * 4 + 1


def test_peek_own_card_with_7_or_8() -> None:
    state = two(["7H"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert legal(state, 1) == ["peek A", "peek B", "peek C", "peek D", "skip"]
    events = act(state, 1, "peek D")
    assert event_texts(events) == ["{s1} looked at their card D"]
    assert [e.text for e in events if e.visible_to == frozenset({1})] == ["Your card D is 5♣"]
    assert seen_by(state, 1, "D") == frozenset({1})
    assert state.view(1)["just_seen"] == [[1, "D", "5C"]]
    assert state.turn == 0 and state.window


def test_spy_on_another_players_card_with_9_or_10() -> None:
    state = two(["10H"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert legal(state, 1) == ["spy s0.A", "spy s0.B", "spy s0.C", "spy s0.D", "skip"]
    events = act(state, 1, "spy s0.C")
    assert event_texts(events) == ["{s1} looked at {s0}'s card C"]
    assert [e.text for e in events if e.visible_to == frozenset({1})] == ["{s0}'s card C is 4♦"]
    assert seen_by(state, 0, "C") == frozenset({1})


def test_blind_swap_with_j_or_q_moves_cards_and_knowledge_unseen() -> None:
    state = two(["QH"], memory_aid=True)
    act(state, 1, "draw")
    act(state, 1, "discard")
    events = act(state, 1, "swap A s0.D")
    assert event_texts(events) == ["{s1} swapped their card A with {s0}'s card D, unseen"]
    assert hand(state, 1)["A"] == "5D" and hand(state, 0)["D"] == "2C"
    # s1 knew its A (2♣): it still knows that card, now at s0's D; nobody knows s1's new A.
    assert seen_by(state, 0, "D") == frozenset({1}) and seen_by(state, 1, "A") == frozenset()
    assert state.view(1)["known"][0] == {"D": "2C"}
    assert state.view(0)["known"][0] == {"A": "2D", "B": "3D"}


def test_black_king_look_and_swap() -> None:
    state = two(["KS"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert legal(state, 1)[0] == "peek A s0.A" and legal(state, 1)[-1] == "skip"
    events = act(state, 1, "peek C s0.B")
    assert event_texts(events) == ["{s1} looked at their card C and {s0}'s card B"]
    assert [e.text for e in events if e.visible_to == frozenset({1})] == [
        "Your card C is 4♣; {s0}'s card B is 3♦"
    ]
    assert state.phase == "decide" and legal(state, 1) == ["swap", "keep"]
    assert state.view(1)["just_seen"] == [[1, "C", "4C"], [0, "B", "3D"]]
    assert state.view(1)["pending"] == ["C", 0, "B"]
    events = act(state, 1, "swap")
    assert event_texts(events) == ["{s1} swapped their card C with {s0}'s card B"]
    assert hand(state, 1)["C"] == "3D" and hand(state, 0)["B"] == "4C"
    # s0 had looked at its B (3♦): it still knows that card, now in s1's C.
    assert seen_by(state, 1, "C") == frozenset({0, 1})
    assert seen_by(state, 0, "B") == frozenset({1})


def test_black_king_declined_swap() -> None:
    state = two(["KC"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    act(state, 1, "peek A s0.D")
    events = act(state, 1, "keep")
    assert event_texts(events) == ["{s1} kept the cards where they were"]
    assert hand(state, 1)["A"] == "2C" and hand(state, 0)["D"] == "5D"
    assert seen_by(state, 0, "D") == frozenset({1})
    assert state.turn == 0 and state.window


@pytest.mark.parametrize("card", ["KH", "KD", "AS", "6S"])
def test_red_kings_and_a_to_6_give_no_power(card: str) -> None:
    state = two([card])
    act(state, 1, "draw")
    events = act(state, 1, "discard")
    assert event_texts(events) == [f"{{s1}} discarded {C(card).pretty}"]
    assert state.phase == "turn" and state.turn == 0 and state.window


def test_skip_declines_a_power() -> None:
    state = two(["9S"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    events = act(state, 1, "skip")
    assert event_texts(events) == ["{s1} did not use the power"]
    assert all(1 not in slot.known for slot in state.hands[0].values())
    assert state.turn == 0


def test_power_without_a_target_is_not_offered() -> None:
    # s1 has no cards left: a drawn 7 (look at one of your own) offers no power.
    state = two(["7H"])
    state.hands[1] = {}
    state.discard.extend(C(t) for t in ("2C", "3C", "4C", "5C"))
    act(state, 1, "draw")
    assert legal(state, 1) == ["discard"]
    act(state, 1, "discard")
    assert state.phase == "turn" and state.turn == 0


# -- Cambio and the last turns ------------------------------------------------------------------


def test_cambio_from_the_first_players_second_turn_and_the_last_turns() -> None:
    state = new([["2D", "3D", "4D", "5D"], ["2C", "3C", "4C", "5C"], ["2H", "3H", "4H", "5H"]])
    look_all(state)
    order = [1, 2, 0]
    for seat in order:
        assert legal(state, seat)[:2] == ["draw"] or "cambio" not in legal(state, seat)
        assert "cambio" not in legal(state, seat)
        act(state, seat, "draw")
        act(state, seat, "discard")
        if state.phase == "power":
            act(state, seat, "skip")
    assert "cambio" in legal(state, 1)
    events = act(state, 1, "cambio")
    assert event_texts(events) == ["{s1} calls Cambio! Everyone else has one more turn."]
    assert state.caller == 1 and state.turn == 2 and not state.window
    assert "cambio" not in legal(state, 2)
    # The caller's cards are locked and the caller snaps no more.
    act(state, 2, "draw")
    act(state, 2, "discard")
    if state.phase == "power":
        act(state, 2, "skip")
    assert state.turn == 0 and state.window
    assert 1 not in state.to_act()
    assert not [text for text in legal(state, 0) if "s1." in text]
    assert "no longer" not in refused(state, 1, "snap A")
    assert "called Cambio" in refused(state, 1, "snap A")
    assert "locked" in refused(state, 0, "snap s1.A")
    # The last final turn: no snap window; the round ends and the next one is dealt.
    act(state, 0, "draw")
    events = act(state, 0, "discard")
    if state.phase == "power":
        events = act(state, 0, "skip")
    assert any(event.kind == "hand_end" for event in events)
    assert state.round_index == 1 and state.phase == "look" and state.dealer == 1


def test_cambio_not_before_everyone_had_a_turn() -> None:
    state = two(["2S", "3S"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert "cambio" not in legal(state, 0)
    assert "once everybody has had a turn" in refused(state, 0, "cambio")
    act(state, 0, "draw")
    act(state, 0, "discard")
    assert legal(state, 1)[:2] == ["draw", "cambio"]


def test_callers_locked_cards_cannot_be_looked_at_or_swapped() -> None:
    state = new(
        [["2D", "3D", "4D", "5D"], ["2C", "3C", "4C", "5C"], ["2H", "3H", "4H", "5H"]],
        ["6S", "6H", "6C", "QS", "9S"],
    )
    look_all(state)
    for seat in (1, 2, 0):
        act(state, seat, "draw")
        act(state, seat, "discard")
    act(state, 1, "cambio")
    act(state, 2, "draw")
    act(state, 2, "discard")
    assert state.phase == "power"
    assert all("s1." not in text for text in legal(state, 2))
    assert "locked" in refused(state, 2, "swap A s1.A")
    act(state, 2, "swap A s0.A")
    act(state, 0, "draw")
    act(state, 0, "discard")
    assert all("s1." not in text for text in legal(state, 0))
    assert legal(state, 0)[0] == "spy s2.A"


def test_no_power_when_only_the_locked_caller_could_be_targeted() -> None:
    state = two(["6S", "6H", "9S"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    act(state, 0, "draw")
    act(state, 0, "discard")
    act(state, 1, "cambio")
    act(state, 0, "draw")
    events = act(state, 0, "discard")
    assert any(event.kind == "hand_end" for event in events)  # no power, no window: the end


# -- snapping ----------------------------------------------------------------------------------


def test_who_may_snap_and_who_the_game_waits_for() -> None:
    state = new(
        [["2D", "3D", "4D", "5D"], ["2C", "3C", "4C", "5C"], ["2H", "3H", "4H", "5H"]], ["4S"]
    )
    look_all(state)
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert state.to_act() == (0, 1, 2) and state.waiting_for() == (2,)
    view = state.public_view()
    assert view["snap_window"] is True and view["may_snap"] == [0, 1, 2]
    assert view["snap_seconds"] == 5
    assert legal(state, 2)[:5] == ["draw", "snap A", "snap B", "snap C", "snap D"]
    assert legal(state, 0) == [
        "snap A",
        "snap B",
        "snap C",
        "snap D",
        *(f"snap s{seat}.{label}" for seat in (1, 2) for label in "ABCD"),
    ]
    # The next player's draw closes the window.
    act(state, 2, "draw")
    assert state.to_act() == (2,)
    assert "closed" in refused(state, 0, "snap C")


def test_correct_own_snap() -> None:
    state = two(["4S"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    events = act(state, 0, "snap C")
    assert event_texts(events) == ["{s0} snapped their card C: 4♦ — correct!"]
    assert hand(state, 0) == {"A": "2D", "B": "3D", "D": "5D"}
    assert state.discard[-1] == C("4D") and not state.window
    assert state.to_act() == (0,) and legal(state, 0) == ["draw"]


def test_correct_snap_of_another_players_card_with_the_give_back() -> None:
    state = two(["4S"], memory_aid=True)
    act(state, 1, "draw")
    act(state, 1, "discard")
    # s1 snaps s0's C (4♦, a guess that happens to be right) and gives its A back.
    events = act(state, 1, "snap s0.C")
    assert event_texts(events) == [
        "{s1} snapped {s0}'s card C: 4♦ — correct!",
        "{s1} chooses a card to give {s0}",
    ]
    assert state.phase == "give" and state.to_act() == (1,) and state.waiting_for() == (1,)
    assert legal(state, 1) == ["give A", "give B", "give C", "give D"]
    assert "snapper is choosing" in refused(state, 0, "draw")
    events = act(state, 1, "give A")
    assert event_texts(events) == ["{s1} moved their card A into {s0}'s empty card C"]
    assert hand(state, 0) == {"A": "2D", "B": "3D", "C": "2C", "D": "5D"}
    assert list(hand(state, 0)) == ["A", "B", "C", "D"]
    assert hand(state, 1) == {"B": "3C", "C": "4C", "D": "5C"}
    # s1 had looked at its A: it knows the card in s0's C now.
    assert seen_by(state, 0, "C") == frozenset({1})
    assert state.view(1)["known"][0] == {"C": "2C"}
    assert state.phase == "turn" and state.to_act() == (0,) and legal(state, 0) == ["draw"]


def test_wrong_snap_reveals_the_card_and_gives_a_penalty_card_in_e() -> None:
    state = two(["4S", "9H"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    events = act(state, 1, "snap s0.A")
    assert event_texts(events) == [
        "{s1} snapped {s0}'s card A: 2♦ does not match 4♠ — wrong!",
        "{s1} takes a penalty card, unseen: their new card E",
    ]
    assert hand(state, 0)["A"] == "2D" and seen_by(state, 0, "A") is None
    # Everyone has just seen it (s0 still has its opening look on show: it has not acted yet).
    assert state.view(1)["just_seen"] == [[0, "A", "2D"]]
    assert state.view(0)["just_seen"] == [[0, "A", "2D"], [0, "B", "3D"]]
    assert hand(state, 1)["E"] == "9H" and seen_by(state, 1, "E") == frozenset()
    assert state.window and state.to_act() == (0,)  # s1 tried; s0 may still snap or draw
    assert "already tried" in refused(state, 1, "snap s0.C")
    assert "9H" not in json.dumps(state.view(1))


def test_second_snap_on_a_closed_window_is_refused_without_penalty() -> None:
    state = new(
        [["2D", "3D", "4D", "5D"], ["2C", "3C", "4C", "5C"], ["2H", "4H", "3H", "5H"]], ["4S"]
    )
    look_all(state)
    act(state, 1, "draw")
    act(state, 1, "discard")
    act(state, 0, "snap C")
    stock = len(state.stock)
    assert "closed" in refused(state, 2, "snap B")
    assert len(state.stock) == stock and "E" not in hand(state, 2)


def test_a_snapped_card_opens_no_new_window() -> None:
    state = new(
        [["2D", "3D", "4D", "5D"], ["2C", "3C", "4C", "5C"], ["2H", "4H", "3H", "5H"]], ["4S"]
    )
    look_all(state)
    act(state, 1, "draw")
    act(state, 1, "discard")
    act(state, 2, "snap B")  # 4♥ on 4♠
    assert state.discard[-2:] == [C("4S"), C("4H")]
    assert not state.window and state.to_act() == (2,)
    assert legal(state, 2) == ["draw"]


def test_new_positions_take_never_used_letters() -> None:
    state = two(["4S", "9H", "6S", "9C", "10S", "8C"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    act(state, 1, "snap s0.A")  # wrong: E
    act(state, 0, "snap D")  # wrong: s0 takes 6♠ into E
    assert hand(state, 0)["E"] == "6S"
    act(state, 0, "draw")  # 9♣
    act(state, 0, "discard")
    act(state, 0, "skip")
    act(state, 1, "snap E")  # s1's E is 9♥: correct, E is emptied
    assert "E" not in hand(state, 1)
    act(state, 1, "draw")  # 10♠
    act(state, 1, "discard")
    act(state, 1, "skip")
    act(state, 1, "snap s0.B")  # wrong again: a new letter F, not E
    assert list(hand(state, 1)) == ["A", "B", "C", "D", "F"]
    assert hand(state, 1)["F"] == "8C"


def test_snapper_with_no_cards_gives_nothing() -> None:
    state = two(["4S"])
    state.discard.extend(C(t) for t in ("2C", "3C", "4C", "5C"))
    state.hands[1] = {}
    act(state, 1, "draw")
    act(state, 1, "discard")
    act(state, 1, "snap s0.C")
    assert state.phase == "turn" and state.to_act() == (0,)
    assert hand(state, 0) == {"A": "2D", "B": "3D", "D": "5D"}


def test_snap_explanations() -> None:
    state = two(["4S"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert "snap C" in refused(state, 0, "snap s0.C")
    assert "no card at" in refused(state, 0, "snap s1.H")
    assert "no card at" in refused(state, 0, "snap s7.A")


# -- the stock running out --------------------------------------------------------------------


def empty_stock_into(state: CambioState, seat: int, keep: int) -> None:
    """Test set-up: the stock's cards but ``keep`` go into new positions of ``seat``."""
    while len(state.stock) > keep:
        state.hands[seat][state.new_label(seat)] = Slot(state.stock.pop())


def test_reshuffle_the_discard_but_its_top_card() -> None:
    state = two(["6S", "6H", "9C"])
    empty_stock_into(state, 0, keep=3)
    for seat in (1, 0):
        act(state, seat, "draw")
        act(state, seat, "replace A")
    act(state, 1, "draw")  # 9♣: the stock is empty now
    act(state, 1, "discard")
    act(state, 1, "skip")
    assert state.stock == [] and state.discard == [C("2C"), C("2D"), C("9C")]
    events = act(state, 0, "draw")
    assert event_texts(events)[0] == (
        "The stock is empty: 2 discarded cards are shuffled into a new stock "
        "(reshuffle 1 of 2 this round)"
    )
    expected = [C("2C"), C("2D")]
    make_rng(7, "reshuffle", 0, 0).shuffle(expected)
    assert state.drawn == expected[0] and state.stock == expected[1:]
    assert state.discard == [C("9C")]


def test_a_draw_with_nothing_to_take_ends_the_round() -> None:
    state = two(["6S"])
    empty_stock_into(state, 0, keep=1)
    act(state, 1, "draw")
    act(state, 1, "discard")
    assert state.stock == [] and len(state.discard) == 1
    events = act(state, 0, "draw")
    assert event_texts(events)[0] == "{s0} cannot draw: no cards are left to take."
    assert events[0].args == (("player", "{s0}"),)  # no number: nothing was counted
    assert [event.kind for event in events][-2:] == ["hand_end", "deal"]
    assert state.history[0][1] == 2 + 3 + 4 + 5


def test_a_wrong_snap_costs_no_penalty_when_nothing_is_left() -> None:
    state = two(["6S"])
    empty_stock_into(state, 0, keep=1)
    act(state, 1, "draw")
    act(state, 1, "discard")
    events = act(state, 1, "snap s0.A")
    assert event_texts(events)[-1] == "No card is left for a penalty."
    assert list(hand(state, 1)) == ["A", "B", "C", "D"]


def play_without_cambio(state: CambioState, stop: Callable[[], bool]) -> list[list[Any]]:
    """Draw-and-discard turns (powers skipped), nobody calling Cambio or snapping, until
    ``stop()``; returns the actions taken as a replay record's ``[seat, text]`` pairs."""
    taken: list[list[Any]] = []
    while not stop():
        seat = state.waiting_for()[0]
        text = {"turn": "draw", "drawn": "discard"}.get(state.phase, "skip")
        act(state, seat, text)
        taken.append([seat, text])
    return taken


def test_a_round_has_at_most_two_reshuffles_then_the_third_empty_stock_ends_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = two()
    actions: list[list[Any]] = [[0, "look A B"], [1, "look A B"]]
    # 44 cards in the stock: the 45th draw reshuffles 43 discards, the 88th 43 again
    actions += play_without_cambio(state, lambda: state.reshuffles == 2)
    assert state.history == []  # the round goes on after its second reshuffle
    assert state.round_index == 0 and len(state.stock) == 42 and state.phase == "drawn"
    actions += play_without_cambio(state, lambda: state.stock == [] and state.phase == "turn")
    assert len(state.discard) == 44 and state.window  # plenty to shuffle, but not a third time
    assert state.discard[-1] == C("2S")
    events = act(state, 1, "snap s0.B")  # wrong (s0's B is 3♦): no penalty card to take
    assert event_texts(events)[-1] == "No card is left for a penalty."
    assert list(hand(state, 1)) == ["A", "B", "C", "D"]
    hands = [hand(state, seat) for seat in (0, 1)]
    drawer = state.turn
    events = act(state, drawer, "draw")
    assert event_texts(events)[0] == (
        f"{{s{drawer}}} cannot draw: the stock is empty after the round's 2 reshuffles."
    )
    with speaking(compiled("pl", POLISH_COUNTS)):  # a count its reader's language says
        assert "talia jest pusta po 2 tasowaniach." in events[0].render(["Ann", "Bob"])
    # the round is scored as usual and the next one starts, with its own two reshuffles
    assert state.history == [[sum(points(C(t)) for t in h.values()) for h in hands]]
    assert [event.kind for event in events][-2:] == ["hand_end", "deal"]
    assert state.round_index == 1 and state.phase == "look" and state.reshuffles == 0
    assert len(state.stock) == 44 and state.discard == []
    # the replay command agrees
    record = {"game": "cambio", "players": 2, "seed": 7, "deck": deck_for(TWO), "actions": []}
    record["actions"] = [*actions, [1, "snap s0.B"], [drawer, "draw"]]
    path = tmp_path / "cambio.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == list(state.scores()) and out["to_act"] == [0, 1]


# -- scoring, rounds and the game's end -------------------------------------------------------


def play_to_round_end(state: CambioState) -> list[Event]:
    """Draw-and-discard turns (skipping powers) with a Cambio call as soon as allowed."""
    events: list[Event] = []
    start = state.round_index
    while state.round_index == start and not state.is_over:
        seat = state.waiting_for()[0]
        if state.phase == "look":
            events += act(state, seat, "look A B")
        elif state.phase == "turn":
            events += act(state, seat, "cambio" if "cambio" in legal(state, seat) else "draw")
        elif state.phase == "drawn":
            events += act(state, seat, "discard")
        else:
            events += act(state, seat, "skip")
    return events


def test_round_score_red_kings_and_a_player_with_no_cards() -> None:
    state = new([["KH", "KD", "AS", "10C"], ["JC", "QD", "KS", "KC"]], ["2S", "3S"])
    look_all(state)
    state.hands[0] = {}
    state.discard.extend(C(t) for t in ("KH", "KD", "AS", "10C"))
    events = play_to_round_end(state)
    summary = [event for event in events if event.kind == "hand_end"]
    assert len(summary) == 1
    assert summary[0].text.startswith("Round 1 scores: {s0} 0 (no cards); {s1} 40 (J♣ 10, ")
    assert state.history == [[0, 40]] and state.scores() == (0, 40)

    state = new([["KH", "KD", "AS", "10C"], ["JC", "QD", "KS", "KC"]], ["2S", "3S"])
    events = play_to_round_end(state)
    assert state.history == [[-1 - 1 + 0 + 10, 40]]
    # each card's points are shown, so the round's score can be checked
    (scores,) = [event.text for event in events if event.kind == "hand_end"]
    assert "{s0} 8 (K♥ -1, K♦ -1, A♠ 0, 10♣ 10)" in scores


def test_a_round_end_keeps_the_table_as_revealed_before_the_next_deal() -> None:
    state = new([["KH", "KD", "AS", "10C"], ["JC", "QD", "KS", "KC"]], ["2S", "3S"])
    assert state.last_reveal is None
    hands = [{label: slot.card.text for label, slot in hand.items()} for hand in state.hands]
    play_to_round_end(state)
    assert state.round_index == 1  # the next round is dealt already
    reveal = state.last_reveal
    assert reveal is not None and reveal["revealed"] == hands and reveal["round"] == 1
    shown = GAME.layout(reveal).face_up()
    assert sorted(card.text for card in shown) == sorted(
        [card for hand in hands for card in hand.values()] + [reveal["discard_top"]]
    )
    assert GAME.layout(state.public_view()).face_up() != shown  # the new deal is face down


def test_game_lasts_one_round_per_player_by_default_and_lowest_wins() -> None:
    state = GAME.new_state(3, 5)
    assert isinstance(state, CambioState)
    dealers = []
    while not state.is_over:
        dealers.append(state.dealer)
        play_to_round_end(state)
    assert len(state.history) == 3
    assert dealers == [(dealers[0] + i) % 3 for i in range(3)]
    best = min(state.scores())
    assert state.winners() == tuple(s for s in range(3) if state.scores()[s] == best)
    assert state.to_act() == () and state.public_view()["revealed"]


def test_rounds_option_and_limit_option() -> None:
    state = GAME.new_state(2, 5, {"rounds": 1})
    assert isinstance(state, CambioState)
    play_to_round_end(state)
    assert state.is_over and len(state.history) == 1

    state = GAME.new_state(2, 5, {"limit": 60, "rounds": 1})
    assert isinstance(state, CambioState)
    while not state.is_over:
        play_to_round_end(state)
        if not state.is_over:
            assert max(state.scores()) < 60
    assert max(state.scores()) >= 60


def test_shared_win() -> None:
    state = new([["2D", "3D", "4D", "5D"], ["2C", "3C", "4C", "5C"]], rounds=1)
    events = play_to_round_end(state)
    assert state.winners() == (0, 1)
    assert events[-1].text == "{s0} and {s1} share the win with 14 points"


def test_options_are_checked() -> None:
    with pytest.raises(SetupError):
        GAME.new_state(2, 1, {"rounds": 0})
    with pytest.raises(SetupError):
        GAME.new_state(2, 1, {"memory_aid": "maybe"})
    with pytest.raises(SetupError):
        GAME.new_state(2, 1, {"snap_seconds": -1})
    with pytest.raises(SetupError):
        GAME.new_state(7, 1)
    with pytest.raises(SetupError):
        GAME.new_state(1, 1)
    assert GAME.new_state(2, 1, {"limit": "none"}).options["limit"] is None


# -- text, errors, saving, replay --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("look b a", Look("A", "B")),
        ("draw", DRAW),
        ("CAMBIO", CAMBIO),
        ("replace c", Replace("C")),
        ("discard", DISCARD),
        ("peek B", Peek("B")),
        ("spy S2.c", Spy(2, "C")),
        ("swap A s2.C", BlindSwap("A", 2, "C")),
        ("peek A s2.C", KingPeek("A", 2, "C")),
        ("swap", SWAP),
        ("keep", KEEP),
        ("skip", SKIP),
        ("snap C", Snap(None, "C")),
        ("snap s2.C", Snap(2, "C")),
        ("snap s2.zb", Snap(2, "ZB")),
        ("give A", Give("A")),
    ],
)
def test_parse(text: str, action: Action) -> None:
    assert GAME.parse_action(text) == action
    assert GAME.parse_action(action.text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draw 2",
        "look A",
        "look A A",
        "spy C",
        "snap s2",
        "snap Z",
        "snap A2",
        "swap A",
        "give",
        "peek 5C",
        "fly",
    ],
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(ActionParseError):
        GAME.parse_action(text)


def test_actions_of_different_kinds_never_compare_equal() -> None:
    # as Actions: the protocol the state compares them by (mypy knows the classes differ)
    actions: list[Action] = [Replace("B"), Peek("B"), Give("B")]
    assert actions[0] != actions[1] != actions[2] != actions[0]
    swaps: list[Action] = [BlindSwap("A", 1, "B"), KingPeek("A", 1, "B")]
    assert swaps[0] != swaps[1]


def test_illegal_actions_change_nothing() -> None:
    state = two(["4S"])
    assert "not your turn" in refused(state, 0, "draw")
    act(state, 1, "draw")
    assert "replace one of your cards" in refused(state, 1, "peek A")
    assert "no card in position" in refused(state, 1, "replace F")


def test_json_round_trip_mid_game() -> None:
    state = two(["KS", "4S"])
    act(state, 1, "draw")
    act(state, 1, "discard")
    act(state, 1, "peek A s0.A")
    data = json.loads(json.dumps(state.to_json()))
    restored = GAME.state_from_json(data)
    assert restored == state and restored.legal_actions(1) == state.legal_actions(1)
    assert restored.view(1) == state.view(1)


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = {
        "game": "cambio",
        "players": 2,
        "seed": 3,
        "deck": deck_for(TWO, ["4S"]),
        "actions": [
            [0, "look A B"],
            [1, "look c d"],
            [1, "draw"],
            [1, "discard"],
            [1, "snap s0.C"],
        ],
    }
    path = tmp_path / "cambio.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["to_act"] == [1] and out["legal"] == {"1": ["give A", "give B", "give C", "give D"]}
    record["actions"].append([0, "draw"])  # type: ignore[attr-defined]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1


# -- knowledge never leaks (property test) -------------------------------------------------------


def known_cards(state: CambioState, seat: int) -> set[Card]:
    """The cards ``seat`` knows now: positions it knows, the discard, its drawn card."""
    cards = {slot.card for hand in state.hands for slot in hand.values() if slot.knows(seat)} | set(
        state.discard
    )
    if state.drawn is not None and seat == state.turn:
        cards.add(state.drawn)
    return cards


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
    aid=st.booleans(),
)
def test_views_show_only_known_cards(players: int, seed: int, aid: bool) -> None:
    state = GAME.new_state(players, seed, {"memory_aid": aid, "rounds": 1})
    assert isinstance(state, CambioState)
    rng = random.Random(seed)
    agents = [engine.ai.agent(GAME, "random" if seat % 2 else "ai") for seat in range(players)]
    while not state.is_over:
        for seat in range(players):
            view = state.view(seat)
            shown = set(cards_in(view))
            known = known_cards(state, seat)
            recent = {Card.parse(card) for _, _, card in view["just_seen"]}
            assert shown <= known | recent
            assert set(cards_in(state.agent_view(seat))) <= known | recent
            if aid:
                assert state.view(seat) == state.agent_view(seat)
            else:
                assert "known" not in view
                # Only the discard top, the drawn card and what was just seen are shown.
                top = {state.discard[-1]} if state.discard else set()
                drawn = {state.drawn} if state.drawn and seat == state.turn else set()
                assert shown <= top | drawn | recent
        assert not set(cards_in(state.public_view())) - set(state.discard)
        seats = list(state.to_act())
        rng.shuffle(seats)
        seats.sort(key=lambda seat: seat in state.waiting_for())
        for seat in seats:
            action = agent_move(state, seat, agents[seat], rng)
            if action is not None:
                state.apply(seat, action)
                break


def test_ai_snaps_a_known_match_and_gives_its_highest_card() -> None:
    state = new([["2D", "3D", "4D", "5D"], ["10C", "3C", "4C", "5C"]], ["4S"])
    look_all(state)
    act(state, 1, "draw")
    act(state, 1, "discard")
    agent = engine.ai.agent(GAME, "normal")
    assert not isinstance(agent, StateAgent)  # the heuristic: a plain Agent
    rng = random.Random(1)
    # s0 knows its A B (2♦ 3♦): no match for 4♠; it lets the optional snap pass.
    assert agent.choose(state.agent_view(0), state.legal_actions(0), rng, True) is None
    # s1 knows A 10♣ and B 3♣ and sees nothing matching 4♠ either; now let s1 know s0's C.
    state.hands[0]["C"].known.add(1)
    move = agent.choose(state.agent_view(1), state.legal_actions(1), rng, True)
    assert move is not None
    assert move == Snap(0, "C")
    state.apply(1, move)
    assert agent.choose(state.agent_view(1), state.legal_actions(1), rng, False) == Give("A")


def test_ai_beats_random() -> None:
    from engine.cli import simulate

    ai = engine.ai.agent(GAME, "normal")
    result = simulate(GAME, 2, 40, 0, [ai, engine.ai.agent(GAME, "random")])
    assert result["wins"][0] >= 34


def test_a_penalty_card_also_comes_from_a_reshuffled_discard() -> None:
    state = two(["6S", "6H", "9C"])
    empty_stock_into(state, 0, keep=3)
    for seat in (1, 0):
        act(state, seat, "draw")
        act(state, seat, "replace A")
    act(state, 1, "draw")  # 9♣, the last stock card
    act(state, 1, "discard")
    act(state, 1, "skip")
    act(state, 0, "snap s1.B")  # wrong (3♣ is not a 9): the penalty needs a reshuffle
    expected = [C("2C"), C("2D")]
    make_rng(7, "reshuffle", 0, 0).shuffle(expected)
    assert state.hands[0][label_of(state.next_label[0] - 1)].card == expected[0]
    assert state.stock == expected[1:] and state.discard == [C("9C")]


def test_describe_shows_known_cards_only_with_memory_aid() -> None:
    plain = two(["KS"])
    aided = two(["KS"], memory_aid=True)
    for state in (plain, aided):
        act(state, 1, "draw")
        assert "You drew K♠" in GAME.describe(state.view(1))
        act(state, 1, "discard")
        act(state, 1, "peek C s0.B")
    lines = GAME.describe(plain.view(1))
    assert "You: [A ?] [B ?] [C ?] [D ?]" in lines
    assert "You just saw: your card C: 4♣, {s0}'s card B: 3♦" in lines
    assert "Turn: You · swap the two looked-at cards, or keep them" in lines
    assert "Turn: {s1} · swap the two looked-at cards, or keep them" in GAME.describe(plain.view(0))
    act(plain, 1, "keep")
    assert "You: [A ?] [B ?] [C ?] [D ?]" in GAME.describe(plain.view(1))
    assert not [line for line in GAME.describe(plain.view(1)) if "just saw" in line]
    lines = GAME.describe(aided.view(1))
    assert "You: [A 2♣] [B 3♣] [C 4♣] [D ?]" in lines
    assert "{s0}: [A ?] [B 3♦] [C ?] [D ?]" in lines
    assert "Round 1 of 2 · dealer {s0} · stock 43 · discard K♠ (1)" in lines


def test_only_a_new_round_has_a_deal_event_and_its_summary_is_one_event() -> None:
    state = two(["2S", "3S"], rounds=2)
    events = play_to_round_end(state)
    assert [event.kind for event in events].count("hand_end") == 1
    assert [event.kind for event in events].count("deal") == 1 and events[-1].kind == "deal"
    assert state.phase == "look" and state.dealer == 1 and state.turn == 0


def test_a_step_names_whose_cards_it_offers_and_a_swap_says_what_it_swaps() -> None:
    names = ["Ann", "Bob"]
    assert GAME.step_prompt(("spy", "s1"), (), names) == "Look at which of Bob's cards?"
    assert GAME.step_prompt(("snap", "you"), (), names) == "Snap which of your cards?"
    assert GAME.step_prompt(("swap", "A", "s1"), (), names) == "With which of Bob's cards?"
    assert GAME.step_label((), "swap", names) == "Swap one of your cards with another player's"
    assert GAME.action_label(GAME.parse_action("swap"), names) == "Swap the two cards"


def known_and_unknown_points(state: CambioState, worlds: int) -> tuple[float, float]:
    """The mean points s0's worlds deal to the positions s1 looked at (A B) and to the ones
    nobody has seen (C D)."""
    known: list[int] = []
    unknown: list[int] = []
    for world_seed in range(worlds):
        world = state.determinize(0, random.Random(world_seed))
        assert isinstance(world, CambioState)
        known += [points(world.hands[1][label].card) for label in "AB"]
        unknown += [points(world.hands[1][label].card) for label in "CD"]
    return sum(known) / len(known), sum(unknown) / len(unknown)


def test_worlds_deal_low_cards_where_the_owner_knows_the_card_after_rounds_of_draws() -> None:
    state = two(["2S", "3S", "4S", "5S", "6S", "2H"])
    known, unknown = known_and_unknown_points(state, 300)
    assert abs(known - unknown) < 1.0  # before any draw, a looked-at card is any card
    for seat in (1, 0, 1, 0, 1, 0):
        act(state, seat, "draw")
        act(state, seat, "discard")
    known, unknown = known_and_unknown_points(state, 300)
    assert known < 3.5 < 5.0 < unknown


def test_the_searchs_standing_adds_the_totals_in_the_last_round_only() -> None:
    state = two(["2S", "3S"], rounds=2)
    assert standing(state) == state.round_points() == [14, 14]
    play_to_round_end(state)
    look_all(state)
    assert state.totals != [0, 0] and state.round_index == 1  # the last of two rounds
    held = state.round_points()
    assert standing(state) == [total + mine for total, mine in zip(state.totals, held, strict=True)]


def _marked_messages() -> set[str]:
    """Every string literal marked with ``N_`` in cambio's source."""
    marked: set[str] = set()
    for source in Path(inspect.getfile(cambio)).parent.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "N_"
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                marked.add(node.args[0].value)
    return marked


def test_every_event_is_a_marked_message_that_names_players_through_arguments() -> None:
    """A translator's catalog holds each message once: no event builds its id from values
    (a seat, a card, a count), and a player is named through an argument such as {s2}."""
    marked = _marked_messages()
    for seed in range(6):
        state = GAME.new_state(2 + seed % 5, seed)
        chooser = random.Random(seed)
        events = state.start()
        while not state.is_over:
            seat = chooser.choice(state.to_act())
            events += state.apply(seat, chooser.choice(state.legal_actions(seat)))
        for event in events:
            assert event.message in marked, event.message
            names = [f"N{seat}" for seat in range(state.players)]
            assert "{" not in event.render(names), event


def test_a_move_equals_only_a_move_of_its_kind_with_the_same_fields() -> None:
    """Moves are looked up in listings by equality and kept in sets: ``peek A`` (a power) is
    not ``replace A`` nor ``give A``, and a move read back from its text is the listed one."""
    assert Peek("A") != Replace("A") != Give("A")
    assert Snap(None, "A") != Snap(0, "A")
    assert Spy(1, "C") == GAME.parse_action("spy s1.c")
    assert hash(BlindSwap("A", 1, "C")) == hash(GAME.parse_action("swap A s1.C"))
    assert KingPeek("A", 1, "C") != BlindSwap("A", 1, "C")
    assert len({Look("A", "B"), GAME.parse_action("look B A"), Look("A", "C")}) == 2
    assert repr(Snap(2, "E")) == "Snap(2, 'E')"
