"""Card details, backup-code lists (blind set 12, issue 13 line 2): pure, no database. Every
number here is made up; card numbers are test numbers that pass Luhn."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact


@pytest.mark.parametrize(
    ("text", "expiry"),
    [
        ("신한카드 5425 2334 3010 9903 만료일은 2029년 2월이야", "2029년 2월"),
        ("체크카드 4532015112830366 / 30년 7월 만료 / 해외결제용", "30년 7월"),
        ("비자 4532-0151-1283-0366 유효 06/31 이고 cvc 288", "06/31"),
        ("visa 4532015112830366 good thru 07/30, keep it for the gym", "07/30"),
        ("company card 5425233430109903 expiration 2030-01 cvv 612", "2030-01"),
        ("my amex 3714 496353 98431 expires Sept 2029", "Sept 2029"),
        ("card 4532015112830366 10/28 for the taxi app", "10/28"),
    ],
)
def test_a_card_expiry_beside_the_card_number_is_redacted(text: str, expiry: str) -> None:
    result = redact(text)

    assert expiry not in result.text, result.text
    assert "card expiry" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "카드 유효기간 09/27 지나면 자동으로 재발급돼?",
        "my card expired 03/25, how do I order a new one?",
        "유효기간 2028년 4월 인 쿠폰 있어",
        "valid thru 11/29 is printed on the front, right?",
    ],
)
def test_an_expiry_date_without_a_card_number_stays_whole(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("여권 만료일 2031년 3월이고 카드 4532015112830366 로 결제했어", "2031년 3월"),
        ("paid with card 4532015112830366, my passport expires 08/2033", "08/2033"),
        ("카드 5425233430109903 결제, 영수증 날짜 2025/09/27", "2025/09/27"),
    ],
)
def test_another_date_beside_a_card_number_stays(text: str, kept: str) -> None:
    result = redact(text)

    assert kept in result.text, result.text
    assert "card number" in result.kinds


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("카드 5425233430109903 뒷면 3자리 418 이야", "418"),
        ("카드번호 4532015112830366 뒤에 세자리는 725", "725"),
        ("card 4532015112830366, the three digits on the back are 683", "683"),
        ("back of my card: 904, number 4532015112830366", "904"),
    ],
)
def test_the_code_read_off_the_cards_back_is_redacted(text: str, code: str) -> None:
    result = redact(text)

    assert code not in result.text, result.text
    assert "card code" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "카드 뒤 네자리 4418 로 결제된 거 맞아?",
        "the back of my card is scratched, can I still use it?",
        "결제 카드 뒷자리 7730 인 걸로 해줘",
    ],
)
def test_the_last_digits_of_a_card_and_talk_about_its_back_stay(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("구글 백업 코드: 4829 1037, 5521 8830, 9902 1174", ["4829 1037", "9902 1174"]),
        ("복구코드 k2m8-x9p4\nq7r3-b5n1\nz1w6-h8c2 이거 금고에", ["q7r3-b5n1", "z1w6-h8c2"]),
        ("GitHub recovery codes a1b2c-3d4e5 f6g7h-8i9j0 k1l2m-3n4o5", ["f6g7h-8i9j0"]),
        ("backup codes for 2FA:\n- 7QXM-A7K2\n- 8ZR1-P3LD", ["7QXM-A7K2", "8ZR1-P3LD"]),
    ],
)
def test_every_code_of_a_backup_code_list_is_redacted(text: str, codes: list[str]) -> None:
    result = redact(text)

    for code in codes:
        assert code not in result.text, result.text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("인증번호 482913, 10분 안에 입력해", "10분"),
        ("recovery code q4w8-z2x6, long-term storage is fine", "long-term"),
        ("백업 코드 k2m8-x9p4 말고 주문번호 2024-1187 도 적어둬", "2024-1187"),
    ],
)
def test_what_follows_a_code_without_its_shape_stays(text: str, kept: str) -> None:
    assert kept in redact(text).text
