"""The layer every front end shares: one interaction path, one presenter, one verb table."""

from bot.service.commands import VERBS, CommandArgs, help_text
from bot.service.interaction import Actor, LessonService, fixed_rights
from bot.service.presenter import Presenter
from bot.service.surface import (
    AnswerForm,
    Card,
    DrawnChart,
    FileReply,
    Outcome,
    PlatformUnavailable,
    Reply,
    Surface,
)

__all__ = [
    "VERBS",
    "Actor",
    "AnswerForm",
    "Card",
    "CommandArgs",
    "DrawnChart",
    "FileReply",
    "LessonService",
    "Outcome",
    "PlatformUnavailable",
    "Presenter",
    "Reply",
    "Surface",
    "fixed_rights",
    "help_text",
]
