"""Offering legal actions in steps: group them by ``action.path``, one step at a time.

A node is named by the indices chosen so far (``(2, 0)``: the third option of the first step,
then the first of the second). Options keep the order of their first appearance in the legal
list, so the same legal list always gives the same indices: a custom_id holding the table's
revision and these indices names one action for good.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import Action

HERE = -1
"""Index meaning "the action whose path ends at this node" (when other paths go on from it)."""


class StaleChoice(Exception):
    """The indices do not name a node of this legal list (an old or forged custom_id)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a step: the path element, and the single action it leads to, if only one."""

    index: int
    step: str
    only: Action | None
    rest: tuple[str, ...]  # the remaining steps of ``only`` after this one


@dataclass(frozen=True, slots=True)
class Node:
    """A step: what was chosen so far and what may be chosen next."""

    prefix: tuple[int, ...]
    chosen: tuple[str, ...]
    options: tuple[Option, ...]


def _candidates(
    legal: Sequence[Action], prefix: Sequence[int]
) -> tuple[list[Action], list[str], Action | None]:
    candidates = list(legal)
    chosen: list[str] = []
    for depth, index in enumerate(prefix):
        if index == HERE:
            ends = [a for a in candidates if len(a.path) == depth]
            if len(ends) != 1 or depth != len(prefix) - 1:
                raise StaleChoice("no action ends here")
            return ends, chosen, ends[0]
        steps = list(dict.fromkeys(a.path[depth] for a in candidates if len(a.path) > depth))
        if not 0 <= index < len(steps):
            raise StaleChoice("no such option")
        chosen.append(steps[index])
        candidates = [
            a for a in candidates if len(a.path) > depth and a.path[depth] == steps[index]
        ]
    return candidates, chosen, None


def resolve(legal: Sequence[Action], prefix: Sequence[int]) -> Action | Node:
    """The action the indices lead to (when only one is left), or the next step to offer."""
    candidates, chosen, here = _candidates(legal, prefix)
    if here is not None:
        return here
    if len(candidates) == 1 and prefix:
        return candidates[0]
    if not candidates:
        raise StaleChoice("nothing to choose")
    depth = len(prefix)
    options: list[Option] = []
    ends = [a for a in candidates if len(a.path) == depth]
    if ends:
        options.append(Option(HERE, ends[0].text, ends[0], ()))
    groups: dict[str, list[Action]] = {}
    for action in candidates:
        if len(action.path) > depth:
            groups.setdefault(action.path[depth], []).append(action)
    for index, (step, actions) in enumerate(groups.items()):
        only = actions[0] if len(actions) == 1 else None
        rest = tuple(only.path[depth + 1 :]) if only is not None else ()
        options.append(Option(index, step, only, rest))
    return Node(tuple(prefix), tuple(chosen), tuple(options))
