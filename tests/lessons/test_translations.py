"""A lesson in more than one language: `rlvr.es.yaml` is `rlvr.yaml` in other words.

A translation sits beside its source, is found by the loader and the catalog, and is refused
by `lessons validate` (and by the catalog) when more than its words differ.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from bot.cli import cli
from bot.engine import LessonCatalog
from bot.lesson_check import validate_files
from bot.lesson_text import spoilers_before_questions, text_problems
from bot.verifier import Checker, Grade, Verdict
from lessons.loader import (
    LESSON_DIR,
    LessonError,
    available_lessons,
    available_translations,
    load_lesson,
    load_lesson_file,
    source_file,
    translated_lesson,
)
from lessons.schema import Lesson, PeerRoundStep, PredictionStep, Step
from lessons.translation import translation_problems

SOURCE = LESSON_DIR / "rlvr.yaml"
SPANISH = LESSON_DIR / "rlvr.es.yaml"
Data = dict[str, Any]


def english() -> Lesson:
    return load_lesson_file(SOURCE)


def spanish() -> Lesson:
    return load_lesson_file(SPANISH)


def spanish_data() -> Data:
    data = yaml.safe_load(SPANISH.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def beside_source(tmp_path: Path, data: Data, name: str = "rlvr.es.yaml") -> Path:
    """A translation written beside a copy of the English source, in a folder of its own."""
    shutil.copy(SOURCE, tmp_path / "rlvr.yaml")
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def step(data: Data, step_id: str) -> Data:
    return next(item for item in data["steps"] if item["id"] == step_id)


def choice(item: Data, choice_id: str) -> Data:
    return next(option for option in item["choices"] if option["id"] == choice_id)


# Where translations are found ---------------------------------------------------------------

def test_a_translation_is_named_by_its_lesson_and_language() -> None:
    assert translated_lesson(SPANISH) == ("rlvr", "es")
    assert translated_lesson("rlvr.pt-BR.yaml") == ("rlvr", "pt-BR")
    assert translated_lesson(SOURCE) is None
    assert translated_lesson("old.draft.yaml") is None
    assert source_file(SPANISH) == SOURCE and source_file(SOURCE) is None


def test_translations_are_not_lessons_of_their_own() -> None:
    assert list(available_lessons()) == ["rlvr"]
    assert available_translations("rlvr") == {"es": SPANISH}
    assert LessonCatalog().ids() == ["rlvr"]


def test_the_catalog_gives_the_spanish_lesson_when_asked_and_english_otherwise() -> None:
    catalog = LessonCatalog()
    assert catalog.languages("rlvr") == ["en", "es"]
    assert catalog.languages() == ["en", "es"]
    assert catalog.get("rlvr") == catalog.get() == english()
    assert catalog.get("rlvr").language == "en"
    assert catalog.get("rlvr", language="es") == spanish()
    assert catalog.get("rlvr", language="es").title.startswith("RLVR: cómo la IA")
    assert catalog.get("rlvr", language="fr") == english()
    assert catalog.get("rlvr", language="en") == english()


def test_the_loader_gives_a_translation_by_language() -> None:
    assert load_lesson("rlvr", language="es") == spanish()
    assert load_lesson("rlvr", language="de") == load_lesson("rlvr") == english()


def test_the_catalog_refuses_a_translation_that_is_more_than_words(tmp_path: Path) -> None:
    data = spanish_data()
    del data["steps"][-1]
    beside_source(tmp_path, data)
    catalog = LessonCatalog(directory=tmp_path)
    with pytest.raises(LessonError, match=r"step ids differ from rlvr\.yaml: missing 'takeaway'"):
        catalog.get("rlvr", language="es")
    assert catalog.get("rlvr").language == "en"


# The Spanish lesson ---------------------------------------------------------------------------

async def test_the_spanish_lesson_is_its_source_in_other_words(checker: Checker) -> None:
    assert spanish().language == "es"
    assert translation_problems(english(), spanish(), "rlvr.yaml", "es") == []
    assert await validate_files([SPANISH], checker) == {str(SPANISH): []}


def test_lessons_validate_checks_the_translation_with_the_shipped_lessons() -> None:
    result = CliRunner().invoke(cli, ["lessons", "validate"])
    assert result.exit_code == 0, result.output
    assert f"{SPANISH}: ok" in result.output.splitlines()


def test_every_spanish_post_is_within_the_word_limits_and_gives_nothing_away() -> None:
    assert text_problems(spanish()) == []
    assert spoilers_before_questions(spanish()) == []


def test_the_spanish_keywords_are_spanish() -> None:
    def keywords(lesson: Lesson) -> set[str]:
        asked = [s for s in lesson.steps if isinstance(s, PredictionStep | PeerRoundStep)]
        return {keyword for s in asked for keyword in s.keywords}

    assert keywords(spanish()) and not keywords(spanish()) & keywords(english())


def figures(step: Step) -> set[str]:
    """The numbers a step's texts state: 15.6, 2501.12948v1, 60/3, 0.0001.

    Each is taken as either language writes it: a decimal comma reads as a point, and a
    percent sign, attached or not ("15.6%", "15,6 %"), is left out.
    """
    text = " ".join(step.authored_texts())
    found = (figure.rstrip(".,:;%") for figure in re.findall(r"\d[\w.,/%@]*", text))
    return {figure.replace(",", ".") for figure in found}


def test_every_figure_of_each_step_is_in_its_translation() -> None:
    for old, new in zip(english().steps, spanish().steps, strict=True):
        assert figures(new) == figures(old), old.id


def test_the_figures_check_fails_when_a_figure_is_changed() -> None:
    lesson = spanish()
    deepseek = lesson.step_by_id("deepseek-r1")
    changed = deepseek.model_copy(update={"body": deepseek.body.replace("71,0 %", "71 %")})
    assert figures(changed) != figures(english().step_by_id("deepseek-r1"))


async def verdict(
    checker: Checker, lesson_step: Step, text: str, typed: bool, language: str = "en"
) -> Verdict:
    gold = lesson_step.gold_answer()
    assert gold is not None
    grade = checker.check_answer if typed else checker.check_attempt
    return await grade(text, gold.text, unit=gold.unit, accept=gold.accept, language=language)


async def test_every_attempt_and_crowd_answer_grades_as_in_english(checker: Checker) -> None:
    """Read in Spanish, as a Spanish run grades them and `lessons validate` reads them, the
    verdicts are the English ones; a decimal is read with its comma."""
    graded = 0
    for old, new in zip(english().steps, spanish().steps, strict=True):
        pairs = [(a.text, b.text, False) for a, b in
                 zip(old.sample_attempts(), new.sample_attempts(), strict=True)]
        pairs += [(a.text, b.text, True) for a, b in
                  zip(old.crowd().answers, new.crowd().answers, strict=True)]
        for old_text, new_text, typed in pairs:
            there = await verdict(checker, old, old_text, typed)
            here = await verdict(checker, new, new_text, typed, "es")
            assert here.outcome is there.outcome, (old.id, new_text)
            if there.outcome is not Grade.REJECTED:
                assert here.read == there.read.replace(".", ","), (old.id, new_text)
            graded += 1
    assert graded == 4 + 6


async def test_a_natural_spanish_hedge_is_refused_as_the_english_one_is(
    checker: Checker,
) -> None:
    step_es = spanish().step_by_id("be-the-checker")
    hedge = step_es.sample_attempts()[2]
    assert hedge.id == "hedge" and "Respuesta: 20 o 22,5" in hedge.text
    said = await verdict(checker, step_es, hedge.text, typed=False, language="es")
    assert said.outcome is Grade.REJECTED and "more than one answer" in said.reason
    for written in ("20, 22,5", "20 o 22.5"):
        other = hedge.text.replace("20 o 22,5", written)
        said_other = await verdict(checker, step_es, other, typed=False, language="es")
        assert said_other.outcome is Grade.REJECTED, written


# A translation that is more than words --------------------------------------------------------

def right_answer_moved(data: Data) -> None:
    choice(step(data, "what-changed"), "checkable-reward")["correct"] = False
    choice(step(data, "what-changed"), "bigger-model")["correct"] = True


def step_missing(data: Data) -> None:
    data["steps"] = [item for item in data["steps"] if item["id"] != "deepseek-r1"]


def choice_renamed(data: Data) -> None:
    choice(step(data, "what-changed"), "more-text")["id"] = "mas-texto"


def gold_changed(data: Data) -> None:
    step(data, "your-turn")["gold"] = "0.75"


def unit_changed(data: Data) -> None:
    step(data, "be-the-checker")["unit"] = "m/s"


def attempts_reordered(data: Data) -> None:
    attempts = step(data, "be-the-checker")["attempts"]
    attempts[0], attempts[1] = attempts[1], attempts[0]


def expect_changed(data: Data) -> None:
    step(data, "be-the-checker")["attempts"][2]["style"] = "careful"


def kind_changed(data: Data) -> None:
    step(data, "deepseek-r1")["kind"] = "takeaway"


def crowd_weight_changed(data: Data) -> None:
    choice(step(data, "what-changed"), "more-text")["crowd"] = 2.0


def recall_right_answer_moved(data: Data) -> None:
    question = data["delayed_recall"][0]
    choice(question, "script-checks").pop("correct")
    choice(question, "people-rate")["correct"] = True


def recall_question_missing(data: Data) -> None:
    data["delayed_recall"] = data["delayed_recall"][1:]


def more_dropped(data: Data) -> None:
    del step(data, "three-stages")["more"]


def version_bumped(data: Data) -> None:
    data["version"] = 3


def language_left_english(data: Data) -> None:
    data["language"] = "en"


def keywords_left_in_english(data: Data) -> None:
    step(data, "what-about-writing")["keywords"] = ["only trains", "leans on"]


def crowd_reason_dropped(data: Data) -> None:
    choice(step(data, "code-vs-eulogy"), "more-data")["crowd_reasons"].pop()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (right_answer_moved, "step 'what-changed': the right answer differs from rlvr.yaml: "
                             "'checkable-reward' there, 'bigger-model' here"),
        (step_missing, "step ids differ from rlvr.yaml: missing 'deepseek-r1'"),
        (choice_renamed, "step 'what-changed': choice ids differ from rlvr.yaml: missing "
                         "'more-text'; 'mas-texto' not in rlvr.yaml"),
        (gold_changed, "step 'your-turn': 'gold' differs from rlvr.yaml: \"3/4\" there, "
                       "\"0.75\" here"),
        (unit_changed, "step 'be-the-checker': 'unit' differs from rlvr.yaml: \"km/h\" there, "
                       "\"m/s\" here"),
        (attempts_reordered, "step 'be-the-checker': attempt ids differ from rlvr.yaml: in "
                             "another order (rlvr.yaml: 'polished', 'thorough', 'hedge', "
                             "'second-look')"),
        (expect_changed, "step 'be-the-checker', attempt 'hedge': 'style' differs from "
                         "rlvr.yaml: \"hedging\" there, \"careful\" here"),
        (kind_changed, "step 'deepseek-r1': 'kind' differs from rlvr.yaml: \"narration\" "
                       "there, \"takeaway\" here"),
        (crowd_weight_changed, "step 'what-changed', choice 'more-text': 'crowd' differs from "
                               "rlvr.yaml: 1.2 there, 2.0 here"),
        (recall_right_answer_moved, "delayed-recall question 'puzzle-recipe': the right answer "
                                    "differs from rlvr.yaml: 'script-checks' there, "
                                    "'people-rate' here"),
        (recall_question_missing, "delayed-recall question ids differ from rlvr.yaml: missing "
                                  "'puzzle-recipe'"),
        (more_dropped, "step 'three-stages': 'more' is missing here but given in rlvr.yaml"),
        (version_bumped, "'version' differs from rlvr.yaml: 2 there, 3 here"),
        (language_left_english, "field 'language': the file name says 'es', the lesson "
                                "says 'en'"),
        (keywords_left_in_english, "step 'what-about-writing': keyword 'only trains' is in "
                                   "none of the lesson's texts; the keywords are the right "
                                   "answer's words, translated"),
        (crowd_reason_dropped, "step 'code-vs-eulogy', choice 'more-data': 'crowd_reasons': 3 "
                               "in rlvr.yaml, 2 here; translate them one for one"),
    ],
    ids=lambda value: value.__name__ if callable(value) else "",
)
async def test_a_translation_that_is_more_than_words_is_refused(
    tmp_path: Path, checker: Checker, change: Callable[[Data], None], message: str
) -> None:
    data = spanish_data()
    change(data)
    path = beside_source(tmp_path, data)
    problems = (await validate_files([path], checker))[str(path)]
    assert message in problems, problems


def test_lessons_validate_names_the_file_the_step_and_the_source(tmp_path: Path) -> None:
    data = spanish_data()
    choice_renamed(data)
    path = beside_source(tmp_path, data)
    result = CliRunner().invoke(cli, ["lessons", "validate", str(path)])
    assert result.exit_code == 1
    assert (f"{path}: step 'what-changed': choice ids differ from rlvr.yaml: missing "
            "'more-text'; 'mas-texto' not in rlvr.yaml") in result.output


async def test_a_crowd_answer_graded_otherwise_than_its_source_is_refused(
    tmp_path: Path, checker: Checker
) -> None:
    data = spanish_data()
    step(data, "your-turn")["crowd_answers"][1]["text"] = "0,7"
    path = beside_source(tmp_path, data)
    assert (await validate_files([path], checker))[str(path)] == [
        "step 'your-turn', crowd answer #2: the checker grades it incorrect (it read 0,7), "
        "correct in rlvr.yaml"
    ]


async def test_a_translation_is_graded_in_its_own_language(
    tmp_path: Path, checker: Checker
) -> None:
    data = spanish_data()
    step(data, "your-turn")["crowd_answers"][1]["text"] = "0,75"
    attempts = step(data, "be-the-checker")["attempts"]
    assert "Respuesta: 22,5" in attempts[0]["text"]
    path = beside_source(tmp_path, data)
    assert (await validate_files([path], checker))[str(path)] == []
    data["language"] = "pt"
    english_reading = beside_source(tmp_path, data, name="rlvr.pt.yaml")
    problems = (await validate_files([english_reading], checker))[str(english_reading)]
    comma_answer = ("step 'your-turn', crowd answer #2: the checker grades it rejected "
                    "(it read 0,75), correct in rlvr.yaml")
    comma_attempt = ("step 'be-the-checker', field 'attempts.0.expect': expected incorrect, "
                     "the checker says rejected (it read 22,5)")
    assert comma_answer in problems and comma_attempt in problems


async def test_a_translation_that_breaks_the_text_rules_is_refused(
    tmp_path: Path, checker: Checker
) -> None:
    data = spanish_data()
    step(data, "intro")["body"] += "\nUn programa que comprueba la respuesta da la recompensa."
    step(data, "three-stages")["body"] += "\n" + "Y además, " * 10
    path = beside_source(tmp_path, data)
    problems = (await validate_files([path], checker))[str(path)]
    assert "step 'three-stages': its post has 102 words; at most 90" in problems
    assert any(problem.startswith("before step 'what-changed': 'recompens', 'programa', "
                                  "'comprueb' in 'En apenas un año") for problem in problems)


async def test_a_translation_without_its_source_beside_it_is_refused(
    tmp_path: Path, checker: Checker
) -> None:
    path = tmp_path / "rlvr.es.yaml"
    shutil.copy(SPANISH, path)
    problems = (await validate_files([path], checker))[str(path)]
    assert problems == ["its source rlvr.yaml does not load: cannot read the file: "
                        "No such file or directory"]
