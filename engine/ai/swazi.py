"""The normal level of swazi: the heuristic player."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai.search import Yardstick
from engine.cards import SPADES, Card
from engine.core import Action, State, View, cards_from_json
from engine.games.swazi import (
    AUGMENT,
    BUILD,
    CAPTURE,
    CARDLESS_BUILD,
    CHANGE,
    DISCARD,
    TEN_OF_DIAMONDS,
    TOP_BUILD,
    TWO_OF_SPADES,
    Move,
    SwaziState,
    score_piles,
    serves,
    sets_by_total,
)
from engine.games.swazi.rules import LISTED
from engine.games.swazi.sets import cards_of


def worth(card: Card) -> float:
    """What a captured card is worth, in units of one card toward "most cards"."""
    return (
        1.0
        + 2.0 * (card.suit == SPADES)
        + 6.5 * (card == TWO_OF_SPADES)
        + 13.0 * (card == TEN_OF_DIAMONDS)
        + 6.5 * (card.rank == 1)
    )


def best_groups(value: int, loose: Sequence[Card]) -> list[Card]:
    """A greedy capture for a card of ``value``: every single card of that value, then the most
    valuable sets adding up to it, one after another (never every combination)."""
    taken = [c for c in loose if c.rank == value or (c.rank == 1 and value in (1, TOP_BUILD))]
    rest = sorted(card for card in loose if card not in taken)
    while value > 1 and len(rest) >= 2:
        sets = [part for part in LooseSets(rest)[value] if len(part) >= 2]
        if not sets:
            break
        best = max(sets, key=lambda part: (sum(map(worth, part)), -len(part)))
        taken += best
        rest = [card for card in rest if card not in best]
    return sorted(taken)


class LooseSets:
    """The sets of ``loose`` cards (in card order) by total, as the rules find them; a total's
    sets are made into cards when first asked for (a heuristic asks for a few totals)."""

    def __init__(self, loose: list[Card]) -> None:
        self.loose = loose
        self.masks, _totals = sets_by_total(loose, LISTED)
        self.made: dict[int, list[tuple[Card, ...]]] = {}

    def __getitem__(self, total: int) -> list[tuple[Card, ...]]:
        """The sets adding up to ``total``, in the rules' order."""
        sets = self.made.get(total)
        if sets is None:
            sets = [cards_of(self.loose, mask) for mask in self.masks[total]]
            self.made[total] = sets
        return sets


class SwaziAgent:
    """A greedy player. Before its hand card it steals the opponent's pile top into its own
    builds (making a build from loose cards first when that lets it); then it plays the best
    of: the most valuable greedy capture, a build or change it can take next turn, or the
    cheapest discard. It makes a few candidate moves and keeps the legal ones, so it never
    scores every combination."""

    needs_view = True

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """The best candidate that is legal (a legal hand-card move if none is)."""
        assert view is not None
        allowed = set(legal)
        hand = cards_from_json(view["hand"])
        loose = cards_from_json(view["layout"])
        seat = view["seat"]
        builds = {build["value"]: build for build in view["builds"]}
        top_text = view["piles"][1 - seat]["top"]
        top = Card.parse(top_text) if top_text else None
        table = LooseSets(loose)
        for move in self.free_moves(hand, table, builds, seat, top):
            if move in allowed:
                return move
        scored = [
            (score, rng.random(), move)
            for card in hand
            for move, score in self.candidates(card, hand, table, builds, seat)
            if move in allowed
        ]
        if scored:
            return max(scored)[2]
        held = set(hand)
        for action in legal:  # pragma: no cover - the candidates always hold a legal move
            assert isinstance(action, Move)
            if action.card is not None or held.intersection(action.cards):
                return action
        return legal[0]  # pragma: no cover

    @staticmethod
    def free_moves(
        hand: list[Card], table: LooseSets, builds: dict[int, Any], seat: int, top: Card | None
    ) -> list[Move]:
        """Card-less moves that take the opponent's pile top into an own build, or a build
        from loose cards that makes that possible (tried in this order)."""
        if top is None:
            return []
        moves: list[Move] = []
        for value in sorted(builds):
            if builds[value]["owner"] != seat:
                continue
            if serves(top, value):
                moves.append(Move(AUGMENT, build=value, top=True))
            rest = value - top.rank
            for part in table[rest] if rest >= 1 else ():
                moves.append(Move(AUGMENT, build=value, cards=part, top=True))
        value = TOP_BUILD if top.rank == 1 else top.rank
        if value not in builds and any(serves(card, value) for card in hand):
            moves += [Move(CARDLESS_BUILD, cards=part) for part in table[value] if len(part) >= 2]
        return moves

    @staticmethod
    def candidates(
        card: Card, hand: list[Card], table: LooseSets, builds: dict[int, Any], seat: int
    ) -> list[tuple[Move, float]]:
        """The moves worth trying with ``card`` (``table``: the loose cards' sets), each with a
        score."""
        found: list[tuple[Move, float]] = []
        others = [c for c in hand if c != card]
        for ace in (1, TOP_BUILD) if card.rank == 1 else (0,):
            value = ace or card.rank
            taken = tuple(best_groups(value, table.loose))
            gain = sum(map(worth, taken)) + worth(card)
            word_ace = 1 if ace and all(c.rank == 1 for c in taken) else ace
            if taken:
                found.append((Move(CAPTURE, card, word_ace, 0, taken), 10 + gain))
            build = builds.get(value)
            if build is not None:
                cards = cards_from_json(build["cards"])
                bonus = sum(map(worth, cards)) * (1.5 if build["owner"] != seat else 1.0)
                found.append((Move(CAPTURE, card, ace, value, taken), 10 + gain + bonus))
                found.append((Move(CAPTURE, card, ace, value), 9 + worth(card) + bonus))
        ace = 1 if card.rank == 1 else 0
        for total in range(1, TOP_BUILD + 1 - card.rank):
            value = card.rank + total
            if not table.masks[total] or not any(serves(c, value) for c in others):
                continue
            part = max(table[total], key=lambda cards: sum(map(worth, cards)))
            score = 4 + 0.6 * (sum(map(worth, part)) + worth(card))
            if value not in builds:
                found.append((Move(BUILD, card, ace, cards=part), score))
            elif ace:
                found.append((Move(AUGMENT, card, 1, value, part), score))
            else:
                found.append(
                    (Move(AUGMENT, build=value, cards=tuple(sorted((*part, card)))), score)
                )
        for old, build in builds.items():
            value = old + card.rank
            if build["owner"] != seat and any(serves(c, value) for c in others):
                cards = cards_from_json(build["cards"])
                found.append((Move(CHANGE, card, ace, old), 5 + 0.7 * sum(map(worth, cards))))
        face = 0.3 if card.rank >= 11 else -0.02 * card.rank
        found.append((Move(DISCARD, card), -worth(card) + face))
        return found


NORMAL = SwaziAgent
"""The normal level's agent class (found by ``engine.ai``)."""


def standing(world: State) -> list[int]:
    """The points the piles would score if the hand ended now."""
    assert isinstance(world, SwaziState)
    return score_piles(world.piles)[0]


YARDSTICK = Yardstick(scale=3.0, standing=standing, rounds=3, confidence=0.5, playouts=32)
"""How the searching levels judge a playout: three turns each, then the piles' points; a
rival half a standard error ahead of the heuristic's move is played (short playouts tell the
moves apart well here)."""
