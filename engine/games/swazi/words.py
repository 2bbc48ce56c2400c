"""swazi's words: the messages of its events and the words of its choices (every one marked
with ``engine.words``; see docs/rules/swazi.md §11 for the texts they word).

An event's message names its seats itself (``{s0}``, ``{s1}``), so each is written once for
each seat that plays it: a message id must be a literal for the extractor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card
from engine.words import N_, Nn_, _

from .moves import AUGMENT, BUILD, CAPTURE, CHANGE, DISCARD

# -- events ----------------------------------------------------------------------------------------
# Typed as tuples of any length, and Final: compiled, a table is then one Python tuple read
# in place, where a table typed by its exact shape is a C struct that indexing by a seat
# boxes anew, nested tuples and all, on every read (a capture's event made 17 tuples).
Messages = tuple[str, ...]
"""A message for each seat (a message names its seats itself), or for each case."""

DEALS: Final[Messages] = (
    N_("Deal {deal}: {s0} deals. Layout: {layout}"),
    N_("Deal {deal}: {s1} deals. Layout: {layout}"),
)
# [seat][what is taken: loose cards, the build, both][worth said]
CAPTURED: Final[tuple[tuple[Messages, ...], ...]] = (
    (
        (
            N_("{s0} captured {cards} with {card}"),
            N_("{s0} captured {cards} with {card} (worth {worth})"),
        ),
        (
            N_("{s0} captured the build of {value} ({build}) with {card}"),
            N_("{s0} captured the build of {value} ({build}) with {card} (worth {worth})"),
        ),
        (
            N_("{s0} captured the build of {value} ({build}) and {cards} with {card}"),
            N_(
                "{s0} captured the build of {value} ({build}) and {cards} with {card} "
                "(worth {worth})"
            ),
        ),
    ),
    (
        (
            N_("{s1} captured {cards} with {card}"),
            N_("{s1} captured {cards} with {card} (worth {worth})"),
        ),
        (
            N_("{s1} captured the build of {value} ({build}) with {card}"),
            N_("{s1} captured the build of {value} ({build}) with {card} (worth {worth})"),
        ),
        (
            N_("{s1} captured the build of {value} ({build}) and {cards} with {card}"),
            N_(
                "{s1} captured the build of {value} ({build}) and {cards} with {card} "
                "(worth {worth})"
            ),
        ),
    ),
)
BUILT: Final[Messages] = (
    N_("{s0} built {cards} into a build of {value}"),
    N_("{s1} built {cards} into a build of {value}"),
)
# [seat][worth said]
BUILT_ON: Final[tuple[Messages, ...]] = (
    (
        N_("{s0} built {card} on {cards}: a build of {value}"),
        N_("{s0} built {card} (worth {worth}) on {cards}: a build of {value}"),
    ),
    (
        N_("{s1} built {card} on {cards}: a build of {value}"),
        N_("{s1} built {card} (worth {worth}) on {cards}: a build of {value}"),
    ),
)
# [seat][cards, the pile top alone, the pile top and cards]
ADDED: Final[tuple[Messages, ...]] = (
    (
        N_("{s0} added {cards} to the build of {value}"),
        N_("{s0} added {top} (the top of {s1}'s pile) to the build of {value}"),
        N_("{s0} added {top} (the top of {s1}'s pile) and {cards} to the build of {value}"),
    ),
    (
        N_("{s1} added {cards} to the build of {value}"),
        N_("{s1} added {top} (the top of {s0}'s pile) to the build of {value}"),
        N_("{s1} added {top} (the top of {s0}'s pile) and {cards} to the build of {value}"),
    ),
)
# [seat][joins the player's own build][worth said]
CHANGED: Final[tuple[tuple[Messages, ...], ...]] = (
    (
        (
            N_("{s0} changed {s1}'s build of {old} into {value} with {card}"),
            N_("{s0} changed {s1}'s build of {old} into {value} with {card} (worth {worth})"),
        ),
        (
            N_(
                "{s0} changed {s1}'s build of {old} into {value} with {card}, "
                "which joins their own build of {value}"
            ),
            N_(
                "{s0} changed {s1}'s build of {old} into {value} with {card} (worth {worth}), "
                "which joins their own build of {value}"
            ),
        ),
    ),
    (
        (
            N_("{s1} changed {s0}'s build of {old} into {value} with {card}"),
            N_("{s1} changed {s0}'s build of {old} into {value} with {card} (worth {worth})"),
        ),
        (
            N_(
                "{s1} changed {s0}'s build of {old} into {value} with {card}, "
                "which joins their own build of {value}"
            ),
            N_(
                "{s1} changed {s0}'s build of {old} into {value} with {card} (worth {worth}), "
                "which joins their own build of {value}"
            ),
        ),
    ),
)
SWEPT: Final[Messages] = (
    N_("{s0} took the rest of the layout: {cards}"),
    N_("{s1} took the rest of the layout: {cards}"),
)
WINS: Final[Messages] = (N_("{s0} wins with {points} points"), N_("{s1} wins with {points} points"))
DISCARDED: Final[Messages] = (N_("{s0} discarded {card}"), N_("{s1} discarded {card}"))
SECOND_HALF: Final = N_("Second half: 12 more cards to each player")
PILES: Final = N_("Deal {deal} piles: {piles}")
ACES: Final = Nn_("ace {count}", "aces {count}")
SCORES: Final = N_(
    "Deal {deal} scores: {s0} {points0}{reasons0}; {s1} {points1}{reasons1}"
    " · totals: {s0} {total0}, {s1} {total1}"
)


# -- choices -------------------------------------------------------------------------------------
# what a hand card may do, for a choice of the card that leads on to several moves
KIND_WORDS = {
    CAPTURE: N_("capture"),
    BUILD: N_("build"),
    CHANGE: N_("change a build"),
    AUGMENT: N_("add to a build"),
    DISCARD: N_("lay it down"),
}


def or_list(words: Sequence[str]) -> str:
    """``capture``, ``capture or build``, ``capture, build or lay it down``."""
    if len(words) == 1:
        return words[0]
    return _("{choices} or {last}").format(choices=", ".join(words[:-1]), last=words[-1])


_STEP_WORDS = {
    "build": N_("Build with table cards only"),
    "capture": N_("Capture"),
    "build on": N_("Build on table cards"),
    "discard": N_("Lay it on the table"),
    "top": N_("your opponent's pile top"),
}


def item_words(word: str) -> str:
    """A path or text item for people: ``b9`` the build of 9, ``AH=14``, ``capture AH=14``,
    ``augment b9``, ``change b9``, ``top``, or a card.

    >>> [item_words(w) for w in ["b9", "AH=14", "top", "5D"]]
    ['the build of 9', 'A♥ (worth 14)', "your opponent's pile top", '5♦']
    >>> [item_words(w) for w in ["capture AH=1", "change b7", "augment b9"]]
    ['Capture with A♥ (worth 1)', 'Change the build of 7', 'Add to the build of 9']
    """
    if word in _STEP_WORDS:
        return _(_STEP_WORDS[word])
    verb, _space, rest = word.rpartition(" ")
    if verb == "capture":
        return _("Capture with {card}").format(card=item_words(rest))
    if verb == "change":
        return _("Change the build of {value}").format(value=rest[1:])
    if verb == "augment":
        return _("Add to the build of {value}").format(value=rest[1:])
    if word[:1] == "b" and word[1:].isdigit():
        return _("the build of {value}").format(value=word[1:])
    text, _equals, ace = word.partition("=")
    return pretty_word(Card.parse(text), int(ace) if ace else 0)


def pretty_word(card: Card, ace: int) -> str:
    """A hand card for people: ``9♦``, or ``A♥ (worth 14)``."""
    return _("{card} (worth {worth})").format(card=card.pretty, worth=ace) if ace else card.pretty


def seat_name(seat: int) -> str:
    """A seat's placeholder in a text the caller fills with names: ``{s1}``."""
    return f"{{s{seat}}}"


def pick_question(chosen: tuple[str, ...], one_at_a_time: bool) -> str:
    """What the set of targets after ``chosen`` (a hand card and a kind of move, or a
    card-less ``build`` / ``augment bN``) is asked with; ``one_at_a_time`` when the targets
    are picked one by one."""
    first = chosen[0]
    if first == "build":
        if one_at_a_time:
            return _("Build with which table cards? (one at a time)")
        return _("Build with which table cards?")
    if first.startswith("augment"):
        build = item_words(first.split()[1])
        if one_at_a_time:
            return _("Add what to {build}? (one at a time)").format(build=build)
        return _("Add what to {build}?").format(build=build)
    card = item_words(first)
    if chosen[1] == "build on":
        if one_at_a_time:
            return _("Build {card} on which table cards? (one at a time)").format(card=card)
        return _("Build {card} on which table cards?").format(card=card)
    if one_at_a_time:
        return _("Capture what with {card}? (one at a time)").format(card=card)
    return _("Capture what with {card}?").format(card=card)
