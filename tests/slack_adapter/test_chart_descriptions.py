"""Every chart the bot shares on Slack carries alt text that gives its numbers."""

from __future__ import annotations

from fakes.slack_driver import CHANNEL, SlackDriver
from tests.chart_descriptions import assert_described, png_description
from tests.slack_adapter.lesson_walk import walk_whole_lesson

MEMBERS = 1


async def test_every_chart_of_a_whole_lesson_has_alt_text_with_its_numbers(
    slack: SlackDriver,
) -> None:
    await walk_whole_lesson(slack)
    charts = slack.fake.shared_files(CHANNEL)
    alt_texts = slack.fake.shared_alt_texts(CHANNEL)

    # three predictions (one a recall), the peer round (one answer: no discussion), the
    # verifier, the free answer, the toy, the results
    assert len(charts) == len(alt_texts) == 8
    for png, alt_text in zip(charts, alt_texts, strict=True):
        assert alt_text and len(alt_text) <= 1000
        assert alt_text == png_description(png)
    assert_described([str(alt_text) for alt_text in alt_texts], MEMBERS)
