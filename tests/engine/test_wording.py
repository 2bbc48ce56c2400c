"""What people read of a game's settings: labels and units, never the machine's option names."""

from __future__ import annotations

import pytest

from engine.registry import games, get_game


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_option_has_a_label_for_people(game_id: str) -> None:
    for option in games()[game_id].options:
        assert option.label and "_" not in option.label
        assert option.setting(option.default).startswith(f"{option.label}: ")


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
