"""What a lesson asks a channel to read: short posts, and nothing that gives an answer away.

The shipped lessons are tested against these rules (tests/lessons/test_lesson_text.py), and
`lessons validate` holds every translation to them: translating is where posts grow and where
a key word slips into the text before its question.
"""

from __future__ import annotations

from bot.engine import MIN_REASON_WORDS, REASON_LIMIT, step_card
from lessons.reading import authored_words, word_count
from lessons.schema import LaterQuestion, Lesson, Step

MAX_MAIN_WORDS = 90
"""Words a step's post (its body and the sections its card shows) may have."""
MAX_AUTHORED_WORDS = 1100
"""Authored words (lessons/reading.py) a whole lesson may have."""


def text_problems(lesson: Lesson) -> list[str]:
    """Every way the lesson breaks the text rules, each naming where."""
    return [
        *long_posts(lesson),
        *spoilers_before_questions(lesson),
        *reason_problems(lesson),
        *delayed_recall_problems(lesson),
    ]


def main_words(lesson: Lesson, index: int) -> int:
    """The words of a step's post: its body and the sections its card shows."""
    card = step_card(1, lesson, index)
    return word_count(card.body) + sum(word_count(section.text) for section in card.sections)


def long_posts(lesson: Lesson) -> list[str]:
    """Posts above `MAX_MAIN_WORDS`, and the lesson's words if above `MAX_AUTHORED_WORDS`."""
    problems = []
    for index, step in enumerate(lesson.steps):
        if (words := main_words(lesson, index)) > MAX_MAIN_WORDS:
            problems.append(f"step '{step.id}': its post has {words} words; at most "
                            f"{MAX_MAIN_WORDS}")
    if (words := authored_words(lesson)) > MAX_AUTHORED_WORDS:
        problems.append(f"the lesson has {words:,} authored words; at most "
                        f"{MAX_AUTHORED_WORDS:,}")
    return problems


def posted_texts(lesson: Lesson, index: int) -> list[str]:
    """Everything a step may post: its card, labels, discussion, explanations and More text."""
    step = lesson.step_at(index)
    card = step_card(1, lesson, index)
    labels = [button.label for button in card.buttons]
    return [
        card.title,
        card.body,
        *(f"{s.heading}\n{s.text}" for s in card.sections),
        *labels,
        *step.discussion_texts(),
        *step.explanation_texts(),
        *([step.more] if step.more else []),
    ]


def before_question(lesson: Lesson, index: int, step: Step) -> list[str]:
    """What a channel has read when a question is asked: every earlier post, and the question."""
    earlier = [text for i in range(index) for text in posted_texts(lesson, i)]
    wrong = [choice.label for choice in step.crowd().choices if not choice.correct]
    return [*earlier, step.title, step.body, *wrong]


def questions(lesson: Lesson) -> list[tuple[int, Step]]:
    """Multiple-choice questions with a right answer (peer rounds too), asked the first time."""
    return [
        (index, step)
        for index, step in enumerate(lesson.steps)
        if step.crowd().right is not None and step.asks_again() is None
    ]


def spoilers_before_questions(lesson: Lesson) -> list[str]:
    """Questions without keywords, and right answers or keywords posted before their question."""
    problems = []
    for index, step in questions(lesson):
        right = step.crowd().right
        if right is None:
            continue
        if not step.answer_keywords():
            problems.append(f"step '{step.id}': names no keywords of its right answer")
        secrets = [right.label, *step.answer_keywords()]
        for text in before_question(lesson, index, step):
            found = [secret for secret in secrets if secret.casefold() in text.casefold()]
            if found:
                problems.append(f"before step '{step.id}': {_listed(found)} in {_quoted(text)}")
    return problems


def discussion_spoilers(step: Step) -> list[str]:
    """The right answer's label or key words in a peer round's reasons (simulated ones too)."""
    crowd = step.crowd()
    secrets = [*([crowd.right.label] if crowd.right else []), *step.answer_keywords()]
    simulated = [reason for reasons in crowd.reasons.values() for reason in reasons]
    texts = [*step.discussion_texts(), *simulated]
    return [s for text in texts for s in secrets if s.casefold() in text.casefold()]


def reason_problems(lesson: Lesson) -> list[str]:
    """Peer rounds' reasons that give the answer away or that a member could not save."""
    problems = []
    for step in lesson.steps:
        if found := discussion_spoilers(step):
            problems.append(f"step '{step.id}': a reason gives the answer away ({_listed(found)})")
        for choice_id, reasons in step.crowd().reasons.items():
            short = [reason for reason in reasons
                     if len(reason.split()) < MIN_REASON_WORDS or len(reason) > REASON_LIMIT]
            problems += [f"step '{step.id}', choice '{choice_id}': the reason {_quoted(reason)} "
                         f"is not {MIN_REASON_WORDS} words to {REASON_LIMIT} characters"
                         for reason in short]
    return problems


def long_delayed_recall(lesson: Lesson) -> dict[str, int]:
    """The delayed-recall questions whose text is longer than a step's post may be."""
    counts = {question.id: word_count(question.text) for question in lesson.delayed_recall}
    return {key: words for key, words in counts.items() if words > MAX_MAIN_WORDS}


def delayed_recall_spoilers(lesson: Lesson, question: LaterQuestion) -> list[str]:
    """The question's right answer, or the asked step's key words, in the question's text."""
    keywords = lesson.step_by_id(question.asks_again).answer_keywords()
    secrets = [question.correct_choice.label, *keywords]
    return [secret for secret in secrets if secret.casefold() in question.text.casefold()]


def delayed_recall_problems(lesson: Lesson) -> list[str]:
    """Delayed-recall questions longer than a post, or giving their answer away."""
    problems = [f"delayed-recall question '{question_id}': its text has {words} words; at "
                f"most {MAX_MAIN_WORDS}"
                for question_id, words in long_delayed_recall(lesson).items()]
    for question in lesson.delayed_recall:
        if found := delayed_recall_spoilers(lesson, question):
            problems.append(f"delayed-recall question '{question.id}': its text gives the "
                            f"answer away ({_listed(found)})")
    return problems


def _listed(secrets: list[str]) -> str:
    """Secrets found, quoted: 'reward', 'program'."""
    return ", ".join(f"'{secret}'" for secret in secrets)


def _quoted(text: str, limit: int = 60) -> str:
    """A text quoted on one line, cut to `limit` characters."""
    line = " ".join(text.split())
    return repr(line if len(line) <= limit else f"{line[:limit - 1]}…")
