"""The table of cambio: what its cards are worth, their powers, the labelled positions that
hold them, the table itself (``CambioTable``: every card and mark the rules read and change),
and what the rules do to it: take a card from the stock, look at a card, swap two
(docs/rules/cambio.md §2, §3, §6, §9, §10)."""

from __future__ import annotations

import re
from typing import Any, Final

from mypy_extensions import mypyc_attr

from engine.cards import ACE, CLUBS, JACK, KING, QUEEN, SPADES, Card, shuffle
from engine.core import DeckPlan, Event, OptionValue, TotalsState, make_rng
from engine.words import N_

HAND_SIZE: Final = 4
"""Cards dealt to each player (§4.2)."""
LOOK_COUNT: Final = 2
"""Own positions each player looks at before play (§4.3)."""
RESHUFFLES: Final = 2
"""A round's reshuffles of the discard into the stock (§9.2): after that an empty stock has
nothing to take, so no round goes on for ever."""

LOOK: Final = "look"
TURN: Final = "turn"
DRAWN: Final = "drawn"
POWER: Final = "power"
DECIDE: Final = "decide"
GIVE: Final = "give"
OVER: Final = "over"
"""The phases: the opening look; the turn's player draws or calls (a snap window may be
open); replace or discard the drawn card; use the discarded card's power or skip; the black
king's swap or keep; the snapper's give-back; the game is over."""


PEEK: Final = "peek"
SPY: Final = "spy"
SWAP_POWER: Final = "swap"
KING_POWER: Final = "king"
"""The powers (§6)."""


def points(card: Card) -> int:
    """A card's points (§2.1): A 0, 2–10 face value, J Q and black kings 10, red kings −1.

    >>> points(Card.parse("KH")), points(Card.parse("KS")), points(Card.parse("7C"))
    (-1, 10, 7)
    """
    rank = card.rank
    if rank == ACE:
        return 0
    if rank == KING and card.is_red:
        return -1
    return rank if rank < 10 else 10


def power_of(card: Card) -> str | None:
    """The power of a card discarded straight from the stock (§6): ``peek`` (7/8, one own
    card), ``spy`` (9/10, one card of another player), ``swap`` (J/Q, blind swap), ``king``
    (K♠ K♣, look at one of each then swap or keep); None for A–6 and red kings (§6.5)."""
    rank = card.rank
    if rank in (7, 8):
        return PEEK
    if rank in (9, 10):
        return SPY
    if rank in (JACK, QUEEN):
        return SWAP_POWER
    if rank == KING and card.suit in (CLUBS, SPADES):
        return KING_POWER
    return None


MAX_PLAYERS: Final = 6
"""The most players at a table (§1.1)."""
SEAT_REFS: Final = tuple(f"{{s{seat}}}" for seat in range(MAX_PLAYERS))
"""Each seat as an event's argument, written once (events name seats all the time)."""


def seat_ref(seat: int) -> str:
    """A seat as an event's argument: ``{s2}``, filled with the player's name when rendered."""
    return SEAT_REFS[seat]


# -- position labels (§3) --------------------------------------------------------------------------
# A … Y, then ZA … ZY, ZZA …: never a card text (a card is rank then suit) nor a seat (s2), so
# no label is mistaken for either, and labels sort by their index.
_LABEL = re.compile(r"^(Z*)([A-Y])$")
LETTERS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXY"
"""A label's last letter (Z only prefixes)."""


def label_of(index: int) -> str:
    """The label of the ``index``-th position a player gets in a round (0 → A, 25 → ZA)."""
    prefix, letter = divmod(index, len(LETTERS))
    return "Z" * prefix + LETTERS[letter]


def label_index(label: str) -> int:
    """The inverse of ``label_of``; raises ValueError for text that is not a label."""
    match = _LABEL.match(label.upper())
    if not match:
        raise ValueError(label)
    return len(match.group(1)) * 25 + ord(match.group(2)) - ord("A")


class Slot:
    """A card in a position and who knows it (§10.1): ``known`` seats, or everyone when
    ``public``. Slots move with their cards in public moves (swaps, gives), so knowledge
    follows the card."""

    def __init__(self, card: Card, known: set[int] | None = None, public: bool = False) -> None:
        self.card = card
        self.known: set[int] = set() if known is None else known
        self.public = public

    def __repr__(self) -> str:
        return f"Slot({self.card!r}, {self.known!r}, {self.public!r})"

    def knows(self, seat: int) -> bool:
        """Whether ``seat`` knows this card."""
        return self.public or seat in self.known

    def seen_by(self) -> frozenset[int] | None:
        """Who sees it, as a Zone says."""
        return None if self.public else frozenset(self.known)

    def __deepcopy__(self, memo: dict[int, Any]) -> Slot:
        """A copy for a copied table (quicker than the generic walk)."""
        return Slot(self.card, set(self.known), self.public)

    def to_json(self) -> list[Any]:
        """``[card, known seats, public]``."""
        return [self.card.text, sorted(self.known), self.public]


Hand = dict[str, Slot]
"""A player's positions, label → slot, in label order (§3.1)."""


def sorted_hand(hand: Hand) -> Hand:
    """The hand with its labels in order (after a card came back into a gap)."""
    return {label: hand[label] for label in sorted(hand, key=label_index)}


# -- the table -------------------------------------------------------------------------------


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class CambioTable(TotalsState):
    """The table of a cambio game: the positions and piles, whose turn, the call, the snap
    window and the totals; the rules (``rules``, ``snaps``) read and change it, and
    ``state.CambioState`` answers the engine by asking them. Phases: ``look`` (the opening
    look), ``turn`` (the turn's player draws or calls; a snap window may be open), ``drawn``
    (replace or discard), ``power`` (use the discarded card's power or skip), ``decide``
    (black king: swap or keep), ``give`` (the snapper's give-back), ``over``."""

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.round_index = 0
        self.dealer = 0 if deck_plan.is_stacked else make_rng(seed, "dealer").randrange(players)
        self.phase = LOOK
        self.turn = 0
        self.hands: list[Hand] = [{} for _seat in range(players)]
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
        # what each seat looked at in its last action: (owner, label, card text)
        self.recent: list[list[tuple[int, str, str]]] = [[] for _seat in range(players)]

    def new_label(self, seat: int) -> str:
        """§3.2: the next label never used by ``seat`` this round (E, F, …)."""
        label = label_of(self.next_label[seat])
        self.next_label[seat] += 1
        return label

    def may_call(self) -> bool:
        """§7.1: Cambio may be called once a round, once as many draws were made as there are
        players."""
        return self.caller is None and self.draws >= self.players

    def faces(self) -> list[dict[str, str]]:
        """Every position's card, by seat (what a reveal shows)."""
        return [{label: slot.card.text for label, slot in hand.items()} for hand in self.hands]


# -- what happens at the table ------------------------------------------------------------


def take_card(table: CambioTable, events: list[Event]) -> Card | None:
    """§9: the top stock card; an empty stock is first refilled with the discard pile but
    its top card, shuffled, at most ``RESHUFFLES`` times a round (``events`` gets the
    reshuffle, which everyone sees). None when that leaves nothing."""
    if not table.stock and len(table.discard) > 1 and table.reshuffles < RESHUFFLES:
        table.stock = table.discard[:-1]
        del table.discard[:-1]
        shuffle(table.stock, make_rng(table.seed, "reshuffle", table.round_index, table.reshuffles))
        table.reshuffles += 1
        events.append(
            Event(
                N_(
                    "The stock is empty: {count} discarded cards are shuffled into a new "
                    "stock (reshuffle {reshuffle} of {reshuffles} this round)"
                ),
                "reshuffle",
                args=(
                    ("count", str(len(table.stock))),
                    ("reshuffle", str(table.reshuffles)),
                    ("reshuffles", str(RESHUFFLES)),
                ),
            )
        )
    return table.stock.pop(0) if table.stock else None


def unlocked_seats(table: CambioTable, seat: int) -> list[int]:
    """§6, §7.3, §8.1: the other players whose positions ``seat`` may look at, swap with or
    snap (never the caller's)."""
    caller = table.caller
    return [other for other in range(table.players) if other != seat and other != caller]


def unlocked_targets(table: CambioTable, seat: int) -> list[tuple[int, str]]:
    """The positions of ``unlocked_seats``, as (seat, label)."""
    return [(other, label) for other in unlocked_seats(table, seat) for label in table.hands[other]]


def see(table: CambioTable, seat: int, owner: int, label: str) -> str:
    """§10.1: ``seat`` looks at ``owner``'s ``label`` and knows the card from now on."""
    slot = table.hands[owner][label]
    slot.known.add(seat)
    table.recent[seat].append((owner, label, slot.card.text))
    return slot.card.pretty


def swap(table: CambioTable, seat: int, own: str, other: int, pos: str) -> None:
    """§6.3, §10.1: a public swap: the cards change places and what anyone knew moves
    with them."""
    mine, theirs = table.hands[seat], table.hands[other]
    mine[own], theirs[pos] = theirs[pos], mine[own]
