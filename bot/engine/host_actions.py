"""What hosts do: start, reveal, advance, stop; and the views those produce."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.cards import next_button, step_card, takes_answers
from bot.engine.core import require_host
from bot.engine.free_answers import free_answer_bars, free_answer_notes, grpo_group_notes
from bot.engine.mechanism_view import mechanism_sections, train_on_run
from bot.engine.member_actions import MemberActions
from bot.engine.reveals import (
    choice_bars,
    choice_notes,
    share_chart,
    verifier_chart,
    verifier_notes,
    verifier_rows,
)
from bot.engine.summary import build_summary
from bot.model.errors import BadInput, NoActiveRun, StepClosed, WrongStep
from bot.model.records import Member, NewRun, Phase, Place, Position, RunRecord, RunState
from bot.model.views import (
    Advance,
    LineChart,
    RevealCard,
    Section,
    StepCard,
    SummaryCard,
    VerifierRow,
)
from bot.verifier.verdict import Verdict
from lessons.schema import FreeAnswerStep, MechanismStep, PredictionStep, Step, VerifierStep

MAX_TIMER_SECONDS = 3600
MIN_TIMER_SECONDS = 10


class HostActions(MemberActions):
    """Operations that steer a run; each checks the member's host rights first."""

    async def start(
        self,
        place: Place,
        host: Member,
        lesson_id: str | None = None,
        timer_seconds: int | None = None,
    ) -> StepCard:
        """Open a run of a lesson in a channel and return its first step."""
        require_host(host, "start a lesson")
        _check_timer(timer_seconds)
        lesson = self.catalog.get(lesson_id)
        new = NewRun(
            place, lesson.id, lesson.version, host, timer_seconds, self.deadline(timer_seconds)
        )
        run = await self.store.create_run(new)
        self.known_runs.remember(run)
        return step_card(run.id, lesson, 0)

    async def find_run(self, place: Place) -> RunRecord:
        """The active run of a channel; raise `NoActiveRun` if there is none."""
        run = await self.store.find_active_run(place)
        if run is None:
            raise NoActiveRun()
        return run

    async def reveal(
        self, run_id: int, host: Member, step_id: str | None = None
    ) -> tuple[StepCard, RevealCard]:
        """Close the current question and show its results: (closed card, reveal)."""
        require_host(host, "reveal the answers")
        run = await self.active_run(run_id)
        step = self.current_step(run, step_id)
        if not takes_answers(step):
            raise WrongStep("answers to reveal; use Next to move on")
        if run.position.phase is Phase.REVEALED:
            raise StepClosed("This question is already revealed.")
        moved = await self.move(run, Position(run.step_index, Phase.REVEALED), RunState.ACTIVE)
        await self.store.save_tally(moved.id, step.id, await self.live_tally(moved.id, step))
        return await self.closed_card(moved), await self.reveal_card(moved, step)

    async def advance(self, run_id: int, host: Member, step_id: str | None = None) -> Advance:
        """Move to the next step (revealing an open question first), or finish the lesson."""
        require_host(host, "move the lesson on")
        run = await self.active_run(run_id)
        step = self.current_step(run, step_id)
        closed, reveal = None, None
        if takes_answers(step) and run.position.phase is Phase.OPEN:
            closed, reveal = await self.reveal(run.id, host, step.id)
            run = await self.active_run(run.id)
        elif not takes_answers(step):
            closed = await self.closed_card(run)
        return await self._step_forward(run, closed, reveal)

    async def stop(self, run_id: int, host: Member) -> SummaryCard:
        """End a run early and return its results so far."""
        require_host(host, "stop the lesson")
        run = await self.active_run(run_id)
        await self.move(run, run.position, RunState.STOPPED)
        return await self.results(run.id)

    async def run_here(self, place: Place) -> RunRecord:
        """A channel's active run, or else its most recent one."""
        run = await self.store.find_active_run(place) or await self.store.find_latest_run(place)
        if run is None:
            raise NoActiveRun()
        return run

    async def results_here(self, place: Place) -> SummaryCard:
        """The results of a channel's active run, or else of its most recent one."""
        return await build_summary(self, await self.run_here(place))

    async def results(self, run_id: int) -> SummaryCard:
        """The results of a run: participation, correct shares, raters beside the checker."""
        run = await self.store.get_run(run_id)
        if run is None:
            raise NoActiveRun()
        return await build_summary(self, run)

    async def repost(self, place: Place, host: Member) -> StepCard:
        """The current card of a channel's active run, for a host to post it again."""
        require_host(host, "post the step again")
        run = await self.find_run(place)
        return await self.current_card(run.id)

    async def current_card(self, run_id: int) -> StepCard:
        """The current step's card as it stands, with its answered count."""
        run = await self.active_run(run_id)
        return await self.card_for(run, closed=run.position.phase is Phase.REVEALED)

    async def closed_card(self, run: RunRecord) -> StepCard:
        """The card of a run's current step with its buttons disabled."""
        return await self.card_for(run, closed=True)

    async def card_for(self, run: RunRecord, closed: bool = False) -> StepCard:
        """The card of a run's current step, with its count and any computed content."""
        step = self.current_step(run)
        answered = await self.store.count_participants(run.id, step.id)
        card = step_card(run.id, self.lesson_of(run), run.step_index, answered, closed)
        if isinstance(step, MechanismStep):
            sections, chart = await self.mechanism_view(run, step)
            card = replace(card, sections=card.sections + sections, chart=chart)
        return card

    async def mechanism_view(
        self, run: RunRecord, step: MechanismStep
    ) -> tuple[tuple[Section, ...], LineChart]:
        """The toy trained on this run's votes; trained once per run and step, then kept."""
        key = (run.id, step.id)
        if key not in self._mechanism_views:
            source = self.lesson_of(run).step_by_id(step.source)
            assert isinstance(source, VerifierStep)
            counts = (await self.step_tally(run, source)).votes
            runs = await train_on_run(run, source, counts, await self.verdicts(run, source))
            self._mechanism_views[key] = mechanism_sections(runs)
        return self._mechanism_views[key]

    async def reveal_card(self, run: RunRecord, step: Step) -> RevealCard:
        """The results of one question of a run."""
        tally = await self.step_tally(run, step)
        base = RevealCard(
            run_id=run.id,
            step_id=step.id,
            title=f"Results: {step.title}",
            explanation=getattr(step, "explanation", ""),
            answered=tally.participants,
            buttons=(next_button(run.id, step.id),),
        )
        if isinstance(step, PredictionStep):
            bars = choice_bars(step, tally.votes)
            notes = choice_notes(step, bars)
            return replace(base, bars=bars, notes=notes, chart=share_chart(step.title, bars))
        if isinstance(step, VerifierStep):
            rows = await self.verifier_table(run, step)
            chart = verifier_chart(step.title, rows)
            return replace(base, rows=rows, notes=verifier_notes(rows), chart=chart)
        assert isinstance(step, FreeAnswerStep) and tally.free is not None
        stats = tally.free
        bars = free_answer_bars(stats)
        notes = free_answer_notes(stats, step.gold) + grpo_group_notes(stats)
        return replace(base, bars=bars, notes=notes, chart=share_chart(step.title, bars))

    async def verifier_table(self, run: RunRecord, step: VerifierStep) -> tuple[VerifierRow, ...]:
        """Each attempt's thumbs tally in this run beside the checker's reward."""
        verdicts = await self.verdicts(run, step)
        return verifier_rows(step, (await self.step_tally(run, step)).votes, verdicts)

    async def verdicts(self, run: RunRecord, step: VerifierStep) -> dict[str, Verdict]:
        """The checker's verdict on every attempt of a verifier step, by attempt id."""
        return {
            attempt.id: await self.attempt_verdict(run.lesson_id, run.lesson_version, step, attempt)
            for attempt in step.attempts
        }

    async def _step_forward(
        self, run: RunRecord, closed: StepCard | None, reveal: RevealCard | None
    ) -> Advance:
        lesson = self.lesson_of(run)
        if run.step_index + 1 >= len(lesson.steps):
            await self.move(run, run.position, RunState.FINISHED)
            summary = await self.results(run.id)
            return Advance(card=None, summary=summary, closed_card=closed, reveal=reveal)
        moved = await self.move(run, Position(run.step_index + 1, Phase.OPEN), RunState.ACTIVE)
        return Advance(card=await self.card_for(moved), closed_card=closed, reveal=reveal)


def _check_timer(timer_seconds: int | None) -> None:
    if timer_seconds is None:
        return
    if not MIN_TIMER_SECONDS <= timer_seconds <= MAX_TIMER_SECONDS:
        raise BadInput(
            f"The timer must be between {MIN_TIMER_SECONDS} and {MAX_TIMER_SECONDS} seconds."
        )
