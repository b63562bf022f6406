"""Run the benchmarks, print a table and write the figures as JSON: ``python -m benchmarks``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks import machine, table
from benchmarks.suite import BENCHMARKS, Figure, Outcome, as_figure, run_benchmark, skipped
from benchmarks.targets import TARGETS

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results.json"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line: --quick, --only NAME, --output PATH."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds each")
    parser.add_argument("--only", choices=[b.name for b in BENCHMARKS], help="one benchmark")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON file to write")
    return parser.parse_args(argv)


def run_all(quick: bool, only: str | None) -> list[Outcome]:
    """Every benchmark (or just `only`), each reporting its progress on stderr."""
    outcomes = []
    for benchmark in BENCHMARKS:
        if only and benchmark.name != only:
            outcomes.append(skipped(benchmark, f"not measured in this run (--only {only})"))
            continue
        print(f"running {benchmark.name}...", file=sys.stderr, flush=True)
        outcome = run_benchmark(benchmark, quick)
        print(f"  {benchmark.name}: {outcome.seconds:.1f} s", file=sys.stderr, flush=True)
        outcomes.append(outcome)
    return outcomes


def merged(outcomes: list[Outcome]) -> tuple[dict[str, Figure], dict[str, str]]:
    """Every benchmark's figures and notes, in running order."""
    figures: dict[str, Figure] = {}
    notes: dict[str, str] = {}
    for outcome in outcomes:
        figures.update(outcome.figures)
        notes.update(outcome.notes)
    return figures, notes


def results(
    outcomes: list[Outcome], quick: bool, only: str | None, earlier: dict[str, object] | None = None
) -> dict[str, object]:
    """The JSON document: every figure at the top level, then notes, targets and the machine.

    With `only`, the other benchmarks' figures, notes and seconds are kept as `earlier` (the
    file as it was) had them, and `kept_from` says when those were measured.
    """
    figures, notes = merged(outcomes)
    seconds = {b.name: round(o.seconds, 1) for b, o in zip(BENCHMARKS, outcomes, strict=True)}
    kept: dict[str, object] = {}
    if only is not None and earlier:
        ran = next(o for b, o in zip(BENCHMARKS, outcomes, strict=True) if b.name == only)
        figures, notes, seconds = _kept(earlier, figures, ran, only, seconds)
        kept = {"kept_from": earlier.get("kept_from") or earlier.get("timestamp")}
    met = {name: {"target": str(target), "met": target.met(figures[name])}
           for name, target in TARGETS.items() if name in figures}
    return {
        **figures,
        "notes": notes,
        "targets": met,
        "seconds": seconds,
        "machine": machine.describe(),
        "quick": quick,
        "only": only,
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        **kept,
    }


DOCUMENT_KEYS = ("notes", "targets", "seconds", "machine", "quick", "only", "timestamp",
                 "kept_from")


def _kept(
    earlier: dict[str, object],
    figures: dict[str, Figure],
    ran: Outcome,
    only: str,
    seconds: dict[str, float],
) -> tuple[dict[str, Figure], dict[str, str], dict[str, float]]:
    """Earlier figures, notes and seconds, with those of the one benchmark run now on top."""
    old_notes = earlier.get("notes")
    notes = {k: str(v) for k, v in (old_notes if isinstance(old_notes, dict) else {}).items()
             if k not in ran.figures}
    old_seconds = earlier.get("seconds")
    kept_seconds = dict(old_seconds) if isinstance(old_seconds, dict) else dict(seconds)
    kept_seconds[only] = seconds[only]
    old_figures = {k: as_figure(v) for k, v in earlier.items() if k not in DOCUMENT_KEYS}
    return {**figures, **old_figures, **ran.figures}, {**notes, **ran.notes}, kept_seconds


def earlier_results(path: Path) -> dict[str, object] | None:
    """The results file as it is, if there is a readable one."""
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def main(argv: list[str] | None = None) -> int:
    """Run, print the table, write the JSON; exit 1 if a benchmark failed to run."""
    args = parse_args(argv)
    started = time.perf_counter()
    outcomes = run_all(args.quick, args.only)
    figures, notes = merged(outcomes)
    numbers = {name: value for name, value in figures.items() if not isinstance(value, str)}
    print(table.render(numbers, notes), flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    earlier = earlier_results(args.output) if args.only else None
    document = results(outcomes, args.quick, args.only, earlier)
    args.output.write_text(json.dumps(document, indent=2) + "\n")
    print(f"\nwrote {args.output} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 1 if any(outcome.failed for outcome in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
