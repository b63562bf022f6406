"""The short-answer corpus: answers as members type them, each with the verdict it deserves.

`load()` reads `short_answers.yaml` into `ShortAnswer` items (each read in its `language`,
English unless it names Spanish) and raises `CorpusError` listing
every malformed entry; `problems(document)` gives those complaints one by one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

CORPUS = Path(__file__).resolve().parent / "short_answers.yaml"
CATEGORIES = (
    "integers", "fractions", "decimals", "exact_vs_rounded", "latex", "lead_ins", "thousands",
    "percent", "sets", "plus_minus", "tuples", "intervals", "inequalities", "units", "degrees",
    "text", "number_words", "hedges", "equations", "sentences", "bases_and_matrices", "spanish",
)
EXPECTED = ("correct", "incorrect", "no-credit", "ask")
REQUIRED_FIELDS = ("gold", "answer", "expected")
OPTIONAL_FIELDS = ("unit", "language")
LANGUAGES = ("en", "es")
"""The languages an item may be read in (`language`; English when it names none)."""


class CorpusError(ValueError):
    """The corpus file has malformed entries; the message lists every one."""


@dataclass(frozen=True)
class ShortAnswer:
    """One typed answer against a gold answer, with the verdict a careful grader gives."""

    category: str
    gold: str
    answer: str
    expected: str
    unit: str | None = None
    language: str = "en"

    def __str__(self) -> str:
        unit = f" [{self.unit}]" if self.unit else ""
        language = f" ({self.language})" if self.language != "en" else ""
        return (f"{self.category}: {self.answer!r} vs {self.gold!r}{unit}{language} -> "
                f"{self.expected}")


def load(path: Path = CORPUS) -> list[ShortAnswer]:
    """Every item of the corpus at `path`, in file order; CorpusError if any is malformed."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    complaints = list(problems(document))
    if complaints:
        raise CorpusError(f"{path}: " + "; ".join(complaints))
    return [ShortAnswer(category=category, **entry)
            for category, entries in document.items() for entry in entries]


def problems(document: object) -> Iterator[str]:
    """Each malformed part of a loaded corpus document, as a sentence naming where it is."""
    if not isinstance(document, dict):
        yield "the corpus must map categories to lists of items"
        return
    for category, entries in document.items():
        if category not in CATEGORIES:
            yield f"unknown category {category!r} (known: {', '.join(CATEGORIES)})"
        if not isinstance(entries, list):
            yield f"{category}: expected a list of items"
            continue
        for index, entry in enumerate(entries):
            for complaint in entry_problems(entry):
                yield f"{category} item {index + 1}: {complaint}"


def entry_problems(entry: object) -> Iterator[str]:
    """What is wrong with one item: missing or unknown fields, empty text, a bad verdict."""
    if not isinstance(entry, dict):
        yield f"expected a mapping, got {entry!r}"
        return
    for name in REQUIRED_FIELDS:
        if name not in entry:
            yield f"missing {name!r}"
    for name, value in entry.items():
        if name not in REQUIRED_FIELDS + OPTIONAL_FIELDS:
            yield f"unknown field {name!r}"
        elif not isinstance(value, str) or not value.strip():
            yield f"{name!r} must be non-empty text, got {value!r}"
    if "language" in entry and entry["language"] not in LANGUAGES:
        yield f"language must be one of {', '.join(LANGUAGES)}, got {entry['language']!r}"
    if "expected" in entry and entry["expected"] not in EXPECTED:
        yield f"expected must be one of {', '.join(EXPECTED)}, got {entry['expected']!r}"
