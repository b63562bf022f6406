"""The training chart: a PNG of the preview shape, each panel labelled, the votes' source named."""

from __future__ import annotations

import io

from matplotlib.image import imread

from bot.charts import DPI, SIZE_INCHES, end_label_texts
from bot.mechanism.chart import training_chart, training_chart_png
from bot.mechanism.cli import COMMAND_LINE_VOTES
from bot.mechanism.training import TrainingRuns, train_all

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def runs() -> TrainingRuns:
    return train_all({"flattering": 1.0}, {"careful": 1.0}, {"hedging": 1.0}, seed=0, steps=40)


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


def test_the_title_says_where_the_votes_came_from() -> None:
    assert "this channel's votes" in training_chart(runs()).title
    typed = training_chart(runs(), COMMAND_LINE_VOTES).title
    assert "command line" in typed and "this channel" not in typed
