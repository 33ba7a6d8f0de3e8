"""A door's entry code given after the door (blind set 12, issue 13 line 2): pure, no database.
Every code here is made up."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact
from memories.logic.secret_entry_codes import entry_code_spans


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("현관 *2580# 누르면 열려", "2580"),
        ("공동현관 7413# 이고 엘베는 왼쪽", "7413"),
        ("우리 빌라 공동현관 9051 이라고 택배 메모에 적어줘", "9051"),
        ("도어락 임시코드 730518 알려줄게", "730518"),
        ("front door 4471# then take the lift to 6", "4471"),
        ("the lobby door master code is 90318 for the cleaners", "90318"),
    ],
)
def test_a_code_given_after_the_door_is_redacted(text: str, code: str) -> None:
    result = redact(text)

    assert code not in result.text, result.text
    assert "password" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "공동현관 앞에 놔주세요",
        "공동현관에서 1203호 호출하세요",
        "공동현관 1203# 호출 누르면 됨",
        "현관 2층 올라가서 오른쪽",
        "도어락 4개 샀어, 배터리 교체 19800원",
        "gate 22 at Incheon, boarding 14:05",
        "the front door is at 1450 Pine Street",
        "출입문 0930 부터 열려요",
    ],
)
def test_a_unit_called_a_floor_a_price_or_an_address_stays_whole(text: str) -> None:
    assert redact(text).text == text
    assert list(entry_code_spans(text)) == []
