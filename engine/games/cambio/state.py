"""A cambio game at a decision: the table it holds, and the engine's questions (who acts,
what they may do, what a move does, what each seat sees) answered by the rules' functions
(``rules``, ``snaps``, ``knowledge``, ``saves``; docs/rules/cambio.md)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from engine.cards import Card
from engine.core import Action, DeckPlan, Event, OptionValue, TotalsState, View, Zone, make_rng
from engine.games.cambio import knowledge, rules, saves, snaps, words
from engine.games.cambio.moves import Give, Look, Snap
from engine.games.cambio.table import DRAWN, GIVE, LOOK, TURN, Hand, may_call, new_label

if TYPE_CHECKING:
    from engine.games.cambio.game import CambioGame


# compiled (setup.py): mypyc calls __init__ when the class is called only for a class open to
# interpreted subclasses, as a serializable State (copied without __init__) needs
@mypyc_attr(allow_interpreted_subclasses=True)
class CambioState(TotalsState):
    """A cambio game at a decision. Phases (``table``): ``look`` (the opening look), ``turn``
    (the turn's player draws or calls; a snap window may be open), ``drawn`` (replace or
    discard), ``power`` (use the discarded card's power or skip), ``decide`` (black king: swap
    or keep), ``give`` (the snapper's give-back), ``over``."""

    game: ClassVar[CambioGame]

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        super().__init__(players, seed, options, deck_plan)
        self.round_index = 0
        self.dealer = 0 if deck_plan.is_stacked else make_rng(seed, "dealer").randrange(players)
        self.phase = LOOK
        self.turn = 0
        self.hands: list[Hand] = [{} for _seat in range(players)]
        self.next_label = [0] * players
        self.stock: list[Card] = []  # top first
        self.discard: list[Card] = []  # top last
        self.drawn: Card | None = None
        self.looked: set[int] = set()  # seats that made the opening look this round
        self.draws = 0  # draws made this round (Cambio may be called once n were made)
        self.caller: int | None = None
        self.window = False  # a snap window is open on the discard's top card
        self.snapped: set[int] = set()  # seats that tried a snap in the open window
        self.power: str | None = None
        self.king: tuple[str, int, str] | None = None  # the black king's two looked positions
        self.gap: tuple[int, str] | None = None  # where the snapper gives a card to
        self.giver: int | None = None
        self.reshuffles = 0
        # what each seat looked at in its last action: (owner, label, card text)
        self.recent: list[list[tuple[int, str, str]]] = [[] for _seat in range(players)]

    def start(self) -> list[Event]:
        return rules.start_round(self)

    def start_round(self) -> list[Event]:
        """Deal a round (§4)."""
        return rules.start_round(self)

    def new_label(self, seat: int) -> str:
        """The next position label ``seat`` has not used this round (§3.2)."""
        return new_label(self, seat)

    def may_call(self) -> bool:
        """Whether Cambio may be called now (§7.1)."""
        return may_call(self)

    def round_points(self) -> list[int]:
        """Each player's card points now (§11.1)."""
        return rules.round_points(self)

    def faces(self) -> list[dict[str, str]]:
        """Every position's card, by seat (what a reveal shows)."""
        return [{label: slot.card.text for label, slot in hand.items()} for hand in self.hands]

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
