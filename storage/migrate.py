"""Applying Alembic migrations from code (`python -m bot db upgrade`, and on start)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic.config import Config

from alembic import command

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def alembic_config(url: str) -> Config:
    """An Alembic config for the project's migrations and a database URL."""
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "alembic"))
    config.attributes["url"] = url
    config.attributes["skip_logging"] = True
    return config


def upgrade_sync(url: str, revision: str = "head") -> None:
    """Migrate a database to `revision` (blocking)."""
    command.upgrade(alembic_config(url), revision)


async def upgrade_database(url: str, revision: str = "head") -> None:
    """Migrate a database without blocking the event loop (Alembic runs its own loop)."""
    await asyncio.to_thread(upgrade_sync, url, revision)
