"""A takeaway step: the closing point of the lesson, and what members can do next."""

from __future__ import annotations

from bot.engine.steps.base import KindOfStep
from bot.i18n import N_, _
from bot.model.views import Section
from lessons.schema import TakeawayStep

NEXT_STEPS_TITLE = N_("What you can do now")


class Takeaway(KindOfStep[TakeawayStep]):
    """Shows its point and, if the lesson gives them, the next steps."""

    step_class = TakeawayStep

    def sections(self) -> tuple[Section, ...]:
        """The next steps, when the lesson names them."""
        if not self.step.next_steps:
            return ()
        return (Section(_(NEXT_STEPS_TITLE), self.step.next_steps),)
