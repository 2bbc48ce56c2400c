"""stuck: a shedding game with face-down "stuck" cards (rules: docs/rules/stuck.md).

Rules, and where they live
--------------------------
- Setup (``StuckState.start_round``): 2–6 players, one round per player. The dealer deals 7
  cards each, one at a time clockwise from their left, turns the next card up as the current
  card; the rest is the draw pile, top first. With a given deck seat 0 deals the first round,
  otherwise the first dealer comes from the seed (``StuckState.__init__``). The dealer passes
  left each round; the player left of the dealer starts.
- A turn is one of these plays (``StuckState._legal_actions``: ``first_cards`` for the first
  card, ``follow_plays`` for the next ones; ``StuckState.play_card`` carries a card out):

  * rank play: one or more cards of the current card's rank, in the order chosen;
  * rank-then-suit: exactly one card of the current rank, then any number of cards of THAT
    card's suit;
  * suit play: exactly one card of the current suit; it ends by itself, with no bonus (a
    first card not of the current rank is a suit play);
  * draw, only when no card can be played (``StuckState.draw_for_turn``): the card goes face
    down as a stuck card in front of the player, or into the hand when they already have 3 (it
    cannot be played this turn: drawing ends the turn). With nothing to draw, ``draw`` passes.

  The last card played becomes the current card (the top of ``discard``).
- The multi-card plays are made card by card (``play 7H`` … then ``done``), so a UI never shows
  more than the hand's matching cards plus ``done``. Which continuation is legal after the first
  card of the current rank R (a card X of suit T) — ``StuckState.follow_plays``:

  * while every card played this turn has rank R (a pure rank run), another card of rank R may
    follow: the play is still "one or more cards matching its rank";
  * only right after the FIRST card (exactly one rank card so far), a card of suit T may follow;
    it switches the turn to the suit phase. After two rank cards no suit card may follow: the
    seed allows suit cards only after "exactly one matching-rank card";
  * in the suit phase only cards of suit T may follow — T is fixed by that first rank card ("that
    played card's suit"), never by the suit cards played since. No other card of rank R may
    follow: the shape allows "exactly one" card of rank R, and the only card of rank R and
    suit T is X itself;
  * ``done`` ends the play at any point after the first card. The current card's own suit S
    plays no part after the first card: a suit play is exactly one card and starts with a card
    of suit S that is not of rank R (rank R and suit S meet only in the current card).

  A play that empties the hand ends by itself (``StuckState.finish_play``).
- Bonus (``StuckState.finish_play``, ``StuckState.bonus_targets``, ``Give``): when a rank play or
  a rank-then-suit play ends, the player draws one card and puts it face down as a stuck card in
  front of another player of their choice with fewer than 3 (``give sN``, asked even when only
  one player qualifies); skipped when nobody qualifies or nothing can be drawn (the latter
  cannot happen after a play: the card it covered can always be reshuffled and drawn).
- Stuck cards are seen by nobody, not even their owner (``StuckState.zones``). When the hand
  empties: with stuck cards, the player picks them all up as the new hand after the bonus
  (``StuckState.after_bonus``); with none, they go out and the round ends at once, with no bonus
  (ruling; ``StuckState.finish_play``).
- Draw pile empty (``StuckState.draw_card``, ``StuckState.reshuffle``): the current card stays,
  the rest of the discard is shuffled (``make_rng(seed, "reshuffle", round, count)``) into a new
  draw pile, at the moment a card must be drawn (a draw or a bonus; so cards played since the
  pile ran out are shuffled in too). With nothing to shuffle a player who must draw passes.
- Stall (``StuckState.end_turn``): when every player in turn has taken a turn without playing a
  card (draws, to the stuck cards or the hand, and passes), the round ends at once; any card
  played resets the count.
- Scoring (``StuckState.end_round``): the player who went out scores 0, everyone else (everyone,
  after a stall) 1 per hand card and 2 per stuck card. After one round per player the lowest
  total wins; ties share the win (``StuckState.winners``).
- The AI (``engine.ai.stuck``) plans the rest of its play at every step: going out
  above all, then cards shed plus the bonus, and a last card the next player likely cannot play
  on, or at least not by rank (which would stick a card on it). What each player was seen to
  lack when drawing (no card of the current suit or rank) is public memory kept in
  ``StuckState.lacks`` and shown only in ``agent_view``. The bonus goes to the opponent closest
  to going out (``StuckAgent.target``).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from engine.cards import (
    FULL_DECK,
    RANK_TEXT,
    SUIT_NAME,
    SUIT_SYMBOL,
    Card,
    cards_pretty,
    describe_cards,
    shuffle,
)
from engine.core import (
    Action,
    DeckPlan,
    Event,
    Game,
    OptionValue,
    Phrase,
    State,
    TotalsState,
    View,
    Word,
    Zone,
    cards_from_json,
    cards_json,
    dealt_hands,
    joined,
    make_rng,
    parse_error,
    redeal,
    scores_line,
    seat_name,
    seat_words,
)
from engine.errors import ActionParseError, CardError, SavedStateError
from engine.layout import Group, Layout, face_down, face_up, rows, stack, your_hand
from engine.words import N_, _

HAND_SIZE = 7
MAX_STUCK = 3
PLAYER_COUNTS = (2, 3, 4, 5, 6)
MAX_PLAYERS = max(PLAYER_COUNTS)

# The phases of a turn: its first card (or a draw), the cards that may follow, the bonus.
PLAY, FOLLOW, GIVE = "play", "follow", "give"
PHASES = (PLAY, FOLLOW, GIVE)


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``card`` from the hand: the first card of a turn or one that follows it."""

    card: Card

    @property
    def text(self) -> str:
        """``play 7H``."""
        return f"play {self.card.text}"

    @property
    def path(self) -> tuple[str, ...]:
        """One step: the card."""
        return (self.text,)


@dataclass(frozen=True, slots=True)
class Give:
    """Give the bonus stuck card to ``seat``."""

    seat: int

    @property
    def text(self) -> str:
        """``give s2``."""
        return f"give {seat_name(self.seat)}"

    @property
    def path(self) -> tuple[str, ...]:
        """One step: the seat."""
        return (self.text,)


PLAYS = {card: PlayCard(card) for card in FULL_DECK}
DONE = Word("done")  # end a rank play (or a rank-then-suit play) here
DRAW = Word("draw")  # no card can be played; a pass when there is nothing to draw
GIVES = tuple(Give(seat) for seat in range(MAX_PLAYERS))


# The plays that may start on each current card, by the card played: its rank or its suit.
# Listing a hand's plays is then one lookup per card, in C (``map`` of ``dict.get``).
MATCHING_PLAYS = {
    current: {
        card: PLAYS[card]
        for card in FULL_DECK
        if card.rank == current.rank or card.suit == current.suit
    }
    for current in FULL_DECK
}
# The same for the cards that may follow a run: another of its rank, or one of its suit.
RANK_PLAYS = {
    rank: {card: PLAYS[card] for card in FULL_DECK if card.rank == rank} for rank in range(1, 14)
}
SUIT_PLAYS = {
    suit: {card: PLAYS[card] for card in FULL_DECK if card.suit == suit} for suit in range(4)
}


PLAYED_EVENTS = {
    card: tuple(
        Event(
            N_("{player} plays {card}"),
            "play",
            args=(("player", seat_words(seat)), ("card", card.pretty)),
        )
        for seat in range(MAX_PLAYERS)
    )
    for card in FULL_DECK
}
"""The event of each card played, by card and seat (events are immutable, so one serves every
game)."""


@cache
def drew_stuck_event(seat: int) -> Event:
    """The event of a seat that could not play drawing a stuck card (one serves every game)."""
    return Event(
        N_("{player} cannot play and draws a stuck card"),
        "draw",
        args=(("player", seat_words(seat)),),
    )


STALLED = Event(N_("Nobody played a card for a whole turn of the table: stalled"), "stall")


@cache
def gave_event(seat: int, target: int) -> Event:
    """The event of the bonus stuck card given to ``target`` (one serves every game)."""
    return Event(
        N_("{player} sticks a card in front of {target}"),
        "give",
        args=(("player", seat_words(seat)), ("target", seat_words(target))),
    )


def rank_name(rank: int) -> str:
    """The rank in people form: ``7``, ``Q``."""
    return RANK_TEXT[rank]


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class StuckState(TotalsState):
    """A game of stuck at a decision."""

    game: ClassVar[StuckGame]

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.round_index = 0
        self.dealer = 0 if deck_plan.is_stacked else make_rng(seed, "dealer").randrange(players)
        self.turn = 0
        # Each seat's hand (kept in card order), stuck cards and lacks (below) are dealt by
        # start_round, or read from a save.
        self.hands: list[list[Card]] = []
        self.stuck: list[list[Card]] = []
        self.discard: list[Card] = []  # the last card is the current card
        self.pile: list[Card] = []  # top first
        self.phase = PLAY
        self.run: list[Card] = []  # the cards played so far this turn, in order
        self.idle = 0  # turns in a row without a card played (the stall count)
        self.reshuffles = 0  # in this round: labels each reshuffle's generator
        self.went_out: list[int | None] = []  # each round: who went out (None: it stalled)
        # Public memory for the AI: the suits and ranks a seat was seen not to hold (it drew on
        # a card of that suit and rank), forgotten when unseen cards join its hand.
        self.lacks: list[tuple[set[int], set[int]]] = []

    # -- dealing -------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_round()

    def start_round(self) -> list[Event]:
        """Deal the round: 7 each from the dealer's left, the up card, the rest is the pile."""
        deck = self.deck_plan.deck(self.round_index)
        self.turn = (self.dealer + 1) % self.players
        dealt = HAND_SIZE * self.players
        self.hands = dealt_hands(deck[:dealt], self.turn, self.players)
        self.discard = [deck[dealt]]
        self.pile = deck[dealt + 1 :]
        self.stuck = [[] for _ in range(self.players)]
        self.phase = PLAY
        self.run = []
        self.idle = 0
        self.reshuffles = 0
        self.lacks = [(set(), set()) for _ in range(self.players)]
        return [
            Event(
                N_(
                    "Round {round} of {rounds}: {dealer} deals; the up card is {card}."
                    " {player} starts."
                ),
                kind="deal",
                args=(
                    ("round", str(self.round_index + 1)),
                    ("rounds", str(self.players)),
                    ("dealer", seat_words(self.dealer)),
                    ("card", self.current.pretty),
                    ("player", seat_words(self.turn)),
                ),
            )
        ]

    @property
    def current(self) -> Card:
        """The current (face-up) card."""
        return self.discard[-1]

    # -- decisions -----------------------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        phase = self.phase
        if phase == PLAY:
            plays = tuple(filter(None, map(MATCHING_PLAYS[self.discard[-1]].get, self.hands[seat])))
            return plays or (DRAW,)
        if phase == FOLLOW:
            return (*filter(None, map(self.follow_plays().get, self.hands[seat])), DONE)
        return tuple(map(GIVES.__getitem__, self.bonus_targets(seat)))

    def first_cards(self, seat: int) -> list[Card]:
        """The hand cards that may start a play: the current card's rank or suit."""
        return [card for card in self.hands[seat] if card in MATCHING_PLAYS[self.current]]

    def follow_plays(self) -> dict[Card, PlayCard]:
        """The plays of the cards that may follow this turn's cards, by card (see the module
        docstring): after the first card X, another of its rank or one of its suit; after more
        cards of X's rank, another of that rank; in the suit phase, one of X's suit."""
        first, last = self.run[0], self.run[-1]
        if len(self.run) == 1:
            return MATCHING_PLAYS[first]
        # Only X has both its rank and its suit, so the last card's rank tells the phases apart.
        if last.rank == first.rank:
            return RANK_PLAYS[first.rank]
        return SUIT_PLAYS[first.suit]

    def can_draw(self) -> bool:
        """Whether a card can be drawn (from the pile, or after a reshuffle)."""
        return bool(self.pile) or len(self.discard) > 1

    def bonus_targets(self, seat: int) -> list[int]:
        """The players who may get ``seat``'s bonus stuck card (none if nothing can be drawn)."""
        if not self.can_draw():
            return []
        return [
            other
            for other in range(self.players)
            if other != seat and len(self.stuck[other]) < MAX_STUCK
        ]

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.over or seat not in self.to_act():
            return super().explain_illegal(seat, action)
        if self.phase == GIVE:
            if isinstance(action, Give):
                if action.seat == seat:
                    return _("The bonus stuck card goes to another player, not to you.")
                if not 0 <= action.seat < self.players:
                    return _("There is no seat {seat} in this game.").format(seat=action.seat)
                return _("s{seat} already has {count} stuck cards.").format(
                    seat=action.seat, count=MAX_STUCK
                )
            # the moves' machine texts, as typed: "give s1 or give s2"
            targets = " or ".join(f"give s{target}" for target in self.bonus_targets(seat))
            return _("Your play is over: choose who gets the bonus stuck card ({moves}).").format(
                moves=targets
            )
        if isinstance(action, Give):
            return _("There is no bonus stuck card to give now.")
        if isinstance(action, PlayCard) and action.card not in self.hands[seat]:
            return _("You do not hold {card}.").format(card=action.card.pretty)
        if self.phase == FOLLOW:
            return self.explain_follow(action)
        if action == DONE:
            return _("You have not played a card yet this turn: play one (or draw if you cannot).")
        if action == DRAW:
            playable = cards_pretty(self.first_cards(seat))
            return _("You may draw only when you cannot play, and you can play {cards}.").format(
                cards=playable
            )
        if isinstance(action, PlayCard):
            return _(
                "{card} matches neither the rank nor the suit of the current card {current}."
            ).format(card=action.card.pretty, current=self.current.pretty)
        return super().explain_illegal(seat, action)

    def explain_follow(self, action: Action) -> str:
        """Why ``action`` cannot follow this turn's cards."""
        first = self.run[0]
        if action == DRAW:
            return _("You are in the middle of a play: add a card or say done.")
        if all(card.rank == first.rank for card in self.run):
            if len(self.run) == 1:
                message = _(
                    "After {cards} you may play another {rank} or a card of {card}'s suit"
                    " ({suit}), or say done."
                )
            else:
                message = _(
                    "After {cards} you may play only another {rank} (suit cards may follow a"
                    " single {rank} only), or say done."
                )
        else:
            message = _(
                "After {cards} you may play only another {suit} (the suit of {card}), or say done."
            )
        return message.format(
            cards=cards_pretty(self.run),
            rank=rank_name(first.rank),
            suit=SUIT_SYMBOL[first.suit],
            card=first.pretty,
        )

    # -- carrying out a move -----------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, PlayCard):
            return self.play_card(seat, action.card)
        if isinstance(action, Give):
            return self.give_bonus(seat, action.seat)
        # The one word legal in the follow phase is done; in the play phase, draw.
        if self.phase == FOLLOW:
            return self.finish_play(seat, True, [])
        return self.draw_for_turn(seat)

    # The steps of a turn below add what happens to the ``events`` they are given (the turn's
    # one list, returned by ``_apply``) and return them.
    def play_card(self, seat: int, card: Card) -> list[Event]:
        """Play one card; a suit play, or a play that empties the hand, ends by itself."""
        suit_play = self.phase == PLAY and card.rank != self.discard[-1].rank
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self.run.append(card)
        events = [PLAYED_EVENTS[card][seat]]
        if suit_play or not hand:
            return self.finish_play(seat, not suit_play, events)
        self.phase = FOLLOW
        return events

    def finish_play(self, seat: int, bonus: bool, events: list[Event]) -> list[Event]:
        """The play is over: go out, or ask for the bonus target (when ``bonus``), or move on."""
        if not self.hands[seat] and not self.stuck[seat]:
            # Ruling: going out ends the round at once, before any bonus.
            events.append(
                Event(N_("{player} goes out!"), "out", args=(("player", seat_words(seat)),))
            )
            return self.end_round(seat, events)
        if bonus and self.bonus_targets(seat):
            self.phase = GIVE
            return events
        return self.after_bonus(seat, events)

    def give_bonus(self, seat: int, target: int) -> list[Event]:
        """Draw the bonus card face down in front of ``target``."""
        events = self.draw_card()
        self.stuck[target].append(self.pile.pop(0))
        events.append(gave_event(seat, target))
        return self.after_bonus(seat, events)

    def after_bonus(self, seat: int, events: list[Event]) -> list[Event]:
        """Pick up the stuck cards if the hand is empty, then end the turn."""
        if not self.hands[seat]:
            picked = self.stuck[seat]
            self.hands[seat] = sorted(picked)
            self.lacks[seat] = (set(), set())
            self.stuck[seat] = []
            count = len(picked)
            cards = Phrase(
                N_("{count} stuck card"), (("count", str(count)),), N_("{count} stuck cards"), count
            )
            events += [
                Event(
                    N_("{player} has emptied the hand and picks up {cards} for a new hand"),
                    "pick_up",
                    args=(("player", seat_words(seat)), ("cards", cards)),
                ),
                Event(
                    N_("You pick up {cards}"),
                    "pick_up",
                    frozenset((seat,)),
                    args=(("cards", cards_pretty(self.hands[seat])),),
                ),
            ]
        return self.end_turn(seat, True, events)

    def draw_for_turn(self, seat: int) -> list[Event]:
        """No card can be played: draw a stuck card (or, with 3, a hand card), or pass."""
        suits, ranks = self.lacks[seat]
        current = self.discard[-1]
        suits.add(current.suit)
        ranks.add(current.rank)
        if not self.can_draw():
            event = Event(
                N_("{player} cannot play and there is nothing to draw: pass"),
                "pass",
                args=(("player", seat_words(seat)),),
            )
            return self.end_turn(seat, False, [event])
        events = self.draw_card()
        card = self.pile.pop(0)
        if len(self.stuck[seat]) < MAX_STUCK:
            self.stuck[seat].append(card)
            events.append(drew_stuck_event(seat))
        else:
            insort(self.hands[seat], card)
            self.lacks[seat] = (set(), set())
            events += [
                Event(
                    N_(
                        "{player} cannot play and, with {count} stuck cards already, draws a card"
                        " into the hand"
                    ),
                    "draw",
                    args=(("player", seat_words(seat)), ("count", str(MAX_STUCK))),
                ),
                Event(N_("You draw {card}"), "draw", frozenset((seat,)), (("card", card.pretty),)),
            ]
        return self.end_turn(seat, False, events)

    def draw_card(self) -> list[Event]:
        """Make sure the pile has a card to draw (reshuffling if needed); the caller pops it."""
        return [] if self.pile else self.reshuffle()

    def reshuffle(self) -> list[Event]:
        """Shuffle the discard, except the current card, into a new draw pile."""
        rest = self.discard[:-1]
        del self.discard[:-1]
        shuffle(rest, make_rng(self.seed, "reshuffle", self.round_index, self.reshuffles))
        self.reshuffles += 1
        self.pile = rest
        return [
            Event(
                N_(
                    "The draw pile is empty: {count} discarded cards are shuffled into a new draw"
                    " pile ({card} stays up)"
                ),
                "reshuffle",
                args=(("count", str(len(rest))), ("card", self.current.pretty)),
            )
        ]

    def end_turn(self, seat: int, played: bool, events: list[Event]) -> list[Event]:
        """Count a turn without a card for the stall rule; pass the turn left."""
        self.idle = 0 if played else self.idle + 1
        if self.idle >= self.players:
            events.append(STALLED)
            return self.end_round(None, events)
        self.turn = (seat + 1) % self.players
        self.phase = PLAY
        self.run = []
        return events

    # -- end of a round and of the game ---------------------------------------------------------
    def end_round(self, out: int | None, events: list[Event]) -> list[Event]:
        """Score the round (``out`` went out; None: it stalled), then deal the next or finish."""
        points: list[int] = []
        parts: list[Phrase] = []
        for seat in range(self.players):
            player = ("player", seat_words(seat))
            if seat == out:
                gained = 0
                parts.append(Phrase(N_("{player} 0 (went out)"), (player,)))
            else:
                held, stuck = len(self.hands[seat]), len(self.stuck[seat])
                # the points' own sum: 1 a hand card, 2 a stuck card
                gained = held + 2 * stuck
                parts.append(
                    Phrase(
                        N_("{player} {points} ({held} in hand + {stuck} stuck × 2)"),
                        (
                            player,
                            ("points", str(gained)),
                            ("held", str(held)),
                            ("stuck", str(stuck)),
                        ),
                    )
                )
            self.totals[seat] += gained
            points.append(gained)
        self.history.append(points)
        self.went_out.append(out)
        title = Phrase(N_("Round {round}"), (("round", str(self.round_index + 1)),))
        events.append(self.scores_event(title, parts))
        self.run = []
        self.phase = PLAY
        if self.round_index + 1 < self.players:
            self.round_index += 1
            self.dealer = (self.dealer + 1) % self.players
            events += self.start_round()
            return events
        self.over = True
        best = ("points", str(min(self.totals)))
        winners = [seat_words(seat) for seat in self.winners()]
        if len(winners) == 1:
            won = Event(
                N_("{player} wins with {points} points"),
                "game_end",
                args=(("player", winners[0]), best),
            )
        else:
            won = Event(
                N_("{players} share the win with {points} points"),
                "game_end",
                args=(("players", joined(winners)), best),
            )
        events.append(won)
        return events

    # -- views -----------------------------------------------------------------------------------
    def public_view(self) -> View:
        return {
            "game": self.game.id,
            "round": self.round_index + 1,
            "rounds": self.players,
            "dealer": self.dealer,
            "turn": self.turn,
            "to_act": list(self.to_act()),
            "phase": self.phase,
            "current": self.current.text,
            "discard": cards_json(self.discard),
            "draw_pile": len(self.pile),
            "hand_sizes": [len(hand) for hand in self.hands],
            "stuck": [len(cards) for cards in self.stuck],
            "run": cards_json(self.run),
            "idle_turns": self.idle,
            "scores": list(self.totals),
            "history": [list(points) for points in self.history],
            "went_out": list(self.went_out),
            "over": self.over,
            "winners": list(self.winners()),
        }

    def view(self, seat: int) -> View:
        return {**self.public_view(), "seat": seat, "hand": cards_json(self.hands[seat])}

    def agent_view(self, seat: int) -> View:
        """The view plus what the table saw: the suits and ranks each seat was shown to lack."""
        return {
            **self.view(seat),
            "lacks": [
                {"suits": sorted(suits), "ranks": sorted(ranks)} for suits, ranks in self.lacks
            ],
        }

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        # Stuck cards are face down: hidden from their owner too.
        hands = [hand for other, hand in enumerate(self.hands) if other != seat]
        places = [*hands, *self.stuck, self.pile]
        redeal(places, rng)
        self._respect_lacks(seat, places, rng)
        for hand in hands:
            hand.sort()

    def _respect_lacks(self, seat: int, places: list[list[Card]], rng: random.Random) -> None:
        """Swap out of each other hand the dealt cards of a suit or rank it was seen to lack
        (public knowledge), for allowed cards from the other hidden places where possible."""

        def allowed(card: Card, place: list[Card]) -> bool:
            owner = next((o for o, hand in enumerate(self.hands) if hand is place), None)
            if owner is None or owner == seat:
                return True
            suits, ranks = self.lacks[owner]
            return card.suit not in suits and card.rank not in ranks

        for hand in places:
            for index, card in enumerate(hand):
                if allowed(card, hand):
                    continue
                swaps = [
                    (other, spot)
                    for other in places
                    if other is not hand
                    for spot, candidate in enumerate(other)
                    if allowed(candidate, hand) and allowed(card, other)
                ]
                if swaps:
                    other, spot = rng.choice(swaps)
                    hand[index], other[spot] = other[spot], card

    def zones(self) -> Iterable[Zone]:
        for seat in range(self.players):
            yield Zone(f"hand s{seat}", tuple(self.hands[seat]), frozenset((seat,)))
            # Face down: nobody, not even the owner, has seen a stuck card.
            yield Zone(f"stuck s{seat}", tuple(self.stuck[seat]), frozenset())
        yield Zone("discard", tuple(self.discard), None)
        yield Zone("draw pile", tuple(self.pile), frozenset())

    # -- saving ----------------------------------------------------------------------------------
    def _to_json(self) -> dict[str, Any]:
        return {
            "round_index": self.round_index,
            "dealer": self.dealer,
            "turn": self.turn,
            "hands": [cards_json(hand) for hand in self.hands],
            "stuck": [cards_json(cards) for cards in self.stuck],
            "discard": cards_json(self.discard),
            "pile": cards_json(self.pile),
            "phase": self.phase,
            "run": cards_json(self.run),
            "idle": self.idle,
            "reshuffles": self.reshuffles,
            **self.totals_json(),
            "went_out": list(self.went_out),
            "lacks": [[sorted(suits), sorted(ranks)] for suits, ranks in self.lacks],
        }


# -- the game type -------------------------------------------------------------------------------
class StuckGame(Game):
    """The game type of stuck."""

    state_class = StuckState

    lowest_wins = True

    id = "stuck"
    name = N_("Stuck")
    player_counts = PLAYER_COUNTS
    pitch = N_(
        "Shed your hand by rank or suit; rank plays stick a card on an opponent. Fewest points win."
    )

    def parse_action(self, text: str) -> Action:
        words = text.lower().split()
        expected = _("'play CARD', 'done', 'give sN' or 'draw' (e.g. play 7H, give s2)")
        if words == ["done"]:
            return DONE
        if words == ["draw"]:
            return DRAW
        if len(words) == 2 and words[0] == "play":
            try:
                return PLAYS[Card.parse(words[1])]
            except CardError as error:
                raise ActionParseError(
                    _("cannot read {text}: {error}").format(text=repr(text), error=error)
                ) from None
        if len(words) == 2 and words[0] == "give":
            digits = words[1][1:]
            if words[1].startswith("s") and digits.isdigit() and int(digits) < MAX_PLAYERS:
                return GIVES[int(digits)]
        raise parse_error(text, expected)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = StuckState.from_saved_header(data)
        players = state.players
        state.round_index = int(data["round_index"])
        state.dealer = int(data["dealer"])
        state.turn = int(data["turn"])
        state.hands = [sorted(cards_from_json(hand)) for hand in data["hands"]]
        state.stuck = [cards_from_json(cards) for cards in data["stuck"]]
        state.discard = cards_from_json(data["discard"])
        state.pile = cards_from_json(data["pile"])
        state.phase = str(data["phase"])
        state.run = cards_from_json(data["run"])
        state.idle = int(data["idle"])
        state.reshuffles = int(data["reshuffles"])
        state.read_totals(data)
        state.went_out = [None if seat is None else int(seat) for seat in data["went_out"]]
        state.lacks = [
            ({int(suit) for suit in suits}, {int(rank) for rank in ranks})
            for suits, ranks in data["lacks"]
        ]
        if state.phase not in PHASES or (state.phase != PLAY and not state.run):
            raise SavedStateError(f"saved stuck state has a bad phase {state.phase!r}")
        if len(state.hands) != players or len(state.stuck) != players or not state.discard:
            raise SavedStateError("saved stuck state does not match its player count")
        return state

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        if offered[0].startswith("give"):
            return _("Bonus: stick a card from the draw pile on whom?")
        if DONE.text in offered:
            return _("Play another card, or end your play?")
        return _("Play which card?")

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        if isinstance(action, Give):
            return _("Stick a card on {player}").format(player=names[action.seat])
        if action == DONE:
            return _("Done: end your play")
        if action == DRAW:
            return _("Draw (you have no card to play)")
        return None

    def describe(self, view: View) -> list[str]:
        players = len(view["stuck"])
        header, scores, *hint = self.summary(view)
        current = describe_cards([view["current"]])
        if view["run"]:
            played = describe_cards(view["run"])
            table = _("Current card: {card} · played this turn: {cards}").format(
                card=current, cards=played
            )
        else:
            table = _("Current card: {card}").format(card=current)
        cards = ", ".join(
            _("{player} {held} in hand + {stuck} stuck").format(
                player=seat_words(seat), held=view["hand_sizes"][seat], stuck=view["stuck"][seat]
            )
            for seat in range(players)
        )
        lines = [
            _("{round} · draw pile {count}").format(round=header, count=view["draw_pile"]),
            table,
            _("Cards: {cards}").format(cards=cards),
            scores,
            *hint,
        ]
        if "hand" in view:
            hand = describe_cards(view["hand"]) or _("(empty)")
            lines.append(_("Your hand: {cards}").format(cards=hand))
        if view["over"]:
            winners = joined([seat_words(seat) for seat in view["winners"]])
            said = winners if isinstance(winners, str) else winners.translated()
            lines.append(_("Game over: {players}").format(players=said))
        return lines

    def summary(self, view: View) -> list[str]:
        lines = [
            _("Round {round} of {rounds} · dealer {dealer}").format(
                round=view["round"], rounds=view["rounds"], dealer=seat_words(view["dealer"])
            ),
            scores_line(view["scores"]),
        ]
        if view["run"] and view["phase"] == FOLLOW:
            lines.append(follow_hint(cards_from_json(view["run"])))
        return lines

    def layout(self, view: View) -> Layout:
        table = [
            face_up(_("Current card"), [view["current"]]),
            stack(_("Draw pile"), view["draw_pile"]),
        ]
        if view["run"]:
            table.append(face_up(_("Played this turn"), view["run"]))
        players: list[Group] = []
        for seat, size in enumerate(view["hand_sizes"]):
            yours = seat == view.get("seat")
            if not yours:
                players.append(stack(seat_words(seat), size))
            if view["stuck"][seat]:
                label = (
                    _("You · stuck")
                    if yours
                    else _("{player} · stuck").format(player=seat_words(seat))
                )
                players.append(face_down(label, view["stuck"][seat], yours))
        return rows(table, players, your_hand(view))


def follow_hint(run: Sequence[Card]) -> str:
    """What may follow this turn's cards, for people."""
    first = run[0]
    suit = _("{suit} ({symbol})").format(
        suit=_(SUIT_NAME[first.suit]), symbol=SUIT_SYMBOL[first.suit]
    )
    rank = rank_name(first.rank)
    if all(card.rank == first.rank for card in run):
        if len(run) == 1:
            return _("Next: another {rank}, a {suit}, or done.").format(rank=rank, suit=suit)
        return _("Next: another {rank}, or done.").format(rank=rank)
    return _("Next: another {suit}, or done.").format(suit=suit)


GAME = StuckGame()
StuckState.game = GAME
