"""States scored by running totals per seat (``TotalsState``), won by the best total."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mypy_extensions import mypyc_attr

from engine.core.events import Arg, Event, Phrase, listing, seat_words
from engine.core.game import State
from engine.core.options import DeckPlan, OptionValue
from engine.words import N_


# mypyc calls __init__ when the class is called only for a class open to interpreted
# subclasses, as a serializable state needs (so each game's state class is, too)
@mypyc_attr(allow_interpreted_subclasses=True)
class TotalsState(State):
    """A state scored by running totals per seat, won by the best total(s) once it is over
    (the highest, or the lowest when ``game.lowest_wins``; equal best totals share the win)."""

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.totals = [0] * players
        self.history: list[list[int]] = []  # each seat's points of every hand, round or deal
        self.over = False

    def scores_event(self, title: Arg, parts: Iterable[Arg]) -> Event:
        """The ``hand_end`` event of a hand's or round's points (each seat's ``parts``, with the
        running totals after them), as ``score_lines`` lays it out.

        >>> from engine.registry import games
        >>> state = games()["stuck"].new_state(2, seed=1)
        >>> state.totals = [3, 5]
        >>> state.scores_event("Round 1", ["{s0} 3", "{s1} 5"]).text
        'Round 1 scores: {s0} 3; {s1} 5 · totals: {s0} 3, {s1} 5'
        """
        totals = [
            Phrase(N_("{player} {points}"), (("player", seat_words(seat)), ("points", str(total))))
            for seat, total in enumerate(self.totals)
        ]
        return Event(
            N_("{title} scores: {scores} · totals: {totals}"),
            "hand_end",
            args=(
                ("title", title),
                ("scores", listing("; ", parts)),
                ("totals", listing(", ", totals)),
            ),
        )

    def totals_json(self) -> dict[str, Any]:
        """The running totals, the points history and whether it is over, for ``_to_json``."""
        return {
            "totals": list(self.totals),
            "history": [list(points) for points in self.history],
            "over": self.over,
        }

    def read_totals(self, data: Mapping[str, Any]) -> None:
        """Read back what ``totals_json`` wrote."""
        self.totals = [int(total) for total in data["totals"]]
        self.history = [[int(points) for points in scored] for scored in data["history"]]
        self.over = bool(data["over"])

    @property
    def is_over(self) -> bool:
        return self.over

    def scores(self) -> tuple[int, ...]:
        return tuple(self.totals)

    def winners(self) -> tuple[int, ...]:
        if not self.over:
            return ()
        best = min(self.totals) if self.game.lowest_wins else max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)
