"""Cambio's save format: a state to JSON and back, exactly (old saves stay readable)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import cards_from_json, cards_json
from engine.errors import SavedStateError
from engine.games.cambio.table import CambioTable, Hand, Slot, label_index


def state_json(table: CambioTable) -> dict[str, Any]:
    """The state's own fields as JSON (``State.to_json`` adds the header)."""
    return {
        "round_index": table.round_index,
        "dealer": table.dealer,
        "phase": table.phase,
        "turn": table.turn,
        "hands": [
            [[label, *slot.to_json()] for label, slot in hand.items()] for hand in table.hands
        ],
        "next_label": list(table.next_label),
        "stock": cards_json(table.stock),
        "discard": cards_json(table.discard),
        "drawn": table.drawn.text if table.drawn is not None else None,
        "looked": sorted(table.looked),
        "draws": table.draws,
        "caller": table.caller,
        "window": table.window,
        "snapped": sorted(table.snapped),
        "power": table.power,
        "king": list(table.king) if table.king else None,
        "gap": list(table.gap) if table.gap else None,
        "giver": table.giver,
        "reshuffles": table.reshuffles,
        "recent": [[list(entry) for entry in entries] for entries in table.recent],
        **table.totals_json(),
    }


def read_fields(table: CambioTable, data: Mapping[str, Any]) -> None:
    """Fill a state made from the saved header with ``state_json``'s fields; SavedStateError
    when they do not fit."""
    table.round_index = int(data["round_index"])
    table.dealer = int(data["dealer"])
    table.phase = str(data["phase"])
    table.turn = int(data["turn"])
    hands: list[Hand] = []
    for hand in data["hands"]:
        slots: Hand = {}
        for label, card, known, public in hand:
            label_index(label)
            (parsed,) = cards_from_json([card])
            slots[str(label)] = Slot(parsed, {int(s) for s in known}, bool(public))
        hands.append(slots)
    if len(hands) != table.players:
        raise SavedStateError("saved cambio state has the wrong number of hands")
    table.hands = hands
    table.next_label = [int(n) for n in data["next_label"]]
    table.stock = cards_from_json(data["stock"])
    table.discard = cards_from_json(data["discard"])
    table.drawn = cards_from_json([data["drawn"]])[0] if data["drawn"] else None
    table.looked = {int(s) for s in data["looked"]}
    table.draws = int(data["draws"])
    table.caller = None if data["caller"] is None else int(data["caller"])
    table.window = bool(data["window"])
    table.snapped = {int(s) for s in data["snapped"]}
    table.power = data["power"]
    king = data["king"]
    table.king = (str(king[0]), int(king[1]), str(king[2])) if king else None
    gap = data["gap"]
    table.gap = (int(gap[0]), str(gap[1])) if gap else None
    table.giver = None if data["giver"] is None else int(data["giver"])
    table.reshuffles = int(data["reshuffles"])
    table.recent = [
        [(int(owner), str(label), str(card)) for owner, label, card in entries]
        for entries in data["recent"]
    ]
    table.read_totals(data)
