"""What the lessons ask a channel to read: no spoilers, short posts, every beat of the seed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bot.cli import cli
from bot.engine.cards import step_card
from bot.engine.steps.peer_round import MIN_REASON_WORDS, REASON_LIMIT
from lessons.loader import LESSON_DIR, load_lesson_file
from lessons.reading import authored_words, reading_minutes, word_count
from lessons.schema import (
    FreeAnswerStep,
    LaterQuestion,
    Lesson,
    PeerRoundStep,
    PredictionStep,
    VerifierStep,
)

AskedOnce = PredictionStep | PeerRoundStep

LESSON_FILES = sorted(LESSON_DIR.glob("*.yaml"))
MAX_MAIN_WORDS = 90
MAX_AUTHORED_WORDS = 1100
BEATS = Path(__file__).with_name("beats.yaml")


def lessons() -> list[Lesson]:
    return [load_lesson_file(path) for path in LESSON_FILES]


def main_words(lesson: Lesson, index: int) -> int:
    """The words of a step's post: its body and the sections its card shows."""
    card = step_card(1, lesson, index)
    return word_count(card.body) + sum(word_count(section.text) for section in card.sections)


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


def before_question(lesson: Lesson, index: int, step: AskedOnce) -> list[str]:
    """What a channel has read when a question is asked: every earlier post, and the question."""
    earlier = [text for i in range(index) for text in posted_texts(lesson, i)]
    wrong = [choice.label for choice in step.choices if not choice.correct]
    return [*earlier, step.title, step.body, *wrong]


def questions(lesson: Lesson) -> list[tuple[int, AskedOnce]]:
    """Multiple-choice questions with a right answer (peer rounds too), asked the first time."""
    return [
        (index, step)
        for index, step in enumerate(lesson.steps)
        if isinstance(step, PredictionStep | PeerRoundStep)
        and step.correct_choice is not None
        and getattr(step, "recall", None) is None
    ]


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_nothing_posted_before_a_prediction_gives_its_answer_away(lesson: Lesson) -> None:
    for index, step in questions(lesson):
        assert step.keywords, f"step '{step.id}' names no keywords of its right answer"
        right = step.correct_choice
        assert right is not None
        secrets = [right.label, *step.keywords]
        for text in before_question(lesson, index, step):
            found = [secret for secret in secrets if secret.lower() in text.lower()]
            assert not found, f"before '{step.id}': {found} in {text!r}"


def test_a_spoiler_in_the_intro_is_caught() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    intro = lesson.steps[0].model_copy(
        update={"body": "A program that checks the answer replaced the thumbs-up."}
    )
    spoiled = lesson.model_copy(update={"steps": [intro, *lesson.steps[1:]]})
    index, step = questions(spoiled)[0]
    texts = " ".join(before_question(spoiled, index, step)).lower()
    assert any(keyword.lower() in texts for keyword in step.keywords)


def discussion_spoilers(step: PeerRoundStep) -> list[str]:
    """The right answer's label or key words in a peer round's reasons: the author's, and
    those play mode's simulated classmates write."""
    secrets = [step.correct_choice.label, *step.keywords]
    crowd = [reason for choice in step.choices for reason in choice.crowd_reasons]
    texts = [*step.discussion_texts(), *crowd]
    return [s for text in texts for s in secrets if s.lower() in text.lower()]


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_the_authors_reasons_argue_without_giving_the_answer_away(lesson: Lesson) -> None:
    rounds = [step for step in lesson.steps if isinstance(step, PeerRoundStep)]
    for step in rounds:
        assert discussion_spoilers(step) == [], step.id


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_the_simulated_classmates_reasons_are_ones_a_member_could_save(lesson: Lesson) -> None:
    rounds = [step for step in lesson.steps if isinstance(step, PeerRoundStep)]
    for step in rounds:
        for choice in step.choices:
            assert choice.crowd_pool, (step.id, choice.id)
            for reason in choice.crowd_pool:
                assert len(reason.split()) >= MIN_REASON_WORDS and len(reason) <= REASON_LIMIT


def test_a_spoiler_in_a_simulated_classmates_reason_is_caught() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    step = next(s for s in lesson.steps if isinstance(s, PeerRoundStep))
    right = step.correct_choice
    spoiled = right.model_copy(update={"crowd_reasons": [f"It {step.keywords[-1]}, that is why."]})
    choices = [spoiled if c.id == right.id else c for c in step.choices]
    found = discussion_spoilers(step.model_copy(update={"choices": choices}))
    assert found == [step.keywords[-1]]


def test_a_spoiler_in_an_authors_reason_is_caught() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    step = next(s for s in lesson.steps if isinstance(s, PeerRoundStep))
    wrong = next(c for c in step.choices if not c.correct)
    spoiled = wrong.model_copy(update={"reason": f"Not this: {step.keywords[0]} is the point."})
    choices = [spoiled if c.id == wrong.id else c for c in step.choices]
    assert discussion_spoilers(step.model_copy(update={"choices": choices})) == [step.keywords[0]]


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_each_post_is_short_and_the_lesson_is_short_in_all(lesson: Lesson) -> None:
    counts = {step.id: main_words(lesson, i) for i, step in enumerate(lesson.steps)}
    for step_id, words in counts.items():
        print(f"{lesson.id} {step_id}: {words} words of main text")
    print(f"{lesson.id}: {authored_words(lesson)} authored words in all")
    long_posts = {step_id: words for step_id, words in counts.items() if words > MAX_MAIN_WORDS}
    assert not long_posts, f"main text above {MAX_MAIN_WORDS} words: {long_posts}"
    assert authored_words(lesson) <= MAX_AUTHORED_WORDS


def long_delayed_recall(lesson: Lesson) -> dict[str, int]:
    """The delayed-recall questions whose text is longer than a step's post may be."""
    counts = {question.id: word_count(question.text) for question in lesson.delayed_recall}
    return {key: words for key, words in counts.items() if words > MAX_MAIN_WORDS}


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_each_delayed_recall_question_is_as_short_as_a_post(lesson: Lesson) -> None:
    assert long_delayed_recall(lesson) == {}, f"above {MAX_MAIN_WORDS} words"


def test_a_long_delayed_recall_question_is_caught() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    first, *others = lesson.delayed_recall
    long = first.model_copy(update={"text": "Why? " * (MAX_MAIN_WORDS + 1)})
    longer = lesson.model_copy(update={"delayed_recall": [long, *others]})
    assert long_delayed_recall(longer) == {first.id: MAX_MAIN_WORDS + 1}


def delayed_recall_spoilers(lesson: Lesson, question: LaterQuestion) -> list[str]:
    """The question's right answer, or the asked step's key words, in the question's text."""
    asked = lesson.step_by_id(question.asks_again)
    keywords = asked.keywords if isinstance(asked, PredictionStep | PeerRoundStep) else []
    secrets = [question.correct_choice.label, *keywords]
    return [secret for secret in secrets if secret.lower() in question.text.lower()]


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_a_delayed_recall_question_does_not_give_its_answer_away(lesson: Lesson) -> None:
    for question in lesson.delayed_recall:
        assert delayed_recall_spoilers(lesson, question) == [], question.id


def test_a_spoiler_in_a_delayed_recall_question_is_caught() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    question = lesson.delayed_recall[0]
    spoiled = question.model_copy(update={"text": f"{question.text} Hint: the reward."})
    assert delayed_recall_spoilers(lesson, spoiled) == ["reward"]


def all_text(lesson: Lesson) -> str:
    """Every text of a lesson a member may read, labels included."""
    texts = [text for i in range(len(lesson.steps)) for text in posted_texts(lesson, i)]
    return "\n".join(texts + [text for step in lesson.steps for text in step.authored_texts()])


def test_every_beat_of_the_seed_is_in_the_rlvr_lesson() -> None:
    text = all_text(load_lesson_file(LESSON_DIR / "rlvr.yaml")).lower()
    beats = yaml.safe_load(BEATS.read_text(encoding="utf-8"))
    missing = {
        beat: [word for word in words if str(word).lower() not in text]
        for beat, words in beats.items()
    }
    assert {beat: words for beat, words in missing.items() if words} == {}


def test_the_beats_table_fails_when_a_beat_is_cut() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    kept = [step for step in lesson.steps if step.id != "deepseek-r1"]
    assert "2501.12948v1" not in all_text(lesson.model_copy(update={"steps": kept}))


def verifier(lesson: Lesson) -> VerifierStep:
    return next(step for step in lesson.steps if isinstance(step, VerifierStep))


def test_the_verifier_explains_itself_for_each_way_the_channel_rated() -> None:
    step = verifier(load_lesson_file(LESSON_DIR / "rlvr.yaml"))
    like_checker = step.explanations.rated_like_checker
    favoured_wrong = step.explanations.favoured_unrewarded
    assert like_checker and favoured_wrong
    assert "flattery" not in like_checker.lower()
    assert "favourite" in favoured_wrong.lower()


def test_lessons_list_shows_minutes_computed_from_words_and_questions() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    result = CliRunner().invoke(cli, ["lessons", "list"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("rlvr\t"))
    kinds = PredictionStep | VerifierStep | FreeAnswerStep | PeerRoundStep
    questions = sum(isinstance(step, kinds) for step in lesson.steps)
    assert f"{authored_words(lesson):,} words, {questions} questions" in line
    assert f"about {reading_minutes(lesson)} min" in line
    assert reading_minutes(lesson) == -(-authored_words(lesson) // 200) + questions


def test_a_file_with_authored_minutes_still_loads(tmp_path: Path) -> None:
    data = yaml.safe_load((LESSON_DIR / "rlvr.yaml").read_text(encoding="utf-8"))
    data["minutes"] = 12
    path = tmp_path / "old.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    old = load_lesson_file(path)
    assert reading_minutes(old) == reading_minutes(load_lesson_file(LESSON_DIR / "rlvr.yaml"))
