"""The checker's verdicts on a lesson's authored attempts, computed once per process."""

from __future__ import annotations

from bot.engine.checks import checker_failures
from bot.engine.ports import AnswerChecker
from bot.model.records import RunRecord
from bot.verifier.languages import checker_language
from bot.verifier.verdict import Verdict
from lessons.schema import Attempt, VerifierStep

VerdictKey = tuple[str, int, str, str, str]


class AttemptVerdicts:
    """The answer checker's grade of each sample attempt, kept once computed."""

    def __init__(self, checker: AnswerChecker) -> None:
        self.checker = checker
        self._verdicts: dict[VerdictKey, Verdict] = {}

    async def attempt_verdict(
        self, run: RunRecord, step: VerifierStep, attempt: Attempt
    ) -> Verdict:
        """The checker's verdict on an authored attempt in the run's language, once per process."""
        language = checker_language(run.language)
        key = (run.lesson_id, run.lesson_version, language, step.id, attempt.id)
        if key not in self._verdicts:
            with checker_failures():
                verdict = await self.checker.check_attempt(
                    attempt.text, step.gold, unit=step.unit, accept=step.accept,
                    language=language,
                )
            self._verdicts[key] = verdict
        return self._verdicts[key]

    async def verdicts(self, run: RunRecord, step: VerifierStep) -> dict[str, Verdict]:
        """The checker's verdict on every attempt of a verifier step, by attempt id."""
        return {
            attempt.id: await self.attempt_verdict(run, step, attempt)
            for attempt in step.attempts
        }
