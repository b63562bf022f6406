"""The lesson engine: pure Python, no platform and no database imports.

Adapters, play mode and the bot's own modules import only this package, never its modules.
"""

from bot.engine.addresses import HOST_ACTIONS, Action, Address, is_lesson_address, parse_address
from bot.engine.catalog import LessonCatalog
from bot.engine.dispatch import ClickResult, TimerFired
from bot.engine.engine import LessonEngine
from bot.engine.host_actions import MAX_TIMER_SECONDS, MIN_TIMER_SECONDS
from bot.engine.member_actions import MAX_TYPED_ANSWER
from bot.engine.member_data import answers_csv, recalled_steps
from bot.engine.platform_messages import NOT_POSTED
from bot.engine.ports import AnswerChecker, RunStore
from bot.engine.tally import (
    bar_lines,
    checker_reading,
    percent,
    text_bar,
    thumbs_tally,
    verifier_lines,
)
from bot.model.errors import (
    BadAddress,
    BadInput,
    ChannelBusy,
    LessonBotError,
    NoActiveRun,
    NotHost,
    StepClosed,
    StoreUnavailable,
    TriesUsedUp,
    UnknownChoice,
    UnknownLesson,
    UnknownRun,
    WrongStep,
)
from bot.model.records import (
    AnswerRecord,
    Member,
    NewRun,
    Phase,
    Place,
    Position,
    RunRecord,
    RunState,
)
from bot.model.views import (
    Advance,
    AnyChart,
    Bar,
    Button,
    Chart,
    LineChart,
    LinePanel,
    Receipt,
    RevealCard,
    Section,
    Series,
    StepCard,
    SummaryCard,
    Tone,
    VerifierRow,
)

__all__ = [
    "HOST_ACTIONS",
    "MAX_TIMER_SECONDS",
    "MAX_TYPED_ANSWER",
    "MIN_TIMER_SECONDS",
    "NOT_POSTED",
    "Action",
    "Address",
    "Advance",
    "AnswerChecker",
    "AnswerRecord",
    "AnyChart",
    "BadAddress",
    "BadInput",
    "Bar",
    "Button",
    "ChannelBusy",
    "Chart",
    "ClickResult",
    "LessonBotError",
    "LessonCatalog",
    "LessonEngine",
    "LineChart",
    "LinePanel",
    "Member",
    "NewRun",
    "NoActiveRun",
    "NotHost",
    "Phase",
    "Place",
    "Position",
    "Receipt",
    "RevealCard",
    "RunRecord",
    "RunState",
    "RunStore",
    "Section",
    "Series",
    "StepCard",
    "StepClosed",
    "StoreUnavailable",
    "SummaryCard",
    "TimerFired",
    "Tone",
    "TriesUsedUp",
    "UnknownChoice",
    "UnknownLesson",
    "UnknownRun",
    "VerifierRow",
    "WrongStep",
    "answers_csv",
    "bar_lines",
    "checker_reading",
    "is_lesson_address",
    "parse_address",
    "percent",
    "recalled_steps",
    "text_bar",
    "thumbs_tally",
    "verifier_lines",
]
