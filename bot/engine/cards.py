"""Building the card for a step: its text, sections and buttons."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.addresses import Action, parse_address
from bot.engine.recall import plan_line
from bot.engine.steps import button_address, kind_of, more_button
from bot.i18n import _
from bot.model.views import Button, RevealCard, Section, StepCard, Tone
from lessons.schema import Lesson, Step


def takes_answers(step: Step) -> bool:
    """Whether members answer this step (so it has a reveal)."""
    return kind_of(step).takes_answers


def step_card(
    run_id: int, lesson: Lesson, index: int, answered: int = 0, closed: bool = False,
    recall_plan: tuple[int, ...] = (),
) -> StepCard:
    """The card for the step at `index` of a run; the first says when the recall check comes."""
    step = lesson.step_at(index)
    recall = plan_line(recall_plan) if index == 0 else ""
    kind = kind_of(step)
    buttons = kind.member_buttons(run_id) + host_buttons(run_id, step)
    if closed:
        buttons = tuple(_closed(button) for button in buttons)
    return StepCard(
        run_id=run_id,
        step_id=step.id,
        kind=step.kind.value,
        number=index + 1,
        total=len(lesson.steps),
        title=step.title,
        body=step.body,
        sections=kind.sections() + ((Section(_("Spaced recall"), recall),) if recall else ()),
        buttons=buttons,
        answered=answered,
        takes_answers=kind.takes_answers,
        closed=closed,
        unit=_("Step"),
    )


def host_buttons(run_id: int, step: Step) -> tuple[Button, ...]:
    """Reveal (for questions) or Next, for hosts only, on the last row."""
    kind = kind_of(step)
    action, label = (Action.REVEAL, _("Reveal")) if kind.takes_answers else (Action.NEXT, _("Next"))
    address = button_address(run_id, step.id, action)
    return (Button(address, label, Tone.SUCCESS, row=kind.host_row, host_only=True),)


def next_button(run_id: int, step_id: str) -> Button:
    """The host's Next button under a reveal."""
    address = button_address(run_id, step_id, Action.NEXT)
    return Button(address, _("Next"), Tone.SUCCESS, row=0, host_only=True)


def reveal_buttons(run_id: int, step: Step) -> tuple[Button, ...]:
    """Under a question's reveal: More for its longer detail (if it has any), then Next."""
    more = (more_button(run_id, step.id),) if kind_of(step).has_more else ()
    return (*more, next_button(run_id, step.id))


def moved_past(reveal: RevealCard) -> RevealCard:
    """A reveal the lesson has moved past: its Next disabled, its More still readable."""
    next_address = next_button(reveal.run_id, reveal.step_id).address
    buttons = tuple(replace(b, disabled=b.address == next_address) for b in reveal.buttons)
    return replace(reveal, buttons=buttons)


def superseded(card: StepCard) -> StepCard:
    """An older copy of a step that was posted again: only its More still works."""
    return replace(card, buttons=tuple(_closed(b) for b in card.buttons), superseded=True)


def _closed(button: Button) -> Button:
    """A button as a closed card shows it: More keeps working, the rest is disabled."""
    if parse_address(button.address).action is Action.MORE:
        return button
    return replace(button, disabled=True)
