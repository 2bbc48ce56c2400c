"""What each player knows and sees (docs/rules/cambio.md §10): the views, the worlds a
searching AI imagines, and where every card is."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from engine.core import View, Zone, deal_out, redeal
from engine.games.cambio.snaps import snap_open, snappers
from engine.games.cambio.table import CambioTable, points

KNOWN_TILT = (0.0, 0.17, 0.25, 0.3)
"""How strongly ``redeal_hidden`` deals low cards to positions their owner knows, by the rounds
of draws made (the last for every later one): the mean of such cards in games of the normal
level falls from 6 (the deck's) to 3.8, 2.9 and 2.2 after one, two and three rounds of draws,
and these weights give those means."""


def public_view(table: CambioTable) -> View:
    """What everyone sees: positions, piles, whose turn, the call, the snap window, scores."""
    view: View = {
        "game": table.game.id,
        "round": table.round_index + 1,
        "rounds": None
        if table.options["limit"] is not None
        else (table.options["rounds"] or table.players),
        "limit": table.options["limit"],
        "dealer": table.dealer,
        "phase": table.phase,
        "turn": table.turn,
        "to_act": list(table.to_act()),
        "waiting_for": list(table.waiting_for()) if not table.over else [],
        "positions": [list(hand) for hand in table.hands],
        "stock": len(table.stock),
        "discard_top": table.discard[-1].text if table.discard else None,
        "discard_size": len(table.discard),
        "draws": table.draws,
        "cambio_allowed": table.may_call(),
        "caller": table.caller,
        "snap_window": snap_open(table),
        "may_snap": snappers(table),
        "snap_seconds": table.options["snap_seconds"],
        "power": table.power,
        # decide: the black king's two looked positions [own, seat, pos]; give: [seat, pos]
        "pending": list(table.king) if table.king else list(table.gap) if table.gap else None,
        "scores": list(table.totals),
        "history": [list(scored) for scored in table.history],
        "over": table.over,
        "winners": list(table.winners()),
    }
    if table.over:
        view["revealed"] = table.faces()
    return view


def seat_view(table: CambioTable, seat: int, memory: bool) -> View:
    """What ``seat`` sees (§10.2): its drawn card, what it just saw, and with ``memory``
    every card it knows."""
    view = public_view(table)
    view["seat"] = seat
    view["drawn"] = table.drawn.text if table.drawn is not None and seat == table.turn else None
    # [seat, position, card] for what this seat looked at in its last action
    view["just_seen"] = [[owner, label, card] for owner, label, card in table.recent[seat]]
    if memory:
        view["known"] = [
            {label: slot.card.text for label, slot in hand.items() if slot.knows(seat)}
            for hand in table.hands
        ]
    return view


def redeal_hidden(table: CambioTable, seat: int, rng: random.Random) -> None:
    """Deal again, in place, the cards hidden from ``seat`` (``State.determinize``)."""
    # Knowledge stays with the position: a seat that knew a hidden card knows the new one.
    hidden = [
        (owner, slot)
        for owner, hand in enumerate(table.hands)
        for slot in hand.values()
        if not slot.knows(seat)
    ]
    faces = [slot.card for _owner, slot in hidden]
    drawn = [table.drawn] if table.drawn is not None and seat != table.turn else []
    redeal([faces, drawn, table.stock], rng)
    tilt = KNOWN_TILT[min(table.draws // table.players, len(KNOWN_TILT) - 1)]
    if tilt:
        # Players replace the high cards they know with low draws, so a card its owner
        # knows is likely low, the more so the longer the round has run. Which positions
        # each player knows is public (every look, peek and kept draw is announced), and
        # so is the number of draws: the belief uses nothing hidden from the seat. Each
        # such position takes a card picked with weight exp(-tilt * points) from the
        # places not yet settled (swapped with it: the rest stays a random deal).
        cards = [*faces, *drawn, *table.stock]
        settled: set[int] = set()
        for index, (owner, slot) in enumerate(hidden):
            if owner in slot.known:
                free = [place for place in range(len(cards)) if place not in settled]
                weights = [math.exp(-tilt * points(cards[place])) for place in free]
                picked = rng.choices(free, weights)[0]
                cards[index], cards[picked] = cards[picked], cards[index]
                settled.add(index)
        deal_out([faces, drawn, table.stock], cards)
    for (_owner, slot), card in zip(hidden, faces, strict=True):
        slot.card = card
    if drawn:
        table.drawn = drawn[0]
    # What the others just looked at follows the cards now in those positions.
    for other, entries in enumerate(table.recent):
        if other != seat:
            table.recent[other] = [
                (owner, label, table.hands[owner][label].card.text)
                if label in table.hands[owner]
                else (owner, label, card)
                for owner, label, card in entries
            ]


def zones(table: CambioTable) -> Iterator[Zone]:
    """Every card of the game, each in one zone, with who sees it there."""
    for seat, hand in enumerate(table.hands):
        for label, slot in hand.items():
            yield Zone(f"s{seat}.{label}", (slot.card,), slot.seen_by())
    if table.drawn is not None:
        yield Zone("drawn", (table.drawn,), frozenset((table.turn,)))
    yield Zone("stock", tuple(table.stock), frozenset())
    yield Zone("discard", tuple(table.discard), None)
