"""Cambio's save format: a state to JSON and back, exactly (old saves stay readable)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core import cards_from_json, cards_json
from engine.errors import SavedStateError
from engine.games.cambio.table import Hand, Slot, label_index

if TYPE_CHECKING:
    from engine.games.cambio.state import CambioState


def state_json(state: CambioState) -> dict[str, Any]:
    """The state's own fields as JSON (``State.to_json`` adds the header)."""
    return {
        "round_index": state.round_index,
        "dealer": state.dealer,
        "phase": state.phase,
        "turn": state.turn,
        "hands": [
            [[label, *slot.to_json()] for label, slot in hand.items()] for hand in state.hands
        ],
        "next_label": list(state.next_label),
        "stock": cards_json(state.stock),
        "discard": cards_json(state.discard),
        "drawn": state.drawn.text if state.drawn is not None else None,
        "looked": sorted(state.looked),
        "draws": state.draws,
        "caller": state.caller,
        "window": state.window,
        "snapped": sorted(state.snapped),
        "power": state.power,
        "king": list(state.king) if state.king else None,
        "gap": list(state.gap) if state.gap else None,
        "giver": state.giver,
        "reshuffles": state.reshuffles,
        "recent": [[list(entry) for entry in entries] for entries in state.recent],
        **state.totals_json(),
    }


def read_fields(state: CambioState, data: Mapping[str, Any]) -> None:
    """Fill a state made from the saved header with ``state_json``'s fields; SavedStateError
    when they do not fit."""
    state.round_index = int(data["round_index"])
    state.dealer = int(data["dealer"])
    state.phase = str(data["phase"])
    state.turn = int(data["turn"])
    hands: list[Hand] = []
    for hand in data["hands"]:
        slots: Hand = {}
        for label, card, known, public in hand:
            label_index(label)
            (parsed,) = cards_from_json([card])
            slots[str(label)] = Slot(parsed, {int(s) for s in known}, bool(public))
        hands.append(slots)
    if len(hands) != state.players:
        raise SavedStateError("saved cambio state has the wrong number of hands")
    state.hands = hands
    state.next_label = [int(n) for n in data["next_label"]]
    state.stock = cards_from_json(data["stock"])
    state.discard = cards_from_json(data["discard"])
    state.drawn = cards_from_json([data["drawn"]])[0] if data["drawn"] else None
    state.looked = {int(s) for s in data["looked"]}
    state.draws = int(data["draws"])
    state.caller = None if data["caller"] is None else int(data["caller"])
    state.window = bool(data["window"])
    state.snapped = {int(s) for s in data["snapped"]}
    state.power = data["power"]
    king = data["king"]
    state.king = (str(king[0]), int(king[1]), str(king[2])) if king else None
    gap = data["gap"]
    state.gap = (int(gap[0]), str(gap[1])) if gap else None
    state.giver = None if data["giver"] is None else int(data["giver"])
    state.reshuffles = int(data["reshuffles"])
    state.recent = [
        [(int(owner), str(label), str(card)) for owner, label, card in entries]
        for entries in data["recent"]
    ]
    state.read_totals(data)
