"""cambio: Cambio, a memory game (rules: docs/rules/cambio.md).

Each player has face-down cards in labelled positions (A B / C D, penalty cards add E, F, …)
and wants the lowest total. Where each rule lives:

- card points (A 0, 2–10 face, J Q K♠ K♣ 10, K♥ K♦ −1): ``points``; round score and the
  game's end (``rounds``, ``limit``), lowest total wins: ``CambioState.end_round``.
- the deal (4 cards each, one at a time from the dealer's left, to A B C D; the rest is the
  stock; the deal passes left): ``CambioState.start_round``.
- the opening look at 2 own positions, simultaneous, default ``look C D``:
  ``CambioState._legal_actions`` (phase ``look``), ``_apply_look``, ``timeout_action``.
- a turn: ``draw`` (stock only; ``take_card`` reshuffles the discard but its top card, at
  most ``RESHUFFLES`` times a round, and a draw with nothing to take ends the round), then
  ``replace X`` or ``discard``: ``_apply_turn``, ``_apply_drawn``.
- powers of a card discarded straight from the stock (7/8 ``peek``, 9/10 ``spy``, J/Q blind
  ``swap``, K♠/K♣ ``peek A s2.C`` then ``swap``/``keep``; red kings and A–6 none; a power with
  no target is not offered; ``skip`` declines): ``power_of``, ``_power_actions``,
  ``_apply_power``.
- the Cambio call (from the moment n draws were made), the last turns, the locked caller:
  ``_apply_turn``, ``end_turn``, ``unlocked_targets``.
- snapping out of turn (once per seat per window; correct own, correct other's with
  ``give X``, wrong with a revealed card and a penalty card in a new position):
  ``snappers``, ``_apply_snap``, ``_apply_give``, ``new_label``.
- knowledge (who knows the card in each position, following public moves):
  ``Slot``, ``zones``, the views (``view``, ``agent_view``; option ``memory_aid``).
- the heuristic AI: ``engine.ai.cambio``.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from engine.cards import (
    ACE,
    CLUBS,
    FULL_DECK,
    JACK,
    KING,
    QUEEN,
    RANK_TEXT,
    SPADES,
    Card,
    describe_cards,
    shuffle,
)
from engine.core import (
    Action,
    CardSet,
    DeckPlan,
    Event,
    Game,
    Option,
    OptionValue,
    State,
    TotalsState,
    View,
    Word,
    Zone,
    cards_from_json,
    cards_json,
    deal_out,
    leader_order,
    make_rng,
    parse_error,
    redeal,
    scores_line,
)
from engine.errors import SavedStateError
from engine.layout import Group, Layout, Shown, face_up, rows, stack
from engine.words import N_, _, ngettext

HAND_SIZE = 4
LOOK_COUNT = 2
RESHUFFLES = 2  # a round's limit: after that an empty stock has nothing to take


def points(card: Card) -> int:
    """A card's points: A 0, 2–10 face value, J Q and black kings 10, red kings −1."""
    if card.rank == ACE:
        return 0
    if card.rank == KING and card.is_red:
        return -1
    return min(card.rank, 10)


POINTS = {card: points(card) for card in FULL_DECK}
"""``points`` of every card, looked up when a round is scored."""

KNOWN_TILT = (0.0, 0.17, 0.25, 0.3)
"""How strongly ``determinize`` deals low cards to positions their owner knows, by the rounds
of draws made (the last for every later one): the mean of such cards in games of the normal
level falls from 6 (the deck's) to 3.8, 2.9 and 2.2 after one, two and three rounds of draws,
and these weights give those means."""


def power_of(card: Card) -> str | None:
    """The power of a card discarded straight from the stock: ``peek`` (7/8, one own card),
    ``spy`` (9/10, one card of another player), ``swap`` (J/Q, blind swap), ``king`` (K♠ K♣,
    look at one of each then swap or keep); None for A–6 and red kings."""
    if card.rank in (7, 8):
        return "peek"
    if card.rank in (9, 10):
        return "spy"
    if card.rank in (JACK, QUEEN):
        return "swap"
    if card.rank == KING and card.suit in (CLUBS, SPADES):
        return "king"
    return None


# -- position labels -----------------------------------------------------------------------------
# A … Y, then ZA … ZY, ZZA …: never a card text (a card is rank then suit) nor a seat (s2), so
# no label is mistaken for either, and labels sort by their index.
_LABEL = re.compile(r"^(Z*)([A-Y])$")


def seat_ref(seat: int) -> str:
    """A seat as an event's argument: ``{s2}``, filled with the player's name when rendered."""
    return f"{{s{seat}}}"


def label_of(index: int) -> str:
    """The label of the ``index``-th position a player gets in a round (0 → A, 25 → ZA)."""
    prefix, letter = divmod(index, 25)
    return "Z" * prefix + chr(ord("A") + letter)


def label_index(label: str) -> int:
    """The inverse of ``label_of``; raises ValueError for text that is not a label."""
    match = _LABEL.match(label.upper())
    if not match:
        raise ValueError(label)
    return len(match.group(1)) * 25 + ord(match.group(2)) - ord("A")


# -- actions ---------------------------------------------------------------------------------------
# Frozen dataclasses (not NamedTuples) so that actions of different kinds never compare equal.


DRAW, CAMBIO, DISCARD, SKIP, SWAP, KEEP = (
    Word(word) for word in ("draw", "cambio", "discard", "skip", "swap", "keep")
)
PLAIN_WORDS = {action.word: action for action in (DRAW, CAMBIO, DISCARD, SKIP, SWAP, KEEP)}
CALL_CAMBIO_CONFIRM = N_(
    "Call Cambio? The others get one more turn each, then every hand is revealed and the round "
    "is scored."
)


@dataclass(frozen=True, slots=True)
class Look:
    """The opening look at two own positions: ``look A B`` (labels in order)."""

    first: str
    second: str

    @property
    def text(self) -> str:
        """``look C D``."""
        return f"look {self.first} {self.second}"

    @property
    def path(self) -> tuple[str, ...]:
        """One position, then the other."""
        return ("look", self.first, self.second)


@dataclass(frozen=True, slots=True)
class Replace:
    """Put the drawn card in own position ``pos``; the old card goes to the discard."""

    pos: str

    @property
    def text(self) -> str:
        """``replace C``."""
        return f"replace {self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Replace, then the position."""
        return ("replace", self.pos)


@dataclass(frozen=True, slots=True)
class Peek:
    """The 7/8 power: look at own position ``pos``."""

    pos: str

    @property
    def text(self) -> str:
        """``peek B``."""
        return f"peek {self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Peek, then the position."""
        return ("peek", self.pos)


@dataclass(frozen=True, slots=True)
class Give:
    """After a correct snap of another player's card: move own ``pos`` into the gap."""

    pos: str

    @property
    def text(self) -> str:
        """``give A``."""
        return f"give {self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Give, then the position."""
        return ("give", self.pos)


@dataclass(frozen=True, slots=True)
class Spy:
    """The 9/10 power: look at position ``pos`` of seat ``seat`` (another player)."""

    seat: int
    pos: str

    @property
    def text(self) -> str:
        """``spy s2.C``."""
        return f"spy s{self.seat}.{self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Spy, the seat, the position."""
        return ("spy", f"s{self.seat}", self.pos)


@dataclass(frozen=True, slots=True)
class BlindSwap:
    """The J/Q power: swap own ``own`` with ``seat``'s ``pos`` without looking."""

    own: str
    seat: int
    pos: str

    @property
    def text(self) -> str:
        """``swap A s2.C``."""
        return f"swap {self.own} s{self.seat}.{self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Swap, own position, seat, their position."""
        return ("swap", self.own, f"s{self.seat}", self.pos)


@dataclass(frozen=True, slots=True)
class KingPeek:
    """The black king's look: own ``own`` and ``seat``'s ``pos``; then ``swap`` or ``keep``."""

    own: str
    seat: int
    pos: str

    @property
    def text(self) -> str:
        """``peek A s2.C``."""
        return f"peek {self.own} s{self.seat}.{self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Peek, own position, seat, their position."""
        return ("peek", self.own, f"s{self.seat}", self.pos)


@dataclass(frozen=True, slots=True)
class Snap:
    """Snap the card at ``pos`` of ``seat`` (None: the snapper's own position)."""

    seat: int | None
    pos: str

    @property
    def text(self) -> str:
        """``snap C`` (own) or ``snap s2.C``."""
        return f"snap {self.pos}" if self.seat is None else f"snap s{self.seat}.{self.pos}"

    @property
    def path(self) -> tuple[str, ...]:
        """Snap, whose card (``you`` or ``s2``), the position."""
        return ("snap", "you" if self.seat is None else f"s{self.seat}", self.pos)


# The legal lists hand out one shared object per action: a frozen dataclass's __init__ costs
# more than a cache lookup, and the runner finds a listed action by identity.
look_of, replace_of, peek_of, give_of = cache(Look), cache(Replace), cache(Peek), cache(Give)
spy_of, swap_of, king_peek_of, snap_of = cache(Spy), cache(BlindSwap), cache(KingPeek), cache(Snap)

_STEP_WORDS = {
    "draw": N_("Draw a card"),
    "cambio": N_("Call Cambio"),
    "discard": N_("Discard the drawn card"),
    "replace": N_("Keep it in place of one of yours"),
    "skip": N_("Do not use the power"),
    "swap": N_("Swap one of your cards with another player's"),
    "keep": N_("Keep the cards where they are"),
    "look": N_("Look at two of your cards"),
    "peek": N_("Look at one of your cards"),
    "spy": N_("Look at another player's card"),
    "snap": N_("Snap a matching card"),
    "give": N_("Give one of your cards"),
}


_PHASE_HINTS = {
    "drawn": N_(
        "'{action}' is not possible now: replace one of your cards with the drawn card, or "
        "discard it."
    ),
    "decide": N_(
        "'{action}' is not possible now: swap the two cards you looked at, or keep them where "
        "they are."
    ),
    "give": N_("'{action}' is not possible now: give one of your cards into the emptied position."),
}
_POWER_HINTS = {
    "peek": N_("'{action}' is not possible now: look at one of your own cards (peek B) or skip."),
    "spy": N_("'{action}' is not possible now: look at another player's card (spy s1.C) or skip."),
    "swap": N_(
        "'{action}' is not possible now: swap one of your cards with another player's "
        "(swap A s1.C) or skip."
    ),
    "king": N_(
        "'{action}' is not possible now: look at one of yours and another player's "
        "(peek A s1.C) or skip."
    ),
}
"""What an illegal action's answer says may be done instead, by phase (and power)."""


def _first_prompt(offered: Sequence[str]) -> str:
    """The question of a decision's first step, told apart by what it offers.

    >>> _first_prompt(["draw", "cambio", "snap"])
    'Draw a card or call Cambio? (Or snap a card that matches the discard.)'
    """
    if "draw" in offered:
        if "cambio" in offered:
            if "snap" in offered:
                return _("Draw a card or call Cambio? (Or snap a card that matches the discard.)")
            return _("Draw a card or call Cambio?")
        if "snap" in offered:
            return _("Draw a card? (Or snap a card that matches the discard.)")
        return _("Draw a card?")
    if "replace" in offered:
        return _("Keep the drawn card in place of one of yours, or discard it?")
    if "keep" in offered:
        return _("Swap the two cards you looked at, or keep them where they are?")
    if "skip" in offered:
        return _("Use the discarded card's power, or not?")
    if offered == ("snap",):
        return _("Snap a card that matches the discard?")
    return _("Your move:")


def _position_words(owner: str, label: str, names: Sequence[str]) -> str:
    """A position, never to be read as a rank: ``your card A``, ``AI 1's card C``.

    >>> _position_words("s1", "C", ["Ann", "AI 1"]), _position_words("you", "A", [])
    ("AI 1's card C", 'your card A')
    """
    if owner[:1] == "s" and owner[1:].isdigit():
        return _("{player}'s card {label}").format(player=names[int(owner[1:])], label=label)
    return _("your card {label}").format(label=label)


# -- state -----------------------------------------------------------------------------------------


@dataclass(slots=True)
class Slot:
    """A card in a position and who knows it: ``known`` seats, or everyone when ``public``.

    Slots move with their cards in public moves (swaps, gives), so knowledge follows the card.
    """

    card: Card
    known: set[int] = field(default_factory=set)
    public: bool = False

    def knows(self, seat: int) -> bool:
        """Whether ``seat`` knows this card."""
        return self.public or seat in self.known

    def seen_by(self) -> frozenset[int] | None:
        """Who sees it, as a Zone says."""
        return None if self.public else frozenset(self.known)

    def __deepcopy__(self, memo: dict[int, Any]) -> Slot:
        """A copy for a copied state (quicker than the generic walk)."""
        return Slot(self.card, set(self.known), self.public)

    def to_json(self) -> list[Any]:
        """``[card, known seats, public]``."""
        return [self.card.text, sorted(self.known), self.public]


Hand = dict[str, Slot]
"""A player's positions, label → slot, in label order."""


def sorted_hand(hand: Hand) -> Hand:
    """The hand with its labels in order (after a card came back into a gap)."""
    return dict(sorted(hand.items(), key=lambda item: label_index(item[0])))


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class CambioState(TotalsState):
    """A cambio game at a decision.

    Phases: ``look`` (the opening look), ``turn`` (the turn's player draws or calls; a snap
    window may be open), ``drawn`` (replace or discard), ``power`` (use the discarded card's
    power or skip), ``decide`` (black king: swap or keep), ``give`` (the snapper's give-back),
    ``over``.
    """

    game: ClassVar[CambioGame]

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.round_index = 0
        self.dealer = 0 if deck_plan.is_stacked else make_rng(seed, "dealer").randrange(players)
        self.phase = "look"
        self.turn = 0
        self.hands: list[Hand] = [{} for _ in range(players)]
        self.next_label = [0] * players
        self.stock: list[Card] = []  # top first
        self.discard: list[Card] = []  # top last
        self.drawn: Card | None = None
        self.looked: set[int] = set()  # seats that made the opening look this round
        self.draws = 0  # draws made this round (Cambio may be called once n were made)
        self.caller: int | None = None
        self.window = False  # a snap window is open on the discard's top card
        self.snapped: set[int] = set()  # seats that tried a snap in the open window
        self.power: str | None = None
        self.king: tuple[str, int, str] | None = None  # the black king's two looked positions
        self.gap: tuple[int, str] | None = None  # where the snapper gives a card to
        self.giver: int | None = None
        self.reshuffles = 0
        self.recent: list[list[tuple[int, str, str]]] = [[] for _ in range(players)]

    # -- dealing -------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_round()

    def start_round(self) -> list[Event]:
        """Deal 4 cards each from the dealer's left to A B C D; the rest is the stock."""
        deck = self.deck_plan.deck(self.round_index)
        order = leader_order((self.dealer + 1) % self.players, self.players)
        self.hands = [{} for _ in range(self.players)]
        for index in range(HAND_SIZE * self.players):
            seat = order[index % self.players]
            self.hands[seat][label_of(index // self.players)] = Slot(deck[index])
        self.next_label = [HAND_SIZE] * self.players
        self.stock = deck[HAND_SIZE * self.players :]
        self.discard = []
        self.drawn = None
        self.phase = "look"
        self.looked = set()
        self.draws = 0
        self.caller = None
        self.window = False
        self.snapped = set()
        self.power = None
        self.king = None
        self.gap = None
        self.giver = None
        self.reshuffles = 0
        self.recent = [[] for _ in range(self.players)]
        self.turn = (self.dealer + 1) % self.players
        return [
            Event(
                N_("Round {round}: {dealer} deals. Everyone looks at two of their cards."),
                kind="deal",
                args=(("round", str(self.round_index + 1)), ("dealer", seat_ref(self.dealer))),
            )
        ]

    def take_card(self, events: list[Event]) -> Card | None:
        """The top stock card; an empty stock is first refilled with the discard pile but its
        top card, shuffled, at most ``RESHUFFLES`` times a round (so no round goes on for
        ever; ``events`` gets the reshuffle, which everyone sees). None when that leaves
        nothing."""
        if not self.stock and len(self.discard) > 1 and self.reshuffles < RESHUFFLES:
            self.stock = self.discard[:-1]
            del self.discard[:-1]
            shuffle(self.stock, make_rng(self.seed, "reshuffle", self.round_index, self.reshuffles))
            self.reshuffles += 1
            events.append(
                Event(
                    N_(
                        "The stock is empty: {count} discarded cards are shuffled into a new "
                        "stock (reshuffle {reshuffle} of {reshuffles} this round)"
                    ),
                    "reshuffle",
                    args=(
                        ("count", str(len(self.stock))),
                        ("reshuffle", str(self.reshuffles)),
                        ("reshuffles", str(RESHUFFLES)),
                    ),
                )
            )
        return self.stock.pop(0) if self.stock else None

    def new_label(self, seat: int) -> str:
        """The next label never used by ``seat`` this round (E, F, …)."""
        label = label_of(self.next_label[seat])
        self.next_label[seat] += 1
        return label

    # -- who acts ------------------------------------------------------------------------------
    def unlocked_targets(self, seat: int) -> list[tuple[int, str]]:
        """Positions of other players that ``seat`` may look at or swap with (not the caller's)."""
        return [
            (other, label)
            for other in range(self.players)
            if other not in (seat, self.caller)
            for label in self.hands[other]
        ]

    def snappers(self) -> list[int]:
        """Seats that may still snap in the open window (once each; not the caller; something
        to snap)."""
        if not self.window or self.phase != "turn":
            return []
        has_target = any(self.hands[seat] for seat in range(self.players) if seat != self.caller)
        if not has_target:
            return []
        return [
            seat for seat in range(self.players) if seat not in self.snapped and seat != self.caller
        ]

    def _to_act(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.phase == "look":
            return tuple(seat for seat in range(self.players) if seat not in self.looked)
        if self.phase == "give":
            assert self.giver is not None
            return (self.giver,)
        if self.phase == "turn" and self.window:
            snappers = self.snappers()  # in seat order; mostly with the turn's seat among them
            return tuple(snappers if self.turn in snappers else sorted([self.turn, *snappers]))
        return (self.turn,)

    def waiting_for(self) -> tuple[int, ...]:
        if self.phase == "turn":
            return (self.turn,)
        return self.to_act()

    def timeout_action(self, seat: int) -> Action | None:
        """At the opening look the rules' default is ``look C D``; elsewhere the AI decides."""
        if self.phase == "look" and seat in self.to_act():
            return Look("C", "D")
        return None

    # -- legal actions -------------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        phase = self.phase
        if phase == "look":
            labels = list(self.hands[seat])
            return tuple(
                look_of(first, second)
                for index, first in enumerate(labels)
                for second in labels[index + 1 :]
            )
        if phase == "turn":
            actions: list[Action] = []
            if seat == self.turn:
                actions.append(DRAW)
                if self.may_call():
                    actions.append(CAMBIO)
            # A seat that may act now and is not the turn's may only snap.
            if seat != self.turn or seat in self.snappers():
                actions.extend(self.snap_actions(seat))
            return tuple(actions)
        if phase == "drawn":
            return (*map(replace_of, self.hands[seat]), DISCARD)
        if phase == "power":
            return (*self._power_actions(seat), SKIP)
        if phase == "decide":
            return (SWAP, KEEP)
        if phase == "give":
            return tuple(map(give_of, self.hands[seat]))
        return ()

    def may_call(self) -> bool:
        """Cambio may be called once per round, once n draws were made."""
        return self.caller is None and self.draws >= self.players

    def snap_actions(self, seat: int) -> list[Action]:
        """Every unlocked position: own first, then the other seats in order."""
        actions: list[Action] = [snap_of(None, label) for label in self.hands[seat]]
        actions.extend(snap_of(other, label) for other, label in self.unlocked_targets(seat))
        return actions

    def _power_actions(self, seat: int) -> list[Action]:
        own = list(self.hands[seat])
        if self.power == "peek":
            return list(map(peek_of, own))
        targets = self.unlocked_targets(seat)
        if self.power == "spy":
            return [spy_of(other, label) for other, label in targets]
        if self.power == "swap":
            return [swap_of(mine, other, label) for mine in own for other, label in targets]
        return [king_peek_of(mine, other, label) for mine in own for other, label in targets]

    def has_power_target(self, seat: int, power: str) -> bool:
        """Whether the power has any target (else it is not offered)."""
        own = bool(self.hands[seat])
        others = bool(self.unlocked_targets(seat))
        if power == "peek":
            return own
        if power == "spy":
            return others
        return own and others

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.over or not 0 <= seat < self.players:
            return super().explain_illegal(seat, action)
        if isinstance(action, Snap):
            return self._explain_snap(seat, action)
        if self.phase == "look":
            if seat in self.looked:
                return _("You have already looked; wait for the others to look at their cards.")
            if isinstance(action, Look):
                return _("Look at two different positions of your own (like: look A B).")
            return _("First look at two of your cards (like: look C D).")
        if seat not in self.to_act():
            if self.phase == "give":
                return _("Wait: the snapper is choosing a card to give.")
            return _("It is not your turn.")
        if action == CAMBIO and self.phase == "turn":
            if self.caller is not None:
                return _("Cambio has already been called this round.")
            return _("You may call Cambio only once everybody has had a turn.")
        hand = self.hands[seat]
        pos = getattr(action, "pos", None)
        own = getattr(action, "own", None)
        for label in (pos if isinstance(action, (Replace, Peek, Give)) else None, own):
            if label is not None and label not in hand:
                return _("You have no card in position {label}.").format(label=label)
        target = getattr(action, "seat", None)
        if isinstance(action, (Spy, BlindSwap, KingPeek)) and isinstance(target, int):
            if target == seat:
                return _("Choose another player's card for that.")
            if target == self.caller:
                return _("That player called Cambio: their cards are locked.")
            if not 0 <= target < self.players or pos not in self.hands[target]:
                return _("There is no card at {position}.").format(position=f"s{target}.{pos}")
        if self.phase == "turn":
            if self.may_call():
                expected = N_("'{action}' is not possible now: draw a card or call Cambio.")
            else:
                expected = N_("'{action}' is not possible now: draw a card.")
        elif self.phase == "power":
            expected = _POWER_HINTS.get(
                self.power or "", N_("'{action}' is not possible now: skip.")
            )
        else:
            expected = _PHASE_HINTS[self.phase]
        return _(expected).format(action=action.text)

    def _explain_snap(self, seat: int, action: Snap) -> str:
        if self.phase != "turn" or not self.window:
            return _("No snap is possible now: the snap window is closed.")
        if seat == self.caller:
            return _("You called Cambio: you may not snap any more.")
        if seat in self.snapped:
            return _("You have already tried a snap on this card.")
        target = seat if action.seat is None else action.seat
        if action.seat == seat:
            return _("Write your own card as '{action}'.").format(action=f"snap {action.pos}")
        if target == self.caller:
            return _("That player called Cambio: their cards are locked.")
        if not 0 <= target < self.players or action.pos not in self.hands[target]:
            return _("There is no card at {position}.").format(position=action.text.split()[1])
        return _("That snap is not possible now.")

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        # A seat's "just looked at" cards are shown until its next action.
        self.recent[seat] = []
        if self.phase == "look":
            assert isinstance(action, Look)
            return self._apply_look(seat, action)
        if isinstance(action, Snap):
            return self._apply_snap(seat, action)
        if self.phase == "turn":
            return self._apply_turn(seat, action)
        if self.phase == "drawn":
            return self._apply_drawn(seat, action)
        if self.phase == "give":
            assert isinstance(action, Give)
            return self._apply_give(seat, action)
        return self._apply_power(seat, action)

    def _see(self, seat: int, owner: int, label: str) -> str:
        """``seat`` looks at ``owner``'s ``label``: it knows the card from now on."""
        slot = self.hands[owner][label]
        slot.known.add(seat)
        self.recent[seat].append((owner, label, slot.card.text))
        return slot.card.pretty

    def _apply_look(self, seat: int, action: Look) -> list[Event]:
        first = self._see(seat, seat, action.first)
        second = self._see(seat, seat, action.second)
        self.looked.add(seat)
        labels = (("first", action.first), ("second", action.second))
        events = [
            Event(
                N_("{player} looked at their cards {first} and {second}"),
                "look",
                args=(("player", seat_ref(seat)), *labels),
            ),
            Event(
                N_("You see your card {first}: {first_card}, your card {second}: {second_card}"),
                "look",
                frozenset((seat,)),
                (*labels, ("first_card", first), ("second_card", second)),
            ),
        ]
        if len(self.looked) == self.players:
            self.phase = "turn"
            events.append(
                Event(
                    N_("Everyone has looked; {player} plays first."),
                    "turn",
                    args=(("player", seat_ref(self.turn)),),
                )
            )
        return events

    def _apply_turn(self, seat: int, action: Action) -> list[Event]:
        self.window = False
        self.snapped = set()
        if action == CAMBIO:
            self.caller = seat
            call = Event(
                N_("{player} calls Cambio! Everyone else has one more turn."),
                "call",
                args=(("player", seat_ref(seat)),),
            )
            return [call, *self.end_turn(open_window=False)]
        events: list[Event] = []
        card = self.take_card(events)
        if card is None:
            if self.reshuffles == RESHUFFLES:
                why = N_(
                    "{player} cannot draw: the stock is empty after the round's {count} reshuffles."
                )
            else:
                why = N_("{player} cannot draw: no cards are left to take.")
            events.append(
                Event(why, "draw", args=(("player", seat_ref(seat)), ("count", str(RESHUFFLES))))
            )
            return events + self.end_round()
        self.draws += 1
        self.drawn = card
        self.phase = "drawn"
        return [
            *events,
            Event(N_("{player} drew a card"), "draw", args=(("player", seat_ref(seat)),)),
            Event(N_("You drew {card}"), "draw", frozenset((seat,)), (("card", card.pretty),)),
        ]

    def _apply_drawn(self, seat: int, action: Action) -> list[Event]:
        drawn = self.drawn
        assert drawn is not None
        self.drawn = None
        if isinstance(action, Replace):
            old = self.hands[seat][action.pos]
            self.hands[seat][action.pos] = Slot(drawn, {seat})
            self.discard.append(old.card)
            events = [
                Event(
                    N_(
                        "{player} put the drawn card in place of their card {label}; "
                        "{card} goes to the discard"
                    ),
                    "replace",
                    args=(
                        ("player", seat_ref(seat)),
                        ("label", action.pos),
                        ("card", old.card.pretty),
                    ),
                )
            ]
            return events + self.end_turn()
        self.discard.append(drawn)
        events = [
            Event(
                N_("{player} discarded {card}"),
                "discard",
                args=(("player", seat_ref(seat)), ("card", drawn.pretty)),
            )
        ]
        power = power_of(drawn)
        if power is not None and self.has_power_target(seat, power):
            self.power = power
            self.phase = "power"
            return events
        return events + self.end_turn()

    def _apply_power(self, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        only_me = frozenset((seat,))
        player = ("player", seat_ref(seat))
        if isinstance(action, Peek):
            card = self._see(seat, seat, action.pos)
            label = ("label", action.pos)
            events += [
                Event(N_("{player} looked at their card {label}"), "power", args=(player, label)),
                Event(N_("Your card {label} is {card}"), "power", only_me, (label, ("card", card))),
            ]
        elif isinstance(action, Spy):
            card = self._see(seat, action.seat, action.pos)
            spied = (("other", seat_ref(action.seat)), ("label", action.pos))
            events += [
                Event(
                    N_("{player} looked at {other}'s card {label}"),
                    "power",
                    args=(player, *spied),
                ),
                Event(
                    N_("{other}'s card {label} is {card}"),
                    "power",
                    only_me,
                    (*spied, ("card", card)),
                ),
            ]
        elif isinstance(action, BlindSwap):
            self.swap(seat, action.own, action.seat, action.pos)
            events.append(
                Event(
                    N_("{player} swapped their card {own} with {other}'s card {label}, unseen"),
                    "power",
                    args=(
                        player,
                        ("own", action.own),
                        ("other", seat_ref(action.seat)),
                        ("label", action.pos),
                    ),
                )
            )
        elif isinstance(action, KingPeek):
            mine = self._see(seat, seat, action.own)
            theirs = self._see(seat, action.seat, action.pos)
            self.king = (action.own, action.seat, action.pos)
            self.phase = "decide"
            looked = (("own", action.own), ("other", seat_ref(action.seat)), ("label", action.pos))
            return [
                Event(
                    N_("{player} looked at their card {own} and {other}'s card {label}"),
                    "power",
                    args=(player, *looked),
                ),
                Event(
                    N_("Your card {own} is {own_card}; {other}'s card {label} is {card}"),
                    "power",
                    only_me,
                    (*looked, ("own_card", mine), ("card", theirs)),
                ),
            ]
        elif self.phase == "decide":
            assert self.king is not None
            own, other, pos = self.king
            # The looked cards stay on show while the seat decided; now it must remember them.
            if action == SWAP:
                self.swap(seat, own, other, pos)
                events.append(
                    Event(
                        N_("{player} swapped their card {own} with {other}'s card {label}"),
                        "power",
                        args=(player, ("own", own), ("other", seat_ref(other)), ("label", pos)),
                    )
                )
            else:
                events.append(
                    Event(N_("{player} kept the cards where they were"), "power", args=(player,))
                )
        else:
            events.append(Event(N_("{player} did not use the power"), "power", args=(player,)))
        return events + self.end_turn()

    def swap(self, seat: int, own: str, other: int, pos: str) -> None:
        """A public swap: the cards change places and what anyone knew moves with them."""
        mine, theirs = self.hands[seat], self.hands[other]
        mine[own], theirs[pos] = theirs[pos], mine[own]

    def end_turn(self, open_window: bool = True) -> list[Event]:
        """Pass the turn left; a card on the discard opens a snap window. When the turn comes
        back to the caller, the round ends at once (no window after the last final turn)."""
        self.phase = "turn"
        self.power = None
        self.king = None
        self.snapped = set()
        following = (self.turn + 1) % self.players
        if following == self.caller:
            self.window = False
            return self.end_round()
        self.turn = following
        self.window = open_window and bool(self.discard)
        return []

    def _apply_snap(self, seat: int, action: Snap) -> list[Event]:
        self.snapped.add(seat)
        owner = seat if action.seat is None else action.seat
        slot = self.hands[owner][action.pos]
        top = self.discard[-1]
        snapped: tuple[tuple[str, str], ...] = (
            ("player", seat_ref(seat)),
            ("other", seat_ref(owner)),
            ("label", action.pos),
            ("card", slot.card.pretty),
        )
        if slot.card.rank == top.rank:
            del self.hands[owner][action.pos]
            self.discard.append(slot.card)
            self.window = False
            self.snapped = set()
            if owner == seat:
                message = N_("{player} snapped their card {label}: {card} — correct!")
            else:
                message = N_("{player} snapped {other}'s card {label}: {card} — correct!")
            events = [Event(message, "snap", args=snapped)]
            if owner != seat and self.hands[seat]:
                self.phase = "give"
                self.giver = seat
                self.gap = (owner, action.pos)
                events.append(
                    Event(N_("{player} chooses a card to give {other}"), "snap", args=snapped[:2])
                )
            return events
        # Wrong: the card goes back face down where it was, seen by everyone, and a penalty.
        slot.public = True
        for entries in self.recent:
            if (owner, action.pos, slot.card.text) not in entries:
                entries.append((owner, action.pos, slot.card.text))
        if owner == seat:
            message = N_(
                "{player} snapped their card {label}: {card} does not match {top} — wrong!"
            )
        else:
            message = N_(
                "{player} snapped {other}'s card {label}: {card} does not match {top} — wrong!"
            )
        events = [Event(message, "snap", args=(*snapped, ("top", top.pretty)))]
        penalty = self.take_card(events)
        if penalty is None:
            events.append(Event(N_("No card is left for a penalty."), "snap"))
            return events
        label = self.new_label(seat)
        self.hands[seat][label] = Slot(penalty)
        events.append(
            Event(
                N_("{player} takes a penalty card, unseen: their new card {label}"),
                "snap",
                args=(("player", seat_ref(seat)), ("label", label)),
            )
        )
        return events

    def _apply_give(self, seat: int, action: Give) -> list[Event]:
        assert self.gap is not None
        owner, pos = self.gap
        self.hands[owner][pos] = self.hands[seat].pop(action.pos)
        self.hands[owner] = sorted_hand(self.hands[owner])
        self.phase = "turn"
        self.gap = None
        self.giver = None
        return [
            Event(
                N_("{player} moved their card {own} into {other}'s empty card {label}"),
                "give",
                args=(
                    ("player", seat_ref(seat)),
                    ("own", action.pos),
                    ("other", seat_ref(owner)),
                    ("label", pos),
                ),
            )
        ]

    # -- end of a round and of the game --------------------------------------------------------
    def round_points(self) -> list[int]:
        """Each player's card points now (no cards: 0)."""
        return [sum([POINTS[slot.card] for slot in hand.values()]) for hand in self.hands]

    def end_round(self) -> list[Event]:
        """Reveal, score, and either end the game or deal the next round (the deal passes left)."""
        for hand in self.hands:
            for slot in hand.values():
                slot.public = True
        scored = self.round_points()
        for seat, gained in enumerate(scored):
            self.totals[seat] += gained
        self.history.append(scored)
        self.window = False
        self.phase = "turn"
        self.last_reveal = {**self.public_view(), "revealed": self.faces()}
        # each card with its points, so the sum can be checked: "5♠ 5, K♥ -1"
        shown = "; ".join(
            f"{{s{seat}}} {scored[seat]} ("
            + (
                ", ".join([f"{slot.card.pretty} {POINTS[slot.card]}" for slot in hand.values()])
                or "no cards"
            )
            + ")"
            for seat, hand in enumerate(self.hands)
        )
        totals = ", ".join(f"{{s{seat}}} {self.totals[seat]}" for seat in range(self.players))
        events = [
            Event(
                N_("Round {round} scores: {scores} · totals: {totals}"),
                kind="hand_end",
                args=(("round", str(self.round_index + 1)), ("scores", shown), ("totals", totals)),
            )
        ]
        limit = self.options["limit"]
        rounds = self.options["rounds"] or self.players
        if (limit is not None and max(self.totals) >= int(limit)) or (
            limit is None and self.round_index + 1 >= int(rounds)
        ):
            self.over = True
            self.phase = "over"
            best = ("points", str(min(self.totals)))
            winners = self.winners()
            if len(winners) == 1:
                won = Event(
                    N_("{player} wins with {points} points"),
                    "game_end",
                    args=(("player", seat_ref(winners[0])), best),
                )
            else:
                names = " and ".join(seat_ref(seat) for seat in winners)
                won = Event(
                    N_("{players} share the win with {points} points"),
                    "game_end",
                    args=(("players", names), best),
                )
            events.append(won)
            return events
        self.round_index += 1
        self.dealer = (self.dealer + 1) % self.players
        return events + self.start_round()

    # -- views ---------------------------------------------------------------------------------
    def public_view(self) -> View:
        view: View = {
            "game": self.game.id,
            "round": self.round_index + 1,
            "rounds": None
            if self.options["limit"] is not None
            else (self.options["rounds"] or self.players),
            "limit": self.options["limit"],
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "to_act": list(self.to_act()),
            "waiting_for": list(self.waiting_for()) if not self.over else [],
            "positions": [list(hand) for hand in self.hands],
            "stock": len(self.stock),
            "discard_top": self.discard[-1].text if self.discard else None,
            "discard_size": len(self.discard),
            "draws": self.draws,
            "cambio_allowed": self.may_call(),
            "caller": self.caller,
            "snap_window": self.window and self.phase == "turn",
            "may_snap": self.snappers(),
            "snap_seconds": self.options["snap_seconds"],
            "power": self.power,
            # decide: the black king's two looked positions [own, seat, pos]; give: [seat, pos]
            "pending": list(self.king) if self.king else list(self.gap) if self.gap else None,
            "scores": list(self.totals),
            "history": [list(points) for points in self.history],
            "over": self.over,
            "winners": list(self.winners()),
        }
        if self.over:
            view["revealed"] = self.faces()
        return view

    def faces(self) -> list[dict[str, str]]:
        """Every position's card, by seat (what a reveal shows)."""
        return [{label: slot.card.text for label, slot in hand.items()} for hand in self.hands]

    def view(self, seat: int) -> View:
        return self._seat_view(seat, memory=bool(self.options["memory_aid"]))

    def agent_view(self, seat: int) -> View:
        """The seat's full knowledge, as the ``memory_aid`` view shows it: every card it has
        seen and not lost track of (the AI remembers what it saw, like a perfect memory)."""
        return self._seat_view(seat, memory=True)

    def _seat_view(self, seat: int, memory: bool) -> View:
        view = self.public_view()
        view["seat"] = seat
        view["drawn"] = self.drawn.text if self.drawn is not None and seat == self.turn else None
        # [seat, position, card] for what this seat looked at in its last action
        view["just_seen"] = [[owner, label, card] for owner, label, card in self.recent[seat]]
        if memory:
            view["known"] = [
                {label: slot.card.text for label, slot in hand.items() if slot.knows(seat)}
                for hand in self.hands
            ]
        return view

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        # Knowledge stays with the position: a seat that knew a hidden card knows the new one.
        hidden = [
            (owner, slot)
            for owner, hand in enumerate(self.hands)
            for slot in hand.values()
            if not slot.knows(seat)
        ]
        faces = [slot.card for _owner, slot in hidden]
        drawn = [self.drawn] if self.drawn is not None and seat != self.turn else []
        redeal([faces, drawn, self.stock], rng)
        tilt = KNOWN_TILT[min(self.draws // self.players, len(KNOWN_TILT) - 1)]
        if tilt:
            # Players replace the high cards they know with low draws, so a card its owner
            # knows is likely low, the more so the longer the round has run. Which positions
            # each player knows is public (every look, peek and kept draw is announced), and
            # so is the number of draws: the belief uses nothing hidden from the seat. Each
            # such position takes a card picked with weight exp(-tilt * points) from the
            # places not yet settled (swapped with it: the rest stays a random deal).
            cards = [*faces, *drawn, *self.stock]
            settled: set[int] = set()
            for index, (owner, slot) in enumerate(hidden):
                if owner in slot.known:
                    free = [place for place in range(len(cards)) if place not in settled]
                    weights = [math.exp(-tilt * POINTS[cards[place]]) for place in free]
                    picked = rng.choices(free, weights)[0]
                    cards[index], cards[picked] = cards[picked], cards[index]
                    settled.add(index)
            deal_out([faces, drawn, self.stock], cards)
        for (_owner, slot), card in zip(hidden, faces, strict=True):
            slot.card = card
        if drawn:
            self.drawn = drawn[0]
        # What the others just looked at follows the cards now in those positions.
        for other, entries in enumerate(self.recent):
            if other != seat:
                self.recent[other] = [
                    (owner, label, self.hands[owner][label].card.text)
                    if label in self.hands[owner]
                    else (owner, label, card)
                    for owner, label, card in entries
                ]

    def zones(self) -> Iterable[Zone]:
        for seat, hand in enumerate(self.hands):
            for label, slot in hand.items():
                yield Zone(f"s{seat}.{label}", (slot.card,), slot.seen_by())
        if self.drawn is not None:
            yield Zone("drawn", (self.drawn,), frozenset((self.turn,)))
        yield Zone("stock", tuple(self.stock), frozenset())
        yield Zone("discard", tuple(self.discard), None)

    # -- saving ----------------------------------------------------------------------------------
    def _to_json(self) -> dict[str, Any]:
        return {
            "round_index": self.round_index,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "hands": [
                [[label, *slot.to_json()] for label, slot in hand.items()] for hand in self.hands
            ],
            "next_label": list(self.next_label),
            "stock": cards_json(self.stock),
            "discard": cards_json(self.discard),
            "drawn": self.drawn.text if self.drawn is not None else None,
            "looked": sorted(self.looked),
            "draws": self.draws,
            "caller": self.caller,
            "window": self.window,
            "snapped": sorted(self.snapped),
            "power": self.power,
            "king": list(self.king) if self.king else None,
            "gap": list(self.gap) if self.gap else None,
            "giver": self.giver,
            "reshuffles": self.reshuffles,
            "recent": [[list(entry) for entry in entries] for entries in self.recent],
            **self.totals_json(),
        }


# -- the game type ---------------------------------------------------------------------------------

_SEAT_POS = re.compile(r"^s(\d+)\.(\w+)$", re.IGNORECASE)


class CambioGame(Game):
    """The game type of cambio."""

    state_class = CambioState

    lowest_wins = True

    id = "cambio"
    name = N_("Cambio")
    player_counts = (2, 3, 4, 5, 6)
    options = (
        Option(
            "snap_seconds",
            5,
            N_("time to snap before the next player may draw"),
            minimum=0,
            maximum=60,
            label=N_("Snap window"),
            unit=N_("second"),
        ),
        Option(
            "rounds",
            None,
            N_("rounds to play"),
            minimum=1,
            maximum=50,
            optional=True,
            unset=N_("one per player"),
            label=N_("Rounds"),
        ),
        Option(
            "limit",
            None,
            N_("play until someone reaches this total, instead of a number of rounds"),
            minimum=1,
            maximum=1000,
            optional=True,
            label=N_("Score limit"),
            unit=N_("point"),
        ),
        Option(
            "memory_aid",
            False,
            N_("show each player the cards they have seen"),
            kind=bool,
            label=N_("Memory aid"),
        ),
    )
    pitch = N_(
        "Remember your face-down cards, peek and swap with powers, snap "
        "matches; the lowest total wins."
    )

    def parse_action(self, text: str) -> Action:
        expected = (
            "look A B, draw, cambio, replace C, discard, peek B, spy s2.C, swap A s2.C, "
            "peek A s2.C, swap, keep, skip, snap C, snap s2.C or give A"
        )
        words = text.split()
        if not words:
            raise parse_error(text, expected)
        verb = words[0].lower()
        args = words[1:]
        try:
            if not args and verb in PLAIN_WORDS:
                return PLAIN_WORDS[verb]
            if verb == "look" and len(args) == 2:
                first, second = sorted((own_label(args[0]), own_label(args[1])), key=label_index)
                if first == second:
                    raise ValueError(text)
                return Look(first, second)
            if len(args) == 1 and verb == "replace":
                return Replace(own_label(args[0]))
            if len(args) == 1 and verb == "peek":
                return Peek(own_label(args[0]))
            if len(args) == 1 and verb == "give":
                return Give(own_label(args[0]))
            if verb == "spy" and len(args) == 1:
                return Spy(*seat_label(args[0]))
            if verb in ("swap", "peek") and len(args) == 2:
                other, pos = seat_label(args[1])
                if verb == "swap":
                    return BlindSwap(own_label(args[0]), other, pos)
                return KingPeek(own_label(args[0]), other, pos)
            if verb == "snap" and len(args) == 1:
                if "." in args[0]:
                    return Snap(*seat_label(args[0]))
                return Snap(None, own_label(args[0]))
        except ValueError:
            pass
        raise parse_error(text, expected)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = CambioState.from_saved_header(data)
        state.round_index = int(data["round_index"])
        state.dealer = int(data["dealer"])
        state.phase = str(data["phase"])
        state.turn = int(data["turn"])
        hands: list[Hand] = []
        for hand in data["hands"]:
            slots: Hand = {}
            for label, card, known, public in hand:
                label_index(label)
                (parsed,) = cards_from_json([card])
                slots[str(label)] = Slot(parsed, {int(s) for s in known}, bool(public))
            hands.append(slots)
        if len(hands) != state.players:
            raise SavedStateError("saved cambio state has the wrong number of hands")
        state.hands = hands
        state.next_label = [int(n) for n in data["next_label"]]
        state.stock = cards_from_json(data["stock"])
        state.discard = cards_from_json(data["discard"])
        state.drawn = cards_from_json([data["drawn"]])[0] if data["drawn"] else None
        state.looked = {int(s) for s in data["looked"]}
        state.draws = int(data["draws"])
        state.caller = None if data["caller"] is None else int(data["caller"])
        state.window = bool(data["window"])
        state.snapped = {int(s) for s in data["snapped"]}
        state.power = data["power"]
        king = data["king"]
        state.king = (str(king[0]), int(king[1]), str(king[2])) if king else None
        gap = data["gap"]
        state.gap = (int(gap[0]), str(gap[1])) if gap else None
        state.giver = None if data["giver"] is None else int(data["giver"])
        state.reshuffles = int(data["reshuffles"])
        state.recent = [
            [(int(owner), str(label), str(card)) for owner, label, card in entries]
            for entries in data["recent"]
        ]
        state.read_totals(data)
        return state

    def out_of_turn_seconds(self, options: Mapping[str, OptionValue]) -> float | None:
        """The snap window is the ``snap_seconds`` option."""
        seconds = options.get("snap_seconds")
        return float(seconds) if isinstance(seconds, int) else None

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        if step in _STEP_WORDS:
            return _(_STEP_WORDS[step])
        if step == "you":
            return _("Your own cards")
        if step[:1] == "s" and step[1:].isdigit():
            return _("{player}'s cards").format(player=names[int(step[1:])])
        owner = chosen[-1] if chosen else ""
        return _position_words(owner, step, names)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if not chosen:
            return _first_prompt(offered)
        last = chosen[-1]
        if last == "you":
            if chosen[0] == "snap":
                return _("Snap which of your cards?")
            if chosen[0] == "spy":
                return _("Look at which of your cards?")
            return _("With which of your cards?")
        if last[:1] == "s" and last[1:].isdigit():
            player = names[int(last[1:])]
            if chosen[0] == "snap":
                prompt = _("Snap which of {player}'s cards?")
            elif chosen[0] == "spy":
                prompt = _("Look at which of {player}'s cards?")
            else:
                prompt = _("With which of {player}'s cards?")
            return prompt.format(player=player)
        if len(chosen) == 1:
            first = _FIRST_STEP_PROMPTS.get(last)
            return None if first is None else _(first)
        if chosen[0] == "look":
            return _("Your card {label} and which other?").format(label=last)
        return _("With whose card?")

    def card_set(self, action: Action) -> CardSet | None:
        """The opening look is two of one's positions, chosen together."""
        if isinstance(action, Look):
            positions = (action.first, action.second)
            return CardSet(1, positions, positions)
        return None

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        return _("Look at which two of your cards?") if chosen == ("look",) else None

    def confirmation(self, action: Action) -> str | None:
        """Calling Cambio ends the round for everyone: asked once more, never by mistake."""
        return _(CALL_CAMBIO_CONFIRM) if action == CAMBIO else None

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        if isinstance(action, Word):
            # a black king's swap after looking: the two cards are known by then
            return _("Swap the two cards") if action == SWAP else _(_STEP_WORDS[action.word])
        if isinstance(action, Look):
            return _("Look at your cards {first} and {second}").format(
                first=action.first, second=action.second
            )
        if isinstance(action, Replace):
            return _("Replace your card {label}").format(label=action.pos)
        if isinstance(action, Peek):
            return _("Look at your card {label}").format(label=action.pos)
        if isinstance(action, Give):
            return _("Give your card {label}").format(label=action.pos)
        if isinstance(action, Spy):
            return _("Look at {player}'s card {label}").format(
                player=names[action.seat], label=action.pos
            )
        if isinstance(action, BlindSwap):
            return _("Swap your card {own} with {player}'s card {label}, unseen").format(
                own=action.own, player=names[action.seat], label=action.pos
            )
        if isinstance(action, KingPeek):
            return _("Look at your card {own} and {player}'s card {label}").format(
                own=action.own, player=names[action.seat], label=action.pos
            )
        assert isinstance(action, Snap)
        if action.seat is None:
            return _("Snap your card {label}").format(label=action.pos)
        return _("Snap {player}'s card {label}").format(player=names[action.seat], label=action.pos)

    def describe(self, view: View) -> list[str]:
        top = view["discard_top"]
        if top:
            discard = _("discard {top} ({size})").format(
                top=describe_cards([top]), size=view["discard_size"]
            )
        else:
            discard = _("discard empty")
        lines = [
            " · ".join(
                (
                    self._round_words(view),
                    _("dealer {dealer}").format(dealer=seat_ref(view["dealer"])),
                    _("stock {count}").format(count=view["stock"]),
                    discard,
                )
            )
        ]
        seat = view.get("seat")
        known = view.get("known")
        revealed = view.get("revealed")
        for owner, labels in enumerate(view["positions"]):
            cards: dict[str, str] = {}
            if revealed:
                cards = revealed[owner]
            elif known:
                cards = known[owner]
            # "[B 3♦]" a known card, "[A ?]" an unknown one: a label never reads as a rank.
            shown = " ".join(
                f"[{label} {describe_cards([cards[label]]) if label in cards else '?'}]"
                for label in labels
            )
            line = _HAND_LINES[(owner == seat, bool(shown), view["caller"] == owner)]
            lines.append(_(line).format(player=seat_ref(owner), cards=shown))
        if view.get("drawn"):
            lines.append(_("You drew {card}").format(card=describe_cards([view["drawn"]])))
        seen = view.get("just_seen") or []
        if seen:
            lines.append(
                _("You just saw: {cards}").format(
                    cards=", ".join(
                        (
                            _("your card {label}: {card}")
                            if owner == seat
                            else _("{player}'s card {label}: {card}")
                        ).format(player=seat_ref(owner), label=label, card=describe_cards([card]))
                        for owner, label, card in seen
                    )
                )
            )
        phase = view["phase"]
        acting = view["to_act"][0] if view["to_act"] else view["turn"]
        if phase == "look":
            lines.append(_("Everyone looks at two of their own cards."))
        elif phase == "turn" and not view["over"]:
            parts = [
                _turn_words(view["turn"], seat),
                _("draw or call Cambio") if view["cambio_allowed"] else _("draw"),
            ]
            if view["snap_window"] and top:
                parts.append(_("snap window open on {card}").format(card=describe_cards([top])))
            lines.append(" · ".join(parts))
        elif phase in _PHASE_WORDS:
            lines.append(_turn_words(acting, seat) + " · " + _(_PHASE_WORDS[phase]))
        elif phase == "power":
            power = _POWER_WORDS[(view["power"], acting == seat)]
            lines.append(_turn_words(acting, seat) + " · " + _(power))
        lines.append(scores_line(view["scores"]))
        return lines

    def summary(self, view: View) -> list[str]:
        lines = [
            self._round_words(view)
            + " · "
            + _("dealer {dealer}").format(dealer=seat_ref(view["dealer"]))
        ]
        if view["caller"] is not None:
            lines.append(
                _("{player} called Cambio: their cards are locked").format(
                    player=seat_ref(view["caller"])
                )
            )
        top = view["discard_top"]
        if view["phase"] == "turn" and view["snap_window"] and top:
            rank = RANK_TEXT[Card.parse(top).rank]
            lines.append(
                _("⚡ Snap window: the discard is {card}, snap any {rank}").format(
                    card=describe_cards([top]), rank=rank
                )
            )
        lines.append(scores_line(view["scores"]))
        return lines

    def _round_words(self, view: View) -> str:
        """ "Round 2 of 3", or the round and the score limit that ends the game."""
        if view["rounds"]:
            return _("Round {round} of {rounds}").format(round=view["round"], rounds=view["rounds"])
        limit = int(view["limit"])
        return ngettext(
            "Round {round} · until someone reaches {limit} point",
            "Round {round} · until someone reaches {limit} points",
            limit,
        ).format(round=view["round"], limit=limit)

    def layout(self, view: View) -> Layout:
        # Positions are captioned "card A" (as the controls say "your card A") so that a
        # position never reads as a rank.
        faces = view.get("revealed") or view.get("known") or [{} for _hand in view["positions"]]
        just_seen = {(owner, label): card for owner, label, card in view.get("just_seen") or []}
        hands = [
            Group(
                _("You") if owner == view.get("seat") else seat_ref(owner),
                tuple(
                    Shown(
                        Card.parse(card) if card else None,
                        _("card {label}").format(label=label),
                    )
                    for label in labels
                    for card in [faces[owner].get(label) or just_seen.get((owner, label))]
                ),
                mine=owner == view.get("seat"),
            )
            for owner, labels in enumerate(view["positions"])
        ]
        table = [
            stack(_("Stock"), view["stock"]),
            stack(_("Discard"), view["discard_size"], view["discard_top"]),
        ]
        if view.get("drawn"):
            table.append(face_up(_("You drew"), [view["drawn"]], mine=True))
        return rows(table, hands)


def _turn_words(acting: int, seat: int | None) -> str:
    """Whose turn it is, as a description's line starts: ``Turn: You``, ``Turn: {s1}``."""
    if acting == seat:
        return _("Turn: You")
    return _("Turn: {player}").format(player=seat_ref(acting))


_HAND_LINES = {
    (True, True, False): N_("You: {cards}"),
    (True, True, True): N_("You: {cards} (called Cambio: locked)"),
    (True, False, False): N_("You: no cards"),
    (True, False, True): N_("You: no cards (called Cambio: locked)"),
    (False, True, False): N_("{player}: {cards}"),
    (False, True, True): N_("{player}: {cards} (called Cambio: locked)"),
    (False, False, False): N_("{player}: no cards"),
    (False, False, True): N_("{player}: no cards (called Cambio: locked)"),
}
"""A player's line in a description, by (the reader's own, any cards, called Cambio)."""

_PHASE_WORDS = {
    "give": N_("give a card into the snapped card's place"),
    "drawn": N_("replace a card with the drawn one, or discard it"),
    "decide": N_("swap the two looked-at cards, or keep them"),
}
"""What the acting player does now, by phase (a description's turn line)."""

_POWER_WORDS = {
    ("peek", True): N_("may look at one of your cards (or skip)"),
    ("peek", False): N_("may look at one of their cards (or skip)"),
    ("spy", True): N_("may look at another player's card (or skip)"),
    ("spy", False): N_("may look at another player's card (or skip)"),
    ("swap", True): N_("may swap one of your cards with another player's, unseen (or skip)"),
    ("swap", False): N_("may swap one of their cards with another player's, unseen (or skip)"),
    ("king", True): N_(
        "may look at one of your cards and another player's, then swap or keep (or skip)"
    ),
    ("king", False): N_(
        "may look at one of their cards and another player's, then swap or keep (or skip)"
    ),
}
"""The power the acting player may use, by (power, the reader acts)."""

_FIRST_STEP_PROMPTS = {
    "look": N_("Look at which two of your cards? The first:"),
    "replace": N_("Put the drawn card in place of which of your cards?"),
    "peek": N_("Look at which of your cards?"),
    "spy": N_("Look at whose card?"),
    "swap": N_("Swap which of your cards (unseen)?"),
    "snap": N_("Snap whose card?"),
    "give": N_("Give which of your cards?"),
}
"""The question after a decision's first step."""


def own_label(text: str) -> str:
    """An own position label (``c`` → ``C``); ValueError when it is not one."""
    label_index(text)
    return text.upper()


def seat_label(text: str) -> tuple[int, str]:
    """``s2.C`` → (2, ``C``); ValueError when it is not that form."""
    match = _SEAT_POS.match(text)
    if not match:
        raise ValueError(text)
    return int(match.group(1)), own_label(match.group(2))


GAME = CambioGame()
CambioState.game = GAME
