"""Members' data: a member removes their own answers; a host exports a run as CSV."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from bot.engine.core import RunCore, held_in, require_host
from bot.engine.export_columns import ExtraColumns, MemberCells
from bot.engine.modes import RunModes
from bot.engine.ports import MemberDataStorage
from bot.engine.steps import kind_of
from bot.i18n import N_, _, ngettext
from bot.model.records import (
    RECALL_ANSWER_KIND,
    AnswerRecord,
    ForgetReport,
    Member,
    Place,
    RunRecord,
)
from lessons.schema import Lesson

CSV_HEADER = (
    "run", "step", "kind", "user_id", "name", "value", "reward", "try", "at", "recalls", "reason"
)
EXPORT_ACTION = N_("export a run's answers")
FORMULA_START = frozenset("=+-@\t\r")
"""What makes a spreadsheet cell a formula, after Unicode compatibility folding (＝ is =)."""
CELL_SEPARATORS = frozenset(",;|\t\r\n")
"""What some spreadsheet, in some locale, splits a line of CSV into cells at."""
CELL_QUOTE = '"'
"""What a spreadsheet drops before a cell's text when it splits a line at its own separator."""


def _folded(char: str) -> str:
    """A character as a spreadsheet may read it: its NFKC form (full-width ＝ becomes =)."""
    return unicodedata.normalize("NFKC", char)[:1]


def spreadsheet_safe(text: str) -> str:
    """Text no spreadsheet runs as a formula, whatever its locale's separator (OWASP).

    A quote goes before each formula character that could start a cell: at the start, or
    after a separator, spaces and double quotes between allowed. Nothing else changes.
    """
    safe: list[str] = []
    cell_start = True
    for char in text:
        folded = _folded(char)
        if cell_start and folded in FORMULA_START:
            safe.append("'")
        safe.append(char)
        cell_start = folded in CELL_SEPARATORS or (
            cell_start and (folded.isspace() or folded == CELL_QUOTE)
        )
    return "".join(safe)


@dataclass(frozen=True)
class AskedAgain:
    """The steps asked again: by each recall step, and by each delayed-recall question."""

    steps: Mapping[str, str] = field(default_factory=dict)
    """Each recall step's id mapped to the id of the earlier step it asks again."""
    questions: Mapping[str, str] = field(default_factory=dict)
    """Each delayed-recall question's id mapped to the id of the step it asks again."""

    def of(self, answer: AnswerRecord) -> str:
        """The step an exported answer asks again; empty for one that asks none."""
        asked = self.questions if answer.kind == RECALL_ANSWER_KIND else self.steps
        return asked.get(answer.step_id, "")


def recalled_steps(lesson: Lesson) -> AskedAgain:
    """What a lesson's recall steps and delayed-recall questions ask again."""
    recalls = {step.id: kind_of(step).recalls for step in lesson.steps}
    steps = {step_id: recalled for step_id, recalled in recalls.items() if recalled}
    questions = {question.id: question.asks_again for question in lesson.delayed_recall}
    return AskedAgain(steps, questions)


def answers_csv(
    run_id: int,
    answers: list[AnswerRecord],
    recalls: AskedAgain | None = None,
    columns: ExtraColumns | None = None,
) -> str:
    """A run's answers as CSV, a row per answer, with the `columns` its mode adds.

    A member the columns list who answered nothing gets a row of their own, after the answers.
    """
    recalls = recalls or AskedAgain()
    columns = columns or ExtraColumns()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_HEADER + columns.header)
    for answer in answers:
        writer.writerow([*answer_row(run_id, answer, recalls), *columns.cells_of(answer.user_id)])
    answered = {answer.user_id for answer in answers}
    for member in columns.members.values():
        if member.user_id not in answered:
            writer.writerow([*no_answer_row(run_id, member), *member.cells])
    return buffer.getvalue()


def answer_row(run_id: int, answer: AnswerRecord, recalls: AskedAgain) -> list[object]:
    """One stored answer's cells, in `CSV_HEADER` order."""
    return [
        run_id,
        answer.step_id,
        answer.kind,
        spreadsheet_safe(answer.user_id),
        spreadsheet_safe(answer.name),
        spreadsheet_safe(answer.value),
        "" if answer.reward is None else answer.reward,
        "" if answer.attempt_no is None else answer.attempt_no,
        answer.at.isoformat(),
        recalls.of(answer),
        spreadsheet_safe(answer.reason),
    ]


def no_answer_row(run_id: int, member: MemberCells) -> list[object]:
    """A member who answered nothing, in `CSV_HEADER` order: who they are, no answer."""
    who = [spreadsheet_safe(member.user_id), spreadsheet_safe(member.name)]
    return [run_id, "", "", *who, *[""] * (len(CSV_HEADER) - 5)]


Forgetter = Callable[[str, str, str], None]
"""Drops a member (platform, workspace, user id) from something a process keeps in memory."""

FORGET_CONFIRM = "confirm"
"""The word (Slack, terminal) or option (Discord) that makes forget-me delete."""
NOTHING_TO_FORGET = N_("Nothing of yours is stored here, so there is nothing to remove.")


def forget_counts(report: ForgetReport, remove: str = "", blank: str = "") -> str:
    """What forgetting a member removes and blanks, counted (`remove`, `blank`: the tense).

    Without `remove` and `blank`, the past tense of the current language: 'removed', 'blanked'.
    """
    kinds = ", ".join((
        ngettext("{count} choice or rating", "{count} choices and ratings", report.votes),
        ngettext("{count} checker run", "{count} checker runs", report.checker_runs),
        ngettext("{count} typed answer", "{count} typed answers", report.free_answers),
        *([ngettext("{count} reason", "{count} reasons", report.reasons)]
          if report.reasons else []),
        *([ngettext(
            "{count} answer to a recall check", "{count} answers to recall checks",
            report.recall_answers,
        )] if report.recall_answers else []),
    ))
    passes = (
        ngettext(", {count} place in assigned lessons", ", {count} places in assigned lessons",
                 report.passes)
        if report.passes else ""
    )
    others = passes + _recall_counts(report)
    return _(
        "{remove} {answers} ({kinds}){others}, {records} (id and display name) and "
        "{deliveries} of clicks kept to spot repeats; {blank} the host id on {runs} hosted",
        remove=remove or _("removed"),
        answers=ngettext("{count} stored answer", "{count} stored answers", report.answers),
        kinds=kinds,
        others=others,
        records=ngettext(
            "{count} member record", "{count} member records", report.member_records
        ),
        deliveries=ngettext("{count} record", "{count} records", report.deliveries),
        blank=blank or _("blanked"),
        runs=ngettext("{count} run", "{count} runs", report.hosted_runs),
    )


def _recall_counts(report: ForgetReport) -> str:
    """What forgetting a member removes of their delayed recall checks (empty if none)."""
    checks = ngettext(
        ", {count} recall check (planned or sent)",
        ", {count} recall checks (planned or sent)",
        report.recall_checks,
    )
    stops = ngettext(
        ", {count} request for no more recall checks",
        ", {count} requests for no more recall checks",
        report.recall_stops,
    )
    return "".join((
        checks if report.recall_checks else "",
        stops if report.recall_stops else "",
    ))


class MemberData:
    """Operations on what is stored about members."""

    def __init__(
        self,
        core: RunCore,
        data: MemberDataStorage,
        modes: RunModes,
        forgetters: Iterable[Forgetter] = (),
    ) -> None:
        """`forgetters` drop a forgotten member from what this process keeps in memory."""
        self.core = core
        self.data = data
        self.modes = modes
        self.forgetters = list(forgetters)

    def on_forget(self, forgetter: Forgetter) -> None:
        """Have `forgetter` drop each member forgotten from now on from its memory too."""
        self.forgetters.append(forgetter)

    async def forget_member(self, place: Place, member: Member) -> str:
        """Remove or blank everything naming this member in this workspace; say what went.

        What this process keeps in memory about them (runs they host, their checks, any
        `on_forget` cache) is dropped as well.
        """
        report = await self.data.forget_member(place.platform, place.workspace, member.user_id)
        for forgetter in self.forgetters:
            forgetter(place.platform, place.workspace, member.user_id)
        if not report.anything:
            return _(NOTHING_TO_FORGET)
        return _(
            "Done: {counts}. Results already revealed keep their counts; "
            "nothing stored here refers to you any more.",
            counts=forget_counts(report),
        )

    async def note_locale(self, place: Place, user_id: str, locale: str) -> None:
        """Store the language a member's platform is set to, learnt after their request."""
        await self.data.note_locale(place.platform, place.workspace, user_id, locale)

    async def forget_preview(self, place: Place, member: Member) -> str:
        """What forgetting this member would remove, and how to confirm; changes nothing."""
        report = await self.data.forget_member(
            place.platform, place.workspace, member.user_id, dry_run=True
        )
        if not report.anything:
            return _(NOTHING_TO_FORGET)
        counts = forget_counts(report, _("remove"), _("blank"))
        return _(
            "Nothing is deleted yet. Forgetting you would {counts}. Results already revealed "
            "keep their counts. To go ahead, run the command again with `{confirm}`.",
            counts=counts,
            confirm=FORGET_CONFIRM,
        )

    async def export_here(
        self, place: Place, host: Member, run_id: int | None = None
    ) -> tuple[int, str]:
        """A run's answers as CSV for a host: the named run, else the channel's current or last."""
        require_host(host, EXPORT_ACTION)
        if run_id is None:
            run_id = (await self.core.run_in(place, or_latest=True)).id
        return run_id, await self.export_run(run_id, host, place)

    async def export_run(self, run_id: int, host: Member, place: Place) -> str:
        """A run's answers as CSV, for a host in the channel the run was held in."""
        require_host(host, EXPORT_ACTION)
        run = held_in(place, run_id, await self.core.run(run_id), "export")
        return await self.run_csv(run, recalled_steps(self.core.lesson_of(run)))

    async def run_csv(self, run: RunRecord, recalls: AskedAgain) -> str:
        """A run's answers as CSV, with the columns its mode adds; no rights checked."""
        columns = await self.modes.of(run).export_columns(run)
        return answers_csv(run.id, await self.data.export_answers(run.id), recalls, columns)
