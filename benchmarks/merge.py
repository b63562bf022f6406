"""A `--only` run keeps the other benchmarks' figures from the results file it replaces."""

from __future__ import annotations

from collections.abc import Mapping

from benchmarks.targets import targets_met

RUN_KEYS = ("notes", "targets", "seconds", "timestamps", "machine", "quick", "only", "timestamp")
"""Keys that describe a run rather than a figure."""


def keep_previous(current: Mapping[str, object], previous: Mapping[str, object],
                  measured: set[str], only: str) -> dict[str, object]:
    """`current` with every figure `only` did not measure taken from `previous`, if it has one."""
    fresh = {key for key in current
             if key not in RUN_KEYS and (key in measured or key not in previous)}
    figures = {key: current[key] if key in fresh else previous[key]
               for key in current if key not in RUN_KEYS}
    figures |= {key: value for key, value in previous.items()
                if key not in RUN_KEYS and key not in figures}
    notes = {key: note for key, note in _mapping(previous, "notes").items() if key not in fresh}
    notes |= {key: note for key, note in _mapping(current, "notes").items() if key in fresh}
    return {
        **figures,
        "notes": notes,
        "targets": targets_met(figures),
        "seconds": _mapping(previous, "seconds") | {only: _mapping(current, "seconds")[only]},
        "timestamps": _timestamps(previous) | _mapping(current, "timestamps"),
        "machine": _machine(previous, current),
        **{key: current[key] for key in ("quick", "only", "timestamp")},
    }


def _machine(previous: Mapping[str, object], current: Mapping[str, object]) -> dict[str, object]:
    """This run's machine, with what it could not describe (a database) kept from `previous`."""
    described = {key: value for key, value in _mapping(current, "machine").items()
                 if not str(value).startswith("not measured")}
    return _mapping(previous, "machine") | described


def _timestamps(previous: Mapping[str, object]) -> dict[str, object]:
    """When each benchmark in `previous` was measured (its run's timestamp if not recorded)."""
    recorded = _mapping(previous, "timestamps")
    return recorded or dict.fromkeys(_mapping(previous, "seconds"), previous.get("timestamp"))


def _mapping(document: Mapping[str, object], key: str) -> dict[str, object]:
    value = document.get(key)
    return dict(value) if isinstance(value, Mapping) else {}
