"""Play mode's assigned lesson: you assign it, everyone takes it at their own pace, you close it.

The same service as on Discord or Slack: the assignment card is posted to the terminal, you
and the simulated classmates press its Start and each one's own Next, and after you answer a
question you see its tally so far (the classmates answer each step before you). At the end
you see the progress a host sees, then close the assignment: the channel gets the results.
"""

from __future__ import annotations

from bot.engine import Action, Address, OwnStep
from bot.i18n import N_, _
from bot.model import StepCard
from bot.play.classmates import buttons_for
from bot.play.console import QuitLesson
from bot.play.effects import shown_by
from bot.play.render import paragraphs, render_reveal, render_step, render_turn
from bot.play.session import PlaySession, next_prompt, title_line
from bot.service import CommandArgs, Outcome
from lessons.reading import reading_minutes

DUE = "1d"
WELCOME = N_(
    "You are the host and one member. You assign the lesson; {classmates} Each member takes "
    "it privately at their own pace; the channel sees only how many started and finished. "
    "After you answer a question you see how everyone answered it so far. Type q at any "
    "prompt to stop; then you close the assignment and its results are posted."
)


class AssignedPlaySession(PlaySession):
    """Runs an assigned lesson through the shared service in a terminal."""

    async def run(self) -> None:
        """Assign the lesson, take it with the classmates, see the progress, close it."""
        self._welcome()
        asked = CommandArgs(lesson=self.options.lesson_id, due=DUE, language=self.options.language)
        await self._host("assign", asked)
        card = self.surface.assignment
        if card is None:  # refused: the host was told why
            return
        start = card.buttons[0].address
        for member in self.classmates.members:
            await (await self.service.click(member, start)).shown()
        own = await self._own(await self.service.click(self.you, start))
        try:
            while own.card is not None:
                own = await self._take(own.card.run_id, own.card.step_id, own)
        except QuitLesson:
            pass
        await self._host("progress")
        self.surface.revealed = True  # the results count the classmates' answers: say so
        await self._host("close")
        self._farewell()

    def _welcome(self) -> None:
        lesson = self.lesson()
        self.console.show(title_line(lesson.title, reading_minutes(lesson)))
        simulated = self.options.classmates
        classmates = (
            _("{count} simulated classmates (not real people) take it too.", count=simulated)
            if simulated
            else _("no one else takes it.")
        )
        self.console.show(paragraphs(_(WELCOME, classmates=classmates)))

    async def _take(self, run_id: int, step_id: str, own: OwnStep) -> OwnStep:
        """Answer your step (the classmates first), then everyone presses their own Next."""
        assert own.card is not None
        card = own.card
        if card.takes_answers:
            step = self._step(card)
            await self.classmates.answer(card, step)
            await self.classmates.take_turns(card, step)
            self._note_shift(step)
            await self._answer(card)
            asked = {Action.WHY} if buttons_for(card, Action.WHY) else set()
            mine = await self._next_turns(asked)
            if mine is not None and mine.so_far is not None:
                assumed = self.surface.assumed.get(card.step_id, "")
                so_far = render_reveal(mine.so_far, self.surface.simulated, assumed)
                self.console.show("\n" + so_far)
            elif mine is not None and mine.left:  # a turn left: what still counts
                self.console.show("\n" + paragraphs(mine.left))
        await self.console.ask_enter(next_prompt())
        onward = Address(run_id, step_id, Action.ONWARD).encode()
        for member in self.classmates.members:
            await (await self.service.click(member, onward)).shown()
        return await self._own(await self.service.click(self.you, onward))

    async def _next_turns(self, asked: set[Action]) -> OwnStep | None:
        """Your next turns at the step, each asked once, then where you stand.

        `asked` holds the turns asked already, with the answer (its reason).
        """
        own = await self._continue()
        while own is not None and own.card is not None:
            turn = next_turn(own.card)
            if turn is None or turn in asked:
                break
            asked.add(turn)
            self.console.show("\n" + render_turn(own.card, self.surface.simulated))
            await self._answer(own.card)
            own = await self._continue()
        return own

    async def _reason_needed(self, card: StepCard) -> bool:
        """Whether your next turn at the step waits for your reason: then it is not skipped."""
        own = await self._continue()
        return own is not None and own.card is not None and next_turn(own.card) is Action.WHY

    async def _continue(self) -> OwnStep | None:
        """Your own step as it stands."""
        outcome = await self.service.command(self.you, "continue", CommandArgs())
        return (await shown_by(await outcome.shown())).own

    async def _own(self, outcome: Outcome) -> OwnStep:
        """Show your own step privately (or why there is none)."""
        shown = await shown_by(await outcome.shown())
        own = shown.own
        if own is None:
            self.console.show(paragraphs(shown.told))
            return OwnStep(None, text=shown.told)
        if own.card is None:
            self.console.show("\n" + paragraphs(own.text))
        else:
            self.console.show("\n" + render_step(own.card, self.surface.simulated))
        return own


def next_turn(card: StepCard) -> Action | None:
    """What a member's own card asks next at a step answered in turns: a second answer, or why."""
    if buttons_for(card, Action.CHOOSE):
        return None
    return next((a for a in (Action.AGAIN, Action.WHY) if buttons_for(card, a)), None)
