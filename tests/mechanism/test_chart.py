"""The training chart is a real PNG."""

from __future__ import annotations

import io

from matplotlib.image import imread

from bot.mechanism.chart import training_chart_png
from bot.mechanism.training import train_all

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_chart_is_a_decodable_png() -> None:
    runs = train_all({"flattering": 1.0}, {"careful": 1.0}, {"hedging": 1.0}, seed=0, steps=40)
    png = training_chart_png(runs)
    assert png.startswith(PNG_SIGNATURE) and len(png) > 1000
    image = imread(io.BytesIO(png))
    assert image.ndim == 3 and image.shape[0] > 100 and image.shape[1] > image.shape[0]
