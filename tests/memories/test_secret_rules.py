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


# Blind set 13 (issue 13 line 2): codes read out digit by digit, backup codes listed below
# an unlabelled heading, a card's code after its number and expiry, a URL's other parts.


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("카톡으로 온 인증번호 3 0 9 1 7 6 인데 어디 넣어?", "3 0 9 1 7 6"),
        ("엄마 문자 인증번호가 8-1-4-4-0-2 래요", "8-1-4-4-0-2"),
        ("OTP 5 6 2 0 9 1 입력하래", "5 6 2 0 9 1"),
        ("인증번호는 육 공 삼 구 팔 일 이에요", "육 공 삼 구 팔 일"),
        ("할머니가 인증번호 사칠공이구일 이라고 불러주심", "사칠공이구일"),
        ("my login code is 4 0 7 7 1 2, it expires soon", "4 0 7 7 1 2"),
        ("the verification code they read me was nine one six, four four two", "four four two"),
        ("2FA code: 1, 8, 3, 0, 5, 9", "1, 8, 3, 0, 5, 9"),
        ("7 3 0 2 9 5 이게 인증번호야", "7 3 0 2 9 5"),
    ],
)
def test_a_one_time_code_read_out_digit_by_digit_is_redacted(text: str, code: str) -> None:
    result = redact(text)

    assert code not in result.text, result.text
    assert "verification code" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "인증번호 오면 010 4417 2290 으로 보내줘",
        "call me on 010 9921 3374 when the code arrives",
        "read pages 12, 14, 16, 18 before the quiz",
        "시험범위 3 4 5 6 7 단원, code review는 내일",
        "인증번호 6자리, 3분 안에 입력",
        "the code has 6 digits and expires in 5 minutes",
        "confirmation code for the transfer: sort code 40-11-62",
        "OTP 기기 반납일 12-05-24",
        "인증번호 오면 이사 가는 날 알려줘",
        "인증번호가 이상해, 일일이 다시 쳐봄",
    ],
)
def test_spaced_phone_numbers_page_lists_and_counts_near_a_code_stay(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("카카오 복구코드 받아둠\n2210 8841\n5573 0096\n어디 적지", ["2210 8841", "5573 0096"]),
        ("Saved the recovery codes\n1. 7731 0284\n2. 9016 5527", ["7731 0284", "9016 5527"]),
        ("Dropbox backup codes (keep safe)\nq7kd-2m9x\nz81p-t4rw", ["q7kd-2m9x", "z81p-t4rw"]),
        ("네이버 복구코드 받았음\n8273-1190-5521", ["8273-1190-5521"]),
        ("백업코드 저장\n\n48291736\n90512284", ["48291736", "90512284"]),
        ("backup codes\n\nAB3D-EF7H\nJK2M-NP9R", ["AB3D-EF7H", "JK2M-NP9R"]),
    ],
)
def test_backup_codes_one_to_a_line_below_their_heading_are_redacted(
    text: str, codes: list[str]
) -> None:
    result = redact(text)

    for code in codes:
        assert code not in result.text, result.text


@pytest.mark.parametrize(
    "text",
    [
        "백업코드 저장했어?\n다음 주 월요일 3시",
        "backup codes are in the drawer\nremember to buy 2 liters of milk",
        "복구코드 10개 받았는데 어디 적어두지\n내일 회의 2시",
    ],
)
def test_a_line_after_a_backup_code_heading_that_is_no_code_stays(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("비자 4532 0151 1283 0366 / 07/29 / 913 해외직구용", "913"),
        ("mastercard 5425233430109903 | 11/28 | 0771 for the hotel", "0771"),
        ("card 4532-0151-1283-0366 / 338 / 09/30 for the rental car", "338"),
        ("카드 5425 2334 3010 9903, 04/31, 207 로 결제해줘", "207"),
        ("카드 4532015112830366/1129/554 해외 결제용", "554"),
    ],
)
def test_a_card_code_after_the_number_and_expiry_without_a_cue_is_redacted(
    text: str, code: str
) -> None:
    result = redact(text)

    assert f" {code}" not in result.text.replace("[redacted: card code]", ""), result.text
    assert "card code" in result.kinds


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("카드 4532015112830366 / 3개월 할부 / 2025/09/27 결제", "2025/09/27"),
        ("카드 5425233430109903 / 120 만원 결제했어", "120 만원"),
        ("card 4532015112830366, 250 dollars on 12/03", "250 dollars"),
        ("card 4532015112830366 / 300 points left", "300 points"),
        ("카드 5425233430109903 2025년 결제분", "2025년"),
        ("카드 4532015112830366 010 4417 2290 로 연락", "010 4417 2290"),
    ],
)
def test_a_price_a_date_or_a_phone_number_after_a_card_number_stays(text: str, kept: str) -> None:
    result = redact(text)

    assert kept in result.text, result.text
    assert "card code" not in result.kinds


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        (
            "https://api.openweather.example/v2?appid=1&api_key=3f9a0c7e5b2d4a6c8e0f1a3b5c7d9e1f"
            "&city=Busan 이렇게 부르면 401 나와",
            "3f9a0c7e5b2d4a6c8e0f1a3b5c7d9e1f",
            "&city=Busan",
        ),
        (
            "https://shop.example.com/login?user=mina&password=Tulip!2024&next=/cart",
            "Tulip!2024",
            "&next=/cart",
        ),
        (
            "알림은 https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/xYz12AbC34dEf56GhI78jKl",
            "xYz12AbC34dEf56GhI78jKl",
            "https://hooks.slack.com/services/",
        ),
        (
            "discord webhook https://discord.com/api/webhooks/123456789012345678/"
            "AbCdEf_GhIjKlMnOpQrStUvWxYz0123456789abcd stopped posting",
            "AbCdEf_GhIjKlMnOpQrStUvWxYz0123456789abcd",
            "https://discord.com/api/webhooks/",
        ),
    ],
)
def test_only_the_secret_part_of_a_url_is_redacted(text: str, secret: str, kept: str) -> None:
    result = redact(text)

    assert secret not in result.text, result.text
    assert kept in result.text, result.text


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("github recovery codes: 51827-30964, 77410-28315, 90263-41158", ["51827-30964"]),
        (
            "네이버 2단계 백업코드: 31846-72095, 66017-24583, 80432-19976 잘 보관하기",
            ["31846-72095", "66017-24583", "80432-19976"],
        ),
        (
            "구글 복구 코드\n- 24680-13579\n- 97531-86420\n- 11223-34455",
            ["24680-13579", "97531-86420", "11223-34455"],
        ),
        ("backup codes for my email: 40918 27365, 83302 61947", ["40918 27365", "83302 61947"]),
        (
            "Dropbox recovery codes (keep offline):\n38215-90472\n61093-27748",
            ["38215-90472", "61093-27748"],
        ),
    ],
)
def test_backup_codes_in_five_digit_groups_are_redacted(text: str, codes: list[str]) -> None:
    result = redact(text)

    for code in codes:
        assert code not in result.text, result.text
    assert "verification code" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "ship it to 1200 Pine St, Denver CO zip code 80203-4417",
        "우편번호 12345-6789 로 보내주세요 (미국 주소)",
        "주문번호 20241-88230 배송 언제 와요?",
        "call 010-4821-9937 after the backup codes arrive",
        "the server kept returning code 200 even with a bad card",
        "discount code 55120 gave 10% off my card purchase",
        "meeting on 2025-11-03, we talked about backup code policy",
    ],
)
def test_zip_codes_phones_orders_dates_and_statuses_beside_code_words_stay_whole(
    text: str,
) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        (
            "Visa card 4532 0151 1283 0366 exp 04/29 code 517",
            ["4532 0151 1283 0366", "04/29", "517"],
        ),
        ("mastercard 5425233430109903 expires 09/30, code: 2046", ["5425233430109903", "2046"]),
        ("신한카드 4532-0151-1283-0366 유효기간 11/28 코드 384 결제용", ["11/28", "384"]),
        ("카드 5425 2334 3010 9903 유효기간 07/31 보안코드 902", ["07/31", "902"]),
        ("amex 3714 496353 98431 exp 02/30 CVC 6618", ["02/30", "6618"]),
        ("card 4532015112830366 code 733 exp 12/29", ["733", "12/29"]),
    ],
)
def test_a_card_code_after_its_expiry_or_number_is_redacted(text: str, secrets: list[str]) -> None:
    result = redact(text)

    for secret in secrets:
        assert secret not in result.text, result.text
    assert "card code" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "the card terminal showed code 500 and then expired",
        "카드 결제하니까 에러 코드 301 떠요, 유효기간 문제인가",
        "promo code 2024 for the card fee, expires 12/25",
    ],
)
def test_a_code_near_card_words_without_a_card_number_stays_whole(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("카드 4111 1111 1111 1111 유효기간 0828", ["0828"]),
        ("카드번호 5555-5555-5555-4444 exp 1127 cvv 382", ["1127", "382"]),
        ("visa 4012888888881881 exp. 0326, cvc2 771", ["0326", "771"]),
        ("카드 5105105105105100 유효기간은 1229 씨브이씨 482", ["1229", "482"]),
        ("카드 4111111111111111 만료 0930 씨비씨 903 이에요", ["0930", "903"]),
        ("card 4242 4242 4242 4242 expires 0527 ccv: 5521", ["0527", "5521"]),
        ("카드 유효기간 0828 이고 cvc 372 야", ["0828", "372"]),
        ("카드 뒷면 씨브이씨 291", ["291"]),
        ("카드 정보: 유효기간 1127, 씨비씨는 381", ["1127", "381"]),
        ("결제카드 보안코드 3자리 417 유효기간0125", ["417", "0125"]),
        ("exp 1127 cvn 882 for the amex 😅", ["1127", "882"]),
        ("시브이브이 코드 663 카드 뒤에 있음", ["663"]),
        ("카드번호 4111111111111111 유효 08 28", ["08 28"]),
    ],
)
def test_an_expiry_without_a_slash_and_a_misspelt_or_hangul_card_code_are_redacted(
    text: str, secrets: list[str]
) -> None:
    result = redact(text)

    for secret in secrets:
        assert secret not in result.text, result.text


@pytest.mark.parametrize(
    "text",
    [
        "유효기간 0828 인데 해외결제 되나요?",
        "exp 1127 for my passport",
        "여권 유효기간 0828 까지, 카드 cvc 는 안 알려줌",
        "카드 씨브이씨가 뭐야?",
        "the cvv field is required",
        "씨비씨 뉴스 2024 특집 봤어",
        "쿠폰 유효기간 1231 까지래",
    ],
)
def test_an_expiry_alone_and_talk_about_card_codes_stay_whole(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("secret → Xy8kQ2mPz9", "Xy8kQ2mPz9"),
        ("client secret\nXy8kQ2mPz9LmN0", "Xy8kQ2mPz9LmN0"),
        ("시크릿: aB3dE5fG7h", "aB3dE5fG7h"),
        ("시크릿 Xy8kQ2mPz9 저장해둬", "Xy8kQ2mPz9"),
        ("시크릿은 ZtR4wq8Lp2 이야", "ZtR4wq8Lp2"),
        ("client_secret -> 9fJ2kLq8Xm3Pz", "9fJ2kLq8Xm3Pz"),
        ("the secret is Qw9eRt5yUi", "Qw9eRt5yUi"),
        ("네이버 client secret 은 Ab3cD4eF5g", "Ab3cD4eF5g"),
        ("네이버 클라이언트 시크릿 → kP9xW2mQ7z", "kP9xW2mQ7z"),
        ("webhook secret\n\nwhsk_8HjK2mN4pQ", "whsk_8HjK2mN4pQ"),
        ("secret=abc123XYZ", "abc123XYZ"),
        ("카카오 REST API 시크릿은\nQw3rTy7uIo9p", "Qw3rTy7uIo9p"),
        ("jwt secret → mysupersecretkey123", "mysupersecretkey123"),
        ("client secret\n→ mysecretkey123x", "mysecretkey123x"),
        ("시크릿\n\n-> aB3dE5fG7h 입니다", "aB3dE5fG7h"),
    ],
)
def test_a_bare_secret_value_on_its_line_or_the_next_is_redacted(text: str, secret: str) -> None:
    result = redact(text)

    assert secret not in result.text, result.text
    assert "token" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "the secret ingredient is love",
        "it's a secret",
        "시크릿 쥬쥬 봤어?",
        "Victoria's Secret 세일 5월 2일부터",
        "시크릿 모드로 열어봐",
        "the secret to good bread is time",
        "secret santa 예산 30000원",
        "top secret: don't tell mom about the party",
        "Secret Invasion S01E02 봤어",
        "the secret is 10minutes of rest",
        "secret: 나중에 알려줄게",
    ],
)
def test_talk_about_secrets_stays_whole(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        (
            "Server=db.local;User Id=sa;Password=abc;Server=x;Trusted_Connection=False;",
            "abc;",
            "Server=x;Trusted_Connection=False;",
        ),
        (
            "Data Source=10.0.0.5;User ID=app;Password=Tr0ub4dor&3;Encrypt=true",
            "Tr0ub4dor&3",
            ";Encrypt=true",
        ),
        (
            "Driver={ODBC Driver 18};Server=tcp:sql.example.com;Pwd=Qx9!mz#2;Encrypt=yes;",
            "Qx9!mz#2",
            ";Encrypt=yes;",
        ),
        (
            'connstr: "Host=pg;Username=me;Password=s3cr3t;Port=5432"',
            "s3cr3t",
            ";Port=5432",
        ),
        (
            "Provider=SQLOLEDB;User Id=u;Password=my pass word;Initial Catalog=db",
            "pass word",
            ";Initial Catalog=db",
        ),
        ("DB 접속 root:Passw0rd!@10.0.0.3:3306", "Passw0rd!", "@10.0.0.3:3306"),
        ("password: Secr3t!x@db.internal", "Secr3t!x", "@db.internal"),
        ("pw=Abc123@db01.prod.local;timeout=30", "Abc123", "@db01.prod.local;timeout=30"),
        ("접속정보 admin:Qwer1234!@192.168.0.10 이에요", "Qwer1234!", "admin:"),
    ],
)
def test_a_password_in_a_connection_string_ends_at_the_semicolon_or_the_at_sign(
    text: str, secret: str, kept: str
) -> None:
    result = redact(text)

    assert secret not in result.text, result.text
    assert kept in result.text, result.text


@pytest.mark.parametrize(
    "text",
    [
        "email:kim@naver.com 으로 보내줘",
        "reply-to:support@example.com",
        "Server=myServer;Database=myDB;User Id=myUser;Password=;",
        "meeting at 10:30@room.example.com",
    ],
)
def test_addresses_and_empty_passwords_in_connection_strings_stay_whole(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("인증번호 4.8.2.9.1.7", "4.8.2.9.1.7"),
        ("code: 48 29 17", "48 29 17"),
        ("OTP 48 29 17 입력해", "48 29 17"),
        ("verification code 482.917", "482.917"),
        ("인증번호는 48.29.17 이야", "48.29.17"),
        ("your code is 48-29-17", "48-29-17"),
        ("로그인 코드 4·8·2·9·1·7", "4·8·2·9·1·7"),
        ("카톡 인증번호 4 . 8 . 2 . 9 . 1 . 7", "4 . 8 . 2 . 9 . 1 . 7"),
        ("Your verification code: 4 8 2 - 9 1 7", "4 8 2 - 9 1 7"),
        ("인증번호 48 29 17 5분 안에 입력하세요", "48 29 17"),
        ("2FA 코드 55.12.90 ㅋㅋ", "55.12.90"),
    ],
)
def test_a_one_time_code_written_with_dots_or_spaces_is_redacted(text: str, code: str) -> None:
    result = redact(text)

    assert code not in result.text, result.text
    assert "verification code" in result.kinds


@pytest.mark.parametrize(
    "text",
    [
        "인증번호 3분 후 만료",
        "version 4.8.2.9 released",
        "VS Code 1.85.1 업데이트 했어",
        "error code 48 29 17",
        "인증번호 받는 전화 010 4829 1734",
        "인증번호 발송일 2024.05.01",
        "OTP 기기 반납일 24.05.12",
        "code 12 34 is the room pair",
    ],
)
def test_versions_dates_and_phones_after_a_code_word_stay_whole(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("recovery code: ABCD-EFGH-IJKL", ["ABCD-EFGH-IJKL"]),
        ("백업 코드 qwer-tyui-opas, zxcv-bnmq-wert", ["qwer-tyui-opas", "zxcv-bnmq-wert"]),
        (".env\nDB_HOST=db\nSTRIPE_KEY=sk_test_51Habc123xyz\nDEBUG=true", ["sk_test_51Habc123xyz"]),
        ("export MAPS_API_KEY='AbCd1234EfGh5678'", ["AbCd1234EfGh5678"]),
    ],
)
def test_letter_recovery_codes_and_env_keys_are_redacted(text: str, secrets: list[str]) -> None:
    result = redact(text)

    for secret in secrets:
        assert secret not in result.text, result.text


@pytest.mark.parametrize(
    "text",
    [
        "recovery mode: READ-ONLY",
        "primary_key=user_id_2024",
        "SORT_KEY=created_at",
        "MONKEY=banana",
    ],
)
def test_word_pairs_and_plain_env_keys_stay_whole(text: str) -> None:
    assert redact(text).text == text
