"""What hosts do: start, reveal, advance, stop, post a step again; and see the results."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.cards import moved_past, step_card, takes_answers
from bot.engine.core import RunCore, require_host
from bot.engine.modes import RunModes
from bot.engine.run_views import RunViews
from bot.engine.step_tallies import StepTallies
from bot.engine.steps import kind_of
from bot.i18n import N_, _, speaking
from bot.model.errors import BadInput, NoActiveRun, StepClosed, WrongStep
from bot.model.records import (
    Member,
    NewRun,
    Phase,
    Place,
    Position,
    RunRecord,
    RunState,
)
from bot.model.views import Advance, Discussion, RevealCard, StepCard, SummaryCard

Closing = tuple[StepCard, RevealCard] | Discussion
"""What closing a question's answers shows: its card closed and its results, or, where the
question holds a second vote first, the discussion."""
MAX_TIMER_SECONDS = 3600
MIN_TIMER_SECONDS = 10


class HostActions:
    """Operations that steer a run; each checks the member's host rights first."""

    def __init__(
        self, core: RunCore, tallies: StepTallies, views: RunViews, modes: RunModes
    ) -> None:
        self.core = core
        self.tallies = tallies
        self.views = views
        self.modes = modes

    async def start(
        self,
        place: Place,
        host: Member,
        lesson_id: str | None = None,
        timer_seconds: int | None = None,
        recall: tuple[int, ...] | None = None,
        language: str | None = None,
    ) -> StepCard:
        """Open a run of a lesson in a channel and return its first step.

        `language`: the run's (None: the lesson's own); one the lesson or the bot lacks is
        refused before anything is stored. The card speaks it; a refusal, the host's.
        """
        require_host(host, N_("start a lesson"))
        _check_timer(timer_seconds)
        lesson = self.core.catalog.get(lesson_id)
        spoken = self.core.run_language(lesson.id, language)
        deadline = self.core.deadline(timer_seconds)
        new = NewRun(place, lesson.id, lesson.version, host, timer_seconds, deadline,
                     recall_plan=recall, language=spoken)
        run = await self.core.create_run(new)
        with speaking(run.language):
            return step_card(run.id, self.core.lesson_of(run), 0, recall_plan=run.recall_plan)

    async def reveal(self, run_id: int, host: Member, step_id: str | None = None) -> Closing:
        """Close the current question's answers: (closed card, its results), or a discussion.

        A question that holds a second vote (a split peer round) is discussed first: its
        results come at the next reveal.
        """
        require_host(host, N_("reveal the answers"))
        run = self.modes.require(await self.core.open_run(run_id), "reveal")
        step = self.core.current_step(run, step_id)
        if not takes_answers(step):
            raise WrongStep(N_("answers to reveal; use Next to move on"))
        if run.position.phase is Phase.REVEALED:
            raise StepClosed(N_("This question is already revealed."))
        kind = kind_of(step)
        await kind.before_reveal(self.views, run)  # a failing checker refuses first
        phase = await kind.closes_to(self.views, run)
        first = await self.views.closed_card(run) if phase is Phase.AGAIN else None
        moved = await self.core.move(run, Position(run.step_index, phase), RunState.ACTIVE)
        if first is not None:  # the first answers closed; the second vote opens
            return await self.discussion(moved, first)
        await self.tallies.freeze(moved.id, step)
        return await self.views.closed_card(moved), await self.views.reveal_card(moved, step)

    async def discussion(self, run: RunRecord, first: StepCard | None = None) -> Discussion:
        """A run's second vote: its card, the reasons for its thread, the first vote's closed.

        `first` is the first vote's card as the reveal closed it (drawn again if not given).
        Each call chooses the reasons anew, counting each as shown once more.
        """
        step = self.core.current_step(run)
        if first is None:
            before = replace(run, position=Position(run.step_index, Phase.OPEN))
            first = await self.views.closed_card(before)
        card = await self.views.card_for(run)
        reasons = await kind_of(step).discussion(self.views, run)
        return Discussion(first, card, reasons, _("Why? {step}", step=step.title))

    async def advance(self, run_id: int, host: Member, step_id: str | None = None) -> Advance:
        """Move to the next step (revealing an open question first), or finish the lesson."""
        require_host(host, N_("move the lesson on"))
        run = self.modes.require(await self.core.open_run(run_id), "next")
        step = self.core.current_step(run, step_id)
        closed, reveal = None, None
        if takes_answers(step) and run.position.phase is not Phase.REVEALED:
            closing = await self.reveal(run.id, host, step.id)
            if isinstance(closing, Discussion):  # the question is discussed before moving on
                return Advance(None, discussion=closing)
            closed, reveal = closing
            run = await self.core.open_run(run.id)
        elif not takes_answers(step):
            closed = await self.views.closed_card(run)
        return await self._step_forward(run, closed, reveal)

    async def stop(self, run_id: int, host: Member) -> SummaryCard:
        """End a run early and return its results so far."""
        require_host(host, N_("stop the lesson"))
        run = self.modes.require(await self.core.open_run(run_id), "stop")
        await self.core.move(run, run.position, RunState.STOPPED)
        return await self.results(run.id)

    async def repost(self, place: Place, host: Member) -> StepCard | RevealCard:
        """What a channel's active run shows last, for a host to post again."""
        require_host(host, N_("post the step again"))
        run = self.modes.require(await self.core.run_in(place), "repost")
        return await self.views.current_post(run)

    async def last_posts(self, run: RunRecord) -> list[StepCard | RevealCard]:
        """What a run's channel shows last of its steps, oldest first, as its mode has it."""
        return await self.modes.of(run).channel_posts(self.views, run)

    async def passed_reveal(self, run: RunRecord) -> RevealCard | None:
        """The results of the run's current question once revealed, their Next disabled."""
        if run.position.phase is not Phase.REVEALED:
            return None
        return moved_past(await self.views.reveal_card(run, self.core.current_step(run)))

    async def results_here(self, place: Place) -> SummaryCard:
        """The results of a channel's active run, or else of its most recent one."""
        return await self.views.summary(await self.core.run_in(place, or_latest=True))

    async def results(self, run_id: int) -> SummaryCard:
        """The results of a run: participation, correct shares, raters beside the checker."""
        run = await self.core.run(run_id)
        if run is None:
            raise NoActiveRun()
        return await self.views.summary(run)

    async def _step_forward(
        self, run: RunRecord, closed: StepCard | None, reveal: RevealCard | None
    ) -> Advance:
        left = await self._left_reveal(run, reveal)
        if run.step_index + 1 >= len(self.core.lesson_of(run).steps):
            await self.core.move(run, run.position, RunState.FINISHED)
            summary = await self.results(run.id)
            return Advance(None, summary, closed, reveal, left)
        next_position = Position(run.step_index + 1, Phase.OPEN)
        moved = await self.core.move(run, next_position, RunState.ACTIVE)
        return Advance(await self.views.card_for(moved), None, closed, reveal, left)

    async def _left_reveal(self, run: RunRecord, reveal: RevealCard | None) -> RevealCard | None:
        return moved_past(reveal) if reveal is not None else await self.passed_reveal(run)


def _check_timer(timer_seconds: int | None) -> None:
    if timer_seconds is None:
        return
    if not MIN_TIMER_SECONDS <= timer_seconds <= MAX_TIMER_SECONDS:
        raise BadInput(
            _(
                "The timer must be between {low} and {high} seconds.",
                low=MIN_TIMER_SECONDS,
                high=MAX_TIMER_SECONDS,
            )
        )
