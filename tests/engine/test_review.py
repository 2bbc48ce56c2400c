"""``engine.review``: the hard AI's review of one seat's decisions, from what it knew."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.cards import FULL_DECK
from engine.cli import main
from engine.replay import Replay, played_record
from engine.review import Judgement, costliest, decisions, judge, judge_saved, review, review_lines

DECK = [card.text for card in FULL_DECK]


def test_cards_the_seat_never_saw_do_not_change_its_review() -> None:
    # Fishing at two, seat 0 dealing: seat 1 gets cards 0, 2, 4, 6 of the deck, seat 0 cards
    # 1, 3, 5, 7, the table 8 to 11, the stock the rest. The other game shuffles every card
    # hidden from seat 0 (seat 1's cards not yet played, the stock) among their places.
    deck = DECK[:]
    random.Random(4).shuffle(deck)
    first = played_record("fishing", 2, 1, deck=deck)
    prefix = first["actions"][:6]  # three moves each: no card dealt from the stock yet
    played_by_bob = {word for seat, text in prefix if seat == 1 for word in text.split()}
    hidden = [index for index in (0, 2, 4, 6) if deck[index] not in played_by_bob]
    hidden += range(12, len(deck))
    cards = [deck[index] for index in hidden]
    random.Random(5).shuffle(cards)
    other = deck[:]
    for index, card in zip(hidden, cards, strict=True):
        other[index] = card
    replays = [Replay.of({**first, "deck": given, "actions": prefix}) for given in (deck, other)]
    hands = [replay.final.to_json()["hands"] for replay in replays]
    assert hands[0][0] == hands[1][0] and hands[0][1] != hands[1][1]
    reviews = [review(replay, 0, seed=3, worlds=6) for replay in replays]
    assert len(reviews[0]) == 3
    assert reviews[0] == reviews[1]


def test_a_review_is_the_same_for_the_same_seed() -> None:
    replay = Replay.of(played_record("stuck", 2, 2))
    assert review(replay, 1, seed=5, worlds=3) == review(replay, 1, seed=5, worlds=3)


def test_a_decision_is_only_where_the_game_waited_for_the_seat_with_a_choice() -> None:
    replay = Replay.of(played_record("cambio", 2, 3))
    steps = decisions(replay, 0)
    assert steps and all(step.seat == 0 for step in steps)
    for step in steps:
        before = replay.steps[step.index - 1].state
        assert 0 in before.waiting_for() and len(before.legal_actions(0)) > 1


@pytest.mark.slow
def test_a_worse_move_costs_against_the_best_found() -> None:
    replay = Replay.of(played_record("swazi", 2, 1, level="random"))
    judged = review(replay, 0, worlds=6)
    worst = costliest(judged, 3)
    assert len(worst) == 3 and [found.step for found in worst] == sorted(f.step for f in worst)
    for found in worst:
        assert found.best != found.chosen and found.value_lost > 0
        assert found.value_lost >= max(other.value_lost for other in judged if other not in worst)
    same = judge(replay, decisions(replay, 0)[0], 0, worlds=6)
    assert same == judged[0]


def test_the_command_line_prints_the_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played_record("stuck", 2, 2)), encoding="utf-8")
    assert main(["replay", str(path), "--review", "1"]) == 0
    out, err = capsys.readouterr()
    total = len(decisions(Replay.of(json.loads(path.read_text())), 1))
    assert out.startswith(f"seat 1: {total} decisions reviewed")
    assert f"reviewing move {total} of {total}" in err
    assert main(["replay", str(path), "--review", "2"]) == 2
    assert "seats 0 to 1" in capsys.readouterr().err


def test_a_decision_judged_from_the_saved_record_is_the_same_judgement() -> None:
    record = played_record("twentytwo", 2, 6)
    replay = Replay.of(record)
    judged = review(replay, 1, seed=2, worlds=2)
    saved = [
        judge_saved(json.dumps(record), 1, ordinal, seed=2, worlds=2)
        for ordinal in range(len(judged))
    ]
    assert [Judgement.from_json(data) for data in saved] == judged
    assert json.loads(json.dumps(saved)) == saved


def test_one_decision_reviewed_is_said_in_the_singular() -> None:
    replay = Replay.of(played_record("stuck", 2, 2))
    matched = Judgement(1, "play 5♠", "play 5♠", 0.5, 0.0, 0.0, 0.0)
    lines = list(review_lines(replay, 0, [matched], ["ann", "bob"]))
    assert lines[0] == "ann: 1 decision reviewed, 1 matched the best move found"
    lines = list(review_lines(replay, 0, [matched, matched], ["ann", "bob"]))
    assert lines[0] == "ann: 2 decisions reviewed, 2 matched the best move found"
