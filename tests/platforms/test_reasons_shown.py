"""Members' reasons as hosts and members see them, on both platforms.

A reason is shown as typed wherever it is shown: in the discussion thread and in a host's
`/lesson reasons`, none of its characters reads as a format, a link, a mention, a channel or
a time. Every reason can be reached there a page at a time, however long the reasons are, and
a reason hidden by its number is gone from the thread post that showed it too.
"""

from __future__ import annotations

import re

from tests.platforms.driver import Platform
from tests.platforms.on_slack import SlackPlatform, SlackPost
from tests.platforms.test_peer_round import (
    DATA,
    HIDDEN_POST,
    RIGHT,
    SPLIT,
    choose,
    heading,
    hide_by_number,
    reason_number,
    reveal,
    say_why,
    thread_of,
)
from tests.platforms.views import Post, Reply

SNEAKY = (
    "See [Official answer key](https://evil.example/phish) **now** ||spoiler|| <@123456> "
    "<#42> <@&7> <t:0:R> <!channel> _it_ ~gone~ `code`"
)
"""A reason that would show a disguised link, formats, mentions, a channel and a time,
were it read as markup."""
PAGE = re.compile(r"page (\d+) of (\d+)")


def thread_shows_literally(lesson: Platform, post: Post, typed: str) -> bool:
    """Whether a thread post shows `typed` as typed (Slack: in a plain_text block)."""
    if isinstance(lesson, SlackPlatform):
        assert isinstance(post, SlackPost)
        plain = [b["text"]["text"] for b in post.blocks if b.get("text", {}).get("type") == (
            "plain_text"
        )]
        return typed in plain
    return lesson.literally(post.text, typed)


async def split_round(lesson: Platform, reasons: dict[str, str]) -> Post:
    """Four members split on the peer round, two of them saying why; its first card."""
    ann, ben, cy, dee = (lesson.member(name) for name in ("Ann", "Ben", "Cy", "Dee"))
    question = await lesson.reach("code-vs-eulogy")
    for member, choice in ((ann, RIGHT), (ben, RIGHT), (cy, DATA), (dee, DATA)):
        await choose(lesson, member, question, choice)
    for member, reason in zip((ann, cy), reasons.values(), strict=False):
        await say_why(lesson, member, question, reason)
    return question


async def test_a_reason_shows_as_typed_to_hosts_and_in_the_thread(lesson: Platform) -> None:
    await split_round(lesson, {"ann": SNEAKY, "cy": "Far more code than eulogies online"})

    listed = await lesson.ask("reasons")
    assert listed.private and "Reasons given in run" in listed.text
    assert lesson.literally(listed.text, SNEAKY), listed.text
    assert "evil.example/phish>" not in listed.text.replace("&gt;", ">")  # no masked link

    second = await reveal(lesson, SPLIT)
    sneaky, *_ = await thread_of(lesson, second, 2)
    assert heading(RIGHT) in sneaky.text
    assert thread_shows_literally(lesson, sneaky, SNEAKY), sneaky.text


async def test_hiding_a_reason_by_its_number_redraws_its_thread_post(lesson: Platform) -> None:
    by_cy = "Far more code than eulogies online"
    await split_round(lesson, {"ann": "Tests decide what counts here", "cy": by_cy})
    second = await reveal(lesson, SPLIT)
    posts = await thread_of(lesson, second, 2)
    shown = next(post for post in posts if by_cy in post.text)

    number = reason_number((await lesson.ask("reasons")).text, by_cy)
    hidden = await hide_by_number(lesson, lesson.host, number)
    assert hidden.private and f"reason {number} will not be shown" in hidden.text
    redrawn = await lesson.wait(
        lambda: next((p for p in lesson.thread_posts(second) if HIDDEN_POST in p.text), None),
        what="the reason's post redrawn as hidden",
    )
    assert by_cy not in redrawn.text and not redrawn.buttons
    assert all(by_cy not in post.text for post in lesson.thread_posts(second))
    assert len(lesson.thread_posts(second)) == 2 and shown.text == redrawn.text


async def reasons_page(lesson: Platform, page: int | None = None) -> Reply:
    """`/lesson reasons [page]`, as each platform takes it: an option, or typed after the verb."""
    if page is None:
        return await lesson.ask("reasons")
    if isinstance(lesson, SlackPlatform):
        return await lesson.ask(f"reasons {page}")
    return await lesson.ask("reasons", options={"page": str(page)})


def long_reason(number: int) -> str:
    """A reason near the longest a member may write, told apart by its number."""
    words = "Code & tests <agree> on *what* counts, a eulogy has no checker to run;"
    reason = f"Reason {number:02d}: " + " ".join([words] * 4)
    return reason[:275]


async def test_every_reason_can_be_reached_a_page_at_a_time(lesson: Platform) -> None:
    members = [lesson.member(f"Member{n}") for n in range(32)]
    question = await lesson.reach("code-vs-eulogy")
    for number, member in enumerate(members):
        await choose(lesson, member, question, RIGHT if number % 2 else DATA)
        await say_why(lesson, member, question, long_reason(number))

    newest = await reasons_page(lesson)
    found = PAGE.search(newest.text)
    assert found is not None, newest.text
    last, pages = int(found[1]), int(found[2])
    assert last == pages > 1 and lesson.literally(newest.text, long_reason(31))
    numbers: set[int] = set()
    for page in range(1, pages + 1):
        listed = await reasons_page(lesson, page)
        assert f"page {page} of {pages}" in listed.text, listed.text
        if page < pages:
            assert f"reasons {page + 1}" in listed.text, listed.text
        shown = [n for n in range(32) if lesson.literally(listed.text, long_reason(n))]
        numbers |= {reason_number(listed.text, f"Reason {n:02d}:") for n in shown}
        assert len(shown) == listed.text.count("Reason "), listed.text  # none cut off
    assert len(numbers) == 32

    beyond = await reasons_page(lesson, pages + 1)
    assert beyond.private and f"There are {pages} pages" in beyond.text, beyond.text
