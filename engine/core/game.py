"""A game type and its positions: ``Game`` (id, options, words for people, the factory of
its states) and ``State`` (who acts, their legal actions, applying them, the views, the
scores, saving, and the worlds a searching AI may imagine). One module, as each names the
other: a game makes its states, a state asks its game.

A State is always at a decision: dealing, revealing and scoring happen inside ``apply``. It
answers who may act, each seat's legal actions, the views, the scores and the result, and it
serialises to JSON exactly. Hidden information leaves a state only through its views.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Self

from mypy_extensions import mypyc_attr

from engine.cards import Card
from engine.core.actions import Action, CardSet, Choose, View, was_listed
from engine.core.copying import copied, state_fields
from engine.core.events import Event
from engine.core.options import DeckPlan, Option, OptionValue
from engine.errors import IllegalActionError, SavedStateError, SetupError
from engine.layout import Layout
from engine.words import _


class Zone(NamedTuple):
    """A place cards are in, and who sees them there (None: everyone). For invariant checks."""

    name: str
    cards: tuple[Card, ...]
    seen_by: frozenset[int] | None


@dataclass(frozen=True, slots=True)
class Result:
    """The final (or running) scores and the winning seats (empty until the game is over)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


PITCH_LIMIT = 100


# twentytwo's game and state stay Python (setup.py)
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A game type: its id, name, player counts and options, and the factory of its states."""

    id: ClassVar[str]
    name: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    pitch: ClassVar[str]
    """The game in one line for newcomers (the slash menu, /help, the terminal): at most
    PITCH_LIMIT characters, Discord's limit on a command's description."""
    lowest_wins: ClassVar[bool] = False  # scores are penalties: the lowest total wins
    full_deck_hands: ClassVar[int | None] = None
    """How many hands are dealt from the whole deck (None: all; later hands may hold fewer)."""

    def new_state(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deck: object = None,
    ) -> State:
        """A new game at its first decision; raises SetupError for a bad count, option or deck."""
        self.check_players(players)
        resolved = self.resolve_options(options)
        plan = DeckPlan.normalise(seed, deck)
        plan.check(self.full_deck_hands)
        return self._new_state(players, seed, resolved, plan)

    def check_players(self, players: int) -> None:
        """Raise SetupError unless the game can be played by ``players``."""
        if players not in self.player_counts:
            raise SetupError(self.player_count_message(players))

    def player_count_text(self) -> str:
        """How many may play, in words: ``2 to 6``, ``2, 3 or 5``, ``2``."""
        counts = self.player_counts
        if len(counts) == 1:
            return str(counts[0])
        if counts == tuple(range(counts[0], counts[-1] + 1)):
            return _("{lowest} to {highest}").format(lowest=counts[0], highest=counts[-1])
        return _("{counts} or {last}").format(
            counts=", ".join(map(str, counts[:-1])), last=counts[-1]
        )

    def player_count_message(self, players: int) -> str:
        """Why ``players`` cannot play this game."""
        if len(self.player_counts) == 1:
            message = _("{game} is for exactly {allowed} players, not {players}")
        else:
            message = _("{game} is for {allowed} players, not {players}")
        return message.format(game=_(self.name), allowed=self.player_count_text(), players=players)

    def option(self, name: str) -> Option:
        """The option called ``name``."""
        return next(option for option in self.options if option.name == name)

    def resolve_options(self, options: Mapping[str, object] | None) -> dict[str, OptionValue]:
        """All options with defaults filled in; raises SetupError for an unknown or bad one."""
        known = {option.name: option for option in self.options}
        resolved: dict[str, OptionValue] = {name: option.default for name, option in known.items()}
        for name, value in (options or {}).items():
            if name not in known:
                if known:
                    message = _("{game} has no option {name} (its options: {names})")
                else:
                    message = _("{game} has no option {name} (it has none)")
                raise SetupError(
                    message.format(game=self.id, name=repr(name), names=", ".join(known))
                )
            resolved[name] = known[name].coerce(value)
        return resolved

    state_class: ClassVar[type[State]]

    def _new_state(
        self, players: int, seed: int, options: dict[str, OptionValue], deck: DeckPlan
    ) -> State:
        """Make the state, already dealt and at its first decision."""
        state = self.state_class(players, seed, options, deck)
        state.first_events = state.start()
        return state

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written as ``text``; raises ActionParseError (never IllegalActionError)."""

    @abstractmethod
    def _state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from ``State.to_json`` output (schema already checked)."""

    schema: ClassVar[int] = 1

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a saved state; raises SavedStateError for anything malformed."""
        if not isinstance(data, Mapping) or data.get("game") != self.id:
            raise SavedStateError(f"this saved state is not a {self.id} game")
        if data.get("schema") != self.schema:
            raise SavedStateError(
                f"saved {self.id} state has schema {data.get('schema')!r}, expected {self.schema}"
            )
        try:
            return self._state_from_json(data)
        except SavedStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise SavedStateError(f"saved {self.id} state is malformed: {error!r}") from None

    def out_of_turn_seconds(self, options: Mapping[str, OptionValue]) -> float | None:
        """How long out-of-turn actions (snaps) stay open before the waited-for seat may act,
        when the game's options decide it; None lets the host choose (the bot's setting)."""
        return None

    @abstractmethod
    def describe(self, view: View) -> list[str]:
        """Lines of text showing a view to a person (cards with suit symbols)."""

    @abstractmethod
    def layout(self, view: View) -> Layout:
        """What a picture of ``view`` shows (see engine.layout), made from the view alone."""

    def summary(self, view: View) -> list[str]:
        """What to say beside a picture of ``view``: the lines of ``describe`` the picture does
        not show (the hand or round, the dealer, the scores …), never whose turn it is, which
        the bot says in a line of its own. A game that leaves it out gets all of ``describe``."""
        return self.describe(view)

    # Wording hooks for engine/choices.py; None leaves a step to the generic words there.
    def step_label(self, chosen: tuple[str, ...], step: str, names: Sequence[str]) -> str | None:
        """This game's words for the path element ``step`` chosen after ``chosen``."""
        return None

    def step_prompt(
        self, chosen: tuple[str, ...], offered: tuple[str, ...], names: Sequence[str]
    ) -> str | None:
        """The question the step after ``chosen`` asks, in this game's words (``offered``: the
        path elements it offers, which tell a turn's phases apart)."""
        return None

    def action_label(self, action: Action, names: Sequence[str]) -> str | None:
        """This game's words for a whole action (``Play 7♣ to the table``)."""
        return None

    def leads_label(
        self, chosen: tuple[str, ...], step: str, actions: Sequence[Action], names: Sequence[str]
    ) -> str | None:
        """This game's words for the choice ``step`` (after ``chosen``) that leads on to several
        ``actions``: what choosing it does next (``Capture with K♠``)."""
        return None

    def card_set(self, action: Action) -> CardSet | None:
        """When ``action`` may be chosen as a set of cards (or positions) in one step, which:
        ``engine.choices.pick_at`` offers the step as one choice of several members."""
        return None

    def pick_prompt(
        self, chosen: tuple[str, ...], sizes: tuple[int, ...], names: Sequence[str]
    ) -> str | None:
        """What choosing a set after ``chosen`` does, in this game's words (``sizes``: the
        legal counts): ``Look at two of your cards``."""
        return None

    def confirmation(self, action: Action) -> str | None:
        """The question to confirm ``action`` with before it is made (a move that changes
        the game for everyone and cannot be taken back), or None: offered as a step of its
        own (``engine.choices.resolve``)."""
        return None

    def only_move_reason(self, view: View, action: Action) -> str | None:
        """Why ``action`` is the only legal move of the seat seeing ``view``, as a sentence
        ("You can't beat K♠, so you must play your lowest card.")."""
        return None


# serializable: a compiled state can be made without __init__ and lists its fields in
# __getstate__ (see __deepcopy__); twentytwo's state stays Python (setup.py)
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class State(ABC):
    """One position of a game. Subclasses implement the underscored hooks."""

    game: ClassVar[Game]
    players: int
    seed: int
    options: dict[str, OptionValue]
    deck_plan: DeckPlan

    def __init__(
        self, players: int, seed: int, options: dict[str, OptionValue], deck_plan: DeckPlan
    ) -> None:
        self.players = players
        self.seed = seed
        self.options = options
        self.deck_plan = deck_plan
        self._legal_cache: dict[int, Sequence[Action]] = {}
        self._acting: tuple[int, ...] | None = None  # to_act's answer for this position
        self.first_events: list[Event] = []  # not saved: shown only when the game starts
        # The public view as the last hand or round was scored, in a game that turns hidden
        # cards up then (cambio): what everyone was shown before the next deal replaced it.
        # Set with each such scoring; not saved (whoever shows it keeps it).
        self.last_reveal: View | None = None

    @classmethod
    def from_saved_header(cls, data: Mapping[str, Any]) -> Self:
        """A state with the saved players, seed, options and deck, for a game's
        ``_state_from_json`` to fill in its own fields."""
        seed = int(data["seed"])
        return cls(
            int(data["players"]),
            seed,
            cls.game.resolve_options(data["options"]),
            DeckPlan.normalise(seed, data["deck"] or None),
        )

    @abstractmethod
    def start(self) -> list[Event]:
        """Deal the first hand (or draw for the dealer first), called once by ``new_state``;
        returns what happened, as ``opening_events`` shows it."""

    # -- who acts and what they may do ---------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (several when out-of-turn actions are open); () when over.

        Worked out once per position, like the legal actions: a step asks it several times.
        """
        acting = self._acting
        if acting is None:
            acting = self._acting = self._to_act()
        return acting

    @abstractmethod
    def _to_act(self) -> tuple[int, ...]:
        """The seats that may act now (``to_act`` caches it until the next action)."""

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits for; other seats in ``to_act`` have optional actions only."""
        return self.to_act()

    def opening_events(self) -> list[Event]:
        """What happened while the game was set up (a draw for the first dealer, the first
        deal's opening line), for the table log when the game starts; ``new_state`` itself
        returns no events."""
        return list(self.first_events)

    def timeout_action(self, seat: int) -> Action | None:
        """The action a game's rules name for a seat whose time ran out (None: the AI decides)."""
        return None

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The seat's legal actions in a fixed order; empty for a seat that may not act. A
        tuple, or a sequence that makes its actions when asked (twentytwo's up to 2,048
        exchanges), whose ``in`` asks the rule."""
        cached = self._legal_cache.get(seat)
        if cached is None:
            acting = self._acting  # to_act's cache, read here to save its call
            if acting is None:
                acting = self._acting = self._to_act()
            cached = self._legal_actions(seat) if seat in acting else ()
            self._legal_cache[seat] = cached
        return cached

    @abstractmethod
    def _legal_actions(self, seat: int) -> Sequence[Action]:
        """Legal actions of a seat that may act."""

    def play_sole_turns(
        self, choosers: list[Choose | None], rngs: list[random.Random], limit: int
    ) -> int:
        """Self-play's loop (``runner.play_out``): while one seat alone may act and has a
        chooser (the ``choose`` of an agent that needs no view), list its legal actions, let it
        choose one (never optional) with its generator from ``rngs`` and apply it, at most
        ``limit`` times; returns how many actions were applied.

        Each step is ``to_act``, ``legal_actions``, the chooser and ``apply``, written out in one
        frame: their calls and the listed actions' cache cost 2,600 instructions a step, 7% of
        a fishing or stuck step. As in ``apply``, a choice that is not one of the objects the
        listing holds or handed out (``was_listed``) is checked by ``is_legal``, and ``_apply``
        sees ``to_act``'s answer for its position.
        The game's hooks are called as methods, never held as bound ones: compiled, a method
        call reaches the game's compiled code directly, a bound method through Python's calls;
        and ``choosers`` and ``rngs`` are lists, which compiled code indexes in C.
        """
        cache = self._legal_cache
        applied = 0
        while applied < limit:
            acting = self._acting = self._to_act()
            if len(acting) != 1 or (choose := choosers[seat := acting[0]]) is None:
                break
            legal = self._legal_actions(seat)
            action = choose(None, legal, rngs[seat], False)
            if action is None:
                raise RuntimeError(f"seat {seat} did not move; the game waits for it")
            if not was_listed(legal, action):
                cache[seat] = legal
                self.apply(seat, action)  # checks it, as any action given from outside
                applied += 1
                continue
            self._apply(seat, action)
            self._acting = None
            if cache:  # a listing ``_apply`` asked for (or one made before this loop)
                cache.clear()
            applied += 1
        return applied

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may take ``action`` now."""
        return action in self.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Take ``action`` for ``seat`` and return what happened.

        Raises IllegalActionError, changing nothing, when the action is not legal now.
        """
        # A listed action itself (what agents and buttons give) needs no further check: found
        # by identity (``was_listed``), it saves is_legal's frames, and the Python-level
        # ``__eq__`` of the dataclass actions listed before it, on every self-play step.
        listed = was_listed(self._legal_cache.get(seat, ()), action)
        if not listed and not self.is_legal(seat, action):
            raise IllegalActionError(self.explain_illegal(seat, action))
        events = self._apply(seat, action)
        self._legal_cache.clear()
        self._acting = None
        return events

    def apply_text(self, seat: int, text: str) -> list[Event]:
        """Parse ``text`` and apply it (ActionParseError or IllegalActionError on failure)."""
        return self.apply(seat, self.game.parse_action(text))

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Carry out a legal action, and everything that follows by itself (deals, scoring)."""

    def explain_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` now, in plain language."""
        if self.is_over:
            return _("The game is over.")
        if not 0 <= seat < self.players:
            return _("There is no seat {seat} in this game.").format(seat=seat)
        if seat not in self.to_act():
            return _("It is not your turn.")
        return _("'{move}' is not a legal move now.").format(move=action.text)

    # -- what people see -----------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int) -> View:
        """What ``seat`` sees: the public view plus that seat's private information."""

    @abstractmethod
    def public_view(self) -> View:
        """What everyone (and an onlooker) sees."""

    def agent_view(self, seat: int) -> View:
        """What an agent in ``seat`` is given: the seat's view (games with memory add to it)."""
        return self.view(seat)

    # -- what a seat may believe ------------------------------------------------------------------
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A world ``seat`` cannot tell from this one: a copy in which everything the seat has
        seen stays and the cards hidden from it are dealt again at random among the places
        hidden from it, each keeping its count; later hands shuffle from a new seed.

        Searching AIs look only at such worlds, so they are fair by construction.
        """
        world = copy.deepcopy(self)
        world.seed = rng.getrandbits(48)
        world.deck_plan = DeckPlan(world.seed)
        world._legal_cache = {}
        world._acting = None
        world._redeal_hidden(seat, rng)
        return world

    @abstractmethod
    def _redeal_hidden(self, seat: int, rng: random.Random) -> None:
        """Deal again, in place, the cards hidden from ``seat`` (see ``determinize``)."""

    @abstractmethod
    def zones(self) -> Iterable[Zone]:
        """Every card of the game, each in exactly one zone, with who sees it there."""

    # -- scores and the end ----------------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Running total per seat."""

    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """The winning seats (shared wins list several); empty until the game is over."""

    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` still takes part (a game that puts players out overrides this)."""
        return True

    def result(self) -> Result:
        """Scores and winners."""
        return Result(self.scores(), self.winners())

    # -- saving ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; ``game.state_from_json`` reads it back exactly."""
        return {
            "game": self.game.id,
            "schema": self.game.schema,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "deck": self.deck_plan.to_json(),
            **self._to_json(),
        }

    @abstractmethod
    def _to_json(self) -> dict[str, Any]:
        """The game-specific part of ``to_json``."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy sharing only immutable values (cards, events, the deck plan, the listed
        actions) with this state: ``copy.deepcopy(state)`` without the generic walk, many times
        quicker, as searching AIs copy a state for every world they look at."""
        clone = type(self).__new__(type(self))  # no __init__ (a compiled state too: serializable)
        memo[id(self)] = clone
        for name, value in state_fields(self).items():
            # The listed actions are immutable, and still right for the copy.
            setattr(clone, name, dict(value) if name == "_legal_cache" else copied(value, memo))
        return clone

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


# mypyc_attr: how setup.py's mypyc compiles a class (nothing in the pure build); agents in
# scripts (scripts/arena.py's Timed), which stay Python, subclass it
@mypyc_attr(allow_interpreted_subclasses=True)
class StateAgent(ABC):
    """A player program that thinks about the game itself (a search). It is handed the real
    state but may look at it only through ``State.determinize(seat, …)``: worlds the seat
    cannot tell from the real one, so it stays fair."""

    @abstractmethod
    def choose_in(
        self,
        state: State,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
        optional: bool,
    ) -> Action | None:
        """Pick one of ``legal`` (never empty) for ``seat``; None declines an optional one."""
