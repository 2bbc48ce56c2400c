"""``create_bot(settings)``: the configured Cardroom bot (used by ``python -m bot`` and tests).

setup_hook opens storage (SQLite or PostgreSQL, migrated), claims the process's shards, builds
the table service and the ``Wiring`` the Discord-facing code uses, sets the command tree's
translator (``bot.languages``: every command in each Discord locale), sets up the features with it
(each adds its commands and registers its buttons, so clicks on old messages still work after a
restart), restores the running games of its shards' servers, takes the hand DM clicks that
the process of shard 0 hands on for its games (``ClickInbox``, when other processes run some
shards) and,
in the process that runs shard 0 only, syncs the slash commands to the dev guild when one is
set. Without a dev guild, commands are published only by the owner's ``@Cardroom sync``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import languages as language_commands
from bot import owner
from bot.answers import NOT_OURS, reply_private, report_error
from bot.boards import commands as board_commands
from bot.boards.ratings import Ratings
from bot.help import commands as help_commands
from bot.ops.metrics import RESTORE_SECONDS
from bot.ops.observe import Observer, http_trace
from bot.preferences import DeckStyles, Languages, TableThreads, TurnPings
from bot.replays.reviewing import Reviewer
from bot.settings import Settings
from bot.storage import Shards, Storage
from bot.tables import commands as table_commands
from bot.tables.anywhere import AnywherePresenter
from bot.tables.dm_clicks import ClickInbox, forwards_clicks
from bot.tables.open_hands import OpenHands
from bot.tables.service import TableService
from bot.tables.tokens import Anywhere
from bot.wiring import Wiring

log = logging.getLogger(__name__)

LOST_SHARDS_GRACE_SECONDS = 10.0  # for the lost games' channels to be told before stopping


class CardroomTree(app_commands.CommandTree["CardroomBot"]):
    """The command tree, with the central error answer."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """User-caused errors get a private answer; others are logged with an apology."""
        await report_error(interaction, error)


class CardroomBot(commands.AutoShardedBot):
    """The bot: it opens storage and builds the table service (closing both at the end) and
    the ``Wiring`` its features use. It runs the shards of ``SHARD_IDS`` (of ``SHARD_COUNT``)
    and drives only the games of their servers."""

    storage: Storage
    tables: TableService
    wiring: Wiring
    languages: Languages
    reviews: Reviewer
    observer: Observer

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # only to hear the owner's "@Cardroom sync"
        intents.dm_messages = True
        # privileged, so only when asked for: without it, a member who left the server is
        # found out when their turn runs out (bot.tables.timers)
        intents.members = settings.members_intent
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=CardroomTree,
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shards.count,
            shard_ids=list(settings.shards.ids),
            http_trace=http_trace(),  # Discord's 429s and 5xx, interactions answered
        )
        self.settings = settings
        self.restore_problems: list[str] = []
        self.lost_shards = False  # the hold on our shards was lost: the bot stops
        self._stopping: asyncio.Task[None] | None = None
        self.button_ids: list[re.Pattern[str]] = []  # the custom_id templates of our buttons
        self.buttons: list[type[discord.ui.DynamicItem[Any]]] = []  # and their classes
        self.click_inbox: ClickInbox | None = None  # hand DM clicks other processes hand on

    async def setup_hook(self) -> None:
        """Open storage, claim the shards, load the features, restore their games, sync to
        the dev guild (from the process of shard 0 only: one process syncs)."""
        shards = self.settings.shards
        self.storage = await Storage.open(
            self.settings.database_url,
            synchronous=self.settings.database_synchronous,
            pool_size=self.settings.database_pool_size,
            limits=self.settings.database_limits,
        )
        try:
            await self.storage.claim_shards(shards, self._shards_lost, self.settings.heartbeat)
        except BaseException:
            await self.storage.close()
            raise
        ratings = Ratings(self.storage.results)
        deck_styles = await DeckStyles.load(self.storage.preferences)
        turn_pings = await TurnPings.load(self.storage.preferences)
        table_threads = await TableThreads.load(
            self.storage.preferences, self.settings.table_threads
        )
        languages = self.languages = await Languages.load(self.storage.preferences)
        clock = discord.utils.utcnow
        open_hands = OpenHands(clock)
        anywhere = await Anywhere.load(self.storage.anywhere, clock)
        presenter = AnywherePresenter(anywhere, self, self.settings, clock, deck_styles, open_hands)
        self.tables = TableService(
            self.settings,
            self.storage,
            presenter,
            clock=clock,
            on_result=ratings.refresh,  # the scoreboard is ready before anyone asks
            turn_pings=turn_pings,
        )
        self.reviews = Reviewer(self.settings, self.storage, clock, self.tables.ai.quiet)
        self.wiring = Wiring(
            self.tables,
            open_hands,
            deck_styles,
            turn_pings,
            self.storage.results,
            ratings,
            self.reviews,
            table_threads,
            languages,
            anywhere,
        )
        # every command's name, description and choices in each Discord locale
        await self.tree.set_translator(language_commands.CatalogTranslator())
        await table_commands.setup(self, self.wiring)
        await board_commands.setup(self, self.wiring)
        await help_commands.setup(self, self.wiring)
        await language_commands.setup(self, languages)
        await owner.setup(self)
        self.tables.resting.update(anywhere.resting())
        with RESTORE_SECONDS.time():
            self.restore_problems = await self.tables.restore(languages.of_server, shards)
        anywhere.attach(self.tables)
        for problem in self.restore_problems:
            log.warning("could not restore a saved game: %s", problem)
        self.tables.spawn(ratings.warm(), "ratings-warm")  # cancelled by tables.close()
        if forwards_clicks(shards):
            self.click_inbox = ClickInbox(
                self,
                self.storage,
                shards,
                self.settings.forwarded_click_poll_seconds,
                lambda: self.buttons,
                self.tables.spawn,
            )
            self.click_inbox.start()
        if self.settings.dev_guild_id is not None and 0 in shards.ids:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        self.observer = await Observer.start(self)

    def _shards_lost(self, shards: Shards) -> None:
        """Another process holds our shards now (it took them while our lock connection was
        down: a drop or a database restart alone is ridden out by the storage, which takes them
        again): their games stop here, and the bot stops once their channels are told (its
        supervisor, e.g. systemd, starts it again, and it claims its shards anew)."""
        log.error("lost %s: their games stop here, and so does this process", shards)
        self.lost_shards = True
        if hasattr(self, "tables"):
            self.tables.shards_lost(shards)
        self._stopping = asyncio.get_running_loop().create_task(self._stop_soon())

    async def _stop_soon(self) -> None:
        await asyncio.sleep(LOST_SHARDS_GRACE_SECONDS)
        await self.close()

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register the features' buttons, noting their custom_id templates."""
        super().add_dynamic_items(*items)
        self.buttons += items
        self.button_ids += [item.__discord_ui_compiled_template__ for item in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a button none of our classes reads (another app's, or a custom_id
        damaged on the way) gets a plain answer instead of Discord's "interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data = cast("dict[str, Any]", interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not any(template.fullmatch(custom_id) for template in self.button_ids):
            await reply_private(interaction, NOT_OURS)

    async def close(self) -> None:
        """Stop timers, the metrics server and storage."""
        if hasattr(self, "observer"):
            await self.observer.close()
        if self.click_inbox is not None:
            await self.click_inbox.close()
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "reviews"):
            self.reviews.close()
        if hasattr(self, "storage"):
            await self.storage.close()
        await super().close()


def create_bot(settings: Settings) -> CardroomBot:
    """The configured bot; call ``start``/``run`` with the token, or hand it to simcord."""
    return CardroomBot(settings)
