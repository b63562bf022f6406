"""Every post of a whole lesson reads in under half a minute: its main text is 120 words at most.

A whole live run and a whole assigned run, in English and in Spanish, go through the service
and the presenter every platform uses; a dozen members answer, split on the peer round and
discuss it. Each post the channel (or a member, privately) is shown is read as a platform
draws it: its title, text, sections, tally lines, notes and explanation. What waits behind a
More button is not part of a post until a member asks for it.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pytest

from bot.engine import LessonEngine, OwnStep, bar_lines, verifier_lines
from bot.i18n import speaking
from bot.model import ReasonCard, RevealCard, StepCard, SummaryCard
from bot.model.written import word_count
from bot.play.assigned import AssignedPlaySession
from bot.play.console import Console
from bot.play.session import PlayOptions, PlaySession
from bot.service import Card, DrawnChart, Outcome
from bot.service.assignments import card_lines, card_title
from tests.play.test_play_mode import scripted_answers
from tests.seen import seen_in

MAX_POST_WORDS = 120
"""Words a post's main text may have: about 30 seconds of reading at 240 words a minute."""


def step_text(card: StepCard) -> list[str]:
    """A step as a platform draws it: its title, body and sections."""
    return [card.title, card.body, *(f"{s.heading}\n{s.text}" for s in card.sections)]


def reveal_text(card: RevealCard) -> list[str]:
    """A question's results: title, count, bars, the checker's table, notes and explanation."""
    tally = [*bar_lines(card.bars), *verifier_lines(card.rows), *card.notes]
    return [card.title, f"{card.answered}", *tally, card.explanation]


def main_text(post: Card | OwnStep) -> str:
    """What a member reads of a post without pressing More."""
    if isinstance(post, OwnStep):
        if post.so_far is not None:  # the step redrawn after an answer: what it adds
            return "\n".join([post.text, *reveal_text(post.so_far)[:-1]])
        if answered_verifier(post):  # rated, not yet checked: the receipt is what it adds
            return post.text
        return "\n".join([post.text, *(step_text(post.card) if post.card else [])])
    if isinstance(post, StepCard):
        return "\n".join(step_text(post))
    if isinstance(post, RevealCard):
        return "\n".join(reveal_text(post))
    if isinstance(post, SummaryCard):
        return "\n".join([post.title, *post.lines])
    if isinstance(post, ReasonCard):
        return f"{post.heading}\n{post.shown_text}"
    return "\n".join([card_title(post), *card_lines(post)])


@dataclass
class Posts:
    """Everything a run showed: channel posts, thread posts, and the player's own steps."""

    shown: list[Card | OwnStep] = field(default_factory=list)
    language: str = "en"
    """The run's language, which a platform draws the posts' tallies in."""

    def long(self) -> list[tuple[int, str]]:
        """Each post above the limit: its words, and how it begins."""
        with speaking(self.language):
            counted = [(word_count(main_text(post)), main_text(post)) for post in self.shown]
        return [(words, text[:60]) for words, text in counted if words > MAX_POST_WORDS]

    def only(self, which: Callable[[Card | OwnStep], bool]) -> Posts:
        """The posts `which` holds for."""
        return Posts([post for post in self.shown if which(post)], self.language)

    def without(self, which: Callable[[Card | OwnStep], bool]) -> Posts:
        """The posts `which` does not hold for."""
        return Posts([post for post in self.shown if not which(post)], self.language)

    def kinds(self) -> set[str]:
        """The kinds of post shown."""
        return {type(post).__name__ for post in self.shown}


def recorded(session: PlaySession) -> Posts:
    """Note every post the session's presenter makes, and every own step shown to the player."""
    posts = Posts()
    surface, service = session.surface, session.service
    post, in_thread = surface.post, surface.post_in_thread

    async def posting(channel: str, card: Card, chart: DrawnChart | None) -> str | None:
        posts.shown.append(card)
        return await post(channel, card, chart)

    async def threading(
        channel: str, under: str, title: str, card: Card, chart: DrawnChart | None
    ) -> str | None:
        posts.shown.append(card)
        return await in_thread(channel, under, title, card, chart)

    surface.post, surface.post_in_thread = posting, threading  # type: ignore[method-assign]
    for name in ("click", "answer", "command"):
        setattr(service, name, own_steps_noted(getattr(service, name), session, posts))
    return posts


def own_steps_noted(method: object, session: PlaySession, posts: Posts) -> object:
    """A service method that also notes the own step it shows the player."""

    async def noting(actor: object, *args: object) -> Outcome:
        outcome: Outcome = await method(actor, *args)  # type: ignore[operator]
        if actor == session.you:
            shown = seen_in(outcome.effects)
            posts.shown += [own for own in (shown.own, shown.answered) if own is not None]
        return outcome

    return noting


async def played(engine: LessonEngine, language: str, assigned: bool) -> Posts:
    """A whole run played by the player and a dozen members, every post noted."""
    options = PlayOptions(seed=3, classmates=12, language=language)
    kind = AssignedPlaySession if assigned else PlaySession
    with speaking(language):
        session = kind(engine, Console(io.StringIO(scripted_answers()), io.StringIO()), options)
        posts = recorded(session)
        await session.run()
    posts.language = language
    return posts


@pytest.mark.parametrize("language", ["en", "es"])
async def test_every_post_of_a_live_run_reads_in_half_a_minute(
    engine: LessonEngine, language: str
) -> None:
    posts = await played(engine, language, assigned=False)
    assert {"StepCard", "RevealCard", "ReasonCard", "SummaryCard"} <= posts.kinds()
    assert any(isinstance(p, StepCard) and p.vote == 2 for p in posts.shown), "no discussion"
    assert posts.long() == []


@pytest.mark.parametrize("language", ["en", "es"])
async def test_every_channel_post_and_step_of_an_assigned_run_reads_in_half_a_minute(
    engine: LessonEngine, language: str
) -> None:
    posts = await played(engine, language, assigned=True)
    assert {"AssignmentCard", "OwnStep", "RevealCard", "SummaryCard"} <= posts.kinds()
    assert posts.without(answered_verifier).long() == []


@pytest.mark.parametrize("language", ["en", "es"])
async def test_an_assigned_verifier_step_redrawn_after_an_answer_reads_in_half_a_minute(
    engine: LessonEngine, language: str
) -> None:
    posts = await played(engine, language, assigned=True)
    assert posts.only(answered_verifier).long() == []


def answered_verifier(post: Card | OwnStep) -> bool:
    """A member's own verifier step redrawn after they rated or checked an attempt (with the
    receipt on top; with the tally so far too, once they ran the checker)."""
    card = post.card if isinstance(post, OwnStep) else None
    return isinstance(post, OwnStep) and card is not None and card.kind == "verifier" and (
        bool(post.text) or post.so_far is not None)


def test_a_post_one_word_above_the_limit_is_found_and_more_is_not_counted() -> None:
    at_limit = StepCard(1, "intro", "narration", 1, 2, "Title", "word " * (MAX_POST_WORDS - 1))
    above = replace(at_limit, title="Two words")
    assert Posts([at_limit]).long() == []
    assert [words for words, _ in Posts([above]).long()] == [MAX_POST_WORDS + 1]
