"""The asynchronous answer checker: a verifiable reward that is safe with strangers' input."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import TracebackType
from typing import Self

from bot.i18n import N_, _, decimal
from bot.verifier.errors import CheckerCrashed
from bot.verifier.languages import require_language
from bot.verifier.limits import ANSWER_MAX_CHARS, ATTEMPT_MAX_CHARS, GOLD_MAX_CHARS
from bot.verifier.normalize import preview
from bot.verifier.pool import PoolLimits, WorkerCrashed, WorkerPool, WorkerTimeout
from bot.verifier.protocol import MAX_ACCEPTED, accepted_fits, verdict_from_message
from bot.verifier.verdict import Grade, Verdict

_CRASH_RETRIES = 1
TOO_LONG = {
    "answer": N_("That answer is too long to check ({length} characters; the limit is {limit}). "
                 "Give just the final answer."),
    "attempt": N_("That attempt is too long to check ({length} characters; the limit is "
                  "{limit}). Give just the final answer."),
}
"""What a member is told of an answer or an attempt longer than the checker reads."""


class Checker:
    """Grades answers in separate worker processes with a hard timeout and a memory cap.

    Untrusted text is only ever parsed inside the workers. A check that runs past `timeout`
    seconds is answered REJECTED and its worker is killed and replaced; with two or more
    workers, other checks keep being served meanwhile.

    Fairness (`WorkerPool`): at most `queue_limit` checks wait and none longer than `max_wait`
    seconds (else `CheckerBusy`); while a check waits, one that has run `turn_seconds` is
    stopped and raises `CheckerBusy`. A check whose worker dies twice raises `CheckerCrashed`.
    """

    def __init__(
        self,
        *,
        timeout: float = 2.0,
        memory_mb: int = 512,
        workers: int = 2,
        queue_limit: int | None = None,
        turn_seconds: float | None = None,
        max_wait: float = 60.0,
    ) -> None:
        if timeout <= 0 or memory_mb <= 0 or workers < 1:
            raise ValueError("timeout and memory_mb must be positive and workers at least 1")
        self._timeout = timeout
        self._memory_mb = memory_mb
        self._worker_count = workers
        self._limits = PoolLimits(queue_limit, max_wait, turn_seconds)
        self._pool: WorkerPool | None = None
        self._start_lock = asyncio.Lock()

    @property
    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (empty before start and after close)."""
        return self._pool.pids if self._pool is not None else []

    @property
    def idle_workers(self) -> int:
        """How many workers are free to take a check right now."""
        return self._pool.idle_count if self._pool is not None else 0

    @property
    def waiting_checks(self) -> int:
        """How many checks are waiting for a worker right now."""
        return self._pool.waiting_count if self._pool is not None else 0

    async def start(self) -> None:
        """Start the worker processes; calling it again does nothing."""
        async with self._start_lock:
            if self._pool is None:
                pool = WorkerPool(
                    size=self._worker_count, memory_mb=self._memory_mb, limits=self._limits
                )
                await pool.start()
                self._pool = pool

    async def close(self) -> None:
        """Stop the worker processes; the checker may be started again later."""
        async with self._start_lock:
            pool, self._pool = self._pool, None
            if pool is not None:
                await pool.close()

    async def __aenter__(self) -> Self:
        """Start the workers for an `async with` block."""
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the workers at the end of an `async with` block."""
        await self.close()

    async def check_answer(
        self,
        answer: str,
        gold: str,
        *,
        unit: str | None = None,
        accept: Sequence[str] = (),
        language: str = "en",
    ) -> Verdict:
        """Grade a member's typed answer (at most 200 characters) against the gold, in `unit`.

        `accept` lists other spellings of a gold answer in words, such as 'odd'. The answer
        is read in `language` ("en" or "es": in Spanish 3,5 is 3.5; see decimal_comma.py);
        an unknown language raises ValueError.
        """
        require_language(language)
        refusal = _refuse_oversized(answer, ANSWER_MAX_CHARS, gold, "answer", accept)
        return refusal or await self._grade("answer", answer, gold, unit, accept, language)

    async def check_attempt(
        self,
        attempt: str,
        gold: str,
        *,
        unit: str | None = None,
        accept: Sequence[str] = (),
        language: str = "en",
    ) -> Verdict:
        """Find the final answer in an authored attempt (at most 4096 characters) and grade it.

        The final answer is read in `language`, as `check_answer` reads it.
        """
        require_language(language)
        refusal = _refuse_oversized(attempt, ATTEMPT_MAX_CHARS, gold, "attempt", accept)
        return refusal or await self._grade("attempt", attempt, gold, unit, accept, language)

    async def read_gold(
        self, gold: str, *, unit: str | None = None, accept: Sequence[str] = ()
    ) -> str:
        """Return how the checker reads an authored gold answer; raise ValueError if it can't."""
        if len(gold) > GOLD_MAX_CHARS:
            raise ValueError(f"The gold answer is too long ({len(gold)} characters; "
                             f"the limit is {GOLD_MAX_CHARS}).")
        if not accepted_fits(accept):
            raise ValueError(f"A gold answer may list at most {MAX_ACCEPTED} accepted "
                             f"spellings of at most {GOLD_MAX_CHARS} characters each.")
        verdict = await self._grade("gold", "", gold, unit, accept)
        if verdict.outcome is not Grade.CORRECT:
            raise ValueError(f"The gold answer {preview(gold)!r} can't be read: {verdict.reason}")
        return verdict.read

    async def _grade(
        self,
        operation: str,
        text: str,
        gold: str,
        unit: str | None,
        accept: Sequence[str] = (),
        language: str = "en",
    ) -> Verdict:
        """Send one request to a worker, retrying once on a fresh worker if it crashed."""
        await self.start()
        assert self._pool is not None
        message = {"op": operation, "text": text, "gold": gold, "unit": unit,
                   "accept": list(accept), "language": language}
        for _attempt in range(_CRASH_RETRIES + 1):
            try:
                return verdict_from_message(await self._pool.ask(message, self._timeout))
            except WorkerTimeout:
                return self._timed_out(text, gold)
            except (WorkerCrashed, ValueError):
                continue
        raise CheckerCrashed("a worker died on this check twice")

    def _timed_out(self, text: str, gold: str) -> Verdict:
        """The verdict for a check that ran out of time."""
        reason = _("That took too long to check (over {seconds} s), so I stopped; try a simpler "
                   "form of your answer.", seconds=decimal(self._timeout, 6))
        return Verdict(Grade.REJECTED, preview(text), preview(gold), reason)


def _refuse_oversized(
    text: str, limit: int, gold: str, what: str, accept: Sequence[str] = ()
) -> Verdict | None:
    """Return a REJECTED verdict if `text`, `gold` or `accept` is too long to send to a worker."""
    if len(text) > limit:
        reason = _(TOO_LONG[what], length=decimal(len(text), 0), limit=limit)
        return Verdict(Grade.REJECTED, preview(text), preview(gold), reason)
    if len(gold) > GOLD_MAX_CHARS or not accepted_fits(accept):
        reason = _("The expected answer for this question is too long to check; this is a "
                   "problem with the lesson, not with your answer.")
        return Verdict(Grade.REJECTED, preview(text), preview(gold), reason)
    return None
