"""Events, descriptions and pictures of fishing and stuck reach a reader through the active
catalog: every message (and every phrase inside one) is looked up, seats and cards are filled
in after translating."""

from __future__ import annotations

import copy
import gettext
import json
import pickle
import random
from typing import ClassVar

import pytest

from engine.core import Event, Phrase, args_from_json, args_json, joined, listing, seat_words
from engine.errors import SavedStateError
from engine.registry import games
from engine.words import N_, speaking


class Bracketing(gettext.NullTranslations):
    """A catalog that writes every message it translates in brackets."""

    def gettext(self, message: str) -> str:
        return f"[{message}]"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"[{msgid1 if n == 1 else msgid2}]"


class French(gettext.NullTranslations):
    """A few of fishing's messages, reordered as a translator may."""

    WORDS: ClassVar[dict[str, str]] = {
        "{title} scores: {scores} · totals: {totals}": (
            "Points {title} : {scores} · total : {totals}"
        ),
        "Hand {hand}": "de la donne {hand}",
        "{player} {points} ({reasons})": "{player} {points} ({reasons})",
        "most cards {points}": "plus de cartes {points}",
        "{count} stuck card": "{count} carte collée",
        "{count} stuck cards": "{count} cartes collées",
        "{first} and {rest}": "{first} et {rest}",
    }

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        # as a compiled catalog does: a pair is looked up as one plural entry, and a phrase's
        # two forms are not one (each is marked, and kept, as a message of its own)
        return msgid1 if n == 1 else msgid2


def test_a_phrase_inside_an_event_is_translated_with_it() -> None:
    reasons = listing(", ", [Phrase(N_("most cards {points}"), (("points", "2"),))])
    part = Phrase(
        N_("{player} {points} ({reasons})"),
        (("player", "{s1}"), ("points", "2"), ("reasons", reasons)),
    )
    event = Event(
        N_("{title} scores: {scores} · totals: {totals}"),
        "hand_end",
        args=(
            ("title", Phrase(N_("Hand {hand}"), (("hand", "1"),))),
            ("scores", listing("; ", ["{s0} 0", part])),
            ("totals", "{s0} 0, {s1} 2"),
        ),
    )
    assert event.text == "Hand 1 scores: {s0} 0; {s1} 2 (most cards 2) · totals: {s0} 0, {s1} 2"
    with speaking(French()):
        assert event.render(["Ann", "Bob"]) == (
            "Points de la donne 1 : Ann 0; Bob 2 (plus de cartes 2) · total : Ann 0, Bob 2"
        )
        assert event.translated().startswith("Points de la donne 1 : {s0} 0; {s1} 2")


def test_a_counted_phrase_takes_the_form_its_count_needs() -> None:
    def cards(count: int) -> Phrase:
        said = (("count", str(count)),)
        return Phrase(N_("{count} stuck card"), said, N_("{count} stuck cards"), count)

    assert (cards(1).text, cards(3).text) == ("1 stuck card", "3 stuck cards")
    with speaking(French()):
        assert (cards(1).translated(), cards(3).translated()) == (
            "1 carte collée",
            "3 cartes collées",
        )


def test_seats_joined_with_and_are_named_when_rendered() -> None:
    event = Event(
        "{players} share the win", args=(("players", joined([seat_words(0), seat_words(2)])),)
    )
    assert event.text == "{s0} and {s2} share the win"
    with speaking(French()):
        assert event.render(["Ann", "Bob", "Cy"]) == "Ann et Cy share the win"


def _words_of(state_game: str, players: int, seed: int) -> list[str]:
    """Every line a reader meets in a random game: events, descriptions, picture labels,
    choices' words and refusals."""
    game = games()[state_game]
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    said = [event.render(["A", "B", "C"][:players]) for event in state.opening_events()]
    while not state.is_over:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        said += game.describe(view)
        said += [group.label for group in game.layout(view).groups() if "{s" not in group.label]
        said += [label for action in legal if (label := game.action_label(action, ["A", "B", "C"]))]
        said.append(state.explain_illegal(seat, game.parse_action("play KS")))
        events = state.apply(seat, rng.choice(legal))
        said += [event.render(["A", "B", "C"][:players]) for event in events]
    return said


@pytest.mark.parametrize("game", ["fishing", "stuck"])
def test_every_line_a_player_reads_goes_through_the_catalog(game: str) -> None:
    with speaking(Bracketing()):
        lines = [line for seed in range(3) for line in _words_of(game, 3, seed)]
    unmarked = sorted({line for line in lines if not line.startswith("[")})
    assert not unmarked


def test_a_message_s_arguments_survive_json_and_malformed_ones_are_refused() -> None:
    reason = Phrase("most cards {points}", (("points", "2"),), "most cards {points} each", 2)
    args = (("player", "{s1}"), ("why", listing("; ", ["{s0} 3", reason])))
    assert args_from_json(json.loads(json.dumps(args_json(args)))) == args
    with pytest.raises(SavedStateError, match="arguments are malformed"):
        args_from_json([["why", {"message": "x"}]])


def test_events_and_phrases_are_values_compared_hashed_and_copied_by_their_fields() -> None:
    def event(**changed: object) -> Event:
        fields: dict[str, object] = {
            "message": "{s0} plays {card} {why}",
            "kind": "play",
            "visible_to": frozenset({1}),
            "args": (("card", "6♦"), ("why", Phrase("x {n}", (("n", "2"),), "xs {n}", 2))),
        }
        fields.update(changed)
        return Event(**fields)  # type: ignore[arg-type]

    same = event()
    assert same == event() and hash(same) == hash(event())
    assert len({same, event()}) == 1
    for changed in (
        {"message": "other"},
        {"kind": "capture"},
        {"visible_to": None},
        {"args": (("card", "6♦"), ("why", Phrase("x {n}", (("n", "2"),), "xs {n}", 3)))},
        {"args": (("card", "6♦"), ("why", Phrase("x {n}", (("n", "3"),), "xs {n}", 2)))},
        {"args": (("card", "6♦"), ("why", Phrase("y {n}", (("n", "2"),), "xs {n}", 2)))},
        {"args": (("card", "6♦"), ("why", Phrase("x {n}", (("n", "2"),), None, 2)))},
    ):
        assert event(**changed) != same, changed
    assert same != tuple(same.__reduce__()[1])  # an event is not a tuple of its fields
    for copied in (copy.copy(same), copy.deepcopy(same), pickle.loads(pickle.dumps(same))):
        assert type(copied) is Event and copied == same
    assert repr(Phrase("x")) == "Phrase(message='x', args=(), plural=None, counted=0)"
    assert repr(Event("x")) == "Event(message='x', kind='info', visible_to=None, args=())"
