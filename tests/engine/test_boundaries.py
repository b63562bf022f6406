"""The engine stays free of platform and database code."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
FORBIDDEN = ("discord", "slack_bolt", "slack_sdk", "sqlalchemy", "storage", "aiohttp")


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module a file imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_engine_module_imports_a_platform_or_the_database() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert files, "the engine package is missing"
    offenders = {
        path.name: sorted(imported_modules(path) & set(FORBIDDEN)) for path in files
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_importing_the_engine_loads_no_platform_or_database_module() -> None:
    probe = (
        "import sys, bot.engine;"
        f"print(','.join(m for m in {FORBIDDEN!r} if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == ""
