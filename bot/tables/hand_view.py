"""A seat's private hand: its view, its moves offered one step at a time, and the buttons that
open, refresh and play it (in a Hand view or the hand DM).

Only the game's layout and summary of the seat's view, the events that seat may see and
action paths are shown, so every game in the registry works without code of its own. Each
button class builds and parses its own custom_id:

- ``cr:hand:<table>`` the table's Hand button; ``cr:refresh:<table>`` refresh a hand;
  ``cr:deck:<table>:<style>`` switch the clicker's deck colours to ``style`` (``standard``:
  red/black, or ``four_colour``)
- ``cr:step:<table>:<revision>:<path>:<page>`` a step of a move (``path``: the indices chosen
  so far, see ``engine.choices``); ``cr:step-menu:…`` the same step as a select
- ``cr:pick:<table>:<revision>:<path>:0`` the step at ``path`` answered by choosing several
  cards at once (``engine.choices.Pick``): a multi-select whose values are the indices of the
  chosen items, which name one legal action together (or none: a private "not a move")
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import discord

from bot.answers import NOT_OURS, answer_click
from bot.errors import GameMovedElsewhere, NoSuchMove, StaleMove, UserError
from bot.pictures import DeckStyle
from bot.tables.dm_clicks import forward_elsewhere
from bot.tables.session import PAUSED, TableSession
from bot.tables.step_target import STEP, StepTarget, parse_path, path_text
from bot.text import clip, event_lines, show, suit_symbols
from bot.ui import (
    AMBER,
    GREEN,
    GREY,
    PICTURES,
    Message,
    button,
    controls,
    gallery,
    layout,
    small,
    timestamp,
)
from bot.wiring import UsesWiring, Wiring
from engine.choices import (
    Pick,
    StaleChoice,
    Step,
    StepChoice,
    choice_label,
    count_words,
    first_step,
    only_move_reason,
    pick_at,
    pick_labels,
    pick_prompt,
    step_prompt,
)
from engine.core import Action
from engine.words import N_, _, and_list

log = logging.getLogger(__name__)

BUTTONS_PER_ROW = 5
MAX_BUTTON_OPTIONS = 10  # two even rows of five at most; more options go in a select
SELECT_PAGE = 25
HAND_EVENTS = 2
DM_EVENTS = 4
BACK, NOT_YET = N_("◀ Back"), N_("◀ Not yet")  # a step's way back; a confirmation's "no"
STALE = N_("That move is no longer possible; here is the current position.")
FOLLOWS = N_(
    "This view follows the game until {until}; after that, press **Hand** on the table again."
)


# -- the buttons --------------------------------------------------------------------------------
class HandButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:hand:(?P<table>\w+)",
):
    """The table message's Hand button: the clicker's private view and controls."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(button(f"cr:hand:{table_id}", _("Hand"), discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's hand, privately."""
        await answer_click(interaction, lambda: send_hand(interaction, self.wiring, self.table_id))


class RefreshButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:refresh:(?P<table>\w+)",
):
    """↻ Refresh on a hand: show it anew at its first step."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(button(f"cr:refresh:{table_id}", _("↻ Refresh")))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RefreshButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the hand in place."""

        async def refresh() -> None:
            session = self.wiring.tables.table(self.table_id)
            await edit_hand(
                interaction, self.wiring, session, session.seat_for(interaction.user.id)
            )

        await answer_in_place(interaction, self.wiring, self.table_id, refresh)


class DeckButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:deck:(?P<table>\w+)(?::(?P<style>standard|four_colour))?",
):
    """Switches the clicker's own pictures to the other deck style (red/black or four-colour;
    a preference kept for every game; the public table picture stays red/black). Its custom_id
    names the style it switches to, as its label does: the click does what the clicker saw,
    even if another process changed the style since. A button drawn before it named one
    switches from the style known here."""

    def __init__(self, table_id: str, style: DeckStyle = DeckStyle.STANDARD) -> None:
        self.table_id = table_id
        self.to = _other(style)
        super().__init__(button(f"cr:deck:{table_id}:{self.to.value}", _(DECK_LABELS[self.to])))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeckButton:
        if match["style"] is None:
            return cls(match["table"], cls.wiring.deck_styles.of(interaction.user.id))
        return cls(match["table"], _other(DeckStyle(match["style"])))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Store the style the button names and show the hand in it, in place."""

        async def switch() -> None:
            tables = self.wiring.tables
            session = tables.table(self.table_id)
            seat = session.seat_for(interaction.user.id)
            await self.wiring.deck_styles.choose(interaction.user.id, self.to)
            await edit_hand(interaction, self.wiring, session, seat)
            if interaction.message is None or interaction.message.id != (
                session.seats[seat].dm_message_id
            ):
                tables.display.hand_restyled(session, seat)  # the DM too

        await answer_in_place(interaction, self.wiring, self.table_id, switch)


# what the button offers: the style a click switches to
DECK_LABELS = {
    DeckStyle.FOUR_COLOUR: N_("🎨 Four-colour deck"),
    DeckStyle.STANDARD: N_("🎨 Red/black deck"),
}


def _other(style: DeckStyle) -> DeckStyle:
    return DeckStyle.STANDARD if style is DeckStyle.FOUR_COLOUR else DeckStyle.FOUR_COLOUR


class StepButton(
    UsesWiring,
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
    ) -> None:
        self.step = step
        super().__init__(button(f"cr:step:{step.id_part()}", label or "·", style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepButton:
        return cls(StepTarget.parse(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the next step, or play the move it completes."""
        await answer_in_place(
            interaction,
            self.wiring,
            self.step.table_id,
            lambda: choose_step(interaction, self.wiring, self.step),
        )


class StepSelect(
    UsesWiring,
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
                raise UserError(_("Choose one of the options."))
            try:
                path = (*self.step.path, *parse_path(values[0]))
            except ValueError:
                raise UserError(_(NOT_OURS)) from None
            await choose_step(interaction, self.wiring, replace(self.step, path=path, page=0))

        await answer_in_place(interaction, self.wiring, self.step.table_id, chosen)


class PickSelect(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"cr:pick:{STEP}",
):
    """A step answered by choosing several cards at once (``engine.choices.Pick``): a
    multi-select of the legal counts whose values are the chosen items' indices; one choice
    makes the move."""

    def __init__(
        self,
        step: StepTarget,
        *,
        placeholder: str = "Choose",
        options: list[discord.SelectOption] | None = None,
        sizes: tuple[int, ...] = (1,),
    ) -> None:
        self.step = step
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"cr:pick:{step.id_part()}",
            placeholder=clip(placeholder, 150),
            options=options or [discord.SelectOption(label="·")],
            min_values=sizes[0],
            max_values=sizes[-1],
        )
        super().__init__(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        return cls(StepTarget.parse(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        """The chosen items make the move together."""

        async def chosen() -> None:
            values = self.item.values
            if not values:
                raise UserError(_("Choose the cards to play."))
            try:
                picked = tuple(int(value) for value in values)
            except ValueError:
                raise UserError(_(NOT_OURS)) from None
            await choose_step(interaction, self.wiring, self.step, picked)

        await answer_in_place(interaction, self.wiring, self.step.table_id, chosen)


# -- what the buttons do ------------------------------------------------------------------------
async def answer_in_place(
    interaction: discord.Interaction,
    wiring: Wiring,
    table_id: str,
    handle: Callable[[], Awaitable[None]],
) -> None:
    """A click in a hand: acknowledged at once, before any storage or picture work (Discord
    shows the click took), then ``handle`` edits the hand in place (``edit_hand``), unless
    the click is on a hand DM of a game another process runs: then it is handed to that
    process (``forward_elsewhere``), which answers it. A click handed here was acknowledged
    by the process that received it. Only a private message is a hand: a hand's custom_id
    on a message everyone sees (forged) would show the clicker's cards there."""

    async def acknowledged() -> None:
        shown = interaction.message
        if interaction.guild_id is not None and (shown is None or not shown.flags.ephemeral):
            raise UserError(_(NOT_OURS))
        if not interaction.response.is_done():
            await interaction.response.defer()
        if not await forward_elsewhere(interaction, wiring, table_id):
            await handle()

    await answer_click(interaction, acknowledged)


async def send_hand(
    interaction: discord.Interaction, wiring: Wiring, table_id: str | None = None
) -> None:
    """The clicker's hand as a private answer (the table's, or this channel's game): the
    click acknowledged at once (privately), then answered with the hand, which replaces the
    clicker's previous Hand view and follows the game (``OpenHands``)."""
    service = wiring.tables
    if table_id is None:
        session = service.table_in(interaction.channel_id or 0, interaction.user.id)
    else:
        session = service.table(table_id)
    seat = session.seat_for(interaction.user.id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    style = await wiring.deck_styles.refresh(interaction.user.id)
    open_hands = wiring.open_hands
    message = hand_message(
        session, seat, service.clock(), style=style, live_until=open_hands.live_until()
    )
    sent = await interaction.edit_original_response(**message.kwargs())
    await open_hands.opened(session, seat, interaction, sent.id)


async def choose_step(
    interaction: discord.Interaction,
    wiring: Wiring,
    step: StepTarget,
    picked: tuple[int, ...] | None = None,
    note: str | None = None,
) -> None:
    """A step chosen in a hand (or the items ``picked`` together at it): the next step, or
    the move it completes; a stale one shows the current position, a set that is no move the
    same step again (both saying why, as ``note`` says)."""
    service, user_id = wiring.tables, interaction.user.id
    try:
        session, chosen = await service.choose(
            step.table_id, user_id, step.revision, step.path, picked
        )
    except GameMovedElsewhere:  # the table stopped: no hand left to show, only why
        raise
    except NoSuchMove as error:
        await choose_step(interaction, wiring, step, note=error.message)
        return
    except UserError as error:  # stale, or not now: the hand as it is, with why
        session = service.table(step.table_id)
        note = _(STALE) if isinstance(error, StaleMove) else error.message
        await edit_hand(interaction, wiring, session, session.seat_for(user_id), note=note)
        return
    if isinstance(chosen.outcome, Step):
        outcome = chosen.outcome
        await edit_hand(interaction, wiring, session, chosen.seat, outcome, step.page, note=note)
    else:
        await edit_hand(interaction, wiring, session, chosen.seat)


async def edit_hand(
    interaction: discord.Interaction,
    wiring: Wiring,
    session: TableSession,
    seat: int,
    step: Step | None = None,
    page: int = 0,
    *,
    note: str | None = None,
) -> None:
    """Answer a click (already acknowledged) by showing the hand in place (at ``step``, else
    its first step); a Hand view is then the one that follows the game."""
    service = wiring.tables
    shown = interaction.message
    in_dm = shown is not None and shown.id == session.seats[seat].dm_message_id
    open_hands = wiring.open_hands
    message = hand_message(
        session,
        seat,
        service.clock(),
        step=step,
        page=page,
        note=note,
        full=in_dm,
        style=wiring.deck_styles.of(interaction.user.id),
        live_until=None if in_dm else open_hands.live_until(),
    )
    if shown is not None and not in_dm:  # noted first: the game's next move redraws this one
        open_hands.redrawn(session, seat, interaction, shown.id, mid_move=bool(step))
    # with its pictures: the bot may have edited this message since the click saw it (closed
    # the view, redrawn the DM), and the pictures it carries then are not the click's
    await interaction.edit_original_response(**message.kwargs())
    if in_dm and step is None:
        service.display.hand_shown(session, seat)


# -- the message --------------------------------------------------------------------------------
def hand_message(
    session: TableSession,
    seat: int,
    now: datetime,
    *,
    step: Step | None = None,
    page: int = 0,
    note: str | None = None,
    full: bool = False,
    style: DeckStyle = DeckStyle.STANDARD,
    live_until: datetime | None = None,
) -> Message:
    """A seat's private hand: where it stands, a picture of its cards, and the controls for
    its legal actions, one step at a time (at ``step``, as the session resolved it, else the
    first step).

    The picture shows all the seat sees, the table beside its cards (on a phone the table
    message is out of sight while choosing). The DM (``full``) adds the game's summary and the
    last few moves; a Hand view (``full`` False) only the last two, and says until when it
    follows the game (``live_until``). A move out of turn (cambio's snap) is urgent: its
    countdown and controls come first. The picture is private, so it is drawn in the seat's
    own deck ``style``.
    """
    names = session.names
    state = session.state
    view = state.view(seat)
    # a paused table takes no move: no controls that would only be refused
    playing = not (session.ended or session.paused)
    legal: Sequence[Action] = state.legal_actions(seat) if playing else ()
    node = (step or first_step(legal)) if legal else None
    urgent = bool(legal) and seat not in state.waiting_for()
    game_layout = session.game.layout(view)
    picture = PICTURES.picture(game_layout, names, style) if game_layout.rows else None
    status, colour = _status(session, seat, now, urgent)
    if note and not session.paused:  # while paused, the status says why anything is refused
        status = f"⚠️ {note}\n{status}"
    summary: list[str] = []
    if full or urgent:
        summary = [show(line, names) for line in session.game.summary(view)]
    # the latest moves this seat may see (in a Hand view only the last few: what its own
    # move did, say, without the table's whole log again)
    events = [e for e in session.log if e.event.visible(seat)][
        -(DM_EVENTS if full else HAND_EVENTS) :
    ]
    moves = [line for e in events for line in event_lines(e.event, names)]
    decision: list[discord.ui.Item[Any] | str] = []
    deck = DeckButton(session.table_id, style)
    if node is not None:
        reason = only_move_reason(session.game, view, legal) if not urgent else None
        decision = _controls(session, node, page, deck, reason, _pick(session, legal, node))
    elif not session.ended:
        decision = [controls(RefreshButton(session.table_id), deck)]
    shown = gallery(picture) if picture is not None else None
    parts: list[discord.ui.Item[Any] | str | None] = [clip(status, 1000)]
    if urgent:
        parts += [clip("\n".join(summary), 1000), *decision, shown]
    else:
        parts += [shown, clip("\n".join(summary), 1000) if summary else None, *decision]
    parts += [
        discord.ui.Separator() if moves else None,
        clip(small([_("Recent"), *moves]), 1200) if moves else None,
        small([f"{_(session.game.name)} · {names[seat]}"]),
        small([_(FOLLOWS).format(until=f"<t:{int(live_until.timestamp())}:t>")])
        if live_until is not None and not session.ended
        else None,
    ]
    return Message(layout(*parts, colour=colour), (picture,) if picture is not None else ())


def _status(
    session: TableSession, seat: int, now: datetime, urgent: bool
) -> tuple[str, discord.Colour]:
    """The hand's first line, prominent, and the container's colour."""
    state = session.state
    game = _(session.game.name)
    if session.ending is not None:
        if session.ending.finished:
            return "### " + _("{game} — the game is over").format(game=game), GREY
        return "### " + _("{game} — {reason}").format(
            game=game, reason=session.ending.render()
        ), GREY
    if session.paused:
        return "### " + _("{game} — paused").format(game=game) + f"\n{_(PAUSED)}", GREY
    window_end = session.window_end
    if urgent:
        act = (
            _("⚡ Act now · closes {time}").format(time=timestamp(window_end))
            if window_end
            else _("⚡ Act now")
        )
        return f"## {act}\n" + _("You may play out of turn now, or let it pass."), AMBER
    waiting = state.waiting_for()
    if seat in waiting:
        line = "## " + _("Your turn — {game}").format(game=game)
        deadline = session.deadlines.get(seat)
        if deadline is not None:
            decide = _("Decide {time} or the AI plays for you.")
            line += "\n" + decide.format(time=timestamp(deadline))
        if session.window_left(now) > 0 and window_end is not None:
            others = _("Others may still play out of turn: you can move {time}.")
            line += "\n" + others.format(time=timestamp(window_end))
        if session.round_end is not None:
            held = _(
                "The table shows the last round's end until someone presses **Next round** "
                "or {time}; a move here starts the new round now."
            )
            line += "\n" + held.format(time=timestamp(session.round_end.until))
        return line, GREEN
    if not waiting:
        return "### " + _("{game} — waiting for nobody").format(game=game), GREY
    who = and_list([session.names[s] for s in waiting])
    return "### " + _("{game} — waiting for {players}").format(game=game, players=who), GREY


def _pick(session: TableSession, legal: Sequence[Action], node: Step) -> Pick | None:
    """The step ``node`` as one choice of several cards, where the game allows it (never
    a confirmation; None too for a step that a move made since drawing took away)."""
    if node.confirms is not None:
        return None
    try:
        return pick_at(session.game, legal, node.prefix)
    except StaleChoice:
        return None


def _controls(
    session: TableSession,
    node: Step,
    page: int,
    deck: DeckButton,
    forced: str | None = None,
    pick: Pick | None = None,
) -> list[discord.ui.Item[Any] | str]:
    """The question the step asks (or, for the only legal move, why it is the only one: the
    ``forced`` reason), its options (buttons, a select when there are many, or one
    multi-select for a ``pick`` of several cards), then Back, the pages of a long select,
    Refresh and the deck colours."""
    names = session.names
    here = StepTarget(session.table_id, session.revision, node.prefix)
    options = node.choices
    question = (
        _("Your only move. {reason}").format(reason=forced)
        if forced
        else step_prompt(session.game, node, names)
    )
    if pick is not None:
        question = pick_prompt(session.game, pick, names)
    prompt = f"**{suit_symbols(question)}**"

    def label(option: StepChoice) -> str:
        return suit_symbols(choice_label(session.game, node, option, names))

    items: list[discord.ui.Item[Any] | str] = [clip(prompt, 300)]
    navigation: list[discord.ui.Item[Any]] = []
    if node.prefix:
        back = StepTarget(session.table_id, session.revision, node.prefix[:-1])
        navigation.append(StepButton(back, label=_(NOT_YET if node.confirms else BACK)))
    if pick is not None:
        labels = pick_labels(session.game, pick, names)
        choices = [
            discord.SelectOption(label=clip(suit_symbols(label), 100), value=str(index))
            for index, label in enumerate(labels)
        ]
        placeholder = _("Choose {count}").format(count=count_words(pick.sizes))
        menu = PickSelect(here, placeholder=placeholder, options=choices, sizes=pick.sizes)
        items.append(controls(menu))
    elif len(options) <= MAX_BUTTON_OPTIONS:
        buttons = [
            StepButton(
                replace(here, path=(*node.prefix, option.index)),
                label=label(option),
                style=discord.ButtonStyle.success
                if option.only is not None
                else discord.ButtonStyle.primary,
            )
            for option in options
        ]
        items += [
            controls(*buttons[start : start + BUTTONS_PER_ROW])
            for start in range(0, len(buttons), BUTTONS_PER_ROW)
        ]
    else:
        pages = (len(options) + SELECT_PAGE - 1) // SELECT_PAGE
        page = min(max(page, 0), pages - 1)
        shown = options[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
        choices = [
            discord.SelectOption(label=clip(label(option), 100), value=path_text((option.index,)))
            for option in shown
        ]
        placeholder = (
            _("Choose one (page {page} of {pages})").format(page=page + 1, pages=pages)
            if pages > 1
            else _("Choose one")
        )
        items.append(
            controls(StepSelect(replace(here, page=page), placeholder=placeholder, options=choices))
        )
        if page > 0:
            navigation.append(StepButton(replace(here, page=page - 1), label=_("◀ Previous")))
        if page < pages - 1:
            navigation.append(StepButton(replace(here, page=page + 1), label=_("More ▶")))
    navigation += [RefreshButton(session.table_id), deck]
    items.append(controls(*navigation))
    return items
