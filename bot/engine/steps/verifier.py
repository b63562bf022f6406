"""A verifier step: members rate sample attempts, then run the checker on each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.engine.addresses import Action, Address
from bot.engine.steps.base import (
    KindOfStep,
    Members,
    RunData,
    StepResult,
    button_address,
)
from bot.engine.steps.ratings import (
    channel_favourite,
    verifier_chart,
    verifier_explanation,
    verifier_notes,
)
from bot.engine.tally import percent
from bot.i18n import N_, _, ngettext
from bot.model.errors import BadInput, UnknownChoice
from bot.model.records import Member, RunRecord, StepTally, VoteCount
from bot.model.views import Button, Receipt, RevealCard, Section, Tone, VerifierRow
from bot.verifier.verdict import Verdict
from lessons.schema import Attempt, VerifierStep

PROBLEM_TITLE = N_("The problem")
CHECKER_LABEL = N_("Run the checker")
THUMBS_UP = "up"
THUMBS_DOWN = "down"
"""The values of a thumbs rating."""
RATINGS_LOCKED = "ratings-locked"
"""The vote kind a member holds once they have seen a checker verdict here (its first attempt)."""
LOCKED_TEXT = N_(
    "You have run the checker, so your ratings are locked: the results compare thumbs "
    "given before seeing any checker verdict."
)
JUST_LOCKED_TEXT = N_("Your 👍/👎 are now locked, given blind to the checker.")


def rate_kind(attempt_id: str) -> str:
    """The vote kind of a thumbs rating on one attempt; its value is `THUMBS_UP` or down."""
    return f"rate:{attempt_id}"


class Verifier(KindOfStep[VerifierStep]):
    """The problem and its attempts, each with 👍, 👎 and the checker; Reveal on the last row."""

    step_class = VerifierStep
    takes_answers = True
    host_row = 4
    takes = frozenset({Action.UP, Action.DOWN, Action.CHECK})
    offers = N_("sample attempts")

    def sections(self) -> tuple[Section, ...]:
        """The problem, then each sample attempt."""
        attempts = tuple(Section(attempt.label, attempt.text) for attempt in self.step.attempts)
        return (Section(_(PROBLEM_TITLE), self.step.problem), *attempts)

    def member_buttons(self, run_id: int) -> tuple[Button, ...]:
        """One row per attempt: 👍, 👎 and Run the checker."""
        step_id = self.step.id
        return tuple(
            Button(button_address(run_id, step_id, act, attempt.id), label, tone, row, emoji=mark)
            for row, attempt in enumerate(self.step.attempts)
            for act, label, tone, mark in (
                (Action.UP, attempt.label, Tone.SECONDARY, "👍"),
                (Action.DOWN, attempt.label, Tone.SECONDARY, "👎"),
                (Action.CHECK, _(CHECKER_LABEL), Tone.PRIMARY, ""),
            )
        )

    async def act(self, members: Members, address: Address, member: Member) -> Receipt:
        """A thumbs rating on a sample attempt, or a run of the checker on it."""
        if address.action is Action.CHECK:
            return await self.run_checker(members, address.run_id, member, address.arg)
        up = address.action is Action.UP
        return await self.rate(members, address.run_id, member, self.attempt(address.arg), up)

    def attempt(self, attempt_id: str) -> Attempt:
        """A sample attempt of this step by id."""
        for attempt in self.step.attempts:
            if attempt.id == attempt_id:
                return attempt
        raise UnknownChoice(attempt_id)

    async def rate(
        self, members: Members, run_id: int, member: Member, attempt: Attempt, thumbs_up: bool
    ) -> Receipt:
        """Record a member's thumbs-up or thumbs-down on a sample attempt, as a human rater."""
        value = THUMBS_UP if thumbs_up else THUMBS_DOWN
        result = await members.cast_vote(
            run_id, self.step, member, rate_kind(attempt.id), value, blocked_by=RATINGS_LOCKED
        )
        if result.blocked:
            raise BadInput(_(LOCKED_TEXT))
        left = await self.unrated(members, run_id, member)
        text = rated_text(attempt.label, thumbs_up, left, len(self.step.attempts))
        return Receipt(text, run_id, self.step.id)

    async def run_checker(
        self, members: Members, run_id: int, member: Member, attempt_id: str
    ) -> Receipt:
        """Run the checker on a sample attempt, once the member has rated every attempt."""
        run, _step = await members.open_step(run_id, self.step.id, member)
        step, attempt = self.step, self.attempt(attempt_id)
        left = await self.unrated(members, run.id, member)
        if left:
            raise BadInput(blind_refusal(left, len(step.attempts)))
        with members.turns.turn(run.place, member.user_id):
            verdict = await members.verdicts.attempt_verdict(run, step, attempt)
            lock = await members.cast_vote(
                run.id, step, member, RATINGS_LOCKED, attempt.id, blocked_by=RATINGS_LOCKED
            )
            await members.answers.record_check(run.id, step.id, member, attempt.id, verdict)
        text = checker_text(attempt.label, verdict)
        if not lock.blocked:
            text = f"{text}\n{_(JUST_LOCKED_TEXT)}"
        return Receipt(text, run.id, step.id, verdict.reward)

    async def shows_so_far(self, data: RunData, run: RunRecord, member: Member) -> bool:
        """Once the member ran the checker: the tally holds its rewards, kept from blind raters."""
        votes = await data.answers.member_votes(run.id, self.step.id, member.user_id)
        return RATINGS_LOCKED in votes

    async def unrated(self, members: Members, run_id: int, member: Member) -> list[Attempt]:
        """The attempts of this step the member has not rated yet."""
        votes = await members.answers.member_votes(run_id, self.step.id, member.user_id)
        return [attempt for attempt in self.step.attempts if rate_kind(attempt.id) not in votes]

    async def before_reveal(self, data: RunData, run: RunRecord) -> None:
        """Have the checker grade every attempt, so a failing checker refuses before any move."""
        await data.verdicts.verdicts(run, self.step)

    async def table(self, data: RunData, run: RunRecord) -> tuple[VerifierRow, ...]:
        """Each attempt's thumbs tally in this run beside the checker's reward."""
        verdicts = await data.verdicts.verdicts(run, self.step)
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
        """The channel's favourite attempt and its reward, beside what the checker rewarded."""
        rows = await self.table(data, run)
        rewarded = ", ".join(row.label for row in rows if row.reward) or _("nothing")
        favourite = channel_favourite(rows)
        if favourite is None:
            line = _("nobody rated; the checker rewarded {rewarded}", rewarded=rewarded)
        else:
            line = _(
                "favourite {label} ({share} 👍), reward {reward}; the checker rewarded "
                "{rewarded}",
                label=favourite.label,
                share=percent(favourite.up_share),
                reward=favourite.reward,
                rewarded=rewarded,
            )
        return StepResult((f"**{self.step.title}**: {line}",))


def verifier_rows(
    step: VerifierStep, counts: Sequence[VoteCount], verdicts: dict[str, Verdict]
) -> tuple[VerifierRow, ...]:
    """Each attempt's thumbs tally beside the checker's reward."""
    tally = {(c.kind, c.value): c.count for c in counts}
    return tuple(
        VerifierRow(
            label=attempt.label,
            style=attempt.style,
            thumbs_up=tally.get((rate_kind(attempt.id), THUMBS_UP), 0),
            thumbs_down=tally.get((rate_kind(attempt.id), THUMBS_DOWN), 0),
            read=verdicts[attempt.id].read,
            reward=verdicts[attempt.id].reward,
            reason=verdicts[attempt.id].said(),
        )
        for attempt in step.attempts
    )


def checker_text(label: str, verdict: Verdict) -> str:
    """What a member sees after running the checker on an attempt."""
    read = verdict.read or _("(nothing it could read)")
    lines = [
        _("**Checker on {label}**", label=label),
        _(
            "It read **{read}**; gold answer **{gold}** → reward **{reward}** {mark}",
            read=read, gold=verdict.gold, reward=verdict.reward,
            mark="✅" if verdict.reward else "❌",
        ),
    ]
    if verdict.said():
        lines.append(verdict.said())
    return "\n".join(lines)


def rated_text(label: str, thumbs_up: bool, left: list[Attempt], total: int) -> str:
    """What a member sees after rating an attempt: how many are left before the checker opens."""
    head = _("You gave **{label}** a {thumb}.", label=label, thumb="👍" if thumbs_up else "👎")
    if left:
        opens = _("The checker opens once you have rated all {total}.", total=total)
        return f"{head} {_left_to_rate(left)} {opens}"
    rated_all = _(
        "You have rated all {total}: now run the checker on each and compare. "
        "Your first checker run locks your ratings.",
        total=total,
    )
    return f"{head} {rated_all}"


def blind_refusal(left: list[Attempt], total: int) -> str:
    """Why the checker stays closed: the member has not rated every attempt yet."""
    first = _(
        "Rate all {total} attempts with 👍 or 👎 first, so your ratings stay blind to the "
        "checker.",
        total=total,
    )
    return f"{first} {_left_to_rate(left)}"


def _left_to_rate(left: list[Attempt]) -> str:
    labels = ", ".join(f"**{attempt.label}**" for attempt in left)
    return ngettext(
        "{count} attempt left to rate: {labels}.",
        "{count} attempts left to rate: {labels}.",
        len(left),
        labels=labels,
    )
