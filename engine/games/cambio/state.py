"""A cambio game at a decision: the table (``table.CambioTable``) and the engine's questions
(who acts, what they may do, what a move does, what each seat sees) answered by the rules'
functions (``rules``, ``snaps``, ``knowledge``, ``saves``; docs/rules/cambio.md)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from mypy_extensions import mypyc_attr

from engine.core import Action, Event, View, Zone
from engine.games.cambio import knowledge, rules, saves, snaps, words
from engine.games.cambio.moves import Give, Look, Snap
from engine.games.cambio.table import DRAWN, GIVE, LOOK, TURN, CambioTable


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class CambioState(CambioTable):
    """A cambio game at a decision: its table, and the engine's questions answered by the
    rules."""

    def start(self) -> list[Event]:
        """Deal the first round (§4)."""
        return rules.start_round(self)

    def round_points(self) -> list[int]:
        """Each player's card points now (§11.1)."""
        return rules.round_points(self)

    def _to_act(self) -> tuple[int, ...]:
        if self.over:
            return ()
        phase = self.phase
        if phase == LOOK:  # §4.3: all at the same time
            return tuple([seat for seat in range(self.players) if seat not in self.looked])
        if phase == GIVE:
            assert self.giver is not None
            return (self.giver,)
        if phase == TURN and self.window:
            return snaps.acting_in_window(self)
        return (self.turn,)

    def waiting_for(self) -> tuple[int, ...]:
        if self.phase == TURN:
            return (self.turn,)
        return self.to_act()

    def timeout_action(self, seat: int) -> Action | None:
        """§4.3: a player who does not choose in time looks at C and D; elsewhere the AI
        decides."""
        if self.phase == LOOK and seat in self.to_act():
            return Look("C", "D")
        return None

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        return tuple(rules.moves(self, seat))

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.over or not 0 <= seat < self.players:
            return super().explain_illegal(seat, action)
        return words.why_illegal(self, seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        # §10.2: a seat's "just looked at" cards are shown until its next action.
        self.recent[seat] = []
        phase = self.phase
        if phase == LOOK:
            assert isinstance(action, Look)
            return rules.apply_look(self, seat, action)
        if isinstance(action, Snap):
            return snaps.apply_snap(self, seat, action)
        if phase == TURN:
            return rules.apply_turn(self, seat, action)
        if phase == DRAWN:
            return rules.apply_drawn(self, seat, action)
        if phase == GIVE:
            assert isinstance(action, Give)
            return snaps.apply_give(self, seat, action)
        return rules.apply_power(self, seat, action)

    def public_view(self) -> View:
        return knowledge.public_view(self)

    def view(self, seat: int) -> View:
        return knowledge.seat_view(self, seat, memory=bool(self.options["memory_aid"]))

    def agent_view(self, seat: int) -> View:
        """The seat's full knowledge, as the ``memory_aid`` view shows it: every card it has
        seen and not lost track of (the AI remembers what it saw, like a perfect memory)."""
        return knowledge.seat_view(self, seat, memory=True)

    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        knowledge.redeal_hidden(self, seat, rng)

    def zones(self) -> Iterable[Zone]:
        return knowledge.zones(self)

    def _to_json(self) -> dict[str, Any]:
        return saves.state_json(self)
