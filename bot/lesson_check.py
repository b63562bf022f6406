"""`lessons validate`: the schema, plus every gold answer and final answer read by the checker."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from bot.engine import AnswerChecker
from bot.verifier import Checker, Grade
from bot.verifier.units import find_unit, known_units
from lessons.loader import LessonError, available_lessons, load_lesson_file
from lessons.schema import Attempt, GoldAnswer, Lesson


async def lesson_problems(lesson: Lesson, checker: Checker) -> list[str]:
    """Gold answers and attempts' final answers that the checker cannot read."""
    problems: list[str] = []
    for step in lesson.steps:
        if (gold := step.gold_answer()) is not None:
            problems += await _gold_problems(f"step '{step.id}'", gold, checker)
            problems += await _attempt_problems(
                f"step '{step.id}'", gold, step.sample_attempts(), checker
            )
    return problems


async def validate_files(paths: list[Path], checker: Checker) -> dict[str, list[str]]:
    """Problems per file; an empty list means the file is valid."""
    results: dict[str, list[str]] = {}
    for path in paths:
        try:
            lesson = load_lesson_file(path)
        except LessonError as error:
            results[str(path)] = error.problems
            continue
        results[str(path)] = await lesson_problems(lesson, checker)
    return results


async def validate_command(paths: list[Path], timeout: float) -> int:
    """Print each file's problems; exit status 0 when all are valid, 1 otherwise."""
    paths = paths or list(available_lessons().values())
    async with Checker(timeout=timeout) as checker:
        results = await validate_files(paths, checker)
    for path, problems in results.items():
        if not problems:
            click.echo(f"{path}: ok")
        for problem in problems:
            click.echo(f"{path}: {problem}", err=True)
    return 1 if any(results.values()) else 0


async def _gold_problems(step: str, gold: GoldAnswer, checker: Checker) -> list[str]:
    if gold.unit is not None and find_unit(gold.unit) is None:
        return [f"{step}, field 'unit': '{gold.unit}' is not a unit the checker "
                f"knows ({known_units()})"]
    try:
        await checker.read_gold(gold.text, unit=gold.unit)
    except ValueError as error:
        return [f"{step}, field 'gold': the checker cannot read it: {error}"]
    if not gold.accept:
        return []
    try:
        await checker.read_gold(gold.text, unit=gold.unit, accept=gold.accept)
    except ValueError as error:
        return [f"{step}, field 'accept': {error}"]
    return []


async def _attempt_problems(
    step: str, gold: GoldAnswer, attempts: Sequence[Attempt], checker: AnswerChecker
) -> list[str]:
    problems = []
    for index, attempt in enumerate(attempts):
        verdict = await checker.check_attempt(
            attempt.text, gold.text, unit=gold.unit, accept=gold.accept
        )
        where = f"{step}, field 'attempts.{index}"
        if attempt.expect is None and verdict.outcome is Grade.REJECTED:
            problems.append(f"{where}.text': the checker cannot read a final answer "
                            f"({verdict.reason or 'nothing found'})")
        elif attempt.expect is not None and verdict.outcome.value != attempt.expect:
            problems.append(f"{where}.expect': expected {attempt.expect}, the checker says "
                            f"{verdict.outcome.value} (it read {verdict.read or 'nothing'})")
    return problems
