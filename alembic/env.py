"""Alembic environment: runs migrations on the async engine for DATABASE_URL."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from sqlalchemy.engine import Connection

from alembic import context
from bot.settings import Settings
from storage.database import open_database
from storage.migrate import lock_for_migrations
from storage.models import Base

config = context.config
if config.config_file_name is not None and not config.attributes.get("skip_logging"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def database_url() -> str:
    """The URL given by the caller, else the bot's DATABASE_URL (environment or `.env`)."""
    given = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    return str(given or Settings().database_url)


def run_migrations(connection: Connection) -> None:
    """Run the migrations on one connection, in one transaction under the migration lock."""
    with connection.begin():
        lock_for_migrations(connection)
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()


async def run_async_migrations() -> None:
    """Open the async engine and migrate through it."""
    engine = open_database(database_url())
    async with engine.connect() as connection:
        await connection.run_sync(run_migrations)
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(run_async_migrations())
