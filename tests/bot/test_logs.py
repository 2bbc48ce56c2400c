"""The logs at DEBUG, as JSON: one object a line, a table's lines carry its ids, and no
line holds a card, a seed or a token."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator

import pytest
import simcord

from bot.app import CardroomBot
from bot.ops.logs import PAYLOAD_LOGGERS, TOKEN, configure_logging
from engine.registry import games
from tests.bot.helpers import SeededDraws, add_player
from tests.bot.test_whole_games import play_to_the_end

CARD = re.compile(
    r"\b(10|[2-9AJQK])[CDHS]\b|[♣♦♥♠]|\b(ace|jack|queen|king|[2-9]|10) of"
    r" (clubs|diamonds|hearts|spades)\b",
    re.IGNORECASE,
)


@pytest.fixture
def json_logs() -> Iterator[io.StringIO]:
    """Every log line at DEBUG, as LOG_FORMAT=json writes them."""
    stream = io.StringIO()
    root = logging.getLogger()
    level = root.level
    handler = configure_logging("json", "DEBUG", 1, stream)
    yield stream
    root.removeHandler(handler)
    root.setLevel(level)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)


class RecordedDraws(SeededDraws):
    """The tests' draws, keeping every seed dealt."""

    def __init__(self) -> None:
        super().__init__("log scan")
        self.seeds: list[int] = []

    def seed(self) -> int:
        self.seeds.append(super().seed())
        return self.seeds[-1]


@pytest.mark.slow
async def test_whole_games_log_their_tables_ids_and_no_card_seed_or_token(
    env: simcord.Env, bot: CardroomBot, guild: simcord.GuildHandle, json_logs: io.StringIO
) -> None:
    bot.tables.draws = draws = RecordedDraws()
    players = [add_player(env, guild, name) for name in ("ann", "bob")]
    for game_id in sorted(games()):
        await play_to_the_end(env, bot, guild.create_text_channel(game_id), players, game_id, 1)
    assert len(bot.tables.rematches) == len(games())  # each game ended with a result
    lines = json_logs.getvalue().splitlines()
    records = [json.loads(line) for line in lines]  # one JSON object a line
    for table_id, rematch in bot.tables.rematches.items():
        own = [record for record in records if f"table {table_id}" in record["message"]]
        assert own, f"no log line of table {table_id}"
        for record in own:
            assert record["table_id"] == table_id, record
            assert record["server_id"] == str(guild.id), record
            assert record["channel_id"] == str(rematch.channel_id), record
            assert record["shard_id"] == 0
    assert draws.seeds
    for line in lines:
        assert not CARD.search(line), line
        assert not TOKEN.search(line), line
        assert not any(str(seed) in line for seed in draws.seeds), line
