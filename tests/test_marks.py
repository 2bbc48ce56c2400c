"""Every mark reaches the catalogs: Babel's extraction does not look inside an f-string's
braces, so ``f"**{_('Options')}**"`` leaves "Options" untranslated in every language. A
marked literal inside an f-string is refused here; mark it outside and join the pieces."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKERS = {"_", "N_", "ngettext", "command_name"}


def hidden_marks(source: str) -> list[int]:
    """The lines of ``source`` where a marker is called on a literal inside an f-string.

    >>> hidden_marks('x = f"**{_(\\'Options\\')}**"\\ny = _("Fine") + f"{_(name)}"')
    [1]
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Call)
                and isinstance(inner.func, ast.Name)
                and inner.func.id in MARKERS
                and any(isinstance(arg, ast.Constant) for arg in inner.args)
            ):
                lines.append(inner.lineno)
    return lines


def test_no_marked_literal_hides_inside_an_f_string() -> None:
    hidden = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("engine", "bot")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in hidden_marks(path.read_text(encoding="utf-8"))
    ]
    assert not hidden, "marked inside an f-string, so never extracted: " + ", ".join(hidden)
