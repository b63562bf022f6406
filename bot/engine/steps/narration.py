"""A narration step: text the host reads out; nothing to answer."""

from __future__ import annotations

from bot.engine.steps.base import KindOfStep
from lessons.schema import NarrationStep


class Narration(KindOfStep[NarrationStep]):
    """Shows its text and its More button; the host moves on with Next."""

    step_class = NarrationStep
