"""The peer round on both platforms: answer alone, say why, read others' reasons, answer again.

Live, a split channel keeps the answer hidden: the first vote's card closes, a second-vote card
shows the split with no answer marked, anonymous reasons go in a thread under it, and the next
reveal shows both votes. A near-unanimous channel sees the answer at once. Assigned, each member
says why, reads two reasons from members who answered before them (the author's where there
are none), answers again and sees the tally so far. Members' words never ping, format or unfurl.
"""

from __future__ import annotations

from bot.engine import Action
from lessons.schema import PeerRoundStep
from tests.conftest import FakeClock
from tests.platforms.driver import LESSON, Person, Platform
from tests.platforms.on_discord import DiscordPlatform, DiscordPost
from tests.platforms.on_slack import SlackPlatform, SlackPost
from tests.platforms.test_assigned import HOUR, assign, onward, start
from tests.platforms.views import Post, Reply

ROUND = LESSON.step_by_id("code-vs-eulogy")
assert isinstance(ROUND, PeerRoundStep)
LABEL = {choice.id: choice.label for choice in ROUND.choices}
AUTHOR = {choice.id: choice.reason for choice in ROUND.choices}
RIGHT, DATA, EASIER, FEELINGS = LABEL
TITLE = ROUND.title
SPLIT = "The channel is split"
HIDDEN = "Hidden: that reason is gone from the thread and will not be shown again."
HIDDEN_POST = "Hidden by a host."
LOUD = "@everyone <https://example.com> <!channel> **as typed**"
"""A reason that would ping the channel, preview a page and format text, were it read as markup."""


def heading(choice: str, by_author: bool = False) -> str:
    """The line over a reason: whose it is (never a name) and which choice it argues for."""
    who = "The lesson's author" if by_author else "A member"
    return f"{who}, for “{LABEL[choice]}”"


async def choose(lesson: Platform, member: Person, post: Post, choice: str) -> None:
    """A member's first answer, confirmed privately; the post's own button says how to say why."""
    reply = await lesson.press(member, post, post.button(action="choose", arg=choice))
    assert reply.private and f"You chose {lesson.bold(LABEL[choice])}" in reply.text, reply.text
    assert "Add a reason" not in reply.text and "💬" not in reply.text
    assert ["Add a reason" in b.label for b in post.buttons if b.target.action == Action.WHY] == [
        True
    ]


async def say_why(lesson: Platform, member: Person, post: Post, reason: str) -> None:
    """A member types their reason in the form their post's Add a reason button opens."""
    reply = await lesson.give_reason(member, post, reason)
    assert reply.private and "Your reason is saved" in reply.text, reply.text


async def answer_again(lesson: Platform, member: Person, post: Post, choice: str) -> str:
    """A member's second answer; the private reply's text."""
    reply = await lesson.press(member, post, post.button(action="again", arg=choice))
    assert reply.private, reply
    return reply.text


def second_vote_buttons(post: Post) -> list[str]:
    """The choices a post offers for a second answer, in order."""
    return [b.target.arg for b in post.buttons if b.target.action == Action.AGAIN and b.enabled]


async def reveal(lesson: Platform, containing: str) -> Post:
    """The host's `/lesson reveal`; the first post after it containing `containing`."""
    before = len(lesson.posts())
    await lesson.command("reveal")
    return await lesson.post_after(before, containing)


async def thread_of(lesson: Platform, post: Post, count: int) -> list[Post]:
    """The bot's first `count` posts in the thread under `post`, once all are there."""
    return await lesson.wait(
        lambda: (posts := lesson.thread_posts(post)) and len(posts) >= count and posts,
        what=f"{count} posts in the thread",
    )


def reason_number(listing: str, containing: str) -> int:
    """The number `/lesson reasons` gives the reason whose line holds `containing`."""
    line = next(line for line in listing.splitlines() if containing in line)
    return int(line.split(".", 1)[0].strip("*_ "))


async def hide_by_number(lesson: Platform, user: Person, number: int) -> Reply:
    """`/lesson hide <number>`, as each platform takes it: an option, or typed after the verb."""
    if isinstance(lesson, SlackPlatform):
        return await lesson.ask(f"hide {number}", user)
    return await lesson.ask("hide", user, {"number": str(number)})


async def test_a_split_channel_discusses_in_a_thread_answers_again_and_sees_both_votes(
    lesson: Platform,
) -> None:
    members = [lesson.member(name) for name in ("Annika", "Benedikt", "Cyrano", "Delphine")]
    ann, ben, cy, dee = members
    question = await lesson.reach(ROUND.id)
    for member, choice in ((ann, RIGHT), (ben, RIGHT), (cy, DATA), (dee, FEELINGS)):
        await choose(lesson, member, question, choice)
    await say_why(lesson, ann, question, "It either passes the tests or it does not")
    await say_why(lesson, cy, question, "There is far more code than eulogies online")

    second = await reveal(lesson, SPLIT)  # 2 of 4 right: inside the band, so no answer yet
    assert second.step == ROUND.id and "answered again" in second.text
    assert (
        "The answer stays hidden for now. Read the reasons in the thread, then answer again: "
        "keep your answer or change it." in second.text
    )
    assert "Convince" not in second.text
    assert second_vote_buttons(second) == list(LABEL)
    assert "✅" not in second.text and "right answer" not in second.text
    split = await lesson.chart(second)
    assert "this channel's first answers (4 answered)" in split.words
    assert f"{LABEL[RIGHT]}: 2 of 4 (50%)" in split.words
    assert f"{LABEL[FEELINGS]}: 1 of 4 (25%)" in split.words
    assert "right answer" not in split.words and "✓" not in split.words
    await lesson.wait(
        lambda: "answers closed" in question.text.lower()
        and not any(b.enabled for b in question.buttons if b.target.action == Action.CHOOSE),
        what="the first vote's card closed",
    )

    # The three most chosen answers, each with a member's reason, else the author's
    thread = await thread_of(lesson, second, 3)
    expected = [
        (heading(RIGHT), "It either passes the tests or it does not", ["hide"]),
        (heading(DATA), "There is far more code than eulogies online", ["hide"]),
        (heading(FEELINGS, by_author=True), AUTHOR[FEELINGS], []),
    ]
    for post, (title, reason, actions) in zip(thread, expected, strict=True):
        assert title in post.text and reason in post.text, post.text
        assert [b.target.action for b in post.buttons] == actions
    await lesson.settle()
    assert len(lesson.thread_posts(second)) == 3  # up to three, one per choice chosen
    texts = "\n".join(post.text for post in thread).lower()
    assert not any(m.name.lower() in texts or m.id.lower() in texts for m in members)

    assert "You kept your answer" in await answer_again(lesson, ann, second, RIGHT)
    assert "You kept your answer" in await answer_again(lesson, ben, second, RIGHT)
    changed = await answer_again(lesson, cy, second, RIGHT)
    assert f"You changed your answer to {lesson.bold(LABEL[RIGHT])}" in changed
    assert f"(first: {LABEL[DATA]})" in changed and "✅" not in changed
    assert "You kept your answer" in await answer_again(lesson, dee, second, FEELINGS)
    await lesson.wait(lambda: "4 answered again" in second.text, what="the second count")

    results = await reveal(lesson, f"Results: {TITLE}")
    assert (
        "Right: 50% at the first answer → 75% after discussion, among the 4 who answered both "
        "times.\n"
        "Wrong → right: 1 · right → wrong: 0 · stayed right: 2 · stayed wrong: 1.\n"
        "Normalized gain (after − before) / (1 − before): 0.50."
    ) in results.text
    assert f"3 (75%) {LABEL[RIGHT]} ✅" in results.text
    assert not any(m.name.lower() in results.text.lower() for m in members)
    both = await lesson.chart(results)
    assert "before and after discussion" in both.words
    assert (
        f"{LABEL[RIGHT]} (the right answer): first answer 2 of 4 (50%), "
        "after discussion 3 of 4 (75%)"
    ) in both.words
    assert second_vote_buttons(second) == []  # the second vote closed with the reveal


async def test_a_near_unanimous_channel_sees_the_answer_at_once_without_a_discussion(
    lesson: Platform,
) -> None:
    members = [lesson.member(f"Member{n}") for n in range(10)]
    question = await lesson.reach(ROUND.id)
    choices = [RIGHT] * 9 + [DATA]
    pairs = zip(members, choices, strict=True)
    clicks = [(m, question.button(action="choose", arg=c)) for m, c in pairs]
    replies = await lesson.replies(await lesson.burst(question, clicks))
    assert all(reply.private and "You chose" in reply.text for reply in replies)
    await say_why(lesson, members[9], question, "There is far more code than eulogies online")

    before = len(lesson.posts())
    results = await reveal(lesson, f"Results: {TITLE}")  # 90% right: outside the band
    assert f"9 (90%) {LABEL[RIGHT]} ✅" in results.text
    assert "No second vote: 90% were right, outside 30% to 70%" in results.text
    assert "after discussion" not in results.text and SPLIT not in results.text
    await lesson.settle()
    assert [post.text for post in lesson.posts()[before:]] == [results.text]  # no second vote
    assert lesson.thread_posts(question) == lesson.thread_posts(results) == []
    assert not any(second_vote_buttons(post) for post in lesson.posts())
    assert "right answer" in (await lesson.chart(results)).words


async def own_round(lesson: Platform, member: Person, card: Post) -> Post:
    """The member starts the assignment and moves on alone to the peer round."""
    post = await start(lesson, member, card)
    while post.step != ROUND.id:
        post = await onward(lesson, member, post)
    return post


async def own_shows(lesson: Platform, member: Person, containing: str) -> Post:
    """The member's latest own post, once it contains `containing`."""
    return await lesson.wait(
        lambda: next((p for p in lesson.own_posts(member)[-1:] if containing in p.text), None),
        what=f"{member.name}'s own post with {containing!r}",
    )


async def reasons_read(
    lesson: Platform, member: Person, card: Post, choice: str, reason: str
) -> Post:
    """A member's own peer round up to its second answer: they choose, say why, and read two
    reasons from others; the post that shows those reasons and takes the second answer."""
    await choose(lesson, member, await own_round(lesson, member, card), choice)
    ask = await own_shows(lesson, member, f"Why {lesson.bold(LABEL[choice])}? Write one sentence")
    assert "So far" not in ask.text and second_vote_buttons(ask) == []
    assert ask.text.count("You chose") <= 1  # said once, by the reply to the click
    await say_why(lesson, member, ask, reason)
    read = await own_shows(lesson, member, "Read two reasons from others")
    assert second_vote_buttons(read) == list(LABEL) and "So far" not in read.text
    return read


def reads(lesson: Platform, post: Post, *reasons: tuple[str, str]) -> None:
    """The post shows each (heading, reason) in turn, each reason as typed under its heading."""
    text = post.text
    assert text.count(", for “") == len(reasons), text
    at = 0
    for title, reason in reasons:
        at = text.index(title, at) + len(title)
        end = text.find(", for “", at)
        assert shows_as_typed(lesson, text[at : None if end < 0 else end], reason), (title, text)


def shows_as_typed(lesson: Platform, shown: str, typed: str) -> bool:
    """Whether `shown` shows `typed` as typed: on Discord in markdown, every mark escaped; on
    Slack in a plain_text block, as it is."""
    return lesson.literally(shown, typed) if isinstance(lesson, DiscordPlatform) else typed in shown


async def test_assigned_members_read_the_authors_then_earlier_members_reasons_and_exact_tallies(
    lesson: Platform, clock: FakeClock
) -> None:
    card = await assign(lesson)
    ines, jonah, kirra = (lesson.member(name) for name in ("Ines", "Jonah", "Kirra"))
    by_ines = "It either passes the tests or it does not"
    by_jonah = "Hardly anyone publishes the eulogies they write"

    clock.advance(HOUR)
    read = await reasons_read(lesson, ines, card, RIGHT, by_ines)
    reads(lesson, read, (heading(DATA, True), AUTHOR[DATA]), (heading(RIGHT, True), AUTHOR[RIGHT]))
    told = await answer_again(lesson, ines, read, RIGHT)
    assert "You kept your answer" in told
    assert f"So far: {TITLE} (1 answered)" in told
    assert f"1 (100%) {LABEL[RIGHT]} ✅" in told
    assert "Right: 100% at the first answer → 100% after discussion, among the 1 who" in told
    assert "Wrong → right: 0 · right → wrong: 0 · stayed right: 1 · stayed wrong: 0." in told

    clock.advance(HOUR)
    read = await reasons_read(lesson, jonah, card, DATA, by_jonah)
    reads(lesson, read, (heading(RIGHT), by_ines), (heading(DATA, True), AUTHOR[DATA]))
    assert "ines" not in read.text.lower() and ines.id.lower() not in read.text.lower()
    told = await answer_again(lesson, jonah, read, RIGHT)
    assert f"You changed your answer to {lesson.bold(LABEL[RIGHT])}" in told
    assert f"So far: {TITLE} (2 answered)" in told
    assert f"2 (100%) {LABEL[RIGHT]} ✅" in told
    assert "Right: 50% at the first answer → 100% after discussion, among the 2 who" in told
    assert "Wrong → right: 1 · right → wrong: 0 · stayed right: 1 · stayed wrong: 0." in told
    assert "Normalized gain (after − before) / (1 − before): 1.00." in told

    clock.advance(HOUR)
    # Right herself, Kirra reads a reason for the most chosen wrong answer, and one for hers
    read = await reasons_read(lesson, kirra, card, RIGHT, "Only code can be checked by a test")
    reads(lesson, read, (heading(DATA), by_jonah), (heading(RIGHT), by_ines))
    assert not any(name in read.text.lower() for name in ("ines", "jonah"))
    told = await answer_again(lesson, kirra, read, DATA)
    assert f"You changed your answer to {lesson.bold(LABEL[DATA])}" in told
    assert f"So far: {TITLE} (3 answered)" in told
    assert f"2 (67%) {LABEL[RIGHT]} ✅" in told and f"1 (33%) {LABEL[DATA]}" in told
    assert "Right: 67% at the first answer → 67% after discussion, among the 3 who" in told
    assert "Wrong → right: 1 · right → wrong: 1 · stayed right: 1 · stayed wrong: 0." in told
    assert "Normalized gain (after − before) / (1 − before): 0.00." in told
    assert len(lesson.posts()) == 1  # the channel shows the card, and nothing members did


def assert_inert(lesson: Platform, post: Post, reason: str) -> None:
    """The post shows `reason` as typed, where it can ping no one, format nothing, unfurl nothing.

    Discord: in an embed (no notification reads it) with markdown escaped, and the message
    allows no mentions at all. Slack: in a plain_text block, out of the notification text,
    with link and media previews off.
    """
    if isinstance(lesson, DiscordPlatform):
        assert isinstance(post, DiscordPost)
        asked = lesson.fake.posted_by[int(post.message["id"])].body
        assert asked["allowed_mentions"] == {"parse": []}
        assert "everyone" not in str(asked.get("content") or "")
        shown = [e.get("description") for e in asked["embeds"]]
        assert any(lesson.literally(str(text), reason) for text in shown), shown
        assert reason not in shown  # its markdown was escaped
        return
    assert isinstance(lesson, SlackPlatform) and isinstance(post, SlackPost)
    args = post.call.args
    assert args["unfurl_links"] is False and args["unfurl_media"] is False
    assert not any(word in str(args["text"]) for word in ("everyone", "example.com", "!channel"))
    holding = [b for b in post.blocks if "example.com" in str(b)]
    assert holding == [
        {"type": "section", "text": {"type": "plain_text", "text": reason, "emoji": False}}
    ]


async def test_a_loud_reason_in_the_thread_is_inert_and_only_a_host_can_hide_it(
    lesson: Platform,
) -> None:
    ann, ben, cy, dee = (lesson.member(name) for name in ("Ann", "Ben", "Cy", "Dee"))
    question = await lesson.reach(ROUND.id)
    for member, choice in ((ann, RIGHT), (ben, RIGHT), (cy, DATA), (dee, DATA)):
        await choose(lesson, member, question, choice)
    await say_why(lesson, ann, question, LOUD)
    second = await reveal(lesson, SPLIT)
    loud, *_ = await thread_of(lesson, second, 2)
    assert heading(RIGHT) in loud.text
    assert_inert(lesson, loud, LOUD)

    hide = loud.button("Hide", action="hide")
    refused = await lesson.press(cy, loud, hide)
    assert refused.private and "Only a lesson host can hide a reason." in refused.text
    assert lesson.edits(loud) == [] and shows_as_typed(lesson, loud.text, LOUD)  # as it was
    hidden = await lesson.press(lesson.host, loud, hide)  # from the thread, as posted
    assert hidden.private and hidden.text == HIDDEN
    redrawn = await lesson.wait(  # the post itself now says it was hidden, with no Hide
        lambda: next((p for p in lesson.thread_posts(second) if HIDDEN_POST in p.text), None),
        what="the reason's post redrawn as hidden",
    )
    assert "example.com" not in redrawn.text and not redrawn.buttons
    assert len(lesson.thread_posts(second)) == 2 and lesson.missing_edits() == []


async def test_a_hidden_reason_is_never_shown_to_a_later_member_and_a_members_hide_is_refused(
    lesson: Platform, clock: FakeClock
) -> None:
    card = await assign(lesson)
    ines, jonah, kirra, lior = (lesson.member(n) for n in ("Ines", "Jonah", "Kirra", "Lior"))
    read = await reasons_read(lesson, ines, card, RIGHT, LOUD)
    await answer_again(lesson, ines, read, RIGHT)

    clock.advance(HOUR)
    by_jonah = "Hardly anyone publishes eulogies"
    read = await reasons_read(lesson, jonah, card, DATA, by_jonah)
    reads(lesson, read, (heading(RIGHT), LOUD), (heading(DATA, True), AUTHOR[DATA]))
    if isinstance(lesson, SlackPlatform):  # in the member's direct message with the app
        assert_inert(lesson, read, LOUD)

    # An assignment's reasons are shown only privately: hosts list them and hide one by number
    listed = await lesson.ask("reasons")
    assert listed.private and "Reasons given in run" in listed.text
    number = reason_number(listed.text, by_jonah)
    assert number != reason_number(listed.text, "example.com")
    assert "Jonah" not in listed.text and "Ines" not in listed.text
    loud = reason_number(listed.text, "example.com")
    refused = await hide_by_number(lesson, jonah, loud)
    assert refused.private and "Only a lesson host can hide a reason." in refused.text
    missing = await hide_by_number(lesson, lesson.host, 999)
    assert missing.private and "no reason number 999" in missing.text
    clock.advance(HOUR)
    read = await reasons_read(lesson, kirra, card, EASIER, "Contest problems have one goal")
    reads(lesson, read, (heading(RIGHT), LOUD), (heading(EASIER, True), AUTHOR[EASIER]))

    hidden = await hide_by_number(lesson, lesson.host, loud)
    assert hidden.private and f"reason {loud} will not be shown" in hidden.text
    assert f"{loud}. for" in (relisted := (await lesson.ask("reasons")).text)
    assert "hidden" in relisted.split(f"{loud}. for", 1)[1].split("\n", 1)[0]
    clock.advance(HOUR)
    read = await reasons_read(lesson, lior, card, DATA, "Eulogies are rare on the web")
    reads(lesson, read, (heading(RIGHT, True), AUTHOR[RIGHT]), (heading(DATA), by_jonah))
    assert "example.com" not in read.text and "everyone" not in read.text


async def test_forget_me_takes_a_members_reason_out_of_the_discussion(lesson: Platform) -> None:
    ann, ben, cy, dee = (lesson.member(name) for name in ("Ann", "Ben", "Cy", "Dee"))
    question = await lesson.reach(ROUND.id)
    for member, choice in ((ann, RIGHT), (ben, RIGHT), (cy, DATA), (dee, DATA)):
        await choose(lesson, member, question, choice)
    forgotten = "Code is graded by its tests, a eulogy by nobody"
    await say_why(lesson, ann, question, forgotten)
    assert forgotten in (await lesson.ask("reasons")).text

    gone = await lesson.reply(await lesson.forget_me(ann))
    assert gone.private and "1 reason" in gone.text, gone.text
    assert "No reasons have been given" in (await lesson.ask("reasons")).text

    second = await reveal(lesson, SPLIT)  # Ann's answer went too: 1 of 3 right, still split
    thread = await thread_of(lesson, second, 2)
    (for_right,) = [post for post in thread if heading(RIGHT, by_author=True) in post.text]
    assert AUTHOR[RIGHT] in for_right.text
    assert all(forgotten not in post.text for post in thread)


KEPT = "Kept your reason: it goes with the answer you choose."


async def reason_first(lesson: Platform, member: Person, post: Post, reason: str) -> None:
    """A member sends a reason before choosing: it is kept, and they are told so."""
    reply = await lesson.give_reason(member, post, reason)
    assert reply.private and KEPT in reply.text, reply.text


async def test_a_reason_sent_before_choosing_is_kept_for_the_answer_then_chosen(
    lesson: Platform,
) -> None:
    ann, ben, cy, dee, eve = (lesson.member(n) for n in ("Ann", "Ben", "Cy", "Dee", "Eve"))
    question = await lesson.reach(ROUND.id)
    by_cy = "There is far more code than eulogies online"
    by_dee = "Feelings are what the **model** lacks"
    by_eve = "Nobody grades a eulogy so it must be easier"
    for member, reason in ((cy, by_cy), (dee, by_dee), (eve, by_eve)):
        await reason_first(lesson, member, question, reason)
    listed = await lesson.ask("reasons")
    assert lesson.literally(listed.text, by_dee), listed.text
    assert "for “the answer they choose” (first answer, shown 0×)" in listed.text
    hidden = await hide_by_number(lesson, lesson.host, reason_number(listed.text, "Feelings"))
    assert hidden.private and "will not be shown" in hidden.text

    for member, choice in ((ann, RIGHT), (ben, RIGHT), (cy, DATA), (dee, FEELINGS)):
        await choose(lesson, member, question, choice)
    second = await reveal(lesson, SPLIT)  # Eve never answered: her reason argues for nothing
    thread = await thread_of(lesson, second, 3)
    (for_data,) = [post for post in thread if heading(DATA) in post.text]
    assert shows_as_typed(lesson, for_data.text, by_cy)
    (for_feelings,) = [post for post in thread if heading(FEELINGS, by_author=True) in post.text]
    assert AUTHOR[FEELINGS] in for_feelings.text  # Dee's reason stayed hidden
    assert not any("Feelings are" in post.text or "Nobody grades" in post.text for post in thread)


async def moved_on(lesson: Platform, member: Person, post: Post) -> list[str]:
    """The member presses their own Next on `post`: what they were told and then shown."""
    shown = len(lesson.own_posts(member))
    sent = await lesson.click(member, post, post.button("Next", action="onward"))
    later = await lesson.own_step_after(member, shown)
    assert later.step == LESSON.steps[LESSON.steps.index(ROUND) + 1].id
    return [*(reply.text for reply in lesson.told_in_answer(sent)), later.text]


async def test_a_member_who_moves_on_before_a_turn_is_told_their_first_answer_counts(
    lesson: Platform,
) -> None:
    card = await assign(lesson)
    ines, jonah = lesson.member("Ines"), lesson.member("Jonah")
    await choose(lesson, ines, await own_round(lesson, ines, card), DATA)
    ask = await own_shows(lesson, ines, "Write one sentence")
    said = await moved_on(lesson, ines, ask)
    assert any("No reason, so you do not read others' reasons" in text for text in said), said

    read = await reasons_read(lesson, jonah, card, DATA, "There is not enough data for it")
    said = await moved_on(lesson, jonah, read)
    assert any("You did not answer again. Your first answer is counted" in text
               for text in said), said
    progress = await lesson.ask("progress")
    assert "2 started" in progress.text
