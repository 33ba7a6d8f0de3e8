"""Redaction placeholders in the reader's language (issue 13 line 3); stored text keeps the
English code."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

from memories.redaction_labels import KIND_LABELS, kind_label, render_placeholders
from memories.services.secrets import KINDS


def test_every_kind_has_a_label():
    assert set(KIND_LABELS) == set(KINDS)


def test_a_placeholder_reads_in_korean_for_a_korean_reader():
    with translation.override("ko"):
        shown = render_placeholders("내 비밀번호는 [redacted: password]야")

    assert shown == "내 비밀번호는 [가려짐: 비밀번호]야"


def test_every_kind_is_translated_to_korean():
    with translation.override("en"):
        english = {kind: kind_label(kind) for kind in KINDS}
    with translation.override("ko"):
        korean = {kind: kind_label(kind) for kind in KINDS}

    assert all(korean[kind] != english[kind] for kind in KINDS), korean


def test_an_english_reader_sees_the_english_words():
    with translation.override("en"):
        shown = render_placeholders("card [redacted: card number], cvc [redacted: card code]")

    assert shown == "card [redacted: card number], cvc [redacted: card security code]"


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

    assert html == "&lt;b&gt;비번&lt;/b&gt; [가려짐: 비밀번호]"
