"""The interaction fuzzer (scripts/fuzz_interactions.py): a short seeded run of it is clean,
and it does catch what it checks: an interaction left unanswered, an error logged while
answering, each reported with the steps that lead to it, shrunk to fewer."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from typing import Any
from unittest import mock

import discord
import pytest

from bot.boards.ratings import Ratings
from tests.scripts import SCRIPTS, load_script

SCRIPT = SCRIPTS / "fuzz_interactions.py"


@pytest.mark.slow
def test_a_short_seeded_run_is_clean() -> None:
    # the timeout only guards against a hang
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--seed", "30", "--interactions", "400"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    assert figures["seed"] == 30 and figures["failures"] == 0
    assert figures["interactions"] >= 400 and figures["interactions_per_second"] > 0
    assert "fuzz_interactions: seed 30" in done.stderr


async def test_an_unanswered_interaction_fails_the_run_with_its_steps_shrunk() -> None:
    fuzzer = load_script("fuzz_interactions")

    send = discord.InteractionResponse.send_message

    async def lost_for_help(
        response: discord.InteractionResponse[Any], *args: Any, **kwargs: Any
    ) -> Any:
        """/help's answer never reaches Discord; the others do."""
        command = response._parent.command
        if command is None or command.name != "help":
            return await send(response, *args, **kwargs)

    with mock.patch.object(discord.InteractionResponse, "send_message", lost_for_help):
        failed = await fuzzer.fuzz(5, range(400))
        assert failed.failure is not None and "'help' was never answered" in failed.failure
        assert failed.done[-1].startswith(f"step {failed.steps[-1]}: ")
        shrunk = await fuzzer.shrink(5, failed, 60.0)
    assert shrunk.failure is not None and "'help' was never answered" in shrunk.failure
    assert len(shrunk.steps) < len(failed.steps)
    assert shrunk.steps[-1] == failed.steps[-1], "the failing step stays"


async def test_an_error_logged_while_answering_fails_the_run() -> None:
    fuzzer = load_script("fuzz_interactions")
    broken = mock.patch("bot.boards.commands.stats_message", side_effect=RuntimeError("bug"))
    with broken:
        failed = await fuzzer.fuzz(5, range(400))
    assert failed.failure is not None and "RuntimeError" in failed.failure
    assert "/stats" in failed.done[-1]


def test_the_steps_of_a_failure_are_written_as_ranges_and_read_back() -> None:
    fuzzer = load_script("fuzz_interactions")
    steps = [0, 1, 2, 3, 7, 9, 10]
    assert fuzzer.written_steps(steps) == "0-3,7,9-10"
    assert fuzzer.read_steps("0-3,7,9-10") == steps


async def test_a_step_outlasting_the_settle_is_waited_for_and_counted() -> None:
    fuzzer = load_script("fuzz_interactions")

    async def slow(*_args: Any) -> list[Any]:
        """/stats's database read, on a machine too busy to answer within the settle."""
        await asyncio.to_thread(time.sleep, 1.0)
        return []

    with (
        mock.patch.object(fuzzer, "SETTLE_SECONDS", 0.5),
        mock.patch.object(Ratings, "stats", slow),
    ):
        outcome = await fuzzer.fuzz(5, range(150))
    assert outcome.failure is None
    # each /stats step, at least (on a busy machine, a step of another kind may be too)
    assert outcome.slow_steps >= sum("/stats" in step for step in outcome.done) > 0
