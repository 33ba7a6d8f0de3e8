"""Secret redaction (issue 5 line 3): pure, no database."""

from __future__ import annotations

import pytest

from memories.services.secrets import contains_secret, luhn_valid, redact

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
