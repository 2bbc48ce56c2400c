"""Two timed and paged corners of the bot, from stacked decks.

Cambio's snap window: the game waits ``snap_seconds`` after a discard while every seated
person may snap from their DM or Hand view, goes on by itself afterwards, and refuses a late
snap privately. Steps with more options than buttons hold: a select with pages, Back, and
stale page or select clicks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
import simcord

from bot.app import CardroomBot
from bot.settings import Settings
from bot.tables.hand_view import SELECT_PAGE
from bot.tables.session import TableSession
from bot.text import suit_symbols
from engine.choices import HERE, Confirmation, StaleChoice, Step, choice_label, resolve
from engine.core import Action, RandomAgent, State
from engine.games.cambio import CambioState
from engine.registry import games
from engine.runner import step
from tests.bot.conftest import fast_settings
from tests.bot.helpers import (
    BACK,
    MORE,
    PREVIOUS,
    Player,
    add_player,
    answer,
    components,
    hand_dm,
    move_buttons,
    open_hand,
    open_table,
    option_towards,
    pick,
    play,
    table_message,
    text_of,
)
from tests.engine.decks import round_robin_deck
from tests.engine.test_twentytwo import deal_deck

STALE = "no longer possible"


# -- a forced move says why ----------------------------------------------------------------------
async def test_a_forced_twentytwo_play_says_why_it_is_the_only_one(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    deck = deal_deck(2, 0, {1: "9C 10C JC QC KC AC 9D", 0: "2D 3D 4D 5D 6D 7D 8D"})
    table = await open_table(bot, channel, [ann, bob], "twentytwo", 0, deck=deck)
    await play(bob, table, "keep")
    await play(ann, table, "keep")
    await play(bob, table, "play 9C 9D")
    why = suit_symbols(
        "Your only move. You can't beat 9♣ 9♦, so you must play your 2 lowest cards."
    )
    assert f"**{why}**" in text_of(hand_dm(ann, table))
    await play(ann, table, "play 2D 3D")
    assert "Your only move" not in text_of(hand_dm(bob, table))  # bob leads as he likes


# -- cambio: the snap window -----------------------------------------------------------------------
# simcord lets a bot sleep that would end within its settle timeout (5 s) run in real time, so
# a click then waits for it; a 20 s window is always longer than that here.
SNAP_SECONDS = 20
SNAP = "Snap a matching card …"
# Seat 0 (ann) deals; bob (seat 1) plays first, then the AI (seat 2). ann's C is the 4♦ and
# bob draws the 4♠: discarded, it gives ann a snap chance. The AI holds no 4 to snap with.
CAMBIO_HANDS = ["9C 10C 4D 2C", "5C 6C 7C 8C", "JD QD 3D 5D"]
CAMBIO_STOCK = ["4S 2D"]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The bot's own window setting differs: the game's snap_seconds must win."""
    return fast_settings(tmp_path, optional_window_seconds=3 * SNAP_SECONDS)


@dataclass
class SnapChance:
    """bob has just discarded the 4♠; the AI is next; ann holds the 4♦ in C."""

    table: TableSession
    ann: Player
    bob: Player
    revision: int  # the table's revision right after the discard


@pytest.fixture
async def snap_chance(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> SnapChance:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    deck = round_robin_deck(CAMBIO_HANDS, after=CAMBIO_STOCK)
    options = {"snap_seconds": SNAP_SECONDS, "rounds": 1}
    table = await open_table(bot, channel, [ann, bob], "cambio", 1, options, deck=deck)
    await play(ann, table, "look C D")
    await play(bob, table, "look C D", "draw", "discard")
    state = cambio(table)
    assert state.discard[-1].text == "4S" and state.hands[0]["C"].card.text == "4D"
    assert state.waiting_for() == (2,) and table.optional_seats() == (0, 1)
    assert table.window_end == env.now() + timedelta(seconds=SNAP_SECONDS)
    return SnapChance(table, ann, bob, table.revision)


def cambio(table: TableSession) -> CambioState:
    """The table's state, as the cambio state it is."""
    assert isinstance(table.state, CambioState)
    return table.state


async def test_the_game_waits_while_snaps_are_open_and_a_snap_is_applied(
    env: simcord.Env, channel: simcord.ChannelHandle, snap_chance: SnapChance
) -> None:
    table, ann, bob = snap_chance.table, snap_chance.ann, snap_chance.bob
    # The snap controls reach everyone seated at once: ann's DM, bob's Hand view, the table.
    dm = hand_dm(ann, table)
    assert "Act now" in text_of(dm) and "snap any 4" in text_of(dm)
    assert [item["label"] for item in move_buttons(dm)] == [SNAP]
    bobs = answer(await bob.member.click(table_message(channel, table), label="Hand"))
    assert bobs.ephemeral and [item["label"] for item in move_buttons(bobs)] == [SNAP]
    assert "Anyone may play out of turn now" in text_of(table_message(channel, table))
    window_end = table.window_end
    # bob guesses ann's A: wrong, so he takes a penalty card; the window stays as it was.
    await env.advance_time(SNAP_SECONDS / 2)
    answered = await pick(bob.member, bobs, SNAP, "ann's cards …", "Snap ann's card A")
    wrong = suit_symbols("bob snapped ann's card A: 9♣ does not match 4♠ — wrong!")
    assert wrong in text_of(answered)
    assert list(cambio(table).hands[1]) == ["A", "B", "C", "D", "E"]
    assert table.window_end == window_end and table.optional_seats() == (0,)
    await env.advance_time(SNAP_SECONDS / 2 - 1)
    assert table.actions[snap_chance.revision :] == [(1, "snap s0.A")], "the AI waits"
    answered = await pick(
        ann.user, hand_dm(ann, table), SNAP, "Your own cards …", "Snap your card C"
    )
    assert "ann snapped their card C: 4♦️ — correct!" in text_of(answered)
    state = cambio(table)
    assert "C" not in state.hands[0] and len(state.hands[0]) == 3
    assert "4D" in [card.text for card in state.discard]
    # A correct snap closes the window: the AI goes on at once.
    assert table.actions[snap_chance.revision + 1 :][:2] == [(0, "snap C"), (2, "draw")]


async def test_without_a_snap_the_game_goes_on_when_the_window_ends(
    env: simcord.Env, snap_chance: SnapChance
) -> None:
    table = snap_chance.table
    await env.advance_time(SNAP_SECONDS - 0.5)
    assert table.revision == snap_chance.revision
    assert table.window_left(env.now()) == pytest.approx(0.5)
    await env.advance_time(1)
    assert table.actions[snap_chance.revision] == (2, "draw")
    assert cambio(table).hands[0]["C"].card.text == "4D"


async def test_a_snap_view_follows_the_game_when_the_window_closes(
    env: simcord.Env, channel: simcord.ChannelHandle, snap_chance: SnapChance
) -> None:
    table, ann = snap_chance.table, snap_chance.ann
    view = answer(await ann.member.click(table_message(channel, table), label="Hand"))
    view = await pick(ann.member, view, SNAP, "Your own cards …")
    assert [item["label"] for item in move_buttons(view)] == [f"Snap your card {p}" for p in "ABCD"]
    await env.advance_time(SNAP_SECONDS + 1)
    moves = list(table.actions)
    assert moves[snap_chance.revision] == (2, "draw"), "the window closed and the AI drew"
    # the game moved past the snap: the private view (simcord's answer object shows the
    # message as it is now) offers the moves of the new position, not that snap's
    drawn_at = {str(item["custom_id"]).split(":")[3] for item in move_buttons(view)}
    assert drawn_at == {str(table.revision)}
    assert cambio(table).hands[0]["C"].card.text == "4D"


# -- steps: a select with pages --------------------------------------------------------------------
# ann's 9♠ can take any of 54 sets adding to 9 from the 12 low cards left on the table, or be
# left: 55 options, three pages of a select. Seat 0 deals; bob (seat 1) plays first.
FISHING_DEAL = ["3C 3D 4C 4D", "5C 5D 6C 6D"]
FISHING_TABLE = "AC AD 2C 2D"
SECOND_DEAL = ("9S JH QH KH", "KC KD QC QD")
FISHING_LEAVES = ["5C", "3C", "5D", "3D", "6C", "4C", "6D", "4D", "KC"]
NINE_OPTIONS = 55
NINE = suit_symbols("Capture with 9♠ …")  # the 9♠'s option, as the hand words it


@pytest.fixture
async def many_options(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> tuple[TableSession, Player]:
    """A fishing table where ann (seat 0) is to play, holding the 9♠ over 13 loose cards."""
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    second = " ".join(f"{b} {a}" for a, b in zip(*map(str.split, SECOND_DEAL), strict=True))
    deck = round_robin_deck(FISHING_DEAL, after=[FISHING_TABLE, second])
    table = await open_table(bot, channel, [ann, bob], "fishing", 0, deck=deck)
    for card in FISHING_LEAVES:
        await play([ann, bob][table.state.waiting_for()[0]], table, f"play {card}")
    assert table.state.waiting_for() == (0,)
    assert len(nine_plays(table)) == NINE_OPTIONS
    return table, ann


def nine_plays(table: TableSession) -> dict[str, Action]:
    """ann's plays of the 9♠, by the label of their option."""
    legal = table.state.legal_actions(0)
    root = resolve(legal, ())
    assert isinstance(root, Step)
    nine = next(choice for choice in root.choices if choice.step == "9S")
    step = resolve(legal, (nine.index,))
    assert isinstance(step, Step)
    plays = {}
    for choice in step.choices:
        assert choice.only is not None, "each option of the 9♠ is one play"
        plays[suit_symbols(choice_label(table.game, step, choice, table.names))] = choice.only
    return plays


def select_of(message: simcord.ResponseMessage) -> dict[str, object]:
    """The one select of a hand message."""
    selects = [
        item for item in components(message) if str(item["custom_id"]).startswith("cr:step-menu:")
    ]
    assert len(selects) == 1, text_of(message)
    return selects[0]


def labels(message: simcord.ResponseMessage) -> list[str]:
    """The option labels of a hand message's select."""
    options = select_of(message)["options"]
    assert isinstance(options, list)
    return [option["label"] for option in options]


def nav(message: simcord.ResponseMessage) -> list[str]:
    """The labels of the navigation buttons shown."""
    return [
        str(item["label"])
        for item in components(message)
        if item.get("label") in (BACK, PREVIOUS, MORE)
    ]


@pytest.mark.slow
async def test_every_option_is_reachable_through_the_pages_and_back_returns(
    channel: simcord.ChannelHandle, many_options: tuple[TableSession, Player]
) -> None:
    table, ann = many_options
    root = answer(await ann.member.click(table_message(channel, table), label="Hand"))
    cards = [item["label"] for item in move_buttons(root)]
    assert cards == [NINE, "Play J♥️ to the table", "Play Q♥️ to the table", "Capture with K♥️ …"]
    assert "cr:step-menu:" not in str(components(root)), "four options are buttons"
    page = await pick(ann.member, root, NINE)
    assert suit_symbols("**Capture with 9♠, or leave it on the table?**") in text_of(page)
    pages = [labels(page)]
    assert select_of(page)["placeholder"] == "Choose one (page 1 of 3)"
    assert nav(page) == [BACK, MORE]
    page = answer(await ann.member.click(page, label=MORE))
    pages.append(labels(page))
    assert select_of(page)["placeholder"] == "Choose one (page 2 of 3)"
    assert nav(page) == [BACK, PREVIOUS, MORE]
    page = answer(await ann.member.click(page, label=MORE))
    pages.append(labels(page))
    assert nav(page) == [BACK, PREVIOUS]
    assert [len(shown) for shown in pages] == [SELECT_PAGE, SELECT_PAGE, 5]
    everything = [label for shown in pages for label in shown]
    assert sorted(everything) == sorted(nine_plays(table)), "each play once, on some page"
    assert nine_plays(table)[everything[0]].text == "play 9S", "leaving it comes first"
    page = answer(await ann.member.click(page, label=PREVIOUS))
    assert labels(page) == pages[1]
    back = answer(await ann.member.click(page, label=BACK))
    assert [item["label"] for item in move_buttons(back)] == cards
    assert "then:" not in text_of(back)
    assert table.actions[-1] == (1, "play KC"), "paging and Back make no move"


@pytest.mark.slow
async def test_a_step_click_resolves_its_path_once_and_the_hand_shows_that_step(
    channel: simcord.ChannelHandle,
    many_options: tuple[TableSession, Player],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, ann = many_options
    root = answer(await ann.member.click(table_message(channel, table), label="Hand"))
    resolved: list[Step | Action] = []

    def noted(legal: Sequence[Action], path: Sequence[int], *asks: Confirmation) -> Step | Action:
        resolved.append(resolve(legal, path, *asks))
        return resolved[-1]

    def first_step_again(legal: Sequence[Action]) -> Step:
        raise AssertionError("the hand resolved the step again")

    monkeypatch.setattr("bot.tables.session.resolve", noted)
    monkeypatch.setattr("bot.tables.hand_view.first_step", first_step_again)
    page = await pick(ann.member, root, NINE)
    (step,) = resolved  # the session's, once
    assert isinstance(step, Step) and step.chosen == ("9S",)
    assert select_of(page)["placeholder"] == "Choose one (page 1 of 3)", "drawn at that step"


@pytest.mark.slow
async def test_a_select_choice_applies_its_move_and_stale_clicks_apply_nothing(
    bot: CardroomBot, channel: simcord.ChannelHandle, many_options: tuple[TableSession, Player]
) -> None:
    table, ann = many_options
    # Hand views follow the game as often as the table message is edited: with that paced to
    # once an hour, a click in the Hand view arrives before the view follows ann's DM move.
    bot.tables.display.edit_seconds = 3600
    views = []  # two private copies of the same position, each on page 2 of the 9♠
    for hand in (
        answer(await ann.member.click(table_message(channel, table), label="Hand")),
        hand_dm(ann, table),
    ):
        actor = ann.member if hand.flags.ephemeral else ann.user
        view = await pick(actor, hand, NINE)
        views.append(answer(await actor.click(view, label=MORE)))
    chosen = labels(views[1])[7]  # an option of the second page: its index is not its place
    expected = nine_plays(table)[chosen]
    revision = table.revision
    answered = await pick(ann.user, views[1], chosen)
    assert table.actions[-1] == (0, expected.text) and table.revision == revision + 1
    assert "waiting for bob" in text_of(answered)
    taken = expected.text.split(" take ")[1].split()
    assert not set(taken) & set(table.state.public_view()["table"])
    # The Hand view is stale until it follows the move: its choices change nothing.
    moves = list(table.actions)
    stale_choice = await pick(ann.member, views[0], labels(views[0])[0])
    assert stale_choice.ephemeral and STALE in text_of(stale_choice)
    stale_page = answer(await ann.member.click(stale_choice, label="↻ Refresh"))
    assert STALE not in text_of(stale_page) and "waiting for bob" in text_of(stale_page)
    assert table.actions == moves and table.revision == revision + 1


# -- steps: the option tree itself -----------------------------------------------------------------
def indices_of(legal: Sequence[Action], action: Action) -> tuple[int, ...]:
    """The indices that lead to ``action``, found as a person clicks: each step's option."""
    prefix: tuple[int, ...] = ()
    while isinstance(node := resolve(legal, prefix), Step):
        depth = len(prefix)
        wanted = action.path[depth] if depth < len(action.path) else None
        options = [o for o in node.choices if (o.index == HERE) == (wanted is None)]
        chosen = [o.index for o in options if wanted is None or o.step == wanted]
        assert len(chosen) == 1, f"{action.text}: {wanted!r} is offered {len(chosen)} times"
        prefix = (*prefix, chosen[0])
    assert node == action, f"{action.text}'s steps lead to {node.text}"
    return prefix


def positions(game_id: str, count: int) -> Iterator[State]:
    """The first ``count`` positions of a random game."""
    game = games()[game_id]
    players = min(game.player_counts)
    state = game.new_state(players, seed=7)
    agents = [RandomAgent()] * players
    rngs = [random.Random(seat) for seat in range(players)]
    order = random.Random(0)
    for _ in range(count):
        if state.is_over:
            return
        yield state
        step(state, agents, rngs, order)


@pytest.mark.parametrize("game_id", sorted(games()))
def test_each_legal_action_is_reached_by_its_steps(game_id: str) -> None:
    sample = random.Random(game_id)
    for state in positions(game_id, 40):
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            # A sample keeps it fast: each step of twentytwo's thousand exchanges costs ms.
            size = 10 if len(legal) <= 100 else 2
            for action in sample.sample(legal, min(len(legal), size)):
                assert resolve(legal, indices_of(legal, action)) == action


@dataclass(frozen=True)
class Choice:
    """A stand-in action: its text and its steps."""

    text: str
    path: tuple[str, ...]


def test_a_move_that_ends_where_others_go_on_is_offered_as_here() -> None:
    short = Choice("capture 9D take b9", ("9D", "capture", "b9"))
    long = Choice("capture 9D take b9 4S 5H", ("9D", "capture", "b9", "4S", "5H"))
    legal = (short, long, Choice("discard 9D", ("9D", "discard")))
    node = resolve(legal, (0, 0, 0))
    assert isinstance(node, Step) and node.chosen == ("9D", "capture", "b9")
    assert [(o.index, o.step, o.only) for o in node.choices] == [
        (HERE, short.text, short),
        (0, "4S", long),
    ]
    assert resolve(legal, (0, 0, 0, HERE)) == short
    assert resolve(legal, (0, 0, 0, 0)) == long
    assert resolve(legal, (0, 1)) == legal[2]
    for stale in [(1,), (0, 2), (HERE,), (0, 0, 0, HERE, 0), (0, 0, 0, 1)]:
        with pytest.raises(StaleChoice):
            resolve(legal, stale)


async def test_a_move_before_the_out_of_turn_window_closes_says_how_long_to_wait(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    options = {"snap_seconds": SNAP_SECONDS, "rounds": 1}
    table = await open_table(bot, channel, [ann, bob], "cambio", 0, options)
    players = {table.seat_of(player.id): player for player in (ann, bob)}
    while table.window_left(env.now()) == 0:  # plain moves until a discard opens snaps
        seat = next(s for s in table.state.to_act() if s in table.state.waiting_for())
        texts = [action.text for action in table.state.legal_actions(seat)]
        wanted = [text for text in ("look A B", "draw", "discard", "skip") if text in texts]
        await play(players[seat], table, wanted[0])
    seat = table.state.waiting_for()[0]
    player = players[seat]
    revision = table.revision
    hand = await open_hand(player, channel, table)
    draw = next(a for a in table.state.legal_actions(seat) if a.text == "draw")
    step = resolve(table.state.legal_actions(seat), ())
    assert isinstance(step, Step)
    _, label = option_towards(table, step, draw)
    refused = answer(await player.member.click(hand, label=label))
    assert f"Others may still play out of turn for {SNAP_SECONDS} seconds" in text_of(refused)
    assert table.revision == revision
