"""What each player knows and sees (docs/rules/cambio.md §10): the views, the worlds a
searching AI imagines, and where every card is."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.core import View, Zone, deal_out, redeal
from engine.games.cambio.snaps import snap_open, snappers
from engine.games.cambio.table import may_call, points

if TYPE_CHECKING:
    from engine.games.cambio.state import CambioState

KNOWN_TILT = (0.0, 0.17, 0.25, 0.3)
"""How strongly ``redeal_hidden`` deals low cards to positions their owner knows, by the rounds
of draws made (the last for every later one): the mean of such cards in games of the normal
level falls from 6 (the deck's) to 3.8, 2.9 and 2.2 after one, two and three rounds of draws,
and these weights give those means."""


def public_view(state: CambioState) -> View:
    """What everyone sees: positions, piles, whose turn, the call, the snap window, scores."""
    view: View = {
        "game": state.game.id,
        "round": state.round_index + 1,
        "rounds": None
        if state.options["limit"] is not None
        else (state.options["rounds"] or state.players),
        "limit": state.options["limit"],
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": list(state.to_act()),
        "waiting_for": list(state.waiting_for()) if not state.over else [],
        "positions": [list(hand) for hand in state.hands],
        "stock": len(state.stock),
        "discard_top": state.discard[-1].text if state.discard else None,
        "discard_size": len(state.discard),
        "draws": state.draws,
        "cambio_allowed": may_call(state),
        "caller": state.caller,
        "snap_window": snap_open(state),
        "may_snap": snappers(state),
        "snap_seconds": state.options["snap_seconds"],
        "power": state.power,
        # decide: the black king's two looked positions [own, seat, pos]; give: [seat, pos]
        "pending": list(state.king) if state.king else list(state.gap) if state.gap else None,
        "scores": list(state.totals),
        "history": [list(scored) for scored in state.history],
        "over": state.over,
        "winners": list(state.winners()),
    }
    if state.over:
        view["revealed"] = state.faces()
    return view


def seat_view(state: CambioState, seat: int, memory: bool) -> View:
    """What ``seat`` sees (§10.2): its drawn card, what it just saw, and with ``memory``
    every card it knows."""
    view = public_view(state)
    view["seat"] = seat
    view["drawn"] = state.drawn.text if state.drawn is not None and seat == state.turn else None
    # [seat, position, card] for what this seat looked at in its last action
    view["just_seen"] = [[owner, label, card] for owner, label, card in state.recent[seat]]
    if memory:
        view["known"] = [
            {label: slot.card.text for label, slot in hand.items() if slot.knows(seat)}
            for hand in state.hands
        ]
    return view


def redeal_hidden(state: CambioState, seat: int, rng: random.Random) -> None:
    """Deal again, in place, the cards hidden from ``seat`` (``State.determinize``)."""
    # Knowledge stays with the position: a seat that knew a hidden card knows the new one.
    hidden = [
        (owner, slot)
        for owner, hand in enumerate(state.hands)
        for slot in hand.values()
        if not slot.knows(seat)
    ]
    faces = [slot.card for _owner, slot in hidden]
    drawn = [state.drawn] if state.drawn is not None and seat != state.turn else []
    redeal([faces, drawn, state.stock], rng)
    tilt = KNOWN_TILT[min(state.draws // state.players, len(KNOWN_TILT) - 1)]
    if tilt:
        # Players replace the high cards they know with low draws, so a card its owner
        # knows is likely low, the more so the longer the round has run. Which positions
        # each player knows is public (every look, peek and kept draw is announced), and
        # so is the number of draws: the belief uses nothing hidden from the seat. Each
        # such position takes a card picked with weight exp(-tilt * points) from the
        # places not yet settled (swapped with it: the rest stays a random deal).
        cards = [*faces, *drawn, *state.stock]
        settled: set[int] = set()
        for index, (owner, slot) in enumerate(hidden):
            if owner in slot.known:
                free = [place for place in range(len(cards)) if place not in settled]
                weights = [math.exp(-tilt * points(cards[place])) for place in free]
                picked = rng.choices(free, weights)[0]
                cards[index], cards[picked] = cards[picked], cards[index]
                settled.add(index)
        deal_out([faces, drawn, state.stock], cards)
    for (_owner, slot), card in zip(hidden, faces, strict=True):
        slot.card = card
    if drawn:
        state.drawn = drawn[0]
    # What the others just looked at follows the cards now in those positions.
    for other, entries in enumerate(state.recent):
        if other != seat:
            state.recent[other] = [
                (owner, label, state.hands[owner][label].card.text)
                if label in state.hands[owner]
                else (owner, label, card)
                for owner, label, card in entries
            ]


def zones(state: CambioState) -> Iterator[Zone]:
    """Every card of the game, each in one zone, with who sees it there."""
    for seat, hand in enumerate(state.hands):
        for label, slot in hand.items():
            yield Zone(f"s{seat}.{label}", (slot.card,), slot.seen_by())
    if state.drawn is not None:
        yield Zone("drawn", (state.drawn,), frozenset((state.turn,)))
    yield Zone("stock", tuple(state.stock), frozenset())
    yield Zone("discard", tuple(state.discard), None)
