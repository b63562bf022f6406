"""No module of the bot imports itself back, not even through imports only type checkers read.

The graph is read from the source (the AST), so imports under `if TYPE_CHECKING:` and inside
functions count too: a cycle hidden there still ties the modules together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "lessons", "storage")
"""The project's own packages: a cycle of the bot may pass through lessons or storage."""

KNOWN_CYCLES: set[frozenset[str]] = set()
"""Cycles allowed for now: none."""


def module_name(path: Path) -> str:
    """The dotted name of a module (a package's `__init__` is the package itself)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def imported(name: str, source: str, known: set[str], is_package: bool = False) -> set[str]:
    """The project modules one module's source imports, at any depth of the file.

    `from package import module` counts as importing that module; `from module import name`
    as importing the module.
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return {module for module in found if module in known and module != name}


def import_graph() -> dict[str, set[str]]:
    """Each project module and the project modules it imports."""
    paths = project_modules()
    known = set(paths)
    return {
        name: imported(name, path.read_text(encoding="utf-8"), known, path.name == "__init__.py")
        for name, path in paths.items()
    }


def tied_groups(graph: dict[str, set[str]]) -> Iterator[frozenset[str]]:
    """Each group of two or more modules that import one another, directly or not (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> Iterator[frozenset[str]]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                yield from visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: set[str] = set()
            member = ""
            while member != node:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
            if len(group) > 1:
                yield frozenset(group)

    for start in sorted(graph):
        if start not in index:
            yield from visit(start)


def cycle_through(graph: dict[str, set[str]], group: frozenset[str]) -> list[str]:
    """A shortest cycle from the group's first module back to it, staying inside the group."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == start:
                    cycle = [node]
                    while cycle[0] != start:
                        cycle.insert(0, came_from[cycle[0]])
                    return [*cycle, start]
                if target not in came_from:
                    came_from[target] = node
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {sorted(group)}")


def unexpected_cycles(graph: dict[str, set[str]]) -> list[str]:
    """Each tied group of modules not known to be tied, as one cycle through it."""
    return [
        " -> ".join(cycle_through(graph, group))
        for group in tied_groups(graph)
        if group not in KNOWN_CYCLES
    ]


def test_the_graph_sees_the_project_modules_and_their_imports() -> None:
    graph = import_graph()
    assert "bot.engine.core" in graph["bot.engine.engine"]
    assert "bot.engine.steps.base" in graph["bot.engine.steps"]
    assert "lessons.schema" in graph["bot.engine.core"]
    assert "bot.slack_adapter.listeners" in graph["bot.slack_adapter.app"]


def test_imports_under_type_checking_and_relative_imports_count() -> None:
    known = {"bot.a", "bot.b", "bot.c", "bot.d"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import c\n"
        "from .d import D\n"
        "if TYPE_CHECKING:\n"
        "    from bot.a import A\n"
    )
    assert imported("bot.b", source, known) == {"bot.a", "bot.c", "bot.d"}


def test_a_cycle_is_named_module_by_module() -> None:
    graph = {"bot.a": {"bot.b"}, "bot.b": {"bot.c"}, "bot.c": {"bot.a"}, "bot.d": {"bot.a"}}
    assert unexpected_cycles(graph) == ["bot.a -> bot.b -> bot.c -> bot.a"]


def test_no_module_imports_itself_back() -> None:
    found = unexpected_cycles(import_graph())
    assert found == [], "import cycles:\n" + "\n".join(found)
