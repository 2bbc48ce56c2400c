"""Cardroom's build: the engine's rules compiled to C extensions by mypyc where a C compiler
works, else the pure-Python engine (the same source, run by the interpreter); and the message
catalogs compiled (data/locales/*/LC_MESSAGES/cardroom.mo, from their .po: scripts/catalogs.py).

``CARDROOM_PURE=1`` forces the pure build. Everything else (the package's name, version and
dependencies) is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scripts.catalogs import compile_catalogs

INTERPRETED = {
    "engine/__main__.py",
    "engine/choices.py",
    "engine/cli.py",
    "engine/terminal.py",
    "engine/languages.py",
    "engine/registry.py",
    "engine/replay.py",
    "engine/review.py",
    "engine/words.py",
}
"""The engine's modules that stay Python source; mypyc compiles every other one except the
packages' ``__init__`` files (``engine/__init__.py`` chooses the build, so it runs as
source). ``engine.words`` defines ``_``, which a compiled module does not export.
``engine.languages`` loads catalogs and rules texts once each: nothing there to speed up."""

COMPILED = sorted(
    path.as_posix()
    for path in Path("engine").rglob("*.py")
    if path.name != "__init__.py" and path.as_posix() not in INTERPRETED
)
"""The modules mypyc compiles."""


def c_compiler_works() -> bool:
    """Whether this Python's C compiler builds against its headers (a probe file)."""
    compiler = sysconfig.get_config_var("CC") or "cc"
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder, "probe.c")
        probe.write_text("#include <Python.h>\nint main(void) { return 0; }\n")
        command = [*shlex.split(compiler), "-I", sysconfig.get_paths()["include"], "-c"]
        try:
            done = subprocess.run(
                [*command, str(probe), "-o", str(probe.with_suffix(".o"))],
                capture_output=True,
                check=False,
            )
        except OSError:
            return False
        return done.returncode == 0


def extensions() -> list[object]:
    """The compiled engine's extensions, or none for the pure build (and why, on stderr)."""
    if os.environ.get("CARDROOM_PURE"):
        print("cardroom: CARDROOM_PURE is set: the pure-Python engine", file=sys.stderr)
        return []
    if not c_compiler_works():
        print("cardroom: no working C compiler: the pure-Python engine", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("cardroom: mypy (mypyc) is not installed: the pure-Python engine", file=sys.stderr)
        return []
    print("cardroom: compiling the engine with mypyc", file=sys.stderr)
    return list(mypycify(COMPILED, group_name="cardroom_engine"))


class BuildWithCatalogs(build_py):
    """The packages' build, which an editable install runs too, compiling the catalogs first."""

    def run(self) -> None:
        for mo in compile_catalogs():
            print(f"cardroom: compiled {mo.parent.parent.name}'s catalog", file=sys.stderr)
        super().run()


setup(ext_modules=extensions(), cmdclass={"build_py": BuildWithCatalogs})
