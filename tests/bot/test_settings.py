"""Settings as an admin writes them: ``.env`` values left empty, and bad files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[2]


def run_bot(directory: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``directory`` (its ``.env``), with only ``settings`` (names in
    upper case) in the environment."""
    environment = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), **settings}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=directory,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_example_file_with_a_token_gives_the_defaults(tmp_path: Path) -> None:
    """The README's production set-up: .env.example copied, the token set, the rest as is
    (DEV_GUILD_ID left empty)."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    env_file = tmp_path / ".env"
    env_file.write_text(example.replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=abc\n"))
    settings = load_settings(env_file)
    assert settings.dev_guild_id is None
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc"


def test_every_empty_value_means_not_set(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("TURN_SECONDS=\nAI_DELAY_SECONDS=\nDATABASE_URL=\nDEV_GUILD_ID=\n")
    settings = load_settings(env_file)
    assert (settings.turn_seconds, settings.ai_delay_seconds) == (120, 1.5)
    assert settings.database_url == "data/cardroom.db"


@pytest.mark.parametrize(
    ("lines", "database_url"),
    [
        ("DATABASE_URL=postgresql://bot@db/cardroom\n", "postgresql://bot@db/cardroom"),
        ("DATABASE_URL=sqlite:///var/games.db\n", "sqlite:///var/games.db"),
        ("DATABASE_PATH=old/games.db\n", "old/games.db"),  # the setting's name before PostgreSQL
        ("DATABASE_PATH=old/games.db\nDATABASE_URL=new.db\n", "new.db"),
    ],
)
def test_the_database_is_one_url_and_the_old_path_setting_still_works(
    tmp_path: Path, lines: str, database_url: str
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(lines)
    assert load_settings(env_file).database_url == database_url


def test_the_bot_started_with_the_example_file_only_asks_for_the_token(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes((ROOT / ".env.example").read_bytes())
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert "DISCORD_TOKEN is not set" in done.stderr


@pytest.mark.parametrize(
    ("content", "named"),
    [
        (b"DISCORD_TOKEN=abc\nTURN_SECONDS=soon\n", "TURN_SECONDS"),
        (b"DISCORD_TOKEN=abc\nDEV_GUILD_ID=my server\n", "DEV_GUILD_ID"),
        (b"DISCORD_TOKEN=abc\nTURN_SECONDS=5\n", "TURN_SECONDS"),  # below the least allowed
        (b"DISCORD_TOKEN=abc\nDATABASE_URL=mysql://db/cardroom\n", "DATABASE_URL"),
        (b"DISCORD_TOKEN=abc\nSHARD_COUNT=2\nSHARD_IDS=1-2\n", "SHARD_IDS"),
        (b"DISCORD_TOKEN=abc\nSHARD_IDS=first\n", "SHARD_IDS"),
        (b"DISCORD_TOKEN=abc\nSHARD_HEARTBEAT_SECONDS=0\n", "SHARD_HEARTBEAT_SECONDS"),
        (b"DISCORD_TOKEN=abc\nDATABASE_POOL_SIZE=0\n", "DATABASE_POOL_SIZE"),
        (b"DISCORD_TOKEN=abc\nLOBBY_IDLE_SECONDS=6\xe90\n", "line 2 (LOBBY_IDLE_SECONDS)"),
        (b"DISCORD_TOKEN=abc\n# caf\xe9 (Latin-1)\n", "line 2 (a comment) is not UTF-8"),
    ],
)
def test_a_bad_env_file_gives_one_line_naming_the_setting(
    tmp_path: Path, content: bytes, named: str
) -> None:
    (tmp_path / ".env").write_bytes(content)
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert named in done.stderr
    assert "Traceback" not in done.stderr


def test_a_file_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_bytes(b"DISCORD_TOKEN=abc\nDEV_GUILD_ID=12\xff\n")
    with pytest.raises(SettingsError, match=r"line 2 \(DEV_GUILD_ID\) is not UTF-8"):
        load_settings(env_file)


def test_the_example_file_lists_every_setting() -> None:
    """Each setting is there by name, set to its default or explained in a comment."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", example))
    missing = {name for name in Settings.model_fields if name.upper() not in named}
    assert not missing, missing
