"""Scale of state: memory with many runs active in one process; views and clicks as answers grow.

Memory is measured in a fresh subprocess that starts the runs through the engine (see
`scale_memory`). Reveal time is the median of several reveals of one question holding 10 to
10,000 answers (see `scale_reveal`), and click time the median of clicks at a question holding
10 and 2,000 answers, the size of the vote burst (see `scale_clicks`; also on PostgreSQL when
TEST_DATABASE_URL is set). The growth between the smallest and largest size is the figure to
watch.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmarks import scale_clicks, scale_memory, scale_reveal
from benchmarks.databases import (
    SERVER_URL_VARIABLE,
    fresh_sqlite,
    migrated_template,
    scratch_server_database,
    server_url,
    sqlite_url,
)

Figures = dict[str, float | str | None]


@dataclass(frozen=True)
class ScaleSizes:
    """How big a scale benchmark is."""

    runs: int
    answers_per_run: int
    answer_counts: tuple[int, ...]
    click_counts: tuple[int, int]
    repeats: int


FULL = ScaleSizes(runs=1000, answers_per_run=3, answer_counts=(10, 100, 1000, 10_000),
                  click_counts=(10, 2000), repeats=15)
QUICK = ScaleSizes(runs=50, answers_per_run=3, answer_counts=(10, 10_000),
                   click_counts=(10, 2000), repeats=3)


def run(quick: bool = False) -> Figures:
    """Memory of many active runs, and reveal and click times by answer count."""
    sizes = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="lessonbot-bench-") as name:
        directory = Path(name)
        template = migrated_template(directory)
        figures = memory_figures(sqlite_url(fresh_sqlite(template, directory, "runs")), sizes)
        reveals = scale_reveal.reveal_growth(template, directory, sizes.answer_counts,
                                             sizes.repeats)
        figures.update(asyncio.run(reveals))
        clicks_url = sqlite_url(fresh_sqlite(template, directory, "clicks"))
        figures.update(click_figures(clicks_url, sizes, ""))
    figures.update(server_click_figures(sizes))
    figures["reveal_growth"] = growth(figures, "reveal_ms", sizes.answer_counts)
    return figures


def memory_figures(url: str, sizes: ScaleSizes) -> Figures:
    """Resident memory of a process holding `sizes.runs` active runs, in MiB."""
    measured = scale_memory.measure(url, sizes.runs, sizes.answers_per_run)
    return {
        "rss_mb_1000_runs": measured["total_mb"],
        "rss_mb_runs_growth": measured["total_mb"] - measured["baseline_mb"],
        "rss_mb_baseline": measured["baseline_mb"],
        "rss_mb_peak": measured["peak_mb"],
        "rss_runs": float(sizes.runs),
        "rss_failed_clicks": measured["failed"],
    }


def click_figures(url: str, sizes: ScaleSizes, prefix: str) -> Figures:
    """Median click time at a question with few and with many answers, and their ratio."""
    counts = sizes.click_counts
    measured = asyncio.run(scale_clicks.click_growth(url, counts, sizes.repeats))
    figures: Figures = {prefix + name: value for name, value in measured.items()}
    figures[f"{prefix}click_growth"] = growth(figures, f"{prefix}click_ms", counts)
    return figures


def server_click_figures(sizes: ScaleSizes) -> Figures:
    """Click growth on a scratch PostgreSQL database, or nulls when none is configured."""
    url = server_url()
    if url is None:
        names = [f"pg_click_ms_{count}" for count in sizes.click_counts] + ["pg_click_growth"]
        note = f"not measured: {SERVER_URL_VARIABLE} is not set"
        return {**dict.fromkeys(names), "pg_clicks": note}
    with scratch_server_database(url) as scratch:
        return click_figures(scratch, sizes, "pg_")


def growth(figures: Figures, stem: str, counts: tuple[int, ...]) -> float | None:
    """How many times slower `stem` is at the largest count than at the smallest."""
    small, large = figures.get(f"{stem}_{counts[0]}"), figures.get(f"{stem}_{counts[-1]}")
    if isinstance(small, float) and isinstance(large, float) and small > 0:
        return large / small
    return None
