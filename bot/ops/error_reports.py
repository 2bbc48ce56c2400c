"""Error reports to Sentry when ``SENTRY_DSN`` is set (the ``sentry`` extra: sentry-sdk).

Unhandled errors of asyncio tasks (its asyncio integration) and every error the bot logs
are sent. A report must not carry a hidden card: stack frames' local variables are never
sent (a table's state holds every hand), and every text of an event is scrubbed of
anything shaped like a card, a seed or a token before it leaves.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.ops.logs import TOKEN
from bot.settings import Settings

if TYPE_CHECKING:
    from sentry_sdk.transport import Transport

log = logging.getLogger(__name__)

CARD = re.compile(
    r"\b(10|[2-9AJQK])[CDHS]\b|\b(10|[2-9AJQK])[♣♦♥♠]\ufe0e?\ufe0f?"
    r"|\b(ace|jack|queen|king|10|[2-9]) of (clubs|diamonds|hearts|spades)\b",
    re.IGNORECASE,
)
SEED = re.compile(r"\bseed\W+\d+|\b\d{12,}/ai/\d+/\d+\b", re.IGNORECASE)


def scrub(value: Any) -> Any:
    """``value`` with every card, seed and token in its texts blanked, however nested."""
    if isinstance(value, str):
        return TOKEN.sub("[token]", SEED.sub("[seed]", CARD.sub("[card]", value)))
    if isinstance(value, Mapping):
        return {key: scrub(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    return value


def _scrub_event(event: Any, _hint: Any) -> Any:
    return scrub(event)


def start_error_reports(settings: Settings, transport: Transport | None = None) -> bool:
    """Send error reports when SENTRY_DSN is set (call it on the running loop, for the
    asyncio integration); False when it is not, or sentry-sdk is not installed."""
    if settings.sentry_dsn is None:
        return False
    try:
        import sentry_sdk
        from sentry_sdk.integrations.asyncio import AsyncioIntegration
    except ImportError:
        log.warning("SENTRY_DSN is set but sentry-sdk is not: pip install 'cardroom[sentry]'")
        return False
    sentry_sdk.init(
        dsn=settings.sentry_dsn.get_secret_value(),
        integrations=[AsyncioIntegration()],
        include_local_variables=False,  # a table's state in a frame holds every hand
        max_request_body_size="never",
        before_send=_scrub_event,
        before_send_transaction=_scrub_event,
        before_breadcrumb=_scrub_event,
        transport=transport,
    )
    return True
