"""A short sentence that states one answer, as people type it in a chat, cut down to the answer.

Read in every language the checker knows (English, Spanish), whatever the run's language:

* lead-ins, one after another: "So", "Therefore,", "Por lo tanto,"; then "Answer 9",
  "Answer: 9", "The final answer is", "We find that", "I got", "Respuesta:", "La respuesta
  es", "El resultado es", "Obtenemos"...
* endings: "... is the solution", "... is the answer", "... es la respuesta";
* "per cent" and "por ciento" after a number, as a percent sign.

In a language that joins values with short words (Spanish "1 y 2", "3 o 4"), those words
become "and" and "or", so that several values stay several values (and a hedge stays a hedge)
instead of being read as a letter. Only text is rewritten here; what is left is read by the
restricted parser as before, so a sentence that states anything else is still refused.
"""

from __future__ import annotations

import re

from bot.i18n import current_language

_CONNECTOR = (
    r"(?:and\s+)?(?:so|thus|therefore|hence|then|finally|which\s+gives|this\s+gives"
    r"|así\s+que|asi\s+que|entonces|por\s+lo\s+tanto|por\s+tanto|luego|finalmente"
    r"|en\s+conclusión|en\s+conclusion|de\s+modo\s+que|lo\s+que\s+da|esto\s+da)"
)
_IS = r"(?:is|would\s+be|will\s+be|es|sería|seria|será|sera)(?![\w'’])"
_NOUN = (
    r"(?:(?:the|my|our)\s+)?(?:final\s+)?(?:answer|result|solution)"
    r"|(?:(?:la|mi|nuestra)\s+)?(?:respuesta|solución|solucion)(?:\s+final)?"
    r"|(?:(?:el|mi|nuestro)\s+)?resultado(?:\s+final)?"
)
_FINDING = (
    r"(?:we|i)\s+(?:find|found|get|got|obtain|obtained|conclude|have)(?:\s+that)?"
    r"|it\s+is|it's|it’s"
    r"|(?:obtenemos|obtengo|tenemos|tengo|encontramos|encuentro|me\s+sale|me\s+da|sale|da"
    r"|queda|nos\s+queda|es)(?:\s+que)?"
)
_LEAD_IN = re.compile(
    rf"\s*(?:{_CONNECTOR}\s*,?\s*)*(?:"
    rf"(?:{_NOUN})\s+{_IS}\s*[:=]?(?:\s+|(?=[\s.]*$))"
    rf"|(?:{_FINDING})\s*[:=]?\s+"
    rf"|(?:{_NOUN})\s*[:=]\s*"
    rf"|(?:{_NOUN})\s+)",
    re.IGNORECASE,
)
_CONNECTOR_ONLY = re.compile(rf"\s*(?:{_CONNECTOR}\s*,?\s+)+", re.IGNORECASE)
_ENDING = re.compile(
    rf"\s+{_IS}\s+(?:(?:the|my|our)\s+)?(?:final\s+)?(?:answer|result|solution)"
    r"|\s+es\s+(?:la|mi)\s+(?:respuesta|solución|solucion)(?:\s+final)?"
    r"|\s+es\s+el\s+resultado(?:\s+final)?",
    re.IGNORECASE,
)
_FULL_STOP = re.compile(r"[\s.]*$")
_PER_CENT = re.compile(r"(?<=[\d\s}$)])\s*(?:per\s+cent|por\s+ciento|porciento)(?![A-Za-z])",
                       re.IGNORECASE)
_JOINING_WORDS = {"es": {"y": "and", "o": "or", "u": "or"}}
"""Words that join values in a language, and the English word the reader knows them by."""


def stated_answer(text: str) -> str:
    """The answer a short sentence states: `text` without its lead-ins and its ending.

    A lead-in with nothing after it ("Final answer:") leaves nothing, and is refused as empty.
    """
    core = _without_ending(_without_lead_ins(text))
    core = _PER_CENT.sub("%", core)
    return _joined_in_english(core, current_language())


def _without_lead_ins(text: str) -> str:
    """Drop connectors and a lead-in from the start of `text` ('Final answer:' leaves nothing).

    Connectors alone ('So') are dropped only if an answer is left after them.
    """
    lead_in = _LEAD_IN.match(text)
    if lead_in:
        return text[lead_in.end():]
    connectors = _CONNECTOR_ONLY.match(text)
    if connectors and text[connectors.end():].strip():
        return text[connectors.end():]
    return text


def _without_ending(text: str) -> str:
    """Drop an ending such as 'is the solution' (and a full stop after it) from `text`."""
    stop = _FULL_STOP.search(text)
    body = text[: stop.start()] if stop else text
    for found in _ENDING.finditer(body):
        if found.end() == len(body) and body[: found.start()].strip():
            return body[: found.start()]
    return text


def _joined_in_english(text: str, language: str) -> str:
    """Write the words that join values in `language` ('1 y 2', '3 o 4') as 'and' and 'or'."""
    words = _JOINING_WORDS.get(language)
    if not words:
        return text
    pattern = re.compile(rf"(?<=[\d)\]}}$])\s+({'|'.join(words)})\s+(?=\S)", re.IGNORECASE)
    return pattern.sub(lambda found: f" {words[found.group(1).lower()]} ", text)
