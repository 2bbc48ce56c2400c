"""The public table message (edited in place as the game goes) and the results message.

The table shows the public view and public events only; its button is Hand, or during a
round's break (the round's end held on the table before the next deal) Next round.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord

from bot.answers import answer_click
from bot.pictures import Picture
from bot.replays.views import ReplayButton
from bot.tables.hand_view import HandButton
from bot.tables.lobby_view import RematchButton
from bot.tables.records import RoundEnd
from bot.tables.results import places_of
from bot.tables.session import TableSession
from bot.text import clip, earlier_not_shown, event_lines, said, score_parts, show
from bot.ui import (
    GOLD,
    GREEN,
    MEDALS,
    PICTURES,
    RED,
    Message,
    button,
    controls,
    gallery,
    layout,
    small,
    timestamp,
)
from bot.wiring import UsesWiring
from engine.layout import Layout, Row
from engine.words import _, and_list, ngettext

TABLE_EVENTS = 6
# characters of hand-by-hand summaries in the results: the latest hands only, so that the
# results fit a phone's screen (the replay keeps the whole game)
SUMMARY_BUDGET = 700

P = ParamSpec("P")
T = TypeVar("T")


def in_its_language(
    build: Callable[Concatenate[TableSession, P], T],
) -> Callable[Concatenate[TableSession, P], T]:
    """Build a message everyone at the table reads in the table's language, whoever's click
    or task builds it."""

    @functools.wraps(build)
    def built(session: TableSession, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with session.in_its_language():
            return build(session, *args, **kwargs)

    return built


class NextRoundButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cr:next:(?P<table>\w+):(?P<revision>\d+)",
):
    """Next round, on a round's end held on the table: any seated person moves the table on
    to the next deal. Its custom_id names the revision the round ended at, so a click on an
    older round's button does nothing."""

    def __init__(self, table_id: str, revision: int) -> None:
        self.table_id = table_id
        self.revision = revision
        custom_id = f"cr:next:{table_id}:{revision}"
        super().__init__(button(custom_id, _("Next round"), discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NextRoundButton:
        return cls(match["table"], int(match["revision"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Acknowledge at once; the table message is edited to the next deal."""

        async def next_round() -> None:
            await interaction.response.defer()
            await self.wiring.tables.next_round(self.table_id, interaction.user.id, self.revision)

        await answer_click(interaction, next_round)


def revealed(session: TableSession, ended: RoundEnd) -> tuple[Picture, ...]:
    """The picture of the cards a round's end turned up for everyone (laid out as on the
    table, without its piles), or none when it turned none up."""
    if ended.reveal is None:
        return ()
    table = session.game.layout(ended.reveal)
    shown = Layout(
        tuple(Row(tuple(group for group in row.groups if group.size is None)) for row in table.rows)
    )
    return (PICTURES.picture(shown, session.names),) if shows_cards(shown) else ()


def round_lines(session: TableSession, ended: RoundEnd) -> list[str]:
    """A round's scores for reading: its title, then a player a line."""
    title, *rest = score_parts(ended.scores, session.names)
    return [f"### {title}", *(f"◦ {line}" for line in rest)]


@in_its_language
def table_message(session: TableSession, now: datetime) -> Message:
    """The public table: the game and its state, the picture of the table, whose turn it is
    (with the Hand button beside it), the last public moves small underneath; during a
    round's break, that round's end instead of the next deal."""
    if session.round_end is not None and session.ending is None:
        return _round_end_table(session, session.round_end)
    names = session.names
    view = session.state.public_view()
    picture = PICTURES.picture(session.game.layout(view), names)
    summary = "\n".join(show(line, names) for line in session.game.summary(view))
    if session.ending is not None:
        over = (
            "**" + _("The game is over.") + "**"
            if session.ending.finished
            else session.ending.render()
        )
        turn: discord.ui.Item[Any] = discord.ui.TextDisplay(f"### {over}")
    else:
        turn = discord.ui.Section(_turn_line(session, now), accessory=HandButton(session.table_id))
    return Message(
        layout(
            clip(f"## {_(session.game.name)}\n{summary}", 1200),
            gallery(picture),
            turn,
            discord.ui.Separator(),
            *_moves_and_seats(session),
            colour=RED if session.ended else GREEN,
        ),
        (picture,),
    )


def _round_end_table(session: TableSession, ended: RoundEnd) -> Message:
    """The table during a round's break: the round's scores, the cards it turned up, and
    Next round beside when the next deal is shown by itself."""
    pictures = revealed(session, ended)
    wait = _(
        "The next round starts when a player presses **Next round**, or by itself {time}."
    ).format(time=timestamp(ended.until))
    return Message(
        layout(
            clip("\n".join([f"## {_(session.game.name)}", *round_lines(session, ended)]), 1500),
            *(gallery(picture) for picture in pictures),
            discord.ui.Section(wait, accessory=NextRoundButton(session.table_id, ended.revision)),
            discord.ui.Separator(),
            *_moves_and_seats(session, round_ended=True),
            colour=GOLD,
        ),
        pictures,
    )


def _moves_and_seats(session: TableSession, *, round_ended: bool = False) -> list[str]:
    """The last public moves (``round_ended``: those that ended the round, not its scores,
    shown above, nor the next deal's) and who sits at the table, small."""
    names = session.names
    events = [e for e in session.log if e.event.visible(None)]
    ends = [index for index, e in enumerate(events) if e.event.kind == "hand_end"]
    if round_ended and ends:
        events = events[: ends[-1]]
    events = events[-TABLE_EVENTS:]
    moves = small(
        [_("Last moves"), *(line for e in events for line in event_lines(e.event, names))]
    )
    seats = " · ".join(seat.shown for seat in session.seats)
    # no table id: players never need it; an admin finds the game in /game history
    footer = small([clip(_("Seats: {seats}").format(seats=seats), 400)])
    return [clip(moves, 1500), footer] if events else [footer]


def _turn_line(session: TableSession, now: datetime) -> str:
    """Whose turn it is and until when, in one prominent line (and the out-of-turn window)."""
    names = session.names
    waiting = session.state.waiting_for()
    who = and_list([f"**{names[seat]}**" for seat in waiting])
    deadlines = [session.deadlines[s] for s in waiting if s in session.deadlines]
    if not waiting:
        line = _("▶ nobody to play")
    elif deadlines:
        line = _("▶ {players} to play · time runs out {time}").format(
            players=who, time=timestamp(min(deadlines))
        )
    else:
        line = _("▶ {players} to play").format(players=who)
    line = f"### {line}"
    if session.window_left(now) > 0 and session.window_end is not None:
        # a relative timestamp reads "in 10 seconds": "until in 10 seconds" would not read
        anyone = _(
            "⚡ **Anyone may play out of turn now**; this closes {time}. Press **Hand** to join in."
        )
        line += "\n" + anyone.format(time=timestamp(session.window_end))
    return line


@in_its_language
def round_message(session: TableSession, ended: RoundEnd) -> Message:
    """A hand's or round's scores, a player a line, and the cards it turned up: posted when
    the table moves on to the next deal, so the end of the last one stays readable."""
    pictures = revealed(session, ended)
    return Message(
        layout(
            clip("\n".join(round_lines(session, ended)), 1500),
            *(gallery(picture) for picture in pictures),
            colour=GOLD,
        ),
        pictures,
    )


def headline(session: TableSession) -> str:
    """Who won and with what ("ann wins with 8 points"), or who placed first, in the active
    language."""
    ending = [e.event for e in session.log if e.event.kind == "game_end"]
    if ending:
        return said(ending[-1], session.names)
    winners = and_list([session.seats[seat].shown for seat in session.state.winners()])
    return _("{players} won").format(players=winners)


def shows_cards(layout: Layout) -> bool:
    """Whether a picture of ``layout`` would show any card face up beyond a pile's top: the
    end of a game that leaves an empty table is told in words only."""
    return any(
        shown.card is not None
        for row in layout.rows
        for group in row.groups
        if group.size is None
        for shown in group.cards
    )


@in_its_language
def results_message(session: TableSession) -> Message:
    """Final places and scores, the last picture of the table when it shows cards (the final
    reveal), the latest hands' summaries small underneath, and the Rematch and Replay buttons:
    short enough for a phone's screen. A table in a thread has its Rematch in its channel's
    short result (``thread_end_message``): the new lobby opens there."""
    names = session.names
    scores = session.state.scores()
    places = places_of(scores, session.state.winners())
    order = sorted(range(len(session.seats)), key=lambda s: (places[s], s))
    title = _("{game} — results").format(game=_(session.game.name))
    lines = [f"## {title}", f"**{headline(session)}**"]
    for seat in order:
        medal = MEDALS.get(places[seat], "▫️")
        shown = session.seats[seat].shown
        points = ngettext("{count} point", "{count} points", scores[seat])
        lines.append(f"{medal} {places[seat]}. **{shown}** — {points.format(count=scores[seat])}")
    final = session.game.layout(session.state.public_view())
    pictures = (PICTURES.picture(final, names),) if shows_cards(final) else ()
    hands = []
    if session.summaries:
        # each hand's scores: its title, then a player a line (who scored what, and why)
        entries = [score_parts(event, names) for event in session.summaries]
        budget = SUMMARY_BUDGET
        kept: list[list[str]] = []
        for number, (title, *rest) in reversed(list(enumerate(entries, 1))):
            entry = [f"**{title}**", *(f"◦ {line}" for line in rest)]
            size = sum(len(line) + 4 for line in entry)
            if budget - size < 0:
                kept.append([earlier_not_shown(number)])
                break
            budget -= size
            kept.append(entry)
        hands = [_("Hand by hand"), *(line for entry in reversed(kept) for line in entry)]
    return Message(
        layout(
            clip("\n".join(lines), 1000),
            *(gallery(picture) for picture in pictures),
            small(hands) if hands else None,
            controls(
                *([] if session.parent_channel_id else [RematchButton(session.table_id)]),
                ReplayButton.opener(session.table_id),
            ),
            colour=GOLD,
        ),
        pictures,
    )


@in_its_language
def thread_end_message(session: TableSession, link: str) -> Message:
    """The end of a table that played in a thread, as its lobby's channel shows it: the
    result (or why the game stopped) in a line, who played, a link to the thread's end and,
    for a finished game, Rematch and Replay."""
    ending = session.ending
    assert ending is not None, "shown once it ended"
    seats = ", ".join(seat.shown for seat in session.seats)
    over = f"**{headline(session)}**" if ending.finished else ending.render()
    title = _("{game} — over").format(game=_(session.game.name))
    where = _("{seats} · [See the table]({link})").format(seats=seats, link=link)
    text = f"### {title}\n{over}\n{where}"
    buttons = (
        controls(RematchButton(session.table_id), ReplayButton.opener(session.table_id))
        if ending.finished
        else None
    )
    return Message(layout(clip(text, 1500), buttons, colour=GOLD if ending.finished else RED))
