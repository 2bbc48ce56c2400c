"""The replay message (one step of a finished game, every card face up) and its buttons.

custom_ids (each built and read only by its class):

- ``cr:replay:<owner>:<table>:<step>:<role>``: go to a step; ``role`` tells the buttons of
  one message apart (first, previous, next, last) or, ``open``, opens a new private replay
  (the history's and the result message's Replay button; owner 0);
- ``cr:replay-show:<table>:<step>``: show this step to the channel;
- ``cr:replay-hand:<owner>:<table>``: the menu that jumps to a hand or round;
- ``cr:replay-review:<table>``: Review my moves (the clicker's seat, privately).

The person a message belongs to (``owner``) steps it in place; anyone else who clicks a
replay shown in the channel gets a private copy at that step.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

import discord

from bot.answers import answer_click
from bot.errors import UserError
from bot.i18n import catalog, private_language
from bot.pictures import Picture
from bot.replays.book import ReplayedGame, load_replay
from bot.text import clip, show
from bot.ui import GREY, PICTURES, Message, button, controls, gallery, layout, small
from bot.wiring import UsesWiring, Wiring
from engine.replay import open_layout
from engine.review import Judgement, costliest, review_lines
from engine.words import N_, _, speaking

TABLE = r"(?P<table>\w+)"
ROLES = {
    "first": N_("⏮ First"),
    "previous": N_("◀ Previous"),
    "next": N_("Next ▶"),
    "last": N_("Last ⏭"),
}
OPEN = "open"
MENU_HANDS = 25  # options a select may hold
PROGRESS_SECONDS = 2.0  # least time between two edits of a review's progress

log = logging.getLogger(__name__)


def asker(wiring: Wiring, interaction: discord.Interaction) -> str:
    """The language of the private replay (or answer) of whoever clicked or asked."""
    return private_language(wiring.languages, interaction.user.id, str(interaction.locale))


def step_picture(game: ReplayedGame, index: int) -> Picture:
    """The table at step ``index`` with every card face up."""
    return PICTURES.picture(open_layout(game.replay.steps[index].state), game.names)


def step_lines(game: ReplayedGame, index: int) -> list[str]:
    """Step ``index`` in words: whose move it was and what the game said about it."""
    step = game.replay.steps[index]
    said = [show(line, game.names) for line in step.words(game.names)]
    if step.seat is None:
        return [_("**The deal**"), *said]
    return [_("▶ **{player}**'s turn").format(player=game.names[step.seat]), *said]


def replay_message(game: ReplayedGame, index: int, owner: int, shared: bool = False) -> Message:
    """Step ``index`` of a replay for ``owner``: the move, the scores, the picture, the
    controls (and, in a private view, the button that shows it to the channel)."""
    replay = game.replay
    last = len(replay.steps) - 1
    index = min(max(index, 0), last)
    step = replay.steps[index]
    hands = replay.hand_starts()
    scores = " · ".join(
        f"{name} {score}" for name, score in zip(game.names, step.scores, strict=True)
    )
    picture = step_picture(game, index)
    targets = {
        "first": 0,
        "previous": max(index - 1, 0),
        "next": min(index + 1, last),
        "last": last,
    }
    steps: list[discord.ui.Item[Any]] = [
        ReplayButton(owner, game.table_id, target, role, disabled=target == index)
        for role, target in targets.items()
    ]
    if not shared:
        steps.append(ShowReplayButton(game.table_id, index))
    review = controls(ReviewButton(game.table_id)) if any(s.user_id for s in game.seats) else None
    menu = (
        controls(ReplayHandSelect(owner, game.table_id, hands, step.hand))
        if len(hands) > 1
        else None
    )
    return Message(
        layout(
            _(
                "## {game} — replay\n"
                "Step {step} of {last} · hand {hand} of {hands} · scores: {scores}"
            ).format(
                game=_(replay.game.name),
                step=index,
                last=last,
                hand=step.hand,
                hands=len(hands),
                scores=scores,
            ),
            clip("\n".join(step_lines(game, index)), 1500),
            gallery(picture),
            controls(*steps),
            menu,
            review,
            small(
                [
                    _(
                        "A replay shows every card: the game is over · "
                        "`/game replay {table}` opens it again"
                    ).format(table=game.table_id)
                ]
            ),
            colour=GREY,
        ),
        (picture,),
    )


async def open_private(
    wiring: Wiring, interaction: discord.Interaction, table_id: str, index: int = 0
) -> None:
    """Send the clicker a private replay of ``table_id`` at step ``index``."""
    game = await _load(wiring, interaction, table_id)
    message = replay_message(game, index, interaction.user.id)
    await interaction.response.send_message(ephemeral=True, **message.send_kwargs())


async def _load(wiring: Wiring, interaction: discord.Interaction, table_id: str) -> ReplayedGame:
    return await load_replay(wiring.results, table_id, interaction.guild_id, interaction.user.id)


async def go_to(
    wiring: Wiring, interaction: discord.Interaction, owner: int, table_id: str, index: int
) -> None:
    """Step the owner's replay in place; anyone else gets a private copy at that step."""
    if interaction.user.id != owner:
        await open_private(wiring, interaction, table_id, index)
        return
    game = await _load(wiring, interaction, table_id)
    shared = not (interaction.message and interaction.message.flags.ephemeral)
    message = replay_message(game, index, owner, shared)
    await interaction.response.edit_message(**message.kwargs(attached=[]))


class ReplayButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:replay:(?P<owner>\d+):{TABLE}:(?P<step>\d+):(?P<role>[a-z]+)",
):
    """Go to a step of a replay, or (``open``) open a private replay at it."""

    def __init__(
        self,
        owner: int,
        table_id: str,
        step: int,
        role: str = OPEN,
        *,
        disabled: bool = False,
        label: str = "",
    ) -> None:
        self.owner, self.table_id, self.step, self.role = owner, table_id, step, role
        label = _(ROLES[role]) if role in ROLES else label or _("▶ Replay")
        style = discord.ButtonStyle.primary if role == OPEN else discord.ButtonStyle.secondary
        custom_id = f"cr:replay:{owner}:{table_id}:{step}:{role}"
        super().__init__(button(custom_id, label, style, disabled=disabled))

    @classmethod
    def opener(cls, table_id: str) -> ReplayButton:
        """The Replay button of a result message or a history entry: anyone may click it."""
        return cls(0, table_id, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["owner"]), match["table"], int(match["step"]), match["role"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the replay, or step it."""

        async def act() -> None:
            if self.role == OPEN:
                await open_private(self.wiring, interaction, self.table_id, self.step)
            else:
                await go_to(self.wiring, interaction, self.owner, self.table_id, self.step)

        with speaking(catalog(asker(self.wiring, interaction))):
            await answer_click(interaction, act)


class ShowReplayButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:replay-show:{TABLE}:(?P<step>\d+)",
):
    """Show the private replay's step to the channel (the clicker steps it from there)."""

    def __init__(self, table_id: str, step: int) -> None:
        self.table_id, self.step = table_id, step
        custom_id = f"cr:replay-show:{table_id}:{step}"
        super().__init__(button(custom_id, _("Show to the channel"), discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowReplayButton:
        return cls(match["table"], int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Post this step in the channel."""

        async def post() -> None:
            game = await _load(self.wiring, interaction, self.table_id)
            message = replay_message(game, self.step, interaction.user.id, shared=True)
            await interaction.response.send_message(
                allowed_mentions=discord.AllowedMentions.none(), **message.send_kwargs()
            )

        with speaking(catalog(asker(self.wiring, interaction))):
            await answer_click(interaction, post)


class ReplayHandSelect(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"cr:replay-hand:(?P<owner>\d+):{TABLE}",
):
    """Jump to the first step of a hand (or round); at most 25 hands around this one."""

    def __init__(
        self, owner: int, table_id: str, starts: list[int] | None = None, current: int = 1
    ) -> None:
        self.owner, self.table_id = owner, table_id
        starts = starts or []
        first = min(max(current - MENU_HANDS // 2, 1), max(len(starts) - MENU_HANDS + 1, 1))
        options = [
            discord.SelectOption(
                label=_("Hand {hand}").format(hand=hand),
                value=str(starts[hand - 1]),
                default=hand == current,
            )
            for hand in range(first, min(first + MENU_HANDS, len(starts) + 1))
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"cr:replay-hand:{owner}:{table_id}",
                placeholder=_("Jump to a hand"),
                options=options
                or [discord.SelectOption(label=_("Hand {hand}").format(hand=1), value="0")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayHandSelect:
        return cls(int(match["owner"]), match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Go to the chosen hand's first step."""

        async def jump() -> None:
            chosen = self.item.values
            step = int(chosen[0]) if chosen else 0
            await go_to(self.wiring, interaction, self.owner, self.table_id, step)

        with speaking(catalog(asker(self.wiring, interaction))):
            await answer_click(interaction, jump)


class ReviewButton(
    UsesWiring,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"cr:replay-review:{TABLE}",
):
    """Review my moves: the hard AI's review of the clicker's seat, sent privately."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(button(f"cr:replay-review:{table_id}", _("Review my moves")))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        return cls(match["table"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Review the clicker's moves, showing the progress as it goes."""

        async def run() -> None:
            await review_moves(self.wiring, interaction, self.table_id)

        with speaking(catalog(asker(self.wiring, interaction))):
            await answer_click(interaction, run)


async def review_moves(wiring: Wiring, interaction: discord.Interaction, table_id: str) -> None:
    """Answer privately with the review of the clicker's seat: its progress while it runs
    (edited at most every ``PROGRESS_SECONDS``), then the costliest moves, each with a button
    to its step. A refused progress edit is let go; the review goes on and is kept."""
    game = await _load(wiring, interaction, table_id)
    seat = game.seat_of(interaction.user.id)
    if seat is None:
        raise UserError(_("Only the people who played this game can review their moves in it."))
    reviewer = wiring.reviews
    judged = await reviewer.kept(game, seat)
    if judged is None:
        await interaction.response.send_message(
            ephemeral=True, **Message(layout(_("Reviewing your moves…"), colour=GREY)).send_kwargs()
        )
        shown = [0.0]

        async def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if done < total and now - shown[0] < PROGRESS_SECONDS:
                return
            shown[0] = now
            try:
                text = _("Reviewing move {done} of {total}…").format(done=done, total=total)
                await interaction.edit_original_response(
                    **Message(layout(text, colour=GREY)).kwargs()
                )
            except discord.HTTPException:
                log.warning("could not show a review's progress (table %s)", table_id)

        judged = await reviewer.make(game, seat, interaction.user.id, progress)
        await interaction.edit_original_response(**review_message(game, seat, judged).kwargs())
    else:
        await interaction.response.send_message(
            ephemeral=True, **review_message(game, seat, judged).send_kwargs()
        )


def review_message(game: ReplayedGame, seat: int, judged: list[Judgement]) -> Message:
    """A seat's review: how many moves matched the best found, then the costliest, each with
    a button that opens the replay at its step."""
    replay = game.replay
    summary, *rest = review_lines(replay, seat, judged, game.names)
    worst = costliest(judged)
    items: list[discord.ui.Item[Any]] = [
        discord.ui.Section(
            show(found.line(replay, game.names), game.names),
            accessory=ReplayButton(
                0, game.table_id, found.step, label=_("Step {step}").format(step=found.step)
            ),
        )
        for found in worst
    ]
    return Message(
        layout(
            _("## Your moves — {game}").format(game=_(replay.game.name)) + "\n" + summary,
            *items,
            *([] if items else [show(line, game.names) for line in rest]),
            small(
                [
                    _(
                        "The hard AI judged each decision from what you knew then; points are "
                        "the hand's, the percentage is its estimate of your share of the win"
                    )
                ]
            ),
            colour=GREY,
        )
    )


BUTTONS = (ReplayButton, ShowReplayButton, ReplayHandSelect, ReviewButton)
