"""Play mode plays the peer round, live and assigned: you and the simulated classmates answer,
give reasons, read reasons and answer again; the shift the simulation produced is labelled."""

from __future__ import annotations

import io
import random
import re

from bot.engine import LessonEngine
from bot.model import Place
from bot.play.assigned import AssignedPlaySession
from bot.play.classmates import Classmates, make_classmates, switch_assumption
from bot.play.console import Console
from bot.play.markup import plain
from bot.play.session import PlayOptions, PlaySession
from lessons.loader import load_lesson
from lessons.schema import PeerRoundStep
from tests.play.test_play_mode import PLAYERS_REASON, scripted_answers

LESSON = load_lesson("rlvr")
ROUND = LESSON.step_by_id("code-vs-eulogy")
assert isinstance(ROUND, PeerRoundStep)
ROUND_NUMBER = [s.id for s in LESSON.steps].index(ROUND.id) + 1
ROUND_HEADER = f"── Step {ROUND_NUMBER} of "
AFTER_ROUND = f"── Step {ROUND_NUMBER + 1} of "
RIGHT = ROUND.correct_choice
WHY_PROMPT = "Why this answer? One sentence [Enter to skip]:"
NEEDED_PROMPT = "Why this answer? One sentence [needed to go on]:"
NEEDED = "A reason is needed here before you go on: write one sentence."
NO_REASON = (
    "No reason, so you do not read others' reasons or answer again here. Your first answer is "
    "counted; the results at the close show this question."
)
NOT_AGAIN = (
    "You did not answer again. Your first answer is counted; the results at the close show "
    "this question."
)
SIMULATED = 12
SEED = 7
"""A seed whose first answers are split (inside the band), so the live round discusses."""
SHIFT = re.compile(
    r"Simulated classmates only \(not real people\): (\d+) of (\d+) right at the first answer "
    r"→ (\d+) of (\d+) after reading reasons\."
)


def flat(text: str) -> str:
    """Printed text with its line wrapping undone."""
    return " ".join(text.split())


async def played(
    engine: LessonEngine, assigned: bool, seed: int = SEED, answers: str | None = None
) -> tuple[str, int]:
    """A whole session from scripted answers: what it printed, and its run's id."""
    out = io.StringIO()
    console = Console(io.StringIO(answers or scripted_answers()), out)
    options = PlayOptions(seed=seed, classmates=SIMULATED, assigned=assigned)
    kind = AssignedPlaySession if assigned else PlaySession
    session = kind(engine, console, options)
    await session.run()
    assert session.surface.run_id is not None
    return out.getvalue(), session.surface.run_id


def the_round(out: str) -> str:
    """What play printed at the peer round, from its question to the next step."""
    start = out.index(ROUND.title.upper())
    return out[start:out.index(AFTER_ROUND, start)]


async def stored_shift(engine: LessonEngine, run_id: int) -> tuple[int, int, int]:
    """From the stored answers: classmates who answered twice, right before, right after."""
    answers = await engine.store.export_answers(run_id)
    mine = [a for a in answers if a.step_id == ROUND.id and a.user_id.startswith("sim-")]
    first = {a.user_id: a.value for a in mine if a.kind == "choice"}
    second = {a.user_id: a.value for a in mine if a.kind == "choice-again"}
    both = first.keys() & second.keys()
    return (
        len(both),
        sum(first[user] == RIGHT.id for user in both),
        sum(second[user] == RIGHT.id for user in both),
    )


async def stored_reasons(engine: LessonEngine, run_id: int) -> dict[str, str]:
    """Each member's stored reason at the round, by user id."""
    answers = await engine.store.export_answers(run_id)
    return {a.user_id: a.reason for a in answers if a.step_id == ROUND.id and a.kind == "reason"}


def shown_shift(text: str) -> tuple[int, int, int]:
    found = SHIFT.search(flat(text))
    assert found is not None, text
    before, both, after, again = map(int, found.groups())
    assert both == again
    return both, before, after


def assert_reasons_from_the_pool(reasons: dict[str, str]) -> None:
    pools = {reason for choice in ROUND.choices for reason in choice.crowd_pool}
    assert reasons.pop("you") == PLAYERS_REASON
    assert len(reasons) == SIMULATED and set(reasons.values()) <= pools


async def test_live_play_discusses_a_split_round_and_shows_the_simulated_shift(
    engine: LessonEngine,
) -> None:
    out, run_id = await played(engine, assigned=False)
    shown = the_round(out)
    text = flat(shown)
    asked = text.index("Your answer [1-4, Enter to skip]: 1")
    why = text.index(f"{WHY_PROMPT} {PLAYERS_REASON}")
    split = text.index("The channel is split.")
    thread = text.index("Thread: Why? Contest coder, so-so eulogist")
    again = text.index("Your answer now [1-4, Enter to skip]: 1")
    results = text.index("Results: Contest coder, so-so eulogist")
    assert asked < why < split < thread < again < results
    assert "Your reason is saved." in text[why:split]
    assert "this channel's first answers (13 answered):" in text[split:thread]
    assert "A simulation: the members' reasons here are the simulated classmates' or yours." \
        in text[thread:again]
    assert text[thread:again].count("[A member, for “") == 2
    assert f"[Your reason, for “{RIGHT.label}”] {PLAYERS_REASON}" in text[thread:again]
    assert "You kept your answer" in text[again:results]
    # Nothing before the results marks the answer or explains it.
    explained = plain(ROUND.explanation).split(".")[0]
    assert "<- right" not in text[:results] and explained not in text[:results]
    assert explained in text[results:]

    outcome = text[results:]
    assert "13 answered (12 simulated)." in outcome and "<- right" in outcome
    assert flat(switch_assumption(ROUND.switch or 0)) in outcome
    assert shown_shift(outcome) == await stored_shift(engine, run_id)
    assert shown_shift(outcome)[0] == SIMULATED
    assert_reasons_from_the_pool(await stored_reasons(engine, run_id))


async def test_live_play_says_to_read_the_reasons_at_the_split(engine: LessonEngine) -> None:
    text = flat(the_round((await played(engine, assigned=False))[0]))
    split = text.index("The channel is split. The answer stays hidden for now.")
    assert text.index(
        "Read the reasons in the thread, then answer again: keep your answer or change it."
    ) == split + len("The channel is split. The answer stays hidden for now. ")
    assert "Convince" not in text


async def test_live_play_prints_the_rounds_header_once(engine: LessonEngine) -> None:
    out, _ = await played(engine, assigned=False)
    text = flat(the_round(out))
    assert flat(out).count(ROUND_HEADER) == 1  # the second vote goes on under the same header
    assert text.count(ROUND.title.upper()) == 1
    split = text.index("The channel is split.")
    thread = text.index("Thread: ")
    assert plain(ROUND.body).split(",")[0] not in text[split:thread]  # nor the question again
    assert "this channel's first answers (13 answered):" in text[split:thread]


async def test_play_names_no_button_for_a_reason_and_asks_for_it_once(
    engine: LessonEngine,
) -> None:
    for assigned in (False, True):
        text = flat(the_round((await played(engine, assigned))[0]))
        chose = text.index(f"You chose {RIGHT.label}.")
        asked = text.index("Why this answer? One sentence [", chose)
        assert text[chose:asked] == f"You chose {RIGHT.label}. "  # nothing in between
        assert "Add a reason" not in text and "💬" not in text
        assert text.count("Why this answer?") == 1


async def test_assigned_play_asks_a_reason_shows_two_and_answers_again(
    engine: LessonEngine,
) -> None:
    out, run_id = await played(engine, assigned=True)
    text = flat(the_round(out))
    assert WHY_PROMPT not in text and "Enter to skip]: A program" not in text
    why = text.index(f"{NEEDED_PROMPT} {PLAYERS_REASON}")
    read = text.index("Read two reasons from others, then answer again")
    again = text.index("Your answer now [1-4, Enter to skip]: 1")
    so_far = text.index("So far: Contest coder, so-so eulogist (13 answered)")
    assert why < read < again < so_far
    reading = text[read:again]
    assert "A simulation: the members' reasons here are the simulated classmates'." in reading
    headings = re.findall(r"\[A member, for “(.+?)”\]", reading)
    assert len(headings) == 2 and headings[0] != RIGHT.label  # another choice's case first,
    assert headings[1] == RIGHT.label  # then one for yours (the right one)
    assert "<- right" not in text[:so_far]

    stored = await stored_shift(engine, run_id)
    assert shown_shift(text[so_far:]) == stored and stored[0] == SIMULATED
    closed = flat(out[out.index("Closed. The results are posted"):])
    results = closed[closed.index("Results: Contest coder, so-so eulogist"):]
    assert shown_shift(results) == stored
    assert_reasons_from_the_pool(await stored_reasons(engine, run_id))


async def test_assigned_play_asks_once_more_for_a_reason_left_out(engine: LessonEngine) -> None:
    skipped_once = scripted_answers().replace(f"{PLAYERS_REASON}\n", f"\n{PLAYERS_REASON}\n")
    out, run_id = await played(engine, assigned=True, answers=skipped_once)
    text = flat(the_round(out))
    skipped = text.index(f"{NEEDED_PROMPT} {NEEDED}")
    assert skipped < text.index(f"{NEEDED_PROMPT} {PLAYERS_REASON}")
    assert "Your answer now [1-4, Enter to skip]: 1" in text
    assert (await stored_reasons(engine, run_id))["you"] == PLAYERS_REASON


def closed_round(out: str) -> str:
    """The round's results in the closed assignment's results."""
    closed = out[out.index("Closed. The results are posted"):]
    start = closed.index(f"── Results: {ROUND.title}")
    end = closed.find("\n── ", start)
    return flat(closed[start:] if end < 0 else closed[start:end])


async def test_assigned_play_without_a_reason_says_so_and_counts_the_first_answer(
    engine: LessonEngine,
) -> None:
    no_reason = scripted_answers().replace(f"{PLAYERS_REASON}\n1\n", "\n\n\n")
    out, run_id = await played(engine, assigned=True, answers=no_reason)
    text = flat(the_round(out))
    asked = text.index(f"{NEEDED_PROMPT} {NEEDED}")
    told = text.index(NO_REASON)
    assert asked < text.index("Skipped after 3 answers that could not be used.") < told
    assert text.count(NEEDED_PROMPT) == 3
    assert "Read two reasons" not in text and "Your answer now" not in text
    answers = await engine.store.export_answers(run_id)
    mine = [(a.kind, a.value) for a in answers if a.step_id == ROUND.id and a.user_id == "you"]
    assert mine == [("choice", RIGHT.id)]
    results = closed_round(out)
    assert "13 answered" in results
    assert "1 answered only the first time and 0 only the second" in results


async def test_assigned_play_without_a_second_answer_says_so(engine: LessonEngine) -> None:
    not_again = scripted_answers().replace(f"{PLAYERS_REASON}\n1\n", f"{PLAYERS_REASON}\n\n")
    out, _run_id = await played(engine, assigned=True, answers=not_again)
    text = flat(the_round(out))
    assert text.index("Your answer now [1-4, Enter to skip]: ") < text.index(NOT_AGAIN)
    assert "1 answered only the first time" in closed_round(out)


async def test_a_seed_plays_the_round_the_same_way_again(engine: LessonEngine) -> None:
    for assigned in (False, True):
        rounds = [the_round((await played(engine, assigned, seed=11))[0]) for _ in range(2)]
        assert rounds[0] == rounds[1]
        assert "Your answer now" in rounds[0]


def test_one_who_was_wrong_switches_by_the_lessons_chance_once_it_read_the_right_case() -> None:
    crowd = ROUND.crowd()
    assert crowd.switch == ROUND.switch == 0.4
    wrong = next(choice for choice in ROUND.choices if not choice.correct)
    members = make_classmates(4000, Place("terminal", "local", "test"))
    classmates = Classmates(None, members, random.Random(1))  # type: ignore[arg-type]
    for member in members:
        classmates.chosen[member.user_id, ROUND.id] = wrong.id
    switched = sum(
        classmates.choose_again(member, ROUND.id, crowd, [RIGHT.id, wrong.id]) == RIGHT
        for member in members
    ) / len(members)
    assert abs(switched - ROUND.switch) < 0.04
    unread = {classmates.choose_again(m, ROUND.id, crowd, [wrong.id]).id for m in members}
    assert unread == {wrong.id}
    for member in members:
        classmates.chosen[member.user_id, ROUND.id] = RIGHT.id
    kept = {classmates.choose_again(m, ROUND.id, crowd, [RIGHT.id, wrong.id]).id for m in members}
    assert kept == {RIGHT.id}
