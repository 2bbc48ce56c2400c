"""A cambio game at a decision: the deal, the turn and its powers, the call, the stock and the
scoring (docs/rules/cambio.md §4–§7, §9, §11). The snap rules are in ``snaps``, what each
player knows and sees in ``knowledge``, the save format in ``saves``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from engine.cards import Card, shuffle
from engine.core import (
    Action,
    DeckPlan,
    Event,
    OptionValue,
    TotalsState,
    View,
    Zone,
    leader_order,
    make_rng,
)
from engine.games.cambio import knowledge, saves, snaps, words
from engine.games.cambio.moves import (
    CAMBIO,
    DISCARD,
    DRAW,
    KEEP,
    SKIP,
    SWAP,
    BlindSwap,
    Give,
    KingPeek,
    Look,
    Peek,
    Replace,
    Snap,
    Spy,
)
from engine.games.cambio.table import (
    DECIDE,
    DRAWN,
    GIVE,
    HAND_SIZE,
    LOOK,
    OVER,
    PEEK,
    POWER,
    RESHUFFLES,
    SPY,
    SWAP_POWER,
    TURN,
    Hand,
    Slot,
    label_of,
    points,
    power_of,
    seat_ref,
)
from engine.words import N_

if TYPE_CHECKING:
    from engine.games.cambio.game import CambioGame


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class CambioState(TotalsState):
    """A cambio game at a decision (phases: ``LOOK`` … ``OVER``)."""

    game: ClassVar[CambioGame]

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

    # -- the deal (§4) -------------------------------------------------------------------------
    def start(self) -> list[Event]:
        return self.start_round()

    def start_round(self) -> list[Event]:
        """§4.2: 4 cards each, one at a time from the dealer's left, to A B C D; the rest is
        the stock. §4.3: then everyone looks at two of their positions."""
        deck = self.deck_plan.deck(self.round_index)
        order = leader_order((self.dealer + 1) % self.players, self.players)
        self.hands = [{} for _seat in range(self.players)]
        for index in range(HAND_SIZE * self.players):
            seat = order[index % self.players]
            self.hands[seat][label_of(index // self.players)] = Slot(deck[index])
        self.next_label = [HAND_SIZE] * self.players
        self.stock = deck[HAND_SIZE * self.players :]
        self.discard = []
        self.drawn = None
        self.phase = LOOK
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
        self.recent = [[] for _seat in range(self.players)]
        self.turn = (self.dealer + 1) % self.players  # §5.1
        return [
            Event(
                N_("Round {round}: {dealer} deals. Everyone looks at two of their cards."),
                kind="deal",
                args=(("round", str(self.round_index + 1)), ("dealer", seat_ref(self.dealer))),
            )
        ]

    def take_card(self, events: list[Event]) -> Card | None:
        """§9: the top stock card; an empty stock is first refilled with the discard pile but
        its top card, shuffled, at most ``RESHUFFLES`` times a round (``events`` gets the
        reshuffle, which everyone sees). None when that leaves nothing."""
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
        """§3.2: the next label never used by ``seat`` this round (E, F, …)."""
        label = label_of(self.next_label[seat])
        self.next_label[seat] += 1
        return label

    # -- who acts ------------------------------------------------------------------------------
    def _to_act(self) -> tuple[int, ...]:
        if self.over:
            return ()
        phase = self.phase
        if phase == LOOK:  # §4.3: all at the same time
            return tuple([seat for seat in range(self.players) if seat not in self.looked])
        if phase == GIVE:
            assert self.giver is not None
            return (self.giver,)
        if phase == TURN and self.window:
            return snaps.acting_in_window(self)
        return (self.turn,)

    def waiting_for(self) -> tuple[int, ...]:
        if self.phase == TURN:
            return (self.turn,)
        return self.to_act()

    def timeout_action(self, seat: int) -> Action | None:
        """§4.3: a player who does not choose in time looks at C and D; elsewhere the AI
        decides."""
        if self.phase == LOOK and seat in self.to_act():
            return Look("C", "D")
        return None

    # -- what may be played --------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        return tuple(self.moves(seat))

    def moves(self, seat: int) -> Iterator[Action]:
        """The moves of a seat that may act, each produced by the rule that allows it."""
        phase = self.phase
        hand = self.hands[seat]
        if phase == LOOK:  # §4.3: any two own positions
            labels = list(hand)
            for index, first in enumerate(labels):
                for second in labels[index + 1 :]:
                    yield Look(first, second)
        elif phase == TURN:
            if seat == self.turn:  # §5.2 draw, §7.1 or call
                yield DRAW
                if self.may_call():
                    yield CAMBIO
            # a seat that may act now and is not the turn's may only snap (§8.1)
            if seat != self.turn or snaps.may_snap(self, seat):
                yield from snaps.snap_moves(self, seat)
        elif phase == DRAWN:  # §5.2
            for label in hand:
                yield Replace(label)
            yield DISCARD
        elif phase == POWER:  # §6
            yield from self.power_moves(seat)
            yield SKIP
        elif phase == DECIDE:  # §6.4
            yield SWAP
            yield KEEP
        elif phase == GIVE:  # §8.4
            for label in hand:
                yield Give(label)

    def may_call(self) -> bool:
        """§7.1: Cambio may be called once a round, once as many draws were made as there are
        players."""
        return self.caller is None and self.draws >= self.players

    def unlocked_targets(self, seat: int) -> list[tuple[int, str]]:
        """§6, §7.3: the positions of other players that ``seat`` may look at or swap with
        (never the caller's)."""
        caller = self.caller
        return [
            (other, label)
            for other in range(self.players)
            if other != seat and other != caller
            for label in self.hands[other]
        ]

    def power_moves(self, seat: int) -> Iterator[Action]:
        """§6.1–§6.4: what the discarded card's power may do."""
        own = self.hands[seat]
        power = self.power
        if power == PEEK:
            for label in own:
                yield Peek(label)
            return
        targets = self.unlocked_targets(seat)
        if power == SPY:
            for other, label in targets:
                yield Spy(other, label)
            return
        for mine in own:
            for other, label in targets:
                if power == SWAP_POWER:
                    yield BlindSwap(mine, other, label)
                else:
                    yield KingPeek(mine, other, label)

    def has_power_target(self, seat: int, power: str) -> bool:
        """§6.5: whether a power has a target (else it is not offered)."""
        if power == PEEK:
            return bool(self.hands[seat])
        others = bool(self.unlocked_targets(seat))
        return others if power == SPY else others and bool(self.hands[seat])

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.over or not 0 <= seat < self.players:
            return super().explain_illegal(seat, action)
        return words.why_illegal(self, seat, action)

    # -- the moves' effects ----------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        # §10.2: a seat's "just looked at" cards are shown until its next action.
        self.recent[seat] = []
        phase = self.phase
        if phase == LOOK:
            assert isinstance(action, Look)
            return self._apply_look(seat, action)
        if isinstance(action, Snap):
            return snaps.apply_snap(self, seat, action)
        if phase == TURN:
            return self._apply_turn(seat, action)
        if phase == DRAWN:
            return self._apply_drawn(seat, action)
        if phase == GIVE:
            assert isinstance(action, Give)
            return snaps.apply_give(self, seat, action)
        return self._apply_power(seat, action)

    def see(self, seat: int, owner: int, label: str) -> str:
        """§10.1: ``seat`` looks at ``owner``'s ``label`` and knows the card from now on."""
        slot = self.hands[owner][label]
        slot.known.add(seat)
        self.recent[seat].append((owner, label, slot.card.text))
        return slot.card.pretty

    def _apply_look(self, seat: int, action: Look) -> list[Event]:
        """§4.3: the opening look; play starts once everyone has looked."""
        first = self.see(seat, seat, action.first)
        second = self.see(seat, seat, action.second)
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
            self.phase = TURN
            events.append(
                Event(
                    N_("Everyone has looked; {player} plays first."),
                    "turn",
                    args=(("player", seat_ref(self.turn)),),
                )
            )
        return events

    def _apply_turn(self, seat: int, action: Action) -> list[Event]:
        """§5.2 draw (§9.3: nothing to take ends the round), or §7.1 call Cambio. Either
        closes the snap window (§8.2)."""
        self.window = False
        self.snapped = set()
        player = ("player", seat_ref(seat))
        if action == CAMBIO:
            self.caller = seat
            call = Event(
                N_("{player} calls Cambio! Everyone else has one more turn."),
                "call",
                args=(player,),
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
            events.append(Event(why, "draw", args=(player, ("count", str(RESHUFFLES)))))
            return events + self.end_round()
        self.draws += 1
        self.drawn = card
        self.phase = DRAWN
        events.append(Event(N_("{player} drew a card"), "draw", args=(player,)))
        events.append(
            Event(N_("You drew {card}"), "draw", frozenset((seat,)), (("card", card.pretty),))
        )
        return events

    def _apply_drawn(self, seat: int, action: Action) -> list[Event]:
        """§5.2: replace an own card (no power), or discard the drawn card (its power, §6)."""
        drawn = self.drawn
        assert drawn is not None
        self.drawn = None
        player = ("player", seat_ref(seat))
        if isinstance(action, Replace):
            old = self.hands[seat][action.pos]
            self.hands[seat][action.pos] = Slot(drawn, {seat})
            self.discard.append(old.card)
            replaced = Event(
                N_(
                    "{player} put the drawn card in place of their card {label}; "
                    "{card} goes to the discard"
                ),
                "replace",
                args=(player, ("label", action.pos), ("card", old.card.pretty)),
            )
            return [replaced, *self.end_turn()]
        self.discard.append(drawn)
        events = [
            Event(N_("{player} discarded {card}"), "discard", args=(player, ("card", drawn.pretty)))
        ]
        power = power_of(drawn)
        if power is not None and self.has_power_target(seat, power):
            self.power = power
            self.phase = POWER
            return events
        return events + self.end_turn()

    def _apply_power(self, seat: int, action: Action) -> list[Event]:
        """§6: a power used or skipped (the black king's look leads to its swap or keep)."""
        only_me = frozenset((seat,))
        player = ("player", seat_ref(seat))
        if isinstance(action, Peek):  # §6.1
            card = self.see(seat, seat, action.pos)
            label = ("label", action.pos)
            events = [
                Event(N_("{player} looked at their card {label}"), "power", args=(player, label)),
                Event(N_("Your card {label} is {card}"), "power", only_me, (label, ("card", card))),
            ]
        elif isinstance(action, Spy):  # §6.2
            card = self.see(seat, action.seat, action.pos)
            spied = (("other", seat_ref(action.seat)), ("label", action.pos))
            events = [
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
        elif isinstance(action, BlindSwap):  # §6.3
            self.swap(seat, action.own, action.seat, action.pos)
            swapped = (("own", action.own), ("other", seat_ref(action.seat)))
            events = [
                Event(
                    N_("{player} swapped their card {own} with {other}'s card {label}, unseen"),
                    "power",
                    args=(player, *swapped, ("label", action.pos)),
                )
            ]
        elif isinstance(action, KingPeek):  # §6.4: look, then swap or keep
            mine = self.see(seat, seat, action.own)
            theirs = self.see(seat, action.seat, action.pos)
            self.king = (action.own, action.seat, action.pos)
            self.phase = DECIDE
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
        elif self.phase == DECIDE:
            assert self.king is not None
            own, other, pos = self.king
            # The looked cards stay on show while the seat decided; now it must remember them.
            if action == SWAP:
                self.swap(seat, own, other, pos)
                events = [
                    Event(
                        N_("{player} swapped their card {own} with {other}'s card {label}"),
                        "power",
                        args=(player, ("own", own), ("other", seat_ref(other)), ("label", pos)),
                    )
                ]
            else:
                events = [
                    Event(N_("{player} kept the cards where they were"), "power", args=(player,))
                ]
        else:
            events = [Event(N_("{player} did not use the power"), "power", args=(player,))]
        return events + self.end_turn()

    def swap(self, seat: int, own: str, other: int, pos: str) -> None:
        """§6.3, §10.1: a public swap: the cards change places and what anyone knew moves
        with them."""
        mine, theirs = self.hands[seat], self.hands[other]
        mine[own], theirs[pos] = theirs[pos], mine[own]

    def end_turn(self, open_window: bool = True) -> list[Event]:
        """§5.1 pass the turn left; §8.1 a card on the discard opens a snap window. §7.2 when
        the turn comes back to the caller, the round ends at once (no window after the last
        final turn)."""
        self.phase = TURN
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

    # -- the end of a round and of the game (§11) ------------------------------------------------
    def round_points(self) -> list[int]:
        """§11.1: each player's card points now (no cards: 0)."""
        return [sum([points(slot.card) for slot in hand.values()]) for hand in self.hands]

    def end_round(self) -> list[Event]:
        """§11: reveal and score; then either end the game or deal the next round (§4.1: the
        deal passes left)."""
        for hand in self.hands:
            for slot in hand.values():
                slot.public = True
        scored = self.round_points()
        for seat, gained in enumerate(scored):
            self.totals[seat] += gained
        self.history.append(scored)
        self.window = False
        self.phase = TURN
        self.last_reveal = {**self.public_view(), "revealed": self.faces()}
        events = [words.round_scores(self, scored)]
        limit = self.options["limit"]
        rounds = self.options["rounds"] or self.players
        if (limit is not None and max(self.totals) >= int(limit)) or (
            limit is None and self.round_index + 1 >= int(rounds)
        ):
            self.over = True
            self.phase = OVER
            events.append(words.game_won(self.winners(), min(self.totals)))
            return events
        self.round_index += 1
        self.dealer = (self.dealer + 1) % self.players
        return events + self.start_round()

    # -- what players see (§10) ------------------------------------------------------------------
    def public_view(self) -> View:
        return knowledge.public_view(self)

    def faces(self) -> list[dict[str, str]]:
        """Every position's card, by seat (what a reveal shows)."""
        return [{label: slot.card.text for label, slot in hand.items()} for hand in self.hands]

    def view(self, seat: int) -> View:
        return knowledge.seat_view(self, seat, memory=bool(self.options["memory_aid"]))

    def agent_view(self, seat: int) -> View:
        """The seat's full knowledge, as the ``memory_aid`` view shows it: every card it has
        seen and not lost track of (the AI remembers what it saw, like a perfect memory)."""
        return knowledge.seat_view(self, seat, memory=True)

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        knowledge.redeal_hidden(self, seat, rng)

    def zones(self) -> Iterable[Zone]:
        return knowledge.zones(self)

    def _to_json(self) -> dict[str, Any]:
        return saves.state_json(self)
