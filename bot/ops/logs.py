"""Cardroom's logs: text or one JSON object a line (``LOG_FORMAT``), each line of a table's
work carrying its server, channel, table and shard ids.

The ids ride in a context variable: ``bind_table`` sets it in the task doing a table's work
(an interaction's, a timer's), and the tasks that work starts inherit it. What the logs must
never hold: a hidden card, a seed, the token. Cardroom's own lines name tables by id only;
discord.py's debug lines of its REST requests and gateway events carry message payloads
(hand DMs hold cards) and aiosqlite's carry every statement with its parameters (a saved
game's whole state and seed), so those loggers stay at INFO whatever the level, and
anything shaped like a bot token is blanked.
"""

from __future__ import annotations

import logging
import re
import sys
from contextvars import ContextVar
from typing import NamedTuple, TextIO

from pythonjsonlogger.json import JsonFormatter


class TableIds(NamedTuple):
    """The ids a table's log lines carry."""

    server_id: int
    channel_id: int
    table_id: str


TABLE: ContextVar[TableIds | None] = ContextVar("cardroom_table", default=None)

# loggers whose DEBUG lines carry hidden cards: message payloads (hand DMs), SQL parameters
PAYLOAD_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook.async_", "aiosqlite")
# a Discord bot token: base64 user id, a timestamp and an HMAC, dot-separated
TOKEN = re.compile(r"[\w-]{23,28}\.[\w-]{6,7}\.[\w-]{27,40}")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(table)s: %(message)s"
JSON_FIELDS = ("asctime", "levelname", "name", "message")


def bind_table(server_id: int, channel_id: int, table_id: str) -> None:
    """The rest of this task (and the tasks it starts) works for this table."""
    TABLE.set(TableIds(server_id, channel_id, table_id))


class TableContext(logging.Filter):
    """Adds the table's ids (and the shard of its server) to each record; blanks tokens."""

    def __init__(self, shard_count: int) -> None:
        super().__init__()
        self.shard_count = shard_count

    def filter(self, record: logging.LogRecord) -> bool:
        """Always keeps the record, with the ids added."""
        ids = TABLE.get()
        record.table = ""
        if ids is not None:
            record.server_id = str(ids.server_id)
            record.channel_id = str(ids.channel_id)
            record.table_id = ids.table_id
            record.shard_id = (ids.server_id >> 22) % self.shard_count
            record.table = f" [table {ids.table_id}]"
        message = record.getMessage()
        if TOKEN.search(message):
            record.msg, record.args = TOKEN.sub("[token]", message), None
        return True


def configure_logging(
    log_format: str, level: str, shard_count: int, stream: TextIO = sys.stderr
) -> logging.Handler:
    """Send every log line to ``stream`` as text or JSON at ``level``; returns the handler."""
    handler = logging.StreamHandler(stream)
    if log_format == "json":
        handler.setFormatter(
            JsonFormatter(
                list(JSON_FIELDS),
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
                reserved_attrs=[*logging.LogRecord("", 0, "", 0, "", (), None).__dict__, "table"],
            )
        )
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    handler.addFilter(TableContext(shard_count))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, root.level))
    return handler
