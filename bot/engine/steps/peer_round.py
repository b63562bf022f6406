"""A peer round: members answer alone; when the channel splits, they read reasons and answer again.

Peer Instruction (Mazur; Crouch & Mazur 2001). In a live run the host's first reveal closes the
first vote; when the share right falls inside the step's band, the answer stays hidden: the
channel sees the split without the right answer marked, anonymous reasons for the choices go
in a thread, and a second vote opens. The host's next reveal shows both votes side by side,
the transitions between them and the normalized gain. Outside the band the question is
revealed at once, like a prediction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.engine.addresses import Action, Address, parse_address
from bot.engine.core import require_host
from bot.engine.ports import TallyStorage
from bot.engine.steps.base import (
    KindOfStep,
    Members,
    OpenForm,
    OwnTurn,
    Reply,
    RunData,
    StepResult,
    button_address,
)
from bot.engine.steps.before_after import BeforeAfter, before_after
from bot.engine.steps.prediction import (
    CHOICE_KIND,
    RESULTS_AT_REVEAL,
    choice_bars,
    choice_named,
    choice_notes,
    record_choice,
    share_chart,
)
from bot.engine.tally import (
    RIGHT_ANSWER,
    RIGHT_MARK,
    channel_share_label,
    percent,
    right_line,
    tally_chart,
    tally_series,
)
from bot.i18n import N_, _, decimal
from bot.model.errors import BadInput
from bot.model.records import ChoicePair, Member, Phase, RunRecord, ShownReason, StepTally, VoteAt
from bot.model.views import (
    Bar,
    Button,
    Chart,
    Form,
    ReasonCard,
    Receipt,
    RevealCard,
    Section,
    StepCard,
    Tone,
)
from bot.model.written import one_line, word_count
from lessons.schema import PeerRoundStep

AGAIN_KIND = "choice-again"
"""The vote kind of a member's second answer; its value is the choice's id."""
REASON_LIMIT = 280
MIN_REASON_WORDS = 3
REASONS_IN_THREAD = 3
WHY_LABEL = N_("Add a reason")
HIDE_LABEL = N_("Hide")
REASON_FORM = Form(
    title=N_("Your reason"),
    label=N_("Why this answer? One sentence"),
    placeholder=N_("Because…"),
    max_length=REASON_LIMIT,
    hint=N_("Others may read it, without your name."),
    submit=N_("Save"),
    min_length=MIN_REASON_WORDS * 2,
)
SPLIT = N_(
    "**The channel is split.** The answer stays hidden for now. Read the reasons in the "
    "thread, then answer again: keep your answer or change it."
)
REASON_KEPT = N_("Kept your reason: it goes with the answer you choose.")
REASON_SAVED = N_("Your reason is saved. Others may read it, without your name.")
HIDDEN = N_("Hidden: that reason is gone from the thread and will not be shown again.")
NO_SUCH_REASON = N_("There is no such reason to hide.")
ASK_WHY = N_(
    "Why **{choice}**? Write one sentence: then you read two reasons from others and answer "
    "again."
)
READ_AND_ANSWER = N_(
    "Read two reasons from others, then answer again: keep your answer or change it."
)
LEFT_WITHOUT_REASON = N_(
    "No reason, so you do not read others' reasons or answer again here. Your first answer "
    "is counted; the results at the close show this question."
)
LEFT_WITHOUT_SECOND = N_(
    "You did not answer again. Your first answer is counted; the results at the close show "
    "this question."
)
FIRST_ANSWER = N_("first answer")
SECOND_ANSWER = N_("after discussion")



class PeerRound(KindOfStep[PeerRoundStep]):
    """Choices and a reason; a split channel reads reasons and answers again before the reveal."""

    step_class = PeerRoundStep
    takes_answers = True
    done_once_answered = frozenset({Action.CHOOSE, Action.WHY})
    takes = frozenset({Action.CHOOSE, Action.AGAIN, Action.WHY, Action.HIDE})
    offers = N_("choices")

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """One button per choice for the first answer, and the button to add a reason."""
        return (*choice_buttons(run_id, self.step, Action.CHOOSE), why_button(run_id, self.step))

    async def act(self, members: Members, address: Address, member: Member) -> Reply:
        """A first or second answer, the reason form, or a host hiding a reason."""
        match address.action:
            case Action.CHOOSE:
                return await record_choice(members, self.step, address, member)
            case Action.AGAIN:
                return await self._second(members, address, member)
            case Action.WHY:
                return await self._why(members, address, member)
            case _:
                return await self._hide(members, address, member)

    async def answer(self, members: Members, run: RunRecord, member: Member, text: str) -> Receipt:
        """Store the member's reason for the answer they gave last (first or second).

        Only what can be seen is kept, on one line; only words with a letter or digit count.
        Sent before that answer, it is kept for the answer they then choose: checking first
        would cost the form its quick opening.
        """
        reason = one_line(text)
        if word_count(reason) < MIN_REASON_WORDS or len(reason) > REASON_LIMIT:
            raise BadInput(
                _(
                    "Write a reason of at least {words} words and at most "
                    "{characters} characters.",
                    words=MIN_REASON_WORDS,
                    characters=REASON_LIMIT,
                )
            )
        votes = await members.answers.member_votes(run.id, self.step.id, member.user_id)
        vote = answer_number(run, votes)
        choice = votes.get(AGAIN_KIND if vote == 2 else CHOICE_KIND)
        await members.reasons.save_reason(run.id, self.step.id, member, vote, choice, reason)
        saved = _(REASON_SAVED if choice else REASON_KEPT)
        return Receipt(saved, run.id, self.step.id, counted=False)

    @property
    def first_vote(self) -> VoteAt:
        """Where a member's first answer is stored: the one their shown reason argues for."""
        return VoteAt(self.step.id, CHOICE_KIND)

    async def count(self, tallies: TallyStorage, run_id: int) -> StepTally:
        """Both answers' tallies, and each member's first answer paired with their second."""
        tally = await super().count(tallies, run_id)
        second = VoteAt(self.step.id, AGAIN_KIND)
        pairs = await tallies.choice_pairs(run_id, self.first_vote, second)
        return replace(tally, pairs=tuple(pairs))

    async def own_turn(self, data: RunData, run: RunRecord, member: Member) -> OwnTurn | None:
        """After a first answer: the reason, then two reasons from others and the second answer."""
        votes = await data.answers.member_votes(run.id, self.step.id, member.user_id)
        first = votes.get(CHOICE_KIND)
        if first is None or AGAIN_KIND in votes:
            return None
        if 1 not in await data.reasons.member_reasons(run.id, self.step.id, member.user_id):
            label = next(c.label for c in self.step.choices if c.id == first)
            why = (why_button(run.id, self.step),)
            return OwnTurn(_(ASK_WHY, choice=label), buttons=why, left=_(LEFT_WITHOUT_REASON))
        other = await self._other_choice(data, run, first)
        shown = await data.reasons.reasons_to_show(
            run.id, self.first_vote, [other, first], not_by=member.user_id
        )
        by_choice = {reason.choice: reason for reason in shown}
        cards = [self._reason_card(run.id, c, by_choice.get(c)) for c in (other, first)]
        sections = tuple(Section(card.heading, card.text, plain=True) for card in cards)
        buttons = choice_buttons(run.id, self.step, Action.AGAIN)
        return OwnTurn(_(READ_AND_ANSWER), sections, buttons, _(LEFT_WITHOUT_SECOND))

    async def _other_choice(self, data: RunData, run: RunRecord, first: str) -> str:
        """The other choice a member reads a reason for: the right one, or the top wrong one."""
        right = self.step.correct_choice.id
        if first != right:
            return right
        tally = await data.step_tally(run, self.step)
        counts = {v.value: v.count for v in tally.votes if v.kind == CHOICE_KIND}
        wrong = [c.id for c in self.step.choices if c.id != right]
        return max(wrong, key=lambda choice: counts.get(choice, 0))

    async def closes_to(self, data: RunData, run: RunRecord) -> Phase:
        """A second vote after a split first one; else, and after the second, the results."""
        if run.position.phase is not Phase.OPEN:
            return Phase.REVEALED
        tally = await data.step_tally(run, self.step)
        return Phase.AGAIN if self.split(tally) else Phase.REVEALED

    def split(self, tally: StepTally) -> bool:
        """Whether the first answers are split enough to discuss (inside the step's band)."""
        first = first_answers(self.step, tally, marked=True)
        answered = sum(bar.count for bar in first)
        right = sum(bar.count for bar in first if bar.marked)
        return answered >= 2 and self.step.band.holds(right / answered)

    def no_discussion(self, tally: StepTally) -> tuple[str, ...]:
        """Why a question answered once was not discussed: its share right was outside the band."""
        first = first_answers(self.step, tally, marked=True)
        answered = sum(bar.count for bar in first)
        if answered < 2 or self.split(tally):
            return ()
        right = sum(bar.count for bar in first if bar.marked) / answered
        band = self.step.band
        return (
            _(
                "No second vote: {right} were right, outside {low} to "
                "{high}, where discussing a split helps most.",
                right=percent(right),
                low=percent(band.low),
                high=percent(band.high),
            ),
        )

    async def shown_card(self, data: RunData, run: RunRecord, card: StepCard) -> StepCard:
        """From the split on, the card of the second vote: the split, and the choices again."""
        current = data.lesson_of(run).step_at(run.step_index).id == self.step.id
        if run.position.phase is Phase.OPEN or not current:
            return card
        tally = await data.step_tally(run, self.step)
        if not self.split(tally):
            return card
        again = choice_buttons(run.id, self.step, Action.AGAIN)
        if card.closed:
            again = tuple(replace(button, disabled=True) for button in again)
        rest = tuple(b for b in card.buttons if parse_address(b.address).action != Action.CHOOSE)
        return replace(
            card,
            body=f"{card.body.rstrip()}\n\n{_(SPLIT)}",
            buttons=(*again, *rest),
            chart=split_chart(self.step.title, first_answers(self.step, tally)),
            answered=sum(v.count for v in tally.votes if v.kind == AGAIN_KIND),
            vote=2,
        )

    async def discussion(self, data: RunData, run: RunRecord) -> tuple[ReasonCard, ...]:
        """A reason for each of the three most chosen answers: a member's, else the author's."""
        tally = await data.step_tally(run, self.step)
        counts = {bar.label: bar.count for bar in first_answers(self.step, tally)}
        chosen = sorted(
            (c for c in self.step.choices if counts[c.label]), key=lambda c: -counts[c.label]
        )[:REASONS_IN_THREAD]
        shown = await data.reasons.reasons_to_show(run.id, self.first_vote, [c.id for c in chosen])
        by_choice: dict[str, ShownReason] = {reason.choice: reason for reason in shown}
        return tuple(
            self._reason_card(run.id, choice.id, by_choice.get(choice.id)) for choice in chosen
        )

    async def reveal(
        self, data: RunData, run: RunRecord, tally: StepTally, base: RevealCard
    ) -> RevealCard:
        """The answer; after a discussion, both answers side by side and who moved."""
        first = first_answers(self.step, tally, marked=True)
        if not answered_again(tally):
            notes = (*choice_notes(self.step, first), *self.no_discussion(tally))
            chart = share_chart(self.step.title, first)
            return replace(
                base, explanation=self.step.explanation, bars=first, notes=notes, chart=chart
            )
        second = choice_bars(self.step, tally.votes, AGAIN_KIND)
        moves = PeerMoves.of(tally.pairs, self.step.correct_choice.id)
        return replace(
            base,
            explanation=self.step.explanation,
            bars=second,
            notes=moves.notes(),
            chart=both_answers_chart(self.step.title, first, second),
        )

    async def result(self, data: RunData, run: RunRecord) -> StepResult:
        """The share right at the first answer, and after discussion where there was one."""
        tally = await data.step_tally(run, self.step)
        title = self.step.title
        first = first_answers(self.step, tally, marked=True)
        if not answered_again(tally):
            right = next(bar for bar in first if bar.marked)
            total = sum(bar.count for bar in first)
            line = right_line(title, right, total)
            return StepResult((line,), Bar(title, right.count, right.share, True))
        moves = PeerMoves.of(tally.pairs, self.step.correct_choice.id)
        return StepResult((f"**{title}**: {moves.summary()}",), moves.bar(title))

    async def _second(self, members: Members, address: Address, member: Member) -> Receipt:
        choice = choice_named(self.step, address.arg)
        run_id, step = address.run_id, self.step
        await members.cast_vote(run_id, step, member, AGAIN_KIND, choice.id, phase=Phase.AGAIN)
        first = (await members.answers.member_votes(run_id, step.id, member.user_id)).get(
            CHOICE_KIND
        )
        if first is None:
            text = _(
                "You answered **{choice}** (you had not answered the first time).",
                choice=choice.label,
            )
        elif first == choice.id:
            text = _("You kept your answer: **{choice}**.", choice=choice.label)
        else:
            was = next(c.label for c in step.choices if c.id == first)
            text = _(
                "You changed your answer to **{choice}** (first: {was}).",
                choice=choice.label,
                was=was,
            )
        return Receipt(text, run_id, step.id, until_reveal=_(RESULTS_AT_REVEAL))

    async def _why(self, members: Members, address: Address, member: Member) -> OpenForm:
        """The reason form, opened without a query; the reason is checked when sent.

        A platform wants the form within seconds of the click, and a whole channel clicks at once.
        """
        run = await members.known_run(address.run_id)
        return OpenForm(run, self.step, REASON_FORM.translated())

    async def _hide(self, members: Members, address: Address, member: Member) -> Receipt:
        require_host(member, N_("hide a reason"))
        if not address.arg.isdigit():
            raise BadInput(_(NO_SUCH_REASON))
        if not await members.reasons.hide_reason(address.run_id, int(address.arg)):
            raise BadInput(_(NO_SUCH_REASON))
        hidden = ReasonCard.of_hidden(address.run_id, int(address.arg), self.step.id)
        return Receipt(_(HIDDEN), address.run_id, self.step.id, counted=False, redraw=hidden)

    def _reason_card(self, run_id: int, choice_id: str, reason: ShownReason | None) -> ReasonCard:
        choice = next(c for c in self.step.choices if c.id == choice_id)
        if reason is None:
            return ReasonCard(run_id, self.step.id, choice.label, choice.reason, by_author=True)
        hide = button_address(run_id, self.step.id, Action.HIDE, str(reason.id))
        buttons = (Button(hide, _(HIDE_LABEL), Tone.SECONDARY, host_only=True),)
        return ReasonCard(
            run_id, self.step.id, choice.label, reason.text, buttons=buttons, reason_id=reason.id
        )


@dataclass(frozen=True)
class PeerMoves:
    """How members' answers moved between the two votes of a peer round."""

    moves: BeforeAfter

    @classmethod
    def of(cls, pairs: Sequence[ChoicePair], right: str) -> PeerMoves:
        """Counted from each member's first and second answer."""
        return cls(before_after(pairs, right))

    @property
    def before(self) -> float:
        """The share right at the first answer, among those who answered both times."""
        both = self.moves.both
        return (self.moves.held + self.moves.left) / both if both else 0.0

    @property
    def after(self) -> float:
        """The share right at the second answer, among those who answered both times."""
        both = self.moves.both
        return (self.moves.held + self.moves.moved) / both if both else 0.0

    def gain_text(self) -> str:
        """The normalized gain (after − before) / (1 − before), or a dash where undefined."""
        if self.moves.both == 0 or self.before >= 1:
            return "—"
        return decimal((self.after - self.before) / (1 - self.before), fixed=True)

    def notes(self) -> tuple[str, ...]:
        """The reveal's lines: right before and after, the moves, the gain, who is counted."""
        moves = self.moves
        if moves.both == 0:
            lines = [_("Nobody answered both times, so there is no before and after.")]
        else:
            lines = [
                _(
                    "Right: {before} at the first answer → {after} "
                    "after discussion, among the {both} who answered both times.",
                    before=percent(self.before),
                    after=percent(self.after),
                    both=moves.both,
                ),
                _(
                    "Wrong → right: {moved} · right → wrong: {left} · "
                    "stayed right: {held} · stayed wrong: {wrong}.",
                    moved=moves.moved,
                    left=moves.left,
                    held=moves.held,
                    wrong=moves.stayed_wrong,
                ),
                _(
                    "Normalized gain (after − before) / (1 − before): {gain}.",
                    gain=self.gain_text(),
                ),
            ]
        if moves.first_only or moves.second_only:
            lines.append(
                _(
                    "{first_only} answered only the first time and {second_only} only "
                    "the second; they are not counted above.",
                    first_only=moves.first_only,
                    second_only=moves.second_only,
                )
            )
        return tuple(lines)

    def summary(self) -> str:
        """The results line: right before → after, and the gain."""
        return _(
            "right {before} → {after} after discussion "
            "({both} answered both times; normalized gain {gain})",
            before=percent(self.before),
            after=percent(self.after),
            both=self.moves.both,
            gain=self.gain_text(),
        )

    def bar(self, title: str) -> Bar:
        """The results' right-answers bar: the share right after discussion."""
        right = self.moves.held + self.moves.moved
        return Bar(title, right, self.after, True)


def answered_again(tally: StepTally) -> bool:
    """Whether anyone gave a second answer (after a split live vote, or in their own pass)."""
    return any(vote.kind == AGAIN_KIND and vote.count for vote in tally.votes)


def answer_number(run: RunRecord, votes: dict[str, str]) -> int:
    """Which answer a member's reason goes with: the second once it is open or given."""
    return 2 if run.position.phase is Phase.AGAIN or AGAIN_KIND in votes else 1


def first_answers(step: PeerRoundStep, tally: StepTally, marked: bool = False) -> tuple[Bar, ...]:
    """One bar per choice from the first answers (the right one marked only if `marked`)."""
    return choice_bars(step, tally.votes, CHOICE_KIND, marked=marked)


def choice_buttons(run_id: int, step: PeerRoundStep, action: Action) -> tuple[Button, ...]:
    """One button per choice, on the first row: a first answer (CHOOSE) or a second (AGAIN)."""
    return tuple(
        Button(button_address(run_id, step.id, action, c.id), c.label, Tone.PRIMARY, row=0)
        for c in step.choices
    )


def why_button(run_id: int, step: PeerRoundStep) -> Button:
    """The button that opens the form for a member's reason."""
    address = button_address(run_id, step.id, Action.WHY)
    return Button(address, _(WHY_LABEL), Tone.SECONDARY, row=1, emoji="💬")


def split_chart(title: str, first: Sequence[Bar]) -> Chart:
    """The first answers' shares, no answer marked: what the channel discusses."""
    answered = sum(bar.count for bar in first)
    heading = _(
        "{title}: this channel's first answers ({answered} answered)",
        title=title,
        answered=answered,
    )
    return tally_chart(heading, first, tuple("" for bar in first), ())


def both_answers_chart(title: str, first: Sequence[Bar], second: Sequence[Bar]) -> Chart:
    """Each choice's share at the first answer beside its share after discussion."""
    marks = tuple(RIGHT_MARK if bar.marked else "" for bar in second)
    return Chart(
        _("{title}: this channel's answers, before and after discussion", title=title),
        tuple(bar.label for bar in second),
        (tally_series(_(FIRST_ANSWER), first), tally_series(_(SECOND_ANSWER), second)),
        value_label=channel_share_label(),
        marks=marks,
        legend=((RIGHT_MARK, _(RIGHT_ANSWER)),),
    )
