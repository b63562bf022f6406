"""A prediction step: members pick one choice; a recall asks an earlier prediction again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from bot.engine.addresses import Action, Address
from bot.engine.ports import TallyStorage
from bot.engine.steps.base import (
    KindOfStep,
    Members,
    ModeWords,
    RunData,
    StepResult,
    button_address,
)
from bot.engine.steps.before_after import (
    before_after_chart,
    own_move_text,
    recall_notes,
    recall_summary_line,
)
from bot.engine.tally import (
    RIGHT_ANSWER,
    RIGHT_MARK,
    make_bars,
    percent,
    right_line,
    tally_chart,
)
from bot.i18n import N_, _
from bot.model.errors import UnknownChoice
from bot.model.records import Member, RunRecord, StepTally, VoteAt, VoteCount
from bot.model.views import Bar, Button, Chart, Receipt, RevealCard, Tone
from lessons.schema import Choice, PeerRoundStep, PredictionStep

CHOICE_KIND = "choice"
"""The vote kind of a member's choice; its value is the choice's id."""
CHANGE_UNTIL_REVEAL = N_("You can change your mind until the reveal.")
RESULTS_AT_REVEAL = N_("Results come at the reveal.")


class ChoiceQuestion(Protocol):
    """A question answered by picking one of its choices: a prediction or a peer round."""

    @property
    def choices(self) -> Sequence[Choice]:
        """The choices, in the lesson's order."""
        ...


class Prediction(KindOfStep[PredictionStep]):
    """One button per choice; the reveal shows the channel's shares, the right one marked."""

    step_class = PredictionStep
    takes_answers = True
    done_once_answered = frozenset({Action.CHOOSE})
    takes = frozenset({Action.CHOOSE})
    offers = N_("choices")

    @classmethod
    def of(cls, step: PredictionStep) -> KindOfStep[PredictionStep]:
        """A recall for a step that asks an earlier one again, else a plain prediction."""
        return Recall(step) if step.recall else cls(step)

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """One button per choice, on the first row."""
        return tuple(
            Button(
                button_address(run_id, self.step.id, Action.CHOOSE, choice.id),
                choice.label,
                Tone.PRIMARY,
                row=0,
            )
            for choice in self.step.choices
        )

    async def act(self, members: Members, address: Address, member: Member) -> Receipt:
        """Record (or change) a member's choice."""
        return await record_choice(members, self.step, address, member)

    async def reveal(
        self, data: RunData, run: RunRecord, tally: StepTally, base: RevealCard
    ) -> RevealCard:
        """Each choice's share of the channel, the right answer marked."""
        bars = choice_bars(self.step, tally.votes)
        notes = choice_notes(self.step, bars)
        chart = share_chart(self.step.title, bars)
        return replace(
            base, explanation=self.step.explanation, bars=bars, notes=notes, chart=chart
        )

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """How many chose the right answer; for an opinion poll, the most chosen answer."""
        bars = choice_bars(self.step, (await data.step_tally(run, self.step)).votes)
        total = sum(bar.count for bar in bars)
        right = next((bar for bar in bars if bar.marked), None)
        title = self.step.title
        if right is None:
            top = max(bars, key=lambda bar: bar.count)
            line = _(
                "**{title}**: most chose {choice} ({share})",
                title=title,
                choice=top.label,
                share=percent(top.share),
            )
            return StepResult((line,))
        line = right_line(title, right, total)
        return StepResult((line,), Bar(title, right.count, right.share, True))


class Recall(Prediction):
    """A prediction asked again: its reveal and results show how the channel's answers moved."""

    @property
    def recalls(self) -> str | None:
        """The id of the earlier prediction this one asks again."""
        return self.step.recall

    def own_move(self, first: Mapping[str, str], second: Mapping[str, str]) -> str | None:
        """'You moved to the right answer.' (or held it, left it, changed, kept)."""
        return own_move_text(self.step, first.get(CHOICE_KIND), second.get(CHOICE_KIND))

    def promise(self, words: ModeWords) -> str:
        """How the answers' move is shown, as the run's mode shows it."""
        return words.recall

    async def count(self, tallies: TallyStorage, run_id: int) -> StepTally:
        """The choices' tally, and each member's first answer paired with this one."""
        tally = await super().count(tallies, run_id)
        recalled = self.step.recall or ""
        first, now = VoteAt(recalled, CHOICE_KIND), VoteAt(self.step.id, CHOICE_KIND)
        pairs = tuple(await tallies.choice_pairs(run_id, first, now))
        return replace(tally, pairs=pairs)

    async def reveal(
        self, data: RunData, run: RunRecord, tally: StepTally, base: RevealCard
    ) -> RevealCard:
        """The choices' shares the first time beside now, and who moved to the right answer."""
        bars = choice_bars(self.step, tally.votes)
        notes = choice_notes(self.step, bars) + recall_notes(self.step, tally.pairs)
        chart = before_after_chart(self.step.title, await self._first_time(data, run), bars)
        return replace(
            base, explanation=self.step.explanation, bars=bars, notes=notes, chart=chart
        )

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """The prediction's line, then how the channel's answers moved."""
        result = await super().result(data, run)
        pairs = (await data.step_tally(run, self.step)).pairs
        return replace(result, lines=(*result.lines, recall_summary_line(self.step, pairs)))

    async def _first_time(self, data: RunData, run: RunRecord) -> tuple[Bar, ...]:
        """The choices' tally of the recalled question, from the first time this run asked it."""
        recalled = data.lesson_of(run).step_by_id(self.step.recall or "")
        assert isinstance(recalled, PredictionStep)
        return choice_bars(recalled, (await data.step_tally(run, recalled)).votes)


async def record_choice(
    members: Members, step: PredictionStep | PeerRoundStep, address: Address, member: Member
) -> Receipt:
    """Record (or change) a member's choice: what they chose, and what they may still do."""
    choice = choice_named(step, address.arg)
    run_id = address.run_id
    result = await members.cast_vote(run_id, step, member, CHOICE_KIND, choice.id)
    previous = next((c.label for c in step.choices if c.id == result.previous), None)
    if previous and previous != choice.label:
        text = _(
            "Changed your answer to **{choice}** (was {previous}).",
            choice=choice.label,
            previous=previous,
        )
        return Receipt(text, run_id, step.id, until_reveal=_(RESULTS_AT_REVEAL))
    text = _("You chose **{choice}**.", choice=choice.label)
    return Receipt(text, run_id, step.id, until_reveal=_(CHANGE_UNTIL_REVEAL))


def choice_named(step: ChoiceQuestion, choice_id: str) -> Choice:
    """The choice a button names; `UnknownChoice` for one the question does not have."""
    choice = next((c for c in step.choices if c.id == choice_id), None)
    if choice is None:
        raise UnknownChoice(choice_id)
    return choice


def choice_bars(
    step: ChoiceQuestion, counts: Sequence[VoteCount], kind: str = CHOICE_KIND, marked: bool = True
) -> tuple[Bar, ...]:
    """One bar per choice from the votes of `kind`, the correct one marked (if `marked`)."""
    by_choice = {c.value: c.count for c in counts if c.kind == kind}
    return make_bars(
        [(c.label, by_choice.get(c.id, 0), c.correct and marked) for c in step.choices]
    )


def choice_notes(step: ChoiceQuestion, bars: Sequence[Bar]) -> tuple[str, ...]:
    """A sentence on how many chose the right answer (nothing for an opinion poll)."""
    total = sum(bar.count for bar in bars)
    right = next((bar for bar in bars if bar.marked), None)
    if right is None or total == 0:
        return ()
    return (
        _(
            "{right} of {total} ({share}) chose the right answer.",
            right=right.count,
            total=total,
            share=percent(right.share),
        ),
    )


def share_chart(title: str, bars: Sequence[Bar]) -> Chart:
    """The channel's predictions as percentages, the right answer marked."""
    answered = sum(bar.count for bar in bars)
    marks = tuple(RIGHT_MARK if bar.marked else "" for bar in bars)
    legend = ((RIGHT_MARK, _(RIGHT_ANSWER)),) if any(marks) else ()
    heading = _(
        "{title}: this channel's predictions ({answered} answered)",
        title=title,
        answered=answered,
    )
    return tally_chart(heading, bars, marks, legend)
