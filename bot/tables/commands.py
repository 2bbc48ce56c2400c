"""``/game``: ``start <game>`` (one subcommand per registered game, with exactly that game's
options), ``hand``, ``leave``, ``stop``, ``rules`` and ``history``; ``setup`` adds the cog
and registers the tables' buttons, so clicks on old messages work after a restart.

The start subcommands are built from the registry when the bot starts: a new game's options
appear without code here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.answers import answers_user_errors
from bot.boards.pages import history_page
from bot.errors import UserError
from bot.tables.hand_view import (
    DeckButton,
    HandButton,
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
from bot.text import clip, flowing, suit_symbols
from bot.ui import GREY, Message, display_name, game_choices, layout, missing_permissions
from engine.core import Game, Option
from engine.registry import games

if TYPE_CHECKING:
    from bot.app import CardroomBot

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rules"
RULES_PART = 3900  # characters of rules text per message (Discord's limit: 4000 in all)
HOST_LEFT = (
    "You left the game; the AI plays your seat, and it counts as a loss for you. Only "
    "someone with Manage Server can stop a game without a result."
)
BUTTONS = (
    HandButton,
    RefreshButton,
    DeckButton,
    StepButton,
    StepSelect,
    LobbyButton,
    AiLevelButton,
    RematchButton,
)


async def setup(bot: CardroomBot) -> None:
    """Add the /game commands and the tables' buttons to the bot."""
    await bot.add_cog(GameCog(bot))
    bot.add_dynamic_items(*BUTTONS)


def rules_text(game_id: str) -> str:
    """The player-facing rules of a game (data/rules/<id>.md, or its blurb when missing), then
    its options in people's words."""
    game = games()[game_id]
    path = RULES_DIR / f"{game_id}.md"
    if path.is_file():
        text = path.read_text(encoding="utf-8").rstrip()
    else:
        text = f"# {game.name}\n\n{game.blurb}\n\n(The full rules text is not written yet.)"
    if not game.options:
        return text
    options = [
        f"- **{option.label}** — {option.description} (default {option.amount(option.default)})"
        for option in game.options
    ]
    heading = "## Table options\nThe host sets them when opening the table with /game start."
    return "\n\n".join([text, heading, "\n".join(options)])


def split_rules(text: str, limit: int = 4000) -> list[str]:
    """Rules text cut at paragraph breaks into pieces of at most ``limit`` characters."""
    pieces: list[str] = []
    current = ""
    for paragraph in text.split("\n\n"):
        candidate = f"{current}\n\n{paragraph}" if current else paragraph
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pieces.append(current)
        current = paragraph[:limit]
    if current:
        pieces.append(current)
    return pieces


def option_annotation(option: Option) -> Any:
    """The slash-command type of a game option (numbers with their allowed range)."""
    if option.kind is bool:
        return bool | None
    low = option.minimum if option.minimum is not None else -(2**53)
    high = option.maximum if option.maximum is not None else 2**53
    return app_commands.Range[int, low, high] | None


def start_command(game: Game) -> app_commands.Command[Any, ..., None]:
    """``/game start <game>`` with exactly the game's options, each optional (its default
    when left out)."""

    @answers_user_errors
    async def start(interaction: discord.Interaction, **options: Any) -> None:
        await open_lobby(interaction, game, options)

    kind = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    descriptions = {}
    for option in game.options:
        parameters.append(
            inspect.Parameter(option.name, kind, annotation=option_annotation(option), default=None)
        )
        default = option.amount(option.default)
        descriptions[option.name] = clip(f"{option.description} (default {default})", 100)
    # discord.py reads a callback's parameters from its signature: this one has the game's own
    start.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    start.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    return app_commands.Command(
        name=game.id, description=clip(f"Open a {game.name} table here", 100), callback=start
    )


async def open_lobby(interaction: discord.Interaction, game: Game, options: dict[str, Any]) -> None:
    """Open a lobby with the given options (the rest at their defaults)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("Start a game in a server channel.")
    missing = missing_permissions(interaction.app_permissions)
    if missing:
        raise UserError(
            "I cannot run a table in this channel: I need these permissions here: "
            f"{', '.join(missing)}. Ask an admin to grant them, or use another channel."
        )
    given = {name: value for name, value in options.items() if value is not None}
    service = _bot(interaction).tables
    lobby = await service.lobbies.open(
        interaction.guild_id,
        interaction.channel_id,
        interaction.user.id,
        display_name(interaction.user),
        game.id,
        given,
    )
    await post_lobby(interaction, service, lobby)


def _bot(interaction: discord.Interaction) -> CardroomBot:
    return cast("CardroomBot", interaction.client)


class GameCog(commands.Cog):
    """The /game command group."""

    def __init__(self, bot: CardroomBot) -> None:
        self.bot = bot
        self.group = self._build_group()

    async def cog_load(self) -> None:
        """Add the /game group (built from the registry) to the tree."""
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        """Remove the /game group."""
        self.bot.tree.remove_command(self.group.name)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel's lobby closes and its table ends."""
        self.bot.tables.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its lobbies close and its tables end."""
        self.bot.tables.guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """A member left the server (heard only with the members intent): the AI takes their
        seats at once."""
        self.bot.tables.member_left(payload.guild_id, payload.user.id)

    # The bot's permissions in a channel change with the channel's overwrites, its roles'
    # permissions and its own roles: after any of these, paused tables whose channel is open
    # to the bot again go on (read from the gateway's cache: no request to Discord). So do
    # the tables paused before a restart, once the servers are known (the cache filled).
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Every server's channels and roles are known (at the start, or after a reconnect)."""
        for guild in self.bot.guilds:
            self.resume_reachable(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server's channels and roles are known again (after its outage)."""
        self.resume_reachable(guild)

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel's overwrites may have changed."""
        self.resume_reachable(after.guild)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions may have changed."""
        self.resume_reachable(after.guild)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own roles may have changed."""
        if self.bot.user is not None and after.id == self.bot.user.id:
            self.resume_reachable(after.guild)

    def resume_reachable(self, guild: discord.Guild) -> None:
        """Resume the server's paused tables whose channel the bot may use again."""
        for session in self.bot.tables.paused_in(guild.id):
            channel = guild.get_channel(session.channel_id)
            if channel is None or guild.me is None:
                continue
            if not missing_permissions(channel.permissions_for(guild.me)):
                self.bot.tables.resume(session)

    def _build_group(self) -> app_commands.Group:
        group = app_commands.Group(
            name="game", description="Play card games in this channel", guild_only=True
        )
        start = app_commands.Group(
            name="start", description="Open a table for a game in this channel", parent=group
        )
        for game in list(games().values())[:25]:
            start.add_command(start_command(game))
        cog = self

        @answers_user_errors
        async def hand(interaction: discord.Interaction) -> None:
            await send_hand(interaction)

        @answers_user_errors
        async def leave(interaction: discord.Interaction) -> None:
            await cog.leave(interaction)

        @answers_user_errors
        async def stop(interaction: discord.Interaction) -> None:
            await cog.stop(interaction)

        @app_commands.describe(game="which game")
        @app_commands.choices(game=game_choices())
        @answers_user_errors
        async def rules(interaction: discord.Interaction, game: str) -> None:
            await cog.rules(interaction, game)

        @app_commands.describe(game="only this game")
        @app_commands.choices(game=game_choices())
        @answers_user_errors
        async def history(interaction: discord.Interaction, game: str | None = None) -> None:
            message = await history_page(interaction, game, 0)
            await interaction.response.send_message(
                allowed_mentions=discord.AllowedMentions.none(), **message.send_kwargs()
            )

        commands_: list[tuple[str, str, Callable[..., Coroutine[Any, Any, None]]]] = [
            ("hand", "See your hand and move (only you see it)", hand),
            ("leave", "Leave the game in this channel (the AI takes your seat)", leave),
            ("stop", "Stop the game in this channel (host or Manage Server)", stop),
            ("rules", "How to play a game", rules),
            ("history", "This server's last games and results", history),
        ]
        for name, description, callback in commands_:
            group.add_command(
                app_commands.Command(name=name, description=description, callback=callback)
            )
        return group

    # -- the commands ----------------------------------------------------------------------------
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the running game (the AI takes over) or the lobby."""
        service = self.bot.tables
        lobby = service.lobbies.in_channel(interaction.channel_id or 0)
        if lobby is not None:
            user_id = interaction.user.id
            await service.lobbies.change(lobby, lambda: lobby.leave(user_id))
            await edit_lobby(interaction.client, lobby, lobby_message(lobby))
            await interaction.response.send_message("You left the lobby.", ephemeral=True)
            return
        service.table_in(interaction.channel_id or 0)  # no game: answered before deferring
        await interaction.response.defer(ephemeral=True)
        await service.leave(interaction.channel_id or 0, interaction.user.id)
        await interaction.followup.send(
            "You left the game; the AI plays your seat from now on.", ephemeral=True
        )

    async def stop(self, interaction: discord.Interaction) -> None:
        """Stop the running game (host or Manage Server); a lobby is cancelled."""
        service = self.bot.tables
        may_manage = interaction.permissions.manage_guild
        lobby = service.lobbies.in_channel(interaction.channel_id or 0)
        if lobby is not None:
            if interaction.user.id != lobby.host_id and not may_manage:
                raise UserError("Only the host or someone with Manage Server can stop this.")
            service.lobbies.close(lobby)
            await edit_lobby(interaction.client, lobby, lobby_closed_message(lobby, "was closed"))
            await interaction.response.send_message("The lobby is closed.", ephemeral=True)
            return
        name = display_name(interaction.user)
        stopped = await service.stop(
            interaction.channel_id or 0, interaction.user.id, may_manage, name
        )
        answer = "The game is stopped." if stopped else HOST_LEFT
        await interaction.response.send_message(answer, ephemeral=True)

    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """The player-facing rules, privately, flowing to the reader's width (a message per
        part of at most Discord's 4000 characters)."""
        if game not in games():
            raise UserError(f"There is no game {game!r}.")
        pieces = split_rules(suit_symbols(flowing(rules_text(game))), RULES_PART)
        messages = [Message(layout(piece, colour=GREY)) for piece in pieces[:4]]
        await interaction.response.send_message(ephemeral=True, **messages[0].send_kwargs())
        for message in messages[1:]:
            await interaction.followup.send(ephemeral=True, **message.send_kwargs())
