"""Each kind of step lives in one module of `bot/engine/steps/`; nothing else branches on its class.

The lesson schema may; the rest of the engine, the service and the adapters ask
`kind_of(step)`, and play asks the step itself or reads the card's buttons.
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from bot.engine.steps import known_kinds
from lessons import schema

ROOT = Path(__file__).resolve().parents[2]
STEPS = ROOT / "bot" / "engine" / "steps"
CHECKED = ("bot/engine", "bot/service", "bot/discord_adapter", "bot/slack_adapter", "bot/play")
ALLOWED = (STEPS,)
TYPE_TABLES = {
    "bot/service/effects.py": ["looked up by type()"],
    "bot/service/lesson_service.py": ["looked up by type()"],
}
"""Where a table is looked up by an object's type on purpose, never a step's: the effects each
front end renders from its table, and the kinds of click result the service handles."""
STEP_CLASSES = typing.get_args(typing.get_args(schema.Step)[0])
"""The classes of the schema's `Step` union."""


def step_class_names() -> set[str]:
    """The schema's step classes, and its names for groups of them (`QUESTION_STEPS`)."""
    names = {name for name, value in vars(schema).items()
             if isinstance(value, type) and issubclass(value, schema.StepBase)}
    groups = {name for name, value in vars(schema).items()
              if isinstance(value, tuple) and value
              and all(isinstance(v, type) and issubclass(v, schema.StepBase) for v in value)}
    return names | groups


NAMES = frozenset(step_class_names())


def mentions(node: ast.AST, names: set[str]) -> bool:
    """Whether an expression names one of `names`, bare or as `module.Name`."""
    return any(
        (isinstance(n, ast.Name) and n.id in names)
        or (isinstance(n, ast.Attribute) and n.attr in names)
        for n in ast.walk(node)
    )


def aliases(tree: ast.Module, names: set[str]) -> set[str]:
    """`names` and the module-level names bound to them (`ANSWERABLE = QUESTION_STEPS`)."""
    found = set(names)
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        value = getattr(node, "value", None)
        if value is not None and mentions(value, found):
            found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


def is_type_call(node: ast.AST) -> bool:
    """Whether an expression is `type(something)`."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "type"
        and len(node.args) == 1
    )


def class_checks(source: str) -> list[str]:
    """Where a module branches on a step's class: isinstance, match-class or `type(...)`."""
    tree = ast.parse(source)
    names = aliases(tree, set(NAMES))
    found: list[str] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
            and mentions(node.args[1], names)
        ):
            found.append(f"line {node.lineno}: {node.func.id}")
        elif isinstance(node, ast.MatchClass) and mentions(node.cls, names):
            found.append(f"line {node.lineno}: case {ast.unparse(node.cls)}()")
        elif isinstance(node, ast.Compare) and any(
            is_type_call(side) for side in (node.left, *node.comparators)
        ):
            found.append(f"line {node.lineno}: type() compared")
        elif isinstance(node, ast.Subscript) and is_type_call(node.slice):
            found.append(f"line {node.lineno}: looked up by type()")
    return found


def checked_modules() -> list[Path]:
    """The modules that must not branch on a step's class."""
    paths = [path for part in CHECKED for path in sorted((ROOT / part).rglob("*.py"))]
    return [path for path in paths if not any(path.is_relative_to(a) for a in ALLOWED)]


def test_no_module_outside_the_step_kinds_branches_on_a_steps_class() -> None:
    modules = checked_modules()
    assert len(modules) > 40, "the checked packages are missing"
    offenders = {
        path.relative_to(ROOT).as_posix(): [check.split(": ", 1)[1] for check in checks]
        for path in modules
        if (checks := class_checks(path.read_text(encoding="utf-8")))
    }
    assert offenders == TYPE_TABLES


BAD_SNIPPETS = {
    "isinstance": "def f(step):\n    return isinstance(step, PredictionStep)\n",
    "a union": "def f(step):\n    return isinstance(step, VerifierStep | FreeAnswerStep)\n",
    "a tuple": "def f(step):\n    return isinstance(step, (NarrationStep, TakeawayStep))\n",
    "the schema's group": "def f(step):\n    return isinstance(step, QUESTION_STEPS)\n",
    "an alias": "ASKED = QUESTION_STEPS\n\ndef f(step):\n    return isinstance(step, ASKED)\n",
    "a module attribute": "def f(step):\n    return isinstance(step, schema.MechanismStep)\n",
    "a match": (
        "def f(step):\n    match step:\n        case PredictionStep(recall=r):\n"
        "            return r\n"
    ),
    "type() is": "def f(step):\n    return type(step) is VerifierStep\n",
    "type() in": "def f(step):\n    return type(step) in (VerifierStep, FreeAnswerStep)\n",
    "a table by type()": "def f(step):\n    return HANDLERS[type(step)](step)\n",
}


@pytest.mark.parametrize("snippet", BAD_SNIPPETS.values(), ids=BAD_SNIPPETS.keys())
def test_the_check_catches_a_branch_on_a_steps_class(snippet: str) -> None:
    assert len(class_checks(snippet)) == 1


def test_the_check_leaves_other_branches_alone() -> None:
    fine = (
        "def f(step, error, card):\n"
        "    if isinstance(error, ValueError) or card.kind == 'mechanism':\n"
        "        return kind_of(step).takes_answers, type(error).__name__\n"
    )
    assert class_checks(fine) == []


def test_every_kind_of_step_in_the_schema_has_one_module() -> None:
    kinds = known_kinds()
    assert set(kinds) == set(STEP_CLASSES)
    modules = {kind.__module__ for kind in kinds.values()}
    assert len(modules) == len(STEP_CLASSES)
    assert all(module.startswith("bot.engine.steps.") for module in modules)
