"""A door's entry code named by the door itself: pure functions, no Django.

`secret_passwords` finds a code after a word for a code ("현관 비번 1234", "door code 4471").
People also give it with the door alone and the keypad's keys: "공동현관 3580#", "현관 *1234#",
"front door 2580#", or with a code word of their own: "도어락 마스터코드 19980612". A unit
number called from the entrance ("공동현관에서 1203호 호출"), a floor or a count ("현관 2층",
"도어락 4개") stays whole. Detectors take the folded text (`redaction._fold`) and return
`(start, end, kind)` spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memories.logic.secret_rules import PASSWORD, Span, mentions

_DOOR = (
    r"(?:공동 ?현관(?: ?문)?|현관 ?문?|도어 ?락|디지털 ?도어 ?락|출입 ?문|대문|"
    r"(?i:(?:front|back|main|lobby|building|apartment|garage) door|entrance|gate))"
)
# The key pressed to enter the code, before or after it: 3580#, *1234#, #2580
_KEYPAD = r"(?P<value>[*#]?[0-9]{3,10}[#*]|[*#][0-9]{3,10})"
_KEYED = re.compile(_DOOR + r"[^0-9*#\n]{0,12}?(?<![0-9A-Za-z])" + _KEYPAD + r"(?![0-9A-Za-z])")
# A word of one's own for the door's code: "도어락 마스터코드", "현관 공용 비번", "gate pin"
_NAMED = re.compile(
    _DOOR
    + r"[ \t]*(?:(?:마스터|관리자|공용|출입|비상|임시|master|admin|guest|temporary) ?)?"
    + r"(?:코드|암호|번호|(?i:code|passcode|pin|combo|combination))"
    + r"(?:[ \t]*(?:은|는|이|가|:|=|is|was))*[ \t]*"
    + r"(?<![0-9])(?P<value>[*#]?[0-9]{3,12}[#*]?)(?![0-9])"
)
# The door alone, then the digits: "공동현관 3580 이라고 전해줘", not "현관 2층", "1203호",
# "출입문 0930부터" (an hour).
_BARE = re.compile(
    r"(?:공동 ?현관|현관 ?문|도어 ?락|출입 ?문)(?:은|는|:)?[ \t]*(?<![0-9])(?P<value>[0-9]{4,8})"
    r"(?![0-9#*])"
    r"(?![ \t]*(?:호|동|층|번|개|원|만|천|년|월|일|시|분|명|세대|가구|미터|부터|까지|m\b))"
)
_CALLED_UNIT = re.compile(r"[ \t]*(?:호|호출|번 ?호출|call)")
_NEEDLES = ("현관", "도어", "출입", "대문", "door", "entrance", "gate")


def entry_code_spans(text: str) -> Iterator[Span]:
    """Entry codes given after the door they open."""
    if not mentions(text, _NEEDLES):
        return
    for pattern in (_KEYED, _NAMED, _BARE):
        for match in pattern.finditer(text):
            if _CALLED_UNIT.match(text, match.end()):
                continue  # "1203# 호출": the flat called from the entrance, not a code
            yield match.start("value"), match.end("value"), PASSWORD
