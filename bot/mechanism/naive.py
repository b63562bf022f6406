"""A naive checker: reward any text that mentions the gold answer anywhere."""

from __future__ import annotations

import re


def naive_reward(text: str, gold: str) -> float:
    """1.0 if `gold` appears in `text` as a whole token, else 0.0 (easily fooled by a hedge)."""
    pattern = rf"(?<![\w.]){re.escape(gold.strip())}(?![\w]|\.\d)"
    return 1.0 if re.search(pattern, text) else 0.0
