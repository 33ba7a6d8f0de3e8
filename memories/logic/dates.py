"""Relative dates in Korean and English resolved against the day a message was written: pure.

"다음 주 금요일", "모레", "이번 주말", "3일 뒤", "12월 7일", "next Friday", "tomorrow",
"in two weeks", "March 22", "the 14th" each name one day once the message's own date is known.
A week starts on Monday: "다음 주 금요일" / "next Friday" is the Friday of the next week,
"이번 주 금요일" / "this Friday" the Friday of this week, a bare "금요일" / "on Friday" the
next Friday from today (today included).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

# How long a planned event stays in memory after its day is over.
EVENT_GRACE = timedelta(days=3)

_KO_WEEKDAYS = "월화수목금토일"
_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EN_WEEKDAY = r"(mon|tues|wednes|thurs|fri|satur|sun)day"
_EN_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_EN_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "한": 1,
    "하루": 1,
    "두": 2,
    "이틀": 2,
    "세": 3,
    "사흘": 3,
    "네": 4,
    "나흘": 4,
    "다섯": 5,
}
_KO_NEXT_WEEK = r"(?:다음\s*주|담주|다음주|차주)"
_KO_THIS_WEEK = r"(?:이번\s*주|이번주|금주|이\s*번\s*주)"
_KO_DAY_WORDS = {"오늘": 0, "내일": 1, "낼": 1, "모레": 2, "낼모레": 2, "글피": 3, "어제": -1}


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    text: str
    day: date


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _next_weekday(today: date, weekday: int) -> date:
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _month_day(today: date, month: int, day: int, *, roll: bool) -> date | None:
    try:
        found = date(today.year, month, day)
    except ValueError:
        return None
    if roll and found < today - timedelta(days=31):
        # "3월 8일" said in December is next March's, when the clause is about the future
        found = date(today.year + 1, month, day)
    return found


_ORDINALS = {"첫째": 0, "둘째": 1, "셋째": 2, "넷째": 3, "다섯째": 4}


def _nth_weekday(today: date, month: int, nth: str, weekday: int, *, roll: bool) -> date | None:
    """ "11월 둘째 주 일요일": the weekday of the n-th week (Monday to Sunday) of the month
    that holds the month's first such weekday counted as the first week."""
    first = _month_day(today, month, 1, roll=roll)
    if first is None:
        return None
    first_match = first + timedelta(days=(weekday - first.weekday()) % 7)
    if nth == "마지막":
        next_month = date(first.year + first.month // 12, first.month % 12 + 1, 1)
        last = next_month - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    found = first_match + timedelta(days=7 * _ORDINALS[nth])
    return found if found.month == first.month else None


def _count(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return _NUMBERS.get(word.lower())


def _day_of_month(today: date, day: int) -> date | None:
    """ "the 14th": this month's, or next month's once this month's is past."""
    for offset in (0, 1):
        month = (today.month - 1 + offset) % 12 + 1
        year = today.year + (today.month - 1 + offset) // 12
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found >= today:
            return found
    return None


_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(_KO_NEXT_WEEK + r"\s*([월화수목금토일])\s*요일"), "ko_next_week_day"),
    (re.compile(_KO_THIS_WEEK + r"\s*([월화수목금토일])\s*요일"), "ko_this_week_day"),
    (re.compile(_KO_NEXT_WEEK + r"\s*주말|다음\s*주말"), "ko_next_weekend"),
    (re.compile(_KO_THIS_WEEK + r"\s*주말|이번\s*주말"), "ko_this_weekend"),
    (re.compile(r"다음\s*달\s*(\d{1,2})\s*일"), "ko_next_month_day"),
    (
        re.compile(
            r"(?<!\d)(\d{1,2})\s*월\s*(첫째|둘째|셋째|넷째|다섯째|마지막)\s*주\s*([월화수목금토일])\s*요일"
        ),
        "ko_nth_weekday",
    ),
    (
        re.compile(
            r"(?<!\d)(\d{1,2})\s*월\s*(\d{1,2})\s*일(?:\s*\(?[월화수목금토일](?:요일)?\)?)?"
        ),
        "ko_month_day",
    ),
    (
        re.compile(r"(\d{1,2}|한|두|세|네|다섯|하루|이틀|사흘|나흘)\s*(일|주|주일)\s*(?:후|뒤)"),
        "ko_in",
    ),
    (
        re.compile(r"(?<![가-힣])(낼모레|모레|글피|내일|낼|오늘|어제)(?!따라|[가-힣]*요일)"),
        "ko_word",
    ),
    (re.compile(r"(?:그저께|그제|엊그제)"), "ko_two_days_ago"),
    # A bare weekday names a day when something happens on it ("금요일에 회식"); said as
    # a topic ("분리수거는 수요일") it is a schedule.
    (
        re.compile(
            r"(?<![가-힣\d])(?<!매주\s)([월화수목금토일])요일(?=\s*(?:에|날|까지|부터|오전|오후|"
            r"저녁|아침|밤|점심))"
        ),
        "ko_weekday",
    ),
    (re.compile(r"\bthe\s+day\s+after\s+tomorrow\b", re.I), "en_after_tomorrow"),
    (re.compile(r"\b(today|tonight|tomorrow|yesterday)\b", re.I), "en_word"),
    (re.compile(r"\bnext\s+" + _EN_WEEKDAY + r"\b", re.I), "en_next_day"),
    (re.compile(r"\bthis\s+" + _EN_WEEKDAY + r"\b", re.I), "en_this_day"),
    (re.compile(r"\b(this|next)\s+weekend\b", re.I), "en_weekend"),
    (
        re.compile(
            r"\bin\s+(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
            r"(days?|weeks?)\b",
            re.I,
        ),
        "en_in",
    ),
    (
        re.compile(r"\b" + _EN_MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?!\s*[:,]?\s*\d{4})", re.I),
        "en_month_day",
    ),
    (
        re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _EN_MONTH + r"(?!\w)", re.I),
        "en_day_month",
    ),
    (
        re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?[A-Za-z]{3})", re.I),
        "en_the_nth",
    ),
    (
        re.compile(
            r"\bon\s+" + _EN_WEEKDAY + r"(?!s)\b(?!\s+(?:nights|mornings|evenings|afternoons))",
            re.I,
        ),
        "en_on_day",
    ),
]


def _month_number(word: str) -> int:
    word = word.lower().rstrip(".")
    return next(i for i, name in enumerate(_EN_MONTHS, start=1) if name.startswith(word[:3]))


def _resolve(kind: str, m: re.Match[str], today: date, roll: bool) -> date | None:  # noqa: C901
    if kind == "ko_next_week_day":
        return _monday(today) + timedelta(days=7 + _KO_WEEKDAYS.index(m.group(1)))
    if kind == "ko_this_week_day":
        return _monday(today) + timedelta(days=_KO_WEEKDAYS.index(m.group(1)))
    if kind == "ko_next_weekend":
        return _monday(today) + timedelta(days=12)
    if kind in ("ko_this_weekend",):
        return max(today, _monday(today) + timedelta(days=5))
    if kind == "ko_next_month_day":
        month, year = today.month % 12 + 1, today.year + today.month // 12
        try:
            return date(year, month, int(m.group(1)))
        except ValueError:
            return None
    if kind == "ko_nth_weekday":
        return _nth_weekday(
            today, int(m.group(1)), m.group(2), _KO_WEEKDAYS.index(m.group(3)), roll=roll
        )
    if kind == "ko_month_day":
        return _month_day(today, int(m.group(1)), int(m.group(2)), roll=roll)
    if kind == "ko_in":
        count = _count(m.group(1))
        if count is None:
            return None
        return today + timedelta(days=count * (1 if m.group(2) == "일" else 7))
    if kind == "ko_word":
        return today + timedelta(days=_KO_DAY_WORDS.get(m.group(1), 0))
    if kind == "ko_two_days_ago":
        return today - timedelta(days=2)
    if kind == "ko_weekday":
        return _next_weekday(today, _KO_WEEKDAYS.index(m.group(1)))
    if kind == "en_after_tomorrow":
        return today + timedelta(days=2)
    if kind == "en_word":
        word = m.group(1).lower()
        return today + timedelta(days={"tomorrow": 1, "yesterday": -1}.get(word, 0))
    if kind in ("en_next_day", "en_this_day", "en_on_day"):
        weekday = next(i for i, d in enumerate(_EN_WEEKDAYS) if d.startswith(m.group(1).lower()))
        if kind == "en_next_day":
            return _monday(today) + timedelta(days=7 + weekday)
        if kind == "en_this_day":
            return _monday(today) + timedelta(days=weekday)
        return _next_weekday(today, weekday)
    if kind == "en_weekend":
        saturday = max(today, _monday(today) + timedelta(days=5))
        return saturday + timedelta(days=7) if m.group(1).lower() == "next" else saturday
    if kind == "en_in":
        count = _count(m.group(1))
        if count is None:
            return None
        return today + timedelta(days=count * (7 if m.group(2).lower().startswith("week") else 1))
    if kind == "en_month_day":
        return _month_day(today, _month_number(m.group(1)), int(m.group(2)), roll=roll)
    if kind == "en_day_month":
        return _month_day(today, _month_number(m.group(2)), int(m.group(1)), roll=roll)
    if kind == "en_the_nth":
        return _day_of_month(today, int(m.group(1)))
    return None


def resolve_dates(text: str, *, today: date, future: bool = False) -> list[DateMention]:
    """Each day named in `text`, in order; overlapping mentions keep the first, longest one.

    `future`: the clause is about something to come, so a month and day already past this
    year is next year's ("3월 8일" said in December).
    """
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []
    # Two weekdays or more named bare ("화요일이랑 금요일", "Mondays and Fridays") are a
    # schedule, not one day.
    schedule = len(re.findall(r"[월화수목금토일]요일|\b" + _EN_WEEKDAY, text, re.I)) > 1
    for pattern, kind in _PATTERNS:
        if schedule and kind in ("ko_weekday", "en_on_day"):
            continue
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            day = _resolve(kind, m, today, future)
            if day is None:
                continue
            found.append(DateMention(m.start(), m.end(), m.group(0), day))
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


def korean_date(day: date) -> str:
    return f"{day.isoformat()}({_KO_WEEKDAYS[day.weekday()]})"


def english_date(day: date) -> str:
    return f"{day.isoformat()} ({_EN_WEEKDAYS[day.weekday()][:3].title()})"


# A month and a day said without a year: written as said, with the year it resolves to.
_YEARLESS = re.compile(
    r"\d{1,2}\s*월\s*\d{1,2}\s*일|(?:on\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)"
    r"[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?",
    re.IGNORECASE,
)


def with_absolute_dates(text: str, *, today: date, korean: bool, future: bool = False) -> str:
    """`text` with each relative or year-less date replaced by the day it names."""
    out, last = [], 0
    for mention in resolve_dates(text, today=today, future=future):
        out.append(text[last : mention.start])
        written = korean_date(mention.day) if korean else english_date(mention.day)
        if _YEARLESS.fullmatch(mention.text.strip()):
            # "4월 20일" / "April 20": the words as said keep their place, the year is added
            said = mention.text.strip()
            written = (
                f"{mention.day.year}년 {said}({written.rsplit('(', 1)[-1]}"
                if korean
                else f"{said}, {mention.day.year} ({written.rsplit('(', 1)[-1]}"
            )
        before = text[: mention.start].rstrip().lower()
        needs_on = not korean and not re.search(
            r"\b(?:on|by|until|from|since|before|after|for)$", before
        )
        if mention.text.lower().startswith("on "):
            written, needs_on = f"on {written}", False
        out.append(f"on {written}" if needs_on else written)
        last = mention.end
    out.append(text[last:])
    return re.sub(r"\s+", " ", "".join(out)).strip()


def event_expiry(day: date, *, tz: tzinfo) -> datetime:
    """When a memory of an event on `day` stops being useful: the end of that day plus a grace
    period (the event is over; what came of it is a new statement)."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=tz) + EVENT_GRACE


Period = tuple[date, date]

# Spans of time named without a day: "다음 주", "next week", "this month" (first, last day).
_KO_NEXT_MONTH = r"(?:다음\s*달|담달|다음\s*월)"
_KO_THIS_MONTH = r"(?:이번\s*달|이달)"
_PERIOD_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(_KO_NEXT_WEEK + r"|\bnext\s+week\b", re.I), "next_week"),
    (re.compile(_KO_THIS_WEEK + r"|\bthis\s+week\b", re.I), "this_week"),
    (re.compile(_KO_NEXT_MONTH + r"|\bnext\s+month\b", re.I), "next_month"),
    (re.compile(_KO_THIS_MONTH + r"|\bthis\s+month\b", re.I), "this_month"),
    (re.compile(r"주말|\bweekend\b", re.I), "weekend"),
]


def _month_period(today: date, offset: int) -> Period:
    month0 = today.month - 1 + offset
    first = date(today.year + month0 // 12, month0 % 12 + 1, 1)
    month1 = month0 + 1
    following = date(today.year + month1 // 12, month1 % 12 + 1, 1)
    return first, following - timedelta(days=1)


def _word_period(kind: str, text: str, today: date) -> Period:
    monday = _monday(today)
    if kind == "next_week":
        return monday + timedelta(days=7), monday + timedelta(days=13)
    if kind == "this_week":
        return today, monday + timedelta(days=6)
    if kind == "next_month":
        return _month_period(today, 1)
    if kind == "this_month":
        return today, _month_period(today, 0)[1]
    nxt = re.search(_KO_NEXT_WEEK + r"|\bnext\s+weekend", text, re.I)
    saturday = monday + timedelta(days=5 + (7 if nxt else 0))
    return max(today, saturday), saturday + timedelta(days=1)


def periods(text: str, *, today: date) -> list[Period]:
    """The spans of time `text` names, each as (first day, last day), against `today`: a day
    ("내일", "next Friday", "12월 7일") or a span named without a day ("다음 주", "next week",
    "this month", "주말"). A span word that is part of a day ("다음 주 금요일") gives the day."""
    found: list[Period] = []
    days = resolve_dates(text, today=today, future=True)
    for mention in days:
        weekend = re.search(r"주말|weekend", mention.text, re.I)
        found.append((mention.day, mention.day + timedelta(days=1 if weekend else 0)))
    for pattern, kind in _PERIOD_WORDS:
        for match in pattern.finditer(text):
            if any(d.start <= match.start() < d.end for d in days):
                continue
            found.append(_word_period(kind, text, today))
    return found


def overlaps(first: Period, second: Period) -> bool:
    return first[0] <= second[1] and second[0] <= first[1]


def event_day(expires_at: datetime) -> date:
    """The day of the event whose memory expires at `expires_at` (`event_expiry` reversed)."""
    return (expires_at - EVENT_GRACE).date() - timedelta(days=1)
