"""One random-play driver over every registered game and player count (open_spiel style),
and the options that change what is listed or seen: each seeded game is played once, and
every invariant is checked as it goes.

At every step: only seats that may act have legal actions, whose texts are distinct and parse
back; an illegal action raises and changes nothing; every card is in exactly one place; no
view, description, event or picture layout shows a seat a card it has not seen, and a layout
shows what its view shows; the game ended within a bound. Every few steps the JSON form
reloads exactly. At steps 0, 1, 2, 4, 8 …, a deep copy equals the state, lists the same
actions, and played out (by the runner's ``play_out``) leaves the state as it was and ends
as the state itself does, and as ``step`` plays it with the same generators. At the end,
replaying seed + action texts gives the same state, and a digest of everything listed, seen,
chosen and told matches ``GOLDEN``: speed work must give exactly the same games. A rule
changed on purpose changes the digests; regenerate them with
``python -m tests.engine.test_random_play`` and say so in the commit.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from typing import Any

import pytest

from engine.ai import agent
from engine.cards import FULL_DECK, Card
from engine.core import Action, Event, Game, State, View
from engine.errors import IllegalActionError
from engine.layout import Layout
from engine.registry import games
from engine.runner import agent_move, play_out, step
from tests.engine.helpers import cards_in

MAX_STEPS = 20_000
ROUND_TRIP_EVERY = 7  # steps between JSON round trips (each costs a few plain steps)

OPTION_CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("fishing", 2, {"multi_capture": True}),
    ("fishing", 4, {"multi_capture": True}),
    ("cambio", 3, {"memory_aid": True}),
)
"""Options that change what is listed or seen, played besides every game's defaults."""

CASES: list[tuple[str, int, dict[str, Any]]] = [
    (game_id, players, {}) for game_id, game in games().items() for players in game.player_counts
] + list(OPTION_CASES)


def case_id(game_id: str, players: int, options: dict[str, Any]) -> str:
    """How a case is named in GOLDEN and in the test ids."""
    return f"{game_id}/{players}" + "".join(f"/{name}={value}" for name, value in options.items())


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
            layout = self.game.layout(view)
            check_layout(layout, view, self.seen[seat])
            own = layout.own()  # the hand alone: still all of the hand, and only the seat's groups
            assert set(map(Card.parse, view.get("hand", []))) <= set(own.face_up())
            assert all(group.mine for group in own.groups()) and len(own.rows) <= 1
        public = state.public_view()
        leaked = set(cards_in([public, self.game.summary(public)])) - self.public_seen
        assert not leaked, f"the public view shows unseen cards {leaked}"
        public_layout = self.game.layout(public)
        check_layout(public_layout, public, self.public_seen)
        assert public_layout.own() == Layout(()), "the public picture has no seat's own cards"

    def check_events(self, events: list[Event]) -> None:
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


def check_layout(layout: Layout, view: View, seen: set[Card]) -> None:
    """The layout shows face up only cards of ``view`` in ``seen``, and all of a seat's hand."""
    shown = layout.face_up()
    outside_view = set(shown) - set(cards_in(view))
    assert not outside_view, f"the picture shows {outside_view}, which the view does not"
    hidden = set(shown) - seen
    assert not hidden, f"the picture shows unseen cards {hidden}"
    for text in view.get("hand", []):
        assert Card.parse(text) in shown, f"the picture leaves out the hand's {text}"


def snapshot(state: State) -> str:
    """Everything a state holds, as text, to tell whether it changed."""
    return json.dumps(state.to_json(), sort_keys=True)


def check_copy_and_play_out(state: State, seed: int) -> None:
    """A deep copy equals the state and lists the same actions; played out by ``play_out`` it
    leaves the state as it was, and ends as another copy played out does, and as ``step``
    plays it with ``play_out``'s generators, in as many actions as ``play_out`` counted."""
    players = state.players
    agents = [agent(state.game, "random")] * players
    before = snapshot(state)
    clone = copy.deepcopy(state)
    assert type(clone) is type(state)
    assert snapshot(clone) == before
    for seat in range(players):
        assert clone.legal_actions(seat) == state.legal_actions(seat)
    counted = play_out(clone, agents, seed)
    assert snapshot(state) == before, f"playing a copy changed the state ({counted})"
    again = copy.deepcopy(state)
    play_out(again, agents, seed)
    assert snapshot(again) == snapshot(clone)
    stepped = copy.deepcopy(state)
    rngs = [random.Random(f"{seed}/agent/{seat}") for seat in range(players)]
    order = random.Random(f"{seed}/order")
    taken = 0
    while not stepped.is_over:
        step(stepped, agents, rngs, order)
        taken += 1
    assert taken == counted and snapshot(stepped) == snapshot(clone), "play_out ≠ step"


def play_checked(game_id: str, players: int, options: dict[str, Any], seed: int) -> str:
    """Play one seeded random game checking every invariant; its digest (``GOLDEN``)."""
    game = games()[game_id]
    state = game.new_state(players, seed, options)
    watcher = Watcher(game, state)
    choices = random.Random(f"golden/{seed}")  # the moves (what the digests were made with)
    checks = random.Random(seed)  # the illegal actions tried
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    def feed_events(events: list[Event]) -> None:
        feed([[e.text, e.kind, sorted(e.visible_to or ())] for e in events])

    feed_events(state.opening_events())
    history: list[tuple[int, str]] = []
    stale: Action | None = None
    for steps in range(MAX_STEPS):
        watcher.check_cards_conserved()
        watcher.check_views()
        watcher.check_decision()
        if state.is_over:
            break
        watcher.check_illegal_changes_nothing(stale, checks)
        if steps % ROUND_TRIP_EVERY == 0:
            watcher.check_round_trip()
        if steps & (steps - 1) == 0:  # step 0, 1, 2, 4, 8 …: early to late, few copies
            check_copy_and_play_out(state, seed + steps)
        seats = state.to_act()
        feed([seats, state.waiting_for(), state.public_view()])
        for seat in seats:
            feed([[action.text, action.path] for action in state.legal_actions(seat)])
        # Any seat that may act, out-of-turn seats included, with any of its actions.
        seat = seats[int(choices.random() * len(seats))]
        legal = state.legal_actions(seat)
        action = legal[int(choices.random() * len(legal))]
        feed([seat, state.agent_view(seat), action.text])
        history.append((seat, action.text))
        events = state.apply(seat, action)
        feed_events(events)
        stale = action
        watcher.update_seen()
        watcher.check_events(events)
    else:
        pytest.fail(f"{game_id} did not end within {MAX_STEPS} actions")
    watcher.check_round_trip()
    replayed = game.new_state(players, seed, options)
    for seat, text in history:
        replayed.apply_text(seat, text)
    assert replayed.to_json() == state.to_json(), "replaying the action texts differs"
    feed(state.to_json())
    return digest.hexdigest()[:16]


GOLDEN: dict[str, tuple[str, ...]] = {
    "cambio/2": ("5bb6fe99482e8b55", "7fd41ba0a6c0d7ce", "e062f8ac09b6d3b3"),
    "cambio/3": ("081cf479577adbdc", "a58509893f4a9f24", "601d400472b360ed"),
    "cambio/4": ("9a49ece4ce52d600", "bfd4235d091eccba", "4ea9a3a00ae7003f"),
    "cambio/5": ("035c02d452d5316a", "48e80becb115ca7c", "03cc9eb5f0c24bcf"),
    "cambio/6": ("4a1f7a19a40b8db9", "bbe22421655062dd", "b4c297291709d324"),
    "fishing/2": ("16915c0d3a2ac669", "065f7eb8d9db0338", "f45d2cca2bc35dcd"),
    "fishing/3": ("5dbe5b2dcc6e3149", "5f34160670214ebf", "d4ac5588e98d0b19"),
    "fishing/4": ("c784580fc4a7eb0c", "342d3e19073f3364", "68f534730a159e7c"),
    "fishing/6": ("afdc58ba90deba58", "84d9f6e1275c4ce0", "5b20df287fe09468"),
    "stuck/2": ("a9474e84cf9aff35", "5c8c92834e797c35", "c3091613e9f298b2"),
    "stuck/3": ("f59d4957be05fc60", "06f7ff7c41324bb6", "ad60530348f408f2"),
    "stuck/4": ("a386d5fdbf051d35", "a023541f2e66b971", "a5eb53c9f7b5882b"),
    "stuck/5": ("301a63712ad0ecdc", "b0add239aa755e05", "6d1033d025ddce16"),
    "stuck/6": ("a2134c2691fdc104", "e6790c7fd04b6d44", "1ff1b18a64780123"),
    "swazi/2": ("ab7b28960d296a7f", "73d03aad5ccf559c", "7fb297f4210eb48d"),
    "twentytwo/2": ("6fd6eee2d1c1b06a", "d681c7595b1f20ec", "d0fb21c328404887"),
    "twentytwo/3": ("25b57bacf47e0313", "c9b4207841fb0e58", "2f22dde80ae453b0"),
    "twentytwo/4": ("0dfd01f34cf1bf23", "c82666cf61db8fed", "38ab9f297af65ddb"),
    "twentytwo/5": ("f9d627aa1e70ad94", "6ddf66386c1d3106", "14f16ac1ba880257"),
    "twentytwo/6": ("d9289ad09a7f4f4d", "4097378531089bf9", "361e9aae97b6e6ca"),
    "fishing/2/multi_capture=True": ("49815733345cb7ac", "aa850ddeb1918402", "7ab0b93e5ef0f85f"),
    "fishing/4/multi_capture=True": ("06cab25782fa4d50", "38f6d84fd512062b", "731a450f8f2f522d"),
    "cambio/3/memory_aid=True": ("05cde178603f0516", "65577370843b14b4", "ee0534d0cd8cc33a"),
}
"""Each case's digests, for the seeds 0, 1 and 2."""


FAST_PLAYERS = 4
"""The fast subset plays seed 0 of the cases up to this many players (every game, every
option case); more players, and seeds 1 to 5, are in the whole suite (marked slow): checking
every seat's view at every step makes a six-player game the slowest."""

PLAYS = [
    pytest.param(
        *case,
        seed,
        marks=() if seed == 0 and case[1] <= FAST_PLAYERS else pytest.mark.slow,
        id=f"{case_id(*case)}-seed{seed}",
    )
    for case in CASES
    for seed in range(6)
]
"""Each case with the seeds 0 to 5; the first three seeds have digests in GOLDEN."""


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), PLAYS)
def test_random_play_keeps_every_invariant_and_is_what_it_was(
    game_id: str, players: int, options: dict[str, Any], seed: int
) -> None:
    digest = play_checked(game_id, players, options, seed)
    golden = GOLDEN[case_id(game_id, players, options)]
    assert seed >= len(golden) or digest == golden[seed], "the game is not what it was"


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "players"), [case[:2] for case in CASES if not case[2]])
def test_ai_play_keeps_every_invariant(game_id: str, players: int) -> None:
    """The AI's games (asked as the runner asks: optional seats first, each may decline)."""
    game = games()[game_id]
    seed = 1000 + players
    state = game.new_state(players, seed)
    watcher = Watcher(game, state)
    agents = [agent(game, "ai") for _ in range(players)]
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        watcher.check_cards_conserved()
        watcher.check_views()
        watcher.check_decision()
        if state.is_over:
            break
        seats = list(state.to_act())
        rng.shuffle(seats)
        seats.sort(key=lambda seat: seat in state.waiting_for())
        for seat in seats:
            action = agent_move(state, seat, agents[seat], rng)
            if action is not None:
                break
        assert action is not None, "every waited-for seat declined"
        events = state.apply(seat, action)
        watcher.update_seen()
        watcher.check_events(events)
    else:
        pytest.fail(f"{game_id} did not end within {MAX_STEPS} actions")
    watcher.check_round_trip()


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


if __name__ == "__main__":
    for case in CASES:
        prints = tuple(play_checked(*case, seed) for seed in range(3))
        print(f"    {case_id(*case)!r}: {prints!r},")
