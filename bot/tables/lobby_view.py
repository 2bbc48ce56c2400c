"""The lobby message and its buttons, and the Rematch button that opens a new lobby.

Custom_ids, each built and parsed by its class:

- ``cr:lobby:<lobby>:<join|leave|add-ai|start|cancel>`` a lobby button
- ``cr:ai-level:<lobby>:<number>:<easy|normal|hard>`` the level of the lobby's ``AI <number>``
  (offered privately to whoever added it)
- ``cr:rematch:<table>`` Rematch under a finished game's results
- ``cr:rules:<game>`` How to play (``bot.help.rules``)
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.answers import NOT_OURS, answer_click, clicker_language, public_language
from bot.errors import UserError
from bot.help.rules import RulesButton
from bot.tables.lobby import Lobby
from bot.tables.records import Seat
from bot.tables.thinking import DEFAULT_LEVEL, LEVELS
from bot.tables.tokens import bot_absent
from bot.text import clip, duration, show
from bot.ui import (
    CHANNEL_PERMISSIONS,
    GREY,
    THREAD_PERMISSIONS,
    Message,
    button,
    controls,
    display_name,
    in_a_thread,
    layout,
    missing_permissions,
    permission_list,
    small,
)
from bot.wiring import UsesWiring
from engine.core import Event
from engine.words import N_, _

if TYPE_CHECKING:
    from bot.tables.service import TableService
    from bot.tables.session import TableSession

log = logging.getLogger(__name__)

LOBBY_ACTIONS = {
    "join": (N_("Join"), discord.ButtonStyle.primary),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "add-ai": (N_("Add AI"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.success),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
}
CANCELLED = Event(N_("This lobby was cancelled by the host."), "closed")
LOBBY_NOT_EDITED = N_(
    "I could not update the lobby's message: I need {permissions} in this channel, which a "
    "server admin can give me. Its buttons still work and show the lobby as it is, but a game "
    "started here is paused until then."
)
LEVEL_NAMES = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard")}
# the private note to whoever added an AI, by its level (each level's word in its sentence)
PLAYS_AT = {
    "easy": N_("**🤖 {name}** plays at the **easy** level."),
    "normal": N_("**🤖 {name}** plays at the **normal** level."),
    "hard": N_("**🤖 {name}** plays at the **hard** level."),
}
# how a table just dealt goes on: where it plays (below, or in its thread) and how hands come
STARTED = {
    (False, True): N_(
        "{seats}. The table follows below; each player's hand comes by DM and with the "
        "**Hand** button."
    ),
    (False, False): N_("{seats}. The table follows below; the AI plays every seat."),
    (True, True): N_(
        "{seats}. The table plays in {thread}; each player's hand comes by DM and with the "
        "**Hand** button."
    ),
    (True, False): N_("{seats}. The table plays in {thread}; the AI plays every seat."),
}
ABSENT_STARTED = N_(
    "{seats}. The table follows below; each player's hand comes with the **Hand** button."
)
"""Where the bot is not a member: no hand DMs there (and no threads)."""


class LobbyButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:lobby:(?P<lobby>\w+):(?P<action>join|leave|add-ai|start|cancel)",
):
    """Join, Leave, Add AI, Start (host) or Cancel (host) on a lobby."""

    def __init__(self, lobby_id: str, action: str) -> None:
        self.lobby_id, self.action = lobby_id, action
        label, style = LOBBY_ACTIONS[action]
        super().__init__(button(f"cr:lobby:{lobby_id}:{action}", _(label), style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(match["lobby"], match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Change the lobby and show it; Start deals the game and shows the table."""
        await answer_click(interaction, lambda: self._clicked(interaction))

    async def _clicked(self, interaction: discord.Interaction) -> None:
        service = self.wiring.tables
        lobby = service.lobbies.get(self.lobby_id)
        if not on_lobby_message(interaction, lobby):
            raise UserError(_(NOT_OURS))
        user = interaction.user
        if self.action == "start":
            threads = self.wiring.table_threads.enabled(lobby.guild_id)
            await start_table(interaction, service, lobby, threads)
            return
        if self.action == "cancel":
            service.lobbies.cancel(lobby, user.id)
            closed = lobby_closed_message(lobby, CANCELLED)
            await interaction.response.edit_message(**closed.kwargs())
            return
        added = None
        if self.action == "join":
            language = clicker_language(interaction)
            await service.lobbies.change(
                lobby, lambda: lobby.join(user.id, display_name(user), language)
            )
        elif self.action == "leave":
            await service.lobbies.change(lobby, lambda: lobby.leave(user.id))
        else:
            added = await service.lobbies.change(
                lobby, lambda: lobby.add_ai(user.id, DEFAULT_LEVEL)
            )
        await interaction.response.edit_message(**lobby_message(lobby).kwargs())
        if added is not None:  # one click adds the default level; the others are offered
            offer = level_offer(lobby, added)
            await interaction.followup.send(**offer.send_kwargs(), ephemeral=True)


class AiLevelButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:ai-level:(?P<lobby>\w+):(?P<name>\w+):(?P<level>easy|normal|hard)",
):
    """Easy, Normal or Hard: the level an AI seat of a lobby plays at."""

    def __init__(self, lobby_id: str, name: str, level: str, chosen: bool) -> None:
        self.lobby_id, self.name, self.level = lobby_id, name, level
        style = discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary
        custom_id = f"cr:ai-level:{lobby_id}:{name}:{level}"
        super().__init__(button(custom_id, _(LEVEL_NAMES[level]), style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AiLevelButton:
        return cls(match["lobby"], match["name"], match["level"], chosen=False)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Set the level, show it here and in the lobby."""
        await answer_click(interaction, lambda: self._clicked(interaction))

    async def _clicked(self, interaction: discord.Interaction) -> None:
        service = self.wiring.tables
        lobby = service.lobbies.get(self.lobby_id)
        user_id = interaction.user.id
        seat = await service.lobbies.change(
            lobby, lambda: lobby.set_ai_level(user_id, self.name, self.level)
        )
        await interaction.response.edit_message(**level_offer(lobby, seat).kwargs())
        refused = await edit_lobby(interaction, lobby, lobby_message(lobby))
        if refused is not None:
            await interaction.followup.send(refused, ephemeral=True)


def level_offer(lobby: Lobby, seat: Seat) -> Message:
    """The private note to whoever added an AI: its level, and buttons to change it."""
    levels = _(
        "Easy makes beginner's slips, normal plays well and fast, hard thinks ahead (a little "
        "slower)."
    )
    text = _(PLAYS_AT[seat.level]).format(name=seat.name) + " " + levels
    buttons = (
        AiLevelButton(lobby.lobby_id, seat.name, level, level == seat.level) for level in LEVELS
    )
    return Message(layout(text, controls(*buttons), colour=GREY))


async def edit_lobby(
    interaction: discord.Interaction, lobby: Lobby, message: Message
) -> str | None:
    """Edit the lobby's message in its channel, if it was posted, after ``interaction``
    changed the lobby; returns what to tell its author privately when Discord refused the
    edit (else None). The lobby is never stuck on it: its buttons answer by the click, not
    the channel, and show it as it is. Where the bot is not a member (a group DM) that is
    how it always works; in a server channel the bot lost permissions in, the author is
    told which, and that a game started there would pause until they are back (as a
    table's refused edits pause it). A deleted message is let go: the change stands."""
    if lobby.message_id is None:
        return None
    channel = interaction.client.get_partial_messageable(lobby.channel_id)
    try:
        await channel.get_partial_message(lobby.message_id).edit(**message.kwargs())
    except discord.NotFound:  # deleted by someone: the change stands, nothing shows it
        log.info("lobby %s: its message is gone", lobby.lobby_id)
        return None
    except discord.Forbidden:
        if bot_absent(interaction):
            return None
        log.warning("lobby %s: the bot may not edit its message", lobby.lobby_id)
        needed = missing_permissions(interaction.app_permissions) or list(
            CHANNEL_PERMISSIONS.values()
        )
        return _(LOBBY_NOT_EDITED).format(permissions=permission_list(needed))
    return None


def on_lobby_message(interaction: discord.Interaction, lobby: Lobby) -> bool:
    """Whether a lobby button was clicked on that lobby's own message (in its channel): a
    lobby's custom_id on any other message is forged, and Start there would open the table's
    thread from that message, wherever it is (two tables could share one thread)."""
    message = interaction.message
    if message is None or interaction.channel_id != lobby.channel_id:
        return False
    # the id is noted just after the lobby is posted: a click before that is on it
    return lobby.message_id is None or message.id == lobby.message_id


async def start_table(
    interaction: discord.Interaction, service: TableService, lobby: Lobby, threads: bool
) -> None:
    """Deal the lobby's game, say so in place of the lobby, then show the table: in a
    thread started from the lobby message when ``threads`` (the server's choice) and the
    bot may open one there, else in the channel.

    Never half-started: the click is acknowledged first (dealing and saving may outlast
    Discord's 3 s); if Discord refuses that, nothing is dealt and the lobby stays open; once
    dealt, the table begins even if the answer cannot be shown, in the channel if its thread
    could not be opened."""
    # refusals (and a second Start) are answered before deferring
    session = await service.start(lobby.lobby_id, interaction.user.id, interaction.response.defer)
    thread = await open_thread(interaction, session) if threads else None
    if thread is not None:
        await service.in_thread(session, thread.id)
    humans = any(seat.is_human for seat in session.seats)
    with session.in_its_language():  # in place of the lobby: public
        seats = ", ".join(seat.shown for seat in session.seats)
        started_as = ABSENT_STARTED if humans and bot_absent(interaction) else None
        how = _(started_as or STARTED[thread is not None, humans]).format(
            seats=seats, thread=thread.mention if thread is not None else ""
        )
        title = _("{game} — started").format(game=_(session.game.name))
    started = f"### {title}\n{how}"
    try:
        await interaction.edit_original_response(
            **Message(layout(started, colour=GREY)).kwargs(attached=[])
        )
    except discord.HTTPException:
        log.warning("table %s: the Start answer failed; the table begins", session.table_id)
    service.show(session)


async def open_thread(
    interaction: discord.Interaction, session: TableSession
) -> discord.Thread | None:
    """A public thread for the table, started from its lobby message and named for the game
    and its players; None where the bot may not open one (or Discord refuses it)."""
    message = interaction.message
    if message is None or in_a_thread(interaction):
        return None
    if missing_permissions(interaction.app_permissions, THREAD_PERMISSIONS):
        return None
    players = ", ".join(seat.name for seat in session.seats)
    with session.in_its_language():
        name = f"{_(session.game.name)} · {players}"
    try:
        # the longest auto-archive: the table's end archives the thread itself
        return await message.create_thread(name=clip(name, 100), auto_archive_duration=10080)
    except discord.HTTPException:
        log.warning("table %s: its thread could not be opened; it plays here", session.table_id)
        return None


class RematchButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:rematch:(?P<table>\w+)",
):
    """Rematch: a new lobby with the same players and options, hosted by the clicker."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(
            button(f"cr:rematch:{table_id}", _("Rematch"), discord.ButtonStyle.success)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the new lobby."""

        async def rematch() -> None:
            user = interaction.user
            service = self.wiring.tables
            lobby = await service.rematch(
                self.table_id,
                user.id,
                display_name(user),
                language=public_language(interaction),
                host_language=clicker_language(interaction),
            )
            await post_lobby(interaction, service, lobby)

        await answer_click(interaction, rematch)


async def post_lobby(interaction: discord.Interaction, service: TableService, lobby: Lobby) -> None:
    """Answer with the lobby message (noting its id: to edit it when the lobby expires, and
    to show it again after a restart)."""
    await interaction.response.send_message(**lobby_message(lobby).send_kwargs())
    await service.lobbies.posted(lobby, (await interaction.original_response()).id)


def lobby_message(lobby: Lobby) -> Message:
    """The lobby: the game, its seats and options, and the lobby buttons (in the lobby's
    language: everyone in its channel reads it)."""
    with lobby.in_its_language():
        return _lobby_message(lobby)


def _lobby_message(lobby: Lobby) -> Message:
    game = lobby.game
    counts = game.player_counts
    host = next((s.name for s in lobby.seats if s.user_id == lobby.host_id), "?")
    seats = [f"{i + 1}. {seat.shown}" for i, seat in enumerate(lobby.seats)]
    taken = _("**Seats ({count} of {counts})** · host {host}").format(
        count=len(lobby.seats), counts=_counts(counts), host=host
    )
    lines = ["## " + _("{game} — new table").format(game=_(game.name)), _(game.pitch), taken]
    lines += seats
    options = []
    for option in game.options:
        shown = option.amount(lobby.options.get(option.name))
        options.append(f"**{_(option.label)}:** {shown} — {_(option.description)}")
    if lobby.turn_seconds is not None:
        turn = _("**Turn time:** {duration} a turn")
        options.append(turn.format(duration=duration(lobby.turn_seconds)))
    buttons = [LobbyButton(lobby.lobby_id, action) for action in LOBBY_ACTIONS]
    return Message(
        layout(
            clip(show("\n".join(lines), []), 2000),
            clip("\n".join(["**" + _("Options") + "**", *options]), 1500) if options else None,
            controls(*buttons),
            controls(RulesButton(game.id)),
            small([_("This new table closes after 10 minutes without a click.")]),
            colour=GREY,
        )
    )


def lobby_closed_message(lobby: Lobby, reason: Event) -> Message:
    """A lobby that ended without a game, saying why (``reason``), in its language."""
    with lobby.in_its_language():
        title = _("{game} — lobby closed").format(game=_(lobby.game.name))
        return Message(layout(f"### {title}\n{reason.render([])}", colour=GREY))


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return _("{counts} or {last}").format(counts=", ".join(map(str, counts[:-1])), last=counts[-1])
