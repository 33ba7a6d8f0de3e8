"""Passwords after a cue (blind set 13, issue 13 line 2): a Korean-word password before a
bracketed remark, a door's code read out digit by digit. Pure, no database; every password
here is made up."""

from __future__ import annotations

import pytest

from memories.logic.redaction import redact


@pytest.mark.parametrize(
    ("text", "password"),
    [
        ("거실 와이파이 비번 달빛정원 (전부 한글) 손님 오면 알려줘", "달빛정원"),
        ("사무실 wifi 비번 바다거북이 (띄어쓰기 없음) 참고", "바다거북이"),
        ("본가 와이파이 비번 엄마짱최고 (한글로 침ㅎㅎ) 까먹지 말자", "엄마짱최고"),
        ("와이파이 비번은 별빛가득 (한글 그대로) 이야", "별빛가득"),
        ("공유기 비번 sunflower (소문자) 라고 써있음", "sunflower"),
        ("the cabin wifi password 솔바람소리 (typed in Hangul) for guests", "솔바람소리"),
        ("와이파이 비번 초록대문집, 한글로 치면 됨", "초록대문집"),
        ("카페 와이파이 비번 아메리카노두잔 이래", "아메리카노두잔"),
    ],
)
def test_a_password_word_closed_by_a_remark_a_comma_or_a_closing_word_is_redacted(
    text: str, password: str
) -> None:
    result = redact(text)

    assert password not in result.text, result.text
    assert result.text.endswith(text.split(password, 1)[1])  # the remark stays
    assert result.kinds == ["password"]


@pytest.mark.parametrize(
    "text",
    [
        "와이파이 비번 바꿨음 (어제 저녁에)",
        "비번 재설정 (링크 눌러서) 했어",
        "와이파이 비번 몰라 (카페 직원한테 물어봐)",
        "비번 변경 (필수) 공지 떴어",
        "비번 없음 (오픈 네트워크)",
        "가족 비번 공유함 (넷플릭스)",
        "wifi password 알려줘 (급함)",
        "password hygiene (use a manager) matters",
        "비번 관련해서, 문의드립니다",
        "현관 비번 문제로, 관리실 다녀옴",
        "비번 물어보니까 이래",
    ],
)
def test_talk_about_a_password_before_a_bracketed_remark_stays(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("새집 도어락 번호 4 1 8 8 2 6 (부동산에서 받음)", "4 1 8 8 2 6"),
        ("현관 비번은 구 칠 삼 일 이야", "구 칠 삼 일"),
        ("금고 비번 9-1-7-3-5 로 맞춰둠", "9-1-7-3-5"),
        ("the door code is 6-0-4-4, the gate is always open", "6-0-4-4"),
        ("my PIN is four one one nine", "four one one nine"),
    ],
)
def test_a_code_read_out_digit_by_digit_after_a_password_cue_is_redacted(
    text: str, code: str
) -> None:
    result = redact(text)

    assert code not in result.text, result.text
    assert result.kinds == ["password"]


@pytest.mark.parametrize(
    "text",
    [
        "비번 4자리 (숫자만) 로 바꾸래",
        "비밀번호 8자 이상, 1 2 3 4 같은 연속 숫자는 안 됨",
        "제 번호는 010 5512 3384 이고 비번은 문자로 보낼게요",
        "the password rules: 12 characters, 2 symbols, 1 digit",
    ],
)
def test_counts_rules_and_phone_numbers_beside_a_password_cue_stay(text: str) -> None:
    assert redact(text).text == text


def test_a_password_value_in_a_url_query_keeps_the_next_parameter() -> None:
    text = "https://shop.example.com/login?user=mina&password=Tulip!2024&next=/cart"

    result = redact(text).text

    assert "Tulip!2024" not in result
    assert result.endswith("&next=/cart")


@pytest.mark.parametrize(
    ("text", "password", "kept"),
    [
        (
            "docker run -e MYSQL_ROOT_PASSWORD='Tq7!zr_Lw2' -p 3306:3306 mysql:8.0 켰는데 에러남",
            "Tq7!zr_Lw2",
            "mysql:8.0",
        ),
        ('config: {"password": "Vb8$kR2!np", "timeout": 3000}', "Vb8$kR2!np", '"timeout": 3000'),
        ('설정 파일 {"pw": "Hn4%qe9Z"}, "retries": 5 이렇게 돼있어', "Hn4%qe9Z", '"retries": 5'),
        ('env: DB_PASSWORD="Ms3#pa8Yk" REDIS_URL=redis:6379 LOG=debug2', "Ms3#pa8Yk", "redis:6379"),
        ("password: 'Qz5&tL1vx' then image nginx:1.25", "Qz5&tL1vx", "nginx:1.25"),
    ],
)
def test_a_quoted_or_keyed_password_ends_where_its_value_ends(
    text: str, password: str, kept: str
) -> None:
    result = redact(text)

    assert password not in result.text, result.text
    assert kept in result.text, result.text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("my password is blue 🐳 whale", "whale"),
        ("비번은 해바라기 🌻 농장", "농장"),
        ("password: sunny 🌞 day 77", "day 77"),
        ("네트워크 키 bluebird77!", "bluebird77!"),
        ("무선 키 Harbor2024xy 손님용", "Harbor2024xy"),
    ],
)
def test_a_passphrase_with_an_emoji_inside_and_a_bare_network_key_are_redacted(
    text: str, secret: str
) -> None:
    result = redact(text)

    assert secret not in result.text, result.text
    assert "password" in result.kinds


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("비번은 푸른바다 😊 알지?", "😊 알지?"),
        ("password is river stone 🪨 lol", "🪨 lol"),
        ("the wifi password is moonlight 🌙 and the network is Home5G", "Home5G"),
        ("[12:00:01] INFO login ok user=kim password=Hunter22! ip=10.0.0.1", "password="),
    ],
)
def test_talk_after_an_emoji_and_a_logged_key_stay(text: str, kept: str) -> None:
    result = redact(text)

    assert kept in result.text, result.text


@pytest.mark.parametrize(
    "text",
    [
        "network key exchange 2024 세미나",
        "와이파이 키보드 2개 샀어",
        "무선 키 v2 업데이트",
    ],
)
def test_a_network_key_without_a_value_stays_whole(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("the gate code changed to 5512#", "5512"),
        ("our door code was changed to 8841 yesterday", "8841"),
        ("phone unlock code 7391", "7391"),
        ("screen lock code: 2046", "2046"),
    ],
)
def test_a_door_code_changed_to_a_value_and_an_unlock_code_are_redacted(
    text: str, secret: str
) -> None:
    assert secret not in redact(text).text


@pytest.mark.parametrize(
    "text",
    [
        "the gate code changed to something easier",
        "door code changed to the new keypad system",
        "unlock code 요청은 고객센터로",
    ],
)
def test_talk_about_a_changed_door_code_stays_whole(text: str) -> None:
    assert redact(text).text == text
