"""The offline reply: a short paragraph, in the language of the message, saying what the
assistant recalls. No Django, no database: the caller hands over what was recalled.

The paragraph quotes what it recalls ("지난번에 “...”라고 하셨어요" / "Yesterday you said
“...”."), so the wording never claims more than was stored; the details (ids, scores, the
rest of the context) stay in the "remembered" panel. Nothing internal is written: no ids, no
bracketed labels, no ISO times, no setting names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from memoryhub.text import REDACTION_MARKER, REMOVED_MARKER

# How many recalled things one reply quotes, and how long a quote may be.
MAX_ITEMS = 3
MAX_QUOTE_CHARS = 120


@dataclass(frozen=True)
class Recalled:
    """One thing recalled for the reply, best first. A message is always a statement of the
    user's (`conversations.logic.said`): the reply tells it back as what they said.

    `answers` when it answers the question (of the kind asked, about what it names: a plan
    about the trip for "what did I plan for the trip?"); `related` when it is about what the
    message names without answering it. The reply quotes only these two."""

    kind: Literal["memory", "message", "summary"]
    text: str
    at: datetime | None = None
    answers: bool = False
    related: bool = False


@dataclass(frozen=True)
class Recollection:
    """What the offline reply works from: the question's intent and what was recalled."""

    question: bool
    kind: str = ""
    items: Sequence[Recalled] = ()
    # For a message with nothing to recall ("ㅇㅋ", "thanks!", "👍"): its kind
    # (`conversations.logic.said.SmallTalk`), answered in a few words without recall.
    small_talk: str = ""


_KO: dict[str, str] = {
    "memory_first": "{lead}“{text}”라고 기억하고 있어요.",
    "memory_more": "“{text}”라는 것도 기억하고 있어요.",
    "user_said": "{when} “{text}”라고 하셨어요.",
    "summary": "{when} 나눈 대화는 “{text}”라는 내용이었어요.",
    "nothing_asked": "이 질문과 관련해 기억하고 있는 내용은 아직 없어요.",
    "related_only": "관련해서 기억나는 건 이 정도예요.",
    "small_thanks": "천만에요! 😊",
    "small_laugh": "ㅎㅎ 재밌네요 😄",
    "small_greeting": "안녕하세요! 😊",
    "small_wellbeing": "덕분에 잘 지내고 있어요! 😊",
    "small_bye": "네, 다음에 또 이야기해요!",
    "small_ask": "어떤 게 궁금하신지 조금 더 말씀해 주시겠어요?",
    "small_ack": "네, 알겠어요!",
    "noted": "말씀하신 내용 잘 들었어요.",
    "related": "관련해서 기억나는 게 있어요.",
    "offline": "지금은 언어 모델 없이 답하고 있어서, 기억하고 있는 내용만 알려 드릴 수 있어요.",
    "today": "오늘",
    "yesterday": "어제",
    "days_ago": "{n}일 전에",
    "date": "{month}월 {day}일에",
    "date_year": "{year}년 {month}월 {day}일에",
    "earlier": "지난번에",
}
_EN: dict[str, str] = {
    "memory_first": "{lead}“{text}”.",
    "memory_more": "I also remember “{text}”.",
    "user_said": "{when} you said “{text}”.",
    "summary": "{when} we talked about this: “{text}”.",
    "nothing_asked": "I don't have anything remembered about this yet.",
    "related_only": "Here is what I do recall about it.",
    "small_thanks": "You're welcome! 😊",
    "small_laugh": "Haha 😄",
    "small_greeting": "Hi! 😊",
    "small_wellbeing": "I'm doing well, thanks for asking! 😊",
    "small_bye": "Talk to you later!",
    "small_ask": "Could you tell me a bit more about what you'd like to know?",
    "small_ack": "Okay!",
    "noted": "Got it, thanks for telling me.",
    "related": "Here is what I recall about it.",
    "offline": "I'm running without a language model right now, so I can only tell you what I "
    "remember.",
    "today": "Earlier today",
    "yesterday": "Yesterday",
    "days_ago": "{n} days ago",
    "date": "On {month_name} {day}",
    "date_year": "On {month_name} {day}, {year}",
    "earlier": "Earlier",
}
_STRINGS = {"ko": _KO, "en": _EN}
# How the first memory is introduced, by the question's kind (when it answers it).
_LEADS: dict[str, dict[str, str]] = {
    "ko": {
        "plans": "하기로 하신 일은 ",
        "current": "지금은 ",
        "preference": "좋아하시는 건 ",
        "past": "있었던 일로는 ",
        "": "",
    },
    "en": {
        "plans": "What you planned: ",
        "current": "The latest I have: ",
        "preference": "What you like: ",
        "past": "What happened: ",
        "": "I remember ",
    },
}
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

# Text that must never be quoted to a person as it is: the search tool's and the old
# offline reply's labels ("[message 5, 2026-12-01]", "[memory 3 v1, fact]", "[topic: a, b]").
# Forgetting's "[removed]" and the marker of withheld text are never quoted either: a quote
# keeps what is left around them, or is dropped when nothing is.
_LABEL = re.compile(
    r"\[(?:message|memory|session|topic|withheld)\b[^\]]*\]\s*|" + re.escape(REMOVED_MARKER),
    re.IGNORECASE,
)
# A search tool's answer when it found nothing, and setting names ("ANTHROPIC_API_KEY",
# "MEMORYHUB_CONTEXT_TOKEN_BUDGET"): words of the machinery, never of the person.
_MACHINERY = re.compile(
    r"\((?:nothing|no\s+results?|none)\s+found\)|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", re.IGNORECASE
)
# An ISO date or time ("2026-12-11", "2026-12-11T15:30:00+09:00"), written as a person
# writes it instead.
_ISO_TIME = re.compile(
    r"\b(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::\d\d(?:\.\d+)?)?)?"
    r"(?:Z|[+-]\d\d:?\d\d)?(?![\d:])"
)
# A clause that held a secret says only that something was hidden: the quote leaves it out.
_CLAUSE = re.compile(r"(?<=[.!?,;])\s+|\n+")
_SPACE = re.compile(r"\s+")
# Punctuation left dangling where a marker was ("bank [removed])." -> "bank )."), and the
# spaces before punctuation it leaves.
_WITHHELD = re.compile(r"[\[(（]\s*withheld\b", re.IGNORECASE)
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+(?=[.,;:!?)\]}”’])")
_EMPTY_PAIR = re.compile(r"\(\s*\)|\[\s*\]|“\s*”|\{\s*\}")
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"), ("“", "”"))
_WORD = re.compile(r"\w")


def when_phrase(at: datetime | None, *, today: date, language: str) -> str:
    """When something was said, as a person says it: "어제", "3일 전에", "On March 4"."""
    strings = _STRINGS[language]
    if at is None:
        return strings["earlier"]
    days = (today - at.date()).days
    if days <= 0:
        return strings["today"]
    if days == 1:
        return strings["yesterday"]
    if days < 7:
        return strings["days_ago"].format(n=days)
    key = "date" if at.year == today.year else "date_year"
    return strings[key].format(
        year=at.year, month=at.month, day=at.day, month_name=_MONTH_NAMES[at.month - 1]
    )


def _unpaired_removed(text: str) -> str:
    """`text` without the brackets and quotes that have no partner in it."""
    for opener, closer in _PAIRS:
        keep = [True] * len(text)
        open_at: list[int] = []
        for index, char in enumerate(text):
            if char == opener:
                open_at.append(index)
            elif char == closer:
                if open_at:
                    open_at.pop()
                else:
                    keep[index] = False
        for index in open_at:
            keep[index] = False
        text = "".join(char for char, kept in zip(text, keep, strict=True) if kept)
    return text


def _person_date(match: re.Match[str], *, language: str, today: date | None) -> str:
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return ""
    same_year = today is not None and today.year == year
    if language == "ko":
        written = f"{month}월 {day}일" if same_year else f"{year}년 {month}월 {day}일"
    else:
        written = f"{_MONTH_NAMES[month - 1]} {day}" + ("" if same_year else f", {year}")
    if match[4] is None:
        return written
    hour, minute = int(match[4]), int(match[5])
    if language == "ko":
        half = "오전" if hour < 12 else "오후"
        clock = f"{half} {hour % 12 or 12}시" + (f" {minute}분" if minute else "")
        return f"{written} {clock}"
    suffix = "AM" if hour < 12 else "PM"
    return f"{written}, {hour % 12 or 12}:{minute:02d} {suffix}"


def _without_hidden_clauses(text: str) -> str:
    if not REDACTION_MARKER.search(text) and "withheld" not in text.lower():
        return text
    clauses = _CLAUSE.split(text)
    kept = [c for c in clauses if not REDACTION_MARKER.search(c) and not _WITHHELD.search(c)]
    return " ".join(kept).rstrip(" ,;")


def quote(text: str, *, language: str = "en", today: date | None = None) -> str:
    """One line of at most MAX_QUOTE_CHARS, cut at a word, without internal labels, markers,
    setting names or clauses that held a secret, with dates as `language` writes them
    (without the year of `today`) and every bracket paired; "" when no word is left."""
    line = _without_hidden_clauses(text)
    line = _ISO_TIME.sub(lambda m: _person_date(m, language=language, today=today), line)
    line = _EMPTY_PAIR.sub("", _MACHINERY.sub(" ", _LABEL.sub(" ", line)))
    line = _unpaired_removed(_SPACE.sub(" ", line))
    line = _SPACE_BEFORE_PUNCTUATION.sub("", line).strip().strip('“”"').strip(" ,;:")
    if not _WORD.search(line):
        return ""
    if len(line) <= MAX_QUOTE_CHARS:
        return line
    cut = line[:MAX_QUOTE_CHARS]
    if " " in cut[MAX_QUOTE_CHARS // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return _unpaired_removed(cut.rstrip(" ,.;:")) + "…"


def _sentence(item: Recalled, *, first_memory: bool, kind: str, today: date, language: str) -> str:
    strings = _STRINGS[language]
    text = quote(item.text, language=language, today=today)
    when = when_phrase(item.at, today=today, language=language)
    if item.kind == "memory":
        if first_memory:
            lead = _LEADS[language].get(kind if item.answers else "", _LEADS[language][""])
            return strings["memory_first"].format(lead=lead, text=text)
        return strings["memory_more"].format(text=text)
    if item.kind == "summary":
        return strings["summary"].format(when=when, text=text)
    return strings["user_said"].format(when=when, text=text)


def compose(
    *,
    language: str,
    question: bool,
    kind: str,
    recalled: Sequence[Recalled],
    today: date,
    small_talk: str = "",
) -> str:
    """The reply: what answers the question (at most MAX_ITEMS, best first, then what is
    related), or, when nothing does, that nothing remembered does (and what is related), and
    one sentence saying the assistant runs without a language model. Recalled things neither
    answering nor related are never quoted. A message with nothing to recall (`small_talk`)
    gets a few words of its kind and no more.

    `language` is "ko" or "en"; `kind` is the question's intent ("plans", "current",
    "preference", "past" or "").
    """
    strings = _STRINGS[language if language in _STRINGS else "en"]
    language = "ko" if strings is _KO else "en"
    if small_talk and f"small_{small_talk}" in strings:
        return strings[f"small_{small_talk}"]
    quotable = [item for item in recalled if quote(item.text)]
    answering = [item for item in quotable if item.answers]
    related = [item for item in quotable if item.related and not item.answers]
    items = [*answering, *related][:MAX_ITEMS]
    sentences: list[str] = []
    if not question:
        sentences.append(strings["noted"])
        if items:
            sentences.append(strings["related"])
    elif not answering:
        sentences.append(strings["nothing_asked"])
        if items:
            sentences.append(strings["related_only"])
    first_memory = True
    for item in items:
        sentences.append(
            _sentence(item, first_memory=first_memory, kind=kind, today=today, language=language)
        )
        first_memory = first_memory and item.kind != "memory"
    sentences.append(strings["offline"])
    return " ".join(sentences)
