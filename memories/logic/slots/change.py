"""What a statement says the user gave up: the old answer a change names (pure, no Django).

"은행 그만두고 보험사 다녀요", "헬스 끊고 요즘은 수영만 해", "left the bakery, doing barista
stuff now", "ramen is my #1 now, sushi dropped": the new statement answers the question the
old memory answered, even when the two are worded so differently that their slots differ or
one has none. The change says so by naming the old answer as quit, dropped, stopped or
switched from; a memory that holds that word is the one replaced.

A change may also name the question rather than the old answer ("최애 바뀜 이제 ...",
"휴무일 월요일로 바꿨어요", "moved my coding hour to 9pm", "my commute is now 40 minutes"):
the memory holding that word answered the same question, and the new statement holds the word
too (`Change.subjects`). Days and times named beside a change are its values, not what changed,
and a general head ("수업", "lessons") names the question only with the word before it.

A word shared without such a cue replaces nothing ("커피 좋아해" and "커피 마시면서 공부해"
stay apart), and generic words (회사, job, school) never name what was given up: "회사
그만뒀어" does not replace every memory that mentions a company. Leaving school, a job or an
employer without naming it ("졸업하고 ...", "retired last year") gives up the question itself.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from memories.logic.slots.vocab import CANON, canon

_WORD_BEFORE = r"(?<![가-힣A-Za-z0-9])(?P<x>[가-힣A-Za-z0-9][가-힣A-Za-z0-9.'\-]{0,15}?)"
_KO_GAVE_UP = re.compile(
    _WORD_BEFORE + r"(?:을|를|은|는|도|에서|이랑|랑)?\s*"
    # not "그만두셔서" (someone else left: the honorific "-시-")
    r"(?:그만\s*두(?![시셨셔신])|그만\s*뒀|관두(?![시셨셔신])|관뒀|끊고|끊었|끊음|끊은|끊어(?![지져짐졌])|"
    r"접고|접었|접음|접은|때려치|퇴사|해지|해약|"
    r"탈퇴|손\s*뗐|졸업하|졸업했|졸업함)"
)
# "X 대신 요즘은 Y", "X에서 Y로": only in a statement of change
_KO_INSTEAD = re.compile(
    _WORD_BEFORE + r"\s*(?:대신|에서\s+(?:[가-힣A-Za-z0-9]+\s*)?(?:으로|로))\s"
)
# "X 말고 Y": X is not wanted, with or without words of change.
# Said last too: "이제 TypeScript로 줘 Python 말고".
_KO_NOT_THIS = re.compile(_WORD_BEFORE + r"\s*말고(?:요)?(?![가-힣A-Za-z0-9])")
_EN_GAVE_UP = re.compile(
    r"\b(?:quit|quitting|left|leaving|ditched|dropped|gave\s+up|giving\s+up|stopped|stopping|"
    r"sold|selling|got\s+rid\s+of|traded\s+in|returned|"
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
# "I barely check email anymore", "don't drink coffee anymore": the habit given up.
_EN_NOT_ANYMORE = re.compile(
    r"\b(?:don'?t|do\s+not|never|barely|rarely|hardly)\s+(?:[a-z]+\s+)?(?P<x>[a-z][\w'\-]{1,20})\s+"
    r"any\s*more\b",
    re.IGNORECASE,
)
# "give examples in Go now, not Python": the old answer set against the new one.
_EN_NOT_THIS = re.compile(
    r",\s*(?:but\s+)?not\s+(?:in\s+|the\s+|my\s+|a\s+|an\s+)?(?P<x>[a-z][\w'\-]{1,20})\s*[.!]*$",
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
# "payments 팀은 이제 아님", "Trados는 정리하였고": in a statement of change, the old answer
# no longer held or got rid of.
_KO_NO_LONGER = re.compile(
    _WORD_BEFORE + r"(?:은|는|이|가)?\s*(?:이제|더\s*이상|더는)\s*(?:아님|아니|아닙|아녀|아냐)"
)
_KO_GOT_RID_OF = re.compile(
    _WORD_BEFORE + r"(?:은|는|을|를)\s*(?:정리하였|정리했|정리함|정리하고|처분했|처분함|처분하고)"
)
_KO_AGAINST = re.compile(_WORD_BEFORE + r"\s*(?:스트레스|질려|질렸|싫어져|물려)")
# The words of a change of state.
_SWITCH = re.compile(
    r"갈아\s*(?:탐|탔|타)|바꿨|바꿈|바뀜|바뀌었|전향|전환|이직|옮겼|옮김|이사|\bswitch(?:ed|ing)?\b|"
    r"\bchanged\s+(?:to|my)\b|\bnow\b|\bthese\s+days\b|이제|요즘은|요즘엔",
    re.IGNORECASE,
)
# A change said of the question itself, naming what changed rather than the old answer:
# "최애 바뀜", "휴무일 월요일로 바꿨어요", "moved my coding hour to 9pm", "new PB: 3:04",
# "my commute is now 40 minutes". The memory holding that word answered the same question.
_KO_CHANGED = re.compile(
    _WORD_BEFORE + r"(?:이|가|은|는|도)?\s*(?:또\s*)?"
    r"(?:바뀜|바뀌었|바꼈|바뀐\s*(?:거|듯)|변경됨|변경됐|변경되었|달라졌|달라짐)"
)
# "최애 갈아탔어": the question named, not the new answer ("갤럭시로 갈아탐" names that)
_KO_SWITCHED_WHAT = re.compile(
    _WORD_BEFORE + r"(?<!로)(?:이|가|은|는|도)?\s*(?:또\s*)?갈아\s*(?:탐|탔)"
)
# "X를 (요일 시간) Y로 바꿨어": what was moved is the first word before the new value that is
# not a time ("주간회의 화요일 오후 2시로 옮겨졌어", "인터넷 LG유플러스로 갈아탐").
_KO_MOVED_TO = re.compile(
    r"(?<=[가-힣A-Za-z0-9)])(?:으로|로)\s*(?:바꿨|바꿈|바꾸었|바꿔\s*(?:버렸|봤|놨)|변경했|변경함|"
    r"변경됐|변경됨|변경되었|옮겼|옮김|옮겨졌|옮겨짐|옮겨짐|당겼|당김|미뤘|미룸|밀렸|밀림|"
    # a price or rate set anew: "단가 150원으로 올렸어요", "월세 80으로 내림"
    r"올렸|올림|올렸음|인상했|인상함|인상하였|내렸|내림|인하했|인하함|인하하였|"
    r"전환했|전환함|전환하였|갈아\s*(?:탐|탔|타))"
)
# "둘째 어린이집 옮겼어요 이제 숲속어린이집", "야채 거래처 바꿨어요": what changed said right
# before the verb, with the new value told elsewhere (no "...로" before the verb).
_KO_CHANGED_BARE = re.compile(
    r"(?<=[가-힣A-Za-z0-9])(?<!로)(?:을|를|은|는|도)?\s*(?:바꿨|바꿈|바꾸었|옮겼|옮김|"
    r"변경했|변경함|변경하였|전환했|전환함|전환하였)"
)
_KO_MOVED_WORD = re.compile(r"[가-힣A-Za-z0-9:.~()\-]+")
# Words that end a clause: the search for what moved stops there ("헬스 끊고 수영으로 갈아탐").
_KO_CLAUSE_END = re.compile(r"(?:고|서|며|는데|니까|면)$")
# A meal said right before its new time is what moved ("점심 1시로 미뤘어").
# A time the new value holds from ("이번 달부터") and the unit of a rate ("단어당", "시간당").
_KO_SINCE = re.compile(r"(?:달|주|월|년|일|오늘|내일|이번|다음|올해|내년|지금)부터$")
_KO_PER_UNIT = re.compile(r"^(?:단어|글자|자|시간|건|장|페이지|회|개|명|분|권|편)당$")
# Which child or sibling a thing belongs to: it goes with the thing ("둘째 어린이집").
_ORDINALS = frozenset("첫째 둘째 셋째 넷째 막내 큰애 작은애 큰딸 작은딸 큰아들 작은아들".split())  # noqa: SIM905
_MEALS = frozenset({"점심", "점심시간", "아침식사", "저녁식사", "식사"})
_MOVED_WORDS_BACK = 4
_MOVED_WORDS_NAMED = 2
# A word with a particle of place, time or cause is no name of what moved ("때문에", "회사에서").
_KO_ADVERBIAL = re.compile(r"(?:에|에서|에는|때문에|까지|부터|한테|에게|랑|하고)$")
_EN_CHANGED = re.compile(
    r"\b(?:moved|changed|switched|shifted|pushed|bumped|swapped|updated|cut|upped|raised|lowered|"
    r"increased|reduced|hiked|dropped)\s+"
    r"(?:my|our|the)\s+(?P<x>[a-z][\w'\-]{1,20})(?:\s+(?P<y>[a-z][\w'\-]{1,20}))?"
    r"\s+(?:to|back|up|down|from)\b|"
    r"\bmy\s+(?P<z>[a-z][\w'\-]{1,20})\s+(?:is\s+now|changed|is\s+different\s+now)\b|"
    # "new PB!", "my new address is ...", but not "got a new puppy" (one more of them)
    r"(?<!\ba\s)(?<!\ban\s)(?<!\banother\s)\bnew\s+(?P<w>[a-z][\w'\-]{1,20})\b(?=[^\n]{0,30}\d)",
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
    at out off by with for of on up down me hour hours time times day days week weeks month
    year 이번 이번에 저번 지난 오늘 어제 드디어 결국 벌써 시간 요일 날 또 much 앱 어플 app apps
    서비스 service""".split()  # noqa: SIM905
)
# When, rather than what: a day or a time named beside a change is its new (or old) value,
# and other memories of that day are not about the same question.
_WHEN = re.compile(
    r"요일$|^(?:아침|저녁|오전|오후|점심|새벽|밤|주말|평일|매일|매주|매달)|\d|"
    r"^(?:mornings?|evenings?|nights?|weekends?|weekdays?|noon|daily|weekly|monthly|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?)$"
)
# Heads too general to name a question alone: the word before completes them ("요가 수업",
# "치과 예약", "piano lessons"), and a memory must hold both.
_HEADS = frozenset(
    """수업 강습 레슨 일정 약속 예약 모임 회의 시간표 스케줄 루틴 팀 class classes lesson lessons
    session sessions appointment appointments schedule routine meeting meetings""".split()  # noqa: SIM905
)
# Words that qualify what changed without naming it ("my long run", "my usual order").
_QUALIFIERS = frozenset(
    """long short new old big small usual regular normal first second last next main current
    morning evening 새 새로운 신형 중고 옛날""".split()  # noqa: SIM905
)
_PARTICLES = re.compile(r"(?:은|는|이|가|을|를|도|에서|에|랑|이랑|하고|와|과)$")


@dataclass(frozen=True)
class Change:
    words: tuple[str, ...]  # the old answers named
    slots: tuple[str, ...]  # questions left behind without naming the old answer
    # what changed, named by the question rather than the old answer ("최애 바뀜"): the new
    # statement holds the word too, so it is no clause of leaving
    subjects: tuple[str, ...] = ()

    @property
    def named(self) -> tuple[str, ...]:
        """Every word a replaced memory may hold: old answers and changed subjects."""
        return self.words + tuple(s for s in self.subjects if s not in self.words)


def _clean(word: str) -> str:
    word = unicodedata.normalize("NFKC", word).casefold().strip(".'-")
    if re.search(r"[가-힣]", word) and len(word) > 2:
        word = _PARTICLES.sub("", word)
    return word


def given_up(text: str) -> Change:
    """The old answers `text` says were given up, the questions it leaves behind, and the
    questions it says changed by naming them ("최애 바뀜", "moved my long run to sundays")."""
    switch = bool(_SWITCH.search(text))
    # "X 말고 Y" names X as the answer no longer wanted, in a request too ("표 말고 문장으로 써줘")
    patterns = [_KO_GAVE_UP, _EN_GAVE_UP, _EN_DROPPED, _EN_NOT_ANYMORE, _KO_NOT_THIS]
    if switch:
        patterns += [_KO_INSTEAD, _EN_INSTEAD, _EN_NOT_THIS, _EN_AGAINST, _KO_AGAINST]
        patterns += [_KO_NO_LONGER, _KO_GOT_RID_OF]
    words = _named(text, patterns)
    subjects = _named(text, [_KO_CHANGED, _KO_SWITCHED_WHAT, _EN_CHANGED])
    subjects += [w for w in _moved(text) if w not in subjects]
    slots = tuple(s for pattern, names in _LEFT_THE_QUESTION if pattern.search(text) for s in names)
    return Change(
        words=tuple(words),
        slots=tuple(dict.fromkeys(slots)),
        subjects=tuple(w for w in subjects if w not in words),
    )


def _named(text: str, patterns: list[re.Pattern[str]]) -> list[str]:
    words: list[str] = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            for group, found in match.groupdict().items():
                if not found:
                    continue
                word = _clean(found)
                if word in _HEADS:
                    before = re.findall(r"[가-힣A-Za-z0-9']+", text[: match.start(group)])
                    if not before or _clean(before[-1]) in _GENERIC:
                        continue
                    word = f"{_clean(before[-1])} {word}"
                long_enough = len(word) >= (1 if re.search(r"[가-힣]", word) else 2)
                named = word not in _GENERIC and word not in _QUALIFIERS and not _WHEN.search(word)
                if long_enough and named and word not in words:
                    words.append(word)
    return words


def _moved(text: str) -> list[str]:
    """What a Korean "...로 바꿨어/옮겼어/갈아탐" moved: the words before the new value that
    are no time, at most two, within the clause ("음악 앱 유튜브뮤직으로 바꿨어" names 음악 and
    앱; a general head goes with the word before it: "요가 수업")."""
    found: list[str] = []
    matches = [(m, True) for m in _KO_MOVED_TO.finditer(text)]
    matches += [(m, False) for m in _KO_CHANGED_BARE.finditer(text)]
    for match, valued in matches:
        before = _KO_MOVED_WORD.findall(text[: match.start()])
        if valued:
            before = before[:-1]  # the new value left out
        named = 0
        skip = 0
        last = ""
        for back, raw in enumerate(reversed(before[-_MOVED_WORDS_BACK:])):
            if skip:
                skip -= 1
                continue
            korean = bool(re.search(r"[가-힣]", raw))
            if korean and (_KO_SINCE.search(raw) or _KO_PER_UNIT.search(raw)):
                continue  # "이번 달부터", "단어당": when the new value holds, and its unit
            if korean and (_KO_CLAUSE_END.search(raw) or _KO_ADVERBIAL.search(raw)):
                break  # "헬스 끊고 ...", "회의 때문에 ...": another clause or phrase
            word = _clean(raw)
            if word in _MEALS and back == 0:
                found.append(word)
                break
            if word in _ORDINALS and last:
                # "둘째 어린이집 옮겼어요": the second child's daycare, not the first child's
                found[found.index(last)] = f"{word} {last}"
                break
            if word in _GENERIC or word in _QUALIFIERS or _WHEN.search(word) or not word:
                continue
            if word in _HEADS:
                index = len(before) - 1 - back
                previous = _clean(before[index - 1]) if index > 0 else ""
                if not previous or previous in _GENERIC:
                    break
                word = f"{previous} {word}"
                skip = 1
            if word not in found:
                found.append(word)
                last = word
            named += 1
            if named == _MOVED_WORDS_NAMED:
                break
    return found


def names_old_answer(content: str, word: str) -> bool:
    """True when a memory's `content` holds the given-up `word` (an English word by its stem:
    "nursing" names "nurse"); a phrase ("요가 수업") when it holds each of its words."""
    if " " in word:
        return all(names_old_answer(content, part) for part in word.split())
    folded = unicodedata.normalize("NFKC", content).casefold()
    # the same thing in the other language: "quit pilates" names "월요일마다 필라테스"
    same = canon(word)
    if same != word or word in CANON:
        words = re.findall(r"[가-힣]+|[a-z][a-z'\-]+", folded)
        if any(canon(_clean(w)) == same for w in words):
            return True
    if re.search(r"[가-힣]", word):
        if len(word) == 1:  # "표" names "표로 정리", not "발표"
            return bool(re.search(r"(?<![가-힣])" + re.escape(word), folded))
        # a compound's head names it ("휴무일" names "정기휴무"; "하윤이" names "하윤")
        return word in folded or (len(word) >= 3 and word[:-1] in folded)
    stem = _english_stem(word)
    return bool(re.search(r"\b" + re.escape(stem), folded))


def probes(word: str) -> list[str]:
    """Substrings one of which every content `names_old_answer(content, word)` accepts
    holds, to look them up by (a phrase's first word; a Korean compound's head; an English
    stem's start; the same for the word's other forms in the vocabulary)."""
    first = word.split()[0]
    same = canon(first)
    forms = {first} | {form for form, word_of in CANON.items() if word_of == same}
    return sorted({_probe(form) for form in forms})


def _probe(word: str) -> str:
    if re.search(r"[가-힣]", word):
        return word[:-1] if len(word) >= 3 else word
    return _english_stem(word)[:4]


def _english_stem(word: str) -> str:
    """ "coding" -> "cod" (names "codes"), "nursing" -> "nurs", "hospital" -> "hospi"."""
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word if len(word) <= 5 else word[: max(4, len(word) - 3)]


# "also freelance as a photographer", "강아지도 한 마리 데려왔어", "복숭아 알러지도 있어": one
# more answer beside the old one, never instead of it.
_ADDITIVE = re.compile(
    r"\btoo\b(?!\s+(?:much|many|long|short|little|few|late|early|hard|big|small|often|far|"
    r"slow|fast|busy|tired|expensive|formal|casual|detailed|wordy|dense|\w+ly\b))|"
    r"\b(?:also|as\s+well|another|additionally|in\s+addition|on\s+top\s+of|plus|a\s+second|"
    r"one\s+more)\b|(?<![가-힣])또(?![가-힣])|추가로|하나\s*더|(?:마리|개|명)\s*더|[가-힣]도\s+(?:있|키워|키우|"
    r"데려|생겼|샀|시작|배우|다녀|하고|해|한\s*(?:마리|개|명)|두\s*(?:마리|개|명)|하나)",
    re.IGNORECASE,
)


def names_both(text: str) -> bool:
    """True when `text` names the old answer beside the new one ("종이 말고 모바일로",
    "tea instead of coffee"): a statement of the new state, not only of leaving."""
    return bool(_KO_NOT_THIS.search(text) or _KO_INSTEAD.search(text) or _EN_INSTEAD.search(text))


def adds_to(text: str) -> bool:
    """True when `text` adds an answer beside an old one ("also ...", "...도 있어")."""
    return bool(_ADDITIVE.search(text))
