"""The two builds of the engine, compiled (mypyc) and pure Python: which one a process runs,
and that both play the same games.

The lockstep test plays thousands of random games and some AI games of every game and player
count here, and the same seeds in a new process running the other build (``CARDROOM_PURE``
set, or not), and compares a digest of each case's moves and final states. Where no compiled
build is installed both processes run the source: the test then shows only that the games do
not depend on the process. ``python -m tests.engine.test_builds`` prints this process's
digests, one JSON object.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import engine
from engine.ai import agent
from engine.ai.search import Budget
from engine.core import Action, Agent, RandomAgent, StateAgent, View
from engine.registry import games
from engine.runner import play_out, step

RANDOM_GAMES = 250
"""Random games a game and player count (about 5,000 in all)."""
AI_GAMES = 3
"""Games of the normal AI a game and player count."""
HARD_ROLLOUTS = 8  # the hard AI's playouts a move, in its one two-player game of each game
ROOT = Path(__file__).resolve().parents[2]


class RecordingAgent:
    """A random agent that feeds every move it picks into a digest."""

    needs_view = False

    def __init__(self, digest: hashlib._Hash) -> None:
        self.digest = digest
        self.random = RandomAgent()

    def choose(
        self, view: View | None, legal: Sequence[Action], rng: random.Random, optional: bool
    ) -> Action | None:
        """The random agent's move, recorded."""
        action = self.random.choose(view, legal, rng, optional)
        self.digest.update(b"-" if action is None else action.text.encode())
        return action


def case_digest(game_id: str, players: int) -> str:
    """A digest of the moves and final states of this case's random and AI games."""
    game = games()[game_id]
    digest = hashlib.sha256()
    recording: list[Agent | StateAgent] = [RecordingAgent(digest)] * players
    for seed in range(RANDOM_GAMES):
        state = game.new_state(players, seed)
        play_out(state, recording, seed)
        digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
    levels = [[agent(game, "normal")] * players] * AI_GAMES
    if players == 2:
        levels.append([agent(game, "hard", Budget(rollouts=HARD_ROLLOUTS)), agent(game, "easy")])
    for seed, agents in enumerate(levels):
        state = game.new_state(players, seed)
        rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
        order = random.Random(seed)
        while not state.is_over:
            seat, action = step(state, agents, rngs, order)
            digest.update(f"{seat} {action.text}".encode())
        digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
    return digest.hexdigest()


def digests() -> dict[str, object]:
    """Which build this process runs, and every case's digest."""
    cases = {
        f"{game_id}/{players}": case_digest(game_id, players)
        for game_id, game in games().items()
        for players in game.player_counts
    }
    return {"compiled": engine.compiled(), "cases": cases}


def run_engine(code: str, pure: bool) -> str:
    """What ``code`` prints in a new Python process running the pure build or not."""
    environment = {key: value for key, value in os.environ.items() if key != "CARDROOM_PURE"}
    if pure:
        environment["CARDROOM_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def compiled_build_installed() -> bool:
    """Whether compiled modules sit beside the engine's source, built after it."""
    root = Path(engine.__path__[0])
    return any(root.rglob("*.so")) and not engine.stale_builds(root)


@pytest.mark.slow
def test_both_builds_play_the_same_games() -> None:
    here = digests()
    there = json.loads(
        run_engine("from tests.engine.test_builds import main; main()", here["compiled"] is True)
    )
    assert there["compiled"] is (not here["compiled"] and compiled_build_installed())
    assert there["cases"] == here["cases"]


def test_a_process_runs_the_compiled_build_where_it_is_installed_and_not_asked_for_pure() -> None:
    expected = compiled_build_installed() and not os.environ.get("CARDROOM_PURE")
    assert engine.compiled() is expected
    assert engine.core.game.__file__.endswith(".py") is not expected


def test_cardroom_pure_runs_the_python_source() -> None:
    printed = run_engine("import engine.core.game as rules; print(rules.__file__)", pure=True)
    assert printed.strip().endswith(os.path.join("engine", "core", "game.py"))


def test_a_module_changed_after_it_was_compiled_is_stale(tmp_path: Path) -> None:
    games_folder = tmp_path / "games"
    games_folder.mkdir()
    fresh, stale = tmp_path / "core", games_folder / "stuck"
    for module, source_time, built_time in ((fresh, 100, 200), (stale, 300, 200)):
        source = module.with_suffix(".py")
        built = module.with_name(module.name + ".cpython-311-x86_64-linux-gnu.so")
        source.write_text("")
        built.write_bytes(b"")
        os.utime(source, (source_time, source_time))
        os.utime(built, (built_time, built_time))
    assert engine.stale_builds(tmp_path) == [games_folder / "stuck.cpython-311-x86_64-linux-gnu.so"]


def main() -> None:
    """Print this process's digests."""
    print(json.dumps(digests()))


if __name__ == "__main__":
    main()
