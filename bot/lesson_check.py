"""`lessons validate`: the schema, plus every gold answer and final answer read by the checker."""

from __future__ import annotations

from pathlib import Path

import click

from bot.engine import AnswerChecker
from bot.verifier import Checker, Grade
from bot.verifier.units import find_unit, known_units
from lessons.loader import LessonError, available_lessons, load_lesson_file
from lessons.schema import FreeAnswerStep, Lesson, VerifierStep


async def lesson_problems(lesson: Lesson, checker: Checker) -> list[str]:
    """Gold answers and attempts' final answers that the checker cannot read."""
    problems: list[str] = []
    for step in lesson.steps:
        if isinstance(step, VerifierStep | FreeAnswerStep):
            problems += await _gold_problems(step, checker)
        if isinstance(step, VerifierStep):
            problems += await _attempt_problems(step, checker)
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


async def _gold_problems(step: VerifierStep | FreeAnswerStep, checker: Checker) -> list[str]:
    if step.unit is not None and find_unit(step.unit) is None:
        return [f"step '{step.id}', field 'unit': '{step.unit}' is not a unit the checker "
                f"knows ({known_units()})"]
    try:
        await checker.read_gold(step.gold, unit=step.unit)
    except ValueError as error:
        return [f"step '{step.id}', field 'gold': the checker cannot read it: {error}"]
    if not step.accept:
        return []
    try:
        await checker.read_gold(step.gold, unit=step.unit, accept=step.accept)
    except ValueError as error:
        return [f"step '{step.id}', field 'accept': {error}"]
    return []


async def _attempt_problems(step: VerifierStep, checker: AnswerChecker) -> list[str]:
    problems = []
    for index, attempt in enumerate(step.attempts):
        verdict = await checker.check_attempt(
            attempt.text, step.gold, unit=step.unit, accept=step.accept
        )
        where = f"step '{step.id}', field 'attempts.{index}"
        if attempt.expect is None and verdict.outcome is Grade.REJECTED:
            problems.append(f"{where}.text': the checker cannot read a final answer "
                            f"({verdict.reason or 'nothing found'})")
        elif attempt.expect is not None and verdict.outcome.value != attempt.expect:
            problems.append(f"{where}.expect': expected {attempt.expect}, the checker says "
                            f"{verdict.outcome.value} (it read {verdict.read or 'nothing'})")
    return problems
