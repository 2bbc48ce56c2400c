"""The lock files ``./run`` installs from (``requirements/*.txt``, installed with ``--no-deps``)
pin every dependency pyproject.toml names, at a version its range allows: a dependency added
to pyproject without ``./run lock`` would otherwise be missing from every fresh install."""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]


def pins(text: str) -> dict[str, str]:
    """The ``name==version`` lines of a pip-compile lock, by canonical name.

    >>> pins("aiohttp==3.14.5 \\\\\\n    --hash=sha256:00\\nPillow==12.0 \\\\")
    {'aiohttp': '3.14.5', 'pillow': '12.0'}
    """
    found = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", text, flags=re.MULTILINE)
    return {canonicalize_name(name): version for name, version in found}


def unpinned(requirements: list[str], lock: str) -> list[str]:
    """The requirements a lock leaves out or pins outside their range."""
    pinned = pins(lock)
    missing = []
    for line in requirements:
        requirement = Requirement(line)
        version = pinned.get(canonicalize_name(requirement.name))
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            missing.append(f"{line} (locked: {version})")
    return missing


@pytest.mark.parametrize(
    ("lock", "groups"),
    [("runtime.txt", ()), ("dev.txt", ("dev", "sentry"))],
)
def test_each_lock_pins_what_pyproject_names(lock: str, groups: tuple[str, ...]) -> None:
    requirements = list(PROJECT["dependencies"])
    for group in groups:
        requirements += PROJECT["optional-dependencies"][group]
    text = (ROOT / "requirements" / lock).read_text("utf-8")
    assert unpinned(requirements, text) == [], f"run ./run lock: requirements/{lock} is stale"


def test_a_dependency_the_lock_lacks_is_found() -> None:
    lock = "pillow==12.0 \\\n    --hash=sha256:00\n"
    assert unpinned(["Pillow>=10.3", "filelock>=3.20.1"], lock) == [
        "filelock>=3.20.1 (locked: None)"
    ]
    assert unpinned(["Pillow>=13"], lock) == ["Pillow>=13 (locked: 12.0)"]
