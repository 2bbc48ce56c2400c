"""``/game``: start (a lobby with the game's options), hand, leave, stop, rules, history.

``/game start`` gets one optional parameter per game option found in the registry (target,
multi_capture, rounds, …), built when the bot starts, so a new game's options appear without
code here; an option the chosen game does not have is refused in plain language.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError, answers_user_errors
from bot.render.messages import hand_message, lobby_message
from bot.render.text import clip, red_suits
from bot.ui.boards import history_page
from bot.ui.routes import display_name
from engine.core import Option
from engine.registry import games

if TYPE_CHECKING:
    from bot.app import CardroomBot

RULES_DIR = Path(__file__).resolve().parents[2] / "data" / "rules"


def option_specs() -> dict[str, Option]:
    """Every option name across the registered games (the first game's spec names it)."""
    specs: dict[str, Option] = {}
    for game in games().values():
        for option in game.options:
            specs.setdefault(option.name, option)
    return specs


def option_owners() -> dict[str, list[str]]:
    """Which games have each option."""
    owners: dict[str, list[str]] = {}
    for game in games().values():
        for option in game.options:
            owners.setdefault(option.name, []).append(game.id)
    return owners


def game_choices() -> list[app_commands.Choice[str]]:
    """The registered games as slash-command choices."""
    return [app_commands.Choice(name=game.name, value=game.id) for game in games().values()][:25]


def rules_text(game_id: str) -> str:
    """The player-facing rules of a game (data/rules/<id>.md), or its blurb when missing."""
    path = RULES_DIR / f"{game_id}.md"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    game = games()[game_id]
    return f"# {game.name}\n\n{game.blurb}\n\n(The full rules text is not written yet.)"


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


class GameCog(commands.Cog):
    """The /game command group."""

    def __init__(self, bot: CardroomBot) -> None:
        self.bot = bot
        self.group = self._build_group()

    async def cog_load(self) -> None:
        """Add the dynamically built /game group to the tree."""
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        """Remove the /game group."""
        self.bot.tree.remove_command(self.group.name)

    def _build_group(self) -> app_commands.Group:
        group = app_commands.Group(
            name="game", description="Play card games in this channel", guild_only=True
        )
        group.add_command(self._start_command())
        cog = self

        @answers_user_errors
        async def hand(interaction: discord.Interaction) -> None:
            await cog.hand(interaction)

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

        commands_: list[app_commands.Command[Any, ..., None]] = [
            app_commands.Command(
                name="hand", description="See your hand and move (only you see it)", callback=hand
            ),
            app_commands.Command(
                name="leave",
                description="Leave the game in this channel (the AI takes your seat)",
                callback=leave,
            ),
            app_commands.Command(
                name="stop",
                description="Stop the game in this channel (host or Manage Server)",
                callback=stop,
            ),
            app_commands.Command(name="rules", description="How to play a game", callback=rules),
            app_commands.Command(
                name="history", description="This server's last games and results", callback=history
            ),
        ]
        for command in commands_:
            group.add_command(command)
        return group

    def _start_command(self) -> app_commands.Command[Any, ..., None]:
        specs = option_specs()
        owners = option_owners()
        cog = self

        @answers_user_errors
        async def start(interaction: discord.Interaction, game: str, **options: Any) -> None:
            await cog.start(interaction, game, options)

        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        parameters = [
            inspect.Parameter("interaction", kind, annotation=discord.Interaction),
            inspect.Parameter("game", kind, annotation=str),
        ]
        descriptions = {"game": "which game"}
        for name, spec in specs.items():
            annotation: Any = bool if spec.kind is bool else int
            parameters.append(
                inspect.Parameter(name, kind, annotation=annotation | None, default=None)
            )
            games_text = ", ".join(owners[name])
            default = spec.default if spec.default is not None else "off"
            descriptions[name] = clip(f"{spec.description} ({games_text}; default {default})", 100)
        start.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        start.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
        start.__discord_app_commands_param_choices__ = {"game": game_choices()}  # type: ignore[attr-defined]
        return app_commands.Command(
            name="start", description="Open a table for a game in this channel", callback=start
        )

    # -- the commands ----------------------------------------------------------------------------
    async def start(
        self, interaction: discord.Interaction, game_id: str, options: dict[str, Any]
    ) -> None:
        """Open a lobby with the given options (the rest at their defaults)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("Start a game in a server channel.")
        given = {name: value for name, value in options.items() if value is not None}
        known = (
            {option.name for option in games()[game_id].options} if game_id in games() else set()
        )
        stray = sorted(set(given) - known)
        if stray:
            names = ", ".join(sorted(known)) or "none"
            raise UserError(f"{game_id} has no option {', '.join(stray)} (its options: {names}).")
        lobby = self.bot.tables.open_lobby(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            display_name(interaction.user),
            game_id,
            given,
        )
        await interaction.response.send_message(**lobby_message(lobby).kwargs())
        lobby.message_id = (await interaction.original_response()).id

    async def hand(self, interaction: discord.Interaction) -> None:
        """Your private view of the game in this channel."""
        service = self.bot.tables
        table = service.table_in(interaction.channel_id or 0)
        seat = service.seat_for(table, interaction.user.id)
        message = hand_message(table, seat, service.clock())
        await interaction.response.send_message(ephemeral=True, **message.kwargs())

    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the running game (the AI takes over) or the lobby."""
        service = self.bot.tables
        key = service.by_channel.get(interaction.channel_id or 0)
        if key in service.lobbies:
            lobby = service.leave_lobby(key, interaction.user.id)
            await service.presenter.lobby_changed(lobby)
            await interaction.response.send_message("You left the lobby.", ephemeral=True)
            return
        table = service.table_in(interaction.channel_id or 0)
        await interaction.response.defer(ephemeral=True)
        await service.leave(table, interaction.user.id)
        await interaction.followup.send(
            "You left the game; the AI plays your seat from now on.", ephemeral=True
        )
        if not table.ended:
            await service.presenter.notice(
                table, f"{display_name(interaction.user)} left; the AI plays their seat."
            )

    async def stop(self, interaction: discord.Interaction) -> None:
        """Stop the running game (host or Manage Server); a lobby is cancelled."""
        service = self.bot.tables
        key = service.by_channel.get(interaction.channel_id or 0)
        if key in service.lobbies:
            lobby = service.lobby(key)
            if interaction.user.id != lobby.host_id and not interaction.permissions.manage_guild:
                raise UserError("Only the host or someone with Manage Server can stop this.")
            service._close_lobby(lobby)
            await service.presenter.lobby_closed(lobby, "was closed")
            await interaction.response.send_message("The lobby is closed.", ephemeral=True)
            return
        table = service.table_in(interaction.channel_id or 0)
        await service.stop(
            table,
            interaction.user.id,
            interaction.permissions.manage_guild,
            display_name(interaction.user),
        )
        await interaction.response.send_message("The game is stopped.", ephemeral=True)

    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """The player-facing rules, privately (one embed per part)."""
        if game not in games():
            raise UserError(f"There is no game {game!r}.")
        pieces = split_rules(red_suits(rules_text(game)))
        colour = discord.Colour(0x5865F2)
        await interaction.response.send_message(
            embed=discord.Embed(description=pieces[0], colour=colour), ephemeral=True
        )
        for piece in pieces[1:4]:
            await interaction.followup.send(
                embed=discord.Embed(description=piece, colour=colour), ephemeral=True
            )
