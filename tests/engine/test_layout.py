"""Each game's picture layout shows exactly what its view shows, and never a hidden card.

The random-play driver (tests/engine/test_random_play.py) checks every layout at every step
with ``check_layout``; here a planted card shows that check can fail, and one position per game
is checked group by group.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from engine.cards import Card
from engine.core import State, View
from engine.layout import Group, Layout, Row, Shown
from engine.registry import games
from tests.engine.test_random_play import Watcher, check_layout


def play_to(state: State, rng: random.Random, steps: int) -> Watcher:
    """Random moves; the watcher of what seats saw."""
    watcher = Watcher(state.game, state)
    for _ in range(steps):
        seat = state.waiting_for()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        watcher.update_seen()
    return watcher


@pytest.mark.parametrize("game_id", list(games()))
def test_a_planted_hidden_card_is_caught(game_id: str) -> None:
    game = games()[game_id]
    state = game.new_state(game.player_counts[0], 5)
    watcher = play_to(state, random.Random(5), 6)
    view = state.view(0)
    every_card = {card for zone in state.zones() for card in zone.cards}
    hidden = min(every_card - watcher.seen[0])
    planted = Layout((*game.layout(view).rows, Row((Group("Planted", (Shown(hidden),)),))))
    with pytest.raises(AssertionError, match="which the view does not"):
        check_layout(planted, view, watcher.seen[0])
    # Even a view that wrongly held the card would not make it pass: the seat never saw it.
    with pytest.raises(AssertionError, match="unseen"):
        check_layout(planted, {**view, "planted": hidden.text}, watcher.seen[0])


def by_label(layout: Layout, names: Sequence[str] = ("Ann", "Bob")) -> dict[str, Group]:
    seats = {f"s{seat}": name for seat, name in enumerate(names)}
    return {group.label.format(**seats): group for group in layout.groups()}


def texts(group: Group) -> list[str | None]:
    return [None if shown.card is None else shown.card.text for shown in group.cards]


def advance_until(state: State, rng: random.Random, done: Callable[[View], bool]) -> View:
    """Random moves until the public view satisfies ``done``; that view."""
    while not done(state.public_view()):
        seat = state.waiting_for()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    return state.public_view()


def test_fishing_shows_the_table_the_stock_the_piles_and_only_your_hand() -> None:
    state = games()["fishing"].new_state(2, 1)
    view = state.view(1)
    groups = by_label(state.game.layout(view))
    assert texts(groups["Table"]) == view["table"]
    assert texts(groups["Your hand"]) == view["hand"]
    assert groups["Stock"].size == view["stock"] and texts(groups["Stock"]) == [None]
    assert groups["Ann's pile"].size == 0 and groups["Ann's pile"].cards == ()
    assert "Your hand" not in by_label(state.game.layout(state.public_view()))


def test_twentytwo_shows_the_trick_with_the_best_play_and_the_penalty_cards() -> None:
    state = games()["twentytwo"].new_state(3, 2)
    rng = random.Random(2)
    view = advance_until(state, rng, lambda view: len(view["trick"]) >= 2)
    groups = by_label(state.game.layout(view), ["Ann", "Bob", "Cy"])
    names = ["Ann", "Bob", "Cy"]
    for play in view["trick"]:
        best = " · best" if play["seat"] == view["best_seat"] else ""
        assert texts(groups[f"{names[play['seat']]}'s play{best}"]) == play["cards"]
    view = advance_until(state, rng, lambda view: any(view["penalties"]))
    groups = by_label(state.game.layout(view), names)
    penalised = [seat for seat, pile in enumerate(view["penalties"]) if pile]
    for seat in penalised:
        assert texts(groups[f"{names[seat]}'s penalties"]) == view["penalties"][seat]
    assert len([label for label in groups if label.endswith("penalties")]) == len(penalised)


def test_swazi_labels_each_build_with_its_value_and_owner_and_shows_pile_tops() -> None:
    state = games()["swazi"].new_state(2, 4)
    view = advance_until(state, random.Random(4), lambda view: bool(view["builds"]))
    groups = by_label(state.game.layout(view))
    for build in view["builds"]:
        owner = ["Ann", "Bob"][build["owner"]]
        assert texts(groups[f"Build {build['value']} · {owner}"]) == build["cards"]
    for seat, name in enumerate(["Ann", "Bob"]):
        pile = view["piles"][seat]
        assert groups[f"{name}'s pile"].size == pile["size"]
        assert texts(groups[f"{name}'s pile"]) == ([pile["top"]] if pile["size"] else [])


def test_cambio_shows_known_cards_face_up_captioned_as_positions_and_reveals_at_the_end() -> None:
    game = games()["cambio"]
    state = game.new_state(2, 3, {"memory_aid": True})
    before = game.layout(state.view(0))
    assert before.face_up() == []
    hands = [group for group in before.groups() if group.label in ("You", "{s1}")]
    captions = [shown.caption for group in hands for shown in group.cards]
    assert captions == ["card A", "card B", "card C", "card D"] * 2
    state.apply_text(0, "look A B")
    view = state.view(0)
    mine = by_label(game.layout(view))["You"]
    assert texts(mine)[:2] == [view["known"][0]["A"], view["known"][0]["B"]]
    assert texts(mine)[2:] == [None, None]
    end = advance_until(state, random.Random(3), lambda view: view["over"])
    shown = game.layout(end).face_up()
    revealed = [Card.parse(card) for hand in end["revealed"] for card in hand.values()]
    assert set(revealed) <= set(shown)


def test_stuck_shows_the_current_card_and_every_stuck_card_face_down() -> None:
    state = games()["stuck"].new_state(2, 6)
    view = advance_until(state, random.Random(6), lambda view: any(view["stuck"]))
    groups = by_label(state.game.layout(state.view(0)))
    assert texts(groups["Current card"]) == [view["current"]]
    for seat, name in enumerate(["You", "Bob"]):
        if view["stuck"][seat]:
            assert texts(groups[f"{name} · stuck"]) == [None] * view["stuck"][seat]
    assert groups["Bob"].size == view["hand_sizes"][1]


@pytest.mark.parametrize("game_id", list(games()))
def test_a_summary_leaves_the_turn_to_the_bot_and_the_cards_to_the_picture(game_id: str) -> None:
    game = games()[game_id]
    state = game.new_state(game.player_counts[-1], 8)
    rng = random.Random(8)
    for _ in range(60):
        for view in (state.public_view(), state.view(0)):
            summary = game.summary(view)
            assert summary and summary == [line for line in summary if line.strip()]
            for line in summary:
                assert not line.startswith(("Turn", "To play", "Your hand", "Table:", "Layout:"))
                assert "leads" not in line and "[A ?]" not in line
        if state.is_over:
            break
        seat = state.waiting_for()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


def test_cambio_says_what_to_snap_while_the_window_is_open() -> None:
    state = games()["cambio"].new_state(2, 5)
    view = advance_until(state, random.Random(5), lambda view: bool(view["snap_window"]))
    top = Card.parse(view["discard_top"])
    line = f"⚡ Snap window: the discard is {top.pretty}, snap any {top.pretty[:-1]}"
    assert line in state.game.summary(view) and line in state.game.summary(state.view(1))
