"""The environment a bot process is started with: this checkout's code, chosen settings only."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository: first on a bot process's import path, so it runs this checkout's code."""


def process_environment(cleared: tuple[str, ...], settings: Mapping[str, str]) -> dict[str, str]:
    """This process's environment without the variables starting with `cleared`, plus `settings`."""
    kept = {key: value for key, value in os.environ.items() if not key.startswith(cleared)}
    path = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    return kept | {"PYTHONPATH": path} | dict(settings)
