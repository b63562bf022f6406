"""Settings from the environment and `.env`; built once in `__main__` and passed down."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.database import DEFAULT_DATABASE_URL


class Settings(BaseSettings):
    """Every setting the bot reads; secrets are `SecretStr` so they never print."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    default_lesson: str = "rlvr"
    checker_timeout: float = Field(default=2.0, gt=0, le=30)
    burst_handling: bool = True

    discord_token: SecretStr | None = None
    discord_shard_id: int | None = Field(default=None, ge=0)
    discord_shard_count: int | None = Field(default=None, ge=1)
    discord_guild_id: int | None = None
    lesson_host_role_id: int | None = None

    slack_bot_token: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_host_users: str = ""
    slack_api_url: str = "https://slack.com/api/"

    def slack_hosts(self) -> set[str]:
        """User ids named in SLACK_HOST_USERS (comma or space separated)."""
        return {part for part in self.slack_host_users.replace(",", " ").split() if part}


class MissingSetting(Exception):
    """A setting a command needs is not set; the message names the variable."""

    def __init__(self, variable: str, purpose: str) -> None:
        super().__init__(f"{variable} is not set. {purpose} Put it in the environment or in .env.")


def require_secret(value: SecretStr | None, variable: str, purpose: str) -> str:
    """The secret's value, or `MissingSetting` naming the variable."""
    if value is None or not value.get_secret_value().strip():
        raise MissingSetting(variable, purpose)
    return value.get_secret_value().strip()
