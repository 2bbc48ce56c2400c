"""The public table message (edited in place as the game goes) and the results message.

The table shows the public view and public events only; its one button is Hand.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bot.tables.hand_view import HandButton
from bot.tables.lobby_view import RematchButton
from bot.tables.results import places_of
from bot.tables.session import TableSession
from bot.text import clip, show
from bot.ui import GREEN, MEDALS, RED, Message, new_view, timestamp

TABLE_EVENTS = 6
SUMMARY_BUDGET = 3600  # characters of hand-by-hand summaries in the results


def table_message(session: TableSession, now: datetime) -> Message:
    """The public table: state, whose turn and until when, the last public events, Hand."""
    names = session.names
    lines = [show(line, names) for line in session.game.describe(session.state.public_view())]
    lines.append("")
    if session.ended:
        over = session.end_reason == "over"
        lines.append("**The game is over.**" if over else session.end_reason)
    else:
        lines += _turn_lines(session, now)
    events = [e for e in session.log if e.event.visible(None)][-TABLE_EVENTS:]
    if events:
        lines += ["", "**Last moves**"]
        lines += [f"• {show(e.event.text, names)}" for e in events]
    seats = " · ".join(f"{seat.name}{seat.badge}" for seat in session.seats)
    embed = discord.Embed(
        title=f"{session.game.name} — table {session.table_id}",
        description=clip("\n".join(lines), 4000),
    )
    embed.colour = RED if session.ended else GREEN
    embed.set_footer(text=clip(f"Seats: {seats}", 2000))
    if session.ended:
        return Message(embed, None)
    return Message(embed, new_view(HandButton(session.table_id)))


def _turn_lines(session: TableSession, now: datetime) -> list[str]:
    names = session.names
    lines = []
    waiting = session.state.waiting_for()
    if waiting:
        who = ", ".join(f"**{names[s]}**" for s in waiting)
        deadlines = [session.deadlines[s] for s in waiting if s in session.deadlines]
        suffix = f" — time runs out {timestamp(min(deadlines))}" if deadlines else ""
        lines.append(f"Turn: {who}{suffix}")
    if session.window_left(now) > 0 and session.window_end is not None:
        lines.append(
            f"⚡ Out-of-turn moves are open until {timestamp(session.window_end)}: "
            "press **Hand** to act."
        )
    return lines


def results_message(session: TableSession) -> Message:
    """Final scores and places, each hand's summary, and a Rematch button."""
    scores = session.state.scores()
    places = places_of(scores, session.state.winners())
    order = sorted(range(len(session.seats)), key=lambda s: (places[s], s))
    lines = ["**Final scores**"]
    for seat in order:
        info = session.seats[seat]
        medal = MEDALS.get(places[seat], "▫️")
        lines.append(f"{medal} {places[seat]}. **{info.name}**{info.badge} — {scores[seat]}")
    if session.summaries:
        lines += ["", "**Hand by hand**"]
        summaries = [show(s, session.names) for s in session.summaries]
        budget = SUMMARY_BUDGET - sum(len(line) + 1 for line in lines)
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
        title=f"{session.game.name} — results (table {session.table_id})",
        description=clip("\n".join(lines), 4000),
    )
    embed.colour = GREEN
    return Message(embed, new_view(RematchButton(session.table_id)))
