"""Answers in words: numbers spelt out (zero to a thousand) and short text answers such as 'odd'.

A text gold is compared by normalised text: case, surrounding and repeated spaces, \\text{...},
bold, a \\boxed{...} and a trailing full stop do not matter. A lesson may list other accepted
spellings (`accept: [...]`). Only words are read here; nothing is evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import N_, current_language
from bot.verifier.errors import ReadError
from bot.verifier.normalize import preview
from bot.verifier.number_words import spell_fractions, spell_spanish
from bot.verifier.reader import answer_core
from bot.verifier.said import Said
from bot.verifier.verdict import Grade, Verdict

_UNITS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_VALUES = {**{word: n for n, word in enumerate(_UNITS)},
           **{word: 10 * n for n, word in enumerate(_TENS, start=2)}}
_UNIT = "|".join(_UNITS[1:10])
_BELOW_HUNDRED = rf"(?:(?:{'|'.join(_TENS)})(?:[-\s]+(?:{_UNIT}))?|{'|'.join(_UNITS[1:])})"
_HUNDREDS = rf"(?:{_UNIT}|a)\s+hundred(?:\s+{{and}}{_BELOW_HUNDRED})?"
_PHRASE = rf"(?:(?:a|one)\s+thousand|{_HUNDREDS}|{_BELOW_HUNDRED}|zero)"
_EDGES = r"(?<![A-Za-z\d\\.,]){phrase}(?![A-Za-z\d]|[.,]\d)"
_JOINING = re.compile(_EDGES.format(phrase=_PHRASE.format(**{"and": r"(?:and\s+)?"})), re.I)
_PLAIN = re.compile(_EDGES.format(phrase=_PHRASE.format(**{"and": ""})), re.I)
_LEFT_OVER = re.compile(r"(?<![A-Za-z\\])(?:hundred|thousand)(?![A-Za-z])", re.I)

_TEXT_COMMAND = re.compile(r"\\(?:text|textrm|textbf|textit|mathrm|mathbf|mbox)\s*\{([^{}]*)\}")
_TEXT_GOLD = re.compile(r"[^\W\d_]+(?:[-' ][^\W\d_]+)*")
_TEXT_GOLD_MAX_CHARS = 60
_SEVERAL = re.compile(r"\b(?:or|and)\b|[,;/]")


def spell_numbers(text: str, *, and_joins: bool = True) -> str:
    """Write number words as digits: 'twenty-one' as 21, 'one hundred and five' as 105.

    Fractions in words ('three quarters') are read too, and in Spanish, the language spoken,
    Spanish number words ('treinta y cinco', 'tres cuartos'): see number_words.py.

    With `and_joins` false, 'one hundred and five' is read as 100 and 5 (for lists).
    """
    language = current_language()
    spelled = spell_fractions(text, language)
    if language == "es":
        spelled = spell_spanish(spelled)
    pattern = _JOINING if and_joins else _PLAIN
    spelled = pattern.sub(lambda match: str(number_phrase_value(match.group())), spelled)
    left_over = _LEFT_OVER.search(spelled)
    if left_over:
        raise ReadError(Said(N_("I read numbers in words from zero to a thousand; write "
                                "'{text}' in digits."), text=preview(text)))
    return spelled


def number_phrase_value(phrase: str) -> int:
    """The value of a phrase the number-word pattern matched, such as 'a hundred and one'."""
    words = [word for word in re.split(r"[-\s]+", phrase.lower()) if word != "and"]
    if words[-1] == "thousand":
        return 1000
    if "hundred" in words:
        at = words.index("hundred")
        head = 1 if words[0] == "a" else _VALUES[words[0]]
        return head * 100 + sum(_VALUES[word] for word in words[at + 1 :])
    return sum(_VALUES[word] for word in words)


@dataclass(frozen=True)
class TextGold:
    """A gold answer in words: how it is shown and every accepted spelling, normalised."""

    shown: str
    spellings: frozenset[str]


def normalise_words(text: str) -> str:
    """Text as it is compared: \\text{} unwrapped, lower case, single spaces, no full stop."""
    core = unwrap_text_commands(answer_core(text))
    core = core.replace("$", " ").strip().rstrip(".").strip().strip("\"'").strip()
    return " ".join(core.casefold().split())


def unwrap_text_commands(text: str) -> str:
    """Replace \\text{...} (and \\mathrm, \\textbf and the like) by the words inside."""
    return _TEXT_COMMAND.sub(r" \1 ", text)


def read_text_gold(gold: str, accept: Sequence[str] = ()) -> TextGold | None:
    """Read `gold` as a text answer, or None if it is not words (so it is maths)."""
    words = normalise_words(gold)
    if len(words) > _TEXT_GOLD_MAX_CHARS or not _TEXT_GOLD.fullmatch(words):
        return None
    if len(words) == 1 or words in ("pi", "sqrt"):
        return None
    if _JOINING.fullmatch(words):
        raise ReadError(Said(N_("I read the word '{words}' as the number {number}; write "
                                "numbers in a gold answer in digits."),
                             words=words, number=number_phrase_value(words)))
    return TextGold(words, frozenset({words, *_accepted(accept)}))


def _accepted(accept: Sequence[str]) -> list[str]:
    """Normalise the lesson's accepted spellings, refusing an empty one."""
    spellings = [normalise_words(spelling) for spelling in accept]
    if not all(spellings):
        raise ReadError(N_("An accepted spelling is empty."))
    return spellings


def judge_text(answer: str, gold: TextGold) -> Verdict:
    """Compare a typed answer with a text gold by normalised text."""
    try:
        words = normalise_words(answer)
    except ReadError as error:
        return Verdict(Grade.REJECTED, preview(answer), gold.shown, error.reason)
    shown = preview(words)
    if not words:
        return Verdict(Grade.REJECTED, "", gold.shown, N_("There's no answer there; type just "
                                                          "your final answer."))
    if words in gold.spellings:
        return Verdict(Grade.CORRECT, shown, gold.shown)
    if _contains_a_spelling(words, gold) or _SEVERAL.search(words):
        return Verdict(Grade.REJECTED, shown, gold.shown, Said(
            N_("I can't tell which part of that is your answer ({shown}); type just one answer, "
               "with no other words."), shown=shown))
    reason = Said(N_("I read '{shown}', which isn't one of the accepted answers."), shown=shown)
    return Verdict(Grade.INCORRECT, shown, gold.shown, reason)


def _contains_a_spelling(words: str, gold: TextGold) -> bool:
    """Tell whether an accepted spelling appears as whole words inside a longer answer."""
    return any(re.search(rf"(?<!\w){re.escape(spelling)}(?!\w)", words)
               for spelling in gold.spellings)
