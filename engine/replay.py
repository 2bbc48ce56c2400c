"""A finished game's record played back one step at a time, every card face up.

A replay record is what ``python -m engine replay`` reads (``{"game", "players", "seed",
"options", "deck", "actions"}``). ``Replay.of(record)`` applies its actions one by one and
keeps, for every step, the position after it, the game's own event texts, whose move it was,
the scores so far and which hand (or round) it belongs to. Step 0 is the deal, before any move.

A replay shows everything: ``open_layout`` draws a position with the public layout and, below
it, every card some seat could not see (the hands, cards set aside), face up. It is meant for
games that are over, where nothing is hidden any more; the bot never offers one of a running
game.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import runner
from engine.ai import agent
from engine.core import Event, Game, State
from engine.errors import ActionParseError, DeckError, IllegalActionError, SetupError
from engine.layout import Group, Layout, Row, Shown, fill_seats
from engine.registry import get_game
from engine.words import _, and_list


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay: the move ``seat`` made (``action``, its text; None at the deal),
    what the game said about it (``events``, every one: the game is over), the position after
    it and the scores then; ``hand`` counts the hands (or rounds) from 1, the one the move was
    made in."""

    index: int
    seat: int | None
    action: str | None
    events: tuple[Event, ...]
    state: State
    hand: int

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's running total after this step."""
        return self.state.scores()

    def words(self, names: Sequence[str]) -> list[str]:
        """The step in words, one line per event, seats named; an event only some seats saw
        (written to them as "you") says whose it was: ``(Ann only) You drew Q♠``."""
        lines = []
        for event in self.events:
            text = event.render(names)
            if event.visible_to is not None:
                seats = and_list(
                    [fill_seats(f"{{s{seat}}}", names) for seat in sorted(event.visible_to)]
                )
                text = _("({seats} only) {line}").format(seats=seats, line=text)
            lines.append(text)
        return lines


class Replay:
    """Every step of a recorded game (see the module docstring)."""

    def __init__(self, game: Game, steps: Sequence[ReplayStep]) -> None:
        self.game = game
        self.steps = tuple(steps)

    @classmethod
    def of(cls, record: object) -> Replay:
        """The replay of a record; raises SetupError for a record that cannot be read or whose
        actions do not replay (a record from rules that have changed since)."""
        state, actions = start(record)
        opening = tuple(state.opening_events())
        steps = [ReplayStep(0, None, None, opening, copy.deepcopy(state), 1)]
        hand = max(1, sum(event.kind == "deal" for event in opening))
        for index, (seat, text) in enumerate(actions, start=1):
            try:
                events = state.apply_text(seat, text)
            except (ActionParseError, IllegalActionError, DeckError) as error:
                raise SetupError(
                    _("move {index} ({text} by seat {seat}): {error}").format(
                        index=index, text=repr(text), seat=seat, error=error
                    )
                ) from None
            steps.append(ReplayStep(index, seat, text, tuple(events), copy.deepcopy(state), hand))
            hand += sum(event.kind == "deal" for event in events)
        return cls(state.game, steps)

    @property
    def players(self) -> int:
        """How many seats the game had."""
        return self.steps[0].state.players

    @property
    def final(self) -> State:
        """The position after the last move."""
        return self.steps[-1].state

    def hand_starts(self) -> list[int]:
        """The index of each hand's (or round's) first step, hand 1 first."""
        starts: dict[int, int] = {}
        for step in self.steps:
            starts.setdefault(step.hand, step.index)
        return list(starts.values())

    def moves_of(self, seat: int) -> Iterator[ReplayStep]:
        """The steps that were ``seat``'s moves, in order."""
        return (step for step in self.steps if step.seat == seat)


def played_record(
    game_id: str, players: int, seed: int, level: str = "normal", deck: object = None
) -> dict[str, Any]:
    """The record of a whole game played by ``level`` at every seat (tests, benchmarks)."""
    game = get_game(game_id)
    state = game.new_state(players, seed, None, deck)
    agents = [agent(game, level)] * players
    rngs = [random.Random(f"{seed}/agent/{seat}") for seat in range(players)]
    order_rng = random.Random(f"{seed}/order")
    actions = []
    while not state.is_over:
        seat, action = runner.step(state, agents, rngs, order_rng)
        actions.append([seat, action.text])
    record = {"game": game_id, "players": players, "seed": seed, "options": {}}
    return {**record, "deck": deck, "actions": actions} if deck else {**record, "actions": actions}


def start(record: object) -> tuple[State, list[tuple[int, str]]]:
    """The starting state and the checked ``(seat, text)`` moves of a record; raises
    SetupError for a bad record."""
    if not isinstance(record, dict):
        raise SetupError(_("the record must be a JSON object"))
    unknown = set(record) - {"game", "players", "seed", "options", "deck", "actions"}
    if unknown:
        fields = ", ".join(sorted(unknown))
        raise SetupError(_("unknown field(s) in the record: {fields}").format(fields=fields))
    if not isinstance(record.get("game"), str):
        raise SetupError(_("the record has no game id"))
    game = get_game(record["game"])
    players, seed = record.get("players"), record.get("seed", 0)
    if not isinstance(players, int) or isinstance(players, bool):
        raise SetupError(_("the record needs a whole number of players"))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(_("the seed must be a whole number"))
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise SetupError(_("options must be a JSON object"))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise SetupError(_("actions must be a list of [seat, text]"))
    for index, entry in enumerate(actions):
        if not (
            isinstance(entry, (list, tuple))
            and len(entry) == 2
            and isinstance(entry[0], int)
            and not isinstance(entry[0], bool)
            and isinstance(entry[1], str)
        ):
            raise SetupError(
                _("action {index} is not [seat, text]: {entry}").format(
                    index=index, entry=repr(entry)
                )
            )
    moves = [(seat, text) for seat, text in actions]
    return game.new_state(players, seed, options, record.get("deck")), moves


_SEAT_ZONE = re.compile(r"^(?P<what>.+) s(?P<seat>\d+)$")
_SEAT_PLACE = re.compile(r"^s(?P<seat>\d+)\.(?P<place>\w+)$")


def open_layout(state: State) -> Layout:
    """The public picture of ``state`` with a last row of every card hidden from some seat,
    face up: each seat's hand (or positions), what a seat drew, cards set aside. The stock
    (seen by nobody and nobody's) stays a face-down stack, as in the public picture."""
    groups: dict[str, list[Shown]] = {}
    for zone in state.zones():
        if zone.seen_by is None or not zone.cards:
            continue
        owned = _SEAT_ZONE.match(zone.name)
        place = _SEAT_PLACE.match(zone.name)
        if owned:
            seat = f"{{s{owned['seat']}}}"
            label, caption = _("{seat}'s {zone}").format(seat=seat, zone=owned["what"]), ""
        elif place:
            seat = f"{{s{place['seat']}}}"
            label = _("{seat}'s cards").format(seat=seat)
            caption = _("card {place}").format(place=place["place"])
        elif zone.seen_by:  # a card only some seats have seen (a drawn card)
            label, caption = zone.name.capitalize(), ""
        else:
            continue
        groups.setdefault(label, []).extend(Shown(card, caption) for card in zone.cards)
    opened = Row(tuple(Group(label, tuple(cards)) for label, cards in groups.items()))
    table = state.game.layout(state.public_view())
    return Layout((*table.rows, opened) if opened.groups else table.rows)
