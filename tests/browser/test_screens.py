"""``scripts/screens.py`` (a review tool) still saves screens with this simcord and chromium.

It reaches simcord's private capture hooks to use Debian's chromium and paint the light theme:
one lobby, shot in both themes, shows that those hooks still hold.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from tests.bot.helpers import answer, release

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "screens.py"


def load_script() -> ModuleType:
    """scripts/screens.py as a module (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location("screens", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["screens"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
async def test_a_screen_is_saved_in_each_theme(chromium: Path, tmp_path: Path) -> None:
    screens = load_script()
    browser = screens.Browser(str(chromium))
    index: list[str] = []
    with browser.installed():
        here = await screens.world(tmp_path, "fishing")
        people = [here.ann.member, here.bob.member, here.cara.member]
        widths = [("phone", 400)]  # a desktop width is the same capture, wider
        camera = screens.Camera(
            here.env, browser, tmp_path, ["dark", "light"], widths, index, people
        )
        try:
            lobby = answer(await here.ann.member.slash(here.channel, "game start fishing"))
            await camera.shoot("01-lobby", "the lobby", here.channel, here.ann.member, lobby)
        finally:
            await camera.close()
            await release(here.bot)
            await here.env.shutdown()
            await browser.close()
    assert index == [f"- `{tmp_path.name}/01-lobby` — the lobby (seen by ann)"]
    for theme in ("dark", "light"):
        for name, width in widths:
            with Image.open(tmp_path / f"01-lobby-{theme}-{name}.png") as shot:
                assert shot.width <= width and shot.height > 100
                # the page's background, left of the bot's avatar
                background = shot.convert("L").getpixel((2, shot.height // 2))
            assert isinstance(background, int)  # one grey level
            assert background < 80 if theme == "dark" else background > 200, (theme, name)
