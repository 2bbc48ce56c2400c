"""Cardroom's card games: pure, synchronous and deterministic (no Discord, no I/O, no asyncio).

The engine runs compiled (its rules built into C extensions by mypyc, see setup.py) or as
Python source; both play the same games. The compiled modules sit beside their source, and an
import prefers them, except that the source is imported instead

- when ``CARDROOM_PURE`` is set (to run the pure-Python engine where a compiled one is
  installed: the tests of both builds), or
- when a source file changed after it was compiled (a warning says so: ``./run build``
  compiles again), so that a stale build never runs in place of edited rules.
"""

from __future__ import annotations

import os
import sys
import warnings
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader
from pathlib import Path

PURE_VARIABLE = "CARDROOM_PURE"


def package_folders(root: str) -> list[str]:
    """The engine's package folders under ``root`` (itself and every folder with an
    ``__init__.py``), so that a game grown into a package is found like a module."""
    return [str(init.parent) for init in sorted(Path(root).rglob("__init__.py"))]


def compiled() -> bool:
    """Whether the engine's rules run compiled (mypyc) rather than from their Python source."""
    from engine.core import game  # a module of the rules (a package's __init__ stays source)

    return not game.__file__.endswith(".py")


def stale_builds(root: Path) -> list[Path]:
    """The compiled modules under ``root`` whose Python source changed after they were built."""
    stale = []
    for built in sorted(root.rglob("*.so")):
        source = built.with_name(built.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            stale.append(built)
    return stale


def import_source(root: str) -> None:
    """Make the engine's modules import from their Python source, although compiled ones sit
    beside them: each package folder gets a finder that knows only source files."""
    for folder in package_folders(root):
        sys.path_importer_cache[folder] = FileFinder(folder, (SourceFileLoader, SOURCE_SUFFIXES))


def _choose_build() -> None:
    """The source instead of the compiled modules when asked to, or when they are stale."""
    root = __path__[0]
    if os.environ.get(PURE_VARIABLE):
        import_source(root)
        return
    stale = stale_builds(Path(root))
    if stale:
        names = ", ".join(built.name.split(".")[0] for built in stale)
        warnings.warn(
            f"the compiled engine is older than its source (changed: {names}): running the"
            " source; ./run build compiles it again",
            stacklevel=2,
        )
        import_source(root)


_choose_build()
