"""The short-answer corpus file is well formed, item by item, and its loader says what is not."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from benchmarks.short_answers import (
    CATEGORIES,
    CORPUS,
    EXPECTED,
    CorpusError,
    entry_problems,
    load,
    problems,
)

DOCUMENT = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
ENTRIES = [pytest.param(category, entry, id=f"{category}-{index + 1}")
           for category, entries in DOCUMENT.items() for index, entry in enumerate(entries)]


@pytest.mark.parametrize(("category", "entry"), ENTRIES)
def test_each_item_is_well_formed(category: str, entry: object) -> None:
    assert category in CATEGORIES
    assert list(entry_problems(entry)) == []


def test_every_category_and_verdict_is_represented() -> None:
    items = load()
    assert {item.category for item in items} == set(CATEGORIES)
    assert {item.expected for item in items} == set(EXPECTED)
    assert len(items) >= 300


def test_no_item_appears_twice() -> None:
    keys = [(item.gold, item.answer, item.unit, item.language) for item in load()]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(
    ("entry", "complaint"),
    [
        ({"answer": "3", "expected": "correct"}, "missing 'gold'"),
        ({"gold": "3", "expected": "correct"}, "missing 'answer'"),
        ({"gold": "3", "answer": "3"}, "missing 'expected'"),
        ({"gold": "3", "answer": "3", "expected": "right"}, "expected must be one of"),
        ({"gold": "3", "answer": "3", "expected": "correct", "units": "m"}, "unknown field"),
        ({"gold": 3, "answer": "3", "expected": "correct"}, "'gold' must be non-empty text"),
        ({"gold": "3", "answer": " ", "expected": "correct"}, "'answer' must be non-empty"),
        ({"gold": "3", "answer": "3", "expected": "ask", "unit": None}, "'unit' must be"),
        ("3 vs 3", "expected a mapping"),
    ],
)
def test_a_malformed_item_is_named(entry: object, complaint: str) -> None:
    found = list(problems({"integers": [{"gold": "1", "answer": "1", "expected": "correct"},
                                        entry]}))
    assert found and all(message.startswith("integers item 2: ") for message in found)
    assert any(complaint in message for message in found), found


def test_an_unknown_category_or_a_bad_shape_is_named() -> None:
    found = list(problems({"integer": [], "fractions": "3/4"}))
    assert any("unknown category 'integer'" in message for message in found)
    assert "fractions: expected a list of items" in found
    assert list(problems(["integers"])) == ["the corpus must map categories to lists of items"]


def test_loading_a_malformed_file_lists_every_problem(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.yaml"
    corpus.write_text("integers:\n  - {gold: '3', answer: '3', expected: yes}\n"
                      "  - {answer: '4', expected: incorrect}\n", encoding="utf-8")
    with pytest.raises(CorpusError) as raised:
        load(corpus)
    assert "item 1: expected must be one of" in str(raised.value)
    assert "item 2: missing 'gold'" in str(raised.value)


def test_loading_keeps_the_category_and_the_unit(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.yaml"
    corpus.write_text("units:\n  - {gold: '20', unit: km/h, answer: '20 m/s', expected: ask}\n",
                      encoding="utf-8")
    [item] = load(corpus)
    assert (item.category, item.gold, item.unit, item.answer, item.expected) == (
        "units", "20", "km/h", "20 m/s", "ask")
