"""The answer checker: an exact, sandboxed, verifiable reward for typed answers and attempts.

How answers are graded:

* Values are compared exactly (decimals are exact rationals, so 0.333 is not 1/3 and 3.14 is
  not pi); equal means the difference simplifies to zero.
* Accepted forms include 1/2, 0.5, 50%, \\frac{1}{2}, $2.50, 1,000, x = 3, \\boxed{...},
  (x+1)^2, sqrt(2), \\sqrt[3]{8}, pi, implicit products such as 2x, number words up to a
  thousand (three) and fractions in words (three quarters), 204_5 (a base subscript), and a
  short sentence that states one answer: lead-ins such as Final answer:, **Answer:**, Answer 9,
  So the answer is, We find that, and endings such as "is the solution" (phrases.py).
* A gold written as a matrix (\\begin{pmatrix}...) is compared entry by entry (matrices.py).
* The gold decides the kind of answer: one value, a set ({1, 2}, \\pm 3), an ordered tuple
  ((3, 2)), an interval or inequality ([0, 1), x \\le 5) or words (odd, with the lesson's
  `accept` spellings); see answers.py and words.py.
* A step may name the unit its answer is in (`unit="km/h"`): that unit, written out or
  abbreviated after the number, or none, is accepted; any other known unit is REJECTED by
  name, never converted. Without a unit, a unit after the number is REJECTED, and so is a
  letter right after a number (5x) when the gold has no letters; a degree sign is notation
  (90° is 90) unless the gold has pi in it.
* Against a single value, hedges (3 or 4, 3, 4, ±1, two different boxed answers), equations
  such as 2+2=5, factorials, unknown words and symbols are REJECTED with a plain-English
  reason. An answer that only another reading of its commas would make right is asked about.
* Answers are read in a language (`language`, "en" by default), and the numbers a verdict
  shows are written as it writes them. Spanish ("es") has its lead-ins (Respuesta:), number
  words (tres cuartos) and joining words (3 o 4), and writes a decimal comma: 3,5 is 3.5 and
  1.234,5 is 1234.5; 1,234 (1.234 or 1234?) is asked about
  when only one reading is right, and a comma that may separate values is never silently
  read as a decimal one (see decimal_comma.py). Gold answers take a point in every language.
* Unicode is NFKC-normalised, minus-sign look-alikes become '-', zero-width characters are
  removed (so 1\u200b000 reads as 1000), and text-direction controls are refused.

Use :class:`Checker` (asynchronous; all parsing runs in worker processes with a timeout
and a memory cap). `extract_final_answer` is a pure string function, safe anywhere.
"""

from bot.verifier.checker import Checker
from bot.verifier.errors import CheckerBusy, CheckerCrashed, CheckerError, ReadError
from bot.verifier.extract import extract_final_answer
from bot.verifier.verdict import Grade, Verdict

__all__ = [
    "Checker", "CheckerBusy", "CheckerCrashed", "CheckerError", "Grade", "ReadError", "Verdict",
    "extract_final_answer",
]
