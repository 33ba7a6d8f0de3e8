"""Stored codes are shown by their choices' labels, in English and in Korean."""

from __future__ import annotations

import pytest
from django import template
from django.db import models
from django.utils import translation

from conversations import models as chat_models
from memories import labels
from memories import models as memory_models
from memories.reasons import ChangeReason, StatusReason
from memories.templatetags.memory_labels import memory_label

CHOICES: list[type[models.TextChoices]] = [
    memory_models.MemoryType,
    memory_models.MemoryStatus,
    memory_models.CreatedBy,
    memory_models.Sensitivity,
    memory_models.Reader,
    memory_models.AgentScope,
    memory_models.DeletionReceipt.Kind,
    memory_models.AuditEvent.Action,
    memory_models.ExtractionRun.Status,
    chat_models.ChatSession.Status,
    chat_models.ChatSession.Source,
    chat_models.Message.Role,
    chat_models.HistoryImport.Status,
    chat_models.HistoryImport.Failure,
    StatusReason,
    ChangeReason,
    labels.ChangedField,
    labels.RemovedCount,
    labels.CopyKind,
    labels.AgentTool,
    labels.AgentToolTried,
    labels.AgentCallOutcome,
    labels.ChatRecord,
]


def _hangul(text: str) -> bool:
    return any("\uac00" <= char <= "\ud7a3" for char in text)


@pytest.mark.parametrize("choices", CHOICES, ids=lambda c: c.__qualname__)
def test_every_choice_has_a_translated_label(choices):
    """A label Django makes up from a member's name is never translated: this finds it."""
    with translation.override("ko"):
        korean = {value: str(label) for value, label in choices.choices}
    assert {value: label for value, label in korean.items() if not _hangul(label)} == {}


@pytest.mark.parametrize(
    ("value", "kind", "english", "korean"),
    [
        ("pending", "status", "Waiting for approval", None),
        ("memories.versions", "removed-key", "Versions", None),
        ("versions", "removed-key", "Versions", None),
        ("expires_at", "field", "Expires", None),
        ("recalled", "copy-kind", "What a later reply recalled", None),
        ("title", "copy-kind", "Conversation title", "대화 제목"),
        ("summary", "copy-kind", "Conversation summary (made again)", "대화 요약"),
        ("search_memory", "agent-tool", "Searched your memories", None),
        ("export_everything", "agent-tool", "Called export_everything", "export_everything"),
        ("no_such_status", "status", "no_such_status", "no_such_status"),
    ],
)
def test_a_stored_code_is_shown_by_its_label(value, kind, english, korean):
    with translation.override("en"):
        assert memory_label(value, kind) == english
    with translation.override("ko"):
        shown = memory_label(value, kind)
    if korean is None:
        assert _hangul(shown)
    else:
        assert korean in shown


def test_a_template_naming_unknown_choices_fails_loudly():
    with pytest.raises(template.TemplateSyntaxError):
        memory_label("active", "no such kind")


def test_every_kind_of_chat_record_admin_records_a_read_of_has_a_label():
    from django.contrib import admin

    read_kinds = {
        model_admin.read_kind
        for model_admin in admin.site._registry.values()
        if hasattr(model_admin, "read_kind")
    }

    assert read_kinds
    assert read_kinds <= set(labels.ChatRecord.values)


@pytest.mark.parametrize(
    ("kind", "number", "detail", "english", "korean"),
    [
        ("session", "12", {}, "Chat session 12", "대화 12"),
        (
            "message",
            "",
            {"listed": 3, "searched": True},
            "3 chat messages in a list (found by a search)",
            "검색으로 찾음",
        ),
        (
            "tag_history",
            "",
            {"listed": 1},
            "1 chat tag history entry in a list",
            "대화 태그 이력 1건",
        ),
        ("import", "", {}, "0 history imports in a list", "0건"),
        ("attachment", "5", {}, "attachment 5", "attachment 5"),
        ("attachment", "", {"listed": 2}, "attachment", "attachment"),
    ],
)
def test_a_staff_read_of_chats_is_named_from_its_kind_number_and_count(
    kind, number, detail, english, korean
):
    with translation.override("en"):
        assert labels.chat_read_label(kind=kind, number=number, detail=detail) == english
    with translation.override("ko"):
        assert korean in labels.chat_read_label(kind=kind, number=number, detail=detail)
