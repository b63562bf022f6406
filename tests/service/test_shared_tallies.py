"""Replies shown together share one drawing of a question's tally so far."""

from __future__ import annotations

import asyncio

from bot.i18n import speaking
from bot.model import RevealCard
from bot.model.views import Chart, Series
from bot.service.presenter import SharedTallies
from bot.service.surface import DrawnChart


def tally(answered: int, run_id: int = 1, step_id: str = "q1") -> RevealCard:
    """A question's tally so far, read when `answered` members had answered."""
    chart = Chart(f"{answered} answered", ("A", "B"), (Series("now", (50.0, 50.0)),))
    return RevealCard(run_id, step_id, "So far", "", answered, chart=chart)


class Drawing:
    """Draws charts one at a time, as the presenter does, and counts the drawings."""

    def __init__(self) -> None:
        self.drawn: list[str] = []
        self.gate = asyncio.Event()

    async def __call__(self, chart: object) -> DrawnChart:
        """The chart as a PNG, once the gate opens."""
        await self.gate.wait()
        assert isinstance(chart, Chart)
        self.drawn.append(chart.title)
        return DrawnChart(b"png", chart.title, chart.title)


async def test_replies_waiting_together_take_the_newest_tally_drawn_once() -> None:
    drawing = Drawing()
    tallies = SharedTallies(drawing)
    first = asyncio.ensure_future(tallies.drawn(tally(3)))
    await asyncio.sleep(0)  # the first reply is drawing; four more wait for it
    waiting = [asyncio.ensure_future(tallies.drawn(tally(n))) for n in (4, 6, 5, 6)]
    await asyncio.sleep(0)
    drawing.gate.set()
    shown = await asyncio.gather(first, *waiting)
    assert drawing.drawn == ["3 answered", "6 answered"]
    assert [card.answered for card, _chart in shown] == [3, 6, 6, 6, 6]
    assert all(chart is not None and chart.title == f"{card.answered} answered"
               for card, chart in shown)


async def test_a_reply_never_shows_a_tally_older_than_its_own() -> None:
    drawing = Drawing()
    drawing.gate.set()
    tallies = SharedTallies(drawing)
    await tallies.drawn(tally(7))
    card, _chart = await tallies.drawn(tally(8))
    again, _chart = await tallies.drawn(tally(7))
    assert (card.answered, again.answered) == (8, 8)
    assert drawing.drawn == ["7 answered", "8 answered"]


async def test_questions_and_languages_are_drawn_apart() -> None:
    drawing = Drawing()
    drawing.gate.set()
    tallies = SharedTallies(drawing)
    await tallies.drawn(tally(5, step_id="q1"))
    await tallies.drawn(tally(2, step_id="q2"))
    with speaking("es"):
        await tallies.drawn(tally(5, step_id="q1"))
    assert drawing.drawn == ["5 answered", "2 answered", "5 answered"]
