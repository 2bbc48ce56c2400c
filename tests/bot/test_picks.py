"""Several cards chosen in one step: a Hand's multi-select makes the move in one choice, a set
that is no move gets a private answer and the same choice again, a stale one changes nothing."""

from __future__ import annotations

from typing import Any

import simcord

from bot.app import CardroomBot
from bot.tables.session import NOT_A_MOVE, TableSession
from bot.text import suit_symbols
from tests.bot.helpers import (
    Player,
    add_player,
    answer,
    hand_dm,
    move_buttons,
    open_table,
    pick,
    play,
    table_message,
    text_of,
)
from tests.engine.test_swazi import stacked
from tests.engine.test_twentytwo import deal_deck

STALE = "no longer possible"


def menu_of(message: Any) -> dict[str, Any]:
    """The hand's multi-select of cards (its only control that makes a move)."""
    (menu,) = [item for item in move_buttons(message) if item["custom_id"].startswith("cr:pick:")]
    return menu


def option_labels(menu: dict[str, Any]) -> list[str]:
    return [option["label"] for option in menu["options"]]


def values_of(menu: dict[str, Any], *labels: str) -> list[str]:
    """The values of the options labelled ``labels``."""
    by_label = {option["label"]: option["value"] for option in menu["options"]}
    return [by_label[label] for label in labels]


async def cambio_table(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> tuple[TableSession, Player, Player]:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    table = await open_table(bot, channel, [ann, bob], "cambio", 0, {"rounds": 1})
    return table, ann, bob


async def test_cambios_opening_look_is_one_choice_of_two_cards_in_the_hand(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, ann, bob = await cambio_table(env, bot, guild, channel)
    hand = answer(await ann.member.click(table_message(channel, table), label="Hand"))
    assert "**Look at which two of your cards?**" in text_of(hand)
    menu = menu_of(hand)
    assert option_labels(menu) == ["Your card A", "Your card B", "Your card C", "Your card D"]
    assert (menu["min_values"], menu["max_values"]) == (2, 2)
    assert menu["placeholder"] == "Choose 2"
    assert "…" not in text_of(hand)
    revision = table.revision
    values = values_of(menu, "Your card D", "Your card B")
    looked = answer(await ann.member.select(hand, values, custom_id=menu["custom_id"]))
    assert table.actions[revision:] == [(0, "look B D")], "one choice, one move"
    assert not any(i["custom_id"].startswith("cr:pick:") for i in move_buttons(looked))
    # the same in the hand DM, for bob
    dm = hand_dm(bob, table)
    menu = menu_of(dm)
    await bob.user.select(dm, values_of(menu, "Your card A", "Your card C"), **_id(menu))
    assert table.actions[revision + 1 :] == [(1, "look A C")]


def _id(menu: dict[str, Any]) -> dict[str, Any]:
    return {"custom_id": menu["custom_id"]}


async def test_a_look_chosen_in_a_view_drawn_before_anothers_look_counts_a_stale_one_not(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    table, ann, bob = await cambio_table(env, bot, guild, channel)
    bot.tables.display.edit_seconds = 3600  # the Hand views are not redrawn before the clicks
    hands = [
        answer(await player.member.click(table_message(channel, table), label="Hand"))
        for player in (ann, bob)
    ]
    await play(bob, table, "look A B")  # in his DM: ann's choices stay as they were
    menu = menu_of(hands[0])
    chosen = values_of(menu, "Your card A", "Your card C")
    await ann.member.select(hands[0], chosen, custom_id=menu["custom_id"])
    assert table.actions[-1] == (0, "look A C"), "another seat's look left this view valid"
    moves = list(table.actions)
    # bob's Hand view was drawn before his own look: its choice is stale
    menu = menu_of(hands[1])
    again = values_of(menu, "Your card C", "Your card D")
    stale = answer(await bob.member.select(hands[1], again, custom_id=menu["custom_id"]))
    assert stale.ephemeral and STALE in text_of(stale)
    assert table.actions == moves


async def test_twentytwos_exchange_names_ranks_and_takes_any_copy_in_one_choice(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    deck = deal_deck(2, 0, {1: "9C 10C JC QC KC AC 9D", 0: "2D 2H 4D 5D 6D 7D 8D"})
    table = await open_table(bot, channel, [ann, bob], "twentytwo", 0, deck=deck)
    await play(bob, table, "keep")
    dm = hand_dm(ann, table)
    step = await pick(ann.user, dm, "Exchange cards …")
    menu = menu_of(step)
    assert option_labels(menu) == ["2", "2 (2nd)", "4", "5", "6", "7", "8"]
    assert (menu["min_values"], menu["max_values"]) == (1, 7)
    assert "only ranks matter" in text_of(step)
    revision = table.revision
    await ann.user.select(step, values_of(menu, "2 (2nd)", "8"), custom_id=menu["custom_id"])
    assert table.actions[revision:] == [(0, "exchange 2D 8D")], "either 2: the same exchange"


async def test_cards_that_make_no_play_together_get_a_private_answer_and_the_choice_again(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    deck = deal_deck(2, 0, {1: "9C 10C JC QC KC AC 9D", 0: "2D 3D 4D 5D 6D 7D 8D"})
    table = await open_table(bot, channel, [ann, bob], "twentytwo", 0, deck=deck)
    await play(bob, table, "keep")
    await play(ann, table, "keep")
    hand = answer(await bob.member.click(table_message(channel, table), label="Hand"))
    menu = menu_of(hand)
    assert "Lead which cards? (1 to 2 of one rank)" in text_of(hand)
    assert (menu["min_values"], menu["max_values"]) == (1, 2)
    moves = list(table.actions)
    refused = answer(
        await bob.member.select(hand, values_of(menu, "9", "10"), custom_id=menu["custom_id"])
    )
    assert refused.ephemeral and NOT_A_MOVE in text_of(refused)
    assert table.actions == moves, "no move made"
    menu = menu_of(refused)  # the same choice, at once
    await bob.member.select(refused, values_of(menu, "9", "9 (2nd)"), custom_id=menu["custom_id"])
    assert table.actions[-1] == (1, "play 9C 9D")


async def test_a_choice_in_a_view_drawn_before_the_seats_own_move_is_stale(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    deck = deal_deck(2, 0, {1: "9C 9D 10C 10D JC QC KC", 0: "2D 3D 4D 5D 6D 7D 8D"})
    table = await open_table(bot, channel, [ann, bob], "twentytwo", 0, deck=deck)
    bot.tables.display.edit_seconds = 3600  # the Hand view is not redrawn before the click
    await play(bob, table, "keep")
    await play(ann, table, "keep")
    hand = answer(await bob.member.click(table_message(channel, table), label="Hand"))
    await play(bob, table, "play 9C 9D")
    await play(ann, table, "play 2D 3D")
    assert table.state.waiting_for() == (1,), "bob leads again, from another hand"
    moves = list(table.actions)
    # the first item of the old menu (a 9) is the first of the new one too (a 10): only the
    # revision tells the old choice from a new one
    menu = menu_of(hand)
    assert menu["options"][0] == {**menu["options"][0], "label": "9", "value": "0"}
    stale = answer(await bob.member.select(hand, ["0"], custom_id=menu["custom_id"]))
    assert STALE in text_of(stale)
    assert table.actions == moves


async def test_a_swazi_capture_that_is_no_move_shows_the_same_capture_again(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    ann, bob = add_player(env, guild, "ann"), add_player(env, guild, "bob")
    deck = stacked("4S 5H 2C 7D", hand1="9D")  # bob (seat 1) plays first
    table = await open_table(bot, channel, [ann, bob], "swazi", 0, deck=deck)
    hand = answer(await bob.member.click(table_message(channel, table), label="Hand"))
    step = await pick(bob.member, hand, suit_symbols("9♦: capture, build or lay it down …"))
    step = await pick(bob.member, step, suit_symbols("Capture with 9♦ …"))
    question = suit_symbols("**Capture what with 9♦?**")
    assert question in text_of(step)
    menu = menu_of(step)
    assert (menu["min_values"], menu["max_values"]) == (2, 4)
    moves = list(table.actions)
    four, two = suit_symbols("4♠"), suit_symbols("2♣")
    refused = answer(await bob.member.select(step, values_of(menu, four, two), **_id(menu)))
    assert NOT_A_MOVE in text_of(refused) and question in text_of(refused)
    assert table.actions == moves
    menu = menu_of(refused)
    await bob.member.select(refused, values_of(menu, four, suit_symbols("5♥")), **_id(menu))
    assert table.actions[-1] == (1, "capture 9D take 4S 5H")
