"""Block Kit rendering: mrkdwn conversion and Slack's size limits on every message."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine import AssignmentCard, LessonCatalog
from bot.engine.cards import step_card
from bot.model import Bar, Button, RevealCard, Section, StepCard, Tone
from bot.slack_adapter.blocks import (
    MAX_ACTIONS,
    MAX_BLOCKS,
    MAX_BUTTON_LABEL,
    MAX_HEADER_TEXT,
    MAX_SECTION_TEXT,
    assignment_blocks,
    reveal_blocks,
    split_text,
    step_blocks,
    to_mrkdwn,
    to_plain,
)
from fakes.fake_slack import action_ids


def assert_within_block_kit_limits(blocks: list[dict[str, object]]) -> None:
    """50 blocks, 25 elements an actions block, 75-char labels, 3000-char sections."""
    assert len(blocks) <= MAX_BLOCKS
    ids = action_ids(blocks)  # type: ignore[arg-type]
    assert len(ids) == len(set(ids))
    for block in blocks:
        text = block.get("text")
        if block["type"] == "section" and isinstance(text, dict):
            assert 0 < len(text["text"]) <= MAX_SECTION_TEXT
        if block["type"] == "header" and isinstance(text, dict):
            assert len(text["text"]) <= MAX_HEADER_TEXT
        if block["type"] == "actions":
            elements = block["elements"]
            assert isinstance(elements, list) and 0 < len(elements) <= MAX_ACTIONS
            assert all(len(e["text"]["text"]) <= MAX_BUTTON_LABEL for e in elements)


def test_light_markdown_becomes_slack_mrkdwn() -> None:
    assert to_mrkdwn("**bold** and *italic*") == "*bold* and _italic_"
    assert to_mrkdwn("2 < 3 & 4 > 1") == "2 &lt; 3 &amp; 4 &gt; 1"
    assert (
        to_mrkdwn("see [the docs](https://example.org/a)") == "see <https://example.org/a|the docs>"
    )
    assert to_mrkdwn("(15 + 30) * 2 = 90 * 1") == "(15 + 30) * 2 = 90 * 1"
    assert to_mrkdwn("`code` stays") == "`code` stays"
    assert to_plain("**Reveal** *now*") == "Reveal now"


def test_long_text_is_split_at_line_ends_within_the_limit() -> None:
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(100))
    pieces = split_text(text)
    assert len(pieces) > 1 and all(len(piece) <= MAX_SECTION_TEXT for piece in pieces)
    assert "\n".join(pieces) == text


def test_every_step_of_the_lesson_fits_block_kit() -> None:
    lesson = LessonCatalog().get("rlvr")
    for index in range(len(lesson.steps)):
        for closed in (False, True):
            blocks = step_blocks(step_card(7, lesson, index, answered=3, closed=closed))
            assert_within_block_kit_limits(blocks)
            assert bool(action_ids(blocks)) == (not closed)


def test_an_oversized_card_is_cut_but_keeps_its_buttons_and_counter() -> None:
    buttons = tuple(
        Button(f"rl:1:big:choose:c{n}", "a long label " * 10, Tone.PRIMARY, row=0)
        for n in range(30)
    )
    card = StepCard(
        run_id=1,
        step_id="big",
        kind="prediction",
        number=1,
        total=1,
        title="T" * 300,
        body="word " * 5000,
        sections=tuple(Section(f"S{n}", "text") for n in range(60)),
        buttons=buttons,
        takes_answers=True,
        answered=4,
    )
    blocks = step_blocks(card)
    assert_within_block_kit_limits(blocks)
    assert len(action_ids(blocks)) == 30
    assert blocks[-1]["elements"][0]["text"].startswith("📊 4 answered")


def test_a_reveal_marks_the_right_answer_with_counts_and_percentages() -> None:
    bars = (Bar("Right", 3, 0.75, True), Bar("Wrong", 1, 0.25))
    card = RevealCard(1, "q", "Results: Q", "**Because.**", 4, bars=bars, notes=("*note*",))
    blocks = reveal_blocks(card)
    texts = [b["text"]["text"] for b in blocks if b["type"] == "section"]
    assert "` 3 (75%) Right ✅" in texts[0] and "` 1 (25%) Wrong" in texts[0]
    assert "_note_" in texts[1] and "*Because.*" in texts[2]


def test_code_is_left_alone_and_split_code_fences_stay_closed() -> None:
    assert to_mrkdwn("**a** `x**2**` ```\n*b* <c>\n```") == "*a* `x**2**` ```\n*b* &lt;c&gt;\n```"
    code = "```\n" + "\n".join("row " + "=" * 80 for _ in range(80)) + "\n```"
    pieces = split_text(code)
    assert len(pieces) > 1 and all(len(piece) <= MAX_SECTION_TEXT for piece in pieces)
    assert all(piece.startswith("```") and piece.endswith("```") for piece in pieces)


def test_an_assignment_card_shows_its_due_time_in_each_readers_zone() -> None:
    due = datetime(2026, 12, 10, 17, 0, tzinfo=UTC)
    card = AssignmentCard(7, "RLVR", 12, 20, due, buttons=(Button("rl:7:s:start", "Start"),))
    blocks = assignment_blocks(card)
    assert_within_block_kit_limits(blocks)
    text = "\n".join(b["text"]["text"] for b in blocks if b["type"] == "section")
    unix = int(due.timestamp())
    token = f"<!date^{unix}^{{date_short_pretty}} at {{time}}|2026-12-10 17:00 UTC>"
    assert text.count(f"<!date^{unix}^") == 1 and text.count(token) == 1
    assert f"Due {token}." in text and "&lt;" not in text and "\x01" not in text
