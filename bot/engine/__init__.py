"""The lesson engine: pure Python, no platform and no database imports.

Adapters, play mode and the bot's own modules import only this package, never its modules.
It exports the engine's own names: `LessonEngine`, its ports, button addresses, limits and
the helpers front ends draw with. The records, render models and errors it takes and returns
come from `bot.model`.
"""

from bot.engine.addresses import (
    FORM_ACTIONS,
    HOST_ACTIONS,
    Action,
    Address,
    is_lesson_address,
    parse_address,
)
from bot.engine.assigned import IS_ASSIGNMENT, AssignmentCard
from bot.engine.cards import moved_past, step_card, superseded
from bot.engine.catalog import LessonCatalog, run_languages
from bot.engine.core import Clock, utc_now
from bot.engine.engine import (
    Answered,
    CheckAnswered,
    Click,
    FormOpened,
    LessonEngine,
    MovedOn,
    OwnStepReached,
    Revealed,
)
from bot.engine.host_actions import MAX_TIMER_SECONDS, MIN_TIMER_SECONDS, Closing
from bot.engine.member_data import (
    FORGET_CONFIRM,
    AskedAgain,
    answers_csv,
    forget_counts,
    recalled_steps,
)
from bot.engine.modes import AfterAnswer, OwnStep
from bot.engine.platform_messages import NOT_POSTED
from bot.engine.ports import AnswerChecker, RunStore
from bot.engine.recall import (
    STOP_STEP,
    CheckView,
    Kept,
    KeptQuestion,
    NextRound,
    RecallStanding,
    plan_line,
    right_at_lesson,
    span_text,
)
from bot.engine.steps.free_answer import MAX_TYPED_ANSWER
from bot.engine.steps.peer_round import MIN_REASON_WORDS, REASON_LIMIT
from bot.engine.tally import (
    bar_lines,
    checker_reading,
    percent,
    text_bar,
    thumbs_tally,
    verifier_lines,
)
from bot.engine.timers import TimerFired

__all__ = [
    "FORGET_CONFIRM",
    "FORM_ACTIONS",
    "HOST_ACTIONS",
    "IS_ASSIGNMENT",
    "MAX_TIMER_SECONDS",
    "MAX_TYPED_ANSWER",
    "MIN_REASON_WORDS",
    "MIN_TIMER_SECONDS",
    "NOT_POSTED",
    "REASON_LIMIT",
    "STOP_STEP",
    "Action",
    "Address",
    "AfterAnswer",
    "AnswerChecker",
    "Answered",
    "AskedAgain",
    "AssignmentCard",
    "CheckAnswered",
    "CheckView",
    "Click",
    "Clock",
    "Closing",
    "FormOpened",
    "Kept",
    "KeptQuestion",
    "LessonCatalog",
    "LessonEngine",
    "MovedOn",
    "NextRound",
    "OwnStep",
    "OwnStepReached",
    "RecallStanding",
    "Revealed",
    "RunStore",
    "TimerFired",
    "answers_csv",
    "bar_lines",
    "checker_reading",
    "forget_counts",
    "is_lesson_address",
    "moved_past",
    "parse_address",
    "percent",
    "plan_line",
    "recalled_steps",
    "right_at_lesson",
    "run_languages",
    "span_text",
    "step_card",
    "superseded",
    "text_bar",
    "thumbs_tally",
    "utc_now",
    "verifier_lines",
]
