"""``Wiring``: what the Discord-facing code (commands, buttons) uses, built once by
``bot.app`` and handed to each feature's ``setup``, which gives it to its cogs and binds its
button classes to it (``wired``). Nothing reaches these through ``interaction.client``.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import discord

if TYPE_CHECKING:
    from bot.boards.ratings import Ratings
    from bot.preferences import DeckStyles, Languages, TableThreads, TurnPings
    from bot.replays.reviewing import Reviewer
    from bot.storage import Results
    from bot.tables.open_hands import OpenHands
    from bot.tables.service import TableService
    from bot.tables.tokens import Anywhere


@dataclass(eq=False)
class Wiring:
    """The bot's parts a command or a click uses: the running tables (and their lobbies),
    the private Hand views open now, each person's deck style and turn ping, the finished
    games' results and ratings, the move reviews of their replays, whether each server's
    tables play in threads, the languages people and servers chose, and the tokens of tables
    where the bot is not a member."""

    tables: TableService
    open_hands: OpenHands
    deck_styles: DeckStyles
    turn_pings: TurnPings
    results: Results
    ratings: Ratings
    reviews: Reviewer
    table_threads: TableThreads
    languages: Languages
    anywhere: Anywhere


class UsesWiring:
    """A button or select whose clicks use the ``Wiring``: the class a bot registers is
    ``wired`` to it; the class itself only draws (a message's buttons need no wiring)."""

    wiring: ClassVar[Wiring]


Item = TypeVar("Item", bound=discord.ui.DynamicItem[Any])


def wired(item: type[Item], wiring: Wiring) -> type[Item]:
    """``item``'s class bound to ``wiring``, to register with ``add_dynamic_items``: a
    subclass with the same name and custom_id template, whose clicks read ``self.wiring``.

    One subclass per bot, so two bots in one process (tests, the demo) never share parts;
    the messages' buttons are the plain class (sent views are never stored, so a click
    always reaches the registered one)."""
    template = item.__discord_ui_compiled_template__
    subclass = types.new_class(
        item.__name__,
        (item,),
        {"template": template},
        lambda namespace: namespace.update(wiring=wiring, __module__=item.__module__),
    )
    assert issubclass(subclass, item)
    return subclass
