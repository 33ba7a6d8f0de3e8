"""What the simulated people write: chat messages in Korean and English (some asking to be
remembered), and what they search their memories for.

Sentences are made from templates and word lists, so every person writes a different mix; a
Korean template's particles follow the word before them (을/를, 이/가, 은/는, (으)로, (이)야).
No corpus text: these are the load test's own.
"""

from __future__ import annotations

import random
import re

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8  # the final consonant ㄹ, whose (으)로 is 로


def _final(word: str) -> int | None:
    """The final consonant index of the word's last syllable (0 = none); None if not Hangul."""
    last = word.rstrip()[-1:]
    if not last or not _HANGUL_FIRST <= ord(last) <= _HANGUL_LAST:
        return None
    return (ord(last) - _HANGUL_FIRST) % 28


def particle(word: str, pair: str) -> str:
    """The form of `pair` ("을/를", "이/가", "은/는", "으로/로", "이야/야", "과/와") that
    follows `word`: the first form after a final consonant, the second after a vowel."""
    with_final, without = pair.split("/")
    final = _final(word)
    if final is None:
        final = 0 if word[-1:].lower() in "aeiouy" else 1
    if with_final == "으로" and final == _RIEUL:
        return without
    return with_final if final else without


_SLOT = re.compile(r"\{(\w+)\}(\{([^{}/]+/[^{}/]+)\})?")

WORDS: dict[str, list[str]] = {
    "food": [
        "김치찌개",
        "된장국",
        "떡볶이",
        "비빔밥",
        "파스타",
        "초밥",
        "삼겹살",
        "냉면",
        "카레",
        "샐러드",
    ],
    "place": ["부산", "제주도", "강릉", "전주", "도쿄", "오사카", "방콕", "파리", "경주", "속초"],
    "pet": ["콩이", "보리", "초코", "별이", "두부", "마루", "호두", "몽실"],
    "hobby": ["수영", "기타", "요가", "등산", "사진", "뜨개질", "테니스", "베이킹"],
    "topic": [
        "이사 준비",
        "이직",
        "결혼식 준비",
        "다이어트",
        "영어 공부",
        "자동차 보험",
        "세금 신고",
    ],
    "time": ["9시", "10시 반", "8시", "11시", "2시"],
    "tool": ["슬랙", "노션", "엑셀", "깃허브", "지라"],
    "food_en": ["peanuts", "shellfish", "lactose", "gluten", "sesame", "kiwi"],
    "dish_en": [
        "ramen",
        "lasagna",
        "a tofu stir-fry",
        "pancakes",
        "chicken curry",
        "a Greek salad",
    ],
    "place_en": ["Lisbon", "Kyoto", "Seoul", "Vancouver", "Istanbul", "Hanoi", "Edinburgh"],
    "pet_en": ["Mochi", "Pepper", "Biscuit", "Luna", "Olive", "Tofu"],
    "hobby_en": ["bouldering", "the cello", "watercolour painting", "chess", "sourdough baking"],
    "topic_en": ["the move to Busan", "my visa renewal", "the kitchen renovation", "the car loan"],
    "pref_en": ["short answers", "metric units", "window seats", "vegetarian recipes", "dark mode"],
    "time_en": ["9:30", "10 am", "8:45", "noon"],
    "tool_en": ["Postgres", "Docker", "a VPN", "a shared calendar", "a password manager"],
}

KOREAN = [
    "기억해 줘: 나는 {food}{을/를} 정말 좋아해.",
    "참고로 나 {food}{은/는} 못 먹어. 알레르기가 있거든.",
    "다음 달에 {place}{으로/로} 여행 가는데 일정 좀 같이 짜 줄래?",
    "우리 강아지 이름은 {pet}{이야/야}. 기억해 둬.",
    "요즘 {hobby}{을/를} 배우고 있는데 초보자가 조심할 게 뭐야?",
    "{place}에서 {food} 맛집 추천해 줄 수 있어?",
    "지난번에 얘기한 {topic} 어떻게 하기로 했지?",
    "내일 아침 {time}에 회의가 있어. 준비할 거 정리해 줘.",
    "앞으로 답변은 짧게 해 줘.",
    "{food} 만드는 법 알려 줘. 재료는 집에 있는 걸로.",
    "회사에서 {tool}{을/를} 쓰는데 설정이 너무 복잡해.",
    "주말에 {hobby} 하러 {place}에 갈까 고민 중이야.",
    "나 {topic} 때문에 요즘 좀 바빠.",
    "오늘 저녁은 {food}{이/가} 먹고 싶네.",
]

ENGLISH = [
    "Remember that I'm allergic to {food_en}.",
    "Please remember that I prefer {pref_en}.",
    "I'm going to {place_en} next month; can you help me plan three days there?",
    "What did we decide about {topic_en} last time?",
    "My dog's name is {pet_en}, by the way.",
    "Give me a quick recipe for {dish_en} with what is usually in a fridge.",
    "I started learning {hobby_en}; what mistakes do beginners make?",
    "Summarize what you know about {topic_en}.",
    "Remember that my standup is at {time_en} every weekday.",
    "How should I set up {tool_en} for a small team?",
    "Is {place_en} nice in late autumn?",
    "I'd like to cook {dish_en} tonight, any tips?",
]

SEARCHES = [
    "여행", "강아지", "알레르기", "회의", "맛집", "이사", "김치찌개", "부산", "수영", "기타",
    "trip", "allergic", "standup", "recipe", "dog", "visa", "Kyoto", "chess", "prefer",
]  # fmt: skip


def fill(template: str, rng: random.Random) -> str:
    """`template` with each {slot} replaced by a word of its list and each {A/B} particle
    after a slot in the form that word takes."""

    def replace(match: re.Match[str]) -> str:
        word = rng.choice(WORDS[match[1]])
        return word + (particle(word, match[3]) if match[3] else "")

    return _SLOT.sub(replace, template)


def message(rng: random.Random, *, korean_share: float = 0.6) -> str:
    """One chat message; most users of memoryhub write Korean, so most messages are."""
    templates = KOREAN if rng.random() < korean_share else ENGLISH
    return fill(rng.choice(templates), rng)


def search(rng: random.Random) -> str:
    return rng.choice(SEARCHES)
