"""Numbers of identity documents stated as such: pure functions, no Django.

A passport's number (여권번호 M12345678, "passport number 123456789") or a driver's licence's
(운전면허 번호 11-22-334455-66) names its holder the way a 주민등록번호 does. Each counts only
after a cue that names the document and only in a document number's shape: "passport expires
2031", "여권 사진 35x45", "면허 딴 지 3년" stay whole. Detectors take the folded text
(`redaction._fold`) and return `(start, end, kind)` spans.
"""

from __future__ import annotations

import re

from memories.logic.secret_rules import Span, mentions

ID_DOCUMENT = "id document number"

# Words that may come between the cue and the number: "is", a colon, a particle, "for my son".
_GAP = r"(?:[ \t]*(?:은|는|이|가|:|=|#|is|was|no\.?|number))*[^0-9A-Z\n]{0,24}?"
_PASSPORT = re.compile(
    r"(?i:여권(?: ?번호)?|passport(?: ?(?:number|no\.?|num|#))?)"
    + _GAP
    # Korean M12345678 or M123A4567, letters then digits elsewhere, or 8-9 digits (US)
    + r"(?<![0-9A-Za-z])(?P<value>[A-Z]{1,2}[0-9]{7,8}|[A-Z][0-9]{3}[A-Z][0-9]{4}|[0-9]{8,9})"
    r"(?![0-9A-Za-z\-])(?! ?(?:원|달러|won|usd|\$|명|개|번째))"
)
_LICENCE = re.compile(
    r"(?i:(?:운전 ?)?면허(?: ?증)? ?번호|driver'?s? ?licen[cs]e(?: ?(?:number|no\.?|num|#))?|"
    r"(?<![A-Za-z])DL ?(?:number|no\.?|#))"
    + _GAP
    # Korean 11-22-334455-66 (the region may be a word), or letters and digits (US states)
    + r"(?<![0-9A-Za-z])(?P<value>(?:[0-9]{2}|[가-힣]{2}) ?-? ?[0-9]{2}-[0-9]{6}-[0-9]{2}"
    r"|[A-Z]{1,2}[0-9]{6,12}|[0-9]{7,12})(?![0-9A-Za-z\-])"
)
_NEEDLES = ("여권", "passport", "면허", "licen", "dl")


def document_spans(text: str) -> list[Span]:
    """Passport and driver's licence numbers after a cue that names them."""
    if not mentions(text, _NEEDLES):
        return []
    return [
        (match.start("value"), match.end("value"), ID_DOCUMENT)
        for pattern in (_PASSPORT, _LICENCE)
        for match in pattern.finditer(text)
    ]
