"""A whole game of every registered game through the bot: lobby, start, moves through the Hand
view and through DMs, AI seats, the end and the results message; and no hidden card leaks."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
import simcord

from bot.app import CardroomBot
from bot.errors import UserError
from bot.tables.session import TableSession
from engine.registry import games
from tests.bot.helpers import (
    Player,
    Playthrough,
    add_player,
    all_messages,
    all_seen,
    allowed_cards,
    assert_within_discord_limits,
    cards_in,
    components,
    open_table,
    results_message,
    short_options,
    text_of,
)


async def play_to_the_end(
    env: simcord.Env,
    bot: CardroomBot,
    channel: simcord.ChannelHandle,
    players: list[Player],
    game_id: str,
    ai_seats: int,
    *,
    check_leaks: bool = False,
) -> int:
    """Play a whole game; returns the number of human moves."""
    game = games()[game_id]
    table = await open_table(bot, channel, players, game_id, ai_seats, short_options(game))
    play = Playthrough(env, channel, players, table, random.Random(f"test/{game_id}"))
    # Cards each seat (None: the channel) was allowed to see at some point: an old hand DM
    # keeps showing the cards of its hand.
    ever: dict[int | None, set[str]] = {}

    def watch(player: Player | None, seen: Sequence[Any]) -> None:
        remember(ever, table)
        if player is not None:
            seat = table.seat_of(player.id)
            for message in seen:
                leaked = cards_in(text_of(message)) - ever[seat]
                assert not leaked, f"{player.member.name} saw hidden {leaked} in {text_of(message)}"
        assert_no_leaks(channel, players, table, ever)

    await play.to_the_end(watch if check_leaks else None)
    return play.human_moves


def remember(ever: dict[int | None, set[str]], table: TableSession) -> None:
    """Add what each seat (and the channel) may see now (at the end: the final reveal)."""
    for seat in [None, *range(len(table.seats))]:
        ever.setdefault(seat, set()).update(allowed_cards(table, seat))


def assert_no_leaks(
    channel: simcord.ChannelHandle,
    players: list[Player],
    table: TableSession,
    ever: dict[int | None, set[str]],
) -> None:
    """Nobody sees a card their seat was never allowed to see (per the engine's views)."""
    for who, text in all_seen(channel, players):
        seat = None if who is None else table.seat_of(who.id)
        leaked = cards_in(text) - ever[seat]
        assert not leaked, f"{'the channel' if who is None else who.member.name} sees {leaked}"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(games()))
async def test_whole_game(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, game_id: str
) -> None:
    game = games()[game_id]
    channel = guild.create_text_channel(f"play-{game_id}")
    seats = min(game.player_counts)
    humans = 2 if seats >= 2 else 1
    players = [add_player(env, guild, f"player{i}") for i in range(humans)]
    moves = await play_to_the_end(
        env, bot, channel, players, game_id, ai_seats=max(0, seats - humans)
    )
    assert moves > 0
    results = results_message(channel)
    assert results is not None, "no results message"
    text = text_of(results)
    assert f"{game.name} — results" in text and "Rematch" in text
    for player in players:
        assert player.member.name in text
    # who won and with what, each total in points; each hand's scores a player a line
    assert " win" in text.split("\n")[1] and re.search(r"\*\* — \d+ points?\n", text)
    assert "Hand by hand" in text and "◦ Totals: " in text
    # every hand DM is superseded: a short line, no cards, no controls; the last one names
    # the winner and links to the results message
    winner = text.split("\n")[1]
    for player in players:
        for dm in player.user.dm_channel.history():
            assert components(dm) == [] and cards_in(text_of(dm)) == set()
            assert "is over" in text_of(dm)
        last = text_of(player.user.dm_channel.history()[-1])
        assert winner in last and f"/{guild.id}/{channel.id}/{results.id}" in last
    # short enough for a phone's screen; a picture only when the end shows cards (fishing's
    # table is empty then; cambio reveals every hand)
    assert len(text) < 1500, text
    # each hand's or round's scores but the last (in the results) were posted when it ended
    titles = re.findall(r"\*\*((?:Hand|Round) \d+ scores)\*\*", text)
    posted = [m for m in channel.history() if re.match(r"### (Hand|Round) \d+ scores", text_of(m))]
    assert [text_of(m).splitlines()[0][4:] for m in posted] == titles[:-1]
    if game_id in ("fishing", "cambio"):
        assert bool(results.attachments) is (game_id == "cambio")
    # nothing is left running or kept in memory
    assert channel.id not in bot.tables.by_channel
    assert not bot.tables.tables and not bot.tables.display._tables
    with pytest.raises(UserError, match="This game is over"):  # what a late click is told
        bot.tables.table(next(iter(bot.tables.rematches)))
    finished = await bot.storage.results.replay_record(next(iter(bot.tables.rematches)))
    assert finished is not None and finished["game"] == game_id
    # the scoreboard and stats count the game; Rematch opens a lobby seating only the clicker
    board = await players[0].member.slash(channel, "scoreboard", game=game_id)
    assert board.response is not None and "player0" in text_of(board.response)
    stats = await players[1].member.slash(channel, "stats")
    assert stats.ephemeral and stats.response is not None
    assert f"**{games()[game_id].name}**\n`games   ` 1 · " in text_of(stats.response)
    for message in all_messages(channel, players):
        assert_within_discord_limits(message)
    await players[1].member.click(results, label="Rematch")
    lobby = bot.tables.lobbies.get(bot.tables.by_channel[channel.id])
    assert lobby.host_id == players[1].id
    assert [seat.user_id for seat in lobby.seats] == [players[1].id]
    # the offer is used once: a second click (a cancelled lobby, the channel free) is refused
    bot.tables.lobbies.close(lobby)
    again = await players[0].member.click(results, label="Rematch")
    assert again.ephemeral and "no longer available" in text_of(again.response)
    assert channel.id not in bot.tables.by_channel


@pytest.mark.slow
@pytest.mark.parametrize(
    "game_id", [g for g in ("cambio", "twentytwo") if g in games()] or ["fishing"]
)
async def test_no_hidden_card_leaks(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, game_id: str
) -> None:
    channel = guild.create_text_channel(f"leaks-{game_id}")
    players = [add_player(env, guild, f"p{i}") for i in range(3)]
    await play_to_the_end(env, bot, channel, players, game_id, ai_seats=1, check_leaks=True)
    assert results_message(channel) is not None
