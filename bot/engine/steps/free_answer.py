"""A free-answer step: members type their own answer; the checker grades every try."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.addresses import Action, Address
from bot.engine.checks import checker_failures
from bot.engine.ports import TallyStorage
from bot.engine.steps.base import (
    KindOfStep,
    Members,
    OpenForm,
    RunData,
    StepResult,
    button_address,
)
from bot.engine.tally import RIGHT_MARK, make_bars, percent, tally_chart
from bot.i18n import N_, _, ngettext
from bot.mechanism.grpo import group_stats, group_text
from bot.model.errors import BadInput, TriesUsedUp
from bot.model.records import FreeAnswerStats, Member, RunRecord, StepTally, SubmittedAnswer
from bot.model.views import Bar, Button, Chart, Form, Receipt, RevealCard, Section, Tone
from bot.verifier.languages import checker_language
from bot.verifier.verdict import Grade, Verdict
from lessons.schema import FreeAnswerStep

PROBLEM_TITLE = N_("Your turn")
ANSWER_LABEL = N_("Answer")
MAX_TYPED_ANSWER = 200
ANSWER_AT_REVEAL = N_("The answer comes at the reveal.")
FIRST_TRY = N_("solved on the first try")
AFTER_RETRYING = N_("solved after trying again")
NOT_SOLVED = N_("not solved yet")
FIRST_TRY_MARK = "✅"
RETRY_MARK = "🔁"
RETRY_CHART_MARK = "↻"
ANSWER_FORM = Form(
    title=N_("Your answer"),
    label=N_("Your final answer"),
    placeholder=N_("A number, fraction or expression, e.g. 0.5"),
    max_length=MAX_TYPED_ANSWER,
    hint=N_("The checker grades it. Retries are allowed."),
    submit=N_("Check it"),
)



class FreeAnswer(KindOfStep[FreeAnswerStep]):
    """The problem and an Answer button; the reveal shows who solved it, on which try."""

    step_class = FreeAnswerStep
    takes_answers = True
    takes = frozenset({Action.ANSWER})
    offers = N_("answer box")

    def sections(self) -> tuple[Section, ...]:
        """The problem to solve."""
        return (Section(_(PROBLEM_TITLE), self.step.problem),)

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """The button that opens the answer box."""
        address = button_address(run_id, self.step.id, Action.ANSWER)
        return (Button(address, _(ANSWER_LABEL), Tone.PRIMARY, row=0, emoji="✏️"),)

    async def act(self, members: Members, address: Address, member: Member) -> OpenForm:
        """Open the answer box, while this step takes the member's answers."""
        run, step = await members.open_step(address.run_id, self.step.id, member)
        return OpenForm(run, step, ANSWER_FORM.translated())

    async def answer(self, members: Members, run: RunRecord, member: Member, text: str) -> Receipt:
        """Grade a member's typed answer, up to the step's try cap; every try is kept."""
        answer = text.strip()
        if not answer or len(answer) > MAX_TYPED_ANSWER:
            raise BadInput(
                _("Type an answer of 1 to {most} characters.", most=MAX_TYPED_ANSWER)
            )
        cap = self.tries_cap(members.default_max_tries)
        with members.turns.turn(run.place, member.user_id):
            stored = await self._graded_try(members, run, member, answer, cap)
        tries_left = max(0, cap - stored.attempt_no)
        text = answer_text(stored.attempt_no, stored.verdict, tries_left)
        waits = _(ANSWER_AT_REVEAL) if tries_left == 0 and not stored.verdict.reward else ""
        return Receipt(
            text, run.id, self.step.id, stored.verdict.reward, tries_left, until_reveal=waits
        )

    def tries_cap(self, default: int) -> int:
        """How many tries each member gets: the lesson's `max_tries`, else `default`."""
        step = self.step
        return step.max_tries if "max_tries" in step.model_fields_set else default

    async def _graded_try(
        self, members: Members, run: RunRecord, member: Member, answer: str, cap: int
    ) -> SubmittedAnswer:
        """Grade one try, read in the run's language, and store it while under the cap.

        An answer the checker cannot read is not a try: nothing is stored, and the member is
        told why and how many tries they still have (`BadInput`). The store checks the cap
        again as it writes.
        """
        step, answers = self.step, members.answers
        tried = await answers.count_tries(run.id, step.id, member.user_id)
        if tried >= cap:
            raise TriesUsedUp(cap)
        with checker_failures():
            verdict = await members.checker.check_answer(
                answer, step.gold, unit=step.unit, accept=step.accept,
                language=checker_language(run.language),
            )
        if verdict.outcome is Grade.REJECTED:
            raise BadInput(unread_text(verdict, cap - tried))
        return await answers.record_free_answer(run.id, step.id, member, answer, verdict, cap)

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
        notes = free_answer_notes(stats, gold_shown(self.step)) + grpo_group_line(stats)
        chart = free_answer_chart(self.step.title, bars)
        return replace(
            base, explanation=self.step.explanation, bars=bars, notes=notes, chart=chart
        )

    @property
    def has_more(self) -> bool:
        """Always: the channel's first tries as one GRPO group, worked out."""
        return True

    async def more(self, data: RunData, run: RunRecord) -> str:
        """The GRPO group's arithmetic from this run's first tries, then the step's own detail."""
        stats = (await data.step_tally(run, self.step)).free
        assert stats is not None
        parts = [*grpo_group_notes(stats), *([self.step.more] if self.step.more else [])]
        return "\n\n".join(parts)

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """How many of those who answered solved it."""
        stats = (await data.step_tally(run, self.step)).free
        assert stats is not None
        share = stats.solved / stats.members if stats.members else 0.0
        title = self.step.title
        line = _(
            "**{title}**: {solved} of {members} solved ({share})",
            title=title,
            solved=stats.solved,
            members=stats.members,
            share=percent(share),
        )
        return StepResult((line,), Bar(title, stats.solved, share, True))


def free_answer_bars(stats: FreeAnswerStats) -> tuple[Bar, ...]:
    """Members split into solved first try (✅), solved after retrying (🔁), and not solved."""
    retried = stats.solved - stats.first_try_solved
    unsolved = stats.members - stats.solved
    first, retry, rest = make_bars(
        [
            (_(FIRST_TRY), stats.first_try_solved, True),
            (_(AFTER_RETRYING), retried, True),
            (_(NOT_SOLVED), unsolved, False),
        ]
    )
    return (replace(first, mark=FIRST_TRY_MARK), replace(retry, mark=RETRY_MARK), rest)


def free_answer_chart(title: str, bars: tuple[Bar, ...]) -> Chart:
    """The free-answer tally as percentages, first try and retry marked apart."""
    answered = sum(bar.count for bar in bars)
    marks = (RIGHT_MARK, RETRY_CHART_MARK, "")
    legend = ((RIGHT_MARK, _(FIRST_TRY)), (RETRY_CHART_MARK, _(AFTER_RETRYING)))
    heading = _(
        "{title}: this channel's answers ({answered} answered)", title=title, answered=answered
    )
    return tally_chart(heading, bars, marks, legend)


def gold_shown(step: FreeAnswerStep) -> str:
    """The problem's answer as the reveal shows it: with its unit, if the step names one."""
    return f"{step.gold} {step.unit}" if step.unit else step.gold


def free_answer_notes(stats: FreeAnswerStats, gold: str) -> tuple[str, ...]:
    """A sentence on how the channel did, and the gold answer."""
    if stats.members == 0:
        return (_("Nobody answered this time. The answer was **{gold}**.", gold=gold),)
    share = percent(stats.solved / stats.members)
    return (
        _(
            "{members} answered with {tries} tries in all; "
            "{solved} ({share}) got reward 1. The answer was **{gold}**.",
            members=stats.members,
            tries=stats.attempts,
            solved=stats.solved,
            share=share,
            gold=gold,
        ),
    )


def grpo_group_line(stats: FreeAnswerStats) -> tuple[str, ...]:
    """The channel's first tries as one GRPO group, in a line; its arithmetic waits behind More."""
    if stats.members == 0:
        return ()
    return (
        _(
            "**This channel as a GRPO group:** {correct} of {size} first tries earned reward 1. "
            "More shows the advantage GRPO gives each.",
            correct=stats.first_try_solved,
            size=stats.members,
        ),
    )


def grpo_group_notes(stats: FreeAnswerStats) -> tuple[str, ...]:
    """The channel's first tries as one GRPO group: rewards, mean, std and advantages."""
    if stats.members == 0:
        return ()
    first_try = group_stats(stats.first_try_solved, stats.members - stats.first_try_solved)
    heading = _(
        "**This channel as a GRPO group** (each member's first graded try is one rollout):"
    )
    return (heading, *group_text(first_try))


def answer_text(attempt_no: int, verdict: Verdict, tries_left: int) -> str:
    """What a member sees after a graded try at a typed answer (the gold stays secret)."""
    head = _(
        "Try {number}: the checker read **{read}**. Reward **{reward}**",
        number=attempt_no,
        read=verdict.read,
        reward=verdict.reward,
    )
    if verdict.reward:
        correct = _("✅ Correct. The checker only cared that the final answer matched.")
        return f"{head} {correct}"
    not_quite = _("❌ Not quite.")
    return f"{head} {not_quite} {tries_text(tries_left)}"


def unread_text(verdict: Verdict, tries_left: int) -> str:
    """What a member sees of an answer the checker could not read: why, and tries still left."""
    head = _("The checker could not read that, so it did not use a try. {reason}",
             reason=verdict.reason).strip()
    left = ngettext("You have {count} try left.", "You have {count} tries left.", tries_left)
    return f"{head} {left}"


def tries_text(tries_left: int) -> str:
    """How many more tries a member has at a free-answer problem."""
    if tries_left == 0:
        return _("That was your last try.")
    return ngettext(
        "Check your working and try again: {count} try left.",
        "Check your working and try again: {count} tries left.",
        tries_left,
    )
