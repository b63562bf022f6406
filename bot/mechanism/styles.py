"""The answer styles of the verifier step's sample attempts, and how the toy over them is named."""

from __future__ import annotations

from lessons.schema import ANSWER_STYLES

STYLES: tuple[str, ...] = ANSWER_STYLES

STYLE_DESCRIPTIONS: dict[str, str] = {
    "flattering": "confident and polished, but wrong",
    "long-wrong": "long and step-by-step, but wrong",
    "hedging": "lists several answers and lets you pick",
    "careful": "re-checks its first answer and fixes it",
}

TOY_DISCLAIMER = (
    "This is a toy: a softmax policy over the four answer styles, trained with numbers from "
    "this channel's votes. It is not a real language model."
)


def unknown_styles(names: list[str] | tuple[str, ...]) -> list[str]:
    """Return the names that are not one of the known answer styles, in input order."""
    return [name for name in names if name not in STYLES]
