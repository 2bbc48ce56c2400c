"""Rewriting a game's code never changes its rules: seeded random games of every game and player
count must give the digests recorded in ``rules_digests.json``.

At every step a digest takes in the seats to act and the one the game waits for, each acting
seat's legal moves as a set (their texts, sorted: the order a game lists them in is free), the
events of the move made, every seat's view, the public view and its description, and the saved
state. The move is drawn from the sorted texts, so a game that lists its moves in another
order still plays the same game. ``python -m tests.engine.test_same_rules`` records the
digests again: only for a change of the rules that RULES.md asks for, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from engine.core import Event, State
from engine.registry import games

GAMES_PER_CASE = 40
"""Seeded random games a game and player count."""
RECORDED = Path(__file__).with_name("rules_digests.json")


def _update(digest: hashlib._Hash, value: object) -> None:
    digest.update(json.dumps(value, sort_keys=True, default=str).encode())
    digest.update(b"\n")


def _record_position(digest: hashlib._Hash, state: State) -> None:
    _update(digest, [state.to_act(), state.waiting_for(), state.is_over])
    _update(digest, state.to_json())
    _update(digest, state.public_view())
    _update(digest, state.game.describe(state.public_view()))
    for seat in range(state.players):
        _update(digest, state.view(seat))


def _event(event: Event, players: int) -> list[object]:
    """An event as an English reader meets it: the rendered line, its kind, who sees it."""
    seen = None if event.visible_to is None else sorted(event.visible_to)
    return [event.render([f"P{seat}" for seat in range(players)]), event.kind, seen]


def case_digest(game_id: str, players: int) -> str:
    """The digest of this game and player count's seeded random games."""
    game = games()[game_id]
    digest = hashlib.sha256()
    for seed in range(GAMES_PER_CASE):
        state = game.new_state(players, seed)
        chooser = random.Random(f"same-rules/{seed}")
        _record_position(digest, state)
        while not state.is_over:
            moves = {
                seat: sorted(a.text for a in state.legal_actions(seat)) for seat in state.to_act()
            }
            _update(digest, moves)
            seat = chooser.choice([seat for seat, legal in moves.items() if legal])
            events = state.apply_text(seat, chooser.choice(moves[seat]))
            _update(digest, [seat, [_event(event, state.players) for event in events]])
            _record_position(digest, state)
        _update(digest, [state.scores(), state.winners()])
    return digest.hexdigest()


def digests() -> dict[str, str]:
    """Every case's digest."""
    return {
        f"{game_id}/{players}": case_digest(game_id, players)
        for game_id, game in games().items()
        for players in game.player_counts
    }


@pytest.mark.parametrize(
    "case", [f"{g}/{p}" for g, game in games().items() for p in game.player_counts]
)
def test_the_rules_play_the_recorded_games(case: str) -> None:
    game_id, players = case.split("/")
    recorded = json.loads(RECORDED.read_text())
    assert case_digest(game_id, int(players)) == recorded[case]


def main() -> None:
    """Record every case's digest."""
    RECORDED.write_text(json.dumps(digests(), indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
