"""A verifier step: members rate sample attempts, then run the checker on each."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.addresses import Action
from bot.engine.explanations import verifier_explanation
from bot.engine.reveals import verifier_chart, verifier_notes, verifier_rows
from bot.engine.steps.base import KindOfStep, RunData, StepResult, button_address
from bot.engine.tally import percent
from bot.model.records import RunRecord, StepTally
from bot.model.views import Button, RevealCard, Section, Tone, VerifierRow
from lessons.schema import VerifierStep

PROBLEM_TITLE = "The problem"
CHECKER_LABEL = "Run the checker"


class Verifier(KindOfStep[VerifierStep]):
    """The problem and its attempts, each with 👍, 👎 and the checker; Reveal on the last row."""

    step_class = VerifierStep
    takes_answers = True
    host_row = 4

    def sections(self) -> tuple[Section, ...]:
        """The problem, then each sample attempt."""
        attempts = tuple(Section(attempt.label, attempt.text) for attempt in self.step.attempts)
        return (Section(PROBLEM_TITLE, self.step.problem), *attempts)

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """One row per attempt: 👍, 👎 and Run the checker."""
        step_id = self.step.id
        return tuple(
            Button(button_address(run_id, step_id, act, attempt.id), label, tone, row, emoji=mark)
            for row, attempt in enumerate(self.step.attempts)
            for act, label, tone, mark in (
                (Action.UP, attempt.label, Tone.SECONDARY, "👍"),
                (Action.DOWN, attempt.label, Tone.SECONDARY, "👎"),
                (Action.CHECK, CHECKER_LABEL, Tone.PRIMARY, ""),
            )
        )

    def for_rating(self) -> VerifierStep:
        """This exercise, whose sample attempts members rate and check."""
        return self.step

    async def before_reveal(self, data: RunData, run: RunRecord) -> None:
        """Have the checker grade every attempt, so a failing checker refuses before any move."""
        await data.attempt_verdicts(run, self.step)

    async def table(self, data: RunData, run: RunRecord) -> tuple[VerifierRow, ...]:
        """Each attempt's thumbs tally in this run beside the checker's reward."""
        verdicts = await data.attempt_verdicts(run, self.step)
        return verifier_rows(self.step, (await data.step_tally(run, self.step)).votes, verdicts)

    async def reveal(
        self, data: RunData, run: RunRecord, tally: StepTally, base: RevealCard
    ) -> RevealCard:
        """The channel's thumbs beside the checker's rewards, explained for how it rated."""
        rows = await self.table(data, run)
        chart = verifier_chart(self.step.title, rows, tally.participants)
        explanation = verifier_explanation(self.step, rows)
        return replace(
            base, rows=rows, notes=verifier_notes(rows), chart=chart, explanation=explanation
        )

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """Each attempt's thumbs-up share beside its reward."""
        rows = await self.table(data, run)
        parts = [f"{row.label} {percent(row.up_share)} 👍 / reward {row.reward}" for row in rows]
        return StepResult((f"**{self.step.title}**: " + "; ".join(parts),), rows=rows)
