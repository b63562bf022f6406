"""Every chart the bot posts on Discord carries a description of its numbers for screen readers."""

from __future__ import annotations

import re

from fakes.fake_discord import FakeDiscord, Upload
from tests.chart_descriptions import assert_described, final_share, png_description
from tests.discord_adapter.conftest import Launch
from tests.discord_adapter.helpers import LessonDriver, walk_lesson

MEMBERS = 3
PICKED = re.compile(r"\*\*Checker:\*\* it ends up picking \*\*(.+?)\*\* (\d+)% of the time")


def charts(uploads: tuple[Upload, ...]) -> list[Upload]:
    """The chart attachments among uploads."""
    return [upload for upload in uploads if upload.filename == "chart.png"]


async def test_every_chart_of_a_whole_lesson_is_described_with_its_numbers(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    await walk_lesson(lesson, [fake.member(name) for name in ("ann", "ben", "cy")])
    posted = [(message, upload) for message in lesson.messages()
              for upload in charts(fake.uploads.get(int(message["id"]), ()))]
    results = await lesson.command("results")
    private = charts(results.call.files)

    # three predictions (one a recall), the peer round (three members split: the second
    # vote's card, then both answers), the verifier, the free answer, the toy, the results
    assert len(posted) == 9 and len(private) == 1
    described = [upload for _, upload in posted] + private
    for upload in described:
        assert upload.description and len(upload.description) <= 1024
        assert upload.description == png_description(upload.data)
    assert_described([str(upload.description) for upload in described], MEMBERS)


async def test_the_training_chart_description_agrees_with_the_step_text(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    lesson = LessonDriver(fake, fake.host("hazel"))
    shown = await lesson.reach("train-on-votes")
    (upload,) = fake.uploads[int(shown["id"])]
    text = "\n".join(str(embed.get("description")) for embed in shown["embeds"])
    found = PICKED.search(text)
    assert found is not None, text
    label, share = found.group(1), int(found.group(2))
    assert upload.description is not None
    assert final_share(upload.description, "checker", label) == share
