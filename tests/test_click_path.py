"""The click path in docs/architecture.md names files and functions that exist, 15 files at most."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
MAX_FILES = 15
ITEM = re.compile(r"^- `([\w/]+\.py)`: (.*?)(?=^- |^\S|\Z)", re.M | re.S)
NAME = re.compile(r"`([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)?)`")


def click_path() -> dict[str, set[str]]:
    """Each file the section lists, with the names (`Class.method`, `function`) it gives there."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## How a click flows", 1)[1].split("\nOn Slack", 1)[0]
    listed: dict[str, set[str]] = {}
    for path, words in ITEM.findall(section):
        listed.setdefault(path, set()).update(NAME.findall(words))
    return listed


def defined_names(path: Path) -> set[str]:
    """The module's top-level names and `Class.method` for each method of its classes."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {
                f"{node.name}.{item.name}" for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    return names


def test_the_click_path_lists_at_most_fifteen_files_layer_by_layer() -> None:
    listed = click_path()
    assert 8 <= len(listed) <= MAX_FILES, sorted(listed)


def test_every_file_and_name_on_the_click_path_exists() -> None:
    missing = {
        path: sorted(names - defined_names(ROOT / path))
        for path, names in click_path().items()
        if not (ROOT / path).is_file() or names - defined_names(ROOT / path)
    }
    assert missing == {}
