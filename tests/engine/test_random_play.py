"""One random-play test over every registered game and player count (open_spiel style).

At every step it checks: only seats that may act have legal actions; action texts parse back;
an illegal action raises and changes nothing; every card is in exactly one place; no view,
event or description shows a seat a card it has not seen; JSON round trips are exact. At the
end, replaying seed + action texts gives the same state, and the game ended within a bound.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine.ai import agent
from engine.cards import FULL_DECK, PRETTY_CARD, Card, is_card_text
from engine.core import Action, Game, State
from engine.errors import IllegalActionError
from engine.registry import games
from engine.runner import agent_move

SEEDS_PER_COUNT = 6
MAX_STEPS = 20_000

CASES = [(game_id, players) for game_id, game in games().items() for players in game.player_counts]


def cards_in(value: Any) -> Iterator[Card]:
    """Every card named anywhere in JSON-like data, in machine or people form."""
    if isinstance(value, str):
        for word in value.split():
            base = word.split("=")[0].strip(",.;:()[]")
            # Machine-form cards are upper case; "as" in a sentence is not the ace of spades.
            if base.isupper() and is_card_text(base):
                yield Card.parse(base)
        for match in PRETTY_CARD.finditer(value):
            yield Card.parse(
                match.group()
                .replace("♣", "C")
                .replace("♦", "D")
                .replace("♥", "H")
                .replace("♠", "S")
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from cards_in(item)


class Watcher:
    """Follows one game and checks the invariants at every step."""

    def __init__(self, game: Game, state: State) -> None:
        self.game, self.state = game, state
        self.seen: list[set[Card]] = [set() for _ in range(state.players)]
        self.public_seen: set[Card] = set()
        self.update_seen()

    def update_seen(self) -> None:
        for zone in self.state.zones():
            if zone.seen_by is None:
                self.public_seen.update(zone.cards)
                for seen in self.seen:
                    seen.update(zone.cards)
            else:
                for seat in zone.seen_by:
                    self.seen[seat].update(zone.cards)

    def check_cards_conserved(self) -> None:
        counts = Counter(card for zone in self.state.zones() for card in zone.cards)
        repeated = [card for card, count in counts.items() if count > 1]
        assert not repeated, f"cards in two places: {repeated}"
        assert set(counts) == set(FULL_DECK), "cards missing: " + str(set(FULL_DECK) - set(counts))

    def check_views(self) -> None:
        state = self.state
        for seat in range(state.players):
            for shown in (state.view(seat), state.agent_view(seat)):
                leaked = set(cards_in(shown)) - self.seen[seat]
                assert not leaked, f"seat {seat} is shown unseen cards {leaked}"
            view = state.view(seat)
            described = self.game.describe(view) + self.game.summary(view)
            leaked = set(cards_in(described)) - self.seen[seat]
            assert not leaked, f"the description for seat {seat} shows unseen {leaked}"
        public = state.public_view()
        leaked = set(cards_in([public, self.game.summary(public)])) - self.public_seen
        assert not leaked, f"the public view shows unseen cards {leaked}"

    def check_events(self, events: list[Any]) -> None:
        # Events before a new deal speak of the hand that just ended, whose places are gone:
        # only the events from the last deal on can be checked against the zones now.
        starts = [index for index, event in enumerate(events) if event.kind == "deal"]
        for event in events[starts[-1] if starts else 0 :]:
            for seat in range(self.state.players):
                if event.visible(seat):
                    leaked = set(cards_in(event.text)) - self.seen[seat]
                    assert not leaked, f"event {event.text!r} shows seat {seat} unseen {leaked}"
            if event.visible_to is None:
                leaked = set(cards_in(event.text)) - self.public_seen
                assert not leaked, f"public event {event.text!r} shows unseen {leaked}"

    def check_decision(self) -> None:
        state = self.state
        to_act = state.to_act()
        waiting = state.waiting_for()
        if state.is_over:
            assert to_act == () and state.winners(), "a finished game has winners, no movers"
            return
        assert waiting and set(waiting) <= set(to_act), (to_act, waiting)
        assert not state.winners()
        for seat in range(state.players):
            legal = state.legal_actions(seat)
            if seat not in to_act:
                assert legal == (), f"seat {seat} may not act but has actions"
                continue
            assert legal, f"seat {seat} may act but has no legal action"
            texts = [action.text for action in legal]
            assert len(set(texts)) == len(texts), f"repeated action texts: {texts}"
            for action in legal:
                assert self.game.parse_action(action.text) == action, action.text
                assert action.path, action.text
                assert len(action.text) <= 80, action.text

    def check_illegal_changes_nothing(self, stale: Action | None, rng: random.Random) -> None:
        state = self.state
        before = state.to_json()
        others = [seat for seat in range(state.players) if seat not in state.to_act()]
        movers = state.to_act()
        attempts: list[tuple[int, Action]] = []
        if others and movers:
            attempts.append((rng.choice(others), state.legal_actions(movers[0])[0]))
        if stale is not None:
            for seat in movers:
                if stale not in state.legal_actions(seat):
                    attempts.append((seat, stale))
                    break
        for seat, action in attempts:
            with pytest.raises(IllegalActionError):
                state.apply(seat, action)
            assert state.to_json() == before, "an illegal action changed the state"

    def check_round_trip(self) -> None:
        data = json.loads(json.dumps(self.state.to_json()))
        restored = self.game.state_from_json(data)
        assert restored.to_json() == self.state.to_json()
        for seat in self.state.to_act():
            assert restored.legal_actions(seat) == self.state.legal_actions(seat)


def play_checked(game: Game, players: int, seed: int, agent_kind: str) -> None:
    state = game.new_state(players, seed)
    watcher = Watcher(game, state)
    agents = [agent(game, agent_kind) for _ in range(players)]
    rng = random.Random(seed)
    history: list[tuple[int, str]] = []
    stale: Action | None = None
    for step in range(MAX_STEPS):
        watcher.check_cards_conserved()
        watcher.check_views()
        watcher.check_decision()
        if state.is_over:
            break
        watcher.check_illegal_changes_nothing(stale, rng)
        if step % 7 == 0:
            watcher.check_round_trip()
        seats = list(state.to_act())
        rng.shuffle(seats)
        seats.sort(key=lambda seat: seat in state.waiting_for())
        for seat in seats:
            action = agent_move(state, seat, agents[seat], rng)
            if action is not None:
                break
        assert action is not None, "every waited-for seat declined"
        history.append((seat, action.text))
        events = state.apply(seat, action)
        stale = action
        watcher.update_seen()
        watcher.check_events(events)
    else:
        pytest.fail(f"{game.id} did not end within {MAX_STEPS} actions")
    watcher.check_round_trip()
    replayed = game.new_state(players, seed)
    for seat, text in history:
        replayed.apply_text(seat, text)
    assert replayed.to_json() == state.to_json(), "replaying the action texts differs"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_play_keeps_every_invariant(game_id: str, players: int) -> None:
    game = games()[game_id]
    for seed in range(SEEDS_PER_COUNT):
        play_checked(game, players, seed, "random")


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_ai_play_keeps_every_invariant(game_id: str, players: int) -> None:
    play_checked(games()[game_id], players, 1000 + players, "ai")


@pytest.mark.parametrize("game_id", list(games()))
def test_global_random_generator_does_not_matter(game_id: str) -> None:
    game = games()[game_id]
    players = game.player_counts[0]

    def run(disturb: bool) -> dict[str, Any]:
        state = game.new_state(players, 77)
        rng = random.Random(5)
        while not state.is_over:
            if disturb:
                random.seed(random.random())
            seat = state.waiting_for()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        return state.to_json()

    assert run(disturb=False) == run(disturb=True)


@pytest.mark.parametrize("game_id", list(games()))
def test_seeds_give_different_deals(game_id: str) -> None:
    game = games()[game_id]
    players = game.player_counts[0]
    # The deal is what the zones hold (in cambio nobody has seen a card before the opening
    # look, so seat 0's first view is the same whatever the seed).
    deals = {
        repr([zone.cards for zone in game.new_state(players, seed).zones()]) for seed in range(5)
    }
    assert len(deals) == 5
