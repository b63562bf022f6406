"""Charts a channel sees: full labels, the right answer marked, percentages, readable PNGs."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import numpy as np
import pytest
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.image import imread
from matplotlib.transforms import Bbox

from bot.charts import (
    COLOURS,
    DPI,
    MARK_COLOURS,
    SIZE_INCHES,
    UNMARKED_COLOUR,
    bar_chart_figure,
    bar_colour,
    chart_png,
    end_label_texts,
    line_chart_figure,
    spread,
)
from bot.engine.steps.free_answer import free_answer_bars, free_answer_chart
from bot.engine.steps.prediction import share_chart
from bot.engine.tally import bar_lines
from bot.mechanism.chart import ATTEMPT_COLOURS
from bot.model.records import FreeAnswerStats
from bot.model.views import AnyChart, Bar, Chart, LineChart, Series
from lessons.loader import load_lesson
from lessons.schema import PredictionStep
from tests.charts.examples import FREE_ANSWERS, MEMBERS, PREDICTION_VOTES, example_charts

EXAMPLES = example_charts()
EXPECTED_SIZE = (round(SIZE_INCHES[1] * DPI), round(SIZE_INCHES[0] * DPI))


def pixels(chart: AnyChart) -> np.ndarray:
    return imread(io.BytesIO(chart_png(chart)), format="png")


def pixels_of(image: np.ndarray, colour: str) -> int:
    rgb = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return int((np.abs(image[:, :, :3] - rgb).max(axis=2) < 0.02).sum())


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_each_chart_kind_is_a_png_of_the_preview_shape(kind: str) -> None:
    image = pixels(EXAMPLES[kind])
    assert image.shape[:2] == EXPECTED_SIZE
    assert abs(image.shape[1] / image.shape[0] - 800 / 450) < 0.01


def first_prediction() -> PredictionStep:
    return next(s for s in load_lesson("rlvr").steps if isinstance(s, PredictionStep))


def test_prediction_chart_has_full_labels_the_right_answer_marked_and_percentages() -> None:
    step = first_prediction()
    chart = EXAMPLES["prediction-reveal"]
    assert isinstance(chart, Chart)
    assert chart.labels == tuple(choice.label for choice in step.choices)
    right = [choice.correct for choice in step.choices].index(True)
    assert [bool(mark) for mark in chart.marks] == [i == right for i in range(len(chart.labels))]
    assert chart.marks[right] in chart.caption and "right answer" in chart.caption
    votes = PREDICTION_VOTES[: len(step.choices)]
    assert chart.series[0].values == pytest.approx([100 * v / sum(votes) for v in votes])
    share = round(100 * votes[right] / sum(votes))
    assert chart.series[0].ends[right] == f"{votes[right]} of {sum(votes)} ({share}%)"
    assert f"this channel's predictions ({sum(votes)} answered)" in chart.title


def test_the_right_answer_is_drawn_in_its_own_colour() -> None:
    image = pixels(EXAMPLES["prediction-reveal"])
    assert pixels_of(image, MARK_COLOURS["✓"]) > 5000
    assert pixels_of(image, UNMARKED_COLOUR) > 5000


def test_a_long_label_is_kept_whole() -> None:
    label = "RLVR only trains what a program can grade; writing still leans on RLHF"
    bars = (Bar(label, 3, 0.75, marked=True), Bar("no", 1, 0.25))
    chart = share_chart("Where does that leave writing?", bars)
    assert chart.labels[0] == label and chart.marks == ("✓", "")
    assert pixels(chart).shape[:2] == EXPECTED_SIZE


def test_verifier_chart_marks_what_the_checker_rewarded_beside_the_thumbs() -> None:
    chart = EXAMPLES["verifier-reveal"]
    assert isinstance(chart, Chart)
    assert chart.labels[-1] == "The second look" and chart.marks[-1] == "✓"
    assert not any(chart.marks[:-1])
    assert chart.series[0].values[0] == pytest.approx(75.0)
    assert chart.series[0].ends[0] == "9 of 12 (75%)"
    assert f"({MEMBERS} rated)" in chart.title and "checker" in chart.caption


def test_free_answer_tally_marks_first_try_and_retry_apart_in_text() -> None:
    bars = free_answer_bars(FREE_ANSWERS)
    for mark in ("✅", "<- right"):
        first, retry, unsolved = bar_lines(bars, mark=mark)
        assert first.endswith("5 (45%) solved on the first try ✅")
        assert retry.endswith("4 (36%) solved after trying again 🔁")
        assert unsolved.endswith("not solved yet")


def test_free_answer_chart_marks_first_try_and_retry_in_different_colours() -> None:
    bars = free_answer_bars(FreeAnswerStats(members=4, attempts=7, solved=3, first_try_solved=2))
    chart = free_answer_chart("Your turn", bars)
    assert chart.marks == ("✓", "↻", "")
    assert chart.series[0].values == pytest.approx((50.0, 25.0, 25.0))
    colours = {bar_colour(chart, index, 0) for index in range(3)}
    assert len(colours) == 3
    assert "✓ solved on the first try" in chart.caption
    assert "↻ solved after trying again" in chart.caption
    assert "(4 answered)" in chart.title


def test_run_summary_chart_shows_each_question_right_in_percent() -> None:
    chart = EXAMPLES["run-summary"]
    assert isinstance(chart, Chart)
    solved = FREE_ANSWERS.solved / FREE_ANSWERS.members
    index = chart.labels.index("Your turn: get graded")
    assert chart.series[0].values[index] == pytest.approx(100 * solved)
    assert chart.series[0].ends[index] == f"{FREE_ANSWERS.solved} right ({round(100 * solved)}%)"
    assert f"({MEMBERS} took part)" in chart.title


def test_end_labels_are_spread_so_they_do_not_overlap() -> None:
    positions = spread([0.01, 0.01, 0.012, 0.97], 0.05)
    ordered = sorted(positions)
    assert all(b - a >= 0.05 - 1e-9 for a, b in itertools.pairwise(ordered))
    assert max(positions) <= 1.0 and positions[0] == pytest.approx(0.01)


def drawn_extents(figure: Figure, artists: list[Artist]) -> list[Bbox]:
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    figure.canvas.draw()
    return [artist.get_window_extent(renderer) for artist in artists]


def test_drawn_labels_are_whole_and_the_right_one_carries_its_mark() -> None:
    chart = EXAMPLES["prediction-reveal"]
    assert isinstance(chart, Chart)
    figure = bar_chart_figure(chart)
    shown = [tick.get_text() for tick in figure.axes[0].get_yticklabels()]
    assert [" ".join(text.split()) for text in shown] == [
        f"{mark} {label}".strip() for mark, label in zip(chart.marks, chart.labels, strict=True)
    ]
    assert [tick.get_text() for tick in figure.axes[0].get_xticklabels()][-1] == "100%"


def test_a_legend_sits_outside_the_bars() -> None:
    chart = Chart("Two series", ("a", "b"), (Series("first", (80.0, 20.0)),
                                             Series("second", (100.0, 40.0))))
    figure = bar_chart_figure(chart)
    plot, legend = drawn_extents(figure, [figure.axes[0], figure.legends[0]])
    assert not plot.overlaps(legend)


def test_each_panel_has_its_own_end_labels_that_do_not_overlap() -> None:
    chart = EXAMPLES["mechanism"]
    assert isinstance(chart, LineChart)
    figure = line_chart_figure(chart)
    for axes, panel in zip(figure.axes, chart.panels, strict=True):
        labels = [text for text in axes.texts if text.get_text() in end_label_texts(panel)]
        assert len(labels) == len(panel.series)
        boxes = drawn_extents(figure, list(labels))
        assert not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))
        assert axes.get_ylabel() and axes.get_xlabel()


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_the_lesson_page_shows_each_chart_kind_as_a_committed_png(kind: str) -> None:
    root = Path(__file__).resolve().parents[2]
    png = root / "docs" / "charts" / f"{kind}.png"
    assert f"](charts/{kind}.png)" in (root / "docs" / "lesson.md").read_text(encoding="utf-8")
    assert imread(png).shape[:2] == EXPECTED_SIZE


def contrast_with_white(colour: str) -> float:
    """WCAG contrast ratio of a colour against a white background."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def test_every_chart_colour_stands_out_from_the_white_background() -> None:
    palette = [*COLOURS, *MARK_COLOURS.values(), UNMARKED_COLOUR, *ATTEMPT_COLOURS]
    assert all(contrast_with_white(colour) >= 3 for colour in palette), palette


def test_the_before_and_after_tells_its_two_series_apart_by_hatching_too() -> None:
    chart = EXAMPLES["recall-reveal"]
    assert isinstance(chart, Chart)
    figure = bar_chart_figure(chart)
    bars = list(figure.axes[0].patches)
    first, again = bars[: len(chart.labels)], bars[len(chart.labels) :]
    assert not any(bar.get_hatch() for bar in first)
    assert all(bar.get_hatch() for bar in again)
    ends = {text.get_text() for text in figure.axes[0].texts}
    assert set(chart.series[0].ends) | set(chart.series[1].ends) <= ends


def test_each_training_line_has_its_own_dashes_and_markers() -> None:
    chart = EXAMPLES["mechanism"]
    assert isinstance(chart, LineChart)
    for axes in line_chart_figure(chart).axes:
        lines = axes.get_lines()
        assert len({line.get_linestyle() for line in lines}) == len(lines)
        assert len({line.get_marker() for line in lines}) == len(lines)
