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

from memoryhub.text import REMOVED_MARKER

# How many recalled things one reply quotes, and how long a quote may be.
MAX_ITEMS = 3
MAX_QUOTE_CHARS = 120


@dataclass(frozen=True)
class Recalled:
    """One thing recalled for the reply, best first; `answers` when it is of the kind the
    question asks for (a plan for "what did I plan?")."""

    kind: Literal["memory", "message", "summary"]
    text: str
    at: datetime | None = None
    # For a message: who said it.
    said_by: Literal["user", "assistant", ""] = ""
    answers: bool = False


@dataclass(frozen=True)
class Recollection:
    """What the offline reply works from: the question's intent and what was recalled."""

    question: bool
    kind: str = ""
    items: Sequence[Recalled] = ()


_KO: dict[str, str] = {
    "memory_first": "{lead}“{text}”라고 기억하고 있어요.",
    "memory_more": "“{text}”라는 것도 기억하고 있어요.",
    "user_said": "{when} “{text}”라고 하셨어요.",
    "assistant_said": "{when} 제가 “{text}”라고 답했어요.",
    "summary": "{when} 나눈 대화는 “{text}”라는 내용이었어요.",
    "nothing_asked": "이 질문과 관련해 기억하고 있는 내용은 아직 없어요.",
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
    "assistant_said": "{when} I replied “{text}”.",
    "summary": "{when} we talked about this: “{text}”.",
    "nothing_asked": "I don't have anything remembered about this yet.",
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
_SPACE = re.compile(r"\s+")
# Punctuation left dangling where a marker was ("bank [removed])." -> "bank )."), and the
# spaces before punctuation it leaves.
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


def quote(text: str) -> str:
    """One line of at most MAX_QUOTE_CHARS, cut at a word, without internal labels or markers
    and with every bracket paired; "" when no word is left."""
    line = _EMPTY_PAIR.sub("", _LABEL.sub(" ", text))
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
    text = quote(item.text)
    when = when_phrase(item.at, today=today, language=language)
    if item.kind == "memory":
        if first_memory:
            lead = _LEADS[language].get(kind if item.answers else "", _LEADS[language][""])
            return strings["memory_first"].format(lead=lead, text=text)
        return strings["memory_more"].format(text=text)
    if item.kind == "summary":
        return strings["summary"].format(when=when, text=text)
    key = "assistant_said" if item.said_by == "assistant" else "user_said"
    return strings[key].format(when=when, text=text)


def compose(
    *,
    language: str,
    question: bool,
    kind: str,
    recalled: Sequence[Recalled],
    today: date,
) -> str:
    """The reply: what is recalled (at most MAX_ITEMS, best first), or that nothing is, and
    one sentence saying the assistant runs without a language model.

    `language` is "ko" or "en"; `kind` is the question's intent ("plans", "current",
    "preference", "past" or "").
    """
    strings = _STRINGS[language if language in _STRINGS else "en"]
    language = "ko" if strings is _KO else "en"
    items = [item for item in recalled if quote(item.text)][:MAX_ITEMS]
    sentences: list[str] = []
    if not question:
        sentences.append(strings["noted"])
        if items:
            sentences.append(strings["related"])
    elif not items:
        sentences.append(strings["nothing_asked"])
    first_memory = True
    for item in items:
        sentences.append(
            _sentence(item, first_memory=first_memory, kind=kind, today=today, language=language)
        )
        first_memory = first_memory and item.kind != "memory"
    sentences.append(strings["offline"])
    return " ".join(sentences)
