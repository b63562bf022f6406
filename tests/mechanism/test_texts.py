"""Outcome lines, tables and sparklines: the words follow the data, and say it is a toy."""

from __future__ import annotations

import re

from bot.mechanism.report import report_lines
from bot.mechanism.story import runs_text
from bot.mechanism.table import probability_table, sparkline_rows, table_text
from bot.mechanism.training import TrainingRuns, train_all

TOY = re.compile(r"toy.*not a real language model", re.IGNORECASE | re.DOTALL)
CHECKER = {"careful": 1.0}
NAIVE = {"careful": 1.0, "hedging": 1.0}


def _runs(shares: dict[str, float]) -> TrainingRuns:
    return train_all(shares, CHECKER, NAIVE, seed=0)


def test_flattering_channel_story() -> None:
    lines = runs_text(_runs({"flattering": 0.7, "hedging": 0.1, "careful": 0.2}))
    assert TOY.search(lines[0])
    assert "ends up **flattering**" in lines[1] and "flattering 70%" in lines[1]
    assert "ends up **careful**" in lines[2] and "millions of answers" in lines[2]
    assert "ends up **hedging**" in lines[3] and "fools this checker" in lines[3]
    assert "cannot fake" in lines[3]


def test_careful_channel_is_told_it_rewarded_the_careful_attempt() -> None:
    lines = runs_text(_runs({"flattering": 0.1, "hedging": 0.1, "careful": 0.8}))
    assert "ends up **careful**" in lines[1]
    assert "This channel rewarded the careful attempt" in lines[1]
    assert "human raters cannot grade millions of answers" in lines[1]


def test_channel_without_thumbs_ups_learns_nothing() -> None:
    lines = runs_text(_runs({}))
    assert "learned nothing" in lines[1]


def test_table_has_header_and_rows_every_fifty_steps() -> None:
    rows = probability_table(_runs({"flattering": 1.0}).thumbs_up, every=50)
    assert rows[0].split() == ["step", "flattering", "long-wrong", "hedging", "careful"]
    assert [row.split()[0] for row in rows[1:]] == ["0", "50", "100", "150", "200", "250", "300"]
    assert rows[1].split()[1:] == ["25%"] * 4


def test_sparklines_one_row_per_style_ending_in_final_share() -> None:
    run = _runs({"flattering": 1.0}).thumbs_up
    rows = sparkline_rows(run)
    assert [row.split()[0] for row in rows] == list(run.styles)
    assert rows[0].endswith(f"{run.final_probs['flattering']:.0%}")
    assert len(rows[0].split()[1]) == len(run.history)


def test_every_text_output_says_it_is_a_toy() -> None:
    runs = _runs({"flattering": 0.7, "careful": 0.3})
    assert TOY.search("\n".join(runs_text(runs)))
    assert TOY.search("\n".join(table_text(runs.checker)))
    assert TOY.search("\n".join(report_lines(runs)))
