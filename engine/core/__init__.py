"""The shape every game follows: a Game (rules, options, factory) and its States.

Where each part lives: actions and agents (``engine.core.actions``), the table log's events
and phrases (``events``), options and deck plans (``options``), the game type and its states
(``game``), states scored by running totals (``totals``), their copies (``copying``), and
what the rules share for dealing (``dealing``) and for the words of scoring (``scoring``).
Every name is imported from ``engine.core`` itself.
"""

from engine.core.actions import (
    Action,
    Agent,
    CardSet,
    Choose,
    MadeWhenAsked,
    RandomAgent,
    View,
    Word,
    parse_error,
    seat_name,
    was_listed,
)
from engine.core.copying import NOT_FIELDS, SHARED_TYPES, copied, state_fields
from engine.core.dealing import (
    cards_from_json,
    cards_json,
    deal_out,
    dealt_hands,
    leader_order,
    redeal,
)
from engine.core.events import (
    Arg,
    Cards,
    Event,
    Phrase,
    args_from_json,
    args_json,
    counted_phrase,
    joined,
    listing,
    score_lines,
    scores_line,
    seat_words,
)
from engine.core.game import PITCH_LIMIT, Game, Result, State, StateAgent, Zone
from engine.core.options import DeckPlan, Option, OptionValue, make_rng
from engine.core.scoring import SUIT_COUNTS, held_sets, pile_phrase
from engine.core.totals import TotalsState

__all__ = [
    "NOT_FIELDS",
    "PITCH_LIMIT",
    "SHARED_TYPES",
    "SUIT_COUNTS",
    "Action",
    "Agent",
    "Arg",
    "CardSet",
    "Cards",
    "Choose",
    "DeckPlan",
    "Event",
    "Game",
    "MadeWhenAsked",
    "Option",
    "OptionValue",
    "Phrase",
    "RandomAgent",
    "Result",
    "State",
    "StateAgent",
    "TotalsState",
    "View",
    "Word",
    "Zone",
    "args_from_json",
    "args_json",
    "cards_from_json",
    "cards_json",
    "copied",
    "counted_phrase",
    "deal_out",
    "dealt_hands",
    "held_sets",
    "joined",
    "leader_order",
    "listing",
    "make_rng",
    "parse_error",
    "pile_phrase",
    "redeal",
    "score_lines",
    "scores_line",
    "seat_name",
    "seat_words",
    "state_fields",
    "was_listed",
]
