"""Secrets set 16 found left whole, by category (a vendor key named a few words before its
value, a security card's cell given by halves, a user and password pair, a passphrase said to
hold spaces, a 주민등록번호 shape labelled as another number), with look-alikes: pure."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact

LEAKS = [
    (
        "번역 플랫폼 API 키는 DeepL 것으로 a7c3e1f9-2b4d-4e8a-9c6f-1d2e3f4a5b6c:fx 입니다",
        "a7c3e1f9-2b4d-4e8a-9c6f-1d2e3f4a5b6c",
    ),
    ("deepl 키 이거 써 5b1e2c3d-4f5a-6b7c-8d9e-0f1a2b3c4d5e:fx", "5b1e2c3d-4f5a"),
    ("my license key for the plugin is basically 3F9A-22KD-81QX-7ZPL-0M4N ok", "3F9A-22KD"),
    ("API 키는 지난번에 받은 걸로 9f8e7d6c5b4a3f2e1d0c9b8a7f6e 쓰고 있어요", "9f8e7d6c5b4a"),
    ("인터넷뱅킹 보안카드 12번 앞자리 38 뒷자리 71 이고 27번은 5406 이에요", "38"),
    ("인터넷뱅킹 보안카드 12번 앞자리 38 뒷자리 71 이고 27번은 5406 이에요", "71"),
    ("보안카드 5번 앞자리는 12이고 뒷자리는 90 입니다", "90"),
    ("Supplier portal: user seomyeon_kj / pass Jjigae2024!? - times out.", "Jjigae2024"),
    ("vpn: username jdoe, password Tr0ub4dor&3 안 되는데", "Tr0ub4dor&3"),
    ("학원 사이트 아이디 kimsj0315 / 비번 sj0315!! 이에요", "sj0315!!"),
    ("맘카페 비번 서윤이 도윤이 사랑해 띄어쓰기 포함이에요", "서윤이 도윤이 사랑해"),
    ('와이파이 비밀번호는 "우리집 최고 와이파이" 띄어쓰기 포함', "우리집 최고 와이파이"),
    ("my passphrase is purple monkey dishwasher, with spaces", "purple monkey dishwasher"),
    ("제 주민번호 880512-1234568 입니다", "880512-1234568"),
    ("880512-1234568 이게 제 주민번호예요", "880512-1234568"),
]
KEPT = [
    "API 키를 발급받은 프로젝트 이름은 my-awesome-project-test 입니다",
    "보안카드 3번 앞자리 4 뒷자리 7 이라는데 이상하네",
    "보안카드 12번 칸이 어디 있는지 모르겠어요 앞자리 보면 되나요",
    "user guide / pass rate was 90% last year",
    "비번에 띄어쓰기 포함해도 되나요?",
    "비밀번호 설정할 때 띄어쓰기 포함 가능한지 궁금해요",
    "주문번호 880512-1234567 이라고 문자왔는데 주민번호 모양이라 놀랬다",
    "예약번호 920101-2345678 받았는데 주민번호랑 똑같이 생겼네",
]


@pytest.mark.parametrize(("text", "secret"), LEAKS)
def test_a_secret_of_a_set_16_category_is_redacted(text: str, secret: str) -> None:
    assert secret not in redact(text).text


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_of_a_set_16_secret_is_kept_whole(text: str) -> None:
    assert redact(text).text == text
