"""Structural guarantees: untrusted text never meets an evaluator in the bot's process."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "bot" / "verifier"
ROOT = PACKAGE.parents[1]
FORBIDDEN_BUILTINS = {"eval", "exec", "compile", "__import__"}
FORBIDDEN_PARSERS = {"sympify", "S", "parse_expr", "parse_latex", "latex2sympy", "parse"}
WORKER_ONLY_MODULES = {"sympy", "bot.verifier.grading", "bot.verifier.parser"}


def _calls(source: str) -> tuple[set[str], set[str]]:
    """Bare names and attribute names of everything called in `source`."""
    bare: set[str] = set()
    attributes: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            bare.add(node.func.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attributes.add(node.func.attr)
    return bare, attributes


@pytest.mark.parametrize("module", sorted(PACKAGE.glob("*.py")), ids=lambda path: path.name)
def test_no_evaluators_or_text_parsers_are_called(module: Path) -> None:
    bare, attributes = _calls(module.read_text())
    assert not bare & (FORBIDDEN_BUILTINS | FORBIDDEN_PARSERS)
    assert not attributes & FORBIDDEN_PARSERS


def test_the_bot_process_never_loads_the_parser() -> None:
    probe = (
        "import sys, bot.verifier, bot.verifier.cli; "
        f"loaded = {sorted(WORKER_ONLY_MODULES)!r}; "
        "print([name for name in loaded if name in sys.modules])"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
