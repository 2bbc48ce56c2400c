"""The game type of cambio (docs/rules/cambio.md §1): its options, its moves' text, and the
words it shows (``words``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Action, CardSet, Game, Option, OptionValue, State, View
from engine.games.cambio import moves, saves, words
from engine.games.cambio.moves import CAMBIO, Look
from engine.games.cambio.state import CambioState
from engine.games.cambio.table import MAX_PLAYERS
from engine.layout import Layout
from engine.words import N_, _


class CambioGame(Game):
    """The game type of cambio."""

    state_class = CambioState

    lowest_wins = True

    id = "cambio"
    name = N_("Cambio")
    player_counts = tuple(range(2, MAX_PLAYERS + 1))
    options = (
        Option(
            "snap_seconds",
            5,
            N_("time to snap before the next player may draw"),
            minimum=0,
            maximum=60,
            label=N_("Snap window"),
            unit=N_("second"),
        ),
        Option(
            "rounds",
            None,
            N_("rounds to play"),
            minimum=1,
            maximum=50,
            optional=True,
            unset=N_("one per player"),
            label=N_("Rounds"),
        ),
        Option(
            "limit",
            None,
            N_("play until someone reaches this total, instead of a number of rounds"),
            minimum=1,
            maximum=1000,
            optional=True,
            label=N_("Score limit"),
            unit=N_("point"),
        ),
        Option(
            "memory_aid",
            False,
            N_("show each player the cards they have seen"),
            kind=bool,
            label=N_("Memory aid"),
        ),
    )
    pitch = N_(
        "Remember your face-down cards, peek and swap with powers, snap "
        "matches; the lowest total wins."
    )

    def parse_action(self, text: str) -> Action:
        return moves.parse_action(text)

    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        state = CambioState.from_saved_header(data)
        saves.read_fields(state, data)
        return state

    def out_of_turn_seconds(self, options: Mapping[str, OptionValue]) -> float | None:
        """The snap window (§8.2) is the ``snap_seconds`` option."""
        seconds = options.get("snap_seconds")
        return float(seconds) if isinstance(seconds, int) else None

    def card_set(self, action: Action) -> CardSet | None:
        """The opening look (§4.3) is two of one's positions, chosen together."""
        if isinstance(action, Look):
            positions = (action.first, action.second)
            return CardSet(1, positions, positions)
        return None

    def confirmation(self, action: Action) -> str | None:
        """Calling Cambio ends the round for everyone (§7): asked once more, never by mistake."""
        return _(words.CALL_CAMBIO_CONFIRM) if action == CAMBIO else None

    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        return words.step_label(chosen, step, names)

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        return words.step_prompt(chosen, offered, names)

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        return words.pick_prompt(chosen, sizes, names)

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        return words.action_label(action, names)

    def describe(self, view: View) -> list[str]:
        return words.describe(view)

    def summary(self, view: View) -> list[str]:
        return words.summary(view)

    def layout(self, view: View) -> Layout:
        return words.layout(view)


GAME = CambioGame()
CambioState.game = GAME
