"""The normal level of cambio: the heuristic player."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.search import Yardstick
from engine.cards import FULL_DECK, Card
from engine.core import Action, State, View
from engine.games.cambio import (
    CAMBIO,
    DISCARD,
    DRAW,
    KEEP,
    SKIP,
    SWAP,
    BlindSwap,
    CambioState,
    Give,
    KingPeek,
    Look,
    Peek,
    Replace,
    Snap,
    Spy,
    points,
)

POINTS = {card: points(card) for card in FULL_DECK}
DECK_POINTS = sum(POINTS.values())


class CambioAgent:
    """Remembers what it saw (its ``agent_view``), replaces known high cards with low draws,
    uses powers to learn unknown cards and to pass high cards on, snaps known matches, and
    calls Cambio when its estimated total is low."""

    needs_view = True

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """The AI's move (None: let an optional snap pass)."""
        assert view is not None
        mind = Mind(view)
        snap = mind.best_snap(legal)
        if snap is not None:
            return snap
        if optional:
            return None
        first = legal[0]
        if isinstance(first, Look):
            return first
        if first == DRAW:
            return CAMBIO if CAMBIO in legal and mind.should_call() else DRAW
        if isinstance(first, Give):
            return mind.give(legal)
        if first in (SWAP, KEEP):
            return mind.decide_king()
        if DISCARD in legal:
            return mind.replace_or_discard(legal)
        return mind.use_power(legal)


class Mind:
    """What an agent works out from its view: known cards and the mean of unseen ones."""

    CALL_AFTER = 8  # rounds of draws after which the AI always calls (rounds must end)
    CALL_SURE = 5  # call with every own card known and at most this total
    CALL_AT_MOST = 7  # otherwise call with at most this estimate …
    CALL_LEAD = 4  # … and this far below everyone else's estimate
    RISK = -0.5  # extra saving asked of replacing an unknown card (worth the mean): knowing helps

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.players = len(view["positions"])
        self.positions: list[list[str]] = view["positions"]
        self.known: list[dict[str, Card]] = [
            {label: Card.parse(text) for label, text in hand.items()} for hand in view["known"]
        ]
        seen = {card for hand in self.known for card in hand.values()}
        if view["drawn"]:
            seen.add(Card.parse(view["drawn"]))
        # The deck's total less the seen cards' (the search's playouts ask this every move).
        unseen = len(FULL_DECK) - len(seen)
        unseen_points = DECK_POINTS - sum(map(POINTS.__getitem__, seen))
        self.mean = unseen_points / unseen if unseen else 5.0

    def value(self, seat: int, label: str) -> float:
        """The known points at a position, or the mean of the unseen cards."""
        card = self.known[seat].get(label)
        return self.mean if card is None else POINTS[card]

    def estimate(self, seat: int) -> float:
        """A seat's expected total."""
        return sum(self.value(seat, label) for label in self.positions[seat])

    def best_snap(self, legal: Sequence[Action]) -> Action | None:
        """A snap of a known match, when it pays: an own card leaves (its points go), another
        player's card is replaced by our highest card."""
        top = self.view["discard_top"]
        if top is None or not self.view["snap_window"]:
            return None
        rank = Card.parse(top).rank
        mine = self.positions[self.seat]
        give_away = max((self.value(self.seat, label) for label in mine), default=None)
        best: tuple[float, Action] | None = None
        for action in legal:
            if not isinstance(action, Snap):
                continue
            owner = self.seat if action.seat is None else action.seat
            card = self.known[owner].get(action.pos)
            if card is None or card.rank != rank:
                continue
            if owner == self.seat:
                gain = points(card) + 0.5
            else:
                gain = -1.0 if give_away is None else give_away - 0.5
            if gain > 0.4 and (best is None or gain > best[0]):
                best = (gain, action)
        return best[1] if best else None

    def should_call(self) -> bool:
        """Call when our estimate is low, or clearly the lowest; always after a long round."""
        mine = self.estimate(self.seat)
        others = [self.estimate(seat) for seat in range(self.players) if seat != self.seat]
        unknown = sum(label not in self.known[self.seat] for label in self.positions[self.seat])
        if self.view["draws"] >= self.CALL_AFTER * self.players:
            return True
        if unknown == 0 and mine <= self.CALL_SURE:
            return True
        lead = self.CALL_LEAD
        return mine <= self.CALL_AT_MOST and mine + lead <= min(others, default=mine + lead)

    def replace_or_discard(self, legal: Sequence[Action]) -> Action:
        """Replace the position where the drawn card saves most; else discard (using its power,
        or snapping our own card of the same rank next)."""
        drawn = Card.parse(self.view["drawn"])
        value = points(drawn)
        best: tuple[float, Action] = (0.0, DISCARD)
        for action in legal:
            if isinstance(action, Replace):
                card = self.known[self.seat].get(action.pos)
                # An unknown card is worth the mean, but replacing it is a gamble: ask more.
                saving = points(card) - value if card is not None else self.mean - value - self.RISK
                if saving > best[0]:
                    best = (saving, action)
        # Discarding a card matching one we know lets us snap ours away at once.
        match = max(
            (points(card) for card in self.known[self.seat].values() if card.rank == drawn.rank),
            default=None,
        )
        if match is not None and match + 0.5 >= best[0] and match >= 0:
            return DISCARD
        return best[1] if best[0] > 0.5 else DISCARD

    def use_power(self, legal: Sequence[Action]) -> Action:
        """Learn an unknown own card first, then an opponent's; swap our worst for their best."""
        me = self.seat
        candidates: list[tuple[float, Action]] = []
        for action in legal:
            if isinstance(action, Peek):
                unknown = action.pos not in self.known[me]
                candidates.append((3.0 if unknown else -1.0, action))
            elif isinstance(action, Spy):
                unknown = action.pos not in self.known[action.seat]
                candidates.append(
                    (1.0 - 0.01 * self.estimate(action.seat) if unknown else -1, action)
                )
            elif isinstance(action, BlindSwap):
                gain = self.value(me, action.own) - self.value(action.seat, action.pos)
                sure = action.own in self.known[me] and action.pos in self.known[action.seat]
                candidates.append((gain - (0 if sure else 2.0), action))
            elif isinstance(action, KingPeek):
                learn = (action.own not in self.known[me]) + (
                    action.pos not in self.known[action.seat]
                )
                gain = self.value(me, action.own) - self.value(action.seat, action.pos)
                candidates.append((learn * 1.5 + max(gain, 0.0) * 0.5, action))
        if not candidates:
            return SKIP
        score, action = max(candidates, key=lambda item: item[0])
        return action if score > 0.5 else SKIP

    def decide_king(self) -> Action:
        """Swap when their card is lower than ours."""
        own, other, pos = self.view["pending"]
        return SWAP if self.value(other, pos) < self.value(self.seat, own) else KEEP

    def give(self, legal: Sequence[Action]) -> Action:
        """Give away our highest card (an unknown one counts as the mean)."""
        gives = [action for action in legal if isinstance(action, Give)]
        return max(gives, key=lambda action: self.value(self.seat, action.pos))


NORMAL = CambioAgent
"""The normal level's agent class (found by ``engine.ai``)."""


def standing(world: State) -> list[int]:
    """The card points each seat holds now (what the round would score if it ended); in the
    game's last round, added to each seat's total: there a playout that ends the round ends
    the game and is judged by who won, so one stopped at its horizon is judged by the game's
    totals too, not by this round alone (which would make a lead in the totals invisible to
    every move but calling Cambio)."""
    assert isinstance(world, CambioState)
    held = world.round_points()
    rounds = world.options["rounds"] or world.players
    if world.options["limit"] is None and world.round_index + 1 >= int(rounds):
        return [total + points for total, points in zip(world.totals, held, strict=True)]
    return held


YARDSTICK = Yardstick(scale=5.0, standing=standing, rounds=3, confidence=1.5, playouts=128)
"""How the searching levels judge a playout: three turns each, then the card points held; a
rival must beat the heuristic's move by 1.5 standard errors (a few lucky worlds make a snap
or an early Cambio look better than it is)."""
