"""Wallet recovery phrases (blind set 10): pure, no database. Every phrase here is made up."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact
from memories.logic.secret_mnemonics import mnemonic_spans

TWELVE = "velvet anchor pistol mango harbor eleven drift pencil copper lunar silk wagon"
NUMBERED = (
    "1. frost 2. ladder 3. violin 4. ocean 5. bamboo 6. pilot "
    "7. ember 8. cactus 9. wisdom 10. marble 11. hockey 12. quiet"
)
TWENTY_FOUR = (
    "glove, orbit, tennis, salad, rural, dwarf, pupil, camera, vessel, kidney, fringe, oyster, "
    "banner, shrimp, tunnel, verb, jelly, mosquito, lemon, cradle, ivory, swamp, thrive, meadow"
)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (f"metamask secret recovery phrase: {TWELVE}", TWELVE),
        (f"my seed phrase is {TWELVE}. where do I keep it?", TWELVE),
        (f"시드 구문 적어둠 {NUMBERED}", NUMBERED),
        (f"{TWELVE} 이게 내 지갑 복구 단어야", TWELVE),
        (f"backup words for the ledger: {TWENTY_FOUR}", TWENTY_FOUR),
        (f"니모닉은 {TWELVE.title()} 이렇게 대문자로 적혀있어", TWELVE.title()),
    ],
)
def test_a_recovery_phrase_next_to_its_cue_is_redacted(text, phrase):
    result = redact(text)

    assert "password" in result.kinds
    for word in phrase.replace(",", " ").split()[::3]:
        assert word not in result.text, result.text


@pytest.mark.parametrize(
    "text",
    [
        "how do I store a 12 word seed phrase safely?",
        "시드 구문은 종이에 적어서 금고에 보관해",
        "my recovery phrase is written on paper and kept where only my wife knows",
        # twelve short words, but no cue says they are a phrase
        "shopping list: milk eggs bread butter cheese apple banana onion garlic pepper tomato rice",
        # a cue, and a run of words that is a sentence
        "the seed phrase card says: keep these words away from your phone and never type them "
        "into any site that asks",
    ],
)
def test_talk_about_a_recovery_phrase_and_word_lists_stay_whole(text):
    assert redact(text).text == text


def test_a_run_of_words_far_from_the_cue_is_no_phrase():
    text = f"seed phrase backups matter, said the talk; later on the slide: {TWELVE}"

    assert mnemonic_spans(text) == []


def test_a_phrase_on_the_line_after_its_cue_is_redacted():
    text = f"recovery phrase:\n{TWELVE}\nkeep it offline"

    assert redact(text).text == "recovery phrase:\n[redacted: password]\nkeep it offline"


def test_eleven_words_are_no_phrase():
    eleven = " ".join(TWELVE.split()[:11])

    assert mnemonic_spans(f"seed phrase: {eleven}") == []


KOREAN_TWELVE = "감자 호수 바람 연못 거울 사탕 여우 단풍 소금 지붕 등대 모래"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (f"지갑 복구 단어 12개: {KOREAN_TWELVE}", KOREAN_TWELVE),
        (f"시드: {KOREAN_TWELVE}", KOREAN_TWELVE),
        (f"seed: {TWELVE}", TWELVE),
    ],
)
def test_a_korean_word_phrase_and_a_phrase_after_a_bare_seed_label_are_redacted(text, phrase):
    result = redact(text)

    assert all(word not in result.text for word in phrase.split()[2:]), result.text
    assert "password" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "복구 단어는 꼭 종이에 써서 집 금고 안에 두고 절대 사진 찍지 말고 폰에 저장 하지 마",
        "seed is the most important thing to keep safe and you should never share it with anyone",
        "I planted a seed: tomato basil pepper",
    ],
)
def test_korean_talk_about_a_recovery_phrase_and_a_short_seed_list_stay_whole(text):
    assert redact(text).text == text
