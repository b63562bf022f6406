"""Rendering within Discord's limits, and chart images."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import discord
import matplotlib.image
from PIL import Image

from bot.charts import chart_png
from bot.discord_adapter.render import (
    MAX_EMBED_DESCRIPTION,
    MAX_EMBED_TOTAL,
    TOO_LARGE,
    Outgoing,
    assignment_message,
    file_message,
    fit_sections,
    reveal_message,
    step_message,
)
from bot.engine import AssignmentCard, LessonEngine
from bot.engine.steps.prediction import share_chart
from bot.model import Bar, Button, Member, Place, RevealCard, StepCard, clip
from bot.model.chart_text import describe_chart
from bot.model.views import AnyChart
from bot.service import DrawnChart, FileReply

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
HOST = Member("host", "Hazel", is_host=True)


def drawn(chart: AnyChart) -> DrawnChart:
    """The chart as the presenter draws it."""
    return DrawnChart(chart_png(chart), chart.title, describe_chart(chart))


def assert_fits(view: discord.ui.View | None, embeds: list[discord.Embed], content: str) -> None:
    """Everything Discord checks on a message with buttons and embeds."""
    assert len(content) <= 2000 and len(embeds) <= 10
    assert sum(len(embed) for embed in embeds) <= MAX_EMBED_TOTAL
    assert all(len(embed.description or "") <= MAX_EMBED_DESCRIPTION for embed in embeds)
    if view is None:
        return
    rows = view.to_components()
    assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
    for item in (item for row in rows for item in row["components"]):
        assert len(item["custom_id"]) <= 100 and len(item.get("label", "")) <= 80


async def test_every_step_of_the_lesson_fits_discord(engine: LessonEngine) -> None:
    card: StepCard | None = await engine.start(Place("discord", "1", "2"), HOST)
    seen = 0
    while card is not None:
        message = step_message(card, drawn(card.chart) if card.chart else None)
        assert_fits(message.view, message.embeds, message.content or "")
        if card.chart is not None:
            assert message.chart and message.embeds[0].image.url == "attachment://chart.png"
        seen += 1
        card = (await engine.advance(card.run_id, HOST)).card
    assert seen == len(engine.catalog.get().steps)


async def test_long_text_is_clipped_to_the_embed_limits() -> None:
    sections = [("t" * 300, "x" * 5000)] + [(f"attempt {n}", "y" * 3000) for n in range(12)]
    fitted = fit_sections(sections)
    assert len(fitted) == 10
    assert sum(len(title) + len(text) for title, text in fitted) <= MAX_EMBED_TOTAL
    assert all(len(title) <= 256 and len(text) <= MAX_EMBED_DESCRIPTION for title, text in fitted)
    assert clip("abcdef", 4) == "abc…" and clip("abc", 4) == "abc"


async def test_long_labels_are_clipped_on_buttons() -> None:
    long_label = Button("rl:1:s:choose:a", "L" * 120)
    card = StepCard(1, "s", "prediction", 1, 1, "T", "B", buttons=(long_label,))
    view = step_message(card).view
    assert view is not None
    assert len(view.to_components()[0]["components"][0]["label"]) == 80


async def test_reveal_chart_is_a_real_png() -> None:
    bars = (Bar("right", 3, 0.75, marked=True), Bar("wrong", 1, 0.25))
    card = RevealCard(1, "s", "Results: s", "Because.", 4, bars=bars, chart=share_chart("s", bars))
    assert card.chart is not None
    png = chart_png(card.chart)
    assert png.startswith(PNG_SIGNATURE) and len(png) > 1000
    pixels = matplotlib.image.imread(io.BytesIO(png), format="png")
    assert pixels.shape[0] > 100 and pixels.shape[1] > 100
    assert Image.open(io.BytesIO(png)).format == "PNG"
    message = reveal_message(card, drawn(card.chart))
    attached = message.files()[0]
    assert attached.filename == "chart.png" and attached.description == describe_chart(card.chart)
    assert "3 (75%) right ✅" in (message.embeds[0].description or "")


def test_an_export_too_large_to_attach_says_how_to_get_it() -> None:
    export = FileReply("Run 7: 2 stored answers.", "run-7.csv", b"x" * 10)
    attached = file_message(export, 10)
    assert isinstance(attached, Outgoing) and attached.files()[0].filename == "run-7.csv"
    refused = file_message(export, 9)
    assert refused == TOO_LARGE.format(run_id=7, size=10)
    assert "`python -m bot export --run 7`" in str(refused)


def test_an_assignment_card_shows_its_due_time_in_each_readers_zone() -> None:
    due = datetime(2026, 12, 10, 17, 0, tzinfo=UTC)
    card = AssignmentCard(7, "RLVR", 12, 20, due, buttons=(Button("rl:7:s:start", "Start"),))
    text = assignment_message(card).embeds[0].description or ""
    unix = int(due.timestamp())
    assert unix == 1796922000
    assert text.count(f"<t:{unix}:F>") == 1 and text.count(f"<t:{unix}:R>") == 1
    assert f"Due <t:{unix}:F> (<t:{unix}:R>)." in text and "UTC" not in text
