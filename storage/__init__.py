"""Storage: SQLAlchemy models, the repository the engine uses, and migrations."""

from storage.database import DEFAULT_DATABASE_URL, open_database, sqlite_file
from storage.migrate import upgrade_database
from storage.repository import SqlRunStore

__all__ = [
    "DEFAULT_DATABASE_URL",
    "SqlRunStore",
    "open_database",
    "sqlite_file",
    "upgrade_database",
]
