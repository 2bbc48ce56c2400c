"""Golden random play: for every game and player count (and the options that change what is
listed), a few seeded random games hash to the same fingerprint as when this file was written.

The fingerprint covers, at every step, each acting seat's legal actions (text and choice path),
the public view and the mover's view, the move and the events it returned, and the final state.
It guards speed work: a faster way of listing actions or carrying them out must give exactly
the same games. A rule changed on purpose changes the fingerprints; regenerate them with
``python -m tests.engine.test_golden`` and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from engine.core import Event
from engine.registry import games

SEEDS = (0, 1, 2)

OPTION_CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("fishing", 2, {"multi_capture": True}),
    ("fishing", 4, {"multi_capture": True}),
    ("cambio", 3, {"memory_aid": True}),
)
"""Options that change what is listed or seen, played besides every game's defaults."""

CASES: list[tuple[str, int, dict[str, Any]]] = [
    (game_id, players, {}) for game_id, game in games().items() for players in game.player_counts
] + list(OPTION_CASES)


def fingerprint(game_id: str, players: int, options: dict[str, Any], seed: int) -> str:
    """The hash of one random game: everything listed, seen, chosen and told at every step."""
    state = games()[game_id].new_state(players, seed, options)
    rng = random.Random(f"golden/{seed}")
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    def feed_events(events: list[Event]) -> None:
        feed([[e.text, e.kind, sorted(e.visible_to or ())] for e in events])

    feed_events(state.opening_events())
    while not state.is_over:
        seats = state.to_act()
        feed([seats, state.waiting_for(), state.public_view()])
        for seat in seats:
            feed([[action.text, action.path] for action in state.legal_actions(seat)])
        # Any seat that may act, out-of-turn seats included, with any of its actions.
        seat = seats[int(rng.random() * len(seats))]
        legal = state.legal_actions(seat)
        action = legal[int(rng.random() * len(legal))]
        feed([seat, state.agent_view(seat), action.text])
        feed_events(state.apply(seat, action))
    feed(state.to_json())
    return digest.hexdigest()[:16]


def case_id(game_id: str, players: int, options: dict[str, Any]) -> str:
    """How a case is named in GOLDEN and in the test ids."""
    return f"{game_id}/{players}" + "".join(f"/{name}={value}" for name, value in options.items())


GOLDEN: dict[str, tuple[str, ...]] = {
    "cambio/2": ("6747ac7bdabdde93", "af334d5104eab237", "9382c8b083cb7b94"),
    "cambio/3": ("773b8716ba59f008", "ed5d6eb1be6ac810", "9e89fe403da08218"),
    "cambio/4": ("a10c05d6c548b0e6", "b31e9ec486190a8f", "19e0c935ce121b39"),
    "cambio/5": ("7ce51376d9f3aed2", "49bd8915dfca541c", "7f867638df6667b8"),
    "cambio/6": ("160bbad156afd4be", "d385cc5402bfbaa2", "62223ff66787970f"),
    "fishing/2": ("16915c0d3a2ac669", "065f7eb8d9db0338", "f45d2cca2bc35dcd"),
    "fishing/3": ("5dbe5b2dcc6e3149", "5f34160670214ebf", "d4ac5588e98d0b19"),
    "fishing/4": ("c784580fc4a7eb0c", "342d3e19073f3364", "68f534730a159e7c"),
    "fishing/6": ("afdc58ba90deba58", "84d9f6e1275c4ce0", "5b20df287fe09468"),
    "stuck/2": ("a9474e84cf9aff35", "5c8c92834e797c35", "c3091613e9f298b2"),
    "stuck/3": ("f59d4957be05fc60", "06f7ff7c41324bb6", "ad60530348f408f2"),
    "stuck/4": ("a386d5fdbf051d35", "a023541f2e66b971", "a5eb53c9f7b5882b"),
    "stuck/5": ("301a63712ad0ecdc", "b0add239aa755e05", "6d1033d025ddce16"),
    "stuck/6": ("a2134c2691fdc104", "e6790c7fd04b6d44", "1ff1b18a64780123"),
    "swazi/2": ("ec4dfe9297751287", "d49336ce990e0cdc", "ba025198a1861597"),
    "twentytwo/2": ("59bb1f4fd4fd18ab", "71efc946c9f731ed", "e84f35f0baa33d6f"),
    "twentytwo/3": ("0a78c5f76a966fa1", "bb87f2465fc55381", "93f43ba218d9c784"),
    "twentytwo/4": ("40fe44b931c257b5", "2a797cf5bf14d7fe", "467bd06d573f885e"),
    "twentytwo/5": ("2c8ffa1717cee7ee", "69eca3af7a5ff0d6", "66f5091fc69bee0c"),
    "twentytwo/6": ("196d029f11f27329", "ea4b5760fc90298d", "59c09bb0a9c6a5eb"),
    "fishing/2/multi_capture=True": ("49815733345cb7ac", "aa850ddeb1918402", "7ab0b93e5ef0f85f"),
    "fishing/4/multi_capture=True": ("06cab25782fa4d50", "38f6d84fd512062b", "731a450f8f2f522d"),
    "cambio/3/memory_aid=True": ("d9512d52e5b01322", "380728a0c7c8dd46", "7bbea2668e2c9550"),
}
"""Each case's fingerprints, one per seed of SEEDS."""


@pytest.mark.parametrize(
    ("game_id", "players", "options"), CASES, ids=[case_id(*case) for case in CASES]
)
def test_random_play_is_what_it_was(game_id: str, players: int, options: dict[str, Any]) -> None:
    found = tuple(fingerprint(game_id, players, options, seed) for seed in SEEDS)
    assert found == GOLDEN[case_id(game_id, players, options)]


if __name__ == "__main__":
    for case in CASES:
        prints = tuple(fingerprint(*case, seed) for seed in SEEDS)
        print(f"    {case_id(*case)!r}: {prints!r},")
