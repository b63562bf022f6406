"""What a run shows: its current card, a question's reveal, and its results."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.cards import reveal_buttons, step_card
from bot.engine.core import RunCore
from bot.engine.explanations import verifier_explanation
from bot.engine.free_answers import (
    free_answer_bars,
    free_answer_chart,
    free_answer_notes,
    gold_shown,
    grpo_group_notes,
)
from bot.engine.mechanism_view import mechanism_sections, train_on_run
from bot.engine.recall import before_after_chart, recall_notes
from bot.engine.reveals import (
    choice_bars,
    choice_notes,
    share_chart,
    verifier_chart,
    verifier_notes,
    verifier_rows,
)
from bot.engine.step_tallies import StepTallies
from bot.engine.summary import build_summary
from bot.engine.verdicts import AttemptVerdicts
from bot.model.records import Phase, RunRecord, StepTally
from bot.model.views import Bar, LineChart, RevealCard, Section, StepCard, SummaryCard, VerifierRow
from lessons.schema import FreeAnswerStep, MechanismStep, PredictionStep, Step, VerifierStep

MechanismView = tuple[tuple[Section, ...], LineChart]


class RunViews:
    """Cards, reveals and results of runs, built from their tallies and the checker's verdicts."""

    def __init__(self, core: RunCore, tallies: StepTallies, verdicts: AttemptVerdicts) -> None:
        self.core = core
        self.tallies = tallies
        self.verdicts = verdicts
        self._mechanism_views: dict[tuple[int, str], MechanismView] = {}

    async def current_card(self, run_id: int) -> StepCard:
        """The current step's card as it stands, with its answered count."""
        run = await self.core.active_run(run_id)
        return await self.card_for(run, closed=run.position.phase is Phase.REVEALED)

    async def closed_card(self, run: RunRecord) -> StepCard:
        """The card of a run's current step with its buttons disabled."""
        return await self.card_for(run, closed=True)

    async def card_for(self, run: RunRecord, closed: bool = False) -> StepCard:
        """The card of a run's current step, with its count and any computed content."""
        step = self.core.current_step(run)
        answered = await self.tallies.participants(run.id, step.id)
        card = step_card(run.id, self.core.lesson_of(run), run.step_index, answered, closed)
        if isinstance(step, MechanismStep):
            sections, chart = await self.mechanism_view(run, step)
            card = replace(card, sections=card.sections + sections, chart=chart)
        return card

    async def mechanism_view(self, run: RunRecord, step: MechanismStep) -> MechanismView:
        """The toy trained on this run's votes; trained once per run and step, then kept."""
        key = (run.id, step.id)
        if key not in self._mechanism_views:
            source = self.core.lesson_of(run).step_by_id(step.source)
            assert isinstance(source, VerifierStep)
            rows = await self.verifier_table(run, source)
            self._mechanism_views[key] = mechanism_sections(await train_on_run(run, source, rows))
        return self._mechanism_views[key]

    async def reveal_card(self, run: RunRecord, step: Step) -> RevealCard:
        """The results of one question of a run."""
        tally = await self.tallies.step_tally(run, step)
        base = RevealCard(
            run_id=run.id,
            step_id=step.id,
            title=f"Results: {step.title}",
            explanation=getattr(step, "explanation", ""),
            answered=tally.participants,
            buttons=reveal_buttons(run.id, step),
        )
        if isinstance(step, PredictionStep):
            return await self.prediction_reveal(run, step, tally, base)
        if isinstance(step, VerifierStep):
            rows = await self.verifier_table(run, step)
            chart = verifier_chart(step.title, rows, tally.participants)
            explanation = verifier_explanation(step, rows)
            return replace(
                base, rows=rows, notes=verifier_notes(rows), chart=chart, explanation=explanation
            )
        assert isinstance(step, FreeAnswerStep) and tally.free is not None
        stats = tally.free
        bars = free_answer_bars(stats)
        notes = free_answer_notes(stats, gold_shown(step)) + grpo_group_notes(stats)
        return replace(base, bars=bars, notes=notes, chart=free_answer_chart(step.title, bars))

    async def prediction_reveal(
        self, run: RunRecord, step: PredictionStep, tally: StepTally, base: RevealCard
    ) -> RevealCard:
        """A prediction's tally; a recall's also shows how answers moved since the first time."""
        bars = choice_bars(step, tally.votes)
        notes = choice_notes(step, bars)
        if not step.recall:
            return replace(base, bars=bars, notes=notes, chart=share_chart(step.title, bars))
        first = await self.first_time_bars(run, step.recall)
        notes += recall_notes(step, tally.pairs)
        chart = before_after_chart(step.title, first, bars)
        return replace(base, bars=bars, notes=notes, chart=chart)

    async def first_time_bars(self, run: RunRecord, recalled_id: str) -> tuple[Bar, ...]:
        """The choices' tally of a recalled question, from the first time this run asked it."""
        recalled = self.core.lesson_of(run).step_by_id(recalled_id)
        assert isinstance(recalled, PredictionStep)
        return choice_bars(recalled, (await self.tallies.step_tally(run, recalled)).votes)

    async def verifier_table(self, run: RunRecord, step: VerifierStep) -> tuple[VerifierRow, ...]:
        """Each attempt's thumbs tally in this run beside the checker's reward."""
        verdicts = await self.verdicts.verdicts(run, step)
        return verifier_rows(step, (await self.tallies.step_tally(run, step)).votes, verdicts)

    async def summary(self, run: RunRecord) -> SummaryCard:
        """A run's results: participation, correct shares, raters beside the checker."""
        return await build_summary(self, run)
