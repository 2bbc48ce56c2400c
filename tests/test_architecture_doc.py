"""docs/architecture.md's layer list is the layers contract of pyproject.toml, layer by layer,
so the picture a newcomer reads is the one ``lint-imports`` holds the code to."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


BOT_LAYERS = "Discord-facing code, then sessions and services, then storage"
"""The bot's layers contract (the games' packages have layers contracts of their own)."""


def contract_layers() -> list[set[str]]:
    """The modules of each layer of pyproject's bot layers contract, top first."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == BOT_LAYERS
    ]
    return [{name.strip() for name in layer.split("|")} for layer in contract["layers"]]


def documented_layers(text: str) -> list[set[str]]:
    """The modules of each line of the layer list (the code block under "## The layers"),
    top first; a line's comment (after two spaces or more) and the divider are left out."""
    section = text.split("## The layers", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.DOTALL)
    assert block is not None, 'no layer list under "## The layers"'
    layers = []
    for line in block[1].splitlines():
        if not line.strip() or line.startswith("-"):
            continue
        modules = re.split(r"\s{2,}", line.strip())[0]
        layers.append({name.strip() for name in modules.split("|")})
    return layers


def test_the_documented_layers_are_the_contract() -> None:
    documented = documented_layers((ROOT / "docs" / "architecture.md").read_text("utf-8"))
    assert documented == contract_layers()


def test_a_layer_left_out_of_the_doc_is_found() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    without_snapshot = re.sub(r"^bot\.tables\.snapshot\b.*\n", "", text, flags=re.MULTILINE)
    assert without_snapshot != text
    assert documented_layers(without_snapshot) != contract_layers()
