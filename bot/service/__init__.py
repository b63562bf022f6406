"""The layer every front end shares: one interaction path, one presenter, one verb table."""

from bot.service.commands import VERBS, CommandArgs, help_text
from bot.service.lesson_service import Actor, LessonService, fixed_rights
from bot.service.presenter import Presenter
from bot.service.surface import (
    Card,
    DrawnChart,
    FileReply,
    FormToOpen,
    Outcome,
    PlatformUnavailable,
    Reply,
    Surface,
)

__all__ = [
    "VERBS",
    "Actor",
    "Card",
    "CommandArgs",
    "DrawnChart",
    "FileReply",
    "FormToOpen",
    "LessonService",
    "Outcome",
    "PlatformUnavailable",
    "Presenter",
    "Reply",
    "Surface",
    "fixed_rights",
    "help_text",
]
