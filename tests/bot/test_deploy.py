"""The systemd units in deploy/systemd start the bot from its venv and start it again after a
failure (a lost database or shard lock stops it with status 1)."""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"


def read_unit(name: str) -> configparser.RawConfigParser:
    unit = configparser.RawConfigParser(strict=False)  # Environment= may repeat
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNITS / name, encoding="utf-8")
    return unit


@pytest.mark.parametrize("name", ["cardroom.service", "cardroom@.service"])
def test_a_unit_runs_the_bot_from_its_venv_and_restarts_it(name: str) -> None:
    service = read_unit(name)["Service"]
    folder = service["WorkingDirectory"]
    assert service["ExecStart"] == f"{folder}/.venv/bin/python -m bot"
    assert service["Restart"] == "on-failure"
    assert service["UMask"] == "0077"  # the database and backups hold hidden cards
    assert f"{folder}/backups" in service["ReadWritePaths"].split()


def test_the_one_server_unit_may_write_its_sqlite_database() -> None:
    service = read_unit("cardroom.service")["Service"]
    assert f"{service['WorkingDirectory']}/data" in service["ReadWritePaths"].split()
