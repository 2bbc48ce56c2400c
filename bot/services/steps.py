"""Offering legal actions in steps: the engine's choice tree (engine/choices.py) under the
names the bot uses (a ``Node`` is a step, an ``Option`` one of its choices)."""

from __future__ import annotations

from engine.choices import HERE, StaleChoice, resolve
from engine.choices import Step as Node
from engine.choices import StepChoice as Option

__all__ = ["HERE", "Node", "Option", "StaleChoice", "resolve"]
