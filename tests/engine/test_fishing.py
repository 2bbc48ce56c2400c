"""fishing: one or more stacked-deck scenarios for every ruling in docs/rules/fishing.md."""

from __future__ import annotations

import copy
import json
import pickle
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ai import agent
from engine.cards import Card
from engine.cli import main, simulate
from engine.core import State
from engine.errors import ActionParseError, DeckError, IllegalActionError, SetupError
from engine.games.fishing import (
    GAME,
    FishingState,
    Play,
    plays,
    score_piles,
    sum_sets,
)
from tests.engine import helpers
from tests.engine.decks import cards, round_robin_deck
from tests.engine.helpers import legal


def new(hands: list[str], table: str, stock: str = "", **options: Any) -> FishingState:
    """A game whose first hand deals ``hands`` (seat 0 deals), ``table``, then ``stock`` on top."""
    deck = round_robin_deck(hands, dealer=0, after=[table, stock])
    return helpers.new(GAME, FishingState, len(hands), deck=deck, options=options)


def takes_of(state: State, seat: int, card: str) -> list[str]:
    return [text for text in legal(state, seat) if text.startswith(f"play {card}")]


def at_last_play(state: FishingState, **changes: Any) -> FishingState:
    """The same game moved to a scripted position (e.g. the last card of a hand)."""
    data = {**state.to_json(), **changes}
    restored = GAME.state_from_json(data)
    assert isinstance(restored, FishingState)
    return restored


# -- dealing -----------------------------------------------------------------------------------
def test_deal_from_a_given_deck_follows_the_contract() -> None:
    deck = [card.text for card in cards("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD")]
    rest = [card.text for card in sorted(set(GAME_CARDS) - set(cards(" ".join(deck))))]
    state = GAME.new_state(2, seed=9, deck=deck + rest)
    assert isinstance(state, FishingState)
    assert state.dealer == 0
    assert state.to_act() == (1,), "the dealer's left plays first"
    assert state.hands[1] == cards("AC 3C 5C 7C"), "one at a time from the dealer's left"
    assert state.hands[0] == cards("2C 4C 6C 8C")
    assert state.table == cards("9C 10C JC QC"), "then four to the table"
    assert state.stock[:2] == cards("KC AD"), "the rest is the stock, top first"
    assert len(state.stock) == 52 - 12


GAME_CARDS = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]


def test_a_deck_that_is_not_the_52_cards_is_refused() -> None:
    with pytest.raises(DeckError, match="not the 52 cards"):
        GAME.new_state(2, seed=1, deck=["AC", "2C"])
    with pytest.raises(DeckError, match="twice"):
        GAME.new_state(2, seed=1, deck=["AC", "AC"])
    with pytest.raises(DeckError, match="bad card"):
        GAME.new_state(2, seed=1, deck=["ZZ"])


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_allowed_player_counts_deal_four_each_and_four_to_the_table(players: int) -> None:
    state = GAME.new_state(players, seed=3)
    assert isinstance(state, FishingState)
    assert [len(hand) for hand in state.hands] == [4] * players
    assert len(state.table) == 4
    assert len(state.stock) == 52 - 4 * players - 4


def test_five_players_are_refused_with_a_clear_message() -> None:
    with pytest.raises(SetupError, match=r"5: the 48 cards .* do not deal out evenly"):
        GAME.new_state(5, seed=1)
    for players in (1, 7):
        with pytest.raises(SetupError, match="2, 3, 4 or 6 players"):
            GAME.new_state(players, seed=1)


def test_without_a_deck_the_first_dealer_comes_from_the_seed() -> None:
    dealers = {GAME.new_state(4, seed=seed).public_view()["dealer"] for seed in range(30)}
    assert dealers == {0, 1, 2, 3}
    assert GAME.new_state(4, seed=5).public_view() == GAME.new_state(4, seed=5).public_view()


# -- capturing ---------------------------------------------------------------------------------
def test_capture_by_rank_takes_exactly_one_card_of_the_players_choice() -> None:
    state = new(["2C 3C 4C 5C", "7H JD QD KD"], table="7C 7D 8S 9S")
    assert takes_of(state, 1, "7H") == ["play 7H", "play 7H take 7C", "play 7H take 7D"]
    with pytest.raises(IllegalActionError, match="7♥ cannot capture 7♣ 7♦"):
        state.apply_text(1, "play 7H take 7C 7D")
    state.apply_text(1, "play 7H take 7D")
    assert state.table == cards("7C 8S 9S")
    assert state.piles[1] == cards("7D 7H"), "captured cards and the capturing card"


def test_capture_by_sum_uses_two_or_more_numerals_adding_up() -> None:
    state = new(["2C 3C 4C 5C", "9H JD QD KD"], table="2S 3D 4S 6C")
    assert takes_of(state, 1, "9H") == [
        "play 9H",
        "play 9H take 2S 3D 4S",
        "play 9H take 3D 6C",
    ]
    state.apply_text(1, "play 9H take 6C 3D")
    assert sorted(state.piles[1]) == cards("3D 6C 9H")


def test_faces_never_take_part_in_sums() -> None:
    # J + 2 would be 13 and Q = 12 = 10 + 2 if faces had values; they have none.
    state = new(["2C 3C 4C 5C", "KH QH 3H 10H"], table="JS 2S AD 10S")
    assert takes_of(state, 1, "KH") == ["play KH"]
    assert takes_of(state, 1, "QH") == ["play QH"]
    assert takes_of(state, 1, "3H") == ["play 3H", "play 3H take AD 2S"]
    assert takes_of(state, 1, "10H") == ["play 10H", "play 10H take 10S"]


def test_an_ace_captures_only_by_rank() -> None:
    state = new(["2C 3C 4C 5C", "AH 6D 7D 8D"], table="AS 2S 3D 9C")
    assert takes_of(state, 1, "AH") == ["play AH", "play AH take AS"]


def test_one_group_per_play() -> None:
    state = new(["2C 3C 4C 5C", "6H JD QD KD"], table="6S 2S 4D AH")
    assert takes_of(state, 1, "6H") == ["play 6H", "play 6H take 6S", "play 6H take 2S 4D"]
    with pytest.raises(IllegalActionError, match="one group per play"):
        state.apply_text(1, "play 6H take 6S 2S 4D")


def test_multi_capture_takes_disjoint_sets_and_one_same_rank_card() -> None:
    state = new(["2C 3C 4C 5C", "6H JD QD KD"], table="6S 2S 4D AH", multi_capture=True)
    takes = takes_of(state, 1, "6H")
    assert "play 6H take 2S 4D 6S" in takes
    assert "play 6H take 6S" in takes and "play 6H take 2S 4D" in takes
    state.apply_text(1, "play 6H take 6S 4D 2S")
    assert state.table == cards("AH")


def test_multi_capture_allows_several_sum_sets_but_never_two_same_rank_cards() -> None:
    state = new(["2C 3C 4C 5C", "5H JD QD KD"], table="5S 5D 2S 3D", multi_capture=True)
    state2 = new(["2C 3C 4C 5C", "5H JD QD KD"], table="AS 4S 2D 3D", multi_capture=True)
    assert "play 5H take 5S 5D" not in takes_of(state, 1, "5H")
    assert "play 5H take 2S 3D 5D" in takes_of(state, 1, "5H")
    assert takes_of(state2, 1, "5H") == [
        "play 5H",
        "play 5H take AS 4S",
        "play 5H take 2D 3D",
        "play 5H take AS 2D 3D 4S",
    ]


def test_capturing_is_optional_and_a_card_that_captures_nothing_stays() -> None:
    state = new(["2C 3C 4C 5C", "7H JD QD KD"], table="7C 8S 9S 10S")
    events = state.apply_text(1, "play 7H")
    assert state.table == cards("7C 7H 8S 9S 10S")
    assert state.piles[1] == []
    assert [event.render(["Ann", "Bob"]) for event in events] == ["Bob played 7♥"]
    state.apply_text(0, "play 2C")
    assert Card.parse("2C") in state.table


def test_play_passes_left() -> None:
    state = new(["2C 3C 4C 5C", "2D 3D 4D 5D", "2H 3H 4H 5H"], table="JS QS KS 10S")
    order = []
    for _ in range(6):
        seat = state.to_act()[0]
        order.append(seat)
        state.apply(seat, state.legal_actions(seat)[0])
    assert order == [1, 2, 0, 1, 2, 0]


# -- refills, the end of a hand, scoring ---------------------------------------------------------
def play_leaving(state: FishingState, turns: int) -> None:
    """Every seat in turn plays its lowest card without capturing."""
    for _ in range(turns):
        seat = state.to_act()[0]
        state.apply(seat, Play(min(state.hands[seat])))


def test_refills_deal_four_more_each_from_the_top_of_the_stock() -> None:
    state = new(
        ["2C 3C 4C 5C", "2D 3D 4D 5D"], table="JS QS KS 10S", stock="AC AD AH AS 6C 6D 6H 6S"
    )
    play_leaving(state, 8)
    assert state.hands[1] == cards("AC AH 6C 6H"), "from the dealer's left, one at a time"
    assert state.hands[0] == cards("AD AS 6D 6S")
    assert len(state.table) == 4 + 8, "never to the table"
    assert len(state.stock) == 52 - 12 - 8
    assert state.to_act() == (1,)


def test_last_capturer_takes_the_table_at_the_end_of_the_hand() -> None:
    state = new(["2C 3C 4C 5C", "9D 3D 4D 5D"], table="9S QS KS 10S")
    state.apply_text(1, "play 9D take 9S")
    play_leaving(state, 46)
    assert state.hand_number == 0 and sum(map(len, state.hands)) == 1
    events = state.apply(state.to_act()[0], state.legal_actions(state.to_act()[0])[0])
    texts = [event.render(["Ann", "Bob"]) for event in events]
    assert any(text.startswith("Bob takes the rest of the table") for text in texts)
    assert state.history[0] == [0, 5], "all 52 cards, all clubs, 2♣ and 10♦ are Bob's"
    assert state.hand_number == 1


def test_nobody_takes_the_table_when_nobody_captured() -> None:
    state = new(["2C 3C 4C 5C", "9D 3D 4D 5D"], table="8S QS KS 10S")
    play_leaving(state, 48)
    assert state.history == [[0, 0]]
    assert state.scores() == (0, 0)


def test_scoring_most_cards_and_most_clubs_with_ties_scoring_nothing() -> None:
    points, _ = score_piles([cards("3C 4C 5D"), cards("3D 4D 5H"), cards("6H")])
    assert points == [1, 0, 0], "cards tie (3-3): nobody; clubs 2-0-0: seat 0"
    points, _ = score_piles([cards("3C 4C 5D 6S"), cards("3D 4D 5C"), cards("6H")])
    assert points == [3, 0, 0], "most cards (4) 2 and most clubs (2) 1"


def test_scoring_each_item() -> None:
    points, reasons = score_piles([cards("2C 10D"), cards("3C 4C 5H")])
    # seat 1: most cards 2 + most clubs 1 (2 vs 1); seat 0: 2♣ 1 + 10♦ 1.
    assert points == [2, 3]
    said = [[reason.text for reason in seat] for seat in reasons]
    assert said == [["2♣ 1", "10♦ 1"], ["most cards 2", "most clubs 1"]]
    points, _ = score_piles([cards("2C 5H"), cards("3C 4H")])
    assert points == [1, 0], "equal cards and equal clubs score nothing; 2♣ still counts"


def test_the_deal_passes_left_and_the_next_hand_starts_left_of_the_dealer() -> None:
    state = new(["2C 3C 4C 5C", "9D 3D 4D 5D", "2H 3H 4H 5H"], table="8S QS KS 10S")
    play_leaving(state, 48)
    assert (state.hand_number, state.dealer, state.to_act()) == (1, 1, (2,))
    assert [len(hand) for hand in state.hands] == [4, 4, 4] and len(state.table) == 4


def last_play_of_hand(totals: list[int], seat1_pile: list[str], target: int) -> FishingState:
    """Seat 1 holds the hand's last card, 9♦, over an 8♠ nobody may take; seat 0's pile holds
    every other card except ``seat1_pile``; the totals so far are ``totals``."""
    state = new(["2C 3C 4C 5C", "9D 3D 4D 5D"], table="8S QS KS 10S", target=target)
    taken = {"9D", "8S", *seat1_pile}
    return at_last_play(
        state,
        hands=[[], ["9D"]],
        stock=[],
        table=["8S"],
        piles=[[card.text for card in GAME_CARDS if card.text not in taken], seat1_pile],
        totals=totals,
        turn=1,
    )


def test_a_tie_for_the_highest_total_at_the_target_plays_another_hand() -> None:
    last = last_play_of_hand([17, 20], ["2C"], target=21)
    last.apply_text(1, "play 9D")
    # seat 0: most cards 2, most clubs 1, 10♦ 1 → 21; seat 1: 2♣ 1 → 21: a tie, play on.
    assert last.scores() == (21, 21)
    assert not last.is_over and last.hand_number == 1 and last.winners() == ()


def test_game_ends_when_one_player_alone_has_the_highest_total_at_or_above_target() -> None:
    won = last_play_of_hand([18, 20], ["2C"], target=21)
    events = won.apply_text(1, "play 9D")
    assert won.is_over and won.winners() == (0,) and won.scores() == (22, 21)
    assert won.to_act() == () and events[-1].kind == "game_end"


def test_nobody_at_the_target_plays_another_hand() -> None:
    last = last_play_of_hand([20, 25], [], target=30)
    last.apply_text(1, "play 9D")
    assert last.scores() == (25, 25) and not last.is_over


# -- text, errors, options -----------------------------------------------------------------------
def test_action_text_round_trips_and_lists_cards_in_card_order() -> None:
    action = GAME.parse_action("PLAY 9h take 6c 3d")
    assert action == Play(Card.parse("9H"), (Card.parse("3D"), Card.parse("6C")))
    assert action.text == "play 9H take 3D 6C"
    assert action.path == ("9H", "take 3D 6C")
    assert GAME.parse_action("play 10D").text == "play 10D"


def test_a_play_made_anew_is_the_listed_one_by_card_and_take() -> None:
    """A move typed or read from a save equals the listed play and hashes like it, and any
    other card or take tells them apart."""
    state = new(["AS 5S 8S QD", "6D 2C 9S KH"], "2H 4S 6C JC")
    listed = {play.text: play for play in state.legal_actions(state.to_act()[0])}
    typed = GAME.parse_action("play 6D take 2H 4S")
    assert typed == listed["play 6D take 2H 4S"] and typed in set(listed.values())
    assert hash(typed) == hash(listed["play 6D take 2H 4S"])
    assert typed != listed["play 6D take 6C"] != listed["play 6D"] != Play(Card.parse("2C"))
    state.apply(state.to_act()[0], typed)
    assert state.piles[1] == cards("2H 4S 6D")
    assert copy.deepcopy(typed) == pickle.loads(pickle.dumps(typed)) == typed


@pytest.mark.parametrize(
    "text", ["", "play", "play 6D take", "capture 6D", "play ZZ", "play 6D 2H", "play 6D take 6D"]
)
def test_unreadable_action_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError):
        GAME.parse_action(text)


def test_illegal_actions_raise_and_change_nothing() -> None:
    state = new(["2C 3C 4C 5C", "7H JD QD KD"], table="7C 8S 9S 10S")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="not your turn"):
        state.apply_text(0, "play 2C")
    with pytest.raises(IllegalActionError, match="You do not hold 2♣"):
        state.apply_text(1, "play 2C")
    with pytest.raises(IllegalActionError, match="not on the table"):
        state.apply_text(1, "play 7H take 7D")
    with pytest.raises(IllegalActionError, match="no seat 5"):
        state.apply_text(5, "play 7H")
    assert state.to_json() == before


def test_options_are_checked() -> None:
    with pytest.raises(SetupError, match="no option 'speed'"):
        GAME.new_state(2, seed=1, options={"speed": 3})
    with pytest.raises(SetupError, match="at least 1"):
        GAME.new_state(2, seed=1, options={"target": 0})
    with pytest.raises(SetupError, match="on or off"):
        GAME.new_state(2, seed=1, options={"multi_capture": "maybe"})
    state = GAME.new_state(2, seed=1, options={"multi_capture": "yes", "target": "11"})
    assert state.options == {"target": 11, "multi_capture": True}


def test_views_hide_hands_and_piles() -> None:
    state = new(["2C 3C 4C 5C", "7H JD QD KD"], table="7C 8S 9S 10S")
    state.apply_text(1, "play 7H take 7C")
    public = json.dumps(state.public_view())
    assert "2C" not in public and "JD" not in public and "7H" not in public
    assert state.view(1)["hand"] == ["JD", "QD", "KD"]
    assert state.view(1)["pile_sizes"] == [0, 2]
    assert "2C" not in json.dumps(state.view(1))


def test_corrupt_saved_state_is_a_clear_error() -> None:
    from engine.errors import SavedStateError

    state = new(["2C 3C 4C 5C", "7H JD QD KD"], table="7C 8S 9S 10S")
    data = state.to_json()
    with pytest.raises(SavedStateError, match="malformed"):
        GAME.state_from_json({**data, "hands": [["XX"]]})
    with pytest.raises(SavedStateError, match="not a fishing game"):
        GAME.state_from_json({**data, "game": "cambio"})
    with pytest.raises(SavedStateError, match="schema"):
        GAME.state_from_json({**data, "schema": 99})


# -- the command line --------------------------------------------------------------------------
def write_record(tmp_path: Path, **record: Any) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return str(path)


def stacked_record(tmp_path: Path, actions: list[list[Any]]) -> str:
    """A 2-player record: seat 1 holds 7H JD QD KD over a table of 7C 8S 9S 10S."""
    deck = round_robin_deck(["2C 3C 4C 5C", "7H JD QD KD"], after=["7C 8S 9S 10S"])
    return write_record(
        tmp_path, game="fishing", players=2, seed=4, options={}, deck=deck, actions=actions
    )


def test_replay_prints_the_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = stacked_record(tmp_path, [[1, "play 7H take 7C"], [0, "play 2C"]])
    assert main(["replay", path]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "over": False,
        "scores": [0, 0],
        "winners": [],
        "to_act": [1],
        "legal": {"1": ["play JD", "play QD", "play KD"]},
    }


def test_replay_of_an_illegal_action_names_its_index_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = stacked_record(tmp_path, [[1, "play 7H"], [1, "play JD"]])
    assert main(["replay", path]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["index"] == 1 and "not your turn" in out["error"]
    path = write_record(tmp_path, game="fishing", players=2, seed=4, actions=[[1, "fish"]])
    assert main(["replay", path]) == 1
    assert json.loads(capsys.readouterr().out)["index"] == 0


@pytest.mark.parametrize(
    "record",
    [
        {"game": "poker", "players": 2},
        {"game": "fishing", "players": 5},
        {"game": "fishing", "players": 2, "options": {"speed": 1}},
        {"game": "fishing", "players": 2, "deck": ["AC", "2C"]},
        {"game": "fishing"},
        {"game": "fishing", "players": 2, "actions": [["x", "play 2C"]]},
    ],
)
def test_replay_of_a_bad_record_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: dict[str, Any]
) -> None:
    assert main(["replay", write_record(tmp_path, **record)]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_simulate_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "fishing", "--players", "3", "--games", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "game",
        "players",
        "games",
        "seconds",
        "games_per_s",
        "steps_per_s",
        "mean_steps",
        "wins",
    }
    assert out["game"] == "fishing" and out["players"] == 3 and out["games"] == 4
    assert sum(out["wins"]) == 4 and len(out["wins"]) == 3


@pytest.mark.slow
def test_the_ai_beats_random_agents() -> None:
    ai, rnd = agent(GAME, "ai"), agent(GAME, "random")
    first = simulate(GAME, 2, 30, 500, [ai, rnd])["wins"]
    second = simulate(GAME, 2, 30, 900, [rnd, ai])["wins"]
    assert first[0] + second[1] >= 50, (first, second)


# -- properties --------------------------------------------------------------------------------
table_cards = st.lists(st.sampled_from(GAME_CARDS), min_size=0, max_size=10, unique=True)


@given(table=table_cards, card=st.sampled_from(GAME_CARDS), multi=st.booleans())
def test_captures_match_a_brute_force_reading_of_the_rules(
    table: list[Card], card: Card, multi: bool
) -> None:
    table = [other for other in table if other != card]
    numerals = [other for other in table if other.rank <= 10]
    sums = [
        set(combo)
        for size in range(2, len(numerals) + 1)
        for combo in combinations(numerals, size)
        if card.rank <= 10 and sum(other.rank for other in combo) == card.rank
    ]
    same_rank = [{other} for other in table if other.rank == card.rank]
    if not multi:
        expected = {frozenset(group) for group in same_rank + sums}
    else:
        expected = set()
        for size in range(1, len(table) + 1):
            for combo in combinations(table, size):
                chosen = set(combo)
                rank_cards = {other for other in chosen if other.rank == card.rank}
                rest = chosen - rank_cards
                if len(rank_cards) <= 1 and splits_into_sums(rest, card.rank):
                    expected.add(frozenset(chosen))
    found = {frozenset(play.take) for play in plays([card], sorted(table), multi) if play.take}
    assert found == expected


def splits_into_sums(cards_left: set[Card], value: int) -> bool:
    """Whether the cards split into disjoint sets of two or more numerals adding to value."""
    if not cards_left:
        return True
    first = min(cards_left)
    others = sorted(cards_left - {first})
    for size in range(1, len(others) + 1):
        for combo in combinations(others, size):
            group = {first, *combo}
            if (
                value <= 10
                and all(c.rank <= 10 for c in group)
                and sum(c.rank for c in group) == value
                and splits_into_sums(cards_left - group, value)
            ):
                return True
    return False


numeral_tables = st.lists(
    st.sampled_from([card for card in GAME_CARDS if card.rank <= 9]), max_size=14, unique=True
)


@given(table=numeral_tables, value=st.integers(2, 10))
def test_sum_sets_are_every_set_adding_up_in_card_order(table: list[Card], value: int) -> None:
    """The sum sets are every set of two or more numerals adding up to the value, in card
    order: by the first card in which two sets differ, as a search through the sorted table
    finds them."""
    numerals = sorted(card for card in table if card.rank < value)
    expected = sorted(
        combo
        for size in range(2, len(numerals) + 1)
        for combo in combinations(range(len(numerals)), size)
        if sum(numerals[index].rank for index in combo) == value
    )
    assert sum_sets(value, table) == [tuple(map(numerals.__getitem__, take)) for take in expected]


@given(card=st.sampled_from(GAME_CARDS), take=table_cards)
def test_any_play_text_parses_back(card: Card, take: list[Card]) -> None:
    play = Play(card, tuple(sorted(other for other in take if other != card)))
    assert GAME.parse_action(play.text) == play
    shuffled_text = " ".join(reversed(play.text.split()[3:]))
    if play.take:
        assert GAME.parse_action(f"play {card.text} take {shuffled_text}") == play
