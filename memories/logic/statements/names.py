"""A person's own name, said as an introduction: pure, no Django.

"I'm Sam Carter", "Sam Carter here", "나 김민지야", "저 박서준입니다", "김민지라고 해요", "내
이름은 김민지야", and a bare "김민지야" answering "이름이 뭐야?": the name fills the user's
name slot as a clean note ("Name is Sam Carter", "이름은 김민지"), never a fact "Is Sam Carter".
What tells a name from another proper noun ("나 서울이야", "I'm Korean") is its shape: a
Korean surname before a given name of one or two syllables, not a place's last syllable;
English capitalised words that are not a nationality, a faith or a language.
"""

from __future__ import annotations

import re

from memories.logic.statements.english import lasting_condition
from memoryhub.text import _analyser

# The common Korean surnames (one syllable) and the two-syllable ones.
_KO_SURNAMES = frozenset(
    """김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 유 전 홍 고 문 양 손 배 백 허
    남 심 노 하 곽 성 차 주 우 구 민 진 나 지 엄 채 원 천 방 공 현 함 변 염 여 추 도 소 석
    선 설 마 길 연 위 표 명 기 반 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용 예 경 봉 사 부
    가 복 태 목 형 피 두 감 음 빈 동 온 호 범 좌 팽 승 간 상 시 갈 단 견 당""".split()  # noqa: SIM905
)
_KO_DOUBLE_SURNAMES = frozenset(
    """남궁 황보 제갈 선우 독고 사공 서문 동방 어금""".split()  # noqa: SIM905
)
# The last syllable of a place's name (city, district, town, station, road, island, ...) or
# of a word for a kind of person ("한국인", "유학생", "기혼자", "고양이"): no given name's.
_KO_NOT_GIVEN_ENDINGS = frozenset(
    """시 구 동 역 도 군 읍 면 리 로 길 산 강 천 섬 항 교 촌 국 주 점 관 대 장 인 생 자 사 가
    님 족 러 직 부 남 녀 이 터 트 스 과 팀 실 층""".split()  # noqa: SIM905
)


def personal_name(word: str) -> bool:
    """True when `word` has the shape of a Korean full name ("김민지", "남궁민수")."""
    if not re.fullmatch(r"[가-힣]{3,4}", word):
        return False
    if word[-1] in _KO_NOT_GIVEN_ENDINGS:
        return False
    if len(word) == 4:
        return word[:2] in _KO_DOUBLE_SURNAMES
    return word[0] in _KO_SURNAMES or word[:2] in _KO_DOUBLE_SURNAMES


_KO_COPULA = (
    r"(?:이)?(?:야|에요|예요|이에요|입니다|이다|임|이고요|이요|요|이라고\s*해요?|라고\s*해요?|"
    r"이라고\s*합니다|라고\s*합니다)"
)
_KO_INTRO = re.compile(
    r"^(?:(?:안녕(?:하세요)?|반가워(?:요)?|처음\s*뵙겠습니다)[\s,.!~]*)?"
    r"(?:(?P<own>(?:내|제|나의|저의)\s*이름(?:은|는|이)\s*)|(?:나|저)(?:는|요)?\s+)?"
    r"(?P<name>[가-힣]{2,5}?)\s*" + _KO_COPULA + r"[\s.!~]*$"
)
# A capitalised word that says what one is, not who: a nationality, a faith, a language.
_EN_NOT_A_NAME = re.compile(
    r"^(?:[A-Z][a-z]+(?:ese|ish|ean|ic|ist)|[A-Z][a-z]{3,}(?:ian|i)|[A-Z][a-z]{4,}an|Muslim|"
    r"Hindu|Sikh|Thai|Swiss|Dutch|French|Greek|Welsh|Czech|German|Amish|Mormon|Jain|Lao|Inuit)$"
)
_EN_NAME_WORD = r"[A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?"
_EN_INTRO = re.compile(
    r"^(?i:(?:hi|hey|hello|hiya|yo)(?:\s+there)?[\s,!.]+)?"
    r"(?:(?:I'm|I\s+am|Im|this\s+is|it's)\s+(?P<a>"
    + _EN_NAME_WORD
    + r"(?:\s+"
    + _EN_NAME_WORD
    + r"){0,2})|(?P<b>"
    + _EN_NAME_WORD
    + r"(?:\s+"
    + _EN_NAME_WORD
    + r"){0,2})\s+here)"
    r"(?P<rest>\s*,\s*(?:an?|the)\s+[^.!?]+)?\s*[.!]*$"
)


def _english_name(words: str) -> bool:
    if lasting_condition(words):
        return False  # "I'm Vegan", "I'm Diabetic"
    parts = words.split()
    if len(parts) == 1:
        return not _EN_NOT_A_NAME.match(parts[0])
    # "Sam Carter", "Priya Natarajan"; "South Korean" is a nationality
    return not re.match(r"(?:South|North|East|West|Native|Half|Latin|Central)$", parts[0])


_EN_CALL_ME = re.compile(
    r"^(?:(?:please|pls|just|you\s+can|feel\s+free\s+to)\s+)*call\s+me\s+(?P<name>[A-Za-z][\w'-]*"
    r"(?:\s+[A-Z][\w'-]*)?)(?:,?\s+(?:please|pls|from\s+now\s+on|going\s+forward))*\s*[.!]*$",
    re.IGNORECASE,
)
_KO_CALL_ME = re.compile(
    r"^(?:(?:앞으로(?:는)?|그냥)\s*)?(?:(?:나를|날|저를|절|나|저)\s*)?(?P<name>[^\s,.!?]+?)\s*라고\s*"
    r"(?:불러|부르)\s*(?:줘|주세요|줘요|주라|줄래|주면\s*돼)?[\s.!~]*$"
)
_EN_OWN_NAME = re.compile(
    r"^(?:my\s+)?name(?:'s|\s+is)\s+(?P<name>"
    + _EN_NAME_WORD
    + r"(?:\s+"
    + _EN_NAME_WORD
    + r"){0,2})\s*[.!]*$",
    re.IGNORECASE,
)


def name_to_call(sentence: str) -> str | None:
    """The clean note of a request to be called by a name ("call me Sam" -> "Wants to be
    called Sam", "민지라고 불러줘" -> "민지라고 불리길 원함"); None for anything else."""
    text = sentence.strip()
    english = _EN_CALL_ME.match(text)
    if english:
        return f"Wants to be called {english.group('name')}"
    korean = _KO_CALL_ME.match(text)
    if korean:
        return f"{korean.group('name')}라고 불리길 원함"
    return None


# Kiwi's tags of a verb or an adjective: a name is a noun, never a conjugated predicate.
_PREDICATE_TAGS = ("VV", "VA", "VX", "XSV", "XSA")


def _conjugated(text: str, found: re.Match[str]) -> bool:
    """The words read as a name are a verb or an adjective that ends the sentence ("고마워요",
    "미안해요", "반가워요"): thanks or a feeling, not who the speaker is."""
    start, end = found.span("name")
    return any(
        str(token.tag).split("-")[0] in _PREDICATE_TAGS and start <= token.start < end
        for token in _analyser().tokenize(text)
    )


def self_introduction(sentence: str) -> tuple[str, str] | None:
    """(the clean name note, what follows the name as a sentence of its own, or "") when
    `sentence` introduces the speaker by name; None otherwise."""
    text = sentence.strip()
    called = name_to_call(text)
    if called is not None:
        return called, ""
    own = _EN_OWN_NAME.match(text)
    if own:
        return f"Name is {own.group('name')}", ""
    english = _EN_INTRO.match(text)
    if english:
        name = english.group("a") or english.group("b")
        if not _english_name(name):
            return None
        rest = (english.group("rest") or "").strip(" ,")
        return f"Name is {name}", f"I'm {rest}" if rest else ""
    korean = _KO_INTRO.match(text)
    if korean:
        name = korean.group("name")
        if not (korean.group("own") or personal_name(name)) or _conjugated(text, korean):
            return None
        return f"이름은 {name}", ""
    return None
