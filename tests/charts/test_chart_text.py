"""Each chart's description: built from the chart's own numbers, within every platform's limit."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.charts import chart_png
from bot.engine.steps.prediction import share_chart
from bot.model.chart_text import (
    DESCRIPTION_LIMIT,
    DISCORD_DESCRIPTION_LIMIT,
    SLACK_ALT_TEXT_LIMIT,
    describe_chart,
)
from bot.model.views import Bar, Chart, LineChart, LinePanel, Series
from tests.charts.examples import example_charts

EXAMPLES = example_charts()
COUNT_OF = re.compile(r"(\d+) of (\d+) \((\d+)%\)")


def bar_numbers(chart: Chart) -> list[list[tuple[int, ...]]]:
    """Per series, each bar's (count, total, percent) as its end label gives it."""
    return [[tuple(map(int, COUNT_OF.findall(end)[0])) for end in series.ends]
            for series in chart.series]


@pytest.mark.parametrize("kind", ["prediction-reveal", "recall-reveal", "verifier-reveal",
                                  "free-answer-reveal", "peer-round-split", "peer-round-reveal"])
def test_a_bar_chart_is_described_bar_by_bar_with_its_counts(kind: str) -> None:
    chart = EXAMPLES[kind]
    assert isinstance(chart, Chart)
    text = describe_chart(chart)
    assert text.startswith(f"Bar chart: {chart.title}.")
    described = [tuple(map(int, found)) for found in COUNT_OF.findall(text)]
    by_bar = [numbers[index] for index in range(len(chart.labels))
              for numbers in bar_numbers(chart)]
    assert described == by_bar
    values = [round(series.values[i]) for i in range(len(chart.labels)) for series in chart.series]
    assert [percent for _, _, percent in described] == values
    for label in chart.labels:
        assert label in text


def test_the_right_answer_is_named_in_words_not_only_marked() -> None:
    chart = EXAMPLES["prediction-reveal"]
    assert isinstance(chart, Chart)
    right = chart.marks.index("✓")
    end = chart.series[0].ends[right]
    assert f"{chart.labels[right]} (the right answer): {end}" in describe_chart(chart)


def test_the_before_and_after_gives_both_counts_of_each_choice() -> None:
    chart = EXAMPLES["recall-reveal"]
    assert isinstance(chart, Chart)
    first, again = chart.series
    text = describe_chart(chart)
    for index, label in enumerate(chart.labels):
        both = f"first time {first.ends[index]}, asked again {again.ends[index]}"
        assert f"{label}: {both}" in text or f"{label} (the right answer): {both}" in text


def test_the_split_of_a_peer_round_marks_and_names_no_right_answer() -> None:
    chart = EXAMPLES["peer-round-split"]
    assert isinstance(chart, Chart)
    assert not any(chart.marks) and not chart.legend
    assert "right answer" not in describe_chart(chart)


def test_the_peer_rounds_reveal_gives_both_answers_of_each_choice() -> None:
    chart = EXAMPLES["peer-round-reveal"]
    assert isinstance(chart, Chart)
    first, again = chart.series
    text = describe_chart(chart)
    right = chart.marks.index("✓")
    for index, label in enumerate(chart.labels):
        named = f"{label} (the right answer)" if index == right else label
        assert f"{named}: first answer {first.ends[index]}, after discussion " \
            f"{again.ends[index]}" in text


def test_the_summary_gives_each_question_right_count() -> None:
    chart = EXAMPLES["run-summary"]
    assert isinstance(chart, Chart)
    text = describe_chart(chart)
    for label, end in zip(chart.labels, chart.series[0].ends, strict=True):
        assert f"{label}: {end}" in text


def test_the_training_curves_say_where_each_reward_run_started_and_ended() -> None:
    chart = EXAMPLES["mechanism"]
    assert isinstance(chart, LineChart)
    text = describe_chart(chart)
    assert text.startswith("Line chart: ") and "from training step 0 to 300" in text
    for panel in chart.panels:
        lines = ", ".join(
            f"{series.name} from {series.values[0]:.0%} to {series.values[-1]:.0%}"
            for series in panel.series
        )
        assert f"{panel.title}: {lines}." in text


def test_long_labels_are_shortened_but_every_number_stays_within_the_limit() -> None:
    bars = tuple(Bar(f"{index} " + "a very long choice label " * 8, index, index / 15)
                 for index in range(1, 6))
    chart = share_chart("A question whose title is long " * 3, bars)
    text = describe_chart(chart)
    assert len(text) <= DESCRIPTION_LIMIT == min(DISCORD_DESCRIPTION_LIMIT, SLACK_ALT_TEXT_LIMIT)
    assert COUNT_OF.findall(text) == [(str(i), "15", str(round(100 * i / 15))) for i in range(1, 6)]
    assert "…" in text


def test_a_crowded_line_chart_still_fits() -> None:
    names = ("an attempt with a long name " * 2 + str(i) for i in range(5))
    series = tuple(Series(name, (0.25, 0.5)) for name in names)
    panel = LinePanel("Reward: something", (0, 300), series)
    chart = LineChart("Many panels", tuple(panel for _ in range(4)))
    assert len(describe_chart(chart)) <= DESCRIPTION_LIMIT


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_each_png_carries_its_description_as_text_metadata(kind: str) -> None:
    chart = EXAMPLES[kind]
    with Image.open(io.BytesIO(chart_png(chart))) as image:
        assert image.info["Description"] == describe_chart(chart)


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_the_docs_list_each_chart_beside_its_description(kind: str) -> None:
    index = Path(__file__).resolve().parents[2] / "docs" / "charts" / "README.md"
    text = index.read_text(encoding="utf-8")
    assert f"![{kind}]({kind}.png)\n\n> {describe_chart(EXAMPLES[kind])}\n" in text
