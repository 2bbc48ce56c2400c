"""A game of stuck at a decision: the rules of docs/rules/stuck.md carried out (cited by
section), from the deal to the end of the game, with its views, its zones and its save."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable
from typing import Any, Final

from mypy_extensions import mypyc_attr

from engine.cards import SUIT_SYMBOL, Card, cards_pretty, shuffle
from engine.core import (
    Action,
    DeckPlan,
    Event,
    OptionValue,
    Phrase,
    TotalsState,
    View,
    Zone,
    cards_json,
    counted_phrase,
    dealt_hands,
    joined,
    make_rng,
    redeal,
    seat_words,
)
from engine.games.stuck.rules import (
    DONE,
    DRAW,
    FOLLOW,
    GIVE,
    GIVES,
    HAND_SIZE,
    MAX_STUCK,
    PLAY,
    PLAYS,
    Give,
    PlayCard,
    may_follow,
    may_start,
    rank_name,
)
from engine.words import N_, Nn_, _, ngettext

STUCK_ALREADY: Final = Nn_("with {count} stuck card already", "with {count} stuck cards already")
"""Why a player who cannot play draws into the hand (§3.4), a count the language says."""


def played_event(seat: int, card: Card) -> Event:
    """The event of a card played."""
    said = (("player", seat_words(seat)), ("card", card.pretty))
    return Event(N_("{player} plays {card}"), "play", args=said)


def drew_stuck_event(seat: int) -> Event:
    """The event of a seat that could not play drawing a stuck card."""
    said = (("player", seat_words(seat)),)
    return Event(N_("{player} cannot play and draws a stuck card"), "draw", args=said)


STALLED = Event(N_("Nobody played a card for a whole turn of the table: stalled"), "stall")


def gave_event(seat: int, target: int) -> Event:
    """The event of the bonus stuck card given to ``target``."""
    said = (("player", seat_words(seat)), ("target", seat_words(target)))
    return Event(N_("{player} sticks a card in front of {target}"), "give", args=said)


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class StuckState(TotalsState):
    """A game of stuck at a decision."""

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
        """Deal the round: 7 each from the dealer's left, the up card, the rest is the pile (§2)."""
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
        """A first card, or a draw only when none can be played (§3.4); then a card that may
        follow, or done (§4.3); then whom the bonus goes to (§5.1)."""
        if self.phase == PLAY:
            first = self.first_cards(seat)
            return tuple([PLAYS[card] for card in first]) if first else (DRAW,)
        if self.phase == FOLLOW:
            run = self.run
            follow = [PLAYS[card] for card in self.hands[seat] if may_follow(card, run)]
            return (*follow, DONE)
        return tuple([GIVES[target] for target in self.bonus_targets(seat)])

    def first_cards(self, seat: int) -> list[Card]:
        """The hand cards that may start a play on the current card (§3)."""
        current = self.discard[-1]
        return [card for card in self.hands[seat] if may_start(card, current)]

    def can_draw(self) -> bool:
        """Whether a card can be drawn (from the pile, or after a reshuffle: §7.1)."""
        return bool(self.pile) or len(self.discard) > 1

    def bonus_targets(self, seat: int) -> list[int]:
        """Who may get ``seat``'s bonus stuck card (none if nothing can be drawn): §5.1."""
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
                return ngettext(
                    "s{seat} already has {count} stuck card.",
                    "s{seat} already has {count} stuck cards.",
                    MAX_STUCK,
                ).format(seat=action.seat, count=MAX_STUCK)
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
        """Why ``action`` cannot follow this turn's cards (§4)."""
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
        """Play one card; a suit play, or a play that empties the hand, ends by itself (§4.3)."""
        suit_play = self.phase == PLAY and card.rank != self.discard[-1].rank
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self.run.append(card)
        events = [played_event(seat, card)]
        if suit_play or not hand:
            return self.finish_play(seat, not suit_play, events)
        self.phase = FOLLOW
        return events

    def finish_play(self, seat: int, bonus: bool, events: list[Event]) -> list[Event]:
        """The play is over: go out (§6.2), ask for the bonus target (§5.1), or move on."""
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
        """Draw the bonus card face down in front of ``target`` (§5.1)."""
        events = self.draw_card()
        self.stuck[target].append(self.pile.pop(0))
        events.append(gave_event(seat, target))
        return self.after_bonus(seat, events)

    def after_bonus(self, seat: int, events: list[Event]) -> list[Event]:
        """Pick up the stuck cards if the hand is empty (§6.2), then end the turn."""
        if not self.hands[seat]:
            picked = self.stuck[seat]
            self.hands[seat] = sorted(picked)
            self.lacks[seat] = (set(), set())
            self.stuck[seat] = []
            count = len(picked)
            cards = counted_phrase(Nn_("{count} stuck card", "{count} stuck cards"), count)
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
        """No card can be played: draw a stuck card (or, with 3, a hand card), or pass (§3.4)."""
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
                    N_("{player} cannot play and, {already}, draws a card into the hand"),
                    "draw",
                    args=(
                        ("player", seat_words(seat)),
                        ("already", counted_phrase(STUCK_ALREADY, MAX_STUCK)),
                    ),
                ),
                Event(N_("You draw {card}"), "draw", frozenset((seat,)), (("card", card.pretty),)),
            ]
        return self.end_turn(seat, False, events)

    def draw_card(self) -> list[Event]:
        """Make sure the pile has a card to draw (reshuffling if needed); the caller pops it."""
        return [] if self.pile else self.reshuffle()

    def reshuffle(self) -> list[Event]:
        """Shuffle the discard, except the current card, into a new draw pile (§7.1)."""
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
        """Count a turn without a card for the stall rule (§8.1); pass the turn left (§2.3)."""
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
        """Score the round (``out`` went out; None: it stalled), then deal the next or finish
        (§9)."""
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
