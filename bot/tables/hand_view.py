"""A seat's private hand: its view, its moves offered one step at a time, and the buttons that
open, refresh and play it (in a Hand view or the hand DM).

Only ``Game.describe`` of the seat's view, the events that seat may see and action paths are
shown, so every game in the registry works without code of its own. Each button class builds
and parses its own custom_id:

- ``cr:hand:<table>`` the table's Hand button; ``cr:refresh:<table>`` refresh a hand
- ``cr:step:<table>:<revision>:<path>:<page>`` a step of a move (``path``: the indices chosen
  so far, see ``engine.choices``); ``cr:step-menu:…`` the same step as a select
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.answers import NOT_OURS, answer_click
from bot.errors import StaleMove, UserError
from bot.tables.session import TableSession
from bot.text import clip, red_suits, show
from bot.ui import GREEN, GREY, Message, button, new_view, timestamp
from engine.choices import HERE, Step, StepChoice, choice_label, resolve, step_prompt
from engine.core import Action

if TYPE_CHECKING:
    from bot.app import CardroomBot
    from bot.tables.service import TableService

BUTTONS_PER_ROW = 5
MAX_BUTTON_OPTIONS = 20  # four rows of five; the fifth row is for Back / pages / Refresh
SELECT_PAGE = 25
HAND_EVENTS = 4
STALE = "That move is no longer possible; here is the current position."
Path = tuple[int, ...]


def _tables(interaction: discord.Interaction) -> TableService:
    return cast("CardroomBot", interaction.client).tables


def path_text(path: Path) -> str:
    """The custom_id form of a step's indices (``2.0``; ``x`` for "ends here")."""
    return ".".join("x" if index == HERE else str(index) for index in path)


def parse_path(text: str) -> Path:
    """Read the custom_id form of a step's indices."""
    return tuple(HERE if part == "x" else int(part) for part in text.split(".") if part)


# -- the buttons --------------------------------------------------------------------------------
class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:hand:(?P<table>\w+)",
):
    """The table message's Hand button: the clicker's private view and controls."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(button(f"cr:hand:{table_id}", "Hand", discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's hand, privately."""
        await answer_click(interaction, lambda: send_hand(interaction, self.table_id))


class RefreshButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:refresh:(?P<table>\w+)",
):
    """↻ Refresh on a hand: show it anew at its first step."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(button(f"cr:refresh:{table_id}", "↻ Refresh", row=4))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RefreshButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the hand in place."""

        async def refresh() -> None:
            session = _tables(interaction).table(self.table_id)
            await edit_hand(interaction, session, session.seat_for(interaction.user.id))

        await answer_click(interaction, refresh)


# a path is indices (or x, "ends here") joined by dots: whatever the template takes parses
INDEX = r"(?:\d+|x)"
STEP = rf"(?P<table>\w+):(?P<revision>\d+):(?P<path>(?:{INDEX}(?:\.{INDEX})*)?):(?P<page>\d+)"


@dataclass(frozen=True)
class StepTarget:
    """Where a step control leads: a table at a revision, the indices chosen, the page."""

    table_id: str
    revision: int
    path: Path
    page: int = 0

    @classmethod
    def parse(cls, match: re.Match[str]) -> StepTarget:
        """Read the ``STEP`` part of a custom_id."""
        path, page = parse_path(match["path"]), int(match["page"])
        return cls(match["table"], int(match["revision"]), path, page)

    def id_part(self) -> str:
        """The ``STEP`` part of a custom_id."""
        return f"{self.table_id}:{self.revision}:{path_text(self.path)}:{self.page}"


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:step:{STEP}",
):
    """An option of a move's step (or Back, or a page of a long step)."""

    def __init__(
        self,
        step: StepTarget,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        self.step = step
        super().__init__(button(f"cr:step:{step.id_part()}", label or "·", style, row=row))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepButton:
        return cls(StepTarget.parse(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the next step, or play the move it completes."""
        await answer_click(interaction, lambda: choose_step(interaction, self.step))


class StepSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"cr:step-menu:{STEP}",
):
    """A step with more options than buttons fit, as a select (a page of 25 at a time)."""

    def __init__(
        self,
        step: StepTarget,
        *,
        placeholder: str = "Choose",
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        self.step = step
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"cr:step-menu:{step.id_part()}",
            placeholder=clip(placeholder, 150),
            options=options or [discord.SelectOption(label="·")],
            row=0,
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepSelect:
        return cls(StepTarget.parse(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        """The chosen option is the next step."""

        async def chosen() -> None:
            values = self.item.values
            if not values:
                raise UserError("Choose one of the options.")
            try:
                path = (*self.step.path, *parse_path(values[0]))
            except ValueError:
                raise UserError(NOT_OURS) from None
            await choose_step(interaction, replace(self.step, path=path, page=0))

        await answer_click(interaction, chosen)


# -- what the buttons do ------------------------------------------------------------------------
async def send_hand(interaction: discord.Interaction, table_id: str | None = None) -> None:
    """The clicker's hand as a private answer (the table's, or this channel's game)."""
    service = _tables(interaction)
    if table_id is None:
        session = service.table_in(interaction.channel_id or 0)
    else:
        session = service.table(table_id)
    seat = session.seat_for(interaction.user.id)
    message = hand_message(session, seat, service.clock())
    await interaction.response.send_message(ephemeral=True, **message.kwargs())


async def choose_step(interaction: discord.Interaction, step: StepTarget) -> None:
    """A step chosen in a hand: the next step, or the move it completes; a stale one shows
    the current position."""
    service, user_id = _tables(interaction), interaction.user.id
    try:
        session, chosen = await service.choose(step.table_id, user_id, step.revision, step.path)
    except UserError as error:  # stale, or not now: the hand as it is, with why
        session = service.table(step.table_id)
        note = STALE if isinstance(error, StaleMove) else error.message
        await edit_hand(interaction, session, session.seat_for(user_id), note=note)
        return
    seat = session.seat_of(user_id)
    assert seat is not None, "choose checked the seat"  # it may have ended the game since
    if isinstance(chosen, Step):
        await edit_hand(interaction, session, seat, path=step.path, page=step.page)
    else:
        await edit_hand(interaction, session, seat)


async def edit_hand(
    interaction: discord.Interaction,
    session: TableSession,
    seat: int,
    *,
    path: Path = (),
    page: int = 0,
    note: str | None = None,
) -> None:
    """Answer a click by showing the hand in place (at ``path``'s step)."""
    service = _tables(interaction)
    message = hand_message(session, seat, service.clock(), path=path, page=page, note=note)
    await interaction.response.edit_message(**message.kwargs())
    shown = interaction.message
    if shown is not None and shown.id == session.seats[seat].dm_message_id and not path:
        service.display.hand_shown(session, seat)


# -- the message --------------------------------------------------------------------------------
def hand_message(
    session: TableSession,
    seat: int,
    now: datetime,
    *,
    path: Path = (),
    page: int = 0,
    note: str | None = None,
) -> Message:
    """A seat's private view with the controls for its legal actions, one step at a time."""
    names = session.names
    state = session.state
    lines = [show(line, names) for line in session.game.describe(state.view(seat))]
    lines.append("")
    legal: tuple[Action, ...] = () if session.ended else state.legal_actions(seat)
    node: Step | None = None
    if legal:
        resolved = resolve(legal, path)
        node = resolved if isinstance(resolved, Step) else resolve(legal, ())  # type: ignore[assignment]
    lines += _status(session, seat, now)
    if node is not None and node.chosen:
        lines.append(f"**{red_suits(step_prompt(session.game, node, names))}**")
    events = [e for e in session.log if e.event.visible(seat)][-HAND_EVENTS:]
    if events:
        lines += ["", "**Recent**"]
        lines += [f"• {show(e.event.text, names)}" for e in events]
    if note:
        lines = [f"⚠️ {note}", "", *lines]
    embed = discord.Embed(
        title=f"Your hand — {session.game.name} (table {session.table_id})",
        description=clip("\n".join(lines), 4000),
    )
    embed.colour = GREEN if legal else GREY
    embed.set_footer(text=f"{names[seat]} · move {session.revision}")
    view = new_view()
    if node is not None:
        _add_controls(view, session, node, page)
        if node.prefix:
            back = StepTarget(session.table_id, session.revision, node.prefix[:-1])
            view.add_item(StepButton(back, label="◀ Back", row=4))
    if not session.ended:
        view.add_item(RefreshButton(session.table_id))
    return Message(embed, view)


def hand_closed_message(session: TableSession) -> Message:
    """A hand DM once the AI has taken its seat: no cards, no controls."""
    embed = discord.Embed(
        title=f"Your hand — {session.game.name} (table {session.table_id})",
        description="The AI plays this seat now, so its cards are no longer shown to you.",
    )
    embed.colour = GREY
    return Message(embed, None)


def _status(session: TableSession, seat: int, now: datetime) -> list[str]:
    state = session.state
    if session.ended:
        over = session.end_reason == "over"
        return ["**The game is over.**" if over else f"**{session.end_reason}**"]
    waiting = state.waiting_for()
    window_end = session.window_end
    if seat in waiting:
        line = "**Your turn.**"
        deadline = session.deadlines.get(seat)
        if deadline is not None:
            line += f" Decide {timestamp(deadline)} or the AI plays for you."
        lines = [line]
        if session.window_left(now) > 0 and window_end is not None:
            lines.append(
                f"Others may act out of turn until {timestamp(window_end)}; "
                "your move is accepted after that."
            )
        return lines
    if seat in state.to_act():
        until = f" until {timestamp(window_end)}" if window_end else ""
        return [f"⚡ **You may act out of turn now**{until} (or let it pass)."]
    who = ", ".join(session.names[s] for s in waiting) or "nobody"
    return [f"Waiting for {who}."]


def _add_controls(view: discord.ui.View, session: TableSession, node: Step, page: int) -> None:
    names = session.names
    here = StepTarget(session.table_id, session.revision, node.prefix)
    options = node.choices

    def label(option: StepChoice) -> str:
        return red_suits(choice_label(session.game, node, option, names))

    if len(options) <= MAX_BUTTON_OPTIONS:
        for position, option in enumerate(options):
            style = (
                discord.ButtonStyle.success
                if option.only is not None
                else discord.ButtonStyle.primary
            )
            view.add_item(
                StepButton(
                    replace(here, path=(*node.prefix, option.index)),
                    label=label(option),
                    style=style,
                    row=position // BUTTONS_PER_ROW,
                )
            )
        return
    pages = (len(options) + SELECT_PAGE - 1) // SELECT_PAGE
    page = min(max(page, 0), pages - 1)
    shown = options[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
    choices = [
        discord.SelectOption(label=clip(label(option), 100), value=path_text((option.index,)))
        for option in shown
    ]
    placeholder = f"Choose ({page + 1}/{pages})" if pages > 1 else "Choose"
    view.add_item(StepSelect(replace(here, page=page), placeholder=placeholder, options=choices))
    if page > 0:
        view.add_item(StepButton(replace(here, page=page - 1), label="◀ Previous", row=1))
    if page < pages - 1:
        view.add_item(StepButton(replace(here, page=page + 1), label="More ▶", row=1))
