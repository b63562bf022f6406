"""Plain-language outcome lines for the three training runs; the words follow the data."""

from __future__ import annotations

from bot.mechanism.styles import TOY_DISCLAIMER
from bot.mechanism.training import TrainingRun, TrainingRuns

CLEAR_PREFERENCE = 0.5

THUMBS_UP_VERDICTS: dict[str, str] = {
    "flattering": "It learned to sound confident and pleasing, not to be right.",
    "long-wrong": "It learned that looking thorough wins votes, even when the answer is wrong.",
    "hedging": "It learned to offer several answers instead of committing to one.",
    "careful": (
        "This channel rewarded the careful attempt. But human raters cannot grade millions "
        "of answers; a checker can, every time, for free."
    ),
}


def runs_text(runs: TrainingRuns) -> list[str]:
    """The toy disclaimer followed by one outcome line per run."""
    return [
        TOY_DISCLAIMER,
        thumbs_up_text(runs.thumbs_up),
        checker_text(runs.checker),
        naive_checker_text(runs.naive_checker),
    ]


def thumbs_up_text(run: TrainingRun) -> str:
    """What the model trained on this channel's thumbs-ups became."""
    if not any(run.reward_probs):
        return (
            "**Thumbs-up reward:** nobody gave a thumbs-up, so every reward was 0, every "
            "advantage 0, and the toy learned nothing."
        )
    shares = ", ".join(f"{style} {share:.0%}" for style, share in _by_share(run) if share > 0)
    outcome = _outcome(run)
    verdict = THUMBS_UP_VERDICTS.get(run.preferred_style, "") if _is_clear(run) else ""
    return _sentence(
        f"**Thumbs-up reward** (each sampled answer earns 1 with its style's share of this "
        f"channel's thumbs-ups: {shares}): {outcome}",
        verdict,
    )


def checker_text(run: TrainingRun) -> str:
    """What the model trained on the real checker became."""
    if not any(run.reward_probs):
        return "**Checker reward:** the checker accepted no style, so the toy learned nothing."
    return _sentence(
        "**Checker reward** (1 only when the one final answer matches the gold; "
        f"{_pass_rates(run)}): {_outcome(run)}",
        "Unlike human raters, a checker can grade millions of answers.",
    )


def naive_checker_text(run: TrainingRun) -> str:
    """What the model trained on a naive 'gold appears anywhere' checker became."""
    if not any(run.reward_probs):
        return "**Naive checker:** no style passed it, so the toy learned nothing."
    fooled = (
        "A hedge names every candidate, so it always contains the gold, while a careful "
        "attempt passes only when it lands on the gold: the hedge fools this checker."
        if _is_clear(run) and run.preferred_style == "hedging"
        else ""
    )
    return _sentence(
        "**Naive checker** (1 if the gold answer appears anywhere in the text; "
        f"{_pass_rates(run)}): {_outcome(run)}",
        fooled,
        "The reward has to be one the model cannot fake.",
    )


def _sentence(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _outcome(run: TrainingRun) -> str:
    final = run.final_probs
    if not _is_clear(run):
        top = run.preferred_style
        return (
            f"after {run.steps} steps the toy has no clear favourite "
            f"(top: {top}, {final[top]:.0%})."
        )
    style = run.preferred_style
    return f"after {run.steps} steps the toy ends up **{style}** ({final[style]:.0%})."


def _pass_rates(run: TrainingRun) -> str:
    rates = ", ".join(f"{style} {rate:.0%}" for style, rate in _by_share(run) if rate > 0)
    return f"chance an answer passes: {rates}"


def _by_share(run: TrainingRun) -> list[tuple[str, float]]:
    pairs = zip(run.styles, run.reward_probs, strict=True)
    return sorted(pairs, key=lambda pair: -pair[1])


def _is_clear(run: TrainingRun) -> bool:
    return max(run.final_probs.values()) >= CLEAR_PREFERENCE
