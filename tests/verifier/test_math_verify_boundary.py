"""math-verify is a benchmark's yardstick only: the bot, lessons and storage never import it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "lessons", "storage")
FORBIDDEN = ("math_verify", "latex2sympy2_extended")


def forbidden_imports(source: str) -> list[str]:
    """The modules `source` imports whose top-level package is forbidden."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Call) and _names_a_module(node):
            found.append(node.args[0].value)  # type: ignore[attr-defined]
    return [name for name in found if name.split(".")[0] in FORBIDDEN]


def _names_a_module(call: ast.Call) -> bool:
    """Whether `call` is `import_module("...")` or `__import__("...")` with a literal name."""
    function = call.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    literal = bool(call.args) and isinstance(call.args[0], ast.Constant)
    return name in ("import_module", "__import__") and literal


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_math_verify(package: str) -> None:
    offenders = {str(path.relative_to(ROOT)): names
                 for path in sorted((ROOT / package).rglob("*.py"))
                 if (names := forbidden_imports(path.read_text(encoding="utf-8")))}
    assert not offenders, offenders


@pytest.mark.parametrize(
    "source",
    [
        "import math_verify",
        "from math_verify import parse, verify",
        "import math_verify.parser as p",
        "from latex2sympy2_extended import latex2sympy",
        "def f():\n    import math_verify\n",
        "import importlib\nimportlib.import_module('math_verify')",
        "__import__('math_verify')",
    ],
)
def test_the_scan_finds_every_way_of_importing_it(source: str) -> None:
    assert forbidden_imports(source)


def test_the_scan_leaves_other_imports_alone() -> None:
    assert not forbidden_imports("import math\nfrom sympy import Rational\nimport verify_math")


def test_grading_an_answer_loads_no_math_verify() -> None:
    script = ("import sys\nfrom bot.verifier.grading import grade_answer\nimport lessons, storage\n"
              "assert grade_answer('3/4', '0.75').reward == 1\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in "
              f"{FORBIDDEN!r}))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"
