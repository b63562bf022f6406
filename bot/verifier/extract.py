"""Find the final answer stated in a worked attempt (reasoning text)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from bot.i18n import N_
from bot.verifier.errors import SEVERAL, ReadError
from bot.verifier.normalize import preview
from bot.verifier.said import Said
from bot.verifier.units import unit_length_at

_BOXED_OR_BRACE = re.compile(r"\\(?:boxed|fbox)\s*\{|\\[{}]|[{}]")
_TEXT_COMMAND = re.compile(r"\\(?:text|textrm|textbf|mathrm|mathbf|mbox)\s*\{([^{}]*)\}")
_SENTENCE_END = re.compile(r"\n|\.(?!\d)(?=\s|$)|\?")
_ANSWER_PHRASE = re.compile(
    r"\b(?:answer|respuesta(?:\s+final)?)\s*"
    r"(?:is|would be|will be|should be|must be|equals|es|sería|seria|=|:)\s*:?",
    re.IGNORECASE,
)
_BOLD = re.compile(r"(?<![\w)\]}])\*\*([^*\n]+?)\*\*(?![\w(\[{])")
_INLINE_MATH = re.compile(r"\$(?!\s)([^$\n]+?)(?<!\s)\$(?!\d)|\\\((.+?)\\\)")
_NUMBER = (
    r"(?:(?<![\w)\]}])-)?\$?(?<![\w.])\d+(?:(?:,|\{,\}|\\,| )\d{3}(?!\d))*(?:\.\d+)?"
    r"(?:\s*/\s*\d+)?(?:%|\s*(?:percent|pct)\b)?"
)
_NUMBER_RUN = re.compile(rf"{_NUMBER}(?:(?:\s*,\s*|\s+or\s+){_NUMBER})*", re.IGNORECASE)
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_MATH_WORDS = frozenset({"sqrt", "pi", "or", "and", "percent", "pct"})
_HEDGE = re.compile(r"\bor\b|±|∓|\\pm\b|\\mp\b", re.IGNORECASE)
_EDGE_CHARACTERS = " \t*_,;:"
_NUMBER_ENDS = frozenset("0123456789)]}")


def extract_final_answer(attempt: str, *, keep_unit: bool = False) -> str | None:
    """Return the final answer an attempt states, or None if it states none.

    Looks, in order, for a \\boxed{...} answer, then "the answer is ...", then the last
    "= ...", **bold** or $inline maths$, then the last number. Raises ReadError (a
    ValueError) when the attempt hedges between answers. With `keep_unit`, a known unit
    written after the answer (20 km/h) is kept with it; otherwise it is dropped as prose.
    """
    text = _TEXT_COMMAND.sub(r" \1 ", attempt)
    boxed = find_boxed(text)
    if boxed:
        return _single_boxed(boxed, keep_unit)
    sentences = [part for part in _SENTENCE_END.split(text) if part.strip()]
    return (_last_found(sentences, partial(_after_answer_phrase, keep_unit=keep_unit))
            or _last_found(sentences, partial(_last_marked, keep_unit=keep_unit)))


def stated_answer(attempt: str) -> str | None:
    """Return all that follows the last "the answer is" (or "answer:") in its sentence.

    Used for answers with several values or in words ("the answer is x = 3 or x = -3",
    "the answer is odd"), which the maths-only search would cut short or refuse as a hedge.
    """
    text = _TEXT_COMMAND.sub(r" \1 ", attempt)
    for sentence in reversed([part for part in _SENTENCE_END.split(text) if part.strip()]):
        matches = list(_ANSWER_PHRASE.finditer(sentence))
        if matches:
            stated = sentence[matches[-1].end() :].strip(_EDGE_CHARACTERS)
            return stated or None
    return None


def find_boxed(text: str) -> list[str]:
    """Return the contents of every complete \\boxed{...} in `text`, in order of appearance."""
    found: list[tuple[int, str]] = []
    openings: list[int | None] = []
    for match in _BOXED_OR_BRACE.finditer(text):
        token = match.group()
        if token in ("\\{", "\\}"):
            continue
        if token != "}":
            openings.append(None if token == "{" else match.end())
            continue
        start = openings.pop() if openings else None
        if start is not None:
            found.append((start, text[start : match.start()]))
    return [content for _, content in sorted(found)]


def _single_boxed(boxed: list[str], keep_unit: bool) -> str:
    """Return the one boxed answer, refusing attempts that box different answers."""
    distinct = list(dict.fromkeys(content.strip() for content in boxed))
    if len(distinct) > 1:
        shown = preview(", ".join(distinct))
        raise ReadError(Said(N_("That attempt boxes more than one answer ({shown}); box just "
                                "one."), shown=shown))
    return _math_prefix(distinct[0], keep_unit) or distinct[0]


def _last_found(sentences: list[str], finder: Callable[[str], str | None]) -> str | None:
    """Apply `finder` to sentences from last to first; return its first find, checking hedges."""
    for sentence in reversed(sentences):
        found = finder(sentence)
        if found:
            _reject_hedge(sentence)
            return found
    return None


def _after_answer_phrase(sentence: str, *, keep_unit: bool) -> str | None:
    """Return what follows the last "answer is" (or "answer:") in `sentence`."""
    matches = list(_ANSWER_PHRASE.finditer(sentence))
    return _math_prefix(sentence[matches[-1].end() :], keep_unit) if matches else None


def _last_marked(sentence: str, *, keep_unit: bool) -> str | None:
    """Return the latest "= x", **x** or $x$ in `sentence`, else its last number."""
    marks: list[tuple[int, str]] = []
    if "=" in sentence:
        marks.append((sentence.rindex("="), sentence[sentence.rindex("=") + 1 :]))
    marks += [(match.start(), match.group(1)) for match in _BOLD.finditer(sentence)]
    marks += [(match.start(), match.group(1) or match.group(2))
              for match in _INLINE_MATH.finditer(sentence)]
    for _, marked in sorted(marks, reverse=True):
        found = _math_prefix(marked.rsplit("=", 1)[-1], keep_unit)
        if found:
            return found
    numbers = list(_NUMBER_RUN.finditer(sentence))
    if not numbers:
        return None
    return sentence[numbers[-1].start() : _through_unit(sentence, numbers[-1].end(), keep_unit)]


def _math_prefix(clause: str, keep_unit: bool) -> str | None:
    """Cut `clause` before its first ordinary word (a unit too, unless `keep_unit`).

    Returns None if no maths is left.
    """
    word = next((match for match in _PROSE_WORD.finditer(clause)
                 if match.group().lower() not in _MATH_WORDS), None)
    end = _through_unit(clause, word.start() if word else len(clause), keep_unit)
    kept = clause[:end].strip(_EDGE_CHARACTERS)
    kept = kept.rstrip(".").rstrip(_EDGE_CHARACTERS)
    return kept if any(char.isalnum() for char in kept) else None


def _through_unit(text: str, end: int, keep_unit: bool) -> int:
    """Move the end of an answer in `text` past a unit written after its last number, if kept.

    The unit may start before `end`, as the m of '20 m per second' does before 'per'.
    """
    if not keep_unit:
        return end
    number_end = next((index + 1 for index in range(end - 1, -1, -1)
                       if text[index] in _NUMBER_ENDS), None)
    if number_end is None:
        return end
    return max(end, number_end + unit_length_at(text, number_end))


def _reject_hedge(sentence: str) -> None:
    """Raise ReadError if the sentence holding the answer offers alternatives."""
    if _HEDGE.search(sentence):
        shown = preview(sentence.strip())
        raise ReadError(Said(SEVERAL, shown=shown))
