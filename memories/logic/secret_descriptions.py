"""Whether the words stated as a password describe it instead of giving it: pure, no Django.

The rule, by language (issue 13 line 2):

- Korean drops possessives and articles, so a phrase made only of words that name a kind of
  information (생일, 이름, 전화번호 뒷자리, 영문숫자 조합, 다른 거) and whose it is (내, 엄마,
  강아지, 첫) describes the password: "비번은 생일이야", "비번은 엄마 생일", "비번 다른걸로
  바꿨어". So does a phrase whose head, its last part, is such a word ("첫사랑이름", "담임
  선생님 성함"). Any other phrase is a value: "다른세상" is 다른 + 세상, "생일 케이크" ends in
  케이크.
- English marks a description with a determiner or a possessive ("my birthday", "the dog's
  name", "a new one"); the callers treat those words as opening no value. A bare noun after
  "is" ("my password is birthday") has neither and reads as the literal word: it is a value.
- A quoted phrase is literal in both languages; callers do not ask this module about it.
"""

from __future__ import annotations

import re

# Kinds of information a password is made of ("what"): at least one must be in a description.
_KO_WHAT = frozenset(
    """생일 생년월일 생년 이름 성함 성 번호 전화번호 전번 폰번호 핸드폰번호 휴대폰번호 차번호
    번호판 학번 사번 군번 주소 고향 뒷자리 앞자리 자리 네자리 세자리 여섯자리 숫자 문자 영문
    영어 한글 특수문자 기호 대문자 소문자 대소문자 조합 기념일 결혼기념일 이니셜 날짜 년도 연도 해
    거 걸 것 꺼 껄 비번 비밀번호 암호 패턴 무엇""".split()  # noqa: SIM905
)
# Whose or which it is, and the words that join two parts ("이름이랑 생일", "이름+생일").
_KO_WHOSE = frozenset(
    """내 나 제 저 우리 우리집 엄마 아빠 어머니 아버지 부모님 와이프 아내 남편 애 아이 아기 딸
    아들 동생 형 누나 언니 오빠 할머니 할아버지 강아지 고양이 반려견 여친 남친 애인 가족 첫
    첫째 둘째 다른 같은 똑같은 새 새로운 예전 옛날 이전 원래 기존 처음 임시 초기 기본 이 그
    회사 집 폰 차 태어난 출생 좋아하는 사람 다른사람 남 친구 누구""".split()  # noqa: SIM905
)
_KO_LINKS = frozenset("랑 이랑 하고 과 와 의 에 + &".split())  # noqa: SIM905
# Korean puts the head of a phrase last: a phrase that ends in one of these names a kind of
# information whatever comes before it ("첫사랑이름", "초등학교 담임 선생님 성함"). Short heads
# (거, 해) are left out: they end ordinary nouns too ("자전거").
_KO_HEADS = tuple(
    """생일 생년월일 이름 성함 번호 전화번호 번호판 학번 사번 군번 주소 고향 뒷자리 앞자리
    네자리 세자리 숫자 조합 기념일 이니셜 날짜 년도 연도""".split()  # noqa: SIM905
)
# Whole words that say the password is the same as another one.
_KO_SAME = frozenset("똑같아 똑같음 같아 같음 동일 동일해 동일함".split())  # noqa: SIM905

# "숫자4자리": a count before 자리 or 글자 says how long, not what.
_COUNT = re.compile(r"[0-9]+(?=자리|글자|자)")
_HANGUL_WORD = re.compile(r"[가-힣0-9+&]+")

_PARTS = _KO_WHAT | _KO_WHOSE | _KO_LINKS
_LONGEST = max(map(len, _PARTS))


def _splits(word: str) -> set[bool]:
    """How `word` splits into description parts: holds True when some split has a "what"
    part, False when some split has none; empty when `word` does not split."""
    # ways[i]: the same for word[i:]; filled from the end (linear in len(word) * _LONGEST)
    ways: list[set[bool]] = [set() for _ in word] + [{False}]
    for i in range(len(word) - 1, -1, -1):
        for size in range(1, min(_LONGEST, len(word) - i) + 1):
            head = word[i : i + size]
            if head in _PARTS:
                ways[i].update(has_what or head in _KO_WHAT for has_what in ways[i + size])
    return ways[0]


def described_in_korean(words: list[str]) -> bool:
    """True when `words` (a value stated after a Korean cue, endings stripped) only say what
    the password is made of: "생일", "엄마 생일", "다른걸", "영문숫자조합", "이름+생일"."""
    if not words:
        return False
    if len(words) == 1 and words[0] in _KO_SAME:
        return True
    last = _COUNT.sub("", words[-1]).removesuffix("이")
    if last.endswith(_KO_HEADS) and all(_HANGUL_WORD.fullmatch(w) for w in words):
        return True
    has_what = False
    for word in words:
        splits = _splits(_COUNT.sub("", word))
        if not splits:
            return False
        has_what = has_what or True in splits
    return has_what
