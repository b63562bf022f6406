"""What a run shows: its current card, a question's reveal, and its results."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.cards import reveal_buttons, step_card
from bot.engine.core import RunCore
from bot.engine.modes import RunModes
from bot.engine.ports import AnswerStorage, ReasonStorage
from bot.engine.step_tallies import StepTallies
from bot.engine.steps import AttemptVerdicts, CardExtras, kind_of
from bot.engine.summary import build_summary
from bot.i18n import _, current_language
from bot.model.records import Phase, RunRecord, StepTally
from bot.model.views import RevealCard, StepCard, SummaryCard
from lessons.schema import Lesson, Step


class RunViews:
    """Cards, reveals and results of runs, built from their tallies and the checker's verdicts."""

    def __init__(
        self,
        core: RunCore,
        tallies: StepTallies,
        verdicts: AttemptVerdicts,
        modes: RunModes,
        answers: AnswerStorage,
        reasons: ReasonStorage,
    ) -> None:
        self.core = core
        self.tallies = tallies
        self.verdicts = verdicts
        self.modes = modes
        self.answers = answers
        self.reasons = reasons
        self._card_extras: dict[tuple[int, str, str], CardExtras] = {}

    async def current_card(self, run_id: int) -> StepCard:
        """The current step's card as it stands, with its answered count."""
        run = await self.core.open_run(run_id)
        return await self.card_for(run, closed=run.position.phase is Phase.REVEALED)

    async def closed_card(self, run: RunRecord) -> StepCard:
        """The card of a run's current step with its buttons disabled."""
        return await self.card_for(run, closed=True)

    async def current_post(self, run: RunRecord) -> StepCard | RevealCard:
        """What a run's channel shows last: its current step, or that question's results."""
        if run.position.phase is Phase.REVEALED:
            return await self.reveal_card(run, self.core.current_step(run))
        return await self.current_card(run.id)

    async def card_for(
        self, run: RunRecord, closed: bool = False, step: Step | None = None,
        answered: int | None = None,
    ) -> StepCard:
        """The card of a run's current step (or of `step`), with its count and computed content.

        `step` names a step other than the run's own: a member's own step in an assignment.
        `answered` is how many took part there, where the caller just counted them.
        """
        lesson = self.core.lesson_of(run)
        step = step or self.core.current_step(run)
        if answered is None:
            answered = await self.tallies.participants(run.id, step.id)
        card = step_card(
            run.id, lesson, lesson.steps.index(step), answered, closed, run.recall_plan
        )
        promise = kind_of(step).promise(self.modes.of(run).words)
        if promise:
            card = replace(card, body=f"{card.body.rstrip()}\n\n{_(promise)}")
        extras = await self.card_extras(run, step)
        if extras is not None:
            sections, chart = extras
            card = replace(card, sections=card.sections + sections, chart=chart)
        return await kind_of(step).shown_card(self, run, card)

    async def card_extras(self, run: RunRecord, step: Step) -> CardExtras | None:
        """What a step's card gains from this run; computed once per run and step, then kept."""
        key = (run.id, step.id, current_language())
        if key not in self._card_extras:
            extras = await kind_of(step).card_extras(self, run)
            if extras is None:
                return None
            self._card_extras[key] = extras
        return self._card_extras[key]

    async def reveal_card(
        self, run: RunRecord, step: Step, tally: StepTally | None = None
    ) -> RevealCard:
        """The results of one question of a run (from `tally` where the caller counted it)."""
        if tally is None:
            tally = await self.tallies.step_tally(run, step)
        base = RevealCard(
            run_id=run.id,
            step_id=step.id,
            title=_("Results: {step}", step=step.title),
            explanation="",
            answered=tally.participants,
            buttons=reveal_buttons(run.id, step),
        )
        return await kind_of(step).reveal(self, run, tally, base)

    async def summary(self, run: RunRecord) -> SummaryCard:
        """A run's results: participation, correct shares, raters beside the checker."""
        members = await self.tallies.run_members(run.id)
        mode = self.modes.of(run)
        headline = await mode.headline(run, self.lesson_of(run), members)
        summary = await build_summary(self, run, members, headline)
        return replace(summary, reveals=await mode.reveals(self, run))

    def lesson_of(self, run: RunRecord) -> Lesson:
        """The lesson a run follows."""
        return self.core.lesson_of(run)

    async def step_tally(self, run: RunRecord, step: Step) -> StepTally:
        """A step's aggregates: frozen at its reveal, or live while it is open."""
        return await self.tallies.step_tally(run, step)
