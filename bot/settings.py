"""Settings from the environment and ``.env`` (pydantic-settings); see .env.example.

An empty value (``DEV_GUILD_ID=``) means "not set": the default applies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.connection import parse_database_url
from bot.storage.errors import StorageError
from bot.storage.postgresql import POOL_SIZE, SessionLimits
from bot.storage.shards import Heartbeat, Shards, parse_shard_ids

ENV_FILE = Path(".env")


class Settings(BaseSettings):
    """Everything the bot can be configured with."""

    model_config = SettingsConfigDict(
        env_file=ENV_FILE, env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore"
    )

    discord_token: SecretStr | None = Field(default=None, description="the bot's token")
    database_url: str = Field(
        default="data/cardroom.db",
        # DATABASE_PATH is this setting's name from before PostgreSQL: still read
        validation_alias=AliasChoices("database_url", "database_path"),
        description="a SQLite file (data/cardroom.db, sqlite:///…) or postgresql://…",
    )
    database_synchronous: Literal["normal", "full"] = Field(
        default="normal",
        description="full: every save is on disk before the player is answered (power cuts)",
    )
    database_pool_size: int = Field(
        default=POOL_SIZE,
        ge=1,
        le=1000,
        description="PostgreSQL: connections per process (all processes together must stay"
        " within the server's max_connections, with one more each for its shard locks)",
    )
    database_statement_timeout_seconds: float = Field(
        default=SessionLimits.statement,
        gt=0,
        le=3600,
        description="PostgreSQL: the longest one statement may run before the server cancels it",
    )
    database_lock_timeout_seconds: float = Field(
        default=SessionLimits.lock,
        gt=0,
        le=3600,
        description="PostgreSQL: the longest a save waits for a row or lock another connection"
        " holds (then it fails, and the player may try again)",
    )
    database_idle_transaction_seconds: float = Field(
        default=SessionLimits.idle_in_transaction,
        gt=0,
        le=3600,
        description="PostgreSQL: the server ends a session whose transaction sits idle this"
        " long (a frozen process), releasing what it locked",
    )
    database_reply_timeout_seconds: float = Field(
        default=SessionLimits.reply,
        gt=0,
        le=3600,
        description="PostgreSQL: the longest the bot waits for any answer from the server (a"
        " link that hangs); keep it above the statement timeout",
    )
    shard_count: int = Field(
        default=1, ge=1, le=10_000, description="Discord shards of the whole bot, all processes"
    )
    shard_ids: str | None = Field(
        default=None,
        description="the shards this process runs: 0-1, 0,2 … (default: all of them)",
    )
    shard_heartbeat_seconds: float = Field(
        default=10,
        ge=0.1,
        le=3600,
        description="on PostgreSQL, how often a process checks the connection holding its shard"
        " locks; the server frees them after six times as long without a check",
    )
    dev_guild_id: int | None = Field(default=None, description="sync slash commands here at start")
    turn_seconds: int = Field(default=120, ge=10, le=3600)
    table_threads: bool = Field(
        default=True,
        description="each table plays in a thread of its own where the bot may create threads"
        " (a server admin changes it for their server in /cardroom settings)",
    )
    ai_delay_seconds: float = Field(default=1.5, ge=0, le=30)
    round_break_seconds: int = Field(
        default=20,
        ge=0,
        le=600,
        description="how long a hand's or round's end stays on the table before the next deal"
        " is shown, unless a player presses Next round or moves first (0: no break)",
    )
    ai_think_seconds: float = Field(
        default=0.3, gt=0, le=10, description="how long a hard AI seat thinks about a move"
    )
    ai_think_rollouts: int | None = Field(
        default=None, ge=1, description="instead, a fixed number of playouts (reproducible)"
    )
    ai_processes: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description="processes for searching AI seats (default: one per core; 0: in the bot's "
        "own process, blocking it, for tests)",
    )
    ai_searches_per_server: int = Field(
        default=8,
        ge=1,
        le=1000,
        description="AI searches one server may have waiting for a worker; a seat whose search "
        "would wait beyond them plays the normal level's move at once",
    )
    reviews_per_hour: int = Field(
        default=3,
        ge=0,
        le=100,
        description="move reviews one person may start in an hour (a kept review shown again "
        "does not count; 0: no reviews); they run one at a time per person, below live tables",
    )
    members_intent: bool = Field(
        default=False,
        description="request the privileged Server Members intent (enable it in the developer "
        "portal too): a member who leaves the server is handed to the AI at once",
    )
    # Below: tuning knobs with sensible defaults; tests shorten them.
    table_edit_seconds: float = Field(
        default=1.0, ge=0, le=10, description="least time between two edits of a table message"
    )
    lobby_idle_seconds: int = Field(default=600, ge=10, description="an idle lobby expires")
    redraws_per_second: float = Field(
        default=5,
        gt=0,
        le=50,
        description="tables shown anew each second after a restart or a reconnection to "
        "Discord (each a table edit and a hand DM edit per person)",
    )
    supervisor_seconds: float = Field(
        default=30, ge=0, description="how often every table's liveness is checked (0: never)"
    )
    forwarded_click_poll_seconds: float = Field(
        default=2.0,
        gt=0,
        description="how often a process looks for hand DM clicks handed to it, should a "
        "PostgreSQL notification be lost",
    )
    max_tables_per_server: int = Field(
        default=100, ge=1, description="open lobbies and running games a server may have at once"
    )
    max_tables_per_member: int = Field(
        default=3, ge=1, description="open lobbies and running games one member may host at once"
    )
    table_repost_seconds: int = Field(
        default=3300, ge=60, description="post the table message anew when it is this old"
    )
    paused_table_seconds: int = Field(
        default=3600,
        ge=60,
        description="a table whose channel the bot may no longer see or post in waits this "
        "long for its permissions to come back, then ends without a result",
    )
    optional_window_seconds: float = Field(
        default=5.0,
        ge=0,
        le=60,
        description="out-of-turn window (snaps) for games that do not set their own",
    )

    # Running it as a service (bot/ops): metrics and health checks, logs, error reports.
    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="serve /metrics, /healthz and /readyz on this port (default: not at all)",
    )
    metrics_host: str = Field(
        default="127.0.0.1", description="the address the metrics port listens on"
    )
    log_format: Literal["text", "json"] = Field(
        default="text", description="json: one JSON object a line, with the table's ids"
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(default="INFO")
    sentry_dsn: SecretStr | None = Field(
        default=None, description="send errors to Sentry (needs the sentry extra)"
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str) -> str:
        try:
            parse_database_url(value)
        except StorageError as error:
            raise ValueError(str(error)) from None
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards_exist(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and "shard_count" in info.data:  # (a bad count is named itself)
            parse_shard_ids(value, info.data["shard_count"])  # ValueError: one line
        return value

    @property
    def heartbeat(self) -> Heartbeat:
        """How this process checks the connection holding its shard locks (PostgreSQL)."""
        return Heartbeat(self.shard_heartbeat_seconds)

    @property
    def database_limits(self) -> SessionLimits:
        """The time limits of this process's PostgreSQL sessions."""
        return SessionLimits(
            statement=self.database_statement_timeout_seconds,
            lock=self.database_lock_timeout_seconds,
            idle_in_transaction=self.database_idle_transaction_seconds,
            reply=self.database_reply_timeout_seconds,
        )

    @property
    def shards(self) -> Shards:
        """The shards this process runs."""
        if self.shard_ids is None:
            return Shards.every(self.shard_count)
        return Shards(self.shard_count, parse_shard_ids(self.shard_ids, self.shard_count))


class SettingsError(Exception):
    """Settings that cannot be read; the message is one line naming the setting."""


def load_settings(env_file: Path | None = ENV_FILE) -> Settings:
    """The settings from the environment and ``env_file``; SettingsError for bad ones."""
    try:
        return Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in error.errors()
        )
        raise SettingsError(f"bad setting ({problems}); see .env.example.") from None
    except UnicodeDecodeError as error:
        raise SettingsError(_not_utf8(env_file, error)) from None
    except OSError as error:
        raise SettingsError(f"cannot read {env_file}: {error.strerror or error}") from None


def _not_utf8(env_file: Path | None, error: UnicodeDecodeError) -> str:
    """Which line of ``env_file`` is not UTF-8, and the setting on it."""
    content = error.object if isinstance(error.object, bytes) else b""
    line = content[: error.start].count(b"\n") + 1
    text = content.splitlines()[line - 1] if content else b""
    if text.lstrip().startswith(b"#"):
        what = "a comment"
    else:
        what = text.split(b"=", 1)[0].strip().decode("utf-8", "replace").upper() or "no name"
    return f"{env_file} line {line} ({what}) is not UTF-8 text; save the file as UTF-8."
