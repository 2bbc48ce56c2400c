"""The benchmark scripts say what they are doing and always exit, error or not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def test_bench_bot_exits_after_an_error_with_its_progress_shown() -> None:
    # An unknown game fails once the bot is up (aiosqlite's thread running): before the fix
    # the process never ended. The timeout only guards against that hang.
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / "bench_bot.py"), "--games", "1", "--game", "nosuch"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert done.stdout == ""
    assert "bench_bot: opening 1 nosuch tables" in done.stderr


def test_bench_bot_plays_its_moves_and_prints_every_figure() -> None:
    # Run small: what is checked is that it still drives the bot (a changed save signature
    # once broke it unseen), not any figure it prints.
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / "bench_bot.py"), "--games", "2", "--rounds", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["moves"] >= 2 and figures["games_running_at_the_end"] == 2
    assert figures["pictures_drawn"] > 0 and figures["picture_median_bytes"] > 0
