"""Plain-language lines about the three training runs; every number comes from the runs."""

from __future__ import annotations

from collections.abc import Sequence

from bot.mechanism.attempts import toy_disclaimer
from bot.mechanism.training import TrainingRun, TrainingRuns

CLEAR_PREFERENCE = 0.5


def runs_text(runs: TrainingRuns) -> list[str]:
    """One outcome line per run, then the toy disclaimer."""
    return [
        thumbs_up_text(runs),
        checker_text(runs.checker),
        naive_checker_text(runs),
        toy_disclaimer(runs.votes_from),
    ]


def reward_lines(runs: TrainingRuns) -> list[str]:
    """What each run rewarded, exactly as the training draws it: each attempt's chance of 1."""
    lines = [
        "Each pick earns reward 1 with its attempt's chance below, else 0. "
        "Picks above their group's average reward become more likely."
    ]
    for run in runs:
        lines.append(f"• **{run.name.capitalize()}** ({run.reward.rule}): {_chances(run)}.")
    return lines


def assumptions_line(runs: TrainingRuns, extra: Sequence[str] = ()) -> str:
    """The numbers the toy assumes rather than takes from the votes."""
    settings = runs.settings
    start = 1 / len(runs.thumbs_up.labels)
    parts = [
        *extra,
        f"{settings.steps} training steps per run",
        f"{settings.group_size} picks per step",
        f"learning rate {settings.learning_rate:g}",
        f"seed {settings.seed}",
        f"every attempt starts at {start:.0%}",
    ]
    return "Assumptions: " + "; ".join(parts) + "."


def thumbs_up_text(runs: TrainingRuns) -> str:
    """What the toy trained on thumbs-ups became, and whether the checker agrees with it."""
    run = runs.thumbs_up
    if not any(run.reward.chances):
        return "**Thumbs-up:** nobody gave a 👍, so every reward was 0: it learned nothing."
    verdict = ""
    if _is_clear(run):
        passed = runs.checker.reward.chances[run.labels.index(run.favourite)] == 1
        verdict = (
            "The checker passes it too, but people cannot rate millions of answers; a checker can."
            if passed
            else "The checker marks that one wrong."
        )
    return _sentence(f"**Thumbs-up:** {_outcome(run)}", verdict)


def checker_text(run: TrainingRun) -> str:
    """What the toy trained on the real checker became."""
    if not any(run.reward.chances):
        return "**Checker:** the checker passed no attempt, so it learned nothing."
    return f"**Checker:** {_outcome(run)}"


def naive_checker_text(runs: TrainingRuns) -> str:
    """What the toy trained on a naive 'gold appears anywhere' checker became."""
    run = runs.naive_checker
    if not any(run.reward.chances):
        return "**Naive checker:** no attempt passed it, so it learned nothing."
    pairs = zip(run.labels, run.reward.chances, runs.checker.reward.chances, strict=True)
    fooled = [label for label, naive, real in pairs if naive > real]
    also = " and ".join(fooled)
    faked = f"It also pays {also}, which the checker rejects: a reward a model can fake."
    return _sentence(f"**Naive checker:** {_outcome(run)}", faked if fooled else "")


def _chances(run: TrainingRun) -> str:
    pairs = zip(run.labels, run.reward.chances, strict=True)
    shown = [f"{label} {chance:.0%}" for label, chance in pairs if chance > 0]
    if 0 in run.reward.chances:
        shown.append("others 0%" if shown else "all 0%")
    return ", ".join(shown)


def _sentence(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _outcome(run: TrainingRun) -> str:
    final = run.final_probs
    if _is_clear(run):
        return f"it ends up picking **{run.favourite}** {final[run.favourite]:.0%} of the time."
    top = sorted(final.items(), key=lambda item: -item[1])[:2]
    shares = " and ".join(f"{label} {prob:.0%}" for label, prob in top)
    return f"no clear favourite: {shares}."


def _is_clear(run: TrainingRun) -> bool:
    return max(run.final_probs.values()) >= CLEAR_PREFERENCE
