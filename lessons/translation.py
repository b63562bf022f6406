"""A translation against its source: the same lesson, field for field, in other words.

A translation (`rlvr.es.yaml`) keeps its source's id, version, steps (ids and kinds, in
order), choices (ids, right answers, crowd weights), attempts (ids, styles, appeal, expect),
golds and units, delayed-recall questions and every setting. Only the fields in `WORDS` may
differ, and a word field is given in both files or in neither.
"""

from __future__ import annotations

import json
from typing import Any

from lessons.schema import Lesson

WORDS = frozenset({
    "title", "summary", "disclaimer", "body", "more", "next_steps", "problem", "text", "label",
    "explanation", "rated_like_checker", "favoured_unrewarded", "reason", "crowd_reasons",
    "keywords", "accept", "why",
})
"""Fields a translator rewrites: prose, labels, the key words of an answer and, for an answer
in words, its accepted spellings. A crowd answer's `text` is among them, as an attempt's is:
`lessons validate` has the checker grade each as it grades its source's."""
ONE_FOR_ONE = frozenset({"crowd_reasons"})
"""Word lists translated item for item: as many in a translation as in its source."""
ITEMS = {
    "steps": "",
    "choices": "",
    "attempts": "",
    "crowd_answers": "crowd answer",
    "delayed_recall": "delayed-recall question",
}
"""Lists of items compared one by one, by what one item is called (when not the list's name
in the singular: a step of `steps`)."""
OWN = frozenset({"language"})
"""Lesson fields that a translation sets for itself."""


def translation_problems(
    source: Lesson, translation: Lesson, source_name: str, language: str | None = None
) -> list[str]:
    """Where a translation is more than its source in other words; none when it is just that.

    `source_name` names the source in messages (`rlvr.yaml`); `language` is the one the
    translation's file name gives, which the lesson's `language` must match.
    """
    problems = _language_problems(source, translation, source_name, language)
    old = source.model_dump(mode="json", exclude=set(OWN))
    new = translation.model_dump(mode="json", exclude=set(OWN))
    problems += _fields([], old, new, source_name)
    if not problems:
        problems += _untranslated_keywords(translation)
    return problems


def _language_problems(
    source: Lesson, translation: Lesson, source_name: str, language: str | None
) -> list[str]:
    """A translation names its own language: the one in its file name, not its source's."""
    if language is not None and translation.language != language:
        return [f"field 'language': the file name says '{language}', the lesson says "
                f"'{translation.language}'"]
    if translation.language == source.language:
        return [f"field 'language': '{source.language}' is the language of {source_name}; "
                "a translation names its own"]
    return []


def _fields(where: list[str], old: dict[str, Any], new: dict[str, Any], source: str,
            prefix: str = "", skip: frozenset[str] = frozenset()) -> list[str]:
    """Differences between two items field by field; a different kind is the only one told."""
    if old.get("kind") != new.get("kind"):
        return [_differs(where, "kind", old.get("kind"), new.get("kind"), source)]
    problems = []
    for key in [key for key in old if key not in skip]:
        problems += _field(where, key, f"{prefix}{key}", old[key], new.get(key), source)
    return problems


def _field(where: list[str], key: str, name: str, old: Any, new: Any, source: str) -> list[str]:
    """Differences in one field: words may differ, items are compared one by one."""
    if key in WORDS:
        return _word_problems(where, key, name, old, new, source)
    if key in ITEMS and isinstance(old, list) and isinstance(new, list):
        return _items(where, key, old, new, source)
    if isinstance(old, dict) and isinstance(new, dict):
        return _fields(where, old, new, source, prefix=f"{name}.")
    return [] if old == new else [_differs(where, name, old, new, source)]


def _word_problems(
    where: list[str], key: str, name: str, old: Any, new: Any, source: str
) -> list[str]:
    """Words may differ, but a word field is given in both files or in neither."""
    if bool(old) != bool(new):
        state = "here but not in" if new else "missing here but given in"
        return [f"{_at(where)}'{name}' is {state} {source}"]
    if key in ONE_FOR_ONE and len(old or ()) != len(new or ()):
        return [f"{_at(where)}'{name}': {len(old)} in {source}, {len(new)} here; translate "
                "them one for one"]
    return []


def _items(
    where: list[str], key: str, old: list[Any], new: list[Any], source: str
) -> list[str]:
    """Differences in a list of items: the same ids in the same order, then each item."""
    noun = ITEMS[key] or key.removesuffix("s")
    old_ids, new_ids = _ids(old), _ids(new)
    if old_ids != new_ids:
        if not any("id" in item for item in old):
            return [f"{_at(where)}{noun}s differ from {source}: {len(old)} there, "
                    f"{len(new)} here"]
        return [f"{_at(where)}{noun} ids differ from {source}: "
                f"{_id_difference(old_ids, new_ids, source)}"]
    problems, skip = _right_answer(where, old, new, source)
    for item_id, old_item, new_item in zip(old_ids, old, new, strict=True):
        problems += _fields([*where, f"{noun} {item_id}"], old_item, new_item, source, skip=skip)
    return problems


def _right_answer(
    where: list[str], old: list[Any], new: list[Any], source: str
) -> tuple[list[str], frozenset[str]]:
    """For choices: a different right answer, told once (and `correct` then not per choice)."""
    if not any("correct" in item for item in old):
        return [], frozenset()
    old_right = _ids([item for item in old if item.get("correct")])
    new_right = _ids([item for item in new if item.get("correct")])
    if old_right == new_right:
        return [], frozenset({"correct"})
    there, here = ", ".join(old_right) or "none", ", ".join(new_right) or "none"
    message = f"{_at(where)}the right answer differs from {source}: {there} there, {here} here"
    return [message], frozenset({"correct"})


def _ids(items: list[Any]) -> list[str]:
    """Each item's id quoted (`'intro'`), or its position (`#2`) when items have no ids."""
    return [f"'{item['id']}'" if "id" in item else f"#{index + 1}"
            for index, item in enumerate(items)]


def _id_difference(old: list[str], new: list[str], source: str) -> str:
    """How two lists of ids differ: what is missing, what is new, else the order."""
    missing = [item for item in old if item not in new]
    extra = [item for item in new if item not in old]
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if extra:
        parts.append(f"{', '.join(extra)} not in {source}")
    if not parts:
        parts.append(f"in another order ({source}: {', '.join(old)})")
    return "; ".join(parts)


def _differs(where: list[str], name: str, old: Any, new: Any, source: str) -> str:
    """A field whose value must be as in the source, and is not."""
    return f"{_at(where)}'{name}' differs from {source}: {_shown(old)} there, {_shown(new)} here"


def _shown(value: Any) -> str:
    """A value as YAML would write it: true, 20, "km/h", null."""
    return json.dumps(value, ensure_ascii=False)


def _at(where: list[str]) -> str:
    """Where a problem is: `step 'what-changed', choice 'more-text': `, or nothing at the top."""
    return f"{', '.join(where)}: " if where else ""


def _untranslated_keywords(lesson: Lesson) -> list[str]:
    """Keywords in none of the lesson's texts: left in the source's language, they guard nothing.

    A keyword is matched anywhere in a word, so a stem such as `comprob` is one.
    """
    labels = [choice.label for step in lesson.steps for choice in step.crowd().choices]
    texts = [text for step in lesson.steps for text in step.authored_texts()]
    said = "\n".join([*texts, *labels]).casefold()
    return [
        f"step '{step.id}': keyword '{keyword}' is in none of the lesson's texts; the keywords "
        "are the right answer's words, translated"
        for step in lesson.steps for keyword in step.answer_keywords()
        if keyword.casefold() not in said
    ]
