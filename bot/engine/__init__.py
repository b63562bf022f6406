"""The lesson engine: pure Python, no platform and no database imports."""

from bot.engine.addresses import Action, Address, parse_address
from bot.engine.catalog import LessonCatalog
from bot.engine.engine import ClickResult, LessonEngine, TimerFired
from bot.engine.errors import LessonBotError
from bot.engine.ports import Member, Place

__all__ = [
    "Action",
    "Address",
    "ClickResult",
    "LessonBotError",
    "LessonCatalog",
    "LessonEngine",
    "Member",
    "Place",
    "TimerFired",
    "parse_address",
]
