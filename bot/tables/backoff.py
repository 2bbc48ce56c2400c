"""Trying again after a failure: how long to wait (``retry_delay``), and an outage of Discord
said once (``Outage``) however many calls it fails."""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import datetime

from bot.tables.records import Clock

log = logging.getLogger(__name__)

RETRY_FIRST_SECONDS = 1.0
RETRY_MOST_SECONDS = 30.0
# a call answered this long after the last one that failed ends an outage, even if it is
# another kind of call (a route Discord refused may never be tried again)
QUIET_SECONDS = 60.0


def retry_delay(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failure in a row before trying again: about
    1 s, then twice as long each time up to 30 s, less up to a fifth at random. An outage (of
    the database, of Discord) fails every table's calls at once: the doubling keeps hundreds of
    tables from hammering it every second, and the random share keeps them from all coming
    back at the same moment when it recovers."""
    base = min(RETRY_MOST_SECONDS, RETRY_FIRST_SECONDS * 2.0 ** min(failures - 1, 16))
    return base * random.uniform(0.8, 1.0)


async def wait_to_retry(seconds: float) -> None:
    """Wait ``seconds`` before trying a failed call again. Every retry of the bot waits here,
    called as ``backoff.wait_to_retry``: the one seam where tests put these waits on simulated
    time only (a test's clock moves when it says, not when a real second has passed)."""
    await asyncio.sleep(seconds)


class DiscordUnavailable(Exception):
    """Discord did not answer a call (a 5xx, a 429 past discord.py's own waits, a dropped
    connection, a timeout): worth trying again a little later, unlike a refusal."""


class Outage:
    """Whether Discord answers the tables' calls, as they find it: one warning when a call
    first fails, one line when the outage is over, and nothing for the calls in between (an
    outage fails every table's edits: a traceback each would bury the log). It is over when a
    call that failed is answered, or any call a minute after the last failure: Discord may
    refuse one route (posting in a channel) and answer others (edits) meanwhile."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.since: datetime | None = None  # when the first call of this outage failed
        self.last: datetime | None = None  # when the latest one did
        self.failures = 0  # calls failed since ``since``

    def failed(self, error: BaseException) -> None:
        """A call got no answer (the caller tries it again)."""
        self.failures += 1
        self.last = self.clock()
        if self.since is None:
            self.since = self.last
            log.warning(
                "Discord is not answering (%s); the tables' updates are tried again with "
                "backoff, the latest state of each first",
                error or type(error).__name__,
            )

    def answered(self, *, retried: bool) -> None:
        """A call succeeded (``retried``: after failing): an outage may be over."""
        if self.since is None or self.last is None:
            return
        now = self.clock()
        if not retried and (now - self.last).total_seconds() < QUIET_SECONDS:
            return
        log.info(
            "Discord answers again after %.0f s (%d calls failed meanwhile)",
            (now - self.since).total_seconds(),
            self.failures,
        )
        self.since = self.last = None
        self.failures = 0
