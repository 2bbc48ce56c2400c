"""The benchmark scripts say what they are doing and always exit, error or not."""

from __future__ import annotations

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
