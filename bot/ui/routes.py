"""Buttons and selects that survive restarts: every click is routed by its custom_id.

custom_ids (all well under Discord's 100 characters):

- ``cr:l:<lobby>:<join|leave|ai|start|cancel>`` lobby buttons
- ``cr:h:<table>`` the table's Hand button; ``cr:v:<table>`` Refresh a private hand
- ``cr:a:<table>:<revision>:<indices>:<page>`` a step of a move (see bot/services/steps.py)
- ``cs:<table>:<revision>:<indices>:<page>`` the same step as a select (value: the index)
- ``cr:r:<table>`` Rematch
- ``cr:b:…`` scoreboard and history pages, ``cr:c:…`` the reset confirmation
  (bot/render/boards.py)
"""

from __future__ import annotations

import logging
import re
import time
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import discord

from bot.errors import UserError, report_error, user_message
from bot.render.messages import (
    hand_message,
    lobby_closed_message,
    lobby_message,
    parse_prefix,
)
from bot.services.steps import Node, StaleChoice, resolve
from bot.services.tables import StaleMove, Table
from bot.ui.boards import on_page, on_reset

if TYPE_CHECKING:
    from bot.app import CardroomBot

log = logging.getLogger(__name__)

STALE = "That move is no longer possible; here is the current position."


MOVE_STEP_PREFIXES = ("cr:a:", "cs:")  # custom_ids of the steps of a move (see on_step)


class MoveTiming(NamedTuple):
    """``time.perf_counter()`` stamps of one accepted move, for the bot benchmark."""

    arrived: float  # the interaction reached the bot
    save_started: float  # the database work of the move began
    save_ended: float
    answered: float  # the player has the answer (their new private view)

    @property
    def total(self) -> float:
        """Seconds from arrival to answer."""
        return self.answered - self.arrived

    @property
    def save(self) -> float:
        """Seconds of database work."""
        return self.save_ended - self.save_started


def _bot(interaction: discord.Interaction) -> CardroomBot:
    return cast("CardroomBot", interaction.client)


def display_name(user: discord.abc.User) -> str:
    """The name people see for a user (server nickname when the interaction carries it)."""
    return getattr(user, "display_name", None) or user.name


class RoutedButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:(?P<kind>[lhvarbc]):(?P<args>[\w.:]+)",
):
    """Every Cardroom button; ``kind`` picks the handler."""

    def __init__(self, item: discord.ui.Button[discord.ui.View], kind: str, args: str) -> None:
        super().__init__(item)
        self.kind = kind
        self.args = args

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RoutedButton:
        return cls(cast("discord.ui.Button[discord.ui.View]", item), match["kind"], match["args"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Route the click; errors become private answers."""
        try:
            await HANDLERS[self.kind](interaction, self.args.split(":"))
        except Exception as error:
            await report_error(interaction, error)
            if user_message(error) is None:
                raise


class RoutedSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"cs:(?P<args>[\w.:]+)",
):
    """A step of a move offered as a select (more than 20 options)."""

    def __init__(self, item: discord.ui.Select[discord.ui.View], args: str) -> None:
        super().__init__(item)
        self.args = args

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RoutedSelect:
        return cls(cast("discord.ui.Select[discord.ui.View]", item), match["args"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Apply the chosen option as the next step."""
        try:
            table_id, revision, prefix, _page = self.args.split(":")
            values = self.item.values
            if not values:
                raise UserError("Choose one of the options.")
            chosen = values[0]
            target = f"{prefix}.{chosen}" if prefix else chosen
            await on_step(interaction, [table_id, revision, target, "0"])
        except Exception as error:
            await report_error(interaction, error)
            if user_message(error) is None:
                raise


# -- lobby --------------------------------------------------------------------------------------
async def on_lobby(interaction: discord.Interaction, args: list[str]) -> None:
    """Join, Leave, Add AI, Start, Cancel."""
    lobby_id, verb = args
    bot = _bot(interaction)
    service = bot.tables
    user = interaction.user
    if verb == "join":
        lobby = service.join(lobby_id, user.id, display_name(user))
    elif verb == "leave":
        lobby = service.leave_lobby(lobby_id, user.id)
    elif verb == "ai":
        lobby = service.add_ai(lobby_id, user.id)
    elif verb == "cancel":
        lobby = service.cancel_lobby(lobby_id, user.id)
        await interaction.response.edit_message(
            **lobby_closed_message(lobby, "was cancelled by the host").kwargs()
        )
        return
    elif verb == "start":
        table = await service.start(lobby_id, user.id)
        humans = sum(seat.is_human for seat in table.seats)
        embed = discord.Embed(
            title=f"{table.game.name} — started",
            description=(
                f"Table {table.table_id} with {len(table.seats)} players. The table follows "
                "below; "
                + (
                    "each player's hand comes by DM and with the **Hand** button."
                    if humans
                    else "the AI plays every seat."
                )
            ),
        )
        await interaction.response.edit_message(content=None, embed=embed, view=None)
        service.begin(table)
        return
    else:
        raise UserError("Unknown lobby button.")
    await interaction.response.edit_message(**lobby_message(lobby).kwargs())


# -- hands and moves ----------------------------------------------------------------------------
def _seated(interaction: discord.Interaction, table_id: str) -> tuple[Table, int]:
    service = _bot(interaction).tables
    table = service.table(table_id)
    return table, service.seat_for(table, interaction.user.id)


async def on_hand(interaction: discord.Interaction, args: list[str]) -> None:
    """The table's Hand button: the player's private view and controls."""
    table, seat = _seated(interaction, args[0])
    now = _bot(interaction).tables.clock()
    message = hand_message(table, seat, now)
    await interaction.response.send_message(ephemeral=True, **message.kwargs())


async def on_refresh(interaction: discord.Interaction, args: list[str]) -> None:
    """Refresh a private hand (root step)."""
    table, seat = _seated(interaction, args[0])
    await _show(interaction, table, seat)


async def _show(
    interaction: discord.Interaction,
    table: Table,
    seat: int,
    *,
    prefix: tuple[int, ...] = (),
    page: int = 0,
    note: str | None = None,
) -> None:
    bot = _bot(interaction)
    message = hand_message(table, seat, bot.tables.clock(), prefix=prefix, page=page, note=note)
    await interaction.response.edit_message(**message.kwargs())
    if (
        interaction.message is not None
        and interaction.message.id == table.seats[seat].dm_message_id
        and not prefix
    ):
        bot.tables.hand_shown(table, seat)


async def on_step(interaction: discord.Interaction, args: list[str]) -> None:
    """A step of a move: show the next step, or apply the move it completes."""
    started = _bot(interaction).interaction_started.pop(interaction.id, time.perf_counter())
    table_id, revision_text, prefix_text, page_text = args
    table, seat = _seated(interaction, table_id)
    try:
        revision = int(revision_text)
        prefix = parse_prefix(prefix_text)
        page = int(page_text)
    except ValueError:
        raise UserError("That button is not one of ours.") from None
    if revision != table.revision:
        await _show(interaction, table, seat, note=STALE)
        return
    legal = table.state.legal_actions(seat)
    try:
        target = resolve(legal, prefix)
    except StaleChoice:
        await _show(interaction, table, seat, note=STALE)
        return
    if isinstance(target, Node):
        await _show(interaction, table, seat, prefix=prefix, page=page)
        return
    service = _bot(interaction).tables
    try:
        await service.act(table, interaction.user.id, revision, target)
    except StaleMove:
        await _show(interaction, table, seat, note=STALE)
        return
    except UserError as error:
        await _show(interaction, table, seat, note=error.message)
        return
    # Read before awaiting: the AI's answering move (or another table's) replaces it.
    save_started, save_ended = service.last_save
    await _show(interaction, table, seat)
    _bot(interaction).move_times.append(
        MoveTiming(started, save_started, save_ended, time.perf_counter())
    )


async def on_rematch(interaction: discord.Interaction, args: list[str]) -> None:
    """Open a new lobby with the same seats and options."""
    bot = _bot(interaction)
    lobby = bot.tables.rematch(args[0], interaction.user.id, display_name(interaction.user))
    await interaction.response.send_message(**lobby_message(lobby).kwargs())
    lobby.message_id = (await interaction.original_response()).id


HANDLERS = {
    "l": on_lobby,
    "h": on_hand,
    "v": on_refresh,
    "a": on_step,
    "r": on_rematch,
    "b": on_page,
    "c": on_reset,
}
