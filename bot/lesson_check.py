"""`lessons validate`: the schema, plus every gold answer and final answer read by the checker.

A translation (`rlvr.es.yaml`) is also checked against its source beside it: the same lesson
in other words (lessons/translation.py), within the text rules (bot/lesson_text.py), and each
attempt and crowd answer graded by the checker as its source's is.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from bot.engine import AnswerChecker
from bot.lesson_text import text_problems
from bot.verifier import Checker, Grade, Verdict
from bot.verifier.languages import LANGUAGES
from bot.verifier.units import find_unit, known_units
from lessons.loader import (
    LessonError,
    lesson_files,
    load_lesson_file,
    source_file,
    translated_lesson,
)
from lessons.schema import Attempt, GoldAnswer, Lesson, Step
from lessons.translation import translation_problems


async def lesson_problems(lesson: Lesson, checker: Checker) -> list[str]:
    """Gold answers and attempts' final answers that the checker cannot read.

    Attempts are read in the lesson's language when the checker reads it, else in English.
    """
    problems: list[str] = []
    for step in lesson.steps:
        if (gold := step.gold_answer()) is not None:
            problems += await _gold_problems(f"step '{step.id}'", gold, checker)
            problems += await _attempt_problems(
                f"step '{step.id}'", gold, step.sample_attempts(), checker, reading(lesson)
            )
    return problems


def reading(lesson: Lesson) -> str:
    """The language the checker reads a lesson's answers in: the lesson's, if it reads it."""
    return lesson.language if lesson.language in LANGUAGES else "en"


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
        source = source_file(path)
        if source is not None:
            results[str(path)] += await translated_problems(path, lesson, source, checker)
    return results


async def translated_problems(
    path: Path, translation: Lesson, source_path: Path, checker: Checker
) -> list[str]:
    """How a translation is more than its source in other words, or breaks the text rules."""
    try:
        source = load_lesson_file(source_path)
    except LessonError as error:
        return [f"its source {source_path.name} does not load: {problem}"
                for problem in error.problems]
    parts = translated_lesson(path)
    language = parts[1] if parts else None
    problems = translation_problems(source, translation, source_path.name, language)
    if not problems:
        problems += await _grading_differences(source, translation, source_path.name, checker)
    return problems + text_problems(translation)


async def validate_command(paths: list[Path], timeout: float) -> int:
    """Print each file's problems; exit status 0 when all are valid, 1 otherwise."""
    paths = paths or lesson_files()
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
    step: str, gold: GoldAnswer, attempts: Sequence[Attempt], checker: AnswerChecker,
    language: str,
) -> list[str]:
    problems = []
    for index, attempt in enumerate(attempts):
        verdict = await checker.check_attempt(
            attempt.text, gold.text, unit=gold.unit, accept=gold.accept, language=language
        )
        where = f"{step}, field 'attempts.{index}"
        if attempt.expect is None and verdict.outcome is Grade.REJECTED:
            problems.append(f"{where}.text': the checker cannot read a final answer "
                            f"({verdict.reason or 'nothing found'})")
        elif attempt.expect is not None and verdict.outcome.value != attempt.expect:
            problems.append(f"{where}.expect': expected {attempt.expect}, the checker says "
                            f"{verdict.outcome.value} (it read {verdict.read or 'nothing'})")
    return problems


async def _grading_differences(
    source: Lesson, translation: Lesson, source_name: str, checker: Checker
) -> list[str]:
    """Attempts and crowd answers the checker grades otherwise than their source's."""
    problems = []
    for old_step, new_step in zip(source.steps, translation.steps, strict=True):
        old_gold, new_gold = old_step.gold_answer(), new_step.gold_answer()
        if old_gold is None or new_gold is None:
            continue
        for name, typed, old_text, new_text in _graded_pairs(old_step, new_step):
            old = await _verdict(checker, typed, old_text, old_gold, reading(source))
            new = await _verdict(checker, typed, new_text, new_gold, reading(translation))
            if old.outcome is not new.outcome:
                problems.append(
                    f"step '{new_step.id}', {name}: the checker grades it {new.outcome.value} "
                    f"(it read {new.read or 'nothing'}), {old.outcome.value} in {source_name}"
                )
    return problems


def _graded_pairs(old: Step, new: Step) -> list[tuple[str, bool, str, str]]:
    """A step's attempts and crowd answers beside their translations: name, typed, texts."""
    pairs = [(f"attempt '{a.id}'", False, a.text, b.text)
             for a, b in zip(old.sample_attempts(), new.sample_attempts(), strict=True)]
    answers = zip(old.crowd().answers, new.crowd().answers, strict=True)
    pairs += [(f"crowd answer #{index + 1}", True, a.text, b.text)
              for index, (a, b) in enumerate(answers)]
    return pairs


async def _verdict(
    checker: Checker, typed: bool, text: str, gold: GoldAnswer, language: str
) -> Verdict:
    """The checker's verdict on a typed answer, or on an attempt's final answer."""
    grade = checker.check_answer if typed else checker.check_attempt
    return await grade(text, gold.text, unit=gold.unit, accept=gold.accept, language=language)
