"""The bot's messages: lobby, table, private hand and results, as embeds plus components.

Only ``Game.describe`` of a view, ``Event`` text and action paths are used, so every game in
the registry is shown without code of its own. The table message shows the public view and
public events only; a hand shows that seat's view and the events that seat may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

from bot.render.text import action_label, clip, show
from bot.services.steps import HERE, Node, Option, resolve
from bot.services.tables import Lobby, Table
from engine.core import Action

RED = discord.Colour(0xC0392B)
GREEN = discord.Colour(0x2E8B57)
GREY = discord.Colour(0x5865F2)
BUTTONS_PER_ROW = 5
MAX_BUTTON_OPTIONS = 20  # four rows of five; the fifth row is for Back / pages / Refresh
SELECT_PAGE = 25
TABLE_EVENTS = 6
HAND_EVENTS = 4


@dataclass
class Message:
    """What to send or edit: content, one embed and the components."""

    embed: discord.Embed
    view: discord.ui.View | None
    content: str | None = None

    def kwargs(self) -> dict[str, Any]:
        """Arguments for an edit (no view: the components are removed)."""
        return {"content": self.content, "embed": self.embed, "view": self.view}

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for a new message (discord.py refuses ``view=None`` there)."""
        kwargs = self.kwargs()
        if self.view is None:
            del kwargs["view"]
        return kwargs


def timestamp(when: datetime) -> str:
    """A Discord relative timestamp (``in 2 minutes``), shown in each reader's time zone."""
    return f"<t:{int(when.timestamp())}:R>"


# -- components ---------------------------------------------------------------------------------
def button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    row: int | None = None,
    disabled: bool = False,
) -> discord.ui.Button[discord.ui.View]:
    """A button (clicks are routed by custom_id to the registered dynamic items)."""
    return discord.ui.Button(
        custom_id=custom_id, label=clip(label, 80), style=style, row=row, disabled=disabled
    )


def new_view() -> discord.ui.View:
    """A view that never times out and is never stored (all its items are routed by id)."""
    return _RoutedView()


class _RoutedView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        # Clicks reach the dynamic items registered on the bot; storing each sent view
        # would only keep it in memory.
        return False

    def is_finished(self) -> bool:
        # discord.py's InteractionResponse.send_message stores every unfinished view without
        # asking is_dispatchable (an ephemeral one with a 15-minute expiry task): every Hand
        # click and every lobby would stay in the view store. A finished view is never stored.
        return True


# -- lobby --------------------------------------------------------------------------------------
def lobby_message(lobby: Lobby, note: str | None = None) -> Message:
    """The lobby: game, host, seats, options, and the lobby buttons."""
    game = lobby.game
    counts = game.player_counts
    host = next((s.name for s in lobby.seats if s.user_id == lobby.host_id), "?")
    lines = [game.blurb, "", f"**Host:** {host}", f"**Players:** {_counts(counts)}", ""]
    lines.append(f"**Seats ({len(lobby.seats)}/{max(counts)}):**")
    lines += [
        f"{i + 1}. {seat.name}{' 🤖' if seat.is_ai else ''}" for i, seat in enumerate(lobby.seats)
    ]
    if game.options:
        lines += ["", "**Options:**"]
        for option in game.options:
            value = lobby.options.get(option.name)
            shown = "off" if value is None or value is False else "on" if value is True else value
            lines.append(f"`{option.name}` = **{shown}** — {option.description}")
    if note:
        lines += ["", note]
    embed = discord.Embed(
        title=f"{game.name} — new table", description=clip(show("\n".join(lines), []), 4000)
    )
    embed.colour = GREY
    embed.set_footer(text=f"Lobby {lobby.lobby_id} · expires after 10 idle minutes")
    view = new_view()
    lid = lobby.lobby_id
    view.add_item(button(f"cr:l:{lid}:join", "Join", discord.ButtonStyle.primary))
    view.add_item(button(f"cr:l:{lid}:leave", "Leave"))
    view.add_item(button(f"cr:l:{lid}:ai", "Add AI"))
    view.add_item(button(f"cr:l:{lid}:start", "Start", discord.ButtonStyle.success))
    view.add_item(button(f"cr:l:{lid}:cancel", "Cancel", discord.ButtonStyle.danger))
    return Message(embed, view)


def lobby_closed_message(lobby: Lobby, reason: str) -> Message:
    """A lobby that ended without a game."""
    embed = discord.Embed(
        title=f"{lobby.game.name} — lobby closed", description=f"This lobby {reason}."
    )
    return Message(embed, None)


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


# -- the table ----------------------------------------------------------------------------------
def table_message(table: Table, now: datetime) -> Message:
    """The public table: state, whose turn and until when, the last public events, Hand."""
    names = table.names
    lines = [show(line, names) for line in table.game.describe(table.state.public_view())]
    lines.append("")
    if table.ended:
        lines.append("**The game is over.**" if table.end_reason == "over" else table.end_reason)
    else:
        lines += _turn_lines(table, now)
    events = [e for e in table.log if e.event.visible(None)][-TABLE_EVENTS:]
    if events:
        lines += ["", "**Last moves**"]
        lines += [f"• {show(e.event.text, names)}" for e in events]
    seats = " · ".join(f"{seat.name}{' 🤖' if seat.is_ai else ''}" for seat in table.seats)
    embed = discord.Embed(
        title=f"{table.game.name} — table {table.table_id}",
        description=clip("\n".join(lines), 4000),
    )
    embed.colour = RED if table.ended else GREEN
    embed.set_footer(text=clip(f"Seats: {seats}", 2000))
    if table.ended:
        return Message(embed, None)
    view = new_view()
    view.add_item(button(f"cr:h:{table.table_id}", "Hand", discord.ButtonStyle.primary))
    return Message(embed, view)


def _turn_lines(table: Table, now: datetime) -> list[str]:
    names = table.names
    lines = []
    waiting = table.state.waiting_for()
    if waiting:
        who = ", ".join(f"**{names[s]}**" for s in waiting)
        deadline = min((table.deadlines[s] for s in waiting if s in table.deadlines), default=None)
        suffix = f" — time runs out {timestamp(deadline)}" if deadline else ""
        lines.append(f"Turn: {who}{suffix}")
    if table.window_left(now) > 0 and table.window_end is not None:
        lines.append(
            f"⚡ Out-of-turn moves are open until {timestamp(table.window_end)}: "
            "press **Hand** to act."
        )
    return lines


# -- a private hand -----------------------------------------------------------------------------
def hand_message(
    table: Table,
    seat: int,
    now: datetime,
    *,
    prefix: tuple[int, ...] = (),
    page: int = 0,
    note: str | None = None,
) -> Message:
    """A seat's private view with the controls for its legal actions, one step at a time."""
    names = table.names
    state = table.state
    lines = [show(line, names) for line in table.game.describe(state.view(seat))]
    lines.append("")
    legal: tuple[Action, ...] = () if table.ended else state.legal_actions(seat)
    node: Node | None = None
    if legal:
        resolved = resolve(legal, prefix)
        node = resolved if isinstance(resolved, Node) else resolve(legal, ())  # type: ignore[assignment]
    lines += _hand_status(table, seat, now)
    if node is not None and node.chosen:
        chosen = " › ".join(action_label(step, names) for step in node.chosen)
        lines.append(f"Chosen: **{chosen}** › …")
    events = [e for e in table.log if e.event.visible(seat)][-HAND_EVENTS:]
    if events:
        lines += ["", "**Recent**"]
        lines += [f"• {show(e.event.text, names)}" for e in events]
    if note:
        lines = [f"⚠️ {note}", "", *lines]
    embed = discord.Embed(
        title=f"Your hand — {table.game.name} (table {table.table_id})",
        description=clip("\n".join(lines), 4000),
    )
    embed.colour = GREEN if legal else GREY
    embed.set_footer(text=f"{names[seat]} · move {table.revision}")
    view = new_view()
    if node is not None:
        _add_controls(view, table, node, page)
    nav_row = 4
    if node is not None and node.prefix:
        back = ".".join(_index(i) for i in node.prefix[:-1])
        view.add_item(
            button(f"cr:a:{table.table_id}:{table.revision}:{back}:0", "◀ Back", row=nav_row)
        )
    if not table.ended:
        view.add_item(button(f"cr:v:{table.table_id}", "↻ Refresh", row=nav_row))
    return Message(embed, view)


def _hand_status(table: Table, seat: int, now: datetime) -> list[str]:
    names = table.names
    state = table.state
    if table.ended:
        return ["**The game is over.**"]
    waiting = state.waiting_for()
    if seat in waiting:
        line = "**Your turn.**"
        deadline = table.deadlines.get(seat)
        if deadline is not None:
            line += f" Decide {timestamp(deadline)} or the AI plays for you."
        lines = [line]
        if table.window_left(now) > 0 and table.window_end is not None:
            lines.append(
                f"Others may act out of turn until {timestamp(table.window_end)}; "
                "your move is accepted after that."
            )
        return lines
    if seat in state.to_act():
        until = f" until {timestamp(table.window_end)}" if table.window_end else ""
        return [f"⚡ **You may act out of turn now**{until} (or let it pass)."]
    who = ", ".join(names[s] for s in waiting) or "nobody"
    return [f"Waiting for {who}."]


def _index(index: int) -> str:
    return "x" if index == HERE else str(index)


def prefix_text(prefix: tuple[int, ...]) -> str:
    """The custom_id form of a node's indices."""
    return ".".join(_index(i) for i in prefix)


def parse_prefix(text: str) -> tuple[int, ...]:
    """Read the custom_id form of a node's indices (raises ValueError)."""
    if not text:
        return ()
    return tuple(HERE if part == "x" else int(part) for part in text.split("."))


def _option_label(option: Option, names: list[str]) -> str:
    if option.index == HERE and option.only is not None:
        return "✔ " + action_label(option.only.text, names)
    label = action_label(option.step, names)
    if option.rest:
        label += " · " + " · ".join(action_label(step, names) for step in option.rest)
    return label


def _add_controls(view: discord.ui.View, table: Table, node: Node, page: int) -> None:
    names = table.names
    tid, rev = table.table_id, table.revision
    options = node.choices
    if len(options) <= MAX_BUTTON_OPTIONS:
        for position, option in enumerate(options):
            target = prefix_text((*node.prefix, option.index))
            style = (
                discord.ButtonStyle.success
                if option.only is not None
                else discord.ButtonStyle.primary
            )
            view.add_item(
                button(
                    f"cr:a:{tid}:{rev}:{target}:0",
                    _option_label(option, names),
                    style,
                    row=position // BUTTONS_PER_ROW,
                )
            )
        return
    pages = (len(options) + SELECT_PAGE - 1) // SELECT_PAGE
    page = min(max(page, 0), pages - 1)
    shown = options[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=f"cs:{tid}:{rev}:{prefix_text(node.prefix)}:{page}",
        placeholder=clip(f"Choose ({page + 1}/{pages})" if pages > 1 else "Choose", 150),
        options=[
            discord.SelectOption(
                label=clip(_option_label(option, names), 100), value=_index(option.index)
            )
            for option in shown
        ],
        row=0,
    )
    view.add_item(select)
    here = prefix_text(node.prefix)
    if page > 0:
        view.add_item(button(f"cr:a:{tid}:{rev}:{here}:{page - 1}", "◀ Previous", row=1))
    if page < pages - 1:
        view.add_item(button(f"cr:a:{tid}:{rev}:{here}:{page + 1}", "More ▶", row=1))


# -- results ------------------------------------------------------------------------------------
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def results_message(table: Table, places: list[int]) -> Message:
    """Final scores and places, each hand's summary, and a Rematch button."""
    scores = table.state.scores()
    order = sorted(range(len(table.seats)), key=lambda s: (places[s], s))
    lines = ["**Final scores**"]
    for seat in order:
        info = table.seats[seat]
        medal = MEDALS.get(places[seat], "▫️")
        tag = " 🤖" if info.is_ai else ""
        lines.append(f"{medal} {places[seat]}. **{info.name}**{tag} — {scores[seat]}")
    if table.summaries:
        lines += ["", "**Hand by hand**"]
        summaries = [show(s, table.names) for s in table.summaries]
        budget = 3600 - sum(len(line) + 1 for line in lines)
        kept: list[str] = []
        for number, text in reversed(list(enumerate(summaries, 1))):
            entry = f"{number}. {text}"
            if budget - len(entry) - 1 < 0:
                kept.append(f"… ({number} earlier hands not shown)")
                break
            budget -= len(entry) + 1
            kept.append(entry)
        lines += reversed(kept)
    embed = discord.Embed(
        title=f"{table.game.name} — results (table {table.table_id})",
        description=clip("\n".join(lines), 4000),
    )
    embed.colour = GREEN
    view = new_view()
    view.add_item(button(f"cr:r:{table.table_id}", "Rematch", discord.ButtonStyle.success))
    return Message(embed, view)
