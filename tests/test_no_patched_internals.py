"""The bot patches no library internals: no redirected class attributes, no wrapped methods,
no garbage collector turned off. Pointing a library at a fake is the tests' job (`fakes/`).

The one exception is `bot/discord_adapter/patches.py`, pinned to the discord.py versions it
was written for and checked against their internals by `test_patches.py`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[1] / "bot"
EXCEPTION = BOT / "discord_adapter" / "patches.py"
"""The one module allowed to patch a library (discord.py's gateway reads)."""
PATCHED_ANYWHERE = {"DEFAULT_GATEWAY", "ws_connect", "connector"}
"""Attributes no assignment may set, whatever they belong to."""
PATCHED_ON = {"BASE": "Route"}
"""Attributes no assignment may set on the class named."""


def owner(node: ast.expr) -> str:
    """The last name of what an attribute belongs to: `Route` for `discord.http.Route`."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def is_patched(name: str, owned_by: str) -> bool:
    """Whether setting attribute `name` of `owned_by` patches a library internal."""
    return name in PATCHED_ANYWHERE or PATCHED_ON.get(name, "") == owned_by


def unpacked(target: ast.expr) -> list[ast.expr]:
    """The single targets of an assignment target: `a.x, b.y` gives `a.x` and `b.y`."""
    if isinstance(target, ast.Tuple | ast.List):
        return [single for element in target.elts for single in unpacked(element)]
    return [target]


def assigned(node: ast.AST) -> list[ast.expr]:
    """The single targets an assignment statement sets (none for other nodes)."""
    if isinstance(node, ast.Assign):
        return [single for target in node.targets for single in unpacked(target)]
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    return []


def patches_attribute(node: ast.AST) -> bool:
    """`X.attr = ...` or `setattr(X, "attr", ...)` on an internal attribute."""
    if isinstance(node, ast.Call) and owner(node.func) == "setattr" and len(node.args) >= 2:
        name = node.args[1]
        return isinstance(name, ast.Constant) and is_patched(str(name.value), owner(node.args[0]))
    return any(
        isinstance(target, ast.Attribute) and is_patched(target.attr, owner(target.value))
        for target in assigned(node)
    )


def disables_collector(node: ast.AST) -> bool:
    """`gc.disable()`, or `disable` imported from `gc`."""
    if isinstance(node, ast.ImportFrom):
        return node.module == "gc" and any(alias.name == "disable" for alias in node.names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "disable" and owner(node.func.value) == "gc"
    return False


def findings(source: str) -> list[int]:
    """The lines of a module that patch a library internal or turn the collector off."""
    nodes = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.stmt | ast.expr)]
    return sorted(
        node.lineno for node in nodes if patches_attribute(node) or disables_collector(node)
    )


def test_no_module_of_the_bot_but_the_exception_patches_library_internals() -> None:
    modules = sorted(set(BOT.rglob("*.py")) - {EXCEPTION})
    assert BOT / "discord_adapter" / "client.py" in modules
    found = [
        f"{module.relative_to(BOT.parent)}:{line}"
        for module in modules
        for line in findings(module.read_text(encoding="utf-8"))
    ]
    assert not found, f"library internals patched at {', '.join(found)}"


@pytest.mark.parametrize(
    "source",
    [
        "Route.BASE = api_url",
        "discord.http.Route.BASE = api_url.rstrip('/')",
        "DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)",
        "old, DiscordWebSocket.DEFAULT_GATEWAY = 1, 2",
        "self.http.ws_connect = wrap(self.http.ws_connect)",
        "self.http.connector: object = TCPConnector(limit=50)",
        "setattr(client.http, 'ws_connect', wrapped)",
        "gc.disable()",
        "from gc import disable",
    ],
)
def test_each_kind_of_patch_is_found(source: str) -> None:
    assert findings(source) == [1]


@pytest.mark.parametrize(
    "source",
    [
        "gc.freeze()",
        "self.base = url",
        "self.BASE = url",
        "connector = TCPConnector(limit=50)",
        "super().__init__(connector=TCPConnector(limit=50))",
        "ws_connect = session.ws_connect",
    ],
)
def test_ordinary_code_is_not_taken_for_a_patch(source: str) -> None:
    assert findings(source) == []


def test_the_exception_is_the_module_that_patches() -> None:
    assert findings(EXCEPTION.read_text(encoding="utf-8"))
