"""The replay record a running game keeps (``ActionRecord``): compact JSON text that reads as
the list of (seat, action text) pairs it stands for, whatever the texts hold."""

from __future__ import annotations

import json
from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage import ActionRecord

PAIRS = st.lists(st.tuples(st.integers(0, 5), st.text()), max_size=12)


def built_move_by_move(pairs: list[tuple[int, str]]) -> ActionRecord:
    return reduce(lambda record, pair: record.plus(*pair), pairs, ActionRecord())


@pytest.mark.slow
@given(PAIRS)
def test_a_record_reads_as_its_actions_however_it_was_made(pairs: list[tuple[int, str]]) -> None:
    loaded = ActionRecord.of(pairs)
    # as storage reads it back: the text and its length, where its last action starts unknown
    stored = ActionRecord(loaded.json, len(pairs))
    for record in (built_move_by_move(pairs), loaded, stored):
        assert json.loads(record.json) == [list(pair) for pair in pairs]
        assert record == pairs and list(record) == pairs and len(record) == len(pairs)
        for start in range(-len(pairs) - 1, len(pairs) + 2):
            assert record[start:] == pairs[start:]
        for index in range(-len(pairs), len(pairs)):
            assert record[index] == pairs[index]
    assert built_move_by_move(pairs) == loaded == stored


@given(PAIRS, st.integers(0, 5), st.text())
def test_one_more_action_leaves_the_record_it_came_from_as_it_was(
    pairs: list[tuple[int, str]], seat: int, text: str
) -> None:
    record = ActionRecord.of(pairs)
    longer = record.plus(seat, text)
    assert longer == [*pairs, (seat, text)] and longer[-1:] == [(seat, text)]
    assert record == pairs  # a snapshot taken before a move keeps the record as it was


def test_a_record_costs_its_json_text_not_an_object_per_move() -> None:
    pairs = [(seat % 4, "play 10D take 2H 3S 5C") for seat in range(300)]
    record = ActionRecord.of(pairs)
    assert record.json == json.dumps(pairs, separators=(",", ":"))
    assert ActionRecord.__slots__ and not hasattr(record, "__dict__")
