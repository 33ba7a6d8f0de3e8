"""Every label the admin shows for the project's models reads in the reader's language (issue 19
line 7): each field's name and help, each model's names, and the admin's column headers,
filters, read-only fields and actions. Run without a database: labels are code."""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.db.models import Field, Model
from django.test import RequestFactory
from django.utils import translation

from conversations.models import ChatSession, HistoryImport, Message, Topic
from memories.logic.write_policy import Decision
from memories.models import (
    Agent,
    AuditEvent,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryConflict,
    MemoryUse,
    MemoryVersion,
    PolicyDecision,
)
from memoryhub.models import LLMCall

PROJECT_APPS = ("account", "conversations", "memories", "memoryhub")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _project_models() -> list[type[Model]]:
    found = [
        model
        for config in apps.get_app_configs()
        if config.label in PROJECT_APPS
        for model in config.get_models()
    ]
    assert found
    return found


def _labelled_fields(model: type[Model]) -> Iterator[Field[Any, Any]]:
    """The fields a person can meet in admin: all but Django's implicit `id` and reverse
    relations."""
    for field in model._meta.get_fields():
        if isinstance(field, Field) and not field.auto_created:
            yield field


def _in(language: str, text: Any) -> str:
    with translation.override(language):
        return str(text)


def _untranslated(texts: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The texts whose Korean has no Hangul or whose English has some: (English, Korean)."""
    pairs = {where: (_in("en", text), _in("ko", text)) for where, text in texts.items()}
    return {
        where: (english, korean)
        for where, (english, korean) in pairs.items()
        if not HANGUL.search(korean) or HANGUL.search(english)
    }


def test_every_field_of_every_project_model_has_a_korean_and_an_english_name():
    names = {
        f"{model.__name__}.{field.name}": field.verbose_name
        for model in _project_models()
        for field in _labelled_fields(model)
    }

    assert len(names) > 100
    assert _untranslated(names) == {}


def test_every_field_name_is_given_not_made_from_the_attribute():
    # Django's fallback ("source_message_id" -> "source message id") is English in Korean too.
    made = [
        f"{model.__name__}.{field.name}"
        for model in _project_models()
        for field in _labelled_fields(model)
        if "verbose_name" not in field.deconstruct()[3]
    ]

    assert made == []


def test_every_help_text_of_a_project_model_is_translated():
    helps = {
        f"{model.__name__}.{field.name}": field.help_text
        for model in _project_models()
        for field in _labelled_fields(model)
        if field.help_text
    }

    assert len(helps) > 20
    assert _untranslated(helps) == {}


def test_every_choice_of_a_project_model_field_is_translated():
    labels = {
        f"{model.__name__}.{field.name}={value}": label
        for model in _project_models()
        for field in _labelled_fields(model)
        # An array of choices (an agent's scopes) keeps them on its base field.
        for value, label in field.flatchoices or getattr(field, "base_field", field).flatchoices
    }

    assert len(labels) > 40
    assert _untranslated(labels) == {}


def test_every_write_policy_decision_has_a_label():
    assert set(PolicyDecision.values) == {decision.value for decision in Decision}


def test_every_project_model_has_a_translated_name_and_a_given_plural():
    names: dict[str, Any] = {}
    for model in _project_models():
        # A plural Django makes by adding "s" reads "Tag weight historys".
        assert "verbose_name_plural" in model._meta.original_attrs, model.__name__
        names[f"{model.__name__} (one)"] = model._meta.verbose_name
        names[f"{model.__name__} (many)"] = model._meta.verbose_name_plural

    assert _untranslated(names) == {}


def _admin_label_sources(model: type[Model], model_admin: Any) -> set[str]:
    """The names of every list column, read-only field and form field of an admin or inline."""
    request = RequestFactory().get("/")
    request.user = SimpleNamespace(has_perm=lambda _perm: True)  # type: ignore[assignment]
    names: set[str] = set()
    names.update(n for n in getattr(model_admin, "list_display", ()) if isinstance(n, str))
    names.update(model_admin.readonly_fields)
    for _title, options in model_admin.get_fieldsets(request):
        for entry in options["fields"]:
            names.update(entry if isinstance(entry, (list, tuple)) else [entry])
    return names - {"id", "__str__", "action_checkbox"}


def _registered() -> list[tuple[type[Model], admin.ModelAdmin[Any]]]:
    return [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in PROJECT_APPS
    ]


@pytest.mark.parametrize(
    ("model", "model_admin"),
    _registered(),
    ids=[model.__name__ for model, _model_admin in _registered()],
)
def test_every_admin_column_field_and_action_of_a_project_model_is_translated(model, model_admin):
    labels: dict[str, Any] = {}
    for name in _admin_label_sources(model, model_admin):
        labels[f"field {name}"] = label_for_field(name, model, model_admin)
    for inline_class in model_admin.inlines:
        inline = inline_class(model, admin.site)
        for name in _admin_label_sources(inline.model, inline):
            labels[f"{inline.model.__name__} field {name}"] = label_for_field(
                name, inline.model, inline
            )
    for entry in model_admin.list_filter:
        path = entry[0] if isinstance(entry, tuple) else entry
        if isinstance(path, str):
            field = model._meta.get_field(path.split("__")[0])
            for part in path.split("__")[1:]:
                field = field.related_model._meta.get_field(part)
            labels[f"filter {path}"] = field.verbose_name
    for action in model_admin.actions or ():
        if isinstance(action, str):
            function = getattr(model_admin, action)
            labels[f"action {action}"] = function.short_description

    assert _untranslated(labels) == {}


def _rows() -> dict[str, Model]:
    """One unsaved row of each project model whose name in admin is not the person's own words
    (a tag's rows are named by the tag)."""
    rows: list[Model] = [
        Agent(pk=1, name="Notes"),
        Memory(pk=2, type="fact", status="active"),
        MemoryConflict(from_memory_id=2, to_memory_id=3),
        MemoryVersion(memory_id=2, version=4),
        MemoryUse(memory_id=2, message_id=5, rank=1),
        DeletionReceipt(kind="memory", memory_id="2"),
        AuditEvent(action="staff_view", target_type="memory", target_id="2"),
        ExtractionRun(pk=6, status="done"),
        ChatSession(pk=7),
        Topic(pk=8),
        Message(role="user", content="Hello"),
        HistoryImport(pk=9, status="done"),
        LLMCall(task="reply", model="offline"),
    ]
    return {type(row).__name__: row for row in rows}


def test_what_admin_calls_a_row_of_a_project_model_is_translated():
    rows = _rows()
    covered = {model.__name__ for model in _project_models()} - {"TagWeight", "TagWeightHistory"}

    assert set(rows) == covered
    assert _untranslated(dict(rows)) == {}


def test_every_app_and_model_in_the_admin_is_named_in_korean_third_party_ones_too():
    english_only = []
    for model in admin.site._registry:
        app = apps.get_app_config(model._meta.app_label)
        for text in (app.verbose_name, model._meta.verbose_name, model._meta.verbose_name_plural):
            korean = _in("ko", text)
            if not re.search(r"[가-힣]", korean):
                english_only.append(f"{model._meta.label}: {korean}")
    assert english_only == []
