"""One module per kind of step; each kind owns its card, actions, votes, tally, reveal, results.

Every module of this package is loaded here, so a kind registers itself by being a file.
"""

import importlib
import pkgutil

from bot.engine.steps.base import (
    CardExtras,
    KindOfStep,
    Members,
    ModeWords,
    OpenForm,
    OwnTurn,
    Reply,
    RunData,
    StepResult,
    button_address,
    kind_of,
    known_kinds,
    more_button,
    offer_of,
)
from bot.engine.steps.verdicts import AttemptVerdicts

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "AttemptVerdicts",
    "CardExtras",
    "KindOfStep",
    "Members",
    "ModeWords",
    "OpenForm",
    "OwnTurn",
    "Reply",
    "RunData",
    "StepResult",
    "button_address",
    "kind_of",
    "known_kinds",
    "more_button",
    "offer_of",
]
