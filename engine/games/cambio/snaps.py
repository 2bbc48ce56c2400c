"""Snapping, out of turn (docs/rules/cambio.md §8): who may snap, what, and what a correct or
wrong snap does."""

from __future__ import annotations

from engine.core import Action, Event
from engine.games.cambio.moves import Give, Snap
from engine.games.cambio.table import (
    GIVE,
    TURN,
    CambioTable,
    Slot,
    seat_ref,
    sorted_hand,
    take_card,
    unlocked_seats,
)
from engine.words import N_


def snap_open(table: CambioTable) -> bool:
    """§8.1–§8.2: a snap window is open on the discard's top card."""
    return table.window and table.phase == TURN


def snappers(table: CambioTable) -> list[int]:
    """§8.1, §7.3: the seats that may snap now, in seat order: while the window is open and
    an unlocked position holds a card, every seat but the caller that has not tried in this
    window."""
    caller = table.caller
    if not snap_open(table) or not any(
        table.hands[owner] for owner in range(table.players) if owner != caller
    ):
        return []
    return [seat for seat in range(table.players) if seat != caller and seat not in table.snapped]


def may_snap(table: CambioTable, seat: int) -> bool:
    """Whether ``seat`` may snap now."""
    return seat in snappers(table)


def acting_in_window(table: CambioTable) -> tuple[int, ...]:
    """Who may act while a window is open: the snappers, and the turn's player (who may draw,
    which closes the window), in seat order."""
    acting = snappers(table)
    if table.turn not in acting:
        acting.append(table.turn)
        acting.sort()
    return tuple(acting)


def snap_moves(table: CambioTable, seat: int) -> list[Action]:
    """§8.1: every unlocked position holding a card: own first, then the other seats' in seat
    order."""
    listed: list[Action] = [Snap(None, label) for label in table.hands[seat]]
    for other in unlocked_seats(table, seat):
        for label in table.hands[other]:
            listed.append(Snap(other, label))
    return listed


def apply_snap(table: CambioTable, seat: int, action: Snap) -> list[Event]:
    """§8.3–§8.5: a correct snap discards the card (another player's: the snapper gives one
    back, §8.4) and closes the window; a wrong one shows the card to everyone and costs a
    penalty card in a new position (none when nothing is left to take, §9.3)."""
    table.snapped.add(seat)
    owner = seat if action.seat is None else action.seat
    slot = table.hands[owner][action.pos]
    top = table.discard[-1]
    snapped: tuple[tuple[str, str], ...] = (
        ("player", seat_ref(seat)),
        ("other", seat_ref(owner)),
        ("label", action.pos),
        ("card", slot.card.pretty),
    )
    if slot.card.rank == top.rank:
        del table.hands[owner][action.pos]
        table.discard.append(slot.card)
        table.window = False
        table.snapped = set()
        if owner == seat:
            message = N_("{player} snapped their card {label}: {card} — correct!")
        else:
            message = N_("{player} snapped {other}'s card {label}: {card} — correct!")
        events = [Event(message, "snap", args=snapped)]
        if owner != seat and table.hands[seat]:
            table.phase = GIVE
            table.giver = seat
            table.gap = (owner, action.pos)
            events.append(
                Event(N_("{player} chooses a card to give {other}"), "snap", args=snapped[:2])
            )
        return events
    # §8.5: the card goes back face down where it was, seen by everyone, and a penalty.
    slot.public = True
    seen = (owner, action.pos, slot.card.text)
    for entries in table.recent:
        if seen not in entries:
            entries.append(seen)
    if owner == seat:
        message = N_("{player} snapped their card {label}: {card} does not match {top} — wrong!")
    else:
        message = N_(
            "{player} snapped {other}'s card {label}: {card} does not match {top} — wrong!"
        )
    events = [Event(message, "snap", args=(*snapped, ("top", top.pretty)))]
    penalty = take_card(table, events)
    if penalty is None:
        events.append(Event(N_("No card is left for a penalty."), "snap"))
        return events
    label = table.new_label(seat)
    table.hands[seat][label] = Slot(penalty)
    events.append(
        Event(
            N_("{player} takes a penalty card, unseen: their new card {label}"),
            "snap",
            args=(("player", seat_ref(seat)), ("label", label)),
        )
    )
    return events


def apply_give(table: CambioTable, seat: int, action: Give) -> list[Event]:
    """§8.4: the snapper moves one of their cards, unseen, into the emptied position (which
    keeps its label, §3.1)."""
    assert table.gap is not None
    owner, pos = table.gap
    table.hands[owner][pos] = table.hands[seat].pop(action.pos)
    table.hands[owner] = sorted_hand(table.hands[owner])
    table.phase = TURN
    table.gap = None
    table.giver = None
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
