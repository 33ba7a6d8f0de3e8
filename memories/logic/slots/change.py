"""What a statement says the user gave up: the old answer a change names (pure, no Django).

"은행 그만두고 보험사 다녀요", "헬스 끊고 요즘은 수영만 해", "left the bakery, doing barista
stuff now", "ramen is my #1 now, sushi dropped": the new statement answers the question the
old memory answered, even when the two are worded so differently that their slots differ or
one has none. The change says so by naming the old answer as quit, dropped, stopped or
switched from; a memory that holds that word is the one replaced.

A word shared without such a cue replaces nothing ("커피 좋아해" and "커피 마시면서 공부해"
stay apart), and generic words (회사, job, school) never name what was given up: "회사
그만뒀어" does not replace every memory that mentions a company. Leaving school, a job or an
employer without naming it ("졸업하고 ...", "retired last year") gives up the question itself.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_WORD_BEFORE = r"(?<![가-힣A-Za-z0-9])(?P<x>[가-힣A-Za-z0-9][가-힣A-Za-z0-9.'\-]{0,15}?)"
_KO_GAVE_UP = re.compile(
    _WORD_BEFORE + r"(?:을|를|은|는|도|에서|이랑|랑)?\s*"
    r"(?:그만\s*두|그만\s*뒀|관두|관뒀|끊고|끊었|끊음|끊은|끊어|접고|접었|접음|접은|때려치|퇴사|"
    r"탈퇴|손\s*뗐|졸업하|졸업했|졸업함)"
)
# "X 말고 이제 Y", "X 대신 요즘은 Y": only in a statement of change
_KO_INSTEAD = re.compile(
    _WORD_BEFORE + r"\s*(?:대신|말고|에서\s+(?:[가-힣A-Za-z0-9]+\s*)?(?:으로|로))\s"
)
_EN_GAVE_UP = re.compile(
    r"\b(?:quit|quitting|left|leaving|ditched|dropped|gave\s+up|giving\s+up|stopped|stopping|"
    r"switched\s+(?:away\s+)?from|moved\s+on\s+from|done\s+with|no\s+longer\s+(?:at|with|doing|"
    r"drinking|eating|using|playing|into))\s+(?:the\s+|my\s+|a\s+|an\s+|being\s+a\s+|being\s+an\s+)?"
    r"(?P<x>[a-z][\w'\-]{1,20})",
    re.IGNORECASE,
)
_EN_DROPPED = re.compile(
    r"\b(?P<x>[a-z][\w'\-]{1,20})\s+(?:is\s+|was\s+)?(?:dropped|is\s+dead\s+to\s+me|is\s+out|"
    r"(?:is\s+)?not\s+(?:my\s+thing\s+)?anymore|is\s+over)\b",
    re.IGNORECASE,
)
_EN_INSTEAD = re.compile(
    r"\binstead\s+of\s+(?:the\s+|my\s+)?(?P<x>[a-z][\w'\-]{1,20})", re.IGNORECASE
)
# A reason against the old answer, in a statement of change: "switched to tea, coffee makes
# me jittery".
_EN_AGAINST = re.compile(
    r"\b(?P<x>[a-z][\w'\-]{1,20})\s+(?:makes|made|wrecks|wrecked|was\s+wrecking|is\s+wrecking|"
    r"gives|gave|keeps\s+giving)\s+(?:me|my)\b",
    re.IGNORECASE,
)
_KO_AGAINST = re.compile(_WORD_BEFORE + r"\s*(?:스트레스|질려|질렸|싫어져|물려)")
# The words of a change of state.
_SWITCH = re.compile(
    r"갈아\s*(?:탐|탔|타)|바꿨|바꿈|바뀜|바뀌었|전향|이직|옮겼|옮김|이사|\bswitch(?:ed|ing)?\b|"
    r"\bchanged\s+(?:to|my)\b|\bnow\b|\bthese\s+days\b|이제|요즘은|요즘엔",
    re.IGNORECASE,
)
# Leaving a whole question behind without naming the old answer.
_LEFT_THE_QUESTION = (
    (re.compile(r"졸업|\bgraduated\b", re.IGNORECASE), ("school",)),
    (
        re.compile(
            r"퇴사|이직|은퇴|\bretired\b|\b(?:quit|left|lost)\s+(?:my|the)\s+job\b|"
            r"\bchanged\s+jobs\b",
            re.IGNORECASE,
        ),
        ("job", "workplace"),
    ),
)
_GENERIC = frozenset(
    """회사 직장 일 학교 집 요즘 이제 그거 그것 거 것 이거 다 좀 진짜 그냥 완전 너무 다시 job jobs
    work school home it that this the my stuff things thing lol lmao now so just really to from in
    at out off by with for of on up down me""".split()  # noqa: SIM905
)
_PARTICLES = re.compile(r"(?:은|는|이|가|을|를|도|에서|에|랑|이랑|하고|와|과)$")


@dataclass(frozen=True)
class Change:
    words: tuple[str, ...]  # the old answers named
    slots: tuple[str, ...]  # questions left behind without naming the old answer


def _clean(word: str) -> str:
    word = unicodedata.normalize("NFKC", word).casefold().strip(".'-")
    if re.search(r"[가-힣]", word) and len(word) > 2:
        word = _PARTICLES.sub("", word)
    return word


def given_up(text: str) -> Change:
    """The old answers `text` says were given up, and the questions it leaves behind."""
    switch = bool(_SWITCH.search(text))
    patterns = [_KO_GAVE_UP, _EN_GAVE_UP, _EN_DROPPED]
    if switch:
        patterns += [_KO_INSTEAD, _EN_INSTEAD, _EN_AGAINST, _KO_AGAINST]
    words: list[str] = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            word = _clean(match.group("x"))
            long_enough = len(word) >= (1 if re.search(r"[가-힣]", word) else 2)
            if long_enough and word not in _GENERIC and word not in words:
                words.append(word)
    slots = tuple(s for pattern, names in _LEFT_THE_QUESTION if pattern.search(text) for s in names)
    return Change(words=tuple(words), slots=tuple(dict.fromkeys(slots)))


def names_old_answer(content: str, word: str) -> bool:
    """True when a memory's `content` holds the given-up `word` (an English word by its stem:
    "nursing" names "nurse")."""
    folded = unicodedata.normalize("NFKC", content).casefold()
    if re.search(r"[가-힣]", word):
        return word in folded
    stem = word if len(word) <= 5 else word[: max(4, len(word) - 3)]
    return bool(re.search(r"\b" + re.escape(stem), folded))


# "also freelance as a photographer", "강아지도 한 마리 데려왔어", "복숭아 알러지도 있어": one
# more answer beside the old one, never instead of it.
_ADDITIVE = re.compile(
    r"\b(?:also|too|as\s+well|another|additionally|in\s+addition|on\s+top\s+of|plus|a\s+second|"
    r"one\s+more)\b|(?<![가-힣])또(?![가-힣])|추가로|하나\s*더|(?:마리|개|명)\s*더|[가-힣]도\s+(?:있|키워|키우|"
    r"데려|생겼|샀|시작|배우|다녀|하고|해|한\s*(?:마리|개|명)|두\s*(?:마리|개|명)|하나)",
    re.IGNORECASE,
)


def adds_to(text: str) -> bool:
    """True when `text` adds an answer beside an old one ("also ...", "...도 있어")."""
    return bool(_ADDITIVE.search(text))
