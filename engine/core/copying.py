"""Copies of a state that share its immutable values (``State.__deepcopy__``)."""

from __future__ import annotations

import copy
from typing import Any, cast

from engine.cards import Card
from engine.core.events import Event
from engine.core.options import DeckPlan

NOT_FIELDS = frozenset({"__dict__", "__hash__"})
"""What a compiled state's ``__getstate__`` lists besides its fields: values of its class,
and the ``__dict__`` that holds an interpreted subclass's own fields."""


def state_fields(state: object) -> dict[str, Any]:
    """A state's fields by name. The pure-Python build keeps them in the instance's
    ``__dict__``, which ``__getstate__`` gives; a compiled state (mypyc) keeps those its class
    declares in C slots, which its ``__getstate__`` lists with its ``__dict__``."""
    saved = cast(dict[str, Any], state.__getstate__())
    if "__dict__" not in saved:
        return saved
    fields = {name: value for name, value in saved.items() if name not in NOT_FIELDS}
    fields.update(saved["__dict__"])
    return fields


SHARED_TYPES = frozenset({int, str, bool, float, type(None), frozenset, Card, Event, DeckPlan})
"""The immutable values a copy of a state shares (its frozensets hold seats; a DeckPlan is
never changed once made)."""


def copied(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of a part of a state: lists, dicts, sets and tuples are copied down to the
    immutable values they hold, which are shared; any other object by ``copy.deepcopy`` (give
    a mutable class of a state ``__deepcopy__`` to keep this quick)."""
    kind = type(value)
    if kind in SHARED_TYPES:
        return value
    if kind is list:
        if SHARED_TYPES.issuperset(map(type, value)):  # checked in C: most lists hold cards
            return value.copy()
        return [copied(item, memo) for item in value]
    if kind is dict:
        if SHARED_TYPES.issuperset(map(type, value.values())):
            return value.copy()
        return {key: copied(item, memo) for key, item in value.items()}
    if kind is set:
        return value.copy()  # of seats or ranks
    if kind is tuple:
        if SHARED_TYPES.issuperset(map(type, value)):
            return value
        return tuple(copied(item, memo) for item in value)
    return copy.deepcopy(value, memo)
