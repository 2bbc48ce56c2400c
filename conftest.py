"""What pytest collects across the tree: the engine's doctests live in its modules."""

from __future__ import annotations

from pathlib import Path

import engine


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Leave out the doctests of an engine module that runs compiled: imported, it is not the
    source file they are read from. ``./run test`` runs them on the pure build."""
    compiled_beside = any(collection_path.parent.glob(f"{collection_path.stem}.*.so"))
    if collection_path.suffix == ".py" and compiled_beside and engine.compiled():
        return True
    return None
