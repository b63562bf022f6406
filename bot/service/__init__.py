"""The layer every front end shares: one interaction path, one presenter, one verb table."""

from bot.service import effects
from bot.service.assignments import card_lines, card_title, utc_text
from bot.service.commands import VERBS, CommandArgs, help_text
from bot.service.effects import EFFECT_TYPES, Effect, FileReply, FormToOpen, Renderer, render
from bot.service.languages import language_choices
from bot.service.lesson_service import LessonService
from bot.service.presenter import Presenter
from bot.service.surface import (
    Actor,
    Card,
    Delivery,
    DrawnChart,
    Outcome,
    PlatformUnavailable,
    Redrawn,
    Surface,
    fixed_rights,
)

__all__ = [
    "EFFECT_TYPES",
    "VERBS",
    "Actor",
    "Card",
    "CommandArgs",
    "Delivery",
    "DrawnChart",
    "Effect",
    "FileReply",
    "FormToOpen",
    "LessonService",
    "Outcome",
    "PlatformUnavailable",
    "Presenter",
    "Redrawn",
    "Renderer",
    "Surface",
    "card_lines",
    "card_title",
    "effects",
    "fixed_rights",
    "help_text",
    "language_choices",
    "render",
    "utc_text",
]
