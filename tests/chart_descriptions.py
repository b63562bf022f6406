"""What each chart's description must say after a whole lesson answered in a known way.

The members answer as the lesson walks do: member n picks choice n (wrapping round) at every
prediction, gives every attempt a thumbs-up, and answers the free-answer problem right on the
first try. The expected phrases are computed here from those answers, not from the bot's charts.
"""

from __future__ import annotations

import io
import re

from PIL import Image

from lessons.loader import load_lesson
from lessons.schema import FreeAnswerStep, PredictionStep, VerifierStep

CHECKER_MARK = " (the checker gave reward 1: it read the right answer)"
RIGHT_MARK = " (the right answer)"
START = re.compile(r"(\S.*?) from (\d+)% to (\d+)%")


def count_of(count: int, total: int) -> str:
    """'1 of 3 (33%)', as a bar's end shows it."""
    return f"{count} of {total} ({round(100 * count / total)}%)"


def picks(step: PredictionStep, members: int) -> list[int]:
    """How many members picked each choice, member n picking choice n."""
    return [sum(n % len(step.choices) == i for n in range(members))
            for i in range(len(step.choices))]


def expected_phrases(members: int) -> list[str]:
    """Phrases that some chart's description must contain, with this walk's numbers."""
    phrases: list[str] = []
    right_counts: dict[str, int] = {}
    for step in load_lesson("rlvr").steps:
        if isinstance(step, PredictionStep):
            phrases += _prediction_phrases(step, members)
            right = [c.correct for c in step.choices].index(True)
            right_counts[step.title] = picks(step, members)[right]
        elif isinstance(step, VerifierStep):
            phrases += _verifier_phrases(step, members)
        elif isinstance(step, FreeAnswerStep):
            phrases.append(f"solved on the first try: {count_of(members, members)}")
            right_counts[step.title] = members
    phrases += [f"{title}: {count} right ({round(100 * count / members)}%)"
                for title, count in right_counts.items()]
    return phrases


def _prediction_phrases(step: PredictionStep, members: int) -> list[str]:
    counts = picks(step, members)
    labels = [c.label + (RIGHT_MARK if c.correct else "") for c in step.choices]
    if step.recall:
        return [f"{label}: first time {count_of(count, members)}, asked again "
                f"{count_of(count, members)}" for label, count in zip(labels, counts, strict=True)]
    heading = f"Bar chart: {step.title}: this channel's predictions ({members} answered)."
    return [heading, *(f"{label}: {count_of(count, members)}"
                       for label, count in zip(labels, counts, strict=True))]


def _verifier_phrases(step: VerifierStep, members: int) -> list[str]:
    heading = f"Bar chart: {step.title}: this channel's thumbs-ups ({members} rated) beside"
    rows = [f"{a.label}{CHECKER_MARK if a.expect == 'correct' else ''}: "
            f"{count_of(members, members)}" for a in step.attempts]
    return [heading, *rows]


def png_description(png: bytes) -> str:
    """The Description text a PNG carries."""
    with Image.open(io.BytesIO(png)) as image:
        return str(image.info["Description"])


def assert_described(descriptions: list[str], members: int) -> None:
    """Every expected phrase is in some description; the training chart says where runs went."""
    missing = [p for p in expected_phrases(members) if not any(p in d for d in descriptions)]
    assert not missing, (missing, descriptions)
    (training,) = [d for d in descriptions if d.startswith("Line chart: ")]
    for reward in ("thumbs-up", "checker", "naive checker"):
        assert f"Reward: {reward}: " in training
    attempts = next(s for s in load_lesson("rlvr").steps if isinstance(s, VerifierStep)).attempts
    for attempt in attempts:
        assert training.count(f"{attempt.label} from 25% to ") == 3


def final_share(description: str, reward: str, label: str) -> int:
    """The percentage the line of `label` ends at in the panel of `reward`."""
    panel = description.split(f"Reward: {reward}: ", 1)[1].split(". ", 1)[0]
    ends = {m.group(1): int(m.group(3)) for m in START.finditer(panel.replace(", ", "\n"))}
    return ends[label]
