"""Codes read out digit by digit: pure functions, no Django.

People pass a code on the way they would say it: "5 8 2 7 1 4", "5-8-2-7-1-4", "오 팔 이 칠 일
사", "사칠공이구일", "five eight two seven one four". Such a run means a code only after a cue
that names one (인증번호, OTP, 도어락 번호, PIN ...): the callers (`secret_rules` for one-time
codes, `secret_passwords` for passwords and door codes) find the cue, this module the run
after it. A list of page numbers, a phone number or a count has no such cue, or has digits in
groups, and stays.
"""

from __future__ import annotations

import re

__all__ = ["spelled_digits"]

# Numerals one at a time with one separator throughout: "5 8 2 7 1 4", "5-8-2-7", "1, 8, 3, 0"
# (a sort code "20-00-00" or a date "12-05-24" comes in pairs and stays).
_SPELLED_NUMERALS = re.compile(
    r"(?<![0-9A-Za-z\-.])(?P<value>[0-9](?P<sep>[ \t]{1,3}|[ \t]?[\-·,][ \t]?)[0-9]"
    r"(?:(?P=sep)[0-9]){2,9})(?![0-9A-Za-z]|[\-.·][0-9])"
)
# Digit words: "five eight two seven", "nine one six, four four two", "five oh two one".
_EN_DIGIT = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_SPELLED_EN = re.compile(
    r"(?i)(?<![A-Za-z])(?P<value>"
    + _EN_DIGIT
    + r"(?:(?:[ \t]|[ \t]?[\-,][ \t]?)"
    + _EN_DIGIT
    + r"){3,11})(?![A-Za-z])"
)
# Sino-Korean digit words, spaced or not, and a copula glued after the last one: "오 팔 이
# 칠이야", "사칠공이구일".
_KO_DIGIT = r"(?:공|영|일|이|삼|사|오|육|륙|칠|팔|구)"
_SPELLED_KO = re.compile(
    r"(?<![가-힣])(?P<value>"
    + _KO_DIGIT
    + r"(?:(?:[ \t]|[ \t]?[\-,][ \t]?)?"  # "오 팔 이 칠", "오팔이칠"
    + _KO_DIGIT
    + r"){3,11})(?:이야|야|이에요|예요|에요|이요|요|임|이고|고|인데|이라고|라고|입니다|이래|래)?"
    r"(?![가-힣])"
)

# Twelve digit words with their separators ("seven, " is 7 characters) fit in this many.
_LONGEST_RUN = 96


def spelled_digits(text: str, start: int, end: int, *, within: int = 30) -> re.Match[str] | None:
    """The first code read out digit by digit (four digits or more) that starts within
    `within` characters after `start`, with no other digit before it; it may run on to `end`."""
    end = min(end, start + within + _LONGEST_RUN)  # each cue reads a bounded window
    found = [
        match
        for pattern in (_SPELLED_NUMERALS, _SPELLED_EN, _SPELLED_KO)
        if (match := pattern.search(text, start, end)) and match.start() < start + within
    ]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    if re.search(r"[0-9]", text[start : first.start()]):
        return None
    return first
