"""A person's own name said as an introduction fills the name slot (issue 14 line 2)."""

from __future__ import annotations

import pytest

from memories.logic import rules
from memories.logic.statements.names import personal_name, self_introduction


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("I'm Priya Natarajan", "Name is Priya Natarajan"),
        ("I am Tomas.", "Name is Tomas"),
        ("hey, I'm Olu Adeyemi", "Name is Olu Adeyemi"),
        ("Dana Whitfield here", "Name is Dana Whitfield"),
        ("나 정하늘이야", "이름은 정하늘"),
        ("저 윤서아입니다", "이름은 윤서아"),
        ("한지호예요", "이름은 한지호"),
        ("제 이름은 오세린이에요", "이름은 오세린"),
        ("남궁민수라고 해요", "이름은 남궁민수"),
        ("My name's Priya", "Name is Priya"),
        ("please call me Bea", "Wants to be called Bea"),
        ("저를 하늘이라고 불러주세요", "하늘이라고 불리길 원함"),
    ],
)
def test_an_introduction_gives_the_clean_name_note(text, note):
    assert self_introduction(text) == (note, "")


@pytest.mark.parametrize(
    "text",
    [
        "I'm Korean",
        "I'm Canadian",
        "I'm Vegan",
        "I'm tired",
        "나 대구야",
        "나 한국인이야",
        "나 개발자야",
    ],
)
def test_a_nationality_a_place_or_a_kind_of_person_is_no_name(text):
    assert self_introduction(text) is None


def test_what_follows_the_name_is_read_as_its_own_statement():
    assert self_introduction("I'm Priya Natarajan, a pharmacist in Leeds") == (
        "Name is Priya Natarajan",
        "I'm a pharmacist in Leeds",
    )


@pytest.mark.parametrize(("word", "name"), [("정하늘", True), ("송파구", False), ("대학생", False)])
def test_a_korean_name_has_a_surname_and_no_places_last_syllable(word, name):
    assert personal_name(word) is name


@pytest.mark.parametrize(
    "text",
    ["I'm Priya Natarajan", "나 정하늘이야", "한지호예요", "call me Bea", "하늘이라고 불러줘"],
)
def test_a_name_statement_fills_the_name_slot_and_is_never_a_fact_is_x(text):
    (item,) = rules.extract_statements(text)

    assert item.slot == "name"
    assert not item.content.startswith("Is ")
    assert not item.content.endswith(("임", "야"))


def test_a_korean_interjection_opening_the_news_is_left_out():
    (item,) = rules.extract_statements("대박 나 다음 달에 이사감")

    assert item.content.startswith("다음 달")


@pytest.mark.parametrize(
    "text",
    ["미안해요 제가 잘못 봤네요", "반가워요 처음 써봐요", "고마워 덕분에 살았다", "서운해요 진짜"],
)
def test_thanks_an_apology_or_a_feeling_is_no_name(text):
    assert not any(item.slot == "name" for item in rules.extract_statements(text))


@pytest.mark.parametrize(
    ("text", "note"), [("이도윤이요", "이름은 이도윤"), ("저 최하린이에요", "이름은 최하린")]
)
def test_a_name_after_the_predicate_check_is_still_a_name(text, note):
    assert self_introduction(text) == (note, "")
