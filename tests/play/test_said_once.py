"""Steps 4 and 5 say each thing once: the rating order, and that the toy is no language model."""

from __future__ import annotations

import io

from bot.engine import LessonEngine
from bot.play.console import Console
from bot.play.session import PlayOptions, PlaySession
from tests.play.test_play_mode import scripted_answers


async def played_step(engine: LessonEngine, title: str) -> str:
    """What play mode printed for the step titled `title`, up to the next step."""
    out = io.StringIO()
    console = Console(io.StringIO(scripted_answers()), out)
    await PlaySession(engine, console, PlayOptions(seed=3, classmates=4)).run()
    text = " ".join(out.getvalue().split()).lower()
    return text.split(title.lower(), 1)[1].split("── step ", 1)[0]


async def test_the_checker_step_says_once_to_rate_first_then_run_the_checker(
    engine: LessonEngine,
) -> None:
    step = await played_step(engine, "You're the checker")
    assert step.count("then run the checker") == 1
    assert step.count("human rater") == 1


async def test_the_toy_step_says_once_that_it_is_not_a_real_language_model(
    engine: LessonEngine,
) -> None:
    step = await played_step(engine, "Train a tiny model on your votes")
    assert step.count("not a real language model") == 1
    assert "a toy trained on this channel's votes" in step
