"""The layer every front end shares: one interaction path, one presenter, one verb table."""

from bot.service.assignments import card_lines, card_title, utc_text
from bot.service.commands import VERBS, CommandArgs, help_text
from bot.service.languages import language_choices
from bot.service.lesson_service import LessonService
from bot.service.presenter import Presenter
from bot.service.surface import (
    Actor,
    Card,
    Delivery,
    DrawnChart,
    FileReply,
    FormToOpen,
    Outcome,
    PlatformUnavailable,
    Redrawn,
    Reply,
    Surface,
    fixed_rights,
)

__all__ = [
    "VERBS",
    "Actor",
    "Card",
    "CommandArgs",
    "Delivery",
    "DrawnChart",
    "FileReply",
    "FormToOpen",
    "LessonService",
    "Outcome",
    "PlatformUnavailable",
    "Presenter",
    "Redrawn",
    "Reply",
    "Surface",
    "card_lines",
    "card_title",
    "fixed_rights",
    "help_text",
    "language_choices",
    "utc_text",
]
