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
