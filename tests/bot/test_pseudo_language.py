"""Every screen of every game in a language 40% longer than English (``tests.pseudo``) stays
within Discord's limits: the lobby and its AI offer, the table, the Hand view and its pick
menus, the hand DMs, the results, the boards, the rules (what How to play shows too), a
replay, help, the settings and the errors, each driven through the real bot under simcord.

Every catalog the bot loads is the pseudo-language here, so whatever a message shows in
English was never marked (``test_marked_words_reach_the_screen`` checks that the marking
reaches the screens at all)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot.app import CardroomBot
from engine import languages as loader
from engine import words
from engine.registry import games
from tests.bot.conftest import admin
from tests.bot.helpers import (
    Playthrough,
    add_player,
    all_messages,
    assert_within_discord_limits,
    components,
    layout_of,
    open_table,
    short_options,
    speak_labels,
    text_of,
)
from tests.pseudo import PADDING, PseudoCatalog, pseudo

PSEUDO = PseudoCatalog()


@pytest.fixture(autouse=True)
def pseudo_language(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every catalog is the pseudo-language, and so is the English nothing chose; people
    click the labels they see (the pseudo form where the bot shows it)."""
    monkeypatch.setattr(loader, "_compiled", lambda language: PSEUDO)
    speak_labels(monkeypatch, pseudo)
    with words.speaking(PSEUDO):
        yield


def assert_within_limits(message: Any) -> None:
    """Discord's limits on a message: its content 2000 characters; an embed's title 256, its
    description 4096 and all its text 6000; a Components V2 message's text 4000, a button's
    label 80, a select's options' labels and descriptions 100, its placeholder 150."""
    assert len(message.content or "") <= 2000, "content"
    total = 0
    for embed in message.embeds:
        title, description = embed.title or "", embed.description or ""
        assert len(title) <= 256 and len(description) <= 4096, "embed"
        footer = embed.footer.text if embed.footer and embed.footer.text else ""
        total += len(title) + len(description) + len(footer)
        total += sum(len(field.name or "") + len(field.value or "") for field in embed.fields)
    assert total <= 6000, "embeds' text"
    assert_within_discord_limits(message)
    for item in layout_of(message):
        assert len(str(item.get("placeholder") or "")) <= 150, "placeholder"
        for option in item.get("options", []):
            assert len(str(option.get("description") or "")) <= 100, "option description"


def answers(result: simcord.InteractionResult) -> list[Any]:
    """The messages an interaction was answered with."""
    return [*([result.response] if result.response is not None else []), *result.followups]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(games()))
async def test_every_screen_of_a_game_fits_in_a_longer_language(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, game_id: str
) -> None:
    game = games()[game_id]
    channel = guild.create_text_channel(f"pseudo-{game_id}")
    seats = min(game.player_counts)
    players = [add_player(env, guild, f"player{i}") for i in range(2 if seats >= 2 else 1)]
    seen: list[Any] = []
    host = players[0].member
    rules = await host.slash(channel, "game rules", game=game_id)
    seen += answers(rules)
    table = await open_table(
        bot, channel, players, game_id, max(1, seats - len(players)), short_options(game)
    )
    play = Playthrough(env, channel, players, table, random.Random(f"pseudo/{game_id}"))
    await play.to_the_end()
    for command, options in [
        ("scoreboard", {"game": game_id}),
        ("stats", {}),
        ("game history", {}),
        ("game replay", {"table": table.table_id}),
        ("game leave", {}),  # no game any more: an error, privately
        ("game hand", {}),
    ]:
        seen += answers(await host.slash(channel, command, **options))
    replay = seen[-4] if seen else None
    if replay is not None:
        for item in components(replay)[:3]:
            if item.get("type") == 2 and item.get("custom_id"):
                seen += answers(await host.click(replay, custom_id=item["custom_id"]))
    everything = [*all_messages(channel, players), *seen]
    assert len(everything) > 10
    for message in everything:
        assert_within_limits(message)


async def test_help_settings_and_choices_fit_in_a_longer_language(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    boss = admin(env, guild, "boss")
    seen: list[Any] = []
    for command, options in [
        ("help", {}),
        ("game pings", {}),
        ("language", {}),
        ("language", {"language": "de"}),
        ("cardroom language", {}),
        ("cardroom settings", {}),
        ("game stop", {}),  # nothing to stop: an error
    ]:
        seen += answers(await boss.slash(channel, command, **options))
    for message in seen:
        assert_within_limits(message)


async def test_marked_words_reach_the_screen(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    boss = admin(env, guild, "boss")
    for command in ("help", "language", "cardroom language"):
        result = await boss.slash(channel, command)
        assert result.response is not None and PADDING in text_of(result.response), command
