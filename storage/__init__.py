"""Storage: SQLAlchemy models, the repository the engine uses, and migrations."""

from storage.database import DEFAULT_DATABASE_URL, create_engine
from storage.migrate import upgrade_database
from storage.repository import SqlRunStore

__all__ = ["DEFAULT_DATABASE_URL", "SqlRunStore", "create_engine", "upgrade_database"]
