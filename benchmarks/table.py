"""The results as a plain-text table of metric, value, target and whether it was met."""

from __future__ import annotations

from collections.abc import Mapping

from benchmarks.targets import TARGETS

NOT_MEASURED = "n/a"
MET_WORDS = {True: "yes", False: "NO", None: ""}


def format_value(value: object) -> str:
    """A figure as text: three significant digits for floats, n/a for null."""
    if value is None:
        return NOT_MEASURED
    if isinstance(value, float):
        return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.3g}"
    return str(value)


def rows(figures: Mapping[str, object]) -> list[tuple[str, str, str, str]]:
    """One row per figure: name, value, target and whether it was met."""
    table = []
    for name, value in figures.items():
        target = TARGETS.get(name)
        met = target.met(value) if target else None
        table.append((name, format_value(value), str(target or ""), MET_WORDS[met]))
    return table


def render(figures: Mapping[str, object], notes: Mapping[str, str]) -> str:
    """The table, columns aligned, with notes on figures that were not measured."""
    header = ("metric", "value", "target", "met?")
    body = rows(figures)
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
             for row in [header, *body]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    lines += [f"{name}: {note}" for name, note in notes.items()]
    return "\n".join(line.rstrip() for line in lines)
