"""Play mode answers every kind of unusable input and ends by itself on endless input."""

from __future__ import annotations

import io
import itertools
import re
import sqlite3
import time
from pathlib import Path

import pytest

from bot.engine import LessonEngine
from bot.play.assigned import AssignedPlaySession
from bot.play.console import Console
from bot.play.markup import ansi, plain
from bot.play.session import RATE_THE_REST, UNRATED, PlayOptions, PlaySession
from lessons.loader import LESSON_DIR, load_lesson_file
from lessons.schema import FreeAnswerStep, PredictionStep, VerifierStep
from tests.chart_descriptions import png_description
from tests.play.test_play_mode import play, scripted_answers

STEPS = load_lesson_file(LESSON_DIR / "rlvr.yaml").steps
VERIFIER, VERIFIER_NEXT = next(
    (step, after) for step, after in itertools.pairwise(STEPS) if isinstance(step, VerifierStep)
)
ENDLESS_LINES = 100_000
DEADLINE = 60.0
LEFTOVER_MARKDOWN = re.compile(r"\*\*|(?<![\w*])\*[^\s*]")


def flat(text: str) -> str:
    """Printed text with its line wrapping undone."""
    return " ".join(text.split())


def your_tries(database: Path) -> int:
    """How many free-answer tries the local player made."""
    with sqlite3.connect(database) as db:
        query = ("select count(*) from free_answers where member_id = "
                 "(select id from members where user_id = 'you')")
        return int(db.execute(query).fetchone()[0])


def bad_then_good_answers() -> str:
    """Unusable input at every kind of prompt, each followed by what the prompt takes."""
    lines: list[str] = []
    for step in load_lesson_file(LESSON_DIR / "rlvr.yaml").steps:
        if isinstance(step, PredictionStep):
            lines += ["0", "two", ""]
        elif isinstance(step, VerifierStep):
            lines += [line for _ in step.attempts for line in ("maybe", "UP")]
        elif isinstance(step, FreeAnswerStep):
            lines += ["9" * 201, step.gold]
        lines += ["next please", ""]
    return "\n".join(lines) + "\n"


def test_endless_input_ends_by_itself_within_a_minute(tmp_path: Path) -> None:
    started = time.monotonic()
    result = play(tmp_path, "1\n" * ENDLESS_LINES, "--classmates", "12")
    assert time.monotonic() - started < DEADLINE
    assert result.returncode == 0, result.stderr
    assert "13 members took part." in result.stdout
    assert "That was your last try." in flat(result.stdout)
    assert "You have used your" not in result.stdout
    assert your_tries(tmp_path / "play.db") == 5


def test_unusable_input_is_answered_and_asked_again_at_every_prompt(tmp_path: Path) -> None:
    result = play(tmp_path, bad_then_good_answers(), "--classmates", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Your prediction [1-4, Enter to skip]: 0\n'0' is not an answer here. Type a number " \
           "from 1 to 4, or press Enter to skip." in out
    assert "'two' is not an answer here." in out
    assert "thumbs up or down? [u/d, Enter to skip] maybe\n'maybe' is not an answer here. " \
           "Type u (up) or d (down), or press Enter to skip." in out
    assert "Type an answer of 1 to 200 characters." in out
    assert "Try 1:" in out and "Reward 1 ✅" in out
    assert "'next please' is not an answer here. Press Enter to go on, or type q to stop." in out
    assert "3 members took part." in out
    assert "Skipped" not in out
    assert your_tries(tmp_path / "play.db") == 1


def test_play_shows_only_what_is_true_there_and_no_raw_markdown(tmp_path: Path) -> None:
    result = play(tmp_path, "1\n" * 200, "--classmates", "12")
    out = flat(result.stdout)
    assert "You chose" in out
    assert "until the reveal" not in out
    assert "attempts left to rate" not in out  # ratings skipped: no refusal to rate them first
    assert f"{RATE_THE_REST} " in out and f"{UNRATED} " in out
    assert LEFTOVER_MARKDOWN.search(out) is None, LEFTOVER_MARKDOWN.search(out)
    assert "12 simulated classmates answer too. They are not real people" in out
    assert "follow the weights the lesson's author set" in out
    assert "real tally" not in out
    assert "Counted here: your answers and those of 12 simulated classmates" in out


async def verifier_step(engine: LessonEngine, *, assigned: bool, ratings: list[str]) -> str:
    """What play printed at the verifier step, with `ratings` typed at its prompts."""
    out = io.StringIO()
    console = Console(io.StringIO(scripted_answers(ratings)), out)
    kind = AssignedPlaySession if assigned else PlaySession
    await kind(engine, console, PlayOptions(seed=3, classmates=2)).run()
    text = flat(out.getvalue())
    start = text.lower().index(VERIFIER.title.lower())
    return text[start:text.lower().index(VERIFIER_NEXT.title.lower(), start)]


@pytest.mark.parametrize("assigned", [False, True], ids=["live", "assigned"])
async def test_ratings_skipped_are_asked_again_before_the_step_goes_on(
    engine: LessonEngine, assigned: bool
) -> None:
    thumbs = ["u" if a.style == "flattering" else "d" for a in VERIFIER.attempts]
    ratings = ["", "", *thumbs[2:], *thumbs[:2]]  # the first two skipped, rated when asked again
    step = await verifier_step(engine, assigned=assigned, ratings=ratings)
    asked_again = step.split(RATE_THE_REST, 1)[1]
    for attempt in VERIFIER.attempts[:2]:
        assert f"{attempt.label}: thumbs up or down? [u/d, Enter to skip]" in asked_again
    assert all(f"Checker on {a.label}" in asked_again for a in VERIFIER.attempts)
    assert UNRATED not in step


@pytest.mark.parametrize("assigned", [False, True], ids=["live", "assigned"])
async def test_ratings_skipped_twice_say_the_step_goes_on_without_the_checker(
    engine: LessonEngine, assigned: bool
) -> None:
    step = await verifier_step(engine, assigned=assigned, ratings=["d"] + [""] * 6)
    assert step.count(RATE_THE_REST) == 1 and step.count(UNRATED) == 1
    after = step.split(UNRATED, 1)[1]
    assert "thumbs up or down?" not in after and "Checker on" not in after
    assert "opens once you have rated all" not in after


def test_charts_are_written_as_png_files(tmp_path: Path) -> None:
    result = play(tmp_path, "", "--classmates", "3", "--charts", "charts")
    assert result.returncode == 0, result.stderr
    charts = sorted((tmp_path / "charts").iterdir())
    assert len(charts) >= 3
    assert all(re.fullmatch(r"\d\d-[a-z0-9-]+\.png", path.name) for path in charts)
    assert all(path.read_bytes().startswith(b"\x89PNG") for path in charts)
    assert f"Chart saved: charts/{charts[0].name}" in result.stdout
    assert f"{len(charts)} charts saved as PNG in charts/" in result.stdout
    descriptions = {path.name: png_description(path.read_bytes()) for path in charts}
    assert all(text.startswith(("Bar chart: ", "Line chart: ")) for text in descriptions.values())
    first = next(text for name, text in descriptions.items()
                 if name.endswith("-what-changed-results.png"))
    step = next(s for s in load_lesson_file(LESSON_DIR / "rlvr.yaml").steps
                if isinstance(s, PredictionStep))
    for choice in step.choices:
        shown = re.search(rf"(\d+) \((\d+%)\) {re.escape(choice.label)}", result.stdout)
        assert shown is not None
        count, share = shown.groups()
        assert re.search(rf"{re.escape(choice.label)}[^:]*: {count} of \d+ \({share}\)", first)


async def test_a_choice_is_asked_again_and_skipped_after_three_unusable_answers() -> None:
    out = io.StringIO()
    console = Console(io.StringIO("x\nDown\n1\n2\n3\n"), out)
    assert await console.ask_choice("Rate it", {"u": "up", "d": "down"}) == "d"
    assert await console.ask_choice("Rate it", {"u": "up", "d": "down"}) == ""
    shown = out.getvalue()
    assert shown.count("is not an answer here. Type u (up) or d (down)") == 4
    assert "Skipped after 3 answers that could not be used." in shown


def test_markdown_is_drawn_on_a_terminal_and_stripped_elsewhere() -> None:
    text = "**Bold** and *italic*, 2 * 3 and `code`."
    assert plain(text) == "Bold and italic, 2 * 3 and code."
    assert ansi(text) == "\x1b[1mBold\x1b[22m and \x1b[3mitalic\x1b[23m, 2 * 3 and code."
    out = io.StringIO()
    Console(io.StringIO(), out, styled=True).show(text)
    assert out.getvalue() == ansi(text) + "\n"
