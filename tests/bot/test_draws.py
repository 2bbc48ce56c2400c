"""Deal seeds and table ids come from ``secrets``, and a new table id is used by no stored game."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
import simcord

from bot.app import CardroomBot
from bot.storage import BrokenGame
from bot.tables.service import SecretDraws
from engine.registry import games
from tests.bot.helpers import add_player, open_table
from tests.bot.records import finished
from tests.bot.test_storage import saved

FINISHED_ID, RUNNING_ID, SET_ASIDE_ID, FREE_ID = "f" * 16, "e" * 16, "d" * 16, "c" * 16


class ScriptedSecrets:
    """Stands in for the ``secrets`` module: hands out the given ids and seed, in order."""

    def __init__(self, ids: list[str], seed: int) -> None:
        self.ids: Iterator[str] = iter(ids)
        self.seed = seed
        self.asked: list[str] = []

    def token_hex(self, nbytes: int) -> str:
        self.asked.append(f"token_hex({nbytes})")
        return next(self.ids)

    def randbits(self, bits: int) -> int:
        self.asked.append(f"randbits({bits})")
        return self.seed


async def test_a_table_gets_a_secret_seed_and_an_id_no_stored_game_has(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = env.bot
    assert isinstance(bot, CardroomBot)
    assert isinstance(bot.tables.draws, SecretDraws)
    state = games()["fishing"].new_state(2, 1)
    await bot.storage.results.finish(finished(FINISHED_ID, {1: 1, 2: 2}))
    await bot.storage.running.save(saved(state, table_id=RUNNING_ID))
    await bot.storage.running.save(saved(state, table_id=SET_ASIDE_ID))
    await bot.storage.running.set_aside(
        BrokenGame(table_id=SET_ASIDE_ID, guild_id=1, channel_id=2, error="test")
    )
    fake = ScriptedSecrets(["1" * 16, FINISHED_ID, RUNNING_ID, SET_ASIDE_ID, FREE_ID], 12345)
    monkeypatch.setattr("bot.tables.service.secrets", fake)
    random.seed(0)  # the global generator has nothing to do with it

    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    table = await open_table(bot, channel, [add_player(env, guild, "ann")], "fishing", 1)

    assert (table.table_id, table.seed) == (FREE_ID, 12345)
    assert fake.asked == ["token_hex(8)", "randbits(63)", *["token_hex(8)"] * 4]


def test_secret_draws_are_long_and_do_not_repeat() -> None:
    draws = SecretDraws()
    ids = [draws.table_id() for _ in range(10_000)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[0-9a-f]{16}", each) for each in ids)
    seeds = {draws.seed() for _ in range(1000)}
    assert len(seeds) == 1000 and all(0 <= seed < 2**63 for seed in seeds)
