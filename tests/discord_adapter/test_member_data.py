"""Members' data: anyone forgets their own answers, hosts export a run, forged buttons fail."""

from __future__ import annotations

import csv
import io
from typing import Any

from bot.model import BadAddress, NoActiveRun
from fakes.fake_discord import OTHER_CHANNEL_ID, PrivateReply
from storage import SqlRunStore
from tests.discord_adapter.helpers import LessonDriver, answers_of, button, run_of

STEP = "what-changed"
GUILD_ELSEWHERE = 920000000000000999
REVEALED_LINE = "**Same brain, a year later**: 2 of 2 right (100%)"


async def choose(lesson: LessonDriver, question: dict[str, Any], name: str, pick: str) -> str:
    """A member chooses; returns their Discord user id."""
    member = lesson.fake.member(name)
    reply = await lesson.press(member, question, button(question, arg=pick))
    assert "You chose" in reply.content
    return str(member.id)

FORGET_ME = "lesson-forget-me"
CONFIRM = [{"name": "confirm", "type": 5, "value": True}]
"""The `confirm: True` option of `/lesson-forget-me`, as Discord sends it."""


def results_text(reply: PrivateReply) -> str:
    """The text of a private results reply."""
    return str(reply.message["embeds"][0]["description"])


async def test_forget_me_removes_my_answers_and_revealed_results_keep_their_counts(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    fake = lesson.fake
    question = await lesson.reach(STEP)
    ann = fake.member("ann")
    await lesson.press(ann, question, button(question, arg="checkable-reward"))
    ben = await choose(lesson, question, "ben", "checkable-reward")
    await lesson.command("reveal")
    assert REVEALED_LINE in results_text(await lesson.command("results", user=ann))

    preview = await fake.private_reply(await fake.top_command(ann, FORGET_ME))
    assert preview.ephemeral and "would remove 1 stored answer (" in preview.content
    assert "with `confirm`" in preview.content
    assert len(await answers_of(store, run_of(question))) == 2

    forgotten = await fake.private_reply(await fake.top_command(ann, FORGET_ME, options=CONFIRM))
    assert forgotten.ephemeral and forgotten.content.startswith("Done: removed 1 stored answer (")
    assert [a.user_id for a in await answers_of(store, run_of(question))] == [ben]
    assert REVEALED_LINE in results_text(await lesson.command("results"))

    again = await fake.private_reply(await fake.top_command(ann, FORGET_ME, options=CONFIRM))
    assert again.ephemeral and "nothing to remove" in again.content


async def test_only_hosts_export_and_the_csv_matches_the_stored_answers(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    question = await lesson.reach(STEP)
    await choose(lesson, question, "ann", "more-text")
    await choose(lesson, question, "=cat", "bigger-model")

    refused = await lesson.command("export", user=lesson.fake.member("mo"))
    assert refused.ephemeral and "Only a lesson host can export" in refused.content
    assert not refused.call.files

    exported = await lesson.command("export")
    assert exported.ephemeral and exported.content.startswith(f"Run {run_of(question)}: 2 stored")
    (upload,) = exported.call.files
    assert upload.filename == f"run-{run_of(question)}.csv"
    rows = list(csv.DictReader(io.StringIO(upload.data.decode("utf-8"))))
    stored = await answers_of(store, run_of(question))
    assert [(r["user_id"], r["value"]) for r in rows] == [(a.user_id, a.value) for a in stored]
    assert {r["name"] for r in rows} == {"ann", "'=cat"}

    named = await lesson.command("export", run=run_of(question))
    assert named.call.files[0].data == upload.data
    unknown = await lesson.command("export", run=999)
    assert "There is no run 999" in unknown.content and not unknown.call.files


async def test_a_forged_button_or_form_naming_a_run_elsewhere_changes_nothing(
    lesson: LessonDriver, store: SqlRunStore
) -> None:
    fake = lesson.fake
    question = await lesson.reach(STEP)
    forged_id = button(question, arg="more-text")
    elsewhere = {**question, "channel_id": str(OTHER_CHANNEL_ID)}
    mo = fake.member("mo")

    other_channel = await fake.private_reply(await fake.click(mo, elsewhere, forged_id))
    other_server = await fake.private_reply(
        await fake.click(mo, question, forged_id, guild_id=GUILD_ELSEWHERE)
    )
    form_id = forged_id.replace("choose:more-text", "answer")
    form = await fake.submit_form(mo, form_id, {"answer": "1"}, elsewhere, OTHER_CHANNEL_ID)
    for reply in (other_channel, other_server, await fake.private_reply(form)):
        assert reply.ephemeral and reply.content == str(BadAddress())
    assert await answers_of(store, run_of(question)) == []


async def test_a_host_in_another_channel_cannot_export_or_read_the_run(
    lesson: LessonDriver,
) -> None:
    question = await lesson.reach(STEP)
    await choose(lesson, question, "ann", "more-text")
    general = LessonDriver(lesson.fake, lesson.host, OTHER_CHANNEL_ID)

    refused = await general.command("export", run=run_of(question))
    assert refused.ephemeral and not refused.call.files
    assert refused.content == (
        f"Run {run_of(question)} was held in another channel; run the export there."
    )
    latest = await general.command("export")
    assert "No lesson has run in this channel yet" in latest.content and not latest.call.files
    results = await general.command("results")
    assert results.content == str(NoActiveRun()) and not results.message.get("embeds")
    assert (await lesson.command("export", run=run_of(question))).call.files
