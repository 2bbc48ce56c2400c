"""The rules of Twenty-Two as functions: what a card is worth, what may be played, who wins.

Each docstring cites its rule in docs/rules/twentytwo.md (``§5.3``). The state
(``engine.games.twentytwo.state``) carries the rules out; this module only answers them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, Final, Self, cast

from engine.cards import FULL_DECK, Card, shuffle
from engine.core import Action, MadeWhenAsked, Word, make_rng

PLAYER_COUNTS: Final = (2, 3, 4, 5, 6)
"""§1.1: two to six players."""
FIRST_HAND_SIZE: Final = 7
"""§3.1: seven cards each in the first hand."""
ELIMINATED_AT: Final = 22
"""§7.2: a total of 22 or more puts a player out."""


# -- §1.2 ranks: suits never matter, the ace is high -------------------------------------------
def strength(card: Card) -> int:
    """A card's rank in this game (§1.2): 2 … 10, J 11, Q 12, K 13, A 14 (the ace is high).

    >>> strength(Card.parse("AS")), strength(Card.parse("7D"))
    (14, 7)
    """
    return 14 if card.rank == 1 else card.rank


STRENGTH: Final[dict[Card, int]] = {card: strength(card) for card in FULL_DECK}
"""``strength`` of every card, to look up."""

RANK_LABEL: Final[dict[int, str]] = {
    **{value: str(value) for value in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
"""How a rank is written where suits do not matter (the draw, the showdown's ranks)."""


def rank_key(card: Card) -> tuple[int, int]:
    """The order of cards in a hand: by rank with aces high, then by suit (C D H S).

    >>> sorted([Card.parse("AC"), Card.parse("2S"), Card.parse("2C")], key=rank_key)
    [Card('2C'), Card('2S'), Card('AC')]
    """
    return strength(card), card.suit


def hand_place(card: Card) -> int:
    """A card's place in ``rank_key`` order as one number: by rank (aces high), then suit."""
    return strength(card) * 4 + card.suit


def put_in_place(hand: list[Card], card: Card) -> None:
    """Put ``card`` into ``hand`` (sorted by ``rank_key``) where it belongs, as a player who
    picks up a card does: after every card of a lower place."""
    place, key = len(hand), hand_place(card)
    while place and hand_place(hand[place - 1]) > key:
        place -= 1
    hand.insert(place, card)


def in_rank_order(cards: Iterable[Card]) -> list[Card]:
    """``cards`` sorted by ``rank_key``, as a hand is kept: each put in its place in turn.

    >>> in_rank_order(map(Card.parse, ["AC", "2S", "KD", "2C"]))
    [Card('2C'), Card('2S'), Card('KD'), Card('AC')]
    """
    hand: list[Card] = []
    for card in cards:
        put_in_place(hand, card)
    return hand


def ranks_of(cards: Iterable[Card]) -> tuple[int, ...]:
    """The ranks of ``cards``, low to high: all a play or an exchange is, as suits never matter.

    >>> ranks_of([Card.parse("AC"), Card.parse("7D")])
    (7, 14)
    """
    return tuple(sorted([strength(card) for card in cards]))


# -- the moves (§8) -------------------------------------------------------------------------------
class CardChoice:
    """Some cards of one hand (``cards``, in ``rank_key`` order) named by an action: the base
    of ``Exchange`` and ``Play``. A frozen record (``Final`` fields: the compiled build refuses
    to change them), equal to (and hashed as) any choice of the same kind and ``ranks``, since
    suits never matter (§1.2, §8.2): ``exchange 7H`` is the listed ``exchange 7C``; the state
    checks that the named cards are held."""

    __slots__ = ("cards", "ranks")
    verb: ClassVar[str]  # how its text starts

    def __init__(self, ranks: tuple[int, ...], cards: tuple[Card, ...]) -> None:
        self.ranks: Final = ranks  # low to high
        self.cards: Final = cards

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Self:
        """The choice of exactly these cards."""
        ordered = in_rank_order(cards)
        return cls(ranks_of(ordered), tuple(ordered))

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, CardChoice)
            and other.ranks == self.ranks
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.ranks))

    def __repr__(self) -> str:
        return f"{type(self).__name__}.of({[card.text for card in self.cards]})"

    @property
    def text(self) -> str:
        """``exchange 3C 7H``, ``play 7C 7D``: the verb, then the cards low to high."""
        return " ".join([self.verb, *[card.text for card in self.cards]])


class Exchange(CardChoice):
    """§4.1: put ``cards`` out of play and draw as many from the stock."""

    __slots__ = ()
    verb = "exchange"

    @property
    def path(self) -> tuple[str, ...]:
        """``exchange``, then the cards low to high one a step, then ``done``."""
        return ("exchange", *[card.text for card in self.cards], "done")


class Play(CardChoice):
    """§5.2, §5.3: play ``cards`` to the trick (a lead, a beat or one's lowest cards)."""

    __slots__ = ()
    verb = "play"

    @property
    def path(self) -> tuple[str, ...]:
        """The cards high to low (suits low to high within a rank), one a step, then ``done``:
        a lead picks its rank, then how many; a follow picks its cards one by one."""
        ordered = sorted(self.cards, key=lambda card: (-strength(card), card.suit))
        return (*[card.text for card in ordered], "done")


KEEP: Final = Word("keep")
"""§4.1: keep one's hand, exchanging nothing."""


class RankGroup:
    """The cards of one rank in a hand sorted by ``rank_key`` (§1.2), lowest suit first: the
    ``size`` cards from place ``first`` of ``hand`` (read there, not copied)."""

    __slots__ = ("first", "hand", "rank", "size")

    def __init__(self, hand: list[Card], rank: int, first: int) -> None:
        self.hand: Final = hand
        self.rank: Final = rank
        self.first: Final = first
        self.size = 1

    def card(self, index: int) -> Card:
        """The group's card ``index`` (0: the lowest suit)."""
        return self.hand[self.first + index]


def rank_groups(hand: list[Card]) -> list[RankGroup]:
    """A hand sorted by ``rank_key`` as its ranks' groups of cards, low to high: every move
    is a number of cards from each group, the lowest suits first (§8.2).

    >>> hand = in_rank_order(map(Card.parse, ["7D", "AS", "7C"]))
    >>> [(group.rank, group.first, group.size) for group in rank_groups(hand)]
    [(7, 0, 2), (14, 2, 1)]
    """
    groups: list[RankGroup] = []
    for place, card in enumerate(hand):
        rank = strength(card)
        if groups and groups[-1].rank == rank:
            groups[-1].size += 1
        else:
            groups.append(RankGroup(hand, rank, place))
    return groups


# -- §4 the exchange ----------------------------------------------------------------------------
def exchange_limit(hand_size: int, stock: int) -> int:
    """§4.2: the most cards one may exchange, as the stock must cover them."""
    return min(hand_size, stock)


def is_exchange(ranks: tuple[int, ...], hand: list[Card], stock: int) -> bool:
    """§4.1, §4.2: whether exchanging cards of ``ranks`` (low to high) is allowed: at least
    one, no more than the stock holds, and held (as ranks: any suit of them will do)."""
    return 1 <= len(ranks) <= exchange_limit(len(hand), stock) and holds(hand, ranks)


def holds_cards(hand: list[Card], cards: tuple[Card, ...]) -> bool:
    """Whether ``cards`` are some cards of ``hand``: at least one, each held, none twice."""
    if not cards or len(set(cards)) != len(cards):
        return False
    for card in cards:  # noqa: SIM110 - compiled, all() of a generator costs more
        if card not in hand:
            return False
    return True


def holds(hand: list[Card], ranks: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds cards of ``ranks`` (low to high, as many of each as named)."""
    held = [strength(card) for card in hand]
    for rank in ranks:
        if rank not in held:
            return False
        held.remove(rank)
    return True


class ExchangeOptions(MadeWhenAsked[Action]):
    """§4.1: the legal moves of an exchange, made one at a time when asked for: ``keep``
    first, then every exchange of ranks the rule allows, each once, written with the lowest
    suits held. An 11-card hand has up to 2,047 exchanges, so they are counted, not listed:
    an index names one (how many cards of each rank, the highest rank's count varying
    slowest, so that the lowest cards come first), and ``in`` asks the rule (``is_exchange``).

    >>> options = ExchangeOptions(in_rank_order(map(Card.parse, ["7C", "7D", "KS"])), 5)
    >>> [option.text for option in options]
    ['keep', 'exchange 7C', 'exchange 7C 7D', 'exchange KS', 'exchange 7C KS', 'exchange 7C 7D KS']
    >>> Exchange.of([Card.parse("7H")]) in options, Exchange.of([Card.parse("8H")]) in options
    (True, False)
    """

    def __init__(self, hand: Sequence[Card], stock: int) -> None:
        super().__init__()
        self.hand = list(hand)
        self.stock = stock
        self.groups = rank_groups(self.hand)
        self.high_first = self.groups[::-1]
        self.limit = exchange_limit(len(self.hand), stock)
        # ways[g][n]: how many ways the groups high_first[g:] can give at most n cards in all
        ways = [[1] * (self.limit + 1)]
        for group in self.groups:
            # A group of k cards gives 0 … k of them: a sliding sum over the groups after it.
            size = group.size
            after, row, window = ways[-1], [], 0
            for total in range(self.limit + 1):
                window += after[total]
                if total > size:
                    window -= after[total - size - 1]
                row.append(window)
            ways.append(row)
        ways.reverse()
        self.ways = ways

    def __len__(self) -> int:
        return self.ways[0][self.limit]

    def made(self, index: int) -> Action:
        """The move at ``index`` (within bounds)."""
        if index == 0:
            return KEEP
        cards: list[Card] = []  # high to low, then turned
        ranks: list[int] = []
        budget = self.limit
        for place, group in enumerate(self.high_first):
            after = self.ways[place + 1]
            taken, most = 0, min(group.size, budget)
            while taken < most and index >= after[budget - taken]:
                index -= after[budget - taken]
                taken += 1
            for taking in range(taken - 1, -1, -1):
                cards.append(group.card(taking))
                ranks.append(group.rank)
            budget -= taken
        cards.reverse()
        ranks.reverse()
        return Exchange(tuple(ranks), tuple(cards))

    def __eq__(self, other: object) -> bool:
        """Equal to the options of a hand of the same ranks and stock limit: the same moves."""
        return (
            isinstance(other, ExchangeOptions)
            and other.limit == self.limit
            and ranks_of(other.hand) == ranks_of(self.hand)
        )

    def listed(self, ranks: tuple[int, ...]) -> Exchange | None:
        """The exchange of ``ranks`` (low to high) as listed, in the lowest suits held; None
        if the rule does not allow it."""
        if not is_exchange(ranks, self.hand, self.stock):
            return None
        cards: list[Card] = []
        for group in self.groups:
            for index in range(ranks.count(group.rank)):
                cards.append(group.card(index))
        return Exchange(tuple(ranks), tuple(cards))

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Exchange):
            return is_exchange(action.ranks, self.hand, self.stock)
        return action == KEEP

    def allows(self, action: Action) -> bool:
        """§4.1: whether ``action`` may be taken as it is named: an exchange this listing
        handed out, ``keep``, or any other exchange of cards held that the rule allows."""
        if self.was_handed(action):
            return True
        if isinstance(action, Exchange):
            return holds_cards(self.hand, action.cards) and action in self
        return action == KEEP


def options(hand: Sequence[Card], stock: int) -> Sequence[Action]:
    """§4.1: the legal moves of an exchange (``ExchangeOptions``), as the sequence it is."""
    return cast(Sequence[Action], ExchangeOptions(hand, stock))


# -- §5 tricks ------------------------------------------------------------------------------------
def lead_limit(hand_size: int) -> int:
    """§5.2: the most cards a lead may have: all but one, or the only card held."""
    return hand_size - 1 if hand_size >= 2 else 1


def is_lead(ranks: Sequence[int], hand_size: int) -> bool:
    """§5.2: whether a play of ``ranks`` (held) may lead: one rank, within ``lead_limit``."""
    return len(set(ranks)) == 1 and len(ranks) <= lead_limit(hand_size)


def leads(hand: list[Card]) -> list[Play]:
    """§5.2: every lead of ``hand`` (sorted by ``rank_key``): 1 … ``lead_limit`` cards of one
    rank, by rank, then count."""
    limit = lead_limit(len(hand))
    made: list[Play] = []
    cards: tuple[Card, ...] = ()  # the cards of this card's rank up to it, and their ranks
    ranks: tuple[int, ...] = ()
    for card in hand:
        rank = strength(card)
        if ranks and ranks[0] == rank:
            cards, ranks = (*cards, card), (*ranks, rank)
        else:
            cards, ranks = (card,), (rank,)
        if len(ranks) <= limit:
            made.append(Play(ranks, cards))
    return made


def is_beat(ranks: tuple[int, ...], best: tuple[int, ...]) -> bool:
    """§5.3: whether a play of ``ranks`` beats the best play's ``best`` (both low to high): as
    many cards, each at least the card in the same place (equal counts as a beat). Sorted high
    to low, as the rule says, the places pair the same cards.

    >>> is_beat((9, 14), (7, 7)), is_beat((7, 7), (7, 7)), is_beat((3, 14), (7, 7))
    (True, True, False)
    """
    if len(ranks) != len(best):
        return False
    for place in range(len(ranks)):  # noqa: SIM110 - compiled, all() of a generator costs more
        if ranks[place] < best[place]:
            return False
    return True


def is_follow(ranks: tuple[int, ...], hand: list[Card], best: tuple[int, ...]) -> bool:
    """§5.3: whether a play of ``ranks`` (held; low to high) may follow the best play
    ``best``: a beat, or exactly one's lowest cards (``hand`` is sorted by ``rank_key``)."""
    return is_beat(ranks, best) or ranks == ranks_of(hand[: len(best)])


def follows(hand: list[Card], best: tuple[int, ...]) -> list[Play]:
    """§5.3: every follow of ``hand`` (sorted by ``rank_key``) to the best play ``best`` (low
    to high): one's lowest cards first, then each beat, by ranks. Lowest cards that beat are
    listed once, as the first beat: ``add_beats`` takes as many of each low rank as fit, so
    when the lowest cards fit every place, they are the first beat it makes."""
    lowest_cards = hand[: len(best)]  # in rank order already: their ranks need no sort
    lowest = tuple([strength(card) for card in lowest_cards])
    made = [] if is_beat(lowest, best) else [Play(lowest, tuple(lowest_cards))]
    add_beats(rank_groups(hand), 0, best, [], [], made)
    return made


def add_beats(
    groups: list[RankGroup],
    first: int,
    best: tuple[int, ...],
    ranks: list[int],
    cards: list[Card],
    made: list[Play],
) -> None:
    """§5.3: add to ``made`` the beats of ``best`` (low to high) that add cards from
    ``groups[first:]`` to ``cards`` (of ``ranks``), by ranks: the i-th card of a beat, low to
    high, is at least ``best[i]``, so each group gives as many cards as reach the places
    still open, then one fewer, and so on (more of a low rank first)."""
    chosen = len(ranks)
    if chosen == len(best):
        made.append(Play(tuple(ranks), tuple(cards)))
        return
    for place in range(first, len(groups)):
        group = groups[place]
        taken = 0  # the most of this rank that fit the open places
        while (
            taken < group.size and chosen + taken < len(best) and group.rank >= best[chosen + taken]
        ):
            taken += 1
        for index in range(taken):
            ranks.append(group.rank)
            cards.append(group.card(index))
        for _ in range(taken):  # all of them, then one fewer, down to one
            add_beats(groups, place + 1, best, ranks, cards, made)
            ranks.pop()
            cards.pop()


# -- §2 the first dealer, §3 the deal --------------------------------------------------------
def draw_for_dealer(seed: int, players: int) -> list[list[tuple[int, Card]]]:
    """§2.1: everyone draws from a deck shuffled from the seed; those tied for the highest
    rank draw again until one is alone. Returns the rounds of (seat, card); the first dealer
    is the highest of the last round."""
    rounds: list[list[tuple[int, Card]]] = []
    deck: list[Card] = []
    drawers = list(range(players))
    while True:
        if len(deck) < len(drawers):  # only after many ties: draw from a fresh shuffle
            deck = list(FULL_DECK)  # in card order
            shuffle(deck, make_rng(seed, "dealer draw", len(rounds)))
        drawn = [(seat, deck.pop(0)) for seat in drawers]
        rounds.append(drawn)
        top = max([strength(card) for _, card in drawn])
        drawers = [seat for seat, card in drawn if strength(card) == top]
        if len(drawers) == 1:
            return rounds


def hand_size(wanted: int, deck: int, players_in: int) -> int:
    """§3.2: cards each for a hand: ``wanted`` (7, later the last penalty), or the deck's size
    divided by the players still in, rounded down, if the deck is short.

    >>> hand_size(10, 50, 4), hand_size(11, 49, 5)
    (10, 9)
    """
    return min(wanted, deck // players_in)


# -- §6 the last card -------------------------------------------------------------------------
def penalty(rank: int) -> int:
    """§6.1: the penalty of a losing last card: A 11, K Q J 10, 2–10 face value.

    >>> [penalty(rank) for rank in (2, 10, 11, 13, 14)]
    [2, 10, 10, 10, 11]
    """
    return 11 if rank == 14 else min(rank, 10)


def losers(reveals: Sequence[tuple[int, Card]]) -> list[int]:
    """§6.1: the seats showing the highest rank (all of them, in reveal order, on a tie)."""
    top = max([strength(card) for _, card in reveals])
    return [seat for seat, card in reveals if strength(card) == top]
