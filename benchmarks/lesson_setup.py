"""The engine on real storage, and runs moved to the first prediction question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import LessonCatalog, LessonEngine
from bot.model import Member, Place
from bot.process.runtime import freeze_startup_objects
from bot.verifier.verdict import Verdict
from lessons.schema import PredictionStep
from storage import SqlRunStore

HOST = Member("bench-host", "Benchmark host", is_host=True)


class NoChecker:
    """An answer checker for benchmarks that never grade anything."""

    async def check_answer(
        self,
        answer: str,
        gold: str,
        *,
        unit: str | None = None,
        accept: Sequence[str] = (),
        language: str = "en",
    ) -> Verdict:
        """Refuse: prediction questions need no checker."""
        raise RuntimeError("this benchmark does not grade answers")

    async def check_attempt(
        self,
        attempt: str,
        gold: str,
        *,
        unit: str | None = None,
        accept: Sequence[str] = (),
        language: str = "en",
    ) -> Verdict:
        """Refuse: prediction questions need no checker."""
        raise RuntimeError("this benchmark does not grade answers")


@dataclass(frozen=True)
class OpenQuestion:
    """A run waiting at a prediction question."""

    run_id: int
    step: PredictionStep


def lesson_engine(store: SqlRunStore, catalog: LessonCatalog | None = None) -> LessonEngine:
    """The real engine on `store`, with the shipped lessons, started as the bot starts."""
    engine = LessonEngine(store, NoChecker(), catalog or LessonCatalog())
    freeze_startup_objects()
    return engine


def channel(number: int, platform: str = "discord") -> Place:
    """The `number`-th benchmark channel."""
    return Place(platform, "bench-guild", f"bench-channel-{number}")


def member(number: int) -> Member:
    """The `number`-th benchmark member."""
    return Member(f"bench-member-{number}", f"Member {number}")


async def open_prediction(engine: LessonEngine, place: Place) -> OpenQuestion:
    """Start a run in `place` and move it to its first prediction question."""
    card = await engine.start(place, HOST)
    while card.kind != "prediction":
        advance = await engine.advance(card.run_id, HOST)
        if advance.card is None:
            raise RuntimeError("the default lesson has no prediction question")
        card = advance.card
    run = await engine.open_run(card.run_id)
    step = engine.core.current_step(run)
    assert isinstance(step, PredictionStep)
    return OpenQuestion(card.run_id, step)


def choice_for(question: OpenQuestion, number: int) -> str:
    """The choice member `number` makes: spread over every choice."""
    choices = question.step.choices
    return choices[number % len(choices)].id
