"""The engine stays free of platform and database code."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import bot.engine
import bot.model

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "bot" / "engine"
LOWER_LAYERS = ("bot/model", "bot/mechanism", "bot/verifier", "bot/charts.py", "storage")
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


def imported_dotted_names(path: Path) -> set[str]:
    """Full dotted names of every module a file imports, at any depth of the file."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def python_files(*parts: str) -> list[Path]:
    """Every Python file below (or at) the given paths of the repository."""
    found: list[Path] = []
    for part in parts:
        path = ROOT / part
        found.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return found


def relative(path: Path) -> str:
    """A file's path from the repository root."""
    return path.relative_to(ROOT).as_posix()


def front_end_files() -> list[Path]:
    """The bot's modules above the engine: the service, the adapters, play mode, the wiring."""
    lower = tuple(ROOT / part for part in LOWER_LAYERS)
    return [
        path
        for path in python_files("bot")
        if not path.is_relative_to(ENGINE) and not any(path.is_relative_to(p) for p in lower)
    ]


def test_outside_the_engine_only_its_public_package_is_imported() -> None:
    outside = front_end_files()
    assert outside, "the bot package is missing"
    offenders = {
        relative(path): sorted(
            name for name in imported_dotted_names(path) if name.startswith("bot.engine.")
        )
        for path in outside
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_front_ends_take_the_model_from_its_package_not_its_modules() -> None:
    offenders = {
        relative(path): sorted(
            name for name in imported_dotted_names(path) if name.startswith("bot.model.")
        )
        for path in front_end_files()
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_the_engine_package_exports_its_own_names_not_the_models() -> None:
    assert set(bot.engine.__all__) & set(bot.model.__all__) == set()
    model_modules = {"bot.model.errors", "bot.model.records", "bot.model.views"}
    from_the_model = {
        name
        for name in bot.engine.__all__
        if getattr(getattr(bot.engine, name), "__module__", "") in model_modules
    }
    assert from_the_model == set()


def test_no_engine_module_imports_a_platform_or_the_database() -> None:
    files = sorted(ENGINE.rglob("*.py"))
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


def test_nothing_below_the_engine_imports_it() -> None:
    offenders = {
        relative(path): sorted(
            name for name in imported_dotted_names(path) if name.split(".")[:2] == ["bot", "engine"]
        )
        for path in python_files(*LOWER_LAYERS)
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_the_shared_model_imports_no_engine_storage_or_platform() -> None:
    files = python_files("bot/model")
    assert files, "the model package is missing"
    offenders = {
        relative(path): sorted(
            name
            for name in imported_dotted_names(path)
            if name.split(".")[0] in FORBIDDEN or name.startswith("bot.engine")
        )
        for path in files
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}
