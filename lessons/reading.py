"""How much a lesson asks members to read: its authored words, and minutes computed from them.

Authored words are the prose a member may be shown from the lesson file: each step's body,
problem, sample attempts, next steps, the author's reasons of a peer round, explanation (every
variant) and `more` text, and the lesson's disclaimer. Titles, button labels and the summary
are not counted. A word is a run of non-space characters with at least one letter or digit, so
`22.5` counts and `=` does not.
"""

from __future__ import annotations

import math
import re

from lessons.schema import Lesson

WORDS_PER_MINUTE = 200
MINUTES_PER_QUESTION = 1
_WORD = re.compile(r"\S*[^\W_]\S*")


def word_count(text: str | None) -> int:
    """The words in a text (0 for none)."""
    return len(_WORD.findall(text or ""))


def authored_words(lesson: Lesson) -> int:
    """The words of every authored text in a lesson."""
    texts = [text for step in lesson.steps for text in step.authored_texts()]
    return sum(word_count(text) for text in [*texts, lesson.disclaimer or ""])


def reading_minutes(lesson: Lesson) -> int:
    """Minutes a channel spends: the words at a reading pace, plus time for each question."""
    reading = math.ceil(authored_words(lesson) / WORDS_PER_MINUTE)
    return reading + lesson.question_count() * MINUTES_PER_QUESTION


def lesson_length(lesson: Lesson) -> str:
    """How long a lesson is, e.g. '11 steps, 1,080 words, 5 questions, about 11 min'."""
    return (
        f"{len(lesson.steps)} steps, {authored_words(lesson):,} words, "
        f"{lesson.question_count()} questions, about {reading_minutes(lesson)} min"
    )
