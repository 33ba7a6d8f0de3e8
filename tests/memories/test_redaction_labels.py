"""Redaction placeholders in the reader's language (issue 13 line 3) and as words, never as the
stored codes (issue 14 line 9); stored text keeps the English code."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from memories.logic.redaction import KINDS
from memories.redaction_labels import KIND_LABELS, kind_label, render_placeholders


def test_every_kind_has_a_label():
    assert set(KIND_LABELS) == set(KINDS)


def test_a_placeholder_reads_in_korean_for_a_korean_reader():
    with translation.override("ko"):
        shown = render_placeholders("내 비밀번호는 [redacted: password]야")

    assert shown == "내 비밀번호는 (비밀번호 가림)야"


def test_every_kind_is_translated_to_korean():
    with translation.override("en"):
        english = {kind: kind_label(kind) for kind in KINDS}
    with translation.override("ko"):
        korean = {kind: kind_label(kind) for kind in KINDS}

    assert all(korean[kind] != english[kind] for kind in KINDS), korean


def test_an_english_reader_sees_the_english_words():
    with translation.override("en"):
        shown = render_placeholders("card [redacted: card number], cvc [redacted: card code]")

    assert shown == "card (card number hidden), cvc (card security code hidden)"


def test_text_without_placeholders_is_returned_as_it_is():
    with translation.override("ko"):
        assert (
            render_placeholders("[redacted: 아무거나] 그냥 글자")
            == "[redacted: 아무거나] 그냥 글자"
        )


def test_the_template_filter_translates_and_still_escapes():
    template = Template("{% load redaction %}{{ text|redaction_labels }}")

    with translation.override("ko"):
        html = template.render(Context({"text": "<b>비번</b> [redacted: password]"}))

    assert html == "&lt;b&gt;비번&lt;/b&gt; (비밀번호 가림)"


def test_a_chat_page_shows_stored_markers_in_the_readers_language(client, user):
    from conversations.models import ChatSession, Message

    session = ChatSession.objects.create(user=user, title="와이파이 [redacted: password]")
    Message.objects.create(
        session=session,
        user=user,
        role=Message.Role.USER,
        content="비번은 [redacted: password]이고 [removed] 기억해",
    )  # a chat row as the chat service stores it after redaction and a forgetting
    client.force_login(user)
    url = f"/sessions/{session.pk}/"

    korean = client.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "(비밀번호 가림)" in korean and "(삭제됨)" in korean
    assert "(password hidden)" in english and "(deleted)" in english
    for page in (korean, english):
        assert "[redacted: password]" not in page and "[removed]" not in page


def test_a_memory_page_shows_a_stored_placeholder_in_korean(client, user, remember):
    from memories.logic import redaction

    memory = remember("회사 와이파이 설정 메모")
    # as a memory typed with a secret is stored; versions are immutable, so set it in SQL
    memory.versions.update(
        content="회사 와이파이 비번 " + redaction.PLACEHOLDER.format(kind="password")
    )
    client.force_login(user)

    page = client.get(f"/memories/{memory.pk}/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "(비밀번호 가림)" in page  # the edit form still holds the code: it is saved back


def test_text_withheld_as_instructions_reads_in_korean():
    from memories.logic.injection import WITHHELD

    with translation.override("ko"):
        shown = render_placeholders(f"[session 3] {WITHHELD}")

    assert "보류됨" in shown and "withheld" not in shown and "[" not in shown.split("] ", 1)[1]
