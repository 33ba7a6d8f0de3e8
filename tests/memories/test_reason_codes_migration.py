"""Migration 0011 maps every reason sentence the services stored to its code, and back."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

migration = importlib.import_module("memories.migrations.0011_reason_codes")

BEFORE = [("memories", "0010_memory_conflict_user")]
AFTER = [("memories", "0011_reason_codes")]


@pytest.mark.parametrize(
    ("sentence", "code", "params"),
    [
        ("reads as instructions to the assistant: quarantined as data", "injection", {}),
        ("assistant inference: pending until the user approves it", "assistant_inference", {}),
        (
            "volatile fact (price, stock, weather, policy): short expiry (24 h)",
            "volatile_fact",
            {"hours": 24},
        ),
        ("volatile fact (price, stock, weather, policy): short expiry", "volatile_fact", {}),
        (
            "stated preference: stored with the user's scope and the time of change",
            "awaiting_approval",
            {"kind": "stated_preference"},
        ),
        ("approved by the user", "approved", {}),
        ("confirmed by the user's own statement", "confirmed", {}),
        ("rejected by the user", "rejected", {}),
        ("removed by the assistant with its memory tool", "removed_by_assistant", {}),
        ("marked wrong by the user", "marked_wrong", {"count": 2}),
        ("the user took back marking it wrong", "wrong_undone", {}),
        ("past its expiry time", "expired", {}),
        ("quarantined by staff", "staff_quarantine", {}),
        ("", "", {}),
    ],
)
def test_every_status_sentence_maps_to_its_code_and_back(sentence, code, params):
    assert migration.code_of(sentence, wrong_count=2) == (code, params)
    assert migration.sentence_of(code, params) == sentence


def test_an_older_wording_of_a_wrong_mark_keeps_its_count():
    assert migration.code_of("marked wrong 3 times by the user", wrong_count=1) == (
        "marked_wrong",
        {"count": 3},
    )


def test_a_status_sentence_no_code_fits_is_kept_as_a_parameter():
    assert migration.code_of("reported by the user to support", wrong_count=0) == (
        "other",
        {"text": "reported by the user to support"},
    )
    assert migration.sentence_of("other", {"text": "reported by the user to support"}) == (
        "reported by the user to support"
    )


@pytest.mark.parametrize(
    ("sentence", "code", "params"),
    [
        ("created", "created", {}),
        ("written by the user", "written_by_user", {}),
        ("edited by the user", "edited_by_user", {}),
        ("extracted from the conversation", "extracted", {}),
        ("extracted; conflicts with an existing memory", "extracted_conflict", {}),
        ("corrected by a later statement", "corrected", {}),
        ("corrected by a later statement (message 77)", "corrected", {"message_id": 77}),
        ("edited by the assistant (memory tool)", "edited_by_assistant", {}),
        ("written by a connected agent", "written_by_agent", {}),
        ("undone from the chat: back to version 2", "undone_from_chat", {"version": 2}),
        ("marked wrong by the user (2x)", "marked_wrong", {"count": 2}),
        ("edited", "other", {"text": "edited"}),
    ],
)
def test_every_change_sentence_maps_to_its_code_and_back(sentence, code, params):
    assert migration.change_code_of(sentence) == (code, params)
    assert migration.change_sentence_of(code, params) == sentence


def _migrate(target: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_rewrites_stored_rows_and_reverses(user):
    leaf = MigrationExecutor(connection).loader.graph.leaf_nodes("memories")
    try:
        apps = _migrate(BEFORE)
        Memory = apps.get_model("memories", "Memory")
        MemoryVersion = apps.get_model("memories", "MemoryVersion")
        rows = {
            "quarantined by staff": Memory.objects.create(user_id=user.pk, type="fact"),
            "marked wrong by the user": Memory.objects.create(
                user_id=user.pk, type="fact", wrong_count=2
            ),
            "a note a staff member typed": Memory.objects.create(user_id=user.pk, type="fact"),
        }
        for sentence, memory in rows.items():
            Memory.objects.filter(pk=memory.pk).update(status_reason=sentence)
        version = MemoryVersion.objects.create(
            memory_id=rows["quarantined by staff"].pk,
            user_id=user.pk,
            version=1,
            type="fact",
            content="I like plums",
            fingerprint="f",
            policy_decision="store",
            policy_reason="the user stated it about themselves: stored with its source",
            change_reason="corrected by a later statement (message 5)",
        )

        apps = _migrate(AFTER)
        Memory = apps.get_model("memories", "Memory")
        MemoryVersion = apps.get_model("memories", "MemoryVersion")
        coded = {
            sentence: Memory.objects.values_list("status_reason", "status_params").get(pk=m.pk)
            for sentence, m in rows.items()
        }
        assert coded == {
            "quarantined by staff": ("staff_quarantine", {}),
            "marked wrong by the user": ("marked_wrong", {"count": 2}),
            "a note a staff member typed": ("other", {"text": "a note a staff member typed"}),
        }
        assert MemoryVersion.objects.values_list("change_reason", "change_params").get(
            pk=version.pk
        ) == ("corrected", {"message_id": 5})

        apps = _migrate(BEFORE)
        Memory = apps.get_model("memories", "Memory")
        MemoryVersion = apps.get_model("memories", "MemoryVersion")
        restored = {
            sentence: Memory.objects.values_list("status_reason", flat=True).get(pk=m.pk)
            for sentence, m in rows.items()
        }
        assert restored == {sentence: sentence for sentence in rows}
        assert MemoryVersion.objects.values_list("change_reason", flat=True).get(pk=version.pk) == (
            "corrected by a later statement (message 5)"
        )
    finally:
        _migrate(leaf)
