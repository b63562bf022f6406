"""Settings from the environment and `.env`; built once in `__main__` and passed down."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.i18n import SOURCE_LANGUAGE, available_languages
from bot.model import BadInput
from bot.service.assignments import TEND_EVERY, parse_recall
from bot.service.recalls import DEFAULT_PACE
from lessons.schema import DEFAULT_MAX_TRIES, MAX_TRIES_LIMIT
from storage.database import DEFAULT_DATABASE_URL

DEFAULT_QUEUE_LIMIT = 32
"""Answers that may wait for the checker at once; more are told it is busy."""
DEFAULT_HEALTH_INTERVAL = 10.0
"""Seconds between two heartbeats written to HEALTH_FILE (see `bot/process/upkeep.py`)."""
DEFAULT_POST_TURN_LEASE = 10.0
"""Seconds a run's turn to post outlives a process that died holding it (see `posting.py`)."""
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
"""The values LOG_LEVEL may take, in any case."""
DEFAULT_TURN_SECONDS = 0.25
"""Seconds a check may keep others waiting before it is stopped and its member told it is busy."""


class Settings(BaseSettings):
    """Every setting the bot reads; secrets are `SecretStr` so they never print."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    log_library_debug: bool = False
    """Whether libraries log at DEBUG too (whole events, with members' answers); off unless set."""
    default_lesson: str = "rlvr"
    lesson_language: str = SOURCE_LANGUAGE
    """The language of a run whose host names none (on Discord, where the server's preferred
    locale is not one the lesson has): `en` or `es`."""
    checker_timeout: float = Field(default=2.0, gt=0, le=30)
    checker_queue_limit: int = Field(default=DEFAULT_QUEUE_LIMIT, ge=1, le=10_000)
    checker_turn: float = Field(default=DEFAULT_TURN_SECONDS, gt=0, le=30)
    free_answer_max_tries: int = Field(default=DEFAULT_MAX_TRIES, ge=1, le=MAX_TRIES_LIMIT)
    burst_handling: bool = True
    health_file: Path | None = None
    health_interval: float = Field(default=DEFAULT_HEALTH_INTERVAL, gt=0, le=300)
    post_turn_lease: float = Field(default=DEFAULT_POST_TURN_LEASE, ge=1, le=300)
    recall_after: str = "3d"
    """When members get the delayed recall check of runs whose host names no time: `3d`,
    `2d,9d`, or `off`."""
    recall_open_hours: float = Field(default=48.0, ge=1, le=24 * 14)
    """How long each recall check stays open to answer."""
    recall_pace: int = Field(default=DEFAULT_PACE, ge=1, le=1000)
    """Recall checks one process sends per second, at most (within the platforms' limits)."""
    due_check_interval: float = Field(default=TEND_EVERY.total_seconds(), ge=1, le=60)
    """Seconds between two looks for assignments due to close or remind, posts to mend and
    recall checks to plan."""

    discord_token: SecretStr | None = None
    discord_shard_id: int | None = Field(default=None, ge=0)
    discord_shard_count: int | None = Field(default=None, ge=1)
    discord_guild_id: int | None = None
    lesson_host_role_id: int | None = None
    lesson_host_role: str | None = None
    """Retired (host rights no longer go by a role's name); read only to warn, see `retired`."""

    slack_bot_token: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_host_users: str = ""
    slack_api_url: str = "https://slack.com/api/"

    @field_validator("log_level")
    @classmethod
    def known_log_level(cls, value: str) -> str:
        """LOG_LEVEL in capitals, or an error listing the levels there are."""
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"'{value}' is not a log level; use one of {', '.join(LOG_LEVELS)}")
        return level

    @field_validator("lesson_language")
    @classmethod
    def known_lesson_language(cls, value: str) -> str:
        """LESSON_LANGUAGE as a language the bot speaks, or an error naming those it does."""
        language = value.strip().lower()
        if language not in available_languages():
            raise ValueError(f"'{value}' is not a language the bot speaks; use one of "
                             f"{', '.join(available_languages())}")
        return language

    @field_validator("recall_after")
    @classmethod
    def known_recall_plan(cls, value: str) -> str:
        """RECALL_AFTER as a plan the bot can keep, or an error saying what it takes."""
        try:
            parse_recall(value)
        except BadInput as error:
            raise ValueError(str(error)) from None
        return value

    def recall_plan(self) -> tuple[int, ...]:
        """The default delayed recall's delays after a lesson, in seconds."""
        return parse_recall(self.recall_after)

    def tend_every(self) -> timedelta:
        """How often the timer loop looks for due assignments, reminders and recall rounds."""
        return timedelta(seconds=self.due_check_interval)

    def retired(self) -> list[str]:
        """A warning for each setting that is set but no longer does anything."""
        if self.lesson_host_role is None:
            return []
        return ["LESSON_HOST_ROLE is set but no longer grants host rights: a role's name can be "
                "copied by anyone who may manage roles. Set LESSON_HOST_ROLE_ID to the role's id "
                "instead; members with Manage Server are hosts as well."]

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
