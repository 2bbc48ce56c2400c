"""The repository's rules document keeps up with the games: one file per registered game,
listed in the index, naming every option, pointed at by the game module; and nothing refers
to rule texts outside the repository."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.registry import games

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_game_has_its_rules_file_listed_and_pointed_at(game_id: str) -> None:
    game = games()[game_id]
    text = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
    assert f"(`{game_id}`)" in text.splitlines()[0]
    for option in game.options:
        assert f"`{option.name}`" in text, f"{game_id}: option {option.name} is not described"
    assert f"[{game_id}.md]({game_id}.md)" in (RULES / "README.md").read_text(encoding="utf-8")
    # the source's docstring (a module's, or a package's __init__): mypyc keeps none
    source = ROOT / "engine" / "games" / f"{game_id}.py"
    if not source.exists():
        source = ROOT / "engine" / "games" / game_id / "__init__.py"
    docstring = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8")))
    assert f"docs/rules/{game_id}.md" in (docstring or "")


def test_nothing_points_outside_the_repository() -> None:
    outside = ("../shared", "RULES.md", "DESIGN.md")
    paths = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md"]
    for folder in ("engine", "bot", "data", "docs"):
        paths += (ROOT / folder).rglob("*")
    for path in paths:
        if path.suffix in (".py", ".md", ".sql"):
            text = path.read_text(encoding="utf-8")
            found = [word for word in outside if word in text]
            assert not found, f"{path.relative_to(ROOT)} mentions {found}"
