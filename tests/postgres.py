"""A throwaway PostgreSQL server for the tests (and the storage benchmark): the machine's own
server binaries (Debian's ``postgresql`` package), ``initdb`` and ``pg_ctl`` on a temporary
folder, reached through a unix socket in that folder only (no TCP port). Run as root, the
server runs as the unprivileged user ``nobody``, as PostgreSQL refuses to run as root. For
the tests its data need not survive a crash, so fsync is off: it starts in a few seconds and
writes fast; the benchmark asks for a durable one (PostgreSQL's defaults: every commit flushed).

A server outlives a test run that was killed (SIGKILL: no cleanup runs), so each folder names
the process that owns it, and every new server first stops those whose owner is gone.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg

INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, pg_ctl) are not installed:"
    " sudo apt-get install -y postgresql"
)
USER = "cardroom"  # the server's superuser, trusted on its unix socket
UNPRIVILEGED = "nobody"
FOLDER_PREFIX = "cardroom-pg-"
OWNER_FILE = "owner.pid"  # in each server's folder: the process that started it


def server_binaries() -> Path:
    """The folder with ``initdb`` and ``pg_ctl``: ``PG_BINDIR``, Debian's newest
    ``/usr/lib/postgresql/N/bin``, or the PATH. RuntimeError with the install line if none."""
    candidates = [Path(os.environ["PG_BINDIR"])] if os.environ.get("PG_BINDIR") else []
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [each for each in debian.iterdir() if each.name.isdigit()]
        candidates += [each / "bin" for each in sorted(versions, key=lambda v: -int(v.name))]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise RuntimeError(INSTALL_HINT)


class ThrowawayPostgres:
    """A PostgreSQL server in a temporary folder; ``url(name)`` reaches a database of it."""

    def __init__(self, folder: Path, binaries: Path, *, durable: bool = False) -> None:
        self.folder = folder
        self.binaries = binaries
        self.durable = durable

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        """The connection URL of one of the server's databases (through its unix socket)."""
        return f"postgresql://{USER}@/{database}?host={self.folder}"

    def _run(self, *command: str) -> None:
        """Run one of the server's programs, as ``nobody`` when we are root."""
        prefix = ["runuser", "-u", UNPRIVILEGED, "--"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [*prefix, *command], capture_output=True, text=True, check=False, timeout=120
        )
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{command[0]} failed: {done.stderr.strip()}\n{tail}")

    def start(self) -> None:
        """initdb (the first time) and start the server (waiting until it takes
        connections); after ``stop()``, the same server comes back with its data."""
        if os.geteuid() == 0:
            nobody = pwd.getpwnam(UNPRIVILEGED)
            os.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
        if not (self.data / "PG_VERSION").exists():
            self._run(
                str(self.binaries / "initdb"),
                f"--pgdata={self.data}",
                f"--username={USER}",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
                "--no-instructions",
            )
        options = f"-k {self.folder} -c listen_addresses='' -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            str(self.binaries / "pg_ctl"),
            f"--pgdata={self.data}",
            f"--log={self.folder / 'server.log'}",
            f"--options={options}",
            "--wait",
            "start",
        )

    def restart(self) -> None:
        """Restart the server as an operator would (``pg_ctl restart -m fast``: every
        connection is ended, the data stays), waiting until it takes connections again."""
        self._run(
            str(self.binaries / "pg_ctl"),
            f"--pgdata={self.data}",
            f"--log={self.folder / 'server.log'}",
            "--mode=fast",
            "--wait",
            "restart",
        )

    def stop(self) -> None:
        """Stop the server at once, as if it crashed (its data stays until the block ends)."""
        self._run(
            str(self.binaries / "pg_ctl"), f"--pgdata={self.data}", "--mode=immediate", "stop"
        )

    async def create_database(self, name: str) -> str:
        """Create an empty database; its URL."""
        await self._administer(f'CREATE DATABASE "{name}"')
        return self.url(name)

    async def drop_database(self, name: str) -> None:
        """Drop a database, closing any connection a test left to it."""
        await self._administer(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    async def _administer(self, sql: str) -> None:
        """Run one statement in the server's ``postgres`` database."""
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(sql)
        finally:
            await connection.close()


@contextmanager
def throwaway_postgres(*, durable: bool = False) -> Iterator[ThrowawayPostgres]:
    """A running throwaway server, stopped and deleted when the block ends (and, if this
    process is killed first, by the next one started)."""
    binaries = server_binaries()
    stop_orphans(binaries)
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
    (folder / OWNER_FILE).write_text(str(os.getpid()))
    server = ThrowawayPostgres(folder, binaries, durable=durable)
    try:
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def stop_orphans(binaries: Path, parent: Path | None = None) -> list[Path]:
    """Stop and delete the throwaway servers under ``parent`` (the temporary folder) whose
    owning process is gone (a test run killed before its cleanup); the folders removed."""
    removed = []
    for folder in (parent or Path(tempfile.gettempdir())).glob(f"{FOLDER_PREFIX}*"):
        try:
            owner = int((folder / OWNER_FILE).read_text())
        except (OSError, ValueError):
            continue  # being set up, or not ours to judge
        if is_running(owner):
            continue
        if (folder / "data" / "postmaster.pid").exists():
            # not running after all (a failed stop): the folder goes all the same
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                ThrowawayPostgres(folder, binaries).stop()
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def is_running(pid: int) -> bool:
    """Whether a process with this id runs (a zombie, dead but not yet waited for, does not:
    a container's first process may never wait for the servers handed to it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # someone else's process
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc to tell: it exists
    return state != "Z"
