"""Every front end renders every effect the service can answer with: each keeps one table."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_adapter.effects import DiscordEffects
from bot.engine import LessonEngine
from bot.play import effects as play_effects
from bot.service import EFFECT_TYPES, Presenter
from bot.slack_adapter.surface import SlackEffects, SlackSurface, make_client
from tests.seen import READ
from tests.service.test_assignments import RecordingSurface


def tables(engine: LessonEngine) -> dict[str, dict[type[Any], Any]]:
    """Each front end's table from effect type to renderer, and the tests' own."""
    presenter = Presenter(engine, RecordingSurface())
    slack = SlackSurface(make_client("xoxb-unused", "http://127.0.0.1:9/api/"))
    return {
        "discord": DiscordEffects(presenter).table,
        "slack": SlackEffects(slack, presenter).table,
        "play": play_effects.TABLE,
        "tests": READ,
    }


@pytest.mark.parametrize("front_end", ["discord", "slack", "play", "tests"])
def test_each_front_end_renders_every_effect_and_nothing_else(
    engine: LessonEngine, front_end: str
) -> None:
    assert set(tables(engine)[front_end]) == set(EFFECT_TYPES)
    assert len(EFFECT_TYPES) >= 12
