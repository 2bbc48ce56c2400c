"""``/game``: ``start <game>`` (one subcommand per registered game, with exactly that game's
options), ``hand``, ``leave``, ``stop``, ``rules``, ``history``, ``replay`` (``bot.replays``)
and ``pings`` (how you are told it is your turn); ``/cardroom settings`` (Manage Server: the
server's defaults); ``setup`` adds the cog and registers the tables' buttons, so clicks on old
messages work after a restart.

The start subcommands are built from the registry when the bot starts: a new game's options
appear without code here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answers_user_errors, clicker_language, public_language
from bot.boards.pages import history_page
from bot.errors import UserError
from bot.help.rules import send_rules
from bot.i18n import command_name, private_language
from bot.languages import composed, server_language_command
from bot.preferences import PingKind, TurnPing
from bot.replays import commands as replays
from bot.tables.anywhere import BringBackButton
from bot.tables.hand_view import (
    DeckButton,
    HandButton,
    PickSelect,
    RefreshButton,
    StepButton,
    StepSelect,
    send_hand,
)
from bot.tables.lobby_view import (
    AiLevelButton,
    LobbyButton,
    RematchButton,
    edit_lobby,
    lobby_closed_message,
    lobby_message,
    post_lobby,
)
from bot.tables.session import TableSession
from bot.tables.table_view import NextRoundButton
from bot.tables.tokens import board_of, bot_absent
from bot.ui import (
    CHANNEL_PERMISSIONS,
    TABLE_THREAD_PERMISSIONS,
    THREAD_PERMISSIONS,
    display_name,
    game_choices,
    in_a_thread,
    missing_permissions,
    permission_list,
)
from bot.wiring import Wiring, wired
from engine.core import Event, Game, Option
from engine.registry import games
from engine.words import N_, _

HOST_LEFT = N_(
    "You left the game; the AI plays your seat, and it counts as a loss for you. Only "
    "someone with Manage Server can stop a game without a result."
)
NO_THREADS = N_(
    "This table will play in this channel, one table at a time: I may not open threads here. "
    "Give me {permissions} in this channel and each table gets a thread of its own, so that "
    "several can play here at once."
)
CLOSED = Event(N_("This lobby was closed."), "closed")
BUTTONS = (
    HandButton,
    NextRoundButton,
    RefreshButton,
    DeckButton,
    StepButton,
    StepSelect,
    PickSelect,
    LobbyButton,
    AiLevelButton,
    RematchButton,
    BringBackButton,
    *replays.BUTTONS,
)
# Where the app may be installed and used: a server, or a person's own install, which works
# in their DMs and group DMs and in servers that never invited the bot
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
EVERY_PLACE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)

# How a person may be told it is their turn (/game pings, and a server's default)
PINGS = {
    "now": TurnPing(PingKind.NOW),
    "30s": TurnPing(PingKind.LATER, 30),
    "2min": TurnPing(PingKind.LATER, 120),
    "dm": TurnPing(PingKind.DM),
    "never": TurnPing(PingKind.NEVER),
}
# The turn times a host may choose when opening a table (else the server's TURN_SECONDS)
TURN_TIMES = {"quick": 30, "normal": 120, "relaxed": 600, "post": 86_400}
TURN_TIME_CHOICES = [
    app_commands.Choice(name=N_("Quick: 30 seconds a turn"), value="quick"),
    app_commands.Choice(name=N_("Normal: 2 minutes a turn"), value="normal"),
    app_commands.Choice(name=N_("Relaxed: 10 minutes a turn"), value="relaxed"),
    app_commands.Choice(name=N_("Play by post: 24 hours a turn"), value="post"),
]
PING_CHOICES = [
    app_commands.Choice(name=N_("Mention me when my turn begins"), value="now"),
    app_commands.Choice(name=N_("Mention me after 30 seconds if I have not moved"), value="30s"),
    app_commands.Choice(name=N_("Mention me after 2 minutes if I have not moved"), value="2min"),
    app_commands.Choice(name=N_("Send me a new direct message instead"), value="dm"),
    app_commands.Choice(name=N_("Never ping me"), value="never"),
]


async def setup(bot: commands.AutoShardedBot, wiring: Wiring) -> None:
    """Add the /game commands and the tables' buttons (bound to ``wiring``) to the bot."""
    await bot.add_cog(GameCog(bot, wiring))
    bot.add_dynamic_items(*(wired(item, wiring) for item in BUTTONS))


def option_annotation(option: Option) -> Any:
    """The slash-command type of a game option (numbers with their allowed range)."""
    if option.kind is bool:
        return bool | None
    low = option.minimum if option.minimum is not None else -(2**53)
    high = option.maximum if option.maximum is not None else 2**53
    return app_commands.Range[int, low, high] | None


def option_description(option: Option) -> str:
    """An option's description in the slash command, with its default, in the active
    language."""
    return _("{description} (default {amount})").format(
        description=_(option.description), amount=option.amount(option.default)
    )


def start_command(game: Game, wiring: Wiring) -> app_commands.Command[Any, ..., None]:
    """``/game start <game>`` with exactly the game's options, each optional (its default
    when left out)."""

    @answers_user_errors
    async def start(
        interaction: discord.Interaction, turn_time: str | None = None, **options: Any
    ) -> None:
        turn_seconds = None if turn_time is None else TURN_TIMES[turn_time]
        await open_lobby(interaction, wiring, game, options, turn_seconds)

    kind = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    parameters.append(inspect.Parameter("turn_time", kind, annotation=str | None, default=None))
    descriptions: dict[str, str | app_commands.locale_str] = {
        "turn_time": N_("How long each turn may take (default: the server's)")
    }
    for option in game.options:
        parameters.append(
            inspect.Parameter(option.name, kind, annotation=option_annotation(option), default=None)
        )
        descriptions[option.name] = composed(partial(option_description, option))
    # discord.py reads a callback's parameters from its signature: this one has the game's own
    start.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    start.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    start.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        "turn_time": TURN_TIME_CHOICES
    }
    return app_commands.Command(name=game.id, description=game.pitch, callback=start)


async def open_lobby(
    interaction: discord.Interaction,
    wiring: Wiring,
    game: Game,
    options: dict[str, Any],
    turn_seconds: int | None = None,
) -> None:
    """Open a lobby with the given options (the rest at their defaults) and turn time
    (None: the server's)."""
    if interaction.channel_id is None:
        raise UserError(_("Start a game in a channel or a conversation."))
    absent = bot_absent(interaction)  # the table then lives on interaction answers
    missing = [] if absent else missing_permissions(interaction.app_permissions)
    if missing:
        raise UserError(
            _(
                "I cannot run a table in this channel: I need these permissions here: "
                "{permissions}. Ask an admin to grant them, or use another channel."
            ).format(permissions=", ".join(_(name) for name in missing))
        )
    given = {name: value for name, value in options.items() if value is not None}
    service = wiring.tables
    lobby = await service.lobbies.open(
        board_of(interaction),
        interaction.channel_id,
        interaction.user.id,
        display_name(interaction.user),
        game.id,
        given,
        turn_seconds,
        language=public_language(interaction),
        host_language=clicker_language(interaction),
    )
    await post_lobby(interaction, service, lobby)
    if absent or interaction.guild_id is None:
        return
    if wiring.table_threads.enabled(interaction.guild_id) and not in_a_thread(interaction):
        missing = missing_permissions(interaction.app_permissions, THREAD_PERMISSIONS)
        if missing:  # only the host is told: the others need not read about permissions
            names = permission_list(missing)
            await interaction.followup.send(_(NO_THREADS).format(permissions=names), ephemeral=True)


class GameCog(commands.Cog):
    """The /game command group, and the gateway events that end, pause or resume tables."""

    def __init__(self, bot: commands.AutoShardedBot, wiring: Wiring) -> None:
        self.bot = bot
        self.tables = wiring.tables
        self.wiring = wiring
        self.group = self._build_group()

    async def cog_load(self) -> None:
        """Add the /game group (built from the registry) and /cardroom to the tree."""
        self.bot.tree.add_command(self.group)
        self.bot.tree.add_command(self._build_settings())

    async def cog_unload(self) -> None:
        """Remove the /game and /cardroom groups."""
        self.bot.tree.remove_command(self.group.name)
        self.bot.tree.remove_command("cardroom")

    def _build_settings(self) -> app_commands.Group:
        group = app_commands.Group(
            name=command_name("cardroom"),
            description=N_("Cardroom's settings for this server"),
            guild_only=True,
            default_permissions=discord.Permissions(manage_guild=True),
        )
        cog = self

        @app_commands.describe(
            turn_pings=N_("how people who never chose are told it is their turn"),
            threads=N_("whether each table plays in a thread of its own (where I may open one)"),
        )
        @app_commands.choices(turn_pings=PING_CHOICES)
        @answers_user_errors
        async def settings(
            interaction: discord.Interaction,
            turn_pings: str | None = None,
            threads: bool | None = None,
        ) -> None:
            await cog.server_settings(interaction, turn_pings, threads)

        group.add_command(
            app_commands.Command(
                name=command_name("settings"),
                description=N_("See or change this server's defaults (Manage Server)"),
                callback=settings,
            )
        )
        group.add_command(server_language_command(cog.wiring.languages))
        return group

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Where the bot is not a member, every interaction's token may show the channel's
        table for 15 minutes (``bot.tables.tokens``)."""
        if bot_absent(interaction):
            self.wiring.anywhere.noted(interaction)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel's lobby closes and its table ends."""
        self.tables.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread's table ends, as a deleted channel's does."""
        self.tables.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its lobbies close and its tables end."""
        self.tables.guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server (heard only with the members intent): the AI takes their
        seats at once."""
        self.tables.member_left(payload.guild_id, payload.user.id)

    # The bot's permissions in a channel change with the channel's overwrites, its roles'
    # permissions and its own roles: after any of these, paused tables whose channel is open
    # to the bot again go on (read from the gateway's cache: no request to Discord). So do
    # the tables paused before a restart, once the servers are known (the cache filled).
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Every server's channels and roles are known (at the start, or after a reconnect)."""
        for guild in self.bot.guilds:
            self.resume_reachable(guild)

    # While a shard's gateway is down no click of its servers arrives: the clocks of their
    # tables stop, and every waiting person gets a whole new turn once it is back.
    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        """The shard's gateway connection dropped."""
        self.tables.shard_disconnected(shard_id)

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        """The shard's gateway connection is back, its session resumed."""
        self.tables.shard_back(shard_id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        """The shard's gateway connection is back with a new session (its servers known)."""
        self.tables.shard_back(shard_id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server's channels and roles are known again (after its outage)."""
        self.resume_reachable(guild)

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel's overwrites may have changed (a category's: those of the channels
        synced with it too); only their tables (and those in their threads) are looked at."""
        channels = (
            [after, *after.channels] if isinstance(after, discord.CategoryChannel) else [after]
        )
        self.resume_reachable(after.guild, self.tables.paused_in_channels(c.id for c in channels))

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions may have changed."""
        self.resume_reachable(after.guild)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own roles may have changed."""
        if self.bot.user is not None and after.id == self.bot.user.id:
            self.resume_reachable(after.guild)

    def resume_reachable(
        self, guild: discord.Guild, paused: Sequence[TableSession] | None = None
    ) -> None:
        """Resume the server's paused tables (or those of ``paused``) whose channel the bot
        may use again."""
        for session in self.tables.paused_in(guild.id) if paused is None else paused:
            channel = guild.get_channel_or_thread(session.channel_id)
            if channel is None or guild.me is None:
                continue
            thread = isinstance(channel, discord.Thread)
            needed = TABLE_THREAD_PERMISSIONS if thread else CHANNEL_PERMISSIONS
            if not missing_permissions(channel.permissions_for(guild.me), needed):
                self.tables.resume(session)

    def _build_group(self) -> app_commands.Group:
        group = app_commands.Group(
            name=command_name("game"),
            description=N_("Play card games in this channel"),
            allowed_installs=EVERY_INSTALL,
            allowed_contexts=EVERY_PLACE,
        )
        start = app_commands.Group(
            name=command_name("start"),
            description=N_("Open a table for a game in this channel"),
            parent=group,
        )
        for game in list(games().values())[:25]:
            start.add_command(start_command(game, self.wiring))
        cog = self

        @answers_user_errors
        async def hand(interaction: discord.Interaction) -> None:
            await send_hand(interaction, cog.wiring)

        @answers_user_errors
        async def leave(interaction: discord.Interaction) -> None:
            await cog.leave(interaction)

        @answers_user_errors
        async def stop(interaction: discord.Interaction) -> None:
            await cog.stop(interaction)

        @app_commands.describe(game=N_("which game"))
        @app_commands.choices(game=game_choices())
        @answers_user_errors
        async def rules(interaction: discord.Interaction, game: str) -> None:
            await cog.rules(interaction, game)

        @app_commands.describe(game=N_("only this game"))
        @app_commands.choices(game=game_choices())
        @answers_user_errors
        async def history(interaction: discord.Interaction, game: str | None = None) -> None:
            message = await history_page(interaction, cog.wiring, game, 0)
            await interaction.response.send_message(
                allowed_mentions=discord.AllowedMentions.none(), **message.send_kwargs()
            )

        @app_commands.describe(table=N_("the table id, as /game history shows it"))
        @answers_user_errors
        async def replay(interaction: discord.Interaction, table: str) -> None:
            await replays.replay(cog.wiring, interaction, table)

        @app_commands.describe(when=N_("how you are told it is your turn (leave out to see it)"))
        @app_commands.choices(when=PING_CHOICES)
        @answers_user_errors
        async def pings(interaction: discord.Interaction, when: str | None = None) -> None:
            await cog.pings(interaction, when)

        commands_: list[tuple[str, str, Callable[..., Coroutine[Any, Any, None]]]] = [
            (command_name("hand"), N_("See your hand and move (only you see it)"), hand),
            (
                command_name("leave"),
                N_("Leave the game in this channel (the AI takes your seat)"),
                leave,
            ),
            (
                command_name("stop"),
                N_("Stop the game in this channel (host or Manage Server)"),
                stop,
            ),
            (command_name("rules"), N_("How to play a game"), rules),
            (command_name("history"), N_("This server's last games and results"), history),
            (
                command_name("replay"),
                N_("Step through a finished game, every card face up"),
                replay,
            ),
            (
                command_name("pings"),
                N_("How you are told it is your turn (only you see it)"),
                pings,
            ),
        ]
        for name, description, callback in commands_:
            group.add_command(
                app_commands.Command(name=name, description=description, callback=callback)
            )
        return group

    # -- the commands ----------------------------------------------------------------------------
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the running game (the AI takes over) or the lobby."""
        service = self.tables
        user_id = interaction.user.id
        lobby = service.lobbies.in_channel(interaction.channel_id or 0)
        # the lobby they sit in; else their table (here, or in a thread of this channel)
        if lobby is not None and lobby.seat_of(user_id) is not None:
            await service.lobbies.change(lobby, lambda: lobby.leave(user_id))
            refused = await edit_lobby(interaction, lobby, lobby_message(lobby))
            await interaction.response.send_message(
                "\n".join(filter(None, [_("You left the lobby."), refused])), ephemeral=True
            )
            return
        # no game: answered before deferring
        service.table_in(interaction.channel_id or 0, interaction.user.id)
        await interaction.response.defer(ephemeral=True)
        await service.leave(interaction.channel_id or 0, interaction.user.id)
        await interaction.followup.send(
            _("You left the game; the AI plays your seat from now on."), ephemeral=True
        )

    async def stop(self, interaction: discord.Interaction) -> None:
        """Stop the running game (host or Manage Server); a lobby is cancelled."""
        service = self.tables
        may_manage = interaction.permissions.manage_guild
        lobby = service.lobbies.in_channel(interaction.channel_id or 0)
        if lobby is not None:
            if interaction.user.id != lobby.host_id and not may_manage:
                raise UserError(_("Only the host or someone with Manage Server can stop this."))
            service.lobbies.close(lobby)
            refused = await edit_lobby(interaction, lobby, lobby_closed_message(lobby, CLOSED))
            await interaction.response.send_message(
                "\n".join(filter(None, [_("The lobby is closed."), refused])), ephemeral=True
            )
            return
        name = display_name(interaction.user)
        stopped = await service.stop(
            interaction.channel_id or 0, interaction.user.id, may_manage, name
        )
        answer = _("The game is stopped.") if stopped else _(HOST_LEFT)
        await interaction.response.send_message(answer, ephemeral=True)

    async def pings(self, interaction: discord.Interaction, when: str | None) -> None:
        """Show, or change, how the person is told it is their turn (privately)."""
        pings = self.wiring.turn_pings
        if when is not None:
            await pings.choose(interaction.user.id, PINGS[when])
        ping = pings.of(interaction.guild_id or 0, interaction.user.id)
        said = (
            _("From now on you get {pings}. Change it with `/game pings`.")
            if when is not None
            else _("When it is your turn you get {pings}. Change it with `/game pings`.")
        )
        await interaction.response.send_message(said.format(pings=ping.words), ephemeral=True)

    async def server_settings(
        self, interaction: discord.Interaction, pings: str | None, threads: bool | None
    ) -> None:
        """Show, or change, the server's defaults (Manage Server: Discord checks it first;
        checked again here, since a server may hand the command to anyone)."""
        if not interaction.permissions.manage_guild:
            raise UserError(_("Only someone with Manage Server can change Cardroom's settings."))
        guild_id = interaction.guild_id or 0
        turn_pings = self.wiring.turn_pings
        table_threads = self.wiring.table_threads
        if pings is not None:
            await turn_pings.choose_default(guild_id, PINGS[pings])
        if threads is not None:
            await table_threads.choose(guild_id, threads)
        ping = turn_pings.server_default(guild_id)
        where = (
            _(
                "Tables play each in a thread of its own, where I may open threads (else in the "
                "channel)."
            )
            if table_threads.enabled(guild_id)
            else _("Tables play in the channel where their lobby was, one table a channel.")
        )
        pings_said = _(
            "Turn pings on this server: {pings}, unless a person chose otherwise with "
            "`/game pings`."
        ).format(pings=ping.words)
        await interaction.response.send_message(f"{pings_said}\n{where}", ephemeral=True)

    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """The player-facing rules, privately."""
        languages = self.wiring.languages
        language = private_language(languages, interaction.user.id, str(interaction.locale))
        await send_rules(interaction, game, language)
