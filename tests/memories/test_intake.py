"""The one redaction entry (`memories.services.intake`): pure functions, no database."""

import pytest

from memories.logic.redaction import PLACEHOLDER_PATTERN, redact
from memories.services.intake import excerpt, message_intake, terms_intake, text_intake
from memoryhub import text as text_analysis
from memoryhub.validation import InvalidText

API_KEY = "sk-ant-api03-Qw7pLm2Zx9Rt4Vb8Nc3Hy6Js1Kd5Fg0A"
CARD = "4012 8888 8888 1881"


def test_intake_replaces_secrets_and_says_which_kinds():
    result = text_intake(f"키는 {API_KEY} 이고 카드는 {CARD} 야. 비번은 Kimchi2024야")

    assert API_KEY not in result.text and CARD not in result.text
    assert "Kimchi2024" not in result.text
    assert result.found
    assert set(result.kinds) == {"api key", "card number", "password"}


def test_a_stored_marker_quoted_again_is_kept_exactly_as_it_is():
    quoted = "저장된 비번은 [redacted: password]야. The password: [redacted: password] too."

    result = text_intake(quoted)

    assert result.text == quoted
    assert not result.found


def test_intake_is_idempotent_on_text_with_secrets_and_markers():
    text = f"비번은 Kimchi2024야, 예전 건 [redacted: password]였고 key={API_KEY}"

    once = text_intake(text).text

    assert text_intake(once).text == once
    assert "password] password]" not in once


def test_a_secret_next_to_a_marker_is_still_redacted():
    result = text_intake(f"[redacted: password] 그리고 카드 {CARD}")

    assert CARD not in result.text
    assert result.text.startswith("[redacted: password] 그리고 카드 [redacted: card number]")


def test_message_intake_checks_the_text_before_redacting():
    with pytest.raises(InvalidText):
        message_intake("   ")
    with pytest.raises(InvalidText):
        message_intake("a\x00b")

    assert CARD not in message_intake(f"card {CARD}")


def test_terms_with_a_secret_or_a_marker_are_dropped():
    assert terms_intake(["결제", API_KEY, "[redacted: password]", "도메인"]) == ["결제", "도메인"]


@pytest.mark.parametrize(
    "text",
    [
        f"key {API_KEY}",
        f"card {CARD}",
        "비번은 Kimchi2024야",
        "my password is Tr0ub4dor&3",
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
    ],
)
def test_text_analysis_knows_every_marker_redaction_leaves(text):
    # memoryhub cannot import memories, so the marker's shape is repeated there.
    markers = [m.group(0) for m in PLACEHOLDER_PATTERN.finditer(redact(text).text)]

    assert markers
    assert all(text_analysis.REDACTION_MARKER.fullmatch(m) for m in markers)


def test_an_excerpt_never_cuts_a_marker_in_two():
    text = "카드 " + "가" * 70 + " [redacted: card number] 로 결제\n둘째 줄"

    short = excerpt(text, 80)

    assert short == "카드 " + "가" * 70
    assert excerpt("짧은 첫 줄\n둘째 줄", 80) == "짧은 첫 줄"
    assert excerpt("a" * 100, 80) == "a" * 80


def test_a_tag_or_keyword_that_is_a_marker_in_any_form_or_language_is_dropped():
    given = ["등산", "removed", "[removed]", "(삭제됨)", "삭제됨", "(card number hidden)",
             "REDACTED", "withheld", "hiking", "삭제"]  # fmt: skip

    assert terms_intake(given) == ["등산", "hiking", "삭제"]
