"""Card pictures: any game's layout (engine.layout) drawn as one PNG with Pillow.

Pure drawing, no Discord: ``PictureCache.picture(game.layout(view), names)`` gives a
``Picture`` (PNG bytes, alt text listing every card shown, a file name made from the content).
Nothing here knows a game; what to draw comes from the game's layout of a view, so a picture
shows a seat only what that seat's view holds. Suits are drawn as shapes, not font glyphs.
"""

from bot.pictures.draw import ALT_TEXT_LIMIT, Picture, PictureCache, render
from bot.pictures.faces import DeckStyle

__all__ = ["ALT_TEXT_LIMIT", "DeckStyle", "Picture", "PictureCache", "render"]
