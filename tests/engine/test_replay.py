"""``engine.replay``: a record played back step by step, every card face up."""

from __future__ import annotations

import pytest

from engine.cards import FULL_DECK
from engine.cli import position
from engine.errors import SetupError
from engine.registry import games, get_game
from engine.replay import Replay, open_layout, played_record, start

NAMES = ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize("game_id", list(games()))
def test_each_step_is_the_record_applied_up_to_it(game_id: str) -> None:
    record = played_record(game_id, get_game(game_id).player_counts[0], 7)
    replay = Replay.of(record)
    assert len(replay.steps) == len(record["actions"]) + 1
    state, actions = start(record)
    for step, (seat, text) in zip(replay.steps[1:], actions, strict=True):
        events = state.apply_text(seat, text)
        assert (step.seat, step.action) == (seat, text)
        assert step.state == state and step.scores == state.scores()
        assert [event.text for event in step.events] == [event.text for event in events]
    assert replay.final.is_over and position(replay.final)["winners"]


@pytest.mark.parametrize("game_id", ["fishing", "twentytwo", "stuck"])
def test_hands_start_at_each_deal(game_id: str) -> None:
    replay = Replay.of(played_record(game_id, 2, 3))
    starts = replay.hand_starts()
    assert starts[0] == 0 and len(starts) > 1
    for hand, first in enumerate(starts, start=1):
        assert replay.steps[first].hand == hand
        # the step before a hand's first move dealt it
        assert first == 0 or any(event.kind == "deal" for event in replay.steps[first - 1].events)


@pytest.mark.parametrize("game_id", list(games()))
def test_the_open_picture_shows_every_card_a_seat_holds(game_id: str) -> None:
    replay = Replay.of(played_record(game_id, get_game(game_id).player_counts[0], 5))
    state = replay.steps[len(replay.steps) // 2].state
    held = {
        card
        for zone in state.zones()
        if zone.seen_by is not None and (zone.seen_by or zone.name[-1].isdigit())
        for card in zone.cards
    }
    public = set(get_game(game_id).layout(state.public_view()).face_up())
    shown = set(open_layout(state).face_up())
    assert held - public, "nothing was hidden at this step: the test shows nothing"
    assert held <= shown


def test_a_private_event_says_whose_it_was() -> None:
    replay = Replay.of(played_record("cambio", 2, 3))
    lines = [line for step in replay.steps for line in step.words(NAMES)]
    private = [line for line in lines if "only) " in line]
    assert private and all(line.startswith(("(Ann only) ", "(Bob only) ")) for line in private)


def test_a_record_whose_moves_do_not_replay_is_refused_with_the_move() -> None:
    record = played_record("stuck", 2, 1)
    record["actions"][3] = [record["actions"][3][0], "play 99Z"]
    with pytest.raises(SetupError, match="move 4"):
        Replay.of(record)


def test_a_record_with_a_given_deck_replays_that_deck() -> None:
    deck = [card.text for card in FULL_DECK]
    replay = Replay.of(played_record("fishing", 2, 1, deck=deck))
    assert replay.steps[0].state.to_json()["deck"][0] == deck
