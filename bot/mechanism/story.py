"""Plain-language lines about the three training runs; every number comes from the runs."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _, decimal
from bot.mechanism.attempts import toy_disclaimer
from bot.mechanism.training import TrainingRun, TrainingRuns
from bot.model.chart_text import line_value as whole_percent

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
        _(
            "Each pick earns reward 1 with its attempt's chance below, else 0. "
            "Picks above their group's average reward become more likely."
        )
    ]
    for run in runs:
        name, rule = _(run.name).capitalize(), _(run.reward.rule)
        lines.append(f"• **{name}** ({rule}): {_chances(run)}.")
    return lines


def assumptions_line(runs: TrainingRuns, extra: Sequence[str] = ()) -> str:
    """The numbers the toy assumes rather than takes from the votes."""
    settings = runs.settings
    start = 1 / len(runs.thumbs_up.labels)
    parts = [
        *extra,
        _("{steps} training steps per run", steps=settings.steps),
        _("{size} picks per step", size=settings.group_size),
        _("learning rate {rate}", rate=decimal(settings.learning_rate, digits=4)),
        _("seed {seed}", seed=settings.seed),
        _("every attempt starts at {start}", start=whole_percent(start)),
    ]
    return _("Assumptions: ") + "; ".join(parts) + "."


def thumbs_up_text(runs: TrainingRuns) -> str:
    """What the toy trained on thumbs-ups became, and whether the checker agrees with it."""
    run = runs.thumbs_up
    if not any(run.reward.chances):
        return _("**Thumbs-up:** nobody gave a 👍, so every reward was 0: it learned nothing.")
    verdict = ""
    if _is_clear(run):
        passed = runs.checker.reward.chances[run.labels.index(run.favourite)] == 1
        verdict = (
            _("The checker passes it too: this channel rated like a checker.")
            if passed
            else _("The checker marks that one wrong.")
        )
    return _sentence(_("**Thumbs-up:** {outcome}", outcome=_outcome(run)), verdict)


def checker_text(run: TrainingRun) -> str:
    """What the toy trained on the real checker became."""
    if not any(run.reward.chances):
        return _("**Checker:** the checker passed no attempt, so it learned nothing.")
    return _("**Checker:** {outcome}", outcome=_outcome(run))


def naive_checker_text(runs: TrainingRuns) -> str:
    """What the toy trained on a naive 'gold appears anywhere' checker became."""
    run = runs.naive_checker
    if not any(run.reward.chances):
        return _("**Naive checker:** no attempt passed it, so it learned nothing.")
    pairs = zip(run.labels, run.reward.chances, runs.checker.reward.chances, strict=True)
    fooled = [label for label, naive, real in pairs if naive > real]
    also = _(" and ").join(fooled)
    faked = _(
        "It also pays {also}, which the checker rejects: a reward a model can fake.", also=also
    )
    outcome = _("**Naive checker:** {outcome}", outcome=_outcome(run))
    return _sentence(outcome, faked if fooled else "")


def _chances(run: TrainingRun) -> str:
    pairs = zip(run.labels, run.reward.chances, strict=True)
    shown = [f"{label} {whole_percent(chance)}" for label, chance in pairs if chance > 0]
    if 0 in run.reward.chances:
        zero = whole_percent(0)
        shown.append(_("others {zero}", zero=zero) if shown else _("all {zero}", zero=zero))
    return ", ".join(shown)


def _sentence(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _outcome(run: TrainingRun) -> str:
    final = run.final_probs
    if _is_clear(run):
        return _(
            "it ends up picking **{favourite}** {share} of the time.",
            favourite=run.favourite,
            share=whole_percent(final[run.favourite]),
        )
    top = sorted(final.items(), key=lambda item: -item[1])[:2]
    shares = _(" and ").join(f"{label} {whole_percent(prob)}" for label, prob in top)
    return _("no clear favourite: {shares}.", shares=shares)


def _is_clear(run: TrainingRun) -> bool:
    return max(run.final_probs.values()) >= CLEAR_PREFERENCE
