"""What the statement analyser finds in a clause, and words shared by both languages: pure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Clause:
    text: str
    lang: str  # "ko" or "en"
    subject: str  # "speaker", "circle", "other", "assistant"
    predicate: str
    tense: str  # "past", "present", "future", "plan"
    negated: bool
    mood: str  # "statement", "question", "hypothetical", "quotation", "request", "exclamation"
    momentary: bool
    content: str  # the clean phrase
    plain: str  # the clause as a plain first-person statement (for slot rules)
    verbless: bool = False  # no predicate at all ("주제는 사내 보안교육")


@dataclass(frozen=True)
class Statement:
    clause: Clause
    memorable: bool
    reason: str  # why not, or "" when memorable
    type: str = "fact"
    content: str = ""
    happens_on: date | None = None


# Words that tell an aside, a joke or a retraction: what surrounds them is not a statement of
# fact about the speaker.
_ASIDE = re.compile(
    r"농담|장난(?:이야|이에요|임)|궁금해서|대신\s*물어|물어봐서|해본\s*말|신경\s*쓰지\s*마|"
    # venting: the day's troubles told to be heard, not kept
    r"푸념|하소연|넋두리|\bjust\s+(?:venting|ranting)\b|\bsorry\s+for\s+the\s+rant\b|"
    r"\b(?:joke|joking|kidding|just\s+curious|just\s+wondering|asking\s+for\s+a\s+friend|"
    r"never\s*mind|scratch\s+that|thinking\s+out\s+loud|daydreaming|hypothetically)\b",
    re.IGNORECASE,
)
# Single quotes only as quote marks, never as apostrophes ("my dog's name ... he's").
_QUOTED = re.compile(r"(?<!\w)'[^']{2,}'(?!\w)|\"[^\"]{2,}\"|‘[^’]{2,}’|“[^”]{2,}”")
_NOISE = re.compile(r"[ㅋㅎㅠㅜ]{2,}|\^\^|;;+|[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]")


_SUBJUNCTIVE = re.compile(
    r"\b(?:if\s+I\s+(?:were|had|won|could|was)|I'd\s+\w+[^.]{0,60}\bif\b|would\s+\w+\s+if|"
    r"i\s+wish|someday|what\s+if)\b|만약|만일|다면|었으면|았으면",
    re.IGNORECASE,
)


def is_hypothetical(text: str) -> bool:
    """A wish or a supposition ("if I won ...", "만약 ...라면"), as opposed to a standing
    condition ("if I paste code, ...")."""
    return bool(_SUBJUNCTIVE.search(text))
