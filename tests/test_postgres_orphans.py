"""The tests' throwaway PostgreSQL server outlives a killed test run, and the next run's first
server stops it: a run killed with SIGKILL leaves no server running for good."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.postgres import (
    FOLDER_PREFIX,
    OWNER_FILE,
    is_running,
    server_binaries,
    stop_orphans,
)

STARTS_A_SERVER_AND_WAITS = """
import sys
from tests.postgres import throwaway_postgres
with throwaway_postgres() as server:
    print(server.folder, flush=True)
    sys.stdin.read()
"""


def postmaster(folder: Path) -> int:
    """The process id of the server whose folder this is."""
    return int((folder / "data" / "postmaster.pid").read_text().split()[0])


@pytest.mark.slow
def test_a_server_whose_test_run_was_killed_is_stopped_by_the_next() -> None:
    # A folder of its own (short: the server's socket path has a length limit), so that no
    # other test process's sweep takes this orphan first.
    parent = Path(tempfile.mkdtemp(prefix="crpg-"))
    parent.chmod(0o755)  # the server's user (nobody, under root) must reach its folder
    owner = subprocess.Popen(
        [sys.executable, "-c", STARTS_A_SERVER_AND_WAITS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(parent)},
        cwd=Path(__file__).parent.parent,
    )
    try:
        assert owner.stdout is not None
        folder = Path(owner.stdout.readline().strip())
        server = postmaster(folder)
        owner.send_signal(signal.SIGKILL)  # no cleanup of any kind runs
        owner.wait(timeout=30)
        assert is_running(server), "the server outlives its killed owner"

        assert stop_orphans(server_binaries(), parent) == [folder]
        assert not folder.exists()
        assert not is_running(server)
        assert stop_orphans(server_binaries(), parent) == []
    finally:
        owner.kill()
        shutil.rmtree(parent, ignore_errors=True)


def test_a_server_whose_owner_runs_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / f"{FOLDER_PREFIX}live"
    (folder / "data").mkdir(parents=True)
    (folder / OWNER_FILE).write_text(str(os.getpid()))
    assert stop_orphans(server_binaries(), tmp_path) == []
    assert folder.exists()
