"""An interaction delivered twice (a gateway replay) is handled once, in any process."""

from __future__ import annotations

import logging

import pytest

from bot.engine import LessonEngine
from fakes.fake_discord import FakeDiscord
from storage import SqlRunStore
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import (
    LessonDriver,
    answers_of,
    button,
    logged,
    rate_every_attempt,
    run_of,
)

DELIVERIES = "bot.service.lesson_service"


async def test_a_replayed_choice_checker_run_and_form_count_once(
    lesson: LessonDriver, store: SqlRunStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=DELIVERIES)
    fake, ann = lesson.fake, lesson.fake.member("ann")
    question = await lesson.reach("what-changed")
    chosen = await fake.click(ann, question, button(question, arg="bigger-model"))
    assert "You chose" in (await fake.private_reply(chosen)).content
    await fake.redeliver(chosen)
    await logged(caplog, f"repeated delivery of {chosen.id}")

    exercise = await lesson.reach_from(question, "be-the-checker")
    await rate_every_attempt(lesson, ann, exercise)
    checked = await fake.click(ann, exercise, button(exercise, action="check", arg="polished"))
    assert "→ reward **0**" in (await fake.private_reply(checked)).content
    await fake.redeliver(checked)
    await logged(caplog, f"repeated delivery of {checked.id}")

    turn = await lesson.reach_from(exercise, "your-turn")
    submitted = await fake.submit_form(ann, button(turn, action="answer"), {"answer": "3/4"}, turn)
    assert "Try 1" in (await fake.private_reply(submitted)).content
    await fake.redeliver(submitted)
    await logged(caplog, f"repeated delivery of {submitted.id}")

    run_id = run_of(turn)
    assert len(await answers_of(store, run_id, "choice")) == 1
    assert len(await answers_of(store, run_id, "checker")) == 1
    assert len(await answers_of(store, run_id, "answer")) == 1
    for sent in (chosen, checked, submitted):
        assert len(fake.callback_attempts(sent)) == 1 and len(fake.followups_of(sent)) <= 1


async def test_a_repeat_reaching_another_process_is_not_handled_again(
    fake: FakeDiscord,
    launch: Launch,
    fresh_engine: LessonEngine,
    store: SqlRunStore,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger=DELIVERIES)
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    turn = await lesson.reach("your-turn")
    await launch(on=fresh_engine)  # a second process on the same database

    ann = fake.member("ann")
    submitted = await fake.submit_form(ann, button(turn, action="answer"), {"answer": "2/3"}, turn)
    assert "Try 1" in (await fake.private_reply(submitted)).content
    await fake.redeliver(submitted, connection=0)
    await logged(caplog, f"repeated delivery of {submitted.id}")

    assert len(await answers_of(store, run_of(turn), "answer")) == 1
    assert len(fake.callback_attempts(submitted)) == 1
    assert len(fake.followups_of(submitted)) == 1
