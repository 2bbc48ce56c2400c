"""Events, descriptions and pictures of fishing and stuck reach a reader through the active
catalog: every message (and every phrase inside one) is looked up, seats and cards are filled
in after translating."""

from __future__ import annotations

import copy
import gettext
import io
import json
import pickle
import random
from typing import Any, ClassVar

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from engine.cards import Card
from engine.core import (
    Cards,
    Event,
    Phrase,
    args_from_json,
    args_json,
    counted_phrase,
    joined,
    listing,
    seat_words,
)
from engine.errors import SavedStateError
from engine.games.cambio.rules import EMPTY_AFTER_RESHUFFLES
from engine.games.stuck.state import STUCK_ALREADY
from engine.games.twentytwo.words import CARDS, exchange_events
from engine.languages import catalog
from engine.registry import games, get_game
from engine.words import N_, Nn_, speaking


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
        "{first} and {rest}": "{first} et {rest}",
    }

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)


def compiled(language: str, words: dict[Any, Any]) -> gettext.GNUTranslations:
    """A compiled catalog of ``language`` (its plural rule as Babel knows it) holding
    ``words``: each message id (a pair of English forms for a plural entry) with its
    translation (the language's forms), as gettext reads it."""
    catalog = Catalog(locale=language)
    for message, translated in words.items():
        catalog.add(message, translated)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


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


STUCK_CARDS = Nn_("{count} stuck card", "{count} stuck cards")


def test_a_counted_phrase_takes_the_form_its_language_needs() -> None:
    # French counts 0 with 1 (the singular), where English says "0 stuck cards"
    french = compiled(
        "fr", {STUCK_CARDS: ("{count} carte collée", *["{count} cartes collées"] * 2)}
    )
    cards = [counted_phrase(STUCK_CARDS, count) for count in (0, 1, 2)]
    assert [phrase.text for phrase in cards] == ["0 stuck cards", "1 stuck card", "2 stuck cards"]
    with speaking(french):
        assert [phrase.translated() for phrase in cards] == [
            "0 carte collée",
            "1 carte collée",
            "2 cartes collées",
        ]


def test_a_language_with_three_forms_picks_each_of_them() -> None:
    polish = compiled("pl", {STUCK_CARDS: ("{count} karta", "{count} karty", "{count} kart")})
    with speaking(polish):
        said = [counted_phrase(STUCK_CARDS, count).translated() for count in (1, 3, 5, 22)]
    assert said == ["1 karta", "3 karty", "5 kart", "22 karty"]


def test_a_count_inside_an_event_is_said_in_its_language_s_form() -> None:
    polish = compiled(
        "pl",
        {
            "{player} exchanges {cards}; {left} left in the stock": (
                "{player} wymienia {cards}; w talii zostało {left}"
            ),
            CARDS: ("{count} kartę", "{count} karty", "{count} kart"),
        },
    )
    exchanges = [
        exchange_events(0, [Card.parse("2C")] * count, [Card.parse("3D")] * count, 9)[0]
        for count in (1, 3, 5)
    ]
    assert exchanges[0].text == "{s0} exchanges 1 card; 9 left in the stock"
    with speaking(polish):
        said = [event.render(["Ann"]) for event in exchanges]
    assert said == [
        f"Ann wymienia {cards}; w talii zostało 9" for cards in ("1 kartę", "3 karty", "5 kart")
    ]


PLAY_WHICH = (
    "Play which card? (a beat, or your lowest)",
    "Play which {count} cards? (a beat, or your {count} lowest)",
)
POLISH_COUNTS = {
    STUCK_ALREADY: ("mając już {count} kartę", "mając już {count} karty", "mając już {count} kart"),
    EMPTY_AFTER_RESHUFFLES: (
        "talia jest pusta po {count} tasowaniu",
        "talia jest pusta po {count} tasowaniach",
        "talia jest pusta po {count} tasowaniach rundy",
    ),
    PLAY_WHICH: ("Którą kartę?", "Które {count} karty?", "Których {count} kart?"),
}
"""Stuck's, cambio's and twentytwo's counts in a language of three forms (1, 2-4, 5+)."""


def test_stuck_and_cambio_counts_and_twentytwos_prompt_are_plural_entries() -> None:
    # the games count 3 stuck cards and 2 reshuffles; English says one of each as one
    assert counted_phrase(STUCK_ALREADY, 1).text == "with 1 stuck card already"
    assert counted_phrase(STUCK_ALREADY, 3).text == "with 3 stuck cards already"
    empty = counted_phrase(EMPTY_AFTER_RESHUFFLES, 1)
    assert empty.text == "the stock is empty after the round's 1 reshuffle"
    twentytwo = get_game("twentytwo")
    assert [twentytwo.pick_prompt((), (count,), ["Ann"]) for count in (1, 3)] == [
        "Play which card? (a beat, or your lowest)",
        "Play which 3 cards? (a beat, or your 3 lowest)",
    ]
    with speaking(compiled("pl", POLISH_COUNTS)):
        assert [twentytwo.pick_prompt((), (n,), ["Ann"]) for n in (1, 3, 5)] == [
            "Którą kartę?",
            "Które 3 karty?",
            "Których 5 kart?",
        ]
        assert [counted_phrase(STUCK_ALREADY, n).translated() for n in (1, 3, 5)] == [
            "mając już 1 kartę",
            "mając już 3 karty",
            "mając już 5 kart",
        ]
        assert counted_phrase(EMPTY_AFTER_RESHUFFLES, 2).translated() == (
            "talia jest pusta po 2 tasowaniach"
        )


def test_a_counted_phrase_saved_before_its_forms_were_one_entry_renders_in_each_language() -> None:
    # an event's arguments as stored when a count's forms were two messages: the ids are those
    # of the plural entry (its singular and plural), so the language picks the form
    stored = json.loads(
        """[["piles", {"message": "{part0}, {part1}", "plural": null, "counted": 0, "args": [
            ["part0", {"message": "{player} {count} card", "plural": "{player} {count} cards",
                       "counted": 0, "args": [["player", "{s0}"], ["count", "0"]]}],
            ["part1", {"message": "{count} club", "plural": "{count} clubs",
                       "counted": 1, "args": [["count", "1"]]}]]}],
            ["deal", "1"]]"""
    )
    event = Event(N_("Deal {deal} piles: {piles}"), "hand_end", args=args_from_json(stored))
    assert event.text == "Deal 1 piles: {s0} 0 cards, 1 club"
    said = {}
    for language in ("fr", "de"):
        with speaking(catalog(language)):
            said[language] = event.render(["Ann"])
    assert said == {
        "fr": "Tas de la donne 1 : Ann 0 carte, 1 trèfle",
        "de": "Stapel nach Geben 1: Ann 0 Karten, 1 Kreuz",
    }


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


def test_cards_given_to_an_event_read_as_their_text_however_the_event_is_read() -> None:
    taken = [Card.parse("2H"), Card.parse("10S")]
    given = Event("{s0} took {cards}", "capture", None, (("cards", Cards(taken)), ("n", "2")))
    written = Event("{s0} took {cards}", "capture", None, (("cards", "2♥ 10♠"), ("n", "2")))
    taken.append(Card.parse("KD"))  # the cards as they were when the event was made
    assert given.args == written.args == (("cards", "2♥ 10♠"), ("n", "2"))
    assert given == written and hash(given) == hash(written) and repr(given) == repr(written)
    assert given.text == "{s0} took 2♥ 10♠" and given.render(["Ann"]) == "Ann took 2♥ 10♠"
    saved = json.dumps(args_json(given.args))
    assert saved == json.dumps(args_json(written.args))
    assert Event(given.message, given.kind, None, args_from_json(json.loads(saved))) == given
    assert pickle.loads(pickle.dumps(given)) == written


def test_a_listing_of_any_length_names_each_part_once() -> None:
    for count in (1, 2, 16, 17, 40):
        parts = [str(index) for index in range(count)]
        phrase = listing(", ", parts)
        assert phrase.text == ", ".join(parts)
        assert [name for name, _part in phrase.args] == [f"part{index}" for index in range(count)]


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
