"""Settings from the environment and ``.env`` (pydantic-settings); see .env.example."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot can be configured with."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="the bot's token")
    database_path: Path = Field(default=Path("data/cardroom.db"))
    dev_guild_id: int | None = Field(default=None, description="sync slash commands here at start")
    turn_seconds: int = Field(default=120, ge=10, le=3600)
    ai_delay_seconds: float = Field(default=1.5, ge=0, le=30)
    # Below: tuning knobs with sensible defaults; tests shorten them.
    table_edit_seconds: float = Field(
        default=1.0, ge=0, le=10, description="least time between two edits of a table message"
    )
    lobby_idle_seconds: int = Field(default=600, ge=10, description="an idle lobby expires")
    table_repost_seconds: int = Field(
        default=3300, ge=60, description="post the table message anew when it is this old"
    )
    optional_window_seconds: float = Field(
        default=5.0,
        ge=0,
        le=60,
        description="out-of-turn window (snaps) when the game has no snap_seconds option",
    )
