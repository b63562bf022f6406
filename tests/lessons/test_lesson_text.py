"""What the lessons ask a channel to read: no spoilers, short posts, every beat of the seed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bot.cli import cli
from bot.engine.steps.peer_round import MIN_REASON_WORDS, REASON_LIMIT
from bot.lesson_text import (
    MAX_AUTHORED_WORDS,
    MAX_MAIN_WORDS,
    before_question,
    delayed_recall_spoilers,
    discussion_spoilers,
    long_delayed_recall,
    main_words,
    posted_texts,
    questions,
    text_problems,
)
from lessons.loader import LESSON_DIR, load_lesson_file
from lessons.reading import authored_words, reading_minutes
from lessons.schema import (
    FreeAnswerStep,
    Lesson,
    PeerRoundStep,
    PredictionStep,
    VerifierStep,
)

LESSON_FILES = sorted(LESSON_DIR.glob("*.yaml"))
BEATS = Path(__file__).with_name("beats.yaml")


def lessons() -> list[object]:
    """Every shipped lesson file, sources and translations, named by its file."""
    return [pytest.param(load_lesson_file(path), id=path.name) for path in LESSON_FILES]


@pytest.mark.parametrize("lesson", lessons())
def test_nothing_posted_before_a_prediction_gives_its_answer_away(lesson: Lesson) -> None:
    for index, step in questions(lesson):
        keywords = step.answer_keywords()
        assert keywords, f"step '{step.id}' names no keywords of its right answer"
        right = step.crowd().right
        assert right is not None
        secrets = [right.label, *keywords]
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
    assert any(keyword.lower() in texts for keyword in step.answer_keywords())


@pytest.mark.parametrize("lesson", lessons())
def test_the_authors_reasons_argue_without_giving_the_answer_away(lesson: Lesson) -> None:
    rounds = [step for step in lesson.steps if isinstance(step, PeerRoundStep)]
    for step in rounds:
        assert discussion_spoilers(step) == [], step.id


@pytest.mark.parametrize("lesson", lessons())
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


@pytest.mark.parametrize("lesson", lessons())
def test_each_post_is_short_and_the_lesson_is_short_in_all(lesson: Lesson) -> None:
    counts = {step.id: main_words(lesson, i) for i, step in enumerate(lesson.steps)}
    for step_id, words in counts.items():
        print(f"{lesson.id} {step_id}: {words} words of main text")
    print(f"{lesson.id}: {authored_words(lesson)} authored words in all")
    long_posts = {step_id: words for step_id, words in counts.items() if words > MAX_MAIN_WORDS}
    assert not long_posts, f"main text above {MAX_MAIN_WORDS} words: {long_posts}"
    assert authored_words(lesson) <= MAX_AUTHORED_WORDS


@pytest.mark.parametrize("lesson", lessons())
def test_each_delayed_recall_question_is_as_short_as_a_post(lesson: Lesson) -> None:
    assert long_delayed_recall(lesson) == {}, f"above {MAX_MAIN_WORDS} words"


def test_a_long_delayed_recall_question_is_caught() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    first, *others = lesson.delayed_recall
    long = first.model_copy(update={"text": "Why? " * (MAX_MAIN_WORDS + 1)})
    longer = lesson.model_copy(update={"delayed_recall": [long, *others]})
    assert long_delayed_recall(longer) == {first.id: MAX_MAIN_WORDS + 1}


@pytest.mark.parametrize("lesson", lessons())
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


@pytest.mark.parametrize("lesson", lessons())
def test_every_lesson_keeps_the_text_rules_validate_holds_translations_to(lesson: Lesson) -> None:
    assert text_problems(lesson) == []


def test_the_text_rules_name_a_long_post_and_a_spoiler() -> None:
    lesson = load_lesson_file(LESSON_DIR / "rlvr.yaml")
    intro = lesson.steps[0].model_copy(update={"body": "Words " * 91 + "about the reward."})
    problems = text_problems(lesson.model_copy(update={"steps": [intro, *lesson.steps[1:]]}))
    assert "step 'intro': its post has 94 words; at most 90" in problems
    assert any(problem.startswith("the lesson has 1,1") for problem in problems)
    assert "before step 'what-changed': 'reward' in 'Words Words" in "\n".join(problems)
