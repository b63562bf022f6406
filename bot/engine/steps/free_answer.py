"""A free-answer step: members type their own answer; the checker grades every try."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.addresses import Action
from bot.engine.free_answers import (
    free_answer_bars,
    free_answer_chart,
    free_answer_notes,
    gold_shown,
    grpo_group_notes,
)
from bot.engine.ports import TallyStorage
from bot.engine.steps.base import KindOfStep, RunData, StepResult, button_address
from bot.engine.tally import percent
from bot.model.records import RunRecord, StepTally
from bot.model.views import Bar, Button, RevealCard, Section, Tone
from lessons.schema import FreeAnswerStep

PROBLEM_TITLE = "Your turn"
ANSWER_LABEL = "Answer"


class FreeAnswer(KindOfStep[FreeAnswerStep]):
    """The problem and an Answer button; the reveal shows who solved it, on which try."""

    step_class = FreeAnswerStep
    takes_answers = True

    def sections(self) -> tuple[Section, ...]:
        """The problem to solve."""
        return (Section(PROBLEM_TITLE, self.step.problem),)

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """The button that opens the answer box."""
        address = button_address(run_id, self.step.id, Action.ANSWER)
        return (Button(address, ANSWER_LABEL, Tone.PRIMARY, row=0, emoji="✏️"),)

    def for_answering(self) -> FreeAnswerStep:
        """This problem, which members type their answers to."""
        return self.step

    async def count(self, tallies: TallyStorage, run_id: int) -> StepTally:
        """Who answered, and who solved it on the first try or later."""
        tally = await super().count(tallies, run_id)
        return replace(tally, free=await tallies.free_answer_stats(run_id, self.step.id))

    async def reveal(
        self, data: RunData, run: RunRecord, tally: StepTally, base: RevealCard
    ) -> RevealCard:
        """Solved first try, after retrying, not yet; the gold answer and the GRPO group."""
        assert tally.free is not None
        stats = tally.free
        bars = free_answer_bars(stats)
        notes = free_answer_notes(stats, gold_shown(self.step)) + grpo_group_notes(stats)
        chart = free_answer_chart(self.step.title, bars)
        return replace(
            base, explanation=self.step.explanation, bars=bars, notes=notes, chart=chart
        )

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """How many of those who answered solved it."""
        stats = (await data.step_tally(run, self.step)).free
        assert stats is not None
        share = stats.solved / stats.members if stats.members else 0.0
        title = self.step.title
        line = f"**{title}**: {stats.solved} of {stats.members} solved ({percent(share)})"
        return StepResult((line,), Bar(title, stats.solved, share, True))
