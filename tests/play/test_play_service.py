"""Play mode takes the members' path: the shared service's clicks, answers and host verbs."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine import LessonEngine
from bot.play.console import Console
from bot.play.session import PlayOptions, PlaySession
from bot.service import LessonService
from tests.play.test_play_mode import scripted_answers

PLAY = Path(__file__).resolve().parents[2] / "bot" / "play"
ENGINE_OPERATIONS = (
    "start", "reveal", "advance", "stop", "choose", "rate", "run_checker", "submit_answer",
    "click",
)


def recording(calls: list[str], name: str, method: Callable[..., Awaitable[Any]]) -> Any:
    """The service method, noting each call with the action or verb it carried."""

    async def record(self: LessonService, actor: Any, what: Any, *args: Any) -> Any:
        label = str(what).split(":")[3] if name != "command" else str(what)
        calls.append(f"{name}:{label}")
        return await method(self, actor, what, *args)

    return record


async def test_play_clicks_answers_and_hosts_through_the_service(
    engine: LessonEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    for name in ("click", "answer", "command"):
        monkeypatch.setattr(
            LessonService, name, recording(calls, name, getattr(LessonService, name))
        )
    out = io.StringIO()
    console = Console(io.StringIO(scripted_answers()), out)
    await PlaySession(engine, console, PlayOptions(seed=3, classmates=2)).run()

    assert {"click:choose", "click:up", "click:down", "click:check", "click:answer"} <= set(calls)
    assert {"answer:answer", "command:start", "command:reveal", "command:next"} <= set(calls)
    assert "Finished" in out.getvalue() and "3 members took part." in out.getvalue()


def test_play_mode_never_calls_engine_operations_itself() -> None:
    for path in PLAY.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        called = [op for op in ENGINE_OPERATIONS if f"engine.{op}(" in text]
        assert called == [], f"{path.name} calls the engine directly: {called}"
