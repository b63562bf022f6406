"""Size limits that keep every check small, fast and bounded."""

from __future__ import annotations

ANSWER_MAX_CHARS = 200
"""Longest answer a member may type."""

ATTEMPT_MAX_CHARS = 4096
"""Longest authored sample attempt (reasoning text plus its final answer)."""

GOLD_MAX_CHARS = 500
"""Longest authored gold answer."""

EXTRACTED_MAX_CHARS = 500
"""Longest final answer taken out of an attempt."""

MAX_NESTING = 30
"""Deepest allowed nesting of brackets, fractions and powers."""

MAX_NUMBER_BITS = 12_000
"""Largest numerator or denominator (in bits, about 3,600 digits) an answer may reach."""

MAX_DECIMAL_EXPONENT = 1_000
"""Largest power of ten written in scientific notation, as in 1e1000."""

MAX_SYMBOLIC_EXPONENT = 200
"""Largest whole-number power of an expression with letters in it, as in (x+1)^200."""

MAX_SIMPLIFY_OPS = 200
"""Largest difference (in operations) that is worth handing to sympy's simplify."""

PREVIEW_CHARS = 60
"""How much of an unreadable input is echoed back to the member."""
