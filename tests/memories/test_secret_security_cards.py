"""A security card's cells below its heading, in any row shape (held-out set, issue 13 line 2):
pure, no database. Every cell here is made up."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact
from memories.logic.secret_security_cards import security_card_spans


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("보안카드\n01: 2291 02: 5738 03: 9016", ["2291", "5738", "9016"]),
        ("보안카드 번호 적어둘게\n1번 3456\n2번 7810\n3번 1142", ["3456", "7810", "1142"]),
        ("보안카드 01:4417 02:5568 03:9903 04:3145", ["4417", "5568", "9903", "3145"]),
        ("내 보안카드 앞부분ㅋㅋ\n01 1734  02 5698  03 9172\n04 3406  05 7190", ["1734", "7190"]),
        ("보안카드 사진 대신 적어놔요\n01-1284\n02-5677\n03-9019", ["1284", "5677", "9019"]),
        ("security card:\n1) 4821\n2) 9930\n3) 1175", ["4821", "9930", "1175"]),
        ("my security card grid\n#1 4821 #2 9930 #3 1175", ["4821", "9930", "1175"]),
        ("보안카드 (농협)\n| 01 | 1234 | 02 | 5678 |\n| 03 | 9012 | 04 | 3456 |", ["1234", "3456"]),
        ("보안카드\n     1    2    3\n01  1834 5078 9312\n02  3256 7490 1622", ["1834", "1622"]),
        ("보안카드 앞 3칸만\n\n4821\n9930\n1175", ["4821", "9930", "1175"]),
        ("보안카드\n1번 3456\n2번은 7890\n오늘 은행 감", ["3456", "7890"]),
        ("보안카드 01=4821, 02=9930, 03=1175", ["4821", "9930", "1175"]),
        ("보안카드 11번 앞2자리 48 뒤2자리 21", ["48", "21"]),
        ("Security card rows 🙏\n01. 4821\n02. 9930", ["4821", "9930"]),
        ("security card grid\nA1 4821 A2 9930\nB1 1175 B2 6402", ["4821", "6402"]),
        ("보안카드 번호\n01 | 1234\n02 | 5678", ["1234", "5678"]),
        ("보안카드 1번: 1234, 2번: 5678", ["1234", "5678"]),
    ],
)
def test_security_card_cells_in_any_row_shape_are_redacted(text: str, cells: list[str]) -> None:
    result = redact(text)

    for cell in cells:
        assert cell not in result.text, result.text
    assert result.kinds == ["verification code"]


@pytest.mark.parametrize(
    "text",
    [
        "보안카드 잃어버렸어 재발급 받아야 돼",
        "보안카드 분실해서 3번 재발급 받았어",
        "보안카드 재발급 수수료 2000원, 1번 창구로 가세요",
        "보안카드 분실신고\n1588-1234",
        "보안카드 분실신고 했어\n1588 1234 로 전화하면 돼",
        "보안카드 대신 OTP 쓰래\n010-2345-6789 로 문자 옴",
        "보안카드 사진 올림\n\n그리고 내일 2시에 만나",
        "the security card reader at gate 3 is broken\n2024-05-01 ticket filed",
    ],
)
def test_talk_about_a_security_card_and_the_numbers_after_it_stay_whole(text: str) -> None:
    assert redact(text).text == text
    assert list(security_card_spans(text)) == []
