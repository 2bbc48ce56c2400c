"""What the engine's scenario tests do to a state, defined once: start a stacked game, act by
text, read the legal moves as texts, expect a refusal, read events and cards as texts, find
every card named in views and messages, walk a sample of the steps a seat is offered. Stacked
decks are in tests.engine.decks."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

import pytest

from engine.cards import PRETTY_CARD, Card, is_card_text
from engine.choices import Step, descend
from engine.core import Action, Event, Game, State
from engine.errors import IllegalActionError

S = TypeVar("S", bound=State)


def new(
    game: Game,
    kind: type[S],
    players: int,
    seed: int = 1,
    deck: object = None,
    options: Mapping[str, Any] | None = None,
) -> S:
    """A new game of ``kind`` (the game's state class), dealt from ``deck`` (as
    ``Game.new_state`` takes it) when given."""
    state = game.new_state(players, seed, options, deck)
    assert isinstance(state, kind)
    return state


def sole_mover(state: State) -> int:
    """The one seat that may act (fails when none or several may)."""
    (seat,) = state.to_act()
    return seat


def legal(state: State, seat: int | None = None) -> list[str]:
    """The texts of ``seat``'s legal actions (None: of the one seat that may act)."""
    seat = sole_mover(state) if seat is None else seat
    return [action.text for action in state.legal_actions(seat)]


def act(state: State, seat: int, text: str) -> list[Event]:
    """``seat`` (which may act) plays the action written ``text``, whose text reads back."""
    assert seat in state.to_act(), f"expected {seat} to act, not {state.to_act()}"
    action = state.game.parse_action(text)
    assert state.game.parse_action(action.text) == action
    return state.apply(seat, action)


def refused(state: State, seat: int, text: str) -> str:
    """Applying ``text`` raises IllegalActionError and changes nothing; returns the reason."""
    before = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply_text(seat, text)
    assert state.to_json() == before, "a refused action changed the state"
    return str(error.value)


def event_texts(events: Iterable[Event], seat: int | None = None) -> list[str]:
    """The texts of the events ``seat`` sees (None: those everyone sees)."""
    return [event.text for event in events if event.visible(seat)]


def card_texts(cards: Iterable[Card]) -> list[str]:
    """Cards as their machine texts (``10D``)."""
    return [card.text for card in cards]


def cards_in(value: Any) -> Iterator[Card]:
    """Every card named anywhere in JSON-like data, in machine or people form."""
    strings: list[str] = []
    _collect_strings(value, strings)
    text = "\n".join(strings)  # a card never spans two strings: none ends or starts a line
    for word in text.split():
        card = _machine_card(word)
        if card is not None:
            yield card
    for match in PRETTY_CARD.finditer(text):
        yield Card.parse(
            match.group().replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S")
        )


def _collect_strings(value: Any, strings: list[str]) -> None:
    """Every string in JSON-like data (dict keys too), appended to ``strings``."""
    if isinstance(value, str):
        strings.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _collect_strings(key, strings)
            _collect_strings(item, strings)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect_strings(item, strings)


@lru_cache(maxsize=1 << 16)
def _machine_card(word: str) -> Card | None:
    """The card a word names in machine form (``KS``, ``KS=14``, ``(KS),``), if any. Machine
    form is upper case: "as" in a sentence is not the ace of spades. Cached: the random-play
    driver reads every view at every step, and the same words come back all game long."""
    base = word.split("=")[0].strip(",.;:()[]")
    return Card.parse(base) if base.isupper() and is_card_text(base) else None


def sampled_steps(
    legal: Sequence[Action], rng: random.Random, whole_depth: int = 1, descents: int = 4
) -> list[Step]:
    """A sample of the steps a seat could be shown for ``legal`` (each choice followed as the
    UI follows it, through ``descend``): every step reached within ``whole_depth`` choices,
    where steps are widest (each choice narrows the actions left) and where each kind of move
    begins; then the steps of ``descents`` seeded random walks from those down to an action. Walking
    every step instead costs minutes: a twentytwo exchange or a large swazi capture has
    thousands of actions, each path a chain of steps."""
    steps: list[Step] = []
    frontier: list[Step] = []
    todo: list[tuple[int, ...]] = [()]
    while todo:
        _, target = descend(legal, todo.pop())
        if isinstance(target, Step):
            steps.append(target)
            if len(target.prefix) < whole_depth:
                todo += [(*target.prefix, c.index) for c in target.choices if c.only is None]
            else:
                frontier.append(target)
    for _ in range(descents if frontier else 0):
        walked: Action | Step = rng.choice(frontier)
        while isinstance(walked, Step):
            open_choices = [choice for choice in walked.choices if choice.only is None]
            if not open_choices:
                break
            _, walked = descend(legal, (*walked.prefix, rng.choice(open_choices).index))
            if isinstance(walked, Step):
                steps.append(walked)
    return steps
