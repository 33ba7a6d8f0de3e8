"""Passport and driver's licence numbers stated as such (blind set 12, issue 13 line 2): pure,
no database. Every number here is made up."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact
from memories.logic.secret_documents import ID_DOCUMENT


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("여권번호 M123A4567 맞는지 봐줘", "M123A4567"),
        ("엄마 여권 번호는 M70318256 이야, 비자 신청서에 써", "M70318256"),
        ("passport number for my daughter is X12345678", "X12345678"),
        ("my passport no. 612930485 goes on the ESTA form", "612930485"),
        ("운전면허 번호 11-22-334455-66 적어야 해", "11-22-334455-66"),
        ("driver's license number D1234567 for the rental car", "D1234567"),
    ],
)
def test_a_document_number_after_its_name_is_redacted(text: str, number: str) -> None:
    result = redact(text)

    assert number not in result.text, result.text
    assert result.kinds == [ID_DOCUMENT]


@pytest.mark.parametrize(
    "text",
    [
        "passport photo 35x45 필요해?",
        "여권 발급 수수료 53000원 이래",
        "my passport expires in 2031, should I renew?",
        "여권번호 뭐였지? 사진 찍어둔 거 찾아봐",
        "passport number 12 on the applicant list was called",
        "면허 딴 지 3년 됐어",
        "driver's license renewal costs 40000 won",
    ],
)
def test_talk_about_documents_and_their_other_numbers_stays_whole(text: str) -> None:
    assert redact(text).text == text
