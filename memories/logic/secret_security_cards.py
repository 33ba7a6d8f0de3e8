"""The cells of a bank's security card (보안카드): pure functions, no Django.

A security card is a grid of numbered four-digit cells; a bank asks for two of them at each
transfer, so a copy of the grid is as good as the card. People write the cells after the card's
name on its line ("보안카드 7번 4821 이고 31번 0937", "security card no. 18 is 5502") or below it
as a heading, in any row shape: "01: 1234 02: 5678", "1번 3456" one per line, "01-1234",
"#1 4821", "1) 4821", a table with a header row ("| 01 | 1234 |"), or the bare values. A line
below the heading counts only while it is made of cells (or a header row of cell numbers); the
first other line ends the list, so a phone number or a price after talk about the card stays.
Detectors take the folded text (`redaction._fold`) and return `(start, end, kind)` spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.logic.secret_rules import VERIFICATION_CODE, Span, mentions

__all__ = ["security_card_spans"]

_CUE = re.compile(r"(?i)보안 ?카드|security ?card")
# A cell named by its number on the card's own line: "12번 8260", "no. 23 is 1394", "07: 4821",
# "3번째 칸은 12" (a bank may ask for two digits of a cell).
_NAMED_CELL = re.compile(
    r"(?i)(?<![0-9])(?:(?:no\.?|number|#) ?[0-9]{1,2}|[0-9]{1,2} ?번(?:째)?(?: ?칸)?|"
    r"[0-9]{1,2}(?=[ \t]*[:=)]))"
    r"[ \t]*(?:은|는|이|가|is|:|=|\))?[ \t]*(?P<value>[0-9]{2,4})(?![0-9])"
)
# Part of a cell stated by its count: "11번 앞2자리 48 뒤2자리 21", or by its side alone, a
# half of two digits: "12번 앞자리 38 뒷자리 71".
_COUNTED_PART = re.compile(
    r"(?P<side>앞|뒤|첫|끝|뒷)? ?(?P<count>[1-4]|두|세|네)? ?자리(?:는|은|가|:)?[ \t]*"
    r"(?P<value>[0-9]{1,4})(?![0-9])"
)
# What joins two parts: "38 이고 뒷자리", "38이랑 뒤에 두자리".
_BETWEEN_PARTS = re.compile(r"[ \t,]*(?:(?:이고|이구|이랑|랑|하고|그리고|고)(?![가-힣])[ \t,]*)?")
_COUNTS = {"두": 2, "세": 3, "네": 4}
# One cell of a row: its number (01, 1번, 3번째 칸, #1, no. 1, 1), 01., a grid's A1) and its
# four digits, or the digits alone.
_CELL = (
    r"(?:(?:#|(?i:no)\.? ?)?[A-Za-z]?[0-9]{1,2}(?: ?번(?:째)?(?: ?칸)?)?[ \t]*[:=.)\-|]?[ \t|]*)?"
    r"[0-9]{4}(?![0-9])"
)
_ROW = re.compile(
    r"[ \t|*•\-]*" + _CELL + r"(?:[ \t,;/|]+" + _CELL + r")*[ \t|,;.]*",
)
# A table's header row ("   1    2    3", "| A | B |") or rule ("|---|---|").
_HEADER = re.compile(r"[ \t|:\-+]*(?:(?:[0-9]{1,2}|[A-Za-z])(?:[ \t|:\-+]+|$))*[ \t|:\-+]*")
_FOUR_DIGITS = re.compile(r"(?<![0-9])[0-9]{4}(?![0-9])")
# A phone or customer-service number written as a row of two or three groups.
_PHONE = re.compile(r"0[0-9]{1,2}[ \-.]?[0-9]{3,4}[ \-.]?[0-9]{4}|1[5-9][0-9]{2}[ \-][0-9]{4}")
_LINES_READ = 40
_CUE_LINE_READ = 120


def security_card_spans(text: str) -> Iterator[Span]:
    """The cells written after a security card's name, on its line and in rows below it."""
    if not mentions(text, ("보안", "security")):
        return
    for cue in _CUE.finditer(text):
        line_end = text.find("\n", cue.end())
        line_end = len(text) if line_end == -1 else line_end
        yield from _cue_line_cells(text, cue.end(), min(line_end, cue.end() + _CUE_LINE_READ))
        if line_end < len(text):
            yield from _rows_below(text, line_end + 1)


def _cue_line_cells(text: str, start: int, end: int) -> Iterator[Span]:
    first_digit = re.search(r"[0-9]", text[start:end])
    if first_digit is not None:
        row_start = start + first_digit.start()
        tail = text[row_start:end].rstrip()
        # "보안카드: 01 1234 02 5678": the rest of the line is a row of cells
        if (
            len(_FOUR_DIGITS.findall(tail)) >= 2
            and _ROW.fullmatch(tail)
            and not _PHONE.fullmatch(tail.strip())
        ):
            for match in _FOUR_DIGITS.finditer(text, row_start, end):
                yield match.start(), match.end(), VERIFICATION_CODE
            return
    for match in _NAMED_CELL.finditer(text, start, end):
        yield match.start("value"), match.end("value"), VERIFICATION_CODE
        yield from _counted_parts(text, match.end(), end)
    for match in _NAMED_CELL_WITH_PARTS.finditer(text, start, end):
        yield from _counted_parts(text, match.end(), end)


# "11번 앞2자리 48": a cell's number with no digits right after it, then the parts
_NAMED_CELL_WITH_PARTS = re.compile(r"(?<![0-9])[0-9]{1,2} ?번(?:째)?(?: ?칸)?(?=[ \t]*[^0-9 \t])")


def _counted_parts(text: str, start: int, end: int) -> Iterator[Span]:
    position = start
    while part := _COUNTED_PART.match(text, _skip_blank(text, position, end), end):
        count = part.group("count")
        if count is None:
            if part.group("side") is None or len(part.group("value")) != 2:
                return
        elif _COUNTS.get(count, int(count) if count.isdigit() else 0) != len(part.group("value")):
            return
        yield part.start("value"), part.end("value"), VERIFICATION_CODE
        position = part.end()


def _skip_blank(text: str, position: int, end: int) -> int:
    between = _BETWEEN_PARTS.match(text, position, end)
    return between.end() if between is not None else position


def _rows_below(text: str, start: int) -> Iterator[Span]:
    """The cells in the rows right below a heading (blank lines and header rows may come
    between); the first line that is no row ends them."""
    position = start
    for _ in range(_LINES_READ):
        if position > len(text):
            return
        line_end = text.find("\n", position)
        line_end = len(text) if line_end == -1 else line_end
        line = text[position:line_end].rstrip()
        stripped = line.strip()
        if stripped and not _HEADER.fullmatch(line):
            if _PHONE.fullmatch(stripped) or not _ROW.fullmatch(line):
                named = list(_NAMED_CELL.finditer(text, position, line_end))
                if not named:
                    return
                for match in named:  # "2번은 7890", a row in words
                    yield match.start("value"), match.end("value"), VERIFICATION_CODE
            else:
                for match in _FOUR_DIGITS.finditer(text, position, line_end):
                    yield match.start(), match.end(), VERIFICATION_CODE
        position = line_end + 1
