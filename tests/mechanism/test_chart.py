"""The training chart: where the votes came from, the lesson's names, each panel readable."""

from __future__ import annotations

import io

import pytest
from matplotlib.image import imread

from bot.charts import DPI, SIZE_INCHES, end_label_texts
from bot.mechanism import COMMAND_LINE_VOTES, TrainingSettings, train_all
from bot.mechanism.chart import training_chart, training_chart_png
from bot.mechanism.training import TrainingRuns
from tests.mechanism.helpers import ATTEMPTS, lesson_toy

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
THUMBS = {"polished": (3, 1), "hedge": (1, 3)}
SETTINGS = TrainingSettings(steps=40)


@pytest.mark.parametrize(
    ("votes_from", "said"),
    [("this channel's votes", "this channel's votes"), (COMMAND_LINE_VOTES, "the command line")],
)
def test_the_title_says_where_the_votes_came_from(votes_from: str, said: str) -> None:
    chart = training_chart(train_all(lesson_toy(THUMBS, votes_from), SETTINGS))
    assert said in chart.title and "Not a real language model" in chart.title
    assert ("this channel" in chart.title) == (votes_from != COMMAND_LINE_VOTES)


def test_each_panel_names_its_reward_and_the_lessons_attempts() -> None:
    chart = training_chart(train_all(lesson_toy(THUMBS), SETTINGS))
    assert [panel.title for panel in chart.panels] == [
        "Reward: thumbs-up",
        "Reward: checker",
        "Reward: naive checker",
    ]
    for panel in chart.panels:
        assert [series.name for series in panel.series] == [a.label for a in ATTEMPTS]
        assert len({series.colour for series in panel.series}) == len(ATTEMPTS)


def runs() -> TrainingRuns:
    return train_all(lesson_toy(THUMBS), SETTINGS)


def test_chart_is_a_decodable_png_of_the_preview_shape() -> None:
    png = training_chart_png(runs())
    assert png.startswith(PNG_SIGNATURE)
    image = imread(io.BytesIO(png))
    assert image.shape[:2] == (round(SIZE_INCHES[1] * DPI), round(SIZE_INCHES[0] * DPI))


def test_every_panel_labels_each_line_with_its_name_and_last_percentage() -> None:
    trained = runs()
    chart = training_chart(trained)
    for run, panel in zip(trained, chart.panels, strict=True):
        expected = [f"{style} {p:.0%}" for style, p in run.final_probs.items()]
        assert end_label_texts(panel) == expected
