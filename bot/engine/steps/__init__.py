"""One module per kind of step; each kind owns its card, actions, tally, reveal and results line.

Every module of this package is loaded here, so a kind registers itself by being a file.
"""

import importlib
import pkgutil

from bot.engine.steps.base import (
    CardExtras,
    KindOfStep,
    ModeWords,
    RunData,
    StepResult,
    button_address,
    kind_of,
    known_kinds,
    more_button,
)

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "CardExtras",
    "KindOfStep",
    "ModeWords",
    "RunData",
    "StepResult",
    "button_address",
    "kind_of",
    "known_kinds",
    "more_button",
]
