"""The delayed recall in `/lesson results`, in the export, and in what forget-me removes.

Before a round of checks closes, the results say when the checks go out or until when they
are open; once it closed, they show what the channel kept, as the channel's post has it.
The export has each check sent and each answer to it, with its time; forget-me removes a
member's checks and answers and says so.
"""

from __future__ import annotations

import csv
import io

from bot.engine import Action, Address
from bot.model import RevealCard, SummaryCard
from bot.service import Actor, FileReply
from tests.conftest import FakeClock
from tests.service.test_assignments import ALICE, BOB, HOST, Bot
from tests.service.test_recalls import (
    CARA,
    DAN,
    DAY,
    RIGHT_LATER,
    answer_check,
    checks_of,
    checks_sent,
    live_lesson,
    tend_after,
)

ALICE_LATER = {**RIGHT_LATER, "one-round-of-rl": "all-skills"}
"""Alice keeps two of the three ideas."""
NAMES = ("alice", "Alice", "bob", "Bob", "cara", "Cara", "dan", "Dan")


async def results_for(bot: Bot, actor: Actor = CARA) -> SummaryCard:
    """What `/lesson results` shows a member."""
    outcome = await bot.run(actor, "results")
    assert isinstance(outcome.reply, SummaryCard), outcome.reply
    return outcome.reply


async def exported(bot: Bot) -> list[dict[str, str]]:
    """The rows of the channel's run as the host's export has them."""
    outcome = await bot.run(HOST, "export")
    assert isinstance(outcome.reply, FileReply), outcome.reply
    return list(csv.DictReader(io.StringIO(outcome.reply.data.decode("utf-8"))))


def recall_rows(rows: list[dict[str, str]]) -> list[tuple[str, ...]]:
    """The export's delayed recall rows: kind, member, step, value, right, round, asked step."""
    return [
        (r["kind"], r["user_id"], r["step"], r["value"], r["reward"], r["try"], r["recalls"])
        for r in rows if r["kind"].startswith("recall")
    ]


def text_of(card: SummaryCard) -> str:
    """Everything the results show as text, the closed rounds' figures included."""
    reveals = [line for reveal in card.reveals for line in (reveal.title, *reveal.notes)]
    return "\n".join((card.title, *card.lines, *reveals))


async def test_while_the_lesson_runs_the_results_say_a_check_comes_after_it(bot: Bot) -> None:
    await bot.run(HOST, "start")
    card = await results_for(bot)
    assert card.lines[-1] == (
        "🔁 3 days after the lesson, each member who answered gets a one-minute private quiz "
        "on its key ideas, to see what stuck. What the channel kept shows here once the checks "
        "close."
    )
    assert not card.reveals


async def test_the_results_show_when_checks_go_out_then_what_the_channel_kept(
    bot: Bot, clock: FakeClock
) -> None:
    await live_lesson(bot)  # ends at 2026-01-01 12:00 UTC
    before = await results_for(bot)
    assert before.lines[-1] == (
        "🔁 The recall check 3 days after the lesson goes out by 2026-01-04 12:00 UTC and "
        "closes 2026-01-06 12:00 UTC; what the channel kept shows here then."
    )
    await tend_after(bot, clock, 10)
    await tend_after(bot, clock, 3 * DAY)
    checks = checks_of(bot)
    await answer_check(bot, ALICE, checks["alice"], ALICE_LATER)
    await answer_check(bot, BOB, checks["bob"], RIGHT_LATER)
    open_now = await results_for(bot)
    assert open_now.lines[-1] == (
        "🔁 The recall check 3 days after the lesson is open until 2026-01-06 12:00 UTC; "
        "what the channel kept shows here once it closes."
    )
    assert not open_now.reveals
    assert open_now.lines[:-1] == before.lines[:-1]

    clock.advance(2 * DAY)  # every check has closed; the channel's post is not out yet
    closed = await results_for(bot)
    assert closed.lines == before.lines[:-1]
    (kept,) = closed.reveals
    assert isinstance(kept, RevealCard) and kept.title == "What the channel kept, 3 days on"
    assert kept.answered == 2
    assert kept.notes[1:] == (
        "• Same brain, a year later: right at the lesson 1 of 2 (50%); 3 days later 2 of 2 (100%).",
        "• Where does that leave writing?: right at the lesson 2 of 2 (100%); 3 days later "
        "1 of 2 (50%).",
        "• Contest coder, so-so eulogist: right at the lesson 2 of 2 (100%); 3 days later "
        "2 of 2 (100%).",
    )
    assert await tend_after(bot, clock, 0) == 1
    posted = bot.surface.posted(SummaryCard)[-1]
    assert isinstance(posted, SummaryCard)
    assert (kept.title, kept.notes, kept.chart) == (posted.title, posted.lines, posted.chart)
    assert (await results_for(bot)).reveals == (kept,)
    assert not any(name in text_of(closed) for name in NAMES)


async def test_with_two_rounds_the_results_show_the_first_and_when_the_second_comes(
    bot: Bot, clock: FakeClock
) -> None:
    await live_lesson(bot, recall="2d,9d")
    await tend_after(bot, clock, 10)
    await tend_after(bot, clock, 2 * DAY)
    await answer_check(bot, ALICE, checks_of(bot)["alice"], ALICE_LATER)
    clock.advance(2 * DAY)
    card = await results_for(bot)
    assert [reveal.title for reveal in card.reveals] == ["What the channel kept, 2 days on"]
    assert card.reveals[0].notes[0].startswith("1 member answered the recall check 2 days after")
    assert card.lines[-1] == (
        "🔁 The recall check 9 days after the lesson goes out by 2026-01-10 12:00 UTC and "
        "closes 2026-01-12 12:00 UTC; what the channel kept shows here then."
    )


async def test_a_run_without_recall_checks_shows_its_results_alone(
    bot: Bot, clock: FakeClock
) -> None:
    run_id = await live_lesson(bot, recall="off")
    clock.advance(30 * DAY)
    card = await results_for(bot)
    assert card == await bot.engine.results(run_id)
    assert "recall check" not in text_of(card)


async def test_the_export_has_each_check_sent_and_each_answer_with_its_time(
    bot: Bot, clock: FakeClock
) -> None:
    _, checks = await checks_sent(bot, clock)
    sent_at = clock().isoformat()
    clock.advance(3600)
    answered_at = clock().isoformat()
    await answer_check(bot, ALICE, checks["alice"], ALICE_LATER)
    clock.advance(60)
    await answer_check(bot, BOB, checks["bob"], {"puzzle-recipe": "people-rate"})

    rows = await exported(bot)
    assert sorted(recall_rows(rows)) == sorted([
        *[("recall-sent", member, "", "", "", "1", "") for member in ("alice", "bob", "cara",
                                                                     "dan")],
        ("recall", "alice", "puzzle-recipe", "script-checks", "1", "1", "what-changed"),
        ("recall", "alice", "one-round-of-rl", "all-skills", "0", "1", "what-about-writing"),
        ("recall", "alice", "bugs-vs-condolences", "tests-vs-people", "1", "1",
         "code-vs-eulogy"),
        ("recall", "bob", "puzzle-recipe", "people-rate", "0", "1", "what-changed"),
    ])
    assert {r["at"] for r in rows if r["kind"] == "recall-sent"} == {sent_at}
    assert {r["at"] for r in rows if r["kind"] == "recall" and r["user_id"] == "alice"} == {
        answered_at
    }
    kinds = [kind for kind, *_ in recall_rows(rows)]
    assert kinds == ["recall-sent"] * 4 + ["recall"] * 4  # oldest first
    never = {r["user_id"] for r in rows if r["kind"] == "recall-sent"} - {
        r["user_id"] for r in rows if r["kind"] == "recall"
    }
    assert never == {"cara", "dan"}


async def test_the_export_has_no_row_for_a_check_not_sent(bot: Bot, clock: FakeClock) -> None:
    await live_lesson(bot)
    bot.surface.closed_dms.add("dan")
    await tend_after(bot, clock, 10)  # planned, not due yet
    assert recall_rows(await exported(bot)) == []
    await tend_after(bot, clock, 3 * DAY)
    sent = {r[1] for r in recall_rows(await exported(bot))}
    assert sent == {"alice", "bob", "cara"}  # Dan could not be messaged


async def test_forget_me_removes_a_members_checks_and_answers_and_says_so(
    bot: Bot, clock: FakeClock
) -> None:
    run_id = await live_lesson(bot, recall="2d,9d")
    await tend_after(bot, clock, 10)
    await tend_after(bot, clock, 2 * DAY)
    check = await answer_check(bot, ALICE, checks_of(bot)["alice"], ALICE_LATER)
    assert "2 of 3 right" in check.body
    await bot.click(ALICE, Address(run_id, "recall", Action.NOMORE).encode())
    preview = str((await bot.run(ALICE, "forget-me")).reply)
    assert "Forgetting you would remove 6 stored answers (" in preview
    assert ", 3 answers to recall checks), 2 recall checks (planned or sent), 1 request for " \
        "no more recall checks, 1 member record" in preview

    done = str((await bot.run(ALICE, "forget-me", confirm=True)).reply)
    assert done.startswith("Done: removed 6 stored answers (")
    assert "3 answers to recall checks), 2 recall checks (planned or sent), 1 request" in done
    progress = await bot.engine.recall.progress(run_id)
    assert (progress.planned, progress.sent, progress.answered) == (6, 3, 0)
    assert all(r["user_id"] != "alice" for r in await exported(bot))
    assert DAN.user_id in {r[1] for r in recall_rows(await exported(bot))}


async def test_the_results_keep_the_figures_the_channel_was_shown(
    bot: Bot, clock: FakeClock
) -> None:
    run_id, checks = await checks_sent(bot, clock)
    await answer_check(bot, ALICE, checks["alice"], ALICE_LATER)
    await answer_check(bot, BOB, checks["bob"], RIGHT_LATER)
    store = bot.engine.store
    cara = await store.open_check(run_id, CARA.user_id, clock())
    assert cara is not None
    assert await tend_after(bot, clock, 2 * DAY) == 1
    posted = bot.surface.posted(SummaryCard)[-1]
    assert isinstance(posted, SummaryCard) and posted.title == "What the channel kept, 3 days on"

    # After the post: an answer stored late, and a member who answered forgets themselves.
    assert await store.save_recall_answer(cara.id, "puzzle-recipe", "bigger-model", False,
                                          clock())
    await bot.run(BOB, "forget-me", confirm=True)

    (kept,) = (await results_for(bot)).reveals
    assert (kept.title, kept.notes, kept.chart) == (posted.title, posted.lines, posted.chart)
    assert kept.answered == posted.members == 2
    assert await tend_after(bot, clock, 60) == 0  # and the channel's post is not made again
