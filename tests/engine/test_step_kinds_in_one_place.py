"""Step kinds are named in one place: `bot/engine/steps/` and the lesson schema.

No other module of the bot, the lessons, storage or the fake platforms names a step class of
the schema's `Step` union (nor the schema's groups of them), and none writes a vote kind such
as "choice", "ratings-locked" or "rate:<attempt>": it asks the step or its kind instead.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from lessons import schema

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("bot", "lessons", "storage", "fakes")
ALLOWED = (ROOT / "bot" / "engine" / "steps", ROOT / "lessons" / "schema.py")

STEP_CLASSES: tuple[type, ...] = typing.get_args(typing.get_args(schema.Step)[0])
"""The classes of the schema's `Step` union, read at run time so a new kind is covered."""

VOTE_KINDS = frozenset({"choice", "choice-again", "ratings-locked"})
VOTE_KIND_PREFIXES = ("rate:",)
"""The vote kinds the step kinds store: a choice (and a second one), the lock on a member's ratings,
a rating."""


def step_class_names() -> frozenset[str]:
    """The step classes' names, and the schema's names for groups of them (QUESTION_STEPS)."""
    groups = {
        name
        for name, value in vars(schema).items()
        if isinstance(value, tuple) and value and all(v in STEP_CLASSES for v in value)
    }
    return frozenset({cls.__name__ for cls in STEP_CLASSES} | groups)


STEP_NAMES = step_class_names()


def is_vote_kind(text: str) -> bool:
    """Whether a string is a vote kind, or the start of one built in an f-string."""
    return text in VOTE_KINDS or text.startswith(VOTE_KIND_PREFIXES)


def named(node: ast.AST) -> str | None:
    """What a node names that only the step kinds may: a step class or a vote kind."""
    if isinstance(node, ast.Name) and node.id in STEP_NAMES:
        return node.id
    if isinstance(node, ast.Attribute) and node.attr in STEP_NAMES:
        return node.attr
    if isinstance(node, ast.alias) and {node.name, node.asname} & STEP_NAMES:
        return node.name
    text = node.value if isinstance(node, ast.Constant) else None
    if isinstance(text, str) and (text in STEP_NAMES or is_vote_kind(text)):
        return repr(text)
    return None


def step_kind_names(source: str) -> list[str]:
    """Each place a module's source names a step class or a vote kind, as 'line N: name'."""
    found = {
        (getattr(node, "lineno", 0), name)
        for node in ast.walk(ast.parse(source))
        if (name := named(node)) is not None
    }
    return [f"line {line}: {name}" for line, name in sorted(found)]


def scanned_modules() -> dict[str, Path]:
    """Every module outside the step kinds, by its path from the project's root."""
    paths = [path for part in SCANNED for path in sorted((ROOT / part).rglob("*.py"))]
    return {
        path.relative_to(ROOT).as_posix(): path
        for path in paths
        if not any(path.is_relative_to(allowed) for allowed in ALLOWED)
    }


def offenders() -> dict[str, list[str]]:
    """The scanned modules that name a step kind, with where."""
    return {
        name: found
        for name, path in scanned_modules().items()
        if (found := step_kind_names(path.read_text(encoding="utf-8")))
    }


def test_no_module_outside_the_step_kinds_names_a_step_class_or_a_vote_kind() -> None:
    modules = scanned_modules()
    assert len(modules) > 100, "the scanned packages are missing"
    assert offenders() == {}


def test_the_scan_knows_every_step_class_of_the_schema() -> None:
    assert len(STEP_CLASSES) >= 6
    assert {"PredictionStep", "VerifierStep", "MechanismStep", "QUESTION_STEPS"} <= STEP_NAMES
    assert not {"Step", "StepBase", "Attempt", "Choice", "Lesson"} & STEP_NAMES


BAD_SNIPPETS = {
    "an import": "from lessons.schema import VerifierStep\n",
    "an import under another name": "from lessons.schema import NarrationStep as Said\n",
    "isinstance": "def f(step):\n    return isinstance(step, TakeawayStep)\n",
    "an annotation": "def f(step: FreeAnswerStep) -> None:\n    pass\n",
    "a module attribute": "def f(step):\n    return isinstance(step, schema.MechanismStep)\n",
    "a match": "def f(step):\n    match step:\n        case PredictionStep():\n            pass\n",
    "a quoted annotation": "def f(step: 'PredictionStep') -> None:\n    pass\n",
    "the schema's group": "def f(step):\n    return isinstance(step, QUESTION_STEPS)\n",
    "a choice vote": "def f(vote):\n    return vote.kind == 'choice'\n",
    "the ratings lock": "LOCK = 'ratings-locked'\n",
    "a rating": "def f(attempt):\n    return f'rate:{attempt.id}'\n",
    "a rating's kind written out": "KIND = 'rate:polished'\n",
}


@pytest.mark.parametrize("snippet", BAD_SNIPPETS.values(), ids=BAD_SNIPPETS.keys())
def test_the_scan_catches_a_step_kind_named_outside(snippet: str) -> None:
    found = step_kind_names(snippet)
    assert len(found) == 1 and found[0].startswith("line "), found


@pytest.mark.parametrize("cls", STEP_CLASSES, ids=lambda cls: cls.__name__)
def test_the_scan_catches_every_step_class(cls: type) -> None:
    assert step_kind_names(f"x = {cls.__name__}\n") == [f"line 1: {cls.__name__}"]


def test_the_scan_leaves_other_names_alone() -> None:
    fine = (
        "from lessons.schema import Attempt, Choice, Lesson, Step\n"
        "def f(step: Step, choice: Choice, attempts: list[Attempt], lesson: Lesson) -> str:\n"
        "    rate = step.kind == 'prediction' and 'choices' in lesson.title\n"
        "    return f'{rate} left to rate: {choice.label}'\n"
    )
    assert step_kind_names(fine) == []
