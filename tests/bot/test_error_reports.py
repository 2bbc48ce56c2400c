"""Error reports to Sentry, recorded offline: an asyncio task's error is reported, and no
report carries a card, a seed or a token."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sentry_sdk
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from bot.ops.error_reports import CARD, SEED, start_error_reports
from bot.ops.logs import TOKEN
from tests.bot.conftest import fast_settings
from tests.bot.test_doctor import TOKEN as BOT_TOKEN


class Recorded(Transport):
    """A transport that keeps the events instead of sending them."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict[str, Any]] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        self.events += [item.payload.json for item in envelope.items if item.payload.json]


@pytest.fixture
def recorded() -> Iterator[Recorded]:
    transport = Recorded()
    yield transport
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # no DSN: nothing is reported by the tests that follow


def test_without_a_dsn_nothing_is_reported(tmp_path: Path) -> None:
    assert not start_error_reports(fast_settings(tmp_path))


async def test_a_tasks_error_is_reported_without_its_cards(
    tmp_path: Path, recorded: Recorded
) -> None:
    settings = fast_settings(tmp_path, sentry_dsn="https://key@sentry.invalid/1")
    assert start_error_reports(settings, recorded)

    async def table_work() -> None:
        hand = ["9D", "QS", "10H"]  # a local variable of the failing frame
        seed = 4058991905045039488
        logging.getLogger("bot.tables").info("table 1: dealt from seed %d", seed)
        raise RuntimeError(f"cannot play 9D from {hand} (king of spades), token {BOT_TOKEN}")

    task = asyncio.get_running_loop().create_task(table_work())
    await asyncio.gather(task, return_exceptions=True)
    sentry_sdk.flush()
    [event] = recorded.events
    assert event["exception"]["values"][0]["mechanism"]["type"] == "asyncio"
    text = json.dumps(event, ensure_ascii=False)
    assert "cannot play [card] from" in text
    assert not CARD.search(text) and not SEED.search(text) and not TOKEN.search(text)
    assert "4058991905045039488" not in text
