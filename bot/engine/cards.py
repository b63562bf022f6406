"""Building the card for a step: its text, sections and buttons."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.addresses import Action, Address, parse_address
from bot.model.errors import WrongStep
from bot.model.views import Button, Receipt, RevealCard, Section, StepCard, Tone
from lessons.schema import (
    QUESTION_STEPS,
    FreeAnswerStep,
    Lesson,
    PredictionStep,
    Step,
    TakeawayStep,
    VerifierStep,
)

ANSWERABLE = QUESTION_STEPS
MORE_LABEL = "More"


def takes_answers(step: Step) -> bool:
    """Whether members answer this step (so it has a reveal)."""
    return isinstance(step, ANSWERABLE)


def step_card(
    run_id: int, lesson: Lesson, index: int, answered: int = 0, closed: bool = False
) -> StepCard:
    """The card for the step at `index` of a run."""
    step = lesson.step_at(index)
    buttons = member_buttons(run_id, step) + host_buttons(run_id, step)
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
        sections=sections(step),
        buttons=buttons,
        answered=answered,
        takes_answers=takes_answers(step),
        closed=closed,
    )


def sections(step: Step) -> tuple[Section, ...]:
    """The problem and sample attempts a step shows under its body."""
    if isinstance(step, VerifierStep):
        attempts = tuple(Section(attempt.label, attempt.text) for attempt in step.attempts)
        return (Section("The problem", step.problem), *attempts)
    if isinstance(step, FreeAnswerStep):
        return (Section("Your turn", step.problem),)
    if isinstance(step, TakeawayStep) and step.next_steps:
        return (Section("What you can do now", step.next_steps),)
    return ()


def member_buttons(run_id: int, step: Step) -> tuple[Button, ...]:
    """The buttons members use at a step."""
    if isinstance(step, PredictionStep):
        return tuple(
            Button(
                _address(run_id, step.id, Action.CHOOSE, choice.id),
                choice.label,
                Tone.PRIMARY,
                row=0,
            )
            for choice in step.choices
        )
    if isinstance(step, VerifierStep):
        return tuple(
            button
            for row, attempt in enumerate(step.attempts)
            for button in _attempt_buttons(run_id, step.id, attempt.id, attempt.label, row)
        )
    if isinstance(step, FreeAnswerStep):
        address = _address(run_id, step.id, Action.ANSWER)
        return (Button(address, "Answer", Tone.PRIMARY, row=0, emoji="✏️"),)
    if step.more:
        return (more_button(run_id, step.id),)
    return ()


def host_buttons(run_id: int, step: Step) -> tuple[Button, ...]:
    """Reveal (for questions) or Next, for hosts only, on the last row."""
    row = 4 if isinstance(step, VerifierStep) else 1
    if takes_answers(step):
        action, label = Action.REVEAL, "Reveal"
    else:
        action, label = Action.NEXT, "Next"
    return (
        Button(_address(run_id, step.id, action), label, Tone.SUCCESS, row=row, host_only=True),
    )


def next_button(run_id: int, step_id: str) -> Button:
    """The host's Next button under a reveal."""
    address = _address(run_id, step_id, Action.NEXT)
    return Button(address, "Next", Tone.SUCCESS, row=0, host_only=True)


def reveal_buttons(run_id: int, step: Step) -> tuple[Button, ...]:
    """Under a question's reveal: More for its longer detail (if it has any), then Next."""
    more = (more_button(run_id, step.id),) if step.more else ()
    return (*more, next_button(run_id, step.id))


def moved_past(reveal: RevealCard) -> RevealCard:
    """A reveal the lesson has moved past: its Next disabled, its More still readable."""
    next_address = next_button(reveal.run_id, reveal.step_id).address
    buttons = tuple(replace(b, disabled=b.address == next_address) for b in reveal.buttons)
    return replace(reveal, buttons=buttons)


def superseded(card: StepCard) -> StepCard:
    """An older copy of a step that was posted again: only its More still works."""
    return replace(card, buttons=tuple(_closed(b) for b in card.buttons), superseded=True)


def more_button(run_id: int, step_id: str) -> Button:
    """The button any member clicks to read a step's longer detail privately."""
    return Button(_address(run_id, step_id, Action.MORE), MORE_LABEL, row=0, emoji="📖")


def more_receipt(run_id: int, step: Step) -> Receipt:
    """A step's longer detail, for the member who asked; nothing is stored or counted."""
    if not step.more:
        raise WrongStep("more to read")
    return Receipt(step.more, run_id, step.id, counted=False)


def _attempt_buttons(
    run_id: int, step_id: str, attempt_id: str, label: str, row: int
) -> tuple[Button, ...]:
    up = _address(run_id, step_id, Action.UP, attempt_id)
    down = _address(run_id, step_id, Action.DOWN, attempt_id)
    check = _address(run_id, step_id, Action.CHECK, attempt_id)
    return (
        Button(up, label, Tone.SECONDARY, row=row, emoji="👍"),
        Button(down, label, Tone.SECONDARY, row=row, emoji="👎"),
        Button(check, "Run the checker", Tone.PRIMARY, row=row),
    )


def _address(run_id: int, step_id: str, action: Action, arg: str = "") -> str:
    return Address(run_id, step_id, action, arg).encode()


def _closed(button: Button) -> Button:
    """A button as a closed card shows it: More keeps working, the rest is disabled."""
    if parse_address(button.address).action is Action.MORE:
        return button
    return replace(button, disabled=True)
