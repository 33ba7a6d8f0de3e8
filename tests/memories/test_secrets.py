"""Secret redaction (issue 5 line 3, issue 13 lines 2 and 3): pure, no database."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memories.logic.redaction import (
    PLACEHOLDER_PATTERN,
    contains_secret,
    is_placeholder_token,
    luhn_valid,
    redact,
    rrn_valid,
    without_placeholders,
)

SECRETS = [
    ("api key", "my key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abc"),
    ("api key", "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"),
    ("api key", "old openai key sk-abcdefghijklmnopqrstuvwxyzABCDEFGH0123"),
    ("api key", "aws access key AKIAIOSFODNN7EXAMPLE in the config"),
    ("api key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("api key", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 for CI"),
    ("api key", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"),
    ("api key", "slack bot xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
    ("api key", "google AIzaSyA-abcdefghijklmnopqrstuvwxyz01234 works"),
    ("api key", "stripe sk_live_51H8abcdefghijklmnopqrstuv"),
    (
        "private key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    ),
    ("private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"),
    (
        "jwt",
        "Authorization uses eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
        "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("token", "curl -H 'Authorization: Bearer abcdef0123456789abcdef0123456789'"),
    ("token", "api_key = 'abcd1234efgh5678'"),
    ("card number", "카드 번호는 4111 1111 1111 1111 이야"),
    ("card number", "card 5500-0000-0000-0004 expires soon"),
    ("card number", "4012888888881881"),
    ("password", "내 비밀번호는 hunter2야"),
    ("password", "비번: qwer1234!"),
    ("password", "패스워드는 Tr0ub4dor&3 입니다"),
    ("password", "my password is correcthorse9"),
    ("password", "pw: s3cr3t!"),
    ("password", "the wifi password = letmein42"),
]

NOT_SECRETS = [
    "내 전화번호는 010-1234-5678이야",
    "order 4111 1111 1111 1112 is not a card (Luhn fails)",
    "1234567812345678",
    "회의는 2024-05-03 15:00에 해",
    "나는 서울 강남에 살고, 고양이를 두 마리 키워",
    "비밀번호를 잊어버렸어",
    "비밀번호가 너무 길어서 외우기 힘들어",
    "the password is too short",
    "I use the sk-learn library a lot",
    "My token budget is 1500 tokens",
    "Next.js App Router로 마이그레이션했어",
    "I scored 98765 points",
]


@pytest.mark.parametrize(("kind", "text"), SECRETS)
def test_each_kind_of_secret_is_replaced_by_a_placeholder(kind, text):
    result = redact(text)

    assert result.found
    assert kind in result.kinds
    assert f"[redacted: {kind}]" in result.text


@pytest.mark.parametrize(("_kind", "text"), SECRETS)
def test_the_secret_value_does_not_survive_redaction(_kind, text):
    redacted = redact(text).text

    for fragment in (
        "sk-ant-api03",
        "AKIAIOSFODNN7",
        "ghp_abc",
        "hunter2",
        "qwer1234",
        "4111 1111",
    ):
        if fragment in text:
            assert fragment not in redacted


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_text_is_left_alone(text):
    result = redact(text)

    assert result.text == text
    assert not result.found


def test_text_around_a_secret_is_kept():
    result = redact("내 비밀번호는 hunter2야. 잊지 마")

    assert result.text == "내 비밀번호는 [redacted: password]야. 잊지 마"


def test_findings_point_at_the_placeholders_not_the_secret():
    result = redact("key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv and pw: hunter22")

    for finding in result.findings:
        assert result.text[finding.start : finding.end].startswith("[redacted:")


def test_luhn_accepts_valid_card_numbers_and_rejects_others():
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")
    assert not luhn_valid("12345")


def test_an_earlier_placeholder_still_counts_as_a_secret():
    assert contains_secret("내 비밀번호는 [redacted: password]야")
    assert not contains_secret("나는 커피를 좋아해")


# --- issue 13 line 2: Korean and real-world shapes ------------------------------------------

# (kind, text, the secret in it). Written for these tests, not taken from any corpus.
SHAPES = [
    ("resident registration number", "동생 주민번호 030414-3018718 맞나 봐줘", "030414-3018718"),
    ("resident registration number", "주민등록번호:8511201004421", "8511201004421"),
    ("resident registration number", "my RRN is 851120 1004421 fyi", "851120 1004421"),
    ("card number", "카드 5425.2334.3010.9903 으로 결제", "5425.2334.3010.9903"),
    ("card number", "pay with 5425 2334-3010.9903 pls", "5425 2334-3010.9903"),
    ("card number", "법카번호 5425233430109903 기억해둬", "5425233430109903"),
    ("card number", "amex 3714 496353 98431 on file", "3714 496353 98431"),
    ("card code", "card 5425233430109903, CVV: 551", "551"),
    ("bank account", "입금 계좌 국민은행 123456-78-901234 로 부탁", "123456-78-901234"),
    ("bank account", "월세는 3333-12-5558881 여기로 보내 카뱅 계좌야", "3333-12-5558881"),
    ("bank account", "my checking account number is 000123456789", "000123456789"),
    (
        "bank account",
        "IBAN DE89 3704 0044 0532 0130 00 for the refund",
        "DE89 3704 0044 0532 0130 00",
    ),
    ("verification code", "인증번호 [902114] 를 입력해 주세요", "902114"),
    ("verification code", "네이버 인증번호 551 207 왔어", "551 207"),
    ("verification code", "your one-time code: 77120931", "77120931"),
    ("verification code", "Use code 440918 to finish signing in", "440918"),
    ("password", "비번은 해바라기농장123 이야", "해바라기농장123"),
    ("password", "비번은해바라기농장이야", "해바라기농장"),
    ("password", "우리집 와이파이 비번 tteok2bokki! 이고 5G로 붙어", "tteok2bokki!"),
    ("password", "마스터 비밀번호는 하얀 고양이 일곱 마리 이거야", "하얀 고양이 일곱 마리"),
    ("password", "폰 잠금번호 4096 이야ㅋㅋ", "4096"),
    ("password", "비번 까먹을까봐 적어둠 🙏 gongju*0707", "gongju*0707"),
    ("password", "my password is correct horse battery staple", "correct horse battery staple"),
    (
        "password",
        "the passphrase is 'lantern under the old bridge'.",
        "lantern under the old bridge",
    ),
    ("password", "gate code is 2580 btw", "2580"),
    ("password", "Password for the NAS is Kestrel_Moon-8, don't lose it", "Kestrel_Moon-8"),
    ("password", "postgres://deploy:Vx9-kk!2q@10.0.0.5:5432/prod", "Vx9-kk!2q"),
    ("password", "Server=db;Database=Crm;Uid=app;Pwd=Ohm$42xx;", "Ohm$42xx"),
    ("password", "비번: 봄비내리는날 (띄어쓰기 없음)", "봄비내리는날"),
    ("password", "creds for staging: admin / Staging#Pass1", "Staging#Pass1"),
    ("password", "The code to the lockbox is 5-2-7-9", "5-2-7-9"),
    ("bank account", "입금은 기업은행 010-123456-01-011", "010-123456-01-011"),
    ("verification code", "G-482910 is your Google verification code", "G-482910"),
    ("verification code", "551920 이게 인증번호야", "551920"),
    ("password", "wifi at the cabin: network Birch_Net, password larchwood", "larchwood"),
    ("password", "pass for the backup zip: b4ckup-Q2", "b4ckup-Q2"),
    ("resident registration number", "아빠 주민번호 뒷자리만 1234567 알려줘", "1234567"),
    ("verification code", "the code from the bank: 472 118", "472 118"),
    ("api key", "ANTHROPIC_API_KEY=sk-ant-api03-Zq9xY8wV7uT6sR5qP4oN3mL2kJ1iH0gF", "sk-ant-"),
    ("api key", "slack 토큰 xoxp-1111111111-2222222222-AbCdEfGhIjKlMnOp 이거", "xoxp-"),
    ("api key", "aws 시크릿 키 Zx8+Yw7/Vu6Ts5Rq4Po3Nm2Lk1Ji0Hg9Fe8Dc7Ba 이야", "Zx8+Yw7/"),
]

# Look-alikes that must stay whole, with the part a test checks.
LOOK_ALIKES = [
    "엄마 번호 010-9182-7364 저장해줘",
    "고객센터 1588-1234 로 전화함",
    "은행 고객센터 1599-1234 로 전화",
    "주문번호 240315-2038472 로 반품",  # RRN-shaped, bad check digit
    "예약번호 851120-1004421 확인 부탁",  # a valid RRN after 예약번호 is an order number
    "운송장번호 6894 2210 3357 1 조회",
    "배송 조회 1Z999AA10123456784",
    "order #4401-5520-1839-22 shipped",
    "Python 3.11.9 and Django 5.2.1",
    "ISBN 979-11-6050-123-4 책 찾아줘",
    "가격 1,290,000원 (VAT 포함)",
    "우편번호 06236 강남구",
    "commit 4f2a9c7e1b3d5f6a8c0e2b4d6f8a0c2e4b6d8f0a broke it",
    "uuid 123e4567-e89b-12d3-a456-426614174000 in the logs",
    "I forgot my password again",
    "비밀번호 바꿔야 돼",
    "비번이 뭐였는지 기억이 안 나",
    "비밀번호는 8자 이상이어야 한대",
    "새 비번은 최소 12자 이상에 특수문자 포함이래",
    "the password is wrong, try again",
    "my password manager is 1Password",
    "PIN 번호 3번 틀려서 잠김",
    "인증번호가 안 와요",
    "인증번호 3분 안에 입력해야 돼",
    "zip code 94110",
    "계좌번호 물어보는 전화는 보이스피싱이야",
    "회의 2025-03-14 15:30, 402호",
    "the sk-learn docs are good",
    "암호화폐 시세 1,000,000원 돌파",
    "DB_PASSWORD=${DB_PASSWORD}",
    "password: <your password>",
    "wifi password 적어둔 메모 IMG_2034.jpg 어딨지",
    "비밀번호 변경일 2024.03.15",
    "Reset your password at https://example.com/reset?token=abc",
    "password hint: first pet",
    "forgot the wifi, password please",
]


@pytest.mark.parametrize(("kind", "text", "secret"), SHAPES)
def test_korean_and_real_world_shapes_are_redacted(kind, text, secret):
    result = redact(text)

    assert kind in result.kinds, result.text
    assert secret not in result.text


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_stay_whole(text):
    assert redact(text).text == text


def test_a_korean_ending_after_a_password_is_kept():
    assert redact("비번은 5821이야").text == "비번은 [redacted: password]이야"
    assert redact("비번이 ehdgus!!0901 였나").text == "비번이 [redacted: password] 였나"


def test_every_value_in_a_line_with_two_passwords_is_redacted():
    text = "공동인증서 비번이 abc!!0901 였나 abc!!0910 였나 헷갈림"

    redacted = redact(text).text

    assert "0901" not in redacted and "0910" not in redacted
    assert redacted.endswith("헷갈림")


def test_the_name_of_a_network_after_its_password_stays():
    assert "HOME_5G" in redact("와이파이 비번 dalgona77! 이고 이름은 HOME_5G").text


def test_full_width_digits_do_not_hide_a_card_number():
    text = "카드 ４１１１ １１１１ １１１１ １１１１ 결제"

    assert redact(text).text == "카드 [redacted: card number] 결제"


def test_full_width_letters_do_not_hide_a_password():
    assert redact("비번 ｑｗｅｒ１２３４! 임").text == "비번 [redacted: password] 임"


def test_zero_width_characters_inside_a_secret_are_redacted_with_it():
    text = "키 sk-ant-api03-\u200bAbCdEfGhIjKlMnOp\u200cQrStUvWxYz012345 그리고 끝"

    assert redact(text).text == "키 [redacted: api key] 그리고 끝"


def test_text_outside_a_secret_is_returned_unchanged_even_with_odd_characters():
    text = "\u200b안녕\u3000ＡＢＣ 카드 4111-1111-1111-1111 끝\ufeff"

    assert redact(text).text == "\u200b안녕\u3000ＡＢＣ 카드 [redacted: card number] 끝\ufeff"


def test_rrn_check_digit_and_date_are_checked():
    assert rrn_valid("8511201004421")
    assert not rrn_valid("8511201004422")  # check digit
    assert not rrn_valid("8513201004421")  # month 13


# --- issue 13 line 3: placeholders are never corrupted or redacted again --------------------


@pytest.mark.parametrize(
    "text",
    [
        "내 비밀번호는 [redacted: password]야",
        "password: [redacted: password] password]",
        "[redacted: password] password] is it",
        "비번 [redacted: password] 이고 PIN [redacted: password]",
        "card [redacted: card number] cvc [redacted: card code]",
        "postgres://u:[redacted: password]@db/app",
    ],
)
def test_a_placeholder_is_never_redacted_again(text):
    assert redact(text).text == text


def test_redacting_twice_is_the_same_as_once():
    text = "내 비밀번호는 hunter2야, 카드 4111 1111 1111 1111, 인증번호 123456"

    once = redact(text)

    assert redact(once.text) == once


def test_findings_are_exactly_the_placeholders_in_the_text():
    result = redact("비번 hunter22 그리고 이미 [redacted: token] 있음")

    assert [f.kind for f in result.findings] == ["password", "token"]
    for finding in result.findings:
        assert PLACEHOLDER_PATTERN.fullmatch(result.text[finding.start : finding.end])


def test_a_bracket_that_is_not_a_known_kind_is_ordinary_text():
    assert not contains_secret("[redacted: whatever] 은 그냥 글자")


def test_placeholders_can_be_dropped_before_keywords_are_extracted():
    text = "내 비밀번호는 [redacted: password]야. 카드 [redacted: card number]  끝"

    assert without_placeholders(text) == "내 비밀번호는 야. 카드 끝"


def test_parts_of_a_placeholder_are_recognised_as_tokens():
    tokens = ["[redacted:", "card", "number]", "외", "[redacted:", "password]"]

    assert [is_placeholder_token(t) for t in tokens] == [True, False, True, False, True, True]
    assert not is_placeholder_token("password")
    assert not is_placeholder_token("비밀번호")


# Pieces that put cues, numbers, separators and placeholders next to each other.
FRAGMENTS = [
    "[redacted: password]",
    "[redacted: card number]",
    "[redacted:",
    "password]",
    "number]",
    "비번은 ",
    "비밀번호 ",
    "password is ",
    "PIN ",
    "인증번호 ",
    "계좌 ",
    "카드 ",
    "hunter2",
    "4111",
    " 1111",
    "-",
    ".",
    " ",
    "야",
    "이야 ",
    "\u200b",
    "４",
    "sk-ant-api03-",
    "AbCdEfGhIjKlMnOpQrSt",
    "851120",
    "1004421",
    "\n",
    ":",
    "@",
    "postgres://a:",
    '"',
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=14).map("".join))
def test_redaction_is_idempotent_for_any_text(text):
    once = redact(text)

    assert redact(once.text) == once
    for finding in once.findings:
        assert PLACEHOLDER_PATTERN.fullmatch(once.text[finding.start : finding.end])


# Shapes a blind set written after the rules found missing; each case here is new wording.
LATER_SHAPES = [
    ("password", "공유기 암호문구는 '초록 기차 두 대' 이고 대소문자 구분함", "초록 기차 두 대"),
    ("card code", "카드 뒷면 보안코드 3자리 417 알려줄게", "417"),
    ("verification code", "구글 복구코드 7hq2-m4zt 적어둠", "7hq2-m4zt"),
    ("verification code", "backup code 2kf9-x8pw for the bank app", "2kf9-x8pw"),
    ("bank account", "refunds go to account number 18276354 please", "18276354"),
]


@pytest.mark.parametrize(("kind", "text", "secret"), LATER_SHAPES)
def test_passphrases_security_and_backup_codes_and_bare_account_numbers_are_redacted(
    kind, text, secret
):
    result = redact(text)
    assert secret not in result.text
    assert kind in result.kinds


def test_a_customer_line_number_and_ciphertext_talk_stay_whole():
    for text in ("고객센터 1588-2100 으로 전화했어", "암호문 해독 과제 끝냈다"):
        assert redact(text).text == text


def test_a_number_stated_as_a_resident_registration_number_is_redacted_without_its_check_digit():
    # numbers issued since October 2020 carry no check digit
    for text in ("제 주민번호 앞뒤로 030708-3456712 입니다", "RRN 880214-1098765 for the form"):
        result = redact(text)
        assert "resident registration number" in result.kinds, text


def test_an_unlabelled_number_of_that_shape_without_its_check_digit_stays():
    for text in ("접수번호 030708-3456712 로 조회해", "ref 880214-1098765 on the parcel"):
        assert redact(text).text == text


def test_a_card_expiry_date_alone_stays_and_goes_with_the_number_and_code():
    # alone it opens nothing and people ask about it; beside the number it completes a card
    assert redact("유효기간 11/27 인데 해외결제 돼?").text == "유효기간 11/27 인데 해외결제 돼?"
    result = redact("카드 5425233430109903 유효기간 11/27 cvc 551 인데 해외결제 돼?")

    assert "5425233430109903" not in result.text and "551" not in result.text
    assert "11/27" not in result.text and "해외결제" in result.text


def test_a_business_registration_number_is_no_bank_account():
    text = "신한은행 계좌 110-234-567890 으로 받고 사업자번호 214-86-33019 로 세금계산서"

    result = redact(text).text

    assert "110-234-567890" not in result
    assert "214-86-33019" in result


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "mailgun api key 3fa9c0d2b1e84c7aa06b9e1f55d2c8a7 stopped working",
            "3fa9c0d2b1e84c7aa06b9e1f55d2c8a7",
        ),
        ("our access token is tk9X2mQ81vLr0pZ7wE4s for the staging api", "tk9X2mQ81vLr0pZ7wE4s"),
        ("배포용 API 키 ak_77c0e1b9d4f2a8861e 로 바꿔야 함", "ak_77c0e1b9d4f2a8861e"),
    ],
)
def test_a_key_named_as_one_without_a_colon_is_redacted_whatever_its_vendor(text, secret):
    assert secret not in redact(text).text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("학원 계정 minsu88 / Blue#Ocean71 로그인이 안 돼", "Blue#Ocean71"),
        ("nas account admin2 / R0ck&Roll!9 keeps timing out", "R0ck&Roll!9"),
    ],
)
def test_the_password_of_an_account_written_as_name_slash_password_is_redacted(text, secret):
    result = redact(text).text

    assert secret not in result
    assert text.split()[2] in result  # the account's name is no secret


@pytest.mark.parametrize(
    ("text", "keep"),
    [
        ("와이파이 비번 sun7flower!! 이고 관리실 내선 4471", "4471"),
        ("pw is Tr4ck#77 but call the office at room 1203 if stuck", "1203"),
        ("예약번호 4532015112830366 으로 확인했어요", "4532015112830366"),
        ("tracking number 4916338506082832 shows delivered", "4916338506082832"),
        ("OTP 단말기 시리얼 OTP-31-558210 분실 신고", "OTP-31-558210"),
    ],
)
def test_a_number_named_as_something_else_is_no_secret(text, keep):
    assert keep in redact(text).text


def test_a_card_number_next_to_a_booking_label_is_still_a_card_when_a_card_is_named():
    text = "visa for the hotel booking: 4532 0151 1283 0366 please"

    assert "4532 0151 1283 0366" not in redact(text).text


def test_a_number_grouped_as_a_card_is_a_card_whatever_label_precedes_it():
    assert "4111 1111 1111 1111" not in redact("the order 4111 1111 1111 1111 shipped").text


# --- blind set 10: categories it found missing; every sentence here is new wording ----------

# (kind, text, the secret in it)
SET10_CATEGORIES = [
    # a payment key with the environment first (Toss Payments)
    ("api key", "결제 연동 테스트 키 test_sk_P4mXa9Lq2Wn7Rb3Tz8Yc 로 돌리는 중", "test_sk_P4mXa9"),
    ("api key", "the widget still has live_gsk_7hKd93LmQp2xZv8NwR4t in prod", "live_gsk_7hKd93"),
    # an OAuth client's or an app's secret named as one, short and maybe without a digit
    ("token", "카카오 디벨로퍼스 클라이언트 시크릿 pQwErTyUzXcV 노출됐어", "pQwErTyUzXcV"),
    ("token", "our app secret is hJ7kLm2NpQ until we rotate it", "hJ7kLm2NpQ"),
    ("token", "consumer secret: ZxCvBnMaSdFgHj", "ZxCvBnMaSdFgHj"),
    ("token", "NAVER_CLIENT_SECRET=mNbVcXzLkJ", "mNbVcXzLkJ"),
    ("token", "시크릿 키는 qWeRtYuIoP 야", "qWeRtYuIoP"),
    # a key named by what it is for
    ("token", "네이티브 앱 키 8c1f0e3a9d7b2c4e6f8a0b1c3d5e7f90 를 gradle에 넣었음", "8c1f0e3a9d7b"),
    ("token", "the admin key 3b9e1c7a5d2f4e6a8c0b9d1e3f5a7c2b leaked in a screenshot", "3b9e1c7a"),
    ("token", "license key K8D2-M4P9-X7Q1-Z3W6 for the editor", "K8D2-M4P9"),
    ("token", "지도 띄우는 카카오 키 5e0a7c2f9b1d4e8a6c3f0b7d2e9a4c1f 공개돼도 돼?", "5e0a7c2f"),
    # a bot token of three dotted parts
    (
        "token",
        "봇 토큰 MTIzNDU2Nzg5MDEyMzQ1Njc4.Gx7Kp2.q8Wf3Lz9Tn1Bv6Hr4Yc0Jd5Ms2Ea7Ku9Pi 리셋해야 돼?",
        "q8Wf3Lz9Tn1Bv6Hr4Yc0Jd5Ms2Ea7Ku9Pi",
    ),
    (
        "token",
        "leaked my bot token ODk5MTIzNDU2Nzg5MDEyMzQ1.YqR8sT.aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY "
        "in a gist",
        "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY",
    ),
    # the text of a Wi-Fi QR code
    (
        "password",
        "카페 QR 내용이 WIFI:S:MintCafe_5G;T:WPA;P:m1nt!Latte;H:false;; 인데 맞아?",
        "m1nt!Latte",
    ),
    ("password", "printed it: wifi:T:WPA2;P:harbor\\;lights42;S:Dock7;;", "lights42"),
    # a Wi-Fi password labelled as a key
    ("password", "guest wifi: LakeHouse_Guest, key: pinecone-5521", "pinecone-5521"),
    ("password", "hotel card says network BlueWave / key: tide2pool", "tide2pool"),
    ("password", "와이파이 Office-2F 키는 sunny7day 야", "sunny7day"),
    ("password", "WPA2 key = riverstone88", "riverstone88"),
    # a parental or child lock's code
    (
        "password",
        "parental lock on the tablet is now Owl-Night-42, don't tell them",
        "Owl-Night-42",
    ),
    ("password", "the child lock on the oven is 3-9-1-4", "3-9-1-4"),
    ("password", "넷플릭스 자녀보호 잠금 8842 로 바꿨어", "8842"),
    # a lock's combination, a dial's included
    ("password", "사물함 다이얼 14-33-07 까먹을까봐 적어둠", "14-33-07"),
    ("password", "여행가방 자물쇠 번호 482 로 맞춰놨어", "482"),
    ("password", "gym locker dial is 27-04-19", "27-04-19"),
    ("password", "padlock combo is 5-5-2", "5-5-2"),
    # a 주민등록번호 stated in halves
    ("resident registration number", "주민번호 앞 6자리 880412 이고 뒤는 나중에 줄게", "880412"),
    ("resident registration number", "my RRN first six digits are 920830, send the form", "920830"),
    ("resident registration number", "주민등록번호 뒤 7자리 2104418 입력하래", "2104418"),
    # a one-time code that came by text, and one of capitals and digits
    ("verification code", "본인인증 메시지로 638201 이 왔는데 내가 한 거 아님", "638201"),
    ("verification code", "휴대폰 인증 문자에 찍힌 번호 550912 넣으면 돼?", "550912"),
    ("verification code", "the login text said 774120, should I type it?", "774120"),
    ("verification code", "로그인 코드 QF7-2KD 가 메일로 왔어", "QF7-2KD"),
    ("verification code", "your sign-in code is 8TX4QZ", "8TX4QZ"),
    ("verification code", "Slack 2FA code: 4KQ-82M", "4KQ-82M"),
    ("verification code", "Steam Guard code: 4K7PX 입력하래", "4K7PX"),
    ("verification code", "Microsoft verification code is K9-33-PX", "K9-33-PX"),
    # a phrase agreed on to prove who is calling, quoted or stated
    ("password", "할머니랑 정한 암호말은 '노란 주전자 셋' 이야", "노란 주전자 셋"),
    ("password", '엄마랑 정한 확인용 암호문 "초코 우유 두 잔" 잊지 마', "초코 우유 두 잔"),
    ("password", "our family code word is 'purple giraffe'", "purple giraffe"),
    ("password", "safe word with the kids: lemon rocket", "lemon rocket"),
    ("password", 'wifi password "blue sky over hanok"', "blue sky over hanok"),
]

SET10_LOOK_ALIKES = [
    "test_sk_helper 함수 이름 바꿔줘",
    "클라이언트 시크릿 재발급 버튼 어디 있어",
    "client secret rotation is every 90 days",
    "the app secret JSON file is in Downloads",
    "REST 키 발급받는 법 알려줘",
    "admin key rotation happens monthly",
    "the primary key id42 is fine",
    "sort key user_id_created_at_2 is slow",
    "키 180 넘는 사람만 탈 수 있대",
    "Quarterly_Report_2024_Final.backup.Q3_numbers_and_forecasts_v2 열어줘",
    "com.example.myapplication.debug 패키지 이름",
    "WIFI:T:nopass;S:FreeLibrary;; 이건 비번 없는 거지?",
    "wifi key is on the back of the router",
    "와이파이 키 어디 적어놨더라",
    "network key features: WPA3 support",
    "wireless keyboard: K380",
    "how do I turn on parental controls on the tv",
    "자녀 보호 기능 켜는 법 알려줘",
    "the child lock is broken again",
    "금고 다이얼이 잘 안 돌아가",
    "캐리어 자물쇠 번호 까먹었어",
    "the safe dial is stuck",
    "주민번호 앞자리만 적으면 돼",
    "생년월일 880412 맞아?",
    "본인인증 3번 실패해서 잠겼어",
    "휴대폰 인증 문자가 안 와요",
    "인증 문자 1644-2020 에서 왔는데 스팸이야?",
    "간편인증 2027년부터 바뀐대",
    "로그인 코드 리뷰 해줘",
    "Flight confirmation code KX7Q2M",
    "course code CS101A 수강신청 했어",
    "promo code SPRING25 works",
    "수강신청 확인번호 230915-1182734 저장해둠",
    "암호문 'KHOOR' 을 시저 암호로 풀어줘",
    'click the password "reset" link',
    "we need a safe word",
    "등기번호 11020-4455-6789 조회 좀 해줘",
    "우체국택배 송장 6070 1234 5678 언제 도착?",
]


@pytest.mark.parametrize(("kind", "text", "secret"), SET10_CATEGORIES)
def test_keys_codes_lock_combinations_and_agreed_phrases_are_redacted(kind, text, secret):
    result = redact(text)

    assert secret not in result.text, result.text
    assert kind in result.kinds, result.text


@pytest.mark.parametrize("text", SET10_LOOK_ALIKES)
def test_talk_about_keys_codes_and_locks_and_public_numbers_stay_whole(text):
    assert redact(text).text == text


def test_the_network_name_in_a_wifi_qr_code_stays():
    result = redact("WIFI:S:MintCafe_5G;T:WPA;P:m1nt!Latte;H:false;;").text

    assert result == "WIFI:S:MintCafe_5G;T:WPA;P:[redacted: password];H:false;;"


def test_a_wifi_network_named_before_its_key_stays():
    assert "LakeHouse_Guest" in redact("guest wifi: LakeHouse_Guest, key: pinecone-5521").text


def test_both_halves_of_a_resident_registration_number_stated_apart_are_redacted():
    result = redact("주민번호 앞자리 880412 뒷자리 2104418 이에요")

    assert result.text == (
        "주민번호 앞자리 [redacted: resident registration number] "
        "뒷자리 [redacted: resident registration number] 이에요"
    )


def test_a_bank_code_printed_on_every_cheque_stays_while_the_account_goes():
    for text, public, account in [
        ("routing number 026009593, account 12345678901 at Chase", "026009593", "12345678901"),
        ("sort code 20-00-00 and account number 55779911", "20-00-00", "55779911"),
        ("wire it: routing 021000021 checking 9876543210", "021000021", "9876543210"),
    ]:
        result = redact(text).text
        assert public in result and account not in result, result


def test_korean_talk_after_a_latin_password_is_no_part_of_it():
    assert redact("패스워드: Mango88! 복사해서 붙였는데 안 돼").text == (
        "패스워드: [redacted: password] 복사해서 붙였는데 안 돼"
    )
    assert redact("비번: abc123xyz 이렇게 넣었는데 틀리대").text == (
        "비번: [redacted: password] 이렇게 넣었는데 틀리대"
    )


def test_a_code_is_never_a_part_of_a_longer_dashed_number():
    assert redact("인증번호 010-2233-4455 로 보냈대").text == "인증번호 010-2233-4455 로 보냈대"


# Held-out set 11, after its failures were read: categories, in sentences of our own.
SET11_CATEGORIES = [
    # "pass" alone as the password's name, the value ending at a parenthesis
    ("password", "my pass is quartz-Lemon-48 (don't tell anyone)", "quartz-Lemon-48"),
    ("password", "ok my pass is Hx7!wander now", "Hx7!wander"),
    ("password", "my pass is o\u200br\u200bbit-Fig-93 okay", "o\u200br\u200bbit-Fig-93"),
    # a phone's unlock pattern
    ("password", "my phone unlock pattern is 3-5-7-8-9 btw", "3-5-7-8-9"),
    ("password", "the lock screen pattern is 1-4-7-8-9, don't forget", "1-4-7-8-9"),
    ("password", "폰 잠금패턴은 2-5-8-9-6 이야", "2-5-8-9-6"),
    # a Wi-Fi network's "code"
    ("password", "the wifi code at the studio is Cello#Nine4, fyi", "Cello#Nine4"),
    ("password", "Wi-Fi code: porch-Lamp-27", "porch-Lamp-27"),
    ("password", "와이파이 코드는 Mango!Tree58 이야", "Mango!Tree58"),
    # a key's id named as such, of a vendor no shape lists
    ("token", "Access Key ID QW3RT7Y8UIOP2ASD4FGH 로 설정했어", "QW3RT7Y8UIOP2ASD4FGH"),
    ("token", "the api key id is ZX82CV71BN64MQ09LP55, right?", "ZX82CV71BN64MQ09LP55"),
    ("token", "액세스 키 ID PL0KM9IJN8UHB7YGV6TF 맞아?", "PL0KM9IJN8UHB7YGV6TF"),
    # a half of a 주민등록번호 with words between its name and its digits
    ("resident registration number", "주민번호 뒷자리만 알려달래서 2345678 알려줌", "2345678"),
    ("resident registration number", "주민등록번호 앞자리 물어봐서 900215 라고 함", "900215"),
]

SET11_LOOK_ALIKES = [
    "my bus pass is expired again",
    "my pass is in the other bag",
    "the unlock pattern is too easy to guess",
    "잠금패턴 바꾸는 법 알려줘",
    "the wifi code is on the router sticker",
    "와이파이 코드 어디서 봐?",
    "the access key id rotates every 90 days",
    "주민번호 뒷자리만 가리면 돼",
    "주민번호 뒷자리 첫 숫자는 성별이래",
]


@pytest.mark.parametrize(("kind", "text", "secret"), SET11_CATEGORIES)
def test_passes_unlock_patterns_wifi_codes_key_ids_and_id_halves_are_redacted(kind, text, secret):
    result = redact(text)

    assert secret not in result.text, result.text
    assert kind in result.kinds, result.text


@pytest.mark.parametrize("text", SET11_LOOK_ALIKES)
def test_talk_about_passes_patterns_wifi_codes_and_key_ids_stays_whole(text):
    assert redact(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        "DB 접속정보: postgres://app:Q7v#pX2m@10.0.3.5:5432/shop 로 붙어",
        "login info: mysql://root:Tr0ub#le9@db.internal:3306/crm ok",
    ],
)
def test_a_connection_string_keeps_its_host_and_database_when_its_password_goes(text):
    result = redact(text).text
    url = text.split("://")[1]
    host = url.split("@")[1].split()[0]

    assert url.split(":")[1].split("@")[0] not in result
    assert host in result, result


SET11_NUMBERS_AND_PAIRS = [
    # a US Social Security number stated as one
    ("resident registration number", "my social is 612-40-7781 if they ask", "612-40-7781"),
    ("resident registration number", "SSN: 431 22 9087 on the form", "431 22 9087"),
    ("resident registration number", "미국 사회보장번호 538-19-2046 적어야 해?", "538-19-2046"),
    # a bank's security card, cell by cell
    ("verification code", "보안카드 7번 4821 이고 31번 0937 이야", "4821"),
    ("verification code", "보안카드 7번 4821 이고 31번 0937 이야", "0937"),
    ("verification code", "security card no. 18 is 5502, right?", "5502"),
    # digits stated by their count after a password's or a card's name
    ("password", "카드 비번 앞 2자리 73 맞지?", "73"),
    ("password", "핀번호 네자리 8841 이었나", "8841"),
    ("password", "the first two digits of my PIN are 46, the rest I forgot", "46"),
    ("password", "last 3 numbers of the card password: 905", "905"),
    ("card code", "마스터카드 5425 2334 3010 9903 앞면 위에 있는 네자리 7788", "7788"),
    # a name and its password as a pair after a router or a Wi-Fi network
    ("password", "공유기 관리자 페이지 root / Fz9!qLm2 로 접속", "Fz9!qLm2"),
    ("password", "router admin page: admin / Kp#4vW8x works", "Kp#4vW8x"),
    ("password", "와이파이 HomeNet / sunny-maple-tree 야", "sunny-maple-tree"),
    ("password", "the wifi here is GuestHall / Tide8wave", "Tide8wave"),
]

SET11_NUMBER_LOOK_ALIKES = [
    "order 123-45-6789 shipped",
    "my social media handle is @minji_88",
    "social club dues 150-25-3000 won? no, 150,000",
    "보안카드 분실해서 3번 재발급 받았어",
    "보안카드 대신 OTP 쓰래",
    "카드 끝 4자리 1234 로 결제됨",
    "카드 뒷자리 4자리 5678 맞아",
    "체크카드 앞 네 자리 5327 로 시작하면 마스터야",
    "아멕스 카드번호 앞 두 자리 37 맞지?",
    "우편번호 5자리 06236 맞지?",
    "비번은 8자리 이상이어야 해",
    "the first two digits of my PIN are the same",
    "the last 4 digits of the card are 4242",
    "공유기 모델 ipTIME / A3004NS-M 쓰는데 느려",
    "wifi 2.4GHz / 5GHz 중에 뭐가 나아",
    "router admin page is at 192.168.0.1 / admin",
]


@pytest.mark.parametrize(("kind", "text", "secret"), SET11_NUMBERS_AND_PAIRS)
def test_ssns_security_card_cells_counted_digits_and_name_password_pairs_are_redacted(
    kind, text, secret
):
    result = redact(text)

    assert secret not in result.text, result.text
    assert kind in result.kinds, result.text


@pytest.mark.parametrize("text", SET11_NUMBER_LOOK_ALIKES)
def test_public_numbers_counted_lengths_and_model_names_stay_whole(text):
    assert redact(text).text == text


# Set 11, found by a tester: secrets stated in ways the cues above did not reach.
TESTER_SECRETS = [
    ("인스타 비번 오늘 Gksk2024로 바꿈", "Gksk2024"),
    ("회사 메일 비밀번호 보라색우산장수로 바꿨어 잊지마", "보라색우산장수"),
    ("I changed my email password to marigold yesterday", "marigold"),
    ('my wifi password was changed to "sunny side up"', "sunny side up"),
    ("은행 공동인증서 비밀번호 기억해줘: 겨울바다소리", "겨울바다소리"),
    ("카톡 비번 잊지 말라고 메모: 노란풍선7", "노란풍선7"),
    ("페북 비번 까먹을까봐 적어둠: 여름밤하늘", "여름밤하늘"),
    ("우리 집 비밀번호 힌트: 첫 고양이 이름 나비2015야", "나비2015"),
    ("my email password hint: dog's name plus year, rex2011", "rex2011"),
    ("사무실 와이파이 비번 보리밭사이길로", "보리밭사이길"),
    ("회사 공유기 비번 노을지는언덕", "노을지는언덕"),
    ("the pin for the garage? it's '7 7 4 1' I think", "7 7 4 1"),
    ('the password for the team drive? it is "pears in june"', "pears in june"),
    ("My Hulu login is ana@ruiz.org / Hulu2day", "Hulu2day"),
    ("디즈니 로그인 kim.minji / 겨울왕국2024", "겨울왕국2024"),
]
TESTER_LOOK_ALIKES = [
    "비밀번호 바꿨어",
    "비밀번호 생일로 바꿨어",
    "비밀번호 영문숫자조합으로 바꿨어",
    "비번 다른 걸로 바꿔야 돼",
    "I changed my password yesterday",
    "I changed my password to something longer",
    "I changed my password to protect the account",
    "we changed the password to 16 characters",
    "회사 비밀번호 기억해줘",
    "비밀번호 기억해줘: 나중에 알려줄게",
    "비번 까먹을까봐 적어둠: 뭐였더라",
    "비밀번호 힌트: 첫 강아지 이름",
    "password hint: my first dog's name",
    "인스타 비번 해킹당함",
    "넷플릭스 비번 공유금지",
    "와이파이 비번 물어봐야지",
    "비번 까먹음",
    "the password for the drive? it's in the notebook",
    "my netflix login stopped working",
    "login page is at example.com / about",
    "login with email / password",
    "비밀번호는 생일이야",
    "비번은 전화번호 뒷자리야",
    "my password is my birthday",
]


@pytest.mark.parametrize(("text", "secret"), TESTER_SECRETS)
def test_secrets_a_tester_typed_in_new_ways_are_redacted(text, secret):
    result = redact(text)

    assert secret not in result.text, result.text
    assert "password" in result.kinds, result.text


@pytest.mark.parametrize("text", TESTER_LOOK_ALIKES)
def test_talk_about_a_password_like_the_testers_lines_stays_whole(text):
    assert redact(text).text == text


# Set 12, a tester's categories (issue 13 line 2). Each row: a line, what must go, what must stay.
POSTAL_PINS = [
    ("the pin code for my grandma's village is 411045", (), ("411045", "village")),
    ("courier needs the PIN code 682001 for delivery", (), ("682001",)),
    ("우리 이모 주소 핀코드는 600028이야", (), ("600028",)),
    ("pincode 700019, that's the Kolkata address", (), ("700019", "address")),
    ("what's the pin for the zip? 30309 I think", (), ("30309",)),
    ("my debit card pin is 7350 and I live in Chennai", ("7350",), ("I live in Chennai",)),
    ("the pin for the zip file is 6612", ("6612",), ("zip file",)),
    ("폰 핀번호 2468 우리 동네 말고", ("2468",), ("우리 동네",)),
    ("my ATM pin code is 9031", ("9031",), ("my ATM pin code is",)),
    ("Flat 4, Park Street, Kolkata, PIN 700016", (), ("PIN 700016",)),
    ("my pin is 8142 and I live in the old town", ("8142",), ("old town",)),
    ("택배 주소 적을게, 핀번호는 3391", ("3391",), ("택배 주소",)),
    ("the PIN code of my cousin's shop in Mysuru is 570001", (), ("570001",)),
]
WORDS_AFTER_A_PASSWORD = [
    ("my password is Gr33n&Tea! remember that", ("Gr33n&Tea!",), ("remember that",)),
    ("the wifi password is Lemon88# thanks", ("Lemon88#",), ("thanks",)),
    ("my pin is 5093 ok?", ("5093",), ("ok?",)),
    ("password: Orca!2020 keep it safe", ("Orca!2020",), ("keep it safe",)),
    ("my password is sea shell lantern, remember it", ("sea shell lantern",), ("remember it",)),
    ("my password is maple syrup pancakes don't forget", ("maple syrup pancakes",), ("forget",)),
    ("비번 asdf!567 기억해", ("asdf!567",), ("기억해",)),
    ("비번은 zxcv@890 잊지마", ("zxcv@890",), ("잊지마",)),
    ("비번은 초록숲속오두막 기억해줘", ("초록숲속오두막",), ("기억해줘",)),
    ("비밀번호 은하수건너편 까먹지 마", ("은하수건너편",), ("까먹지 마",)),
    ("비번은 빨간우체통 꼭 외워둬", ("빨간우체통",), ("꼭 외워둬",)),
    ("my password is paper kite harbor 🙈", ("paper kite harbor",), ("🙈",)),
    ("비번은 달빛정원 ㅋㅋ", ("달빛정원",), ("ㅋㅋ",)),
    ("비밀번호 솜사탕구름 아무한테도 말하지마", ("솜사탕구름",), ("아무한테도 말하지마",)),
    ("my passphrase is blue note jazz", ("blue note jazz",), ()),
    (
        "the guest wifi password is copper kettle song all lowercase",
        ("copper kettle song",),
        ("all lowercase",),
    ),
    ("wifi password: lemon grove tide (no caps)", ("lemon grove tide",), ("(no caps)",)),
    ("비번은 겨울숲토끼 띄어쓰기 없이", ("겨울숲토끼",), ("띄어쓰기 없이",)),
    ("비번은 은빛고래 맞지?", ("은빛고래",), ("맞지?",)),
    ("비번은 노란나비정원 였는데 바꿨어", ("노란나비정원",), ("였는데 바꿨어",)),
]
TALK_ABOUT_HOW_IT_IS_TYPED = [
    ("the password is taped under the keyboard", (), ()),
    ("password is all lowercase", (), ()),
    ("the password is case sensitive btw", (), ()),
    ("비번은 전부 소문자야", (), ()),
    ("비번은 대소문자 구분해", (), ()),
]
PASSPHRASES_WITH_A_DESCRIPTION_WORD = [
    ("비번 새로운아침으로 바꿨어", ("새로운아침",), ("바꿨어",)),
    ("회사 비밀번호 처음사랑으로 바꿨어", ("처음사랑",), ("바꿨어",)),
    ("와이파이 비번 같은하늘아래로 바꿨어", ("같은하늘아래",), ("바꿨어",)),
    ("I changed my password to silver fox meadow last night", ("silver fox meadow",), ("last",)),
    ("reset the alarm code to velvet thunder today", (), ("today",)),
    ("set my pin to 8264 today", ("8264",), ("today",)),
    ("비번 다른거로 바꿨어", (), ("다른거로",)),
    ("비밀번호 예전거로 다시 바꿨어", (), ("예전거로",)),
    ("I changed my password to stop the spam", (), ("stop the spam",)),
    ("set the guest wifi password to river stone mint", ("river stone mint",), ()),
    ("비번 남친꺼로 바꿨어", (), ("남친꺼로",)),
    ("I updated my email password to new dawn rising", ("new dawn rising",), ()),
    ("I changed my password to a stronger one", (), ("a stronger one",)),
    ("비번 빨간자전거로 바꿨어", ("빨간자전거",), ("바꿨어",)),
]
DESCRIBED_PASSWORDS = [
    ("my password is my cat's birthday", (), ("my cat's birthday",)),
    ("my pin is our anniversary", (), ("our anniversary",)),
    ("my password is anniversary", ("anniversary",), ()),
    ('my password is literally "birthday"', ("birthday",), ()),
    ("비번은 아빠 생일이야", (), ("아빠 생일",)),
    ("비밀번호는 우리집 전화번호 뒷자리", (), ("우리집 전화번호 뒷자리",)),
    ("비번은 '생일'이라고 쳤어", ("생일",), ()),
    ("비번은 강아지이름+생일", (), ("강아지이름+생일",)),
    ("my password is dad's middle name", (), ("dad's middle name",)),
    ("비밀번호는 담임선생님이름", (), ("담임선생님이름",)),
    ("비번은 생일 케이크", ("생일 케이크",), ()),
    ("I changed my password to grandma's street name", (), ("grandma's street name",)),
]


def test_a_code_to_a_storage_unit_is_a_password():
    assert "6190" not in redact("the code to our storage unit is 6190 fyi").text


TALK_AT_A_LINES_START = [
    ("비번 털림", (), ("비번 털림",)),
    ("비밀번호 해킹당했음", (), ("비밀번호 해킹당했음",)),
]
HINTS = [
    ("비번 힌트: 첫 여행지 이름 + 결혼한 해", (), ("첫 여행지 이름 + 결혼한 해",)),
    ("비밀번호 힌트는 엄마 고향이랑 내 생일", (), ("엄마 고향이랑 내 생일",)),
    ("비번 힌트: 좋아하는 과일 영어로", (), ("좋아하는 과일 영어로",)),
    ("비번 힌트: 고양이 이름 나나2019", ("나나2019",), ("고양이 이름",)),
    ("password hint: my first car plus the year, civic2004", ("civic2004",), ("first car",)),
]
SET12 = [
    *POSTAL_PINS,
    *WORDS_AFTER_A_PASSWORD,
    *PASSPHRASES_WITH_A_DESCRIPTION_WORD,
    *DESCRIBED_PASSWORDS,
    *TALK_AT_A_LINES_START,
    *TALK_ABOUT_HOW_IT_IS_TYPED,
    *HINTS,
]


def _check(text: str, secrets: tuple[str, ...], keeps: tuple[str, ...]) -> None:
    redacted = redact(text).text
    for secret in secrets:
        assert secret not in redacted, redacted
    for keep in keeps:
        assert keep in redacted, redacted
    if not secrets:
        assert redacted == text


@pytest.mark.parametrize(("text", "secrets", "keeps"), POSTAL_PINS)
def test_a_pin_code_of_a_place_stays_while_a_card_or_phone_pin_goes(text, secrets, keeps):
    _check(text, secrets, keeps)


@pytest.mark.parametrize(("text", "secrets", "keeps"), WORDS_AFTER_A_PASSWORD)
def test_the_redacted_span_ends_where_the_password_ends(text, secrets, keeps):
    _check(text, secrets, keeps)


@pytest.mark.parametrize(("text", "secrets", "keeps"), PASSPHRASES_WITH_A_DESCRIPTION_WORD)
def test_a_new_password_holding_a_description_word_is_redacted_whole(text, secrets, keeps):
    _check(text, secrets, keeps)


@pytest.mark.parametrize(("text", "secrets", "keeps"), DESCRIBED_PASSWORDS)
def test_a_described_password_stays_and_a_bare_english_or_quoted_word_is_the_value(
    text, secrets, keeps
):
    _check(text, secrets, keeps)


@pytest.mark.parametrize(("text", "secrets", "keeps"), TALK_ABOUT_HOW_IT_IS_TYPED)
def test_talk_about_where_a_password_is_or_how_it_is_typed_stays_whole(text, secrets, keeps):
    _check(text, secrets, keeps)


@pytest.mark.parametrize(("text", "secrets", "keeps"), TALK_AT_A_LINES_START)
def test_a_line_opening_with_a_passwords_name_and_talk_stays_whole(text, secrets, keeps):
    _check(text, secrets, keeps)


@pytest.mark.parametrize(("text", "secrets", "keeps"), HINTS)
def test_a_hint_in_words_stays_and_a_hint_holding_the_value_loses_the_value(text, secrets, keeps):
    _check(text, secrets, keeps)


def test_the_set12_table_has_both_languages_secrets_and_look_alikes():
    korean = [row for row in SET12 if any("가" <= c <= "힣" for c in row[0])]
    benign = [row for row in SET12 if not row[1]]
    assert len(SET12) >= 30
    assert 10 <= len(korean) <= len(SET12) - 10
    assert 10 <= len(benign) <= len(SET12) - 10
