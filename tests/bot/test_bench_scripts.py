"""The benchmark scripts say what they are doing and always exit, error or not."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engine

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def run_script(command: str) -> subprocess.CompletedProcess[str]:
    """Run ``command``, a script of scripts/ and its arguments (``bench_bot.py --games 2``),
    with its output as text. The timeout only guards against a hang."""
    name, *args = command.split()
    return subprocess.run(
        [sys.executable, str(SCRIPTS / name), *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_bench_bot_exits_after_an_error_with_its_progress_shown() -> None:
    # An unknown game fails once the bot is up (aiosqlite's thread running): before the fix
    # the process never ended. The timeout only guards against that hang.
    done = run_script("bench_bot.py --games 1 --game nosuch")
    assert done.returncode != 0
    assert done.stdout == ""
    assert "bench_bot: opening 1 nosuch tables" in done.stderr


@pytest.mark.slow
def test_bench_bot_plays_its_moves_and_prints_every_figure() -> None:
    # Run small: what is checked is that it still drives the bot (a changed save signature
    # once broke it unseen), not any figure it prints.
    done = run_script("bench_bot.py --games 2 --rounds 2")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["moves"] >= 2 and figures["games_running_at_the_end"] == 2
    assert figures["pictures_drawn"] > 0 and figures["picture_median_bytes"] > 0
    # the two times a click is measured by: its first response, its finished view
    assert {"first_response_p99_ms", "finished_view_p99_ms"} <= set(figures)
    # where a finished view's time goes: parts within it, and its rest
    parts = figures["finished_view_parts_mean_ms"]
    assert set(parts) == {"picture", "save", "simcord_requests", "gc", "rest"}
    assert parts["picture"] > 0 and parts["simcord_requests"] > 0 and parts["rest"] > 0
    assert figures["metrics"] == "on" and figures["metrics_samples_served"] > 0


@pytest.mark.slow
def test_bench_bot_runs_with_its_metrics_off() -> None:
    done = run_script("bench_bot.py --games 1 --rounds 1 --metrics off")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["metrics"] == "off" and figures["moves"] >= 1


@pytest.mark.slow
def test_bench_bot_times_hard_moves_without_and_with_a_review_running() -> None:
    # Run small: what is checked is that the hard seats search in the workers in both halves
    # and that the review worker judged decisions meanwhile, not any figure it prints.
    done = run_script("bench_bot.py --games 1 --rounds 2 --review-load")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["ai_level"] == "hard" and figures["review_decisions_judged"] >= 1
    assert figures["ai_decisions"] >= 1 and figures["ai_decisions_with_review"] >= 1
    for key in ("ai_decision_median_ms", "ai_decision_p99_ms"):
        assert figures[key] > 0 and figures[f"{key}_with_review"] > 0
    assert "finished_view_p99_ms" in figures  # the usual figures stay


def load_bench_engine() -> ModuleType:
    """scripts/bench_engine.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_engine", SCRIPTS / "bench_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_bench_engine_prints_a_line_per_game_and_player_count() -> None:
    # Run small: what is checked is that it still plays and reports, not any figure. UNO is
    # a two-player game: only the two-player line is measured against it (when rlcard, an
    # optional extra, is installed), and only that line times a state's copy.
    # Each line is measured on both builds where the compiled engine is installed.
    done = run_script("bench_engine.py --game stuck --players 2 --players 3 --games 2 --rounds 1")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    builds = ["compiled", "pure"] if engine.compiled() else ["pure"]
    assert [(row["game"], row["players"], row["build"]) for row in rows] == [
        ("stuck", players, build) for players in (2, 3) for build in builds
    ]
    assert all(row["steps_per_s"] > 0 and row["rounds"] == 1 for row in rows)
    two, three = rows[0], rows[-1]
    assert two["copy_us"] > 0 and "copy_us" not in three
    with_uno = importlib.util.find_spec("rlcard") is not None
    assert ("ratio" in two) is with_uno and "ratio" not in three
    assert ("| UNO steps/s |" in done.stdout) is with_uno
    assert ("| stuck | 3 |" in done.stdout) is (len(builds) == 2)  # the builds side by side


def test_bench_engine_takes_each_rounds_ratio_against_the_game_run_beside_it() -> None:
    bench = load_bench_engine()

    def busy(seeds: range, steps_a_game: int) -> int:
        """A stand-in for UNO: CPU work in proportion to its steps."""
        for _ in range(steps_a_game * len(seeds) * 2_000):
            pass
        return steps_a_game * len(seeds)

    row = bench.measure("stuck", 2, 4, 3, lambda seeds: busy(seeds, 10))
    assert row["rounds"] == 3 and row["games"] >= 4
    assert row["ratio_low"] <= row["ratio"] <= row["ratio_high"]
    assert row["ratio"] == pytest.approx(row["steps_per_s"] / row["uno_steps_per_s"], rel=0.5)
    compiled = {**row, "build": "compiled", "ratio": 1.49}  # targets are the build's
    pure = {**row, "build": "pure", "game": "cambio", "ratio": 0.33}
    table = "\n".join(bench.ratio_table([compiled, pure]))
    assert "| stuck | compiled |" in table and "| 1.49× |" in table and "| 1.5× | no |" in table
    assert f"| cambio | pure | {row['steps_per_s']:,} |" in table and "| 0.33× | yes |" in table


@pytest.mark.slow
def test_bench_storage_saves_restores_and_answers_with_every_figure() -> None:
    # Run small on SQLite files: what is checked is that it still drives the storage (its
    # saved games are made as the bot makes them), not any figure it prints.
    done = run_script(
        "bench_storage.py --tables 2 --finishes 12 --queries 3 --running 3 --together 2"
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["backend"] == "sqlite" and figures["move_saves"] > 0
    assert figures["restored_games"] == 3 and figures["kb_per_restored_game"] > 0
    assert figures["board_games"] == 12 and figures["scoreboard_median_ms"] > 0
