"""The lesson format: pydantic models that every lesson YAML file is validated against."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,23}$")]
LANGUAGE_CODE = r"[a-z]{2}(?:-[A-Z]{2})?"
"""A language code: two letters (ISO 639-1, `es`), optionally with a region (`pt-BR`)."""
SOURCE_LANGUAGE = "en"
"""The language of a lesson file that does not say."""
ShortText = Annotated[str, Field(min_length=1, max_length=80)]
LongText = Annotated[str, Field(min_length=1, max_length=2500)]
AnswerUnit = Annotated[
    str | None,
    Field(
        default=None,
        min_length=1,
        max_length=40,
        description="The unit the gold answer is in, such as km/h or degrees. That unit "
        "(written out or abbreviated) or none may follow a member's number; another unit "
        "is refused. `lessons validate` checks that it is a unit the checker knows.",
    ),
]


Chance = Annotated[float | None, Field(ge=0, le=1)]
"""A probability from 0 to 1."""
ReasonText = Annotated[str, Field(min_length=1, max_length=280)]
"""A one-sentence reason for an answer: a member's, or the lesson author's for a choice."""


class StepKind(StrEnum):
    """The kinds of step a lesson is made of."""

    NARRATION = "narration"
    PREDICTION = "prediction"
    VERIFIER = "verifier"
    FREE_ANSWER = "free_answer"
    MECHANISM = "mechanism"
    TAKEAWAY = "takeaway"
    PEER_ROUND = "peer_round"


class Strict(BaseModel):
    """A model that refuses unknown fields, so a typo in a lesson file is reported."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Choice(Strict):
    """One button of a prediction question."""

    id: Slug
    label: ShortText
    correct: bool = False
    crowd: float = Field(default=1.0, ge=0, description="How often simulated classmates pick it.")


class Attempt(Strict):
    """A sample attempt at the verifier exercise's problem: reasoning ending in a final answer."""

    id: Slug
    label: ShortText
    style: Slug = Field(description="The answer style, e.g. flattering, hedging, careful.")
    text: Annotated[str, Field(min_length=1, max_length=4000)]
    appeal: float = Field(
        default=0.5, ge=0, le=1, description="Chance a simulated classmate gives it a thumbs-up."
    )
    expect: Literal["correct", "incorrect", "rejected"] | None = Field(
        default=None,
        description="How the checker must grade it; validation fails if it grades otherwise. "
        "Without it the final answer must at least be readable.",
    )


class CrowdAnswer(Strict):
    """A typed answer simulated classmates give to a free-answer problem."""

    text: ShortText
    weight: float = Field(default=1.0, gt=0)


@dataclass(frozen=True)
class GoldAnswer:
    """A problem's gold answer as the checker reads it: the text, its unit, other spellings."""

    text: str
    unit: str | None = None
    accept: tuple[str, ...] = ()


@dataclass(frozen=True)
class Learning:
    """How simulated classmates learn at a recall, as the lesson's author sets it."""

    recall: str
    """The id of the earlier question asked again."""
    learned: float | None
    kept: float | None


@dataclass(frozen=True)
class Crowd:
    """What simulated classmates (play mode) answer a step by, as the lesson's author sets it.

    They pick a choice by its `crowd` weight (at a recall, by `learning`), give each sample
    attempt a thumbs-up with its `appeal` chance, and type the crowd answers by their weights.
    """

    choices: tuple[Choice, ...] = ()
    right: Choice | None = None
    learning: Learning | None = None
    answers: tuple[CrowdAnswer, ...] = ()
    switch: float | None = None
    """At a peer round: the chance one who answered wrong switches after reading a reason."""
    reasons: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """At a peer round: by choice id, the reasons a classmate who chose it writes."""


class StepBase(Strict):
    """Fields every step has, and what any step answers about itself."""

    id: Slug
    title: ShortText
    body: LongText
    more: LongText | None = Field(
        default=None,
        description="Longer detail a member reads privately with the step's More button. "
        "On a question the button comes with the reveal, so the text may discuss the answer.",
    )

    def authored_texts(self) -> list[str]:
        """Every authored text of the step a member may be shown, in the order shown."""
        more = [self.more] if self.more else []
        return [
            self.body,
            *self._own_texts(),
            *self.discussion_texts(),
            *self.explanation_texts(),
            *more,
        ]

    def discussion_texts(self) -> list[str]:
        """Authored texts shown after the first answers and before the reveal (most have none)."""
        return []

    def explanation_texts(self) -> list[str]:
        """The step's explanation and every variant of it (none on a step without answers)."""
        return []

    def gold_answer(self) -> GoldAnswer | None:
        """The gold answer the checker grades this step's answers against, if it has one."""
        return None

    def sample_attempts(self) -> tuple[Attempt, ...]:
        """The sample attempts members rate and run the checker on (none for most steps)."""
        return ()

    def crowd(self) -> Crowd:
        """What simulated classmates answer this step by (nothing, for a step without answers)."""
        return Crowd()

    def answer_keywords(self) -> list[str]:
        """The key words of the step's right answer, which nothing posted before it may contain."""
        return []

    def asks_again(self) -> str | None:
        """The id of the earlier step this one asks again (a recall), if it is one."""
        return None

    def _own_texts(self) -> list[str]:
        """The texts this kind of step shows between its body and its explanation."""
        return []


class NarrationStep(StepBase):
    """Text the host reads out; nothing to answer."""

    kind: Literal[StepKind.NARRATION]


class TakeawayStep(StepBase):
    """The closing point of the lesson."""

    kind: Literal[StepKind.TAKEAWAY]
    next_steps: LongText | None = None

    def _own_texts(self) -> list[str]:
        return [self.next_steps] if self.next_steps else []


class PredictionStep(StepBase):
    """A multiple-choice question; with no correct choice it is an opinion poll."""

    kind: Literal[StepKind.PREDICTION]
    choices: list[Choice] = Field(
        default_factory=list,
        max_length=5,
        description="2 to 5 choices; a step with `recall` may omit them to reuse the recalled's.",
    )
    explanation: LongText
    recall: Slug | None = Field(
        default=None,
        description="The id of an earlier prediction step this one asks again, to show "
        "how the channel's answers moved.",
    )
    keywords: list[ShortText] = Field(
        default_factory=list,
        description="The key words of the right answer: no text posted before the question "
        "may contain them, so nothing gives the answer away.",
    )
    learned: Chance = Field(
        default=None,
        description="Only on a recall, for play mode's simulated classmates: the chance that "
        "one whose first answer was wrong moves to the right answer. Without it they answer "
        "by the choices' crowd weights again.",
    )
    kept: Chance = Field(
        default=None,
        description="Only on a recall, for play mode's simulated classmates: the chance that "
        "one whose first answer was right keeps it.",
    )

    @model_validator(mode="after")
    def _check_choices(self) -> PredictionStep:
        if len(self.choices) == 1 or not (self.choices or self.recall):
            raise _prediction_error("choices", "a prediction needs 2 to 5 choices")
        ids = [choice.id for choice in self.choices]
        if len(set(ids)) != len(ids):
            raise ValueError(f"choice ids must be unique, got {ids}")
        if sum(choice.correct for choice in self.choices) > 1:
            raise ValueError("at most one choice can be marked correct")
        if self.keywords and self.correct_choice is None:
            raise ValueError("keywords name the right answer's key words; no choice is correct")
        for field in ("learned", "kept"):
            if getattr(self, field) is not None and not self.recall:
                raise _prediction_error(field, f"`{field}` is only for a recall step")
        return self

    @property
    def correct_choice(self) -> Choice | None:
        """The right answer, or None for an opinion poll."""
        return next((choice for choice in self.choices if choice.correct), None)

    def explanation_texts(self) -> list[str]:
        """The explanation shown at the reveal."""
        return [self.explanation]

    def answer_keywords(self) -> list[str]:
        """The key words of the right answer."""
        return list(self.keywords)

    def asks_again(self) -> str | None:
        """The id of the earlier prediction this one asks again, if it is a recall."""
        return self.recall

    def crowd(self) -> Crowd:
        """The choices by their weights, and at a recall that sets it, how classmates learn."""
        learning = None
        if self.recall and (self.learned is not None or self.kept is not None):
            learning = Learning(self.recall, self.learned, self.kept)
        return Crowd(tuple(self.choices), self.correct_choice, learning)


class VerifierExplanations(Strict):
    """Explanations chosen by how the channel rated; `explanation` is shown when none fits."""

    rated_like_checker: LongText | None = Field(
        default=None,
        description="When most raters gave a thumbs-up to exactly the attempts the checker "
        "rewarded.",
    )
    favoured_unrewarded: LongText | None = Field(
        default=None,
        description="When the channel's favourite attempt (highest thumbs-up share) earned "
        "no reward.",
    )


Accept = Annotated[
    list[ShortText],
    Field(
        default_factory=list,
        max_length=20,
        description="Other spellings accepted for a gold answer in words (such as 'odd'); "
        "case, spaces, \\text{} and a full stop never matter. Only for a text gold.",
    ),
]


class VerifierStep(StepBase):
    """Members rate sample attempts with a thumbs-up, then run the checker on each."""

    kind: Literal[StepKind.VERIFIER]
    problem: LongText
    gold: ShortText
    unit: AnswerUnit = None
    accept: Accept
    attempts: list[Attempt] = Field(min_length=3, max_length=4)
    explanation: LongText
    explanations: VerifierExplanations = Field(default_factory=VerifierExplanations)

    @model_validator(mode="after")
    def _check_attempts(self) -> VerifierStep:
        ids = [attempt.id for attempt in self.attempts]
        if len(set(ids)) != len(ids):
            raise ValueError(f"attempt ids must be unique, got {ids}")
        return self

    def explanation_texts(self) -> list[str]:
        """The explanation and its variants chosen by how the channel rated."""
        variants = self.explanations
        texts = [self.explanation, variants.rated_like_checker, variants.favoured_unrewarded]
        return [text for text in texts if text]

    def gold_answer(self) -> GoldAnswer:
        """The gold answer every sample attempt is graded against."""
        return GoldAnswer(self.gold, self.unit, tuple(self.accept))

    def sample_attempts(self) -> tuple[Attempt, ...]:
        """The sample attempts, in the lesson's order."""
        return tuple(self.attempts)

    def _own_texts(self) -> list[str]:
        return [self.problem, *(attempt.text for attempt in self.attempts)]


DEFAULT_MAX_TRIES = 5
"""Tries each member gets at a free-answer problem when neither the lesson nor the settings say."""
MAX_TRIES_LIMIT = 50


class FreeAnswerStep(StepBase):
    """A problem members solve themselves; the checker grades every try."""

    kind: Literal[StepKind.FREE_ANSWER]
    problem: LongText
    gold: ShortText
    unit: AnswerUnit = None
    accept: Accept
    explanation: LongText
    crowd_answers: list[CrowdAnswer] = Field(default_factory=list, max_length=20)
    max_tries: int = Field(
        default=DEFAULT_MAX_TRIES,
        ge=1,
        le=MAX_TRIES_LIMIT,
        description="How many tries each member gets at the problem.",
    )

    def explanation_texts(self) -> list[str]:
        """The explanation shown at the reveal."""
        return [self.explanation]

    def gold_answer(self) -> GoldAnswer:
        """The gold answer members' typed answers are graded against."""
        return GoldAnswer(self.gold, self.unit, tuple(self.accept))

    def crowd(self) -> Crowd:
        """The answers classmates type, by their weights."""
        return Crowd(answers=tuple(self.crowd_answers))

    def _own_texts(self) -> list[str]:
        return [self.problem]


class MechanismStep(StepBase):
    """A toy policy trained with GRPO on the channel's own votes from an earlier verifier step."""

    kind: Literal[StepKind.MECHANISM]
    source: Slug = Field(description="The id of the verifier step whose votes train the toy.")


class PeerChoice(Choice):
    """A choice of a peer round, with the author's short case for it."""

    reason: ReasonText = Field(
        description="The author's one-sentence case for this choice, shown (as the author's) "
        "where no member has given a reason for it yet."
    )
    crowd_reasons: list[ReasonText] = Field(
        default_factory=list,
        max_length=5,
        description="For play mode's simulated classmates: the reasons they write for this "
        "choice (one picked at random each, at least 3 words like any member's), in the voice "
        "of a learner who believes it. Without any, they write the author's `reason`.",
    )

    @property
    def crowd_pool(self) -> tuple[str, ...]:
        """The reasons simulated classmates write for this choice."""
        return tuple(self.crowd_reasons) or (self.reason,)


class Band(Strict):
    """The share of right first answers within which a peer round holds its discussion."""

    low: float = Field(default=0.3, ge=0, le=1)
    high: float = Field(default=0.7, ge=0, le=1)

    @model_validator(mode="after")
    def _check_order(self) -> Band:
        if self.low >= self.high:
            raise ValueError(f"band: low ({self.low}) must be below high ({self.high})")
        return self

    def holds(self, share_right: float) -> bool:
        """Whether a first vote with this share right is split enough to discuss."""
        return self.low <= share_right <= self.high


class PeerRoundStep(StepBase):
    """A question answered twice: alone, then again after reading peers' reasons.

    When the share right at the first vote falls inside `band`, the answer stays hidden:
    members read anonymous reasons for the choices and answer again. Outside it, the
    question is revealed at once.
    """

    kind: Literal[StepKind.PEER_ROUND]
    choices: list[PeerChoice] = Field(min_length=2, max_length=5)
    explanation: LongText
    band: Band = Field(default_factory=Band)
    keywords: list[ShortText] = Field(
        default_factory=list,
        description="The key words of the right answer: no text posted before the question "
        "may contain them, so nothing gives the answer away.",
    )
    switch: Chance = Field(
        default=0.5,
        description="For play mode's simulated classmates: the chance that one whose first "
        "answer was wrong switches to the right answer after reading a reason for it.",
    )

    @model_validator(mode="after")
    def _check_choices(self) -> PeerRoundStep:
        ids = [choice.id for choice in self.choices]
        if len(set(ids)) != len(ids):
            raise ValueError(f"choice ids must be unique, got {ids}")
        if sum(choice.correct for choice in self.choices) != 1:
            raise ValueError("a peer round needs exactly one choice marked correct")
        return self

    @property
    def correct_choice(self) -> PeerChoice:
        """The right answer."""
        return next(choice for choice in self.choices if choice.correct)

    def explanation_texts(self) -> list[str]:
        """The explanation shown at the reveal."""
        return [self.explanation]

    def discussion_texts(self) -> list[str]:
        """The author's reason for each choice, read in the discussion before answering again."""
        return [choice.reason for choice in self.choices]

    def answer_keywords(self) -> list[str]:
        """The key words of the right answer."""
        return list(self.keywords)

    def crowd(self) -> Crowd:
        """The choices by their weights and reasons; classmates switch to the right by `switch`."""
        reasons = {choice.id: choice.crowd_pool for choice in self.choices}
        return Crowd(
            tuple(self.choices), self.correct_choice, switch=self.switch, reasons=reasons
        )


QUESTION_STEPS = (PredictionStep, VerifierStep, FreeAnswerStep, PeerRoundStep)
"""The kinds of step members answer; each has a reveal."""


class LaterQuestion(Strict):
    """A delayed-recall question: a lesson's key idea asked again, in new words, days later."""

    id: Slug
    asks_again: Slug = Field(
        description="The id of the lesson step whose idea it asks again: a prediction or a "
        "peer round with a right answer, not a recall step (name the original)."
    )
    text: LongText = Field(
        description="The question, in new words: not the asked step's body word for word."
    )
    choices: list[Choice] = Field(
        min_length=2,
        max_length=5,
        description="2 to 5 choices, exactly one `correct: true`; not all labelled as the "
        "asked step's choices are.",
    )
    why: ShortText = Field(
        description="The one-line reason shown after the member answers, right or not."
    )

    @model_validator(mode="after")
    def _check_choices(self) -> LaterQuestion:
        ids = [choice.id for choice in self.choices]
        if len(set(ids)) != len(ids):
            raise _error_at(("choices",), f"choice ids must be unique, got {ids}")
        if sum(choice.correct for choice in self.choices) != 1:
            message = "a delayed-recall question needs exactly one choice marked correct"
            raise _error_at(("choices",), message)
        return self

    @property
    def correct_choice(self) -> Choice:
        """The right answer."""
        return next(choice for choice in self.choices if choice.correct)


Step = Annotated[
    NarrationStep
    | PredictionStep
    | VerifierStep
    | FreeAnswerStep
    | MechanismStep
    | TakeawayStep
    | PeerRoundStep,
    Field(discriminator="kind"),
]


class Lesson(Strict):
    """A whole lesson: metadata and its ordered steps."""

    id: Slug
    version: int = Field(ge=1)
    language: str = Field(
        default=SOURCE_LANGUAGE,
        pattern=rf"^{LANGUAGE_CODE}$",
        description="The language the lesson is written in, such as en or es. A translation "
        "(lessons/<id>.<language>.yaml) names its own and must match its source's structure.",
    )
    title: ShortText
    summary: LongText
    minutes: int | None = Field(
        default=None,
        ge=1,
        le=120,
        description="Ignored: the length is computed from the words and questions "
        "(lessons/reading.py). Kept so older files load.",
    )
    disclaimer: LongText | None = None
    steps: list[Step] = Field(min_length=1, max_length=40)
    delayed_recall: list[LaterQuestion] = Field(
        default_factory=list,
        max_length=5,
        description="Up to 5 questions each member is sent privately days after the lesson, "
        "each asking a key idea of a step again in new words; the channel sees how much it kept.",
    )

    @model_validator(mode="before")
    @classmethod
    def _fill_recalled_choices(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("steps"), list):
            data = {**data, "steps": _with_recalled_choices(data["steps"])}
        return data

    @model_validator(mode="after")
    def _check_step_ids(self) -> Lesson:
        ids = [step.id for step in self.steps]
        duplicates = sorted({step_id for step_id in ids if ids.count(step_id) > 1})
        if duplicates:
            raise ValueError(f"step ids must be unique, repeated: {', '.join(duplicates)}")
        for index, step in enumerate(self.steps):
            if isinstance(step, MechanismStep):
                _check_mechanism_source(step, self.steps[:index])
            if isinstance(step, PredictionStep) and step.recall:
                _check_recall(index, step, self.steps[:index])
        return self

    @model_validator(mode="after")
    def _check_delayed_recall(self) -> Lesson:
        seen: set[str] = set()
        for index, question in enumerate(self.delayed_recall):
            if question.id in seen:
                message = f"'{question.id}' is the id of an earlier delayed-recall question"
                raise _error_at(("delayed_recall", index, "id"), message)
            seen.add(question.id)
            _check_later_question(index, question, self.steps)
        return self

    def step_at(self, index: int) -> Step:
        """The step at a position in the lesson."""
        return self.steps[index]

    def step_by_id(self, step_id: str) -> Step:
        """The step with an id (the lesson's validation guarantees ids are unique)."""
        return next(step for step in self.steps if step.id == step_id)

    def asking(self, step_id: str) -> list[Step]:
        """The steps that ask a step's question: itself, then each asking it again, in order."""
        return [step for step in self.steps if step_id in (step.id, step.asks_again())]

    def question_count(self) -> int:
        """How many steps members answer."""
        return sum(isinstance(step, QUESTION_STEPS) for step in self.steps)

    def mechanism_source(self) -> VerifierStep | None:
        """The verifier step whose votes the lesson's mechanism step trains on, if it has one."""
        mechanism = next((s for s in self.steps if isinstance(s, MechanismStep)), None)
        if mechanism is None:
            return None
        sources = (s for s in self.steps if s.id == mechanism.source)
        return next(s for s in sources if isinstance(s, VerifierStep))


def _check_mechanism_source(step: MechanismStep, earlier: list[Step]) -> None:
    source = next((s for s in earlier if s.id == step.source), None)
    if not isinstance(source, VerifierStep):
        raise ValueError(
            f"step '{step.id}': source '{step.source}' must be an earlier verifier step"
        )


def _prediction_error(field: str, message: str, step_index: int | None = None) -> ValidationError:
    """An error at a prediction's field (given `step_index`, located from the lesson)."""
    where: tuple[str | int, ...] = (field,)
    if step_index is not None:
        where = ("steps", step_index, StepKind.PREDICTION.value, field)
    return _error_at(where, message)


def _error_at(where: tuple[str | int, ...], message: str) -> ValidationError:
    """A validation error with a plain message, located at `where` (within the model checked)."""
    error = PydanticCustomError("lesson", message)
    return ValidationError.from_exception_data(
        "Lesson", [InitErrorDetails(type=error, loc=where, input=None)]
    )


def _with_recalled_choices(steps: list[object]) -> list[object]:
    """Raw steps where a recall step without choices gets its recalled step's choices."""
    by_id = {step["id"]: step for step in steps
             if isinstance(step, dict) and isinstance(step.get("id"), str)}
    filled: list[object] = []
    for step in steps:
        if isinstance(step, dict) and isinstance(step.get("recall"), str) and "choices" not in step:
            recalled = by_id.get(step["recall"])
            if isinstance(recalled, dict) and isinstance(recalled.get("choices"), list):
                step = {**step, "choices": recalled["choices"]}
        filled.append(step)
    return filled


def _check_recall(index: int, step: PredictionStep, earlier: list[Step]) -> None:
    recalled = next((s for s in earlier if s.id == step.recall), None)
    if not isinstance(recalled, PredictionStep) or not recalled.choices:
        message = f"'{step.recall}' must be the id of an earlier prediction step"
        raise _prediction_error("recall", message, index)
    asked = [(c.id, c.label, c.correct) for c in step.choices]
    if asked != [(c.id, c.label, c.correct) for c in recalled.choices]:
        message = f"a recall asks again with the same choices as '{recalled.id}'"
        raise _prediction_error("choices", message, index)


def _check_later_question(index: int, question: LaterQuestion, steps: list[Step]) -> None:
    """Refuse a delayed-recall question that asks no right-answer step, or copies it verbatim."""
    asked = _asked_step(index, question, steps)
    if _words(question.text) == _words(asked.body):
        message = f"the text is the body of '{asked.id}' word for word; ask its idea in new words"
        raise _error_at(("delayed_recall", index, "text"), message)
    labels = {_words(choice.label) for choice in asked.choices}
    if all(_words(choice.label) in labels for choice in question.choices):
        message = (f"the choices copy the labels of '{asked.id}'; word them anew, so a "
                   "member recalls the idea, not the button")
        raise _error_at(("delayed_recall", index, "choices"), message)


def _asked_step(
    index: int, question: LaterQuestion, steps: list[Step]
) -> PredictionStep | PeerRoundStep:
    """The step a delayed-recall question asks again, if it is one with a right answer."""
    where = ("delayed_recall", index, "asks_again")
    step = next((s for s in steps if s.id == question.asks_again), None)
    if step is None:
        raise _error_at(where, f"'{question.asks_again}' is not a step of this lesson")
    if isinstance(step, PredictionStep) and step.recall:
        message = (f"'{step.id}' asks '{step.recall}' again; name the original, "
                   f"'{step.recall}'")
        raise _error_at(where, message)
    if isinstance(step, PeerRoundStep) or (
        isinstance(step, PredictionStep) and step.correct_choice is not None
    ):
        return step
    what = "a poll (no choice is correct)" if isinstance(step, PredictionStep) else (
        f"a {step.kind.value} step")
    message = f"'{step.id}' is {what}; name a prediction or a peer round with a right answer"
    raise _error_at(where, message)


def _words(text: str) -> str:
    """A text's words, for comparison: case and spacing ignored."""
    return " ".join(text.split()).casefold()
