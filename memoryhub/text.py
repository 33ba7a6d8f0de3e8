"""Keyword extraction: Kiwi for Korean, plain tokens for English and code words.

`keywords()` gives display forms ("Next.js", "마이그레이션") in order of weight;
`index_tokens()` gives the normalised forms stored in `text[]` columns and matched by search.
One Kiwi analyser is loaded lazily per process (1.5 s, ~500 MB).
"""

from __future__ import annotations

import re
import threading
import warnings
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiwipiepy import Kiwi

# What forgetting puts where a deleted memory's words were: never a keyword, tag or search term.
REMOVED_MARKER = "[removed]"

_kiwi: Kiwi | None = None
_kiwi_lock = threading.Lock()

# Nouns, proper nouns, roots, Chinese characters; SL (Latin) is handled by the English path.
_KOREAN_TAGS = {"NNG", "NNP", "XR", "SH"}
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
# The marker a secret's redaction leaves ("[redacted: password]", memories/logic/redaction.py;
# a test keeps the two in step). It stands for something that was not said here, so its words
# are no keyword, tag or search term: every message with a secret would match every other.
REDACTION_MARKER = re.compile(r"\[redacted: [^\]\n]{1,40}\]")
# Any marker where something was taken out, in any form a reader or a model may meet it: the
# stored codes ("[redacted: password]", "[removed]", "[withheld: ...]"), the forms pages show
# them in ("(password hidden)", "(비밀번호 가림)", "(deleted)", "(삭제됨)", "(withheld: ...)",
# "(보류됨: ...)"), and the usual hand-made ones ("[REDACTED]", "【삭제】"). Text that carries
# one says that something is missing, not what was said: never a summary, tag, keyword or
# title. A word before "hidden"/"가림" names what was hidden; the other words stand alone.
_OPEN, _CLOSE, _INSIDE = r"[\[(（【]", r"[\])）】]", r"[^\[\]()（）【】\n]"
ANY_MARKER = re.compile(
    _OPEN
    + r"\s*(?:(?:removed|deleted|redacted|withheld|censored|삭제됨|삭제|제거됨|보류됨|숨김)"
    + rf"(?:\s*[:：]{_INSIDE}{{0,80}})?"
    + rf"|{_INSIDE}{{1,40}}?\s(?:hidden|가림))\s*"
    + _CLOSE,
    re.IGNORECASE,
)
# The words of a marker, as a model may give one back as a tag or keyword.
MARKER_WORDS = frozenset(
    "removed deleted redacted withheld censored 삭제됨 제거됨 보류됨 가림 숨김".split()  # noqa: SIM905
)
# A code-ish or English word: letters/digits with inner . _ - + # (Next.js, C++, node-js, gpt-4o).
_LATIN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*(?:[.\-+#][A-Za-z0-9_+#]+)*[+#]*")
_ENGLISH_STOPWORDS = frozenset(
    """a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each even ever every few for from further get gets got had
    hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him
    himself his how how's however i i'd i'll i'm i've if in into is isn't it it's its itself
    just let's like may me might more most much must mustn't my myself need no nor not now of
    off on once one only or other ought our ours ourselves out over own really same say said
    shall shan't she she'd she'll she's should shouldn't so some such than that that's the
    their theirs them themselves then there there's these they they'd they'll they're they've
    this those through to too under until up upon us very was wasn't we we'd we'll we're we've
    were weren't what what's when when's where where's which while who who's whom why why's
    will with won't would wouldn't yes yet you you'd you'll you're you've your yours yourself
    yourselves ok okay yeah hey hi hello thanks thank please lot lots thing things something
    anything want wants know think going go went gone make made way well still back
    aren couldn didn doesn don hadn hasn haven isn mustn shan shouldn wasn weren won wouldn
    ll ve re""".split()  # noqa: SIM905
)
# Korean nouns too general to describe anything (bound nouns, pronoun-like nouns).
_KOREAN_STOPWORDS = frozenset(
    """것 수 때 거 이거 그거 저거 뭐 무엇 등 중 좀 번 분 데 뿐 대로 만큼 정도 쪽 듯 줄 리 적 나 너
    우리 저 이것 그것 저것 여기 거기 저기 오늘 내일 어제
    지금 이번 저번 요즘 진짜 정말 그냥 하나""".split()  # noqa: SIM905
)


def _analyser() -> Kiwi:
    global _kiwi
    if _kiwi is None:
        with _kiwi_lock:
            if _kiwi is None:
                from kiwipiepy import Kiwi

                # No thread pool (num_workers=0): every call here analyses one text on the
                # calling thread, which is all a pool speeds up; and a pool does not survive
                # the fork of a process that loaded Kiwi before forking (`memoryhub.warmup`):
                # the child aborts when it exits, joining threads it never had.
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", "behavior of `num_workers=0`")
                    _kiwi = Kiwi(num_workers=0)
    return _kiwi


def has_hangul(text: str) -> bool:
    return bool(_HANGUL.search(text))


# Hangul letters written alone ("ㅋㅋ", "ㅠㅠ", "ㄱㄱ"): Korean, though no syllable.
_HANGUL_JAMO = re.compile(r"[\u3131-\u318e\u1100-\u11ff]")


# What is written in no language of the person's: markers, code spans, URLs, e-mail addresses.
_NOT_PROSE = re.compile(
    REDACTION_MARKER.pattern
    + "|"
    + re.escape(REMOVED_MARKER)
    + r"|```.*?(?:```|$)|`[^`\n]*`"
    # (each started only where a scheme or an address can start: from every letter of a
    # long run it would be n*n)
    + r"|(?<![a-z0-9+.-])(?:[a-z][a-z0-9+.-]*://|www\.)\S+"
    + r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    re.IGNORECASE | re.DOTALL,
)
# A code-ish word: punctuation between word characters (os.path, a/b, x=1, f(x)), an
# underscore (user_id), or a capital after a small letter (camelCase, getUserName).
_CODE_INSIDE = re.compile(r"\w[./\\:=<>(){}\[\]$]+\w|_|[a-z][A-Z]")
# The language is told from the beginning of a long text (a pasted page).
_LANGUAGE_SAMPLE = 4000


def detect_language(text: str) -> str:
    """'ko' when Hangul makes up a fair share of the letters, else 'en'. Redaction and
    removal markers, URLs, e-mail addresses and code-ish words are left out of the count:
    "[redacted: password]" or a link in a Korean message says nothing of its language."""
    words = _NOT_PROSE.sub(" ", text[:_LANGUAGE_SAMPLE]).split()
    prose = " ".join(word for word in words if not _CODE_INSIDE.search(word))
    hangul = len(_HANGUL.findall(prose)) + len(_HANGUL_JAMO.findall(prose))
    latin = sum(1 for ch in prose if ch.isascii() and ch.isalpha())
    return "ko" if hangul and hangul * 2 >= latin * 0.5 else "en"


def has_letters(text: str) -> bool:
    """Whether `text` has a letter of any script: an emoji, a number or punctuation alone
    ("🙏", "👍👍", "!!", "10") says nothing of the language it was written in."""
    return any(ch.isalpha() for ch in text)


@lru_cache(maxsize=4096)
def stem_english(word: str) -> str:
    """A light, predictable English stemmer: plurals and common verb endings."""
    w = word.lower()
    if len(w) <= 3 or not w.isalpha():
        return w
    for suffix, replacement in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ing", ""),
        ("ied", "y"),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            stem = w[: len(w) - len(suffix)] + replacement
            if suffix in ("ing", "ed") and len(stem) > 3 and stem[-1] == stem[-2]:
                stem = stem[:-1]  # running -> run, planned -> plan
            if suffix == "es" and not stem.endswith(("s", "x", "z", "ch", "sh")):
                stem = w[:-1]  # notes -> note (not "not")
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                return w
            return stem
    return w


_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH_NAMES = {
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
}
_KOREAN_MONTH = re.compile(r"(?<!\d)(1[0-2]|0?[1-9])\s?월")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?:\s?년)?(?!\d)")


def month_term(month: int) -> str:
    return f"m{month:02d}"


def year_term(year: int) -> str:
    return f"y{year}"


def without_markers(text: str) -> str:
    """`text` with every marker taken out (`ANY_MARKER`: redaction, removal, withheld, in
    any of their forms; each leaves a space)."""
    return ANY_MARKER.sub(" ", REDACTION_MARKER.sub(" ", text))


def carries_marker(text: str) -> bool:
    """Whether `text` holds a marker of something taken out, in any form (`ANY_MARKER`)."""
    return bool(REDACTION_MARKER.search(text) or ANY_MARKER.search(text))


def is_marker_word(term: str) -> bool:
    """Whether a tag or keyword is only a marker's word ("removed", "[삭제됨]")."""
    return term.strip(" []()（）【】:：").lower() in MARKER_WORDS or carries_marker(term)


def date_terms(text: str) -> list[str]:
    """Canonical month/year terms ("m05", "y2023") for "May 2023", "2023년 5월" alike."""
    text = without_markers(text)
    found = [year_term(int(m.group(1))) for m in _YEAR.finditer(text)]
    found += [month_term(int(m.group(1))) for m in _KOREAN_MONTH.finditer(text)]
    for match in _LATIN_WORD.finditer(text):
        word = match.group(0)
        lower = word.lower().rstrip(".")
        # Full names are months in any case; "May" and abbreviations only when capitalised.
        full = lower in _MONTH_NAMES and lower != "may"
        if lower in _MONTHS and (full or word[0].isupper()):
            found.append(month_term(_MONTHS[lower]))
    return found


def _english_terms(text: str) -> list[str]:
    terms = []
    for match in _LATIN_WORD.finditer(text):
        word = match.group(0)
        lower = word.lower()
        if lower in _MONTHS or (lower.isdigit() and len(lower) == 4):
            continue  # dates become canonical terms in date_terms()
        if lower in _ENGLISH_STOPWORDS or (len(lower) < 2 and not word.isupper()):
            continue
        if lower.isdigit() and len(lower) < 3:
            continue
        terms.append(word)
    return terms


_KOREAN_PREDICATES = {"VV", "VA", "VV-I", "VA-I", "VV-R", "VA-R"}
# Stems too common to tell anything ("하다", "있다", "되다", ...).
_GENERIC_PREDICATES = frozenset(
    "하다 있다 없다 되다 이다 아니다 같다 보다 주다 않다 그렇다 이렇다".split()  # noqa: SIM905
)


@lru_cache(maxsize=16)
def morphemes(text: str) -> tuple[tuple[str, str], ...]:
    """Kiwi's analysis of `text` as (form, tag) pairs, remembered for the last few texts: one
    message is analysed for its index tokens, keywords, names and topic terms in a request,
    and a long one costs most of its reply's time in Kiwi (~0.3 s for 32,000 characters)."""
    return tuple((token.form, token.tag) for token in _analyser().tokenize(text))


def _korean_terms(text: str, *, predicates: bool = False) -> list[str]:
    """Nouns (and, for the index, verb and adjective lemmas such as "좋아하다")."""
    terms = []
    for form, tag in morphemes(text):
        if tag in _KOREAN_TAGS and form not in _KOREAN_STOPWORDS:
            if tag == "NNG" and len(form) < 2:
                continue
            terms.append(form)
        elif predicates and tag in _KOREAN_PREDICATES:
            lemma = form + "다"
            if lemma not in _GENERIC_PREDICATES:
                terms.append(lemma)
    return terms


def terms(text: str, *, predicates: bool = False) -> list[str]:
    """Every content term of `text` in order, with repeats, in display form.

    `predicates` adds Korean verb and adjective lemmas: search matches them, but they make
    poor topic keywords or tags.
    """
    text = without_markers(text)
    if not text:
        return []
    text = text.replace(REMOVED_MARKER, " ")
    found = _english_terms(text)
    if has_hangul(text):
        found += _korean_terms(text, predicates=predicates)
    return found


def normalise(term: str) -> str:
    if has_hangul(term):
        return term
    if re.fullmatch(r"[A-Za-z]+", term):
        return stem_english(term)
    return term.lower()


def index_tokens(text: str) -> list[str]:
    """Distinct normalised terms and date terms, for the keyword index and for queries."""
    found = terms(text, predicates=True)
    return list(dict.fromkeys([*(normalise(t) for t in found), *date_terms(text)]))


_CODE_LIKE = re.compile(r"\d|\w[-_.]\w")


def name_tokens(text: str) -> list[str]:
    """Index tokens of `text` that name something: Korean proper nouns, Latin words
    capitalised inside a sentence ("my dog Biscuit"), and code-like words ("Zorblax-91")."""
    found = []
    for match in _LATIN_WORD.finditer(text.replace(REMOVED_MARKER, " ")):
        word = match.group(0)
        before = text[: match.start()].rstrip()
        inside = bool(before) and before[-1] not in ".!?:\n\"'“‘-*•"
        if word.lower() in _ENGLISH_STOPWORDS or word.lower() in _MONTHS:
            continue
        if _CODE_LIKE.search(word) or (inside and word[0].isupper()):
            found.append(normalise(word))
    if has_hangul(text):
        found += [form for form, tag in morphemes(text) if tag == "NNP"]
    return list(dict.fromkeys(found))


def keywords(text: str, limit: int = 5) -> list[str]:
    """The most frequent content terms in display form (ties keep first appearance)."""
    counts: Counter[str] = Counter()
    display: dict[str, str] = {}
    for term in terms(text):
        key = normalise(term)
        counts[key] += 1
        display.setdefault(key, term)
    return [display[key] for key, _ in counts.most_common(limit)]


def estimate_tokens(text: str) -> int:
    """A fast token estimate: ~4 characters per token for Latin text, ~1.5 for Hangul."""
    if not text:
        return 0
    hangul = len(_HANGUL.findall(text))
    return max(1, round(hangul / 1.5 + (len(text) - hangul) / 4))


def warm_up() -> None:
    """Load the analyser now (worker start) instead of on the first request."""
    _analyser().tokenize("준비")
