"""Turning ORM rows into the engine's plain records."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from bot.model.records import Phase, Place, Position, RunMode, RunRecord, RunState
from bot.verifier.verdict import Verdict
from storage.models import RunRow


def run_record(row: RunRow | Row[Any]) -> RunRecord:
    """The engine's view of a stored run (an ORM row or a Core row of the runs table)."""
    return RunRecord(
        id=row.id,
        place=Place(row.platform, row.workspace_id, row.channel_id),
        lesson_id=row.lesson_id,
        lesson_version=row.lesson_version,
        host_id=row.host_id,
        state=RunState(row.state),
        position=Position(row.step_index, Phase(row.phase)),
        timer_seconds=row.timer_seconds,
        deadline=row.deadline,
        mode=RunMode(row.mode),
        due_at=row.due_at,
        remind_at=row.remind_at,
        reminded_at=row.reminded_at,
        recall_plan=plan_delays(row.recall_plan),
        ended_at=row.ended_at,
        language=row.language,
    )


def plan_delays(plan: str | None) -> tuple[int, ...]:
    """A stored recall plan ("259200,777600") as its delays in seconds."""
    return tuple(int(part) for part in (plan or "").split(",") if part)


def plan_text(delays: tuple[int, ...] | None) -> str:
    """Delays in seconds as a stored recall plan."""
    return ",".join(str(delay) for delay in delays or ())


def graded_columns(run_id: int, step_id: str, member_id: int, verdict: Verdict) -> dict[str, Any]:
    """The columns every graded row shares: where it was graded and what the checker said."""
    return {
        "run_id": run_id,
        "step_id": step_id,
        "member_id": member_id,
        "outcome": verdict.outcome.value,
        "read": verdict.read,
        "reward": verdict.reward,
        "reason": verdict.reason,
    }
