"""A whole game of each kind in each language Cardroom ships, through the real bot under
simcord with its real catalogs: a server admin chooses the language with ``/cardroom
language``, each player with ``/language``; the people find every button by its label in that
language, play to the end, and every message stays within Discord's limits."""

from __future__ import annotations

import random

import pytest
import simcord

from bot.app import CardroomBot
from bot.i18n import LANGUAGES, SOURCE_LANGUAGE, catalog
from engine.registry import games
from engine.words import _, speaking
from tests.bot.conftest import admin
from tests.bot.helpers import (
    Playthrough,
    add_player,
    all_messages,
    assert_within_discord_limits,
    open_table,
    results_message,
    short_options,
    speak_labels,
)

TRANSLATED = [language for language in LANGUAGES if language != SOURCE_LANGUAGE]


@pytest.fixture(params=TRANSLATED)
def language(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A language, in which people click the labels the bot shows them."""
    chosen: str = request.param

    def translate(label: str) -> str:
        with speaking(catalog(chosen)):
            return _(label)

    speak_labels(monkeypatch, translate)
    return chosen


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(games()))
async def test_a_whole_game_in_each_language(
    env: simcord.Env,
    bot: CardroomBot,
    guild: simcord.GuildHandle,
    language: str,
    game_id: str,
) -> None:
    game = games()[game_id]
    channel = guild.create_text_channel(f"{language}-{game_id}")
    await admin(env, guild, "boss").slash(channel, "cardroom language", language=language)
    seats = min(game.player_counts)
    players = [add_player(env, guild, f"player{i}") for i in range(2 if seats >= 2 else 1)]
    for player in players:
        await player.member.slash(channel, "language", language=language)
    table = await open_table(
        bot, channel, players, game_id, max(1, seats - len(players)), short_options(game)
    )
    assert table.language == language
    await Playthrough(env, channel, players, table, random.Random(game_id)).to_the_end()
    with speaking(catalog(language)):
        title = _("{game} — results").format(game=_(game.name))
    assert results_message(channel, title) is not None, "the results, in the table's language"
    for message in all_messages(channel, players):
        assert_within_discord_limits(message)
