"""What people read: a game's settings by label and unit (never the machine's option names),
and why a move is the only one."""

from __future__ import annotations

import random

import pytest

from engine.choices import only_move_reason
from engine.core import PITCH_LIMIT, Event, score_lines
from engine.games.twentytwo import GAME as TWENTYTWO
from engine.games.twentytwo import TwentyTwoState
from engine.registry import games, get_game
from tests.engine.helpers import act
from tests.engine.test_cli import terminal
from tests.engine.test_twentytwo import deal_deck, keep_all, start


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_option_has_a_label_for_people(game_id: str) -> None:
    for option in games()[game_id].options:
        assert option.label and "_" not in option.label
        assert option.setting(option.default).startswith(f"{option.label}: ")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_game_has_a_one_line_pitch_within_discords_limit(game_id: str) -> None:
    pitch = games()[game_id].pitch
    assert 20 <= len(pitch) <= PITCH_LIMIT and "\n" not in pitch and pitch.endswith(".")


def test_player_counts_read_as_words() -> None:
    assert get_game("cambio").player_count_text() == "2 to 6"
    assert get_game("swazi").player_count_text() == "2"
    assert get_game("fishing").player_count_text() == "2, 3, 4 or 6"
    assert (
        get_game("swazi").player_count_message(3) == "Swazi Casino is for exactly 2 players, not 3"
    )


def test_numbers_carry_their_unit_in_the_singular_and_plural() -> None:
    fishing, cambio = get_game("fishing"), get_game("cambio")
    assert fishing.option("target").setting(1) == "Target: 1 point"
    assert fishing.option("target").setting(21) == "Target: 21 points"
    assert cambio.option("snap_seconds").setting(5) == "Snap window: 5 seconds"
    assert cambio.option("rounds").setting(None) == "Rounds: one per player"
    assert cambio.option("limit").setting(None) == "Score limit: off"
    assert cambio.option("memory_aid").setting(True) == "Memory aid: on"


def test_the_table_summary_says_what_the_game_is_played_to() -> None:
    fishing = get_game("fishing")
    header = fishing.summary(fishing.new_state(2, 0, {"target": 1}).public_view())[0]
    assert header.endswith("· playing to 1 point")
    several = fishing.new_state(2, 0, {"multi_capture": True}).public_view()
    assert fishing.summary(several)[0].endswith("· playing to 21 points · several captures at once")
    swazi = get_game("swazi")
    assert swazi.summary(swazi.new_state(2, 0).public_view())[0].endswith("playing to 21 points")
    cambio = get_game("cambio")
    limited = cambio.summary(cambio.new_state(2, 0, {"limit": 50}).public_view())[0]
    assert limited.startswith("Round 1 · until someone reaches 50 points ·")


def forced_reason(state: TwentyTwoState, seat: int) -> str | None:
    legal = state.legal_actions(seat)
    assert len(legal) == 1, [action.text for action in legal]
    return only_move_reason(TWENTYTWO, state.view(seat), legal)


def test_twentytwo_says_why_a_play_is_the_only_one() -> None:
    hands = {1: "2C 3C 4C 5C 7C 8C 8D", 0: "2D 3D 4D 5D 6D 9C 9D"}
    state = start(2, deal_deck(2, 0, hands))
    keep_all(state)
    for seat, text in [(1, "2C"), (0, "2D"), (0, "3D"), (1, "3C"), (1, "4C"), (0, "4D")]:
        act(state, seat, f"play {text}")
    for seat, text in [(0, "5D"), (1, "5C"), (1, "7C"), (0, "6D")]:
        act(state, seat, f"play {text}")
    # 8♣ 8♦ left: a lead keeps a card back
    assert forced_reason(state, 1) == "You must keep a card in hand, so you lead a single 8."
    act(state, 1, "play 8C")
    # 9♣ 9♦ left: either 9 is the same play, a beat
    assert forced_reason(state, 0) == (
        "Whichever cards you pick, the play is the same, and it beats 8♣."
    )


def test_twentytwo_says_when_nothing_beats_the_best_play() -> None:
    hands = {1: "9C 10C JC QC KC AC 9D", 0: "2D 3D 4D 5D 6D 7D 8D"}
    state = start(2, deal_deck(2, 0, hands))
    keep_all(state)
    act(state, 1, "play 9C 9D")
    assert forced_reason(state, 0) == "You can't beat 9♣ 9♦, so you must play your 2 lowest cards."
    session, out = terminal(state, "")
    assert session.next_move()[1].text == "play 2D 3D"
    assert out.getvalue().splitlines()[-1] == (
        "Your only move: Play 2♦ 3♦ (made for you). "
        "You can't beat 9♣ 9♦, so you must play your 2 lowest cards."
    )


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_hands_scores_lay_out_a_line_each(game_id: str) -> None:
    """Each game's hand_end text keeps the shape score_lines reads: a title, then each
    player's part (one sentence in twentytwo), then the totals."""
    game = games()[game_id]
    players = game.player_counts[-1]
    state = game.new_state(players, 5)
    rng = random.Random(5)
    ends: list[str] = []
    while not state.is_over:
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        ends += [e.text for e in state.apply(seat, action) if e.kind == "hand_end"]
    assert ends
    for text in ends:
        title, *each, totals = [line for line in score_lines(text) if not line.startswith("Out")]
        assert ": " not in title and totals.startswith("Totals: ")
        assert len(each) == (1 if game_id == "twentytwo" else players)


def test_the_terminal_shows_a_hands_scores_a_player_a_line() -> None:
    session, out = terminal(get_game("stuck").new_state(2, 1), "")
    session.show_events(
        [
            Event(
                "Round 1 scores: {s0} 0 (went out); {s1} 7 (7 in hand + 0 stuck × 2)"
                " · totals: {s0} 0, {s1} 7",
                "hand_end",
            )
        ]
    )
    assert out.getvalue().splitlines() == [
        "  · Round 1 scores:",
        "      You 0 (went out)",
        "      AI 1 7 (7 in hand + 0 stuck × 2)",
        "      Totals: You 0, AI 1 7",
    ]
