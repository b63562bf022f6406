"""The toy's text says what its computation does: the numbers in the text are the ones it used."""

from __future__ import annotations

import math
import re

import pytest

from bot.mechanism import (
    TrainingRun,
    TrainingRuns,
    assumptions_line,
    report_lines,
    reward_lines,
    runs_text,
)
from tests.mechanism.helpers import ATTEMPTS, rows_with, trained

CHANNEL = {"polished": (17, 3), "thorough": (9, 11), "hedge": (6, 14), "second-look": (8, 12)}
TOY = re.compile(r"toy.*not a real language model", re.IGNORECASE | re.DOTALL)


def stated_chances(runs: TrainingRuns, run: TrainingRun) -> dict[str, float]:
    """Each attempt's chance of reward 1 as the posted text states it for one run."""
    line = next(line for line in reward_lines(runs) if f"**{run.name.capitalize()}** (" in line)
    stated = {label: int(pct) / 100 for label, pct in re.findall(r"(The [\w ]+?) (\d+)%", line)}
    if "others 0%" in line or "all 0%" in line:
        stated |= {label: 0.0 for label in run.labels if label not in stated}
    return stated


def stated_assumptions(runs: TrainingRuns) -> dict[str, float]:
    """The assumed numbers as the posted Assumptions line states them."""
    line = assumptions_line(runs)
    patterns = {
        "steps": r"(\d+) training steps",
        "group": r"(\d+) picks per step",
        "rate": r"learning rate ([\d.]+)",
        "seed": r"seed (\d+)",
    }
    return {key: first_number(pattern, line) for key, pattern in patterns.items()}


def first_number(pattern: str, text: str) -> float:
    """The number the pattern's first group captures in the text."""
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not in {text!r}"
    return float(found.group(1))


def in_lesson_order(*chances: float) -> dict[str, float]:
    """Chances keyed by the lesson's attempt labels, given in the lesson's order."""
    return dict(zip((a.label for a in ATTEMPTS), chances, strict=True))


def test_thumbs_up_chance_is_each_attempts_share_of_thumbs_ups_not_a_normalised_share() -> None:
    runs = trained(CHANNEL)
    stated = stated_chances(runs, runs.thumbs_up)
    assert stated == in_lesson_order(0.85, 0.45, 0.3, 0.4)
    shown_at_reveal = {row.label: round(row.up_share, 2) for row in rows_with(CHANNEL)}
    assert stated == shown_at_reveal


@pytest.mark.parametrize("run_name", ["thumbs_up", "checker", "naive_checker"])
def test_stated_chances_are_the_rewards_the_training_drew(run_name: str) -> None:
    runs = trained(CHANNEL)
    run: TrainingRun = getattr(runs, run_name)
    stated = stated_chances(runs, run)
    assert set(stated) == set(run.labels)
    for index, label in enumerate(run.labels):
        assert stated[label] == round(run.reward.chances[index], 2)
        picks, earned = run.sampled[index], run.earned[index]
        if picks >= 50:
            spread = 4 * math.sqrt(stated[label] * (1 - stated[label]) / picks) + 0.01
            assert abs(earned / picks - stated[label]) <= spread, (label, earned, picks)


def test_checker_chances_are_the_checkers_verdicts_on_the_lessons_attempts() -> None:
    runs = trained(CHANNEL)
    expected = {a.label: float(a.expect == "correct") for a in ATTEMPTS}
    assert stated_chances(runs, runs.checker) == expected
    assert stated_chances(runs, runs.checker)["The second look"] == 1.0


def test_naive_checker_pays_every_attempt_that_mentions_the_gold() -> None:
    runs = trained(CHANNEL)
    naive = stated_chances(runs, runs.naive_checker)
    assert naive == in_lesson_order(0.0, 0.0, 1.0, 1.0)
    assert "It also pays The hedge, which the checker rejects" in runs_text(runs)[2]


@pytest.mark.parametrize(("seed", "steps"), [(0, 300), (11, 120)])
def test_assumptions_line_states_the_numbers_the_training_used(seed: int, steps: int) -> None:
    runs = trained(CHANNEL, seed=seed, steps=steps)
    stated = stated_assumptions(runs)
    assert stated["seed"] == seed == runs.settings.seed
    assert stated["rate"] == runs.settings.learning_rate
    for run in runs:
        assert stated["steps"] == run.steps == steps
        assert sum(run.sampled) == stated["steps"] * stated["group"]
    assert "every attempt starts at 25%" in assumptions_line(runs)


def test_outcome_lines_state_the_final_probabilities() -> None:
    runs = trained(CHANNEL)
    for line, run in zip(runs_text(runs), runs, strict=False):
        assert f"picking **{run.favourite}** " in line
        assert first_number(r"picking \*\*.+?\*\* (\d+)%", line) == round(
            run.final_probs[run.favourite] * 100
        )


def test_a_polished_channel_is_told_its_thumbs_ups_taught_a_wrong_answer() -> None:
    lines = runs_text(trained({"polished": (7, 0), "thorough": (2, 5), "hedge": (1, 6)}))
    assert "picking **The polished one**" in lines[0]
    assert "The checker marks that one wrong" in lines[0]
    assert "picking **The second look**" in lines[1]
    assert TOY.search(lines[3]) and "this channel's votes" in lines[3]


def test_a_channel_that_rated_like_the_checker_is_told_so() -> None:
    lines = runs_text(trained({"second-look": (8, 0), "polished": (0, 8), "hedge": (1, 7)}))
    assert "picking **The second look**" in lines[0]
    assert "The checker passes it too" in lines[0]


def test_a_channel_without_thumbs_ups_learns_nothing() -> None:
    runs = trained({"polished": (0, 3)})
    assert "learned nothing" in runs_text(runs)[0]
    assert runs.thumbs_up.final_probs == dict.fromkeys(runs.thumbs_up.labels, 0.25)


def test_the_report_has_a_table_per_run_with_the_lessons_names() -> None:
    report = report_lines(trained(CHANNEL), ["10 raters"])
    assert TOY.search("\n".join(report))
    assert any(line.startswith("Assumptions: 10 raters;") for line in report)
    header = next(line for line in report if line.lstrip().startswith("step"))
    assert re.split(r"\s{2,}", header.strip()) == ["step", *(a.label for a in ATTEMPTS)]


def test_a_run_without_a_clear_favourite_says_so_with_its_top_two() -> None:
    runs = trained(CHANNEL, steps=3)
    line = runs_text(runs)[0]
    top = sorted(runs.thumbs_up.final_probs.items(), key=lambda item: -item[1])[:2]
    assert max(runs.thumbs_up.final_probs.values()) < 0.5
    assert line == (
        f"**Thumbs-up:** no clear favourite: {top[0][0]} {top[0][1]:.0%} "
        f"and {top[1][0]} {top[1][1]:.0%}."
    )
