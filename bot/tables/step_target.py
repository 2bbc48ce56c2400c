"""Where a step control of a hand leads, in the form a custom_id carries it: the table, the
revision the view was drawn at, the indices chosen along the action's choice path, the page.

>>> target = StepTarget("t1", 4, (2, HERE), 1)
>>> target.id_part()
't1:4:2.x:1'
>>> StepTarget.parse(re.fullmatch(STEP, target.id_part())) == target
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.choices import HERE

Path = tuple[int, ...]


def path_text(path: Path) -> str:
    """The custom_id form of a step's indices (``2.0``; ``x`` for "ends here")."""
    return ".".join("x" if index == HERE else str(index) for index in path)


def parse_path(text: str) -> Path:
    """Read the custom_id form of a step's indices."""
    return tuple(HERE if part == "x" else int(part) for part in text.split(".") if part)


# a path is indices (or x, "ends here") joined by dots: whatever the template takes parses
INDEX = r"(?:\d+|x)"
STEP = rf"(?P<table>\w+):(?P<revision>\d+):(?P<path>(?:{INDEX}(?:\.{INDEX})*)?):(?P<page>\d+)"


@dataclass(frozen=True)
class StepTarget:
    """Where a step control leads: a table at a revision, the indices chosen, the page."""

    table_id: str
    revision: int
    path: Path
    page: int = 0

    @classmethod
    def parse(cls, match: re.Match[str]) -> StepTarget:
        """Read the ``STEP`` part of a custom_id."""
        path, page = parse_path(match["path"]), int(match["page"])
        return cls(match["table"], int(match["revision"]), path, page)

    def id_part(self) -> str:
        """The ``STEP`` part of a custom_id."""
        return f"{self.table_id}:{self.revision}:{path_text(self.path)}:{self.page}"
