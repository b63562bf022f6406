"""Run the benchmarks, print a table and write the figures as JSON: ``python -m benchmarks``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks import machine, table
from benchmarks.merge import keep_previous
from benchmarks.suite import BENCHMARKS, Figure, Outcome, run_benchmark, skipped
from benchmarks.targets import targets_met

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


def results(outcomes: list[Outcome], quick: bool, only: str | None) -> dict[str, object]:
    """The JSON document: every figure at the top level, then notes, targets and the machine."""
    figures, notes = merged(outcomes)
    details = {name: value for outcome in outcomes for name, value in outcome.details.items()}
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return {
        **figures,
        **details,
        "notes": notes,
        "targets": targets_met(figures),
        "seconds": {b.name: round(o.seconds, 1) for b, o in zip(BENCHMARKS, outcomes, strict=True)},
        "timestamps": {b.name: now for b in BENCHMARKS if only in (None, b.name)},
        "machine": machine.describe(),
        "quick": quick,
        "only": only,
        "timestamp": now,
    }


def measured_keys(outcomes: list[Outcome], only: str) -> set[str]:
    """The keys the `--only` benchmark reported in this run."""
    outcome = next(o for b, o in zip(BENCHMARKS, outcomes, strict=True) if b.name == only)
    return set(outcome.figures) | set(outcome.details)


def main(argv: list[str] | None = None) -> int:
    """Run, print the table, write the JSON; exit 1 if a benchmark failed to run."""
    args = parse_args(argv)
    started = time.perf_counter()
    outcomes = run_all(args.quick, args.only)
    figures, notes = merged(outcomes)
    numbers = {name: value for name, value in figures.items() if not isinstance(value, str)}
    print(table.render(numbers, notes), flush=True)
    document = results(outcomes, args.quick, args.only)
    if args.only and args.output.exists():
        previous = json.loads(args.output.read_text())
        document = keep_previous(document, previous, measured_keys(outcomes, args.only), args.only)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(document, indent=2) + "\n")
    print(f"\nwrote {args.output} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 1 if any(outcome.failed for outcome in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
